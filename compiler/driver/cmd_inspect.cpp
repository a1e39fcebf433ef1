// pzc inspect FILE [--header]: what the code generator decided for FILE: the
// state layout, each move's kernel with its constants, the canonical
// tables, the symmetries and the coordinate sizes. --header prints the
// generated traits header instead (scripts/regenerate.sh uses it).
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/perm_build.hpp"

namespace pz::driver {

int runInspect(const Args& args) {
    std::vector<std::string> files;
    bool header = false;
    OptionParser options("inspect", "usage: pzc inspect FILE [--header]\n");
    options.positionals(files, 1, 1, "FILE").flag("--header", header);
    if (auto rc = options.parse(args)) return *rc;
    const std::string& file = files[0];
    ir::Puzzle puzzle;
    codegen::SolverModel model;
    bool isGrid = false;
    if (!loadSolverModel(file, puzzle, model, isGrid)) return 1;
    if (isGrid) {
        std::cerr << "pzc inspect: error: " << puzzle.name << " is a grid-actor puzzle; inspect shows permutation puzzles\n";
        return 1;
    }
    std::cout << (header ? codegen::emitTraitsHeader(model, file) : codegen::describeModel(model));
    return 0;
}

}  // namespace pz::driver
