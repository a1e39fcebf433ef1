// pzc solve-dir DEF (DIR | LEVEL_FILE...) [options]: solve a folder of levels
// and print a table (grid-actor puzzles: GridBackend::solveFolder).
#include <iostream>

#include "compiler/driver/backend.hpp"

namespace pz::driver {

int runSolveLevels(const Args& args) {
    if (args.size() < 2 || args[0] == "--help") {
        std::cerr << "usage: pzc solve-dir DEF (DIR | LEVEL_FILE...) [--json] [--bfs] [--interp] [--max-states N] [--repeat N]\n"
                     "                     [--emit FILE|- [--no-main] [--namespace NAME]] [--hall]\n";
        return args.size() == 1 && args[0] == "--help" ? 0 : 2;
    }
    pipeline::CompilationUnit unit(args[0]);
    if (!loadUnit(unit)) return 1;
    return backendFor(unit).solveFolder(unit, Args(args.begin() + 1, args.end()));
}

}  // namespace pz::driver
