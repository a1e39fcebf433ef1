// Reading an original grid-actor level file (Anima's format) into ir::Level.
//
//   .r.r.        grid rows, top row first; '.' floor, ' ' wall, a colour's
//   .....        goal char (e.g. 'r') is a goal on floor; off-board is wall
//                an empty line ends the grid
//   R 1 2        then one actor per line: colour char, x, y (y counts up
//   B 2 2        from the bottom row); extra tokens after y are ignored
//
// Every error of the file is reported (file:line:col) in one run: uneven
// rows, unknown characters, a missing blank line after the grid, bad actor
// colours or coordinates, actors off the board, on a wall, or sharing a cell.
#pragma once

#include <optional>
#include <string>

#include "compiler/ir/puzzle.hpp"
#include "dsl/diagnostics.hpp"

namespace pz {

// Parses `text` (already registered with `diags` under `file` by the caller,
// or not: readLevelFile registers it). The level's name is the file stem.
std::optional<ir::Level> parseLevelText(const std::string& file, const std::string& text,
                                        const ir::GridRules& rules, DiagnosticEngine& diags);

// readFile + addSource + parseLevelText.
std::optional<ir::Level> readLevelFile(const std::string& path, const ir::GridRules& rules,
                                       DiagnosticEngine& diags);

}  // namespace pz
