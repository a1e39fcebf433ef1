// The stages of pzc build / solve / inspect for permutation puzzles, on a
// compilation unit (compiler/pipeline), with diagnostics printed to stderr.
#pragma once

#include <optional>
#include <string>

#include "compiler/pipeline/compilation_unit.hpp"

namespace pz::driver {

// The definition's bytes, as the solver index keys them (note [solver index]).
std::string definitionBytes(const pipeline::CompilationUnit& unit);

// The state layout alone (no group analysis). Prints diagnostics; null on error.
const analysis::StateLayout* planLayout(pipeline::CompilationUnit& unit);

// note [default solver]
// The solver a command runs without --solver: when a definition declares
// solvers, the first one, whatever its kind (its author's choice); with
// none declared, an optimal search over every declared pattern (or default
// patterns). A first-declared optimal solver is the default optimal build
// (solver index -1), so this names only a first solver of another kind:
// its name, else "" (the default optimal search).
std::string defaultSolverName(const ir::Puzzle& puzzle);

// The index of declared solver `name` (-1 when `name` is empty: the
// default); nullopt after "pzc COMMAND: error: P declares no solver 'name'
// (declared: ...)" on stderr (exit code 2).
std::optional<int> declaredSolver(const ir::Puzzle& puzzle, const std::string& name, const char* command);

// check + plan: the model of optimal solver `solver` (-1: the default one,
// note [search plans]) of a loaded permutation puzzle. Prints diagnostics;
// null on error.
const analysis::SolverModel* planSolver(pipeline::CompilationUnit& unit, int solver = -1);

// plan + emit + build: the default solver (solver < 0) or declared solver
// `solver` (optimal or phased), compiled (or reused from the binary cache);
// copied to `outputPath` when given. Prints diagnostics; returns the binary's path.
std::optional<std::string> compileSolver(pipeline::CompilationUnit& unit, int solver = -1,
                                         const std::string& outputPath = "");

}  // namespace pz::driver
