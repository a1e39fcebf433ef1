// The shared steps of pzc build / solve / inspect for permutation puzzles
// (declared in perm_build.hpp).
#include "compiler/driver/perm_build.hpp"

#include <iostream>

#include "compiler/analysis/puzzle_analysis.hpp"
#include "compiler/driver/native_build.hpp"
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

}  // namespace pz::driver
