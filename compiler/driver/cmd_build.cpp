// pzc build FILE -o BIN: generate the specialised solver for FILE, compile it
// with the system compiler against the runtime headers, and write BIN.
#include <iostream>

#include "compiler/analysis/puzzle_analysis.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/perm_build.hpp"
#include "compiler/ir/lower.hpp"

namespace pz::driver {

bool loadSolverModel(const std::string& file, ir::Puzzle& puzzle, codegen::SolverModel& model, bool& isGrid) {
    DiagnosticEngine diags;
    // Parse and lower the definition.
    auto loaded = ir::loadPuzzle(file, diags);
    if (!loaded) {
        diags.print(std::cerr);
        return false;
    }
    puzzle = std::move(*loaded);
    isGrid = puzzle.kind == ir::Puzzle::Kind::Grid;
    if (isGrid) return true;
    // Analyse: symmetries must map moves to moves, subgroups must be sound.
    analysis::PuzzleAnalysis groups(puzzle);
    bool ok = groups.check(diags);
    // Decide layout, kernels, canonical tables, coordinates.
    ok = ok && codegen::buildSolverModel(puzzle, model, diags);
    diags.print(std::cerr);
    return ok;
}

std::optional<std::string> compileSolver(const codegen::SolverModel& model, const std::string& source,
                                         const std::string& outputPath) {
    DiagnosticEngine diags;
    NativeBuild build;
    build.source = codegen::emitSolverMain(model, "", source);
    build.stem = model.identifier;
    auto bin = buildNative(build, diags, outputPath);
    diags.print(std::cerr);
    return bin;
}

int runBuild(const Args& args) {
    std::vector<std::string> files;
    std::string output;
    OptionParser options("build", "usage: pzc build FILE -o BIN\n");
    options.positionals(files, 1, 1, "FILE").value("-o", output).value("--output", output).exclusive({"-o", "--output"});
    if (auto rc = options.parse(args)) return *rc;
    if (output.empty()) return options.fail("-o BIN is required");
    const std::string& file = files[0];
    if (sameFile(file, output)) return options.fail("-o " + output + " would overwrite the definition " + file);
    ir::Puzzle puzzle;
    codegen::SolverModel model;
    bool isGrid = false;
    if (!loadSolverModel(file, puzzle, model, isGrid)) return 1;
    if (isGrid) {
        std::cerr << "pzc build: error: " << puzzle.name
                  << " is a grid-actor puzzle; use 'pzc solve FILE --level LEVEL'\n";
        return 1;
    }
    // Emit C++ and compile it with the runtime in one step.
    if (!compileSolver(model, file, output)) return 1;
    std::cout << "wrote " << output << " (run '" << output << " --help' for its options)\n";
    return 0;
}

}  // namespace pz::driver
