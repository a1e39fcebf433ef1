// The permutation back end's emitters (compiler/codegen/perm/), their
// public entry points: the traits header of a solver model (traits.cpp and
// the sections of sections.hpp), a solver's main(), phased solvers' plans
// (phase_plan.cpp: each phase's moves, canonical automaton, coordinate parts
// and pruning-table pairs as pz::PhaseSpec data, and a main() running
// pz::phasedMain, runtime/include/pz/phased_main.hpp), and the reports of
// `pzc inspect` (describe.cpp). The plans themselves are analyses:
// analysis::SolverModel (compiler/analysis/perm/solver_model.hpp) and
// analysis::SolverPlan (compiler/analysis/perm/coset_coordinates.hpp).
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis/perm/coset_coordinates.hpp"
#include "compiler/analysis/perm/solver_model.hpp"

namespace pz::codegen {

// The plan's types, as the emitters name them.
using analysis::LaneKernel;
using analysis::MoveKernel;
using analysis::ShiftTerm;
using analysis::SolverModel;
using analysis::WordKernel;
using analysis::hex64;
using analysis::labelledView;
using analysis::packElement;

// The generated traits header (deterministic; `source` is named in the banner).
// Its code is in namespace pzgen::<puzzle>, or pzgen::<ns> when `ns` is given
// (a library holding several optimal solvers: note [library sources]); table
// keys are hashed as if it were pzgen::<puzzle>, so every namespace shares tables.
std::string emitTraitsHeader(const SolverModel& model, const std::string& source, const std::string& ns = "");
// The solver's main translation unit, including the traits header by `include`.
std::string emitSolverMain(const SolverModel& model, const std::string& include, const std::string& source);
// The enumerator's translation unit (pzc enumerate): the traits header and
// a main() over the model's first pattern (runtime pz/enumerate/).
std::string emitEnumeratorMain(const SolverModel& model, const std::string& source);
// A readable report for `pzc inspect`.
std::string describeModel(const SolverModel& model);

// A solver's name in generated function names (phasePlan_<identifierOf(name)>).
std::string identifierOf(const std::string& name);
// The function `phasePlan_<solver>()` returning the phases (deterministic).
std::string emitPhasePlan(const SolverModel& model, const analysis::SolverPlan& plan);
// The definition of `Traits::cosetPatterns()` (note [coset patterns]): one
// pz::CosetPatternSpec per searched coset pattern, each keyed by a hash of
// `core` (the traits' state, kernels, element tables and group operations)
// and its own plan (note [coset table keys]); "" when there is none.
std::string emitCosetPatterns(const SolverModel& model, const std::string& core);
// Whether some coset pattern is projected (it then has generated ranks,
// Traits::cosetRank: note [fixed ranks] in pz/search/phased.hpp).
bool hasProjectedCosetPattern(const SolverModel& model);
// The phased solver's translation unit: the traits header, the plan, main().
std::string emitPhasedSolverMain(const SolverModel& model, const analysis::SolverPlan& plan, const std::string& source);
// The phased solver's table cache key: a hash of its plan and the traits it runs on.
std::string phasedTablesHash(const SolverModel& model, const analysis::SolverPlan& plan, const std::string& source);
// A readable report of the plan (pzc inspect / check). With `classes`
// (per phase, analysis::countPhaseClasses) and `symmetryNames`
// (analysis::SymmetryGroup::names) it gives each symmetry-reduced table's
// symmetries and exact class count.
std::string describePlan(const ir::Puzzle& puzzle, const analysis::SolverPlan& plan,
                         const std::vector<analysis::PhaseClassCount>* classes = nullptr,
                         const std::vector<std::string>* symmetryNames = nullptr);

}  // namespace pz::codegen
