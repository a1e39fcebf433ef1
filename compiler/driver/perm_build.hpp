// Shared steps of pzc build / solve / inspect for permutation puzzles:
// load and analyse a definition into a SolverModel, and compile its solver.
#pragma once

#include <optional>
#include <string>

#include "compiler/codegen/solver_model.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::driver {

// Loads FILE, runs the analyses' checks and builds the model. Prints
// diagnostics; nullopt on error. `puzzle` receives the IR (the model points into it).
bool loadSolverModel(const std::string& file, ir::Puzzle& puzzle, codegen::SolverModel& model, bool& isGrid);

// Emits the solver's translation unit and compiles it (or reuses the cached
// binary); copies it to `outputPath` when given. Returns the binary's path.
std::optional<std::string> compileSolver(const codegen::SolverModel& model, const std::string& source,
                                         const std::string& outputPath = "");

}  // namespace pz::driver
