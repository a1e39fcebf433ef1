// Grid-actor puzzles in the driver: check (rules summary, --level).
#include <iostream>

#include "compiler/driver/grid_commands.hpp"

namespace pz::driver {

int checkGridPuzzle(const ir::Puzzle& puzzle, const Args& args) {
    for (const auto& a : args)
        if (a == "--level") {
            std::cerr << "pzc: error: --level needs the level reader (dsl/level_reader), not built yet\n";
            return 2;
        }
    std::cout << "grid puzzle " << puzzle.name << ": " << puzzle.grid.directions.size()
              << " directions, " << puzzle.grid.colours.size() << " colours, "
              << puzzle.grid.levelPaths.size() << " levels\n";
    return 0;
}

}  // namespace pz::driver

namespace pz::driver {

int solveGridPuzzle(const ir::Puzzle& puzzle, const Args&) {
    std::cerr << "pzc: error: solving grid puzzle " << puzzle.name
              << " needs the grid-actor solver, not built yet\n";
    return 2;
}

}  // namespace pz::driver
