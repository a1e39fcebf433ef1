// Subcommand parts for grid-actor puzzles (Anima), called by the generic
// commands when the loaded puzzle is a grid puzzle. Implemented in cmd_grid.cpp.
#pragma once

#include "compiler/driver/commands.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::driver {

// pzc check GRIDFILE [--level FILE] [--json]
int checkGridPuzzle(const ir::Puzzle& puzzle, const Args& args);

}  // namespace pz::driver

namespace pz::driver {
// pzc solve GRIDFILE --level FILE [--json]
int solveGridPuzzle(const ir::Puzzle& puzzle, const Args& args);
}  // namespace pz::driver
