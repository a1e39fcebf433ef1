// pzc inspect FILE [--header]: what the code generator decided for FILE: the
// state layout, each move's kernel with its constants, the canonical
// tables, the symmetries and the coordinate sizes. --header prints the
// generated traits header instead (scripts/regenerate.sh uses it).
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/perm_build.hpp"

namespace pz::driver {

int runInspect(const Args& args) {
    std::string file;
    bool header = false;
    for (const auto& a : args) {
        if (a == "--header") {
            header = true;
        } else if (a == "--help") {
            std::cout << "usage: pzc inspect FILE [--header]\n";
            return 0;
        } else if (file.empty() && a[0] != '-') {
            file = a;
        } else {
            std::cerr << "usage: pzc inspect FILE [--header]\n";
            return 2;
        }
    }
    if (file.empty()) {
        std::cerr << "usage: pzc inspect FILE [--header]\n";
        return 2;
    }
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
