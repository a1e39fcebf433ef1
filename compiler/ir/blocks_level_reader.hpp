// Reading sliding-block levels (note [blocks model] in blocks.hpp) for the
// rules of a `blocks` definition. A level file is one of:
//
//   (a) Rush Hour database notation: a width*height string, row by row
//       (`o` or `.` empty, `x` wall, `A`..`Z` pieces, A the red car),
//       alone on its line or as a database line `moves board cluster-size`
//       (`60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332`); a file of several
//       such lines holds several levels, named `<stem>:<line>`;
//   (b) `height` lines of `width` characters (the same characters);
//   (c) `height` lines of `width` whitespace-separated tokens, as in a board
//       block (`.` empty, `#` wall, a name or a number: a piece).
// Blank lines are ignored. A level of a definition with a board holds the
// board's pieces (its tiles, of the same shapes); a level of a definition
// without one types its pieces itself (BlockLayout::types), each piece its
// own type with the declared axis.
//
// Every error is reported file:line:col in one run: a wrong size, unknown
// characters, disconnected pieces, pieces on the definition's walls, a car
// that is neither horizontal nor vertical (`axis long`), pieces the board
// does not have or lacks, a missing goal piece, `moves blank` without one
// empty cell or with a piece that is not 1 x 1.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/blocks.hpp"
#include "dsl/diagnostics.hpp"

namespace pz {

// The levels of `text` (registered with `diags` under `file` if it is not).
std::optional<std::vector<ir::BlockLayout>> parseBlockLevelText(const std::string& file, const std::string& text,
                                                                const ir::BlockRules& rules, DiagnosticEngine& diags);

// readFile + addSource + parseBlockLevelText.
std::optional<std::vector<ir::BlockLayout>> readBlockLevelFile(const std::string& path, const ir::BlockRules& rules,
                                                               DiagnosticEngine& diags);

// An n-puzzle position given as text (`pzc solve --state`): the cells that
// are not walls, row by row, separated by whitespace or commas; `0` (or `.`)
// is the blank, every other token one of the board's 1 x 1 pieces, each
// once. Needs the rules' board. `what` names the text in messages
// ("<state>"). Solvability (parity) is not checked here.
std::optional<ir::BlockLayout> parseBlockState(const std::string& text, const ir::BlockRules& rules,
                                               const std::string& what, DiagnosticEngine& diags);

}  // namespace pz
