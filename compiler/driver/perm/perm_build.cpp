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

const analysis::SolverModel* planSolver(pipeline::CompilationUnit& unit, int solver) {
    DiagnosticEngine diags;
    const analysis::SolverModel* model = unit.solverModel(diags, solver);
    diags.print(std::cerr);
    return model;
}

std::optional<std::string> compileSolver(pipeline::CompilationUnit& unit, int solver, const std::string& outputPath) {
    // note [search plans]: an optimal solver is its model; a phased one its
    // plan over the default model.
    const bool phased = solver >= 0 && unit.puzzle().solvers[solver].kind == ir::Solver::Kind::Phased;
    if (!planSolver(unit, phased ? -1 : solver)) return std::nullopt;
    DiagnosticEngine diags;
    if (phased && !unit.phasedPlan(solver, diags)) {
        diags.print(std::cerr);
        return std::nullopt;
    }
    NativeBuild build;
    build.source = unit.solverSource(solver);
    build.stem = unit.solverStem(solver);
    auto bin = buildNative(build, diags, outputPath);
    diags.print(std::cerr);
    return bin;
}

}  // namespace pz::driver
