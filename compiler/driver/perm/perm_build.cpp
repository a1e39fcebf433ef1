// The stages of pzc build / solve / inspect for permutation puzzles
// (perm_build.hpp).
#include "compiler/driver/perm/perm_build.hpp"

#include <fstream>
#include <iostream>
#include <iterator>

#include "compiler/driver/native_build.hpp"

namespace pz::driver {

std::string definitionBytes(const pipeline::CompilationUnit& unit) {
    std::ifstream in(unit.file(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

const analysis::StateLayout* planLayout(pipeline::CompilationUnit& unit) {
    DiagnosticEngine diags;
    const analysis::StateLayout* layout = unit.stateLayout(diags);
    diags.print(std::cerr);
    return layout;
}

std::string defaultSolverName(const ir::Puzzle& puzzle) {
    if (puzzle.solvers.empty() || puzzle.solvers.front().kind == ir::Solver::Kind::Optimal) return "";
    return puzzle.solvers.front().name;
}

std::optional<int> declaredSolver(const ir::Puzzle& puzzle, const std::string& name, const char* command) {
    if (name.empty()) return -1;
    std::string names;
    for (size_t i = 0; i < puzzle.solvers.size(); ++i) {
        if (puzzle.solvers[i].name == name) return static_cast<int>(i);
        names += (i ? ", " : "") + puzzle.solvers[i].name;
    }
    std::cerr << "pzc " << command << ": error: " << puzzle.name << " declares no solver '" << name
              << "' (declared: " << (names.empty() ? "none" : names) << ")\n";
    return std::nullopt;
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
