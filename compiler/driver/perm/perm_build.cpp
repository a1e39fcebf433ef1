// The stages of pzc build / solve / inspect for permutation puzzles
// (perm_build.hpp).
#include "compiler/driver/perm/perm_build.hpp"

#include <iostream>

#include "compiler/driver/native_build.hpp"

namespace pz::driver {

const analysis::StateLayout* planLayout(pipeline::CompilationUnit& unit) {
    DiagnosticEngine diags;
    const analysis::StateLayout* layout = unit.stateLayout(diags);
    diags.print(std::cerr);
    return layout;
}

const analysis::SolverModel* planSolver(pipeline::CompilationUnit& unit) {
    DiagnosticEngine diags;
    const analysis::SolverModel* model = unit.solverModel(diags);
    diags.print(std::cerr);
    return model;
}

std::optional<std::string> compileSolver(pipeline::CompilationUnit& unit, int phased, const std::string& outputPath) {
    if (!planSolver(unit)) return std::nullopt;
    DiagnosticEngine diags;
    if (phased >= 0 && !unit.phasedPlan(phased, diags)) {
        diags.print(std::cerr);
        return std::nullopt;
    }
    NativeBuild build;
    build.source = unit.solverSource(phased);
    build.stem = unit.solverStem(phased);
    auto bin = buildNative(build, diags, outputPath);
    diags.print(std::cerr);
    return bin;
}

}  // namespace pz::driver
