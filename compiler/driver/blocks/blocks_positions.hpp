// The positions `pzc solve` reads for a sliding-block puzzle: an n-puzzle's
// --state, --scramble and --random; the layouts the back end solves are
// ir::BlockLayout values, the same for level files (ir level reader).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "compiler/ir/blocks.hpp"

namespace pz::driver::blocks {

// "cells row by row, 0 = blank" (compiler/ir/blocks_level_reader.hpp's
// parseBlockState), refused with a message when parity makes it unreachable.
std::optional<ir::BlockLayout> parseTileState(const ir::BlockRules& rules, const std::string& text);

// The moves (note [blocks move names]) applied to the solved board.
std::optional<ir::BlockLayout> scrambledTiles(const ir::BlockRules& rules, const std::string& moves, std::string& why);

// A uniformly random position of those the solved board reaches.
ir::BlockLayout randomTiles(const ir::BlockRules& rules, std::mt19937_64& rng);

// The cells of a tile puzzle's layout as --state text ("0 1 2 ...").
std::string tileStateText(const ir::BlockRules& rules, const ir::BlockLayout& layout);

}  // namespace pz::driver::blocks
