// The compilation unit: one definition, its IR and its analyses, each
// computed at most once per process and only when a stage asks for it.
//
// note [compilation unit]
// The stages of a permutation puzzle, in order, each a call into its folder:
//   load()          parse + lower      dsl/frontend, compiler/ir/lower
//   stateLayout()   bit layout         compiler/analysis/state_layout (no group analysis)
//   check()         group facts        compiler/analysis (PuzzleAnalysis::check)
//   solverModel()   plan               analysis::buildSolverModel (layout, kernels,
//                                      canonical automaton, coordinates, symmetries)
//   phasedPlan(i)   plan of phased solver i  analysis::buildSolverPlan
//   solverSource()  emit               compiler/codegen
//   build           compiler/driver/perm/perm_build (native_build: g++, cached)
// Every later stage runs the earlier ones it needs, so a command asks for
// what it prints and nothing more: `pzc solve` on a cached solver stops after
// load() (note [solver index]); `pzc check` never plans. One PuzzleAnalysis
// serves every stage (it caches Schreier–Sims, the symmetry closure, ...).
// Grid-actor puzzles stop after load(); their back end is compiler/driver/grid
// (note [back ends] in compiler/driver/backend.hpp).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "compiler/analysis/coset_coordinates.hpp"
#include "compiler/analysis/distinct_states.hpp"
#include "compiler/analysis/puzzle_analysis.hpp"
#include "compiler/analysis/sift_words.hpp"
#include "compiler/analysis/solver_model.hpp"
#include "compiler/ir/puzzle.hpp"
#include "dsl/diagnostics.hpp"

namespace pz::pipeline {

class CompilationUnit {
public:
    explicit CompilationUnit(std::string file) : file_(std::move(file)) {}
    // The analyses keep references into the unit: it is neither copied nor moved.
    CompilationUnit(const CompilationUnit&) = delete;
    CompilationUnit& operator=(const CompilationUnit&) = delete;

    const std::string& file() const { return file_; }

    // Parse + lower. False when the definition has errors (reported in `diags`).
    bool load(DiagnosticEngine& diags);
    const ir::Puzzle& puzzle() const { return *puzzle_; }
    bool isGrid() const { return puzzle_->kind == ir::Puzzle::Kind::Grid; }

    // The group analyses of a permutation puzzle, built on first use.
    analysis::PuzzleAnalysis& analysis();
    // Membership of states with identical pieces (any lift in the group),
    // over analysis(); built on first use.
    analysis::ColouringMembership& membership();
    // The state layout (bit packing) alone: no group analysis; null on error.
    const analysis::StateLayout* stateLayout(DiagnosticEngine& diags);
    // The analyses' semantic checks (symmetries map moves to moves, subgroups
    // are sound); run once, the verdict kept. Errors go to `diags` the first time.
    bool check(DiagnosticEngine& diags);
    // check() + the solver model (layout, kernels, canonical automaton,
    // coordinates); null on error.
    const analysis::SolverModel* solverModel(DiagnosticEngine& diags);
    // The searched moves: the metric's moves in declaration order (a solver's
    // move numbers index this list; it equals the model's canon.searchMoves).
    const std::vector<int>& metricMoves();
    // check() + the search plan of phased solver `solver`; null on error.
    const analysis::SolverPlan* phasedPlan(int solver, DiagnosticEngine& diags);

    // The word table of the puzzle's sift solvers (note [sift words]: one
    // table serves them all, and `pzc solve --sift`); null with the reason in `why`.
    const analysis::SiftWords* siftWords(std::string& why);

    // Emit: the translation unit of the default solver, or of phased solver
    // `solver` (>= 0). Needs solverModel() (and phasedPlan(solver)) to have succeeded.
    std::string solverSource(int solver = -1) const;
    // A readable name for the solver's binary in the cache.
    std::string solverStem(int solver = -1) const;

private:
    std::string file_;
    std::unique_ptr<ir::Puzzle> puzzle_;
    std::unique_ptr<analysis::PuzzleAnalysis> analysis_;
    std::unique_ptr<analysis::ColouringMembership> membership_;
    std::optional<bool> layoutBuilt_;
    analysis::StateLayout layout_;
    std::optional<bool> checked_;
    std::optional<bool> modelBuilt_;
    std::optional<std::vector<int>> metricMoves_;
    analysis::SolverModel model_;
    std::map<int, std::optional<analysis::SolverPlan>> plans_;  // nullopt: failed
    std::optional<std::optional<analysis::SiftWords>> sift_;    // inner nullopt: failed
    std::string siftWhy_;
};

}  // namespace pz::pipeline
