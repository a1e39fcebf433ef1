// Emission of phased solvers: the plan of each phase (moves, canonical
// automaton, coordinate parts, pruning-table pairs) as pz::PhaseSpec data,
// and a main() running pz::phasedMain (runtime/include/pz/phased_main.hpp).
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis/coset_coordinates.hpp"
#include "compiler/codegen/solver_model.hpp"

namespace pz::codegen {

// The function `phasePlan_<solver>()` returning the phases (deterministic).
std::string emitPhasePlan(const SolverModel& model, const analysis::SolverPlan& plan);
// The definition of `Traits::cosetPatterns()` (note [coset patterns]): one
// pz::CosetPatternSpec per searched coset pattern, keyed by a hash of
// `hashedBefore` (the traits) and the plans; "" when there is none.
std::string emitCosetPatterns(const SolverModel& model, const std::string& hashedBefore);
// The phased solver's translation unit: the traits header, the plan, main().
std::string emitPhasedSolverMain(const SolverModel& model, const analysis::SolverPlan& plan, const std::string& source);
// A readable report of the plan (pzc inspect / check). With `classes`
// (per phase, analysis::countPhaseClasses) and `symmetryNames`
// (analysis::SymmetryGroup::names) it gives each symmetry-reduced table's
// symmetries and exact class count.
std::string describePlan(const ir::Puzzle& puzzle, const analysis::SolverPlan& plan,
                         const std::vector<analysis::PhaseClassCount>* classes = nullptr,
                         const std::vector<std::string>* symmetryNames = nullptr);

}  // namespace pz::codegen
