// The compilation unit: one definition, its IR and its analyses, each
// computed at most once per process and only when a stage asks for it.
//
// note [compilation unit]
// The stages of a permutation puzzle, in order, each a call into its folder:
//   load()          parse + lower      dsl/frontend, compiler/ir/lower
//   stateLayout()   bit layout         compiler/analysis/perm/state_layout (no group analysis)
//   check()         group facts        compiler/analysis (PuzzleAnalysis::check)
//   solverModel()   plan               analysis::buildSolverModel (layout, kernels,
//                                      canonical automaton, coordinates, symmetries)
//   phasedPlan(i)   plan of phased solver i  analysis::buildSolverPlan
//   solverSource()  emit               compiler/codegen
//   build           compiler/driver/perm/perm_build (native_build: g++, cached)
//
// note [search plans]
// Each declared solver has its plan: an optimal solver its SolverModel
// (the patterns it declares, their coordinates and lookups), a phased one
// its SolverPlan (phases, coordinates, tables) over the default model's
// state and kernels. The default build is the first optimal solver (or,
// with none declared, every pattern); `pzc solve|build|inspect --solver
// NAME` picks another, and each is built, cached and indexed on its own.
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

#include "compiler/analysis/perm/coset_coordinates.hpp"
#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/analysis/perm/sift_words.hpp"
#include "compiler/analysis/perm/solver_model.hpp"
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
    // check() + the plan of an optimal solver (layout, kernels, canonical
    // automaton, coordinates): of declared optimal solver `solver`, or with
    // -1 of the default one (note [search plans]); null on error. Phased
    // solvers use the default model for their state and kernels.
    const analysis::SolverModel* solverModel(DiagnosticEngine& diags, int solver = -1);
    // The budget of default patterns (analysis/perm/default_patterns.hpp) the
    // models use: pzc solve --memory sets it before any model is built.
    void setDefaultPatternValues(uint64_t values);
    uint64_t defaultPatternValues() const { return defaultPatternValues_; }
    // The declared solver that stands for the default build: the first
    // optimal one, -1 when none is declared (the model then searches every
    // declared pattern, or default patterns).
    int defaultOptimalSolver() const;
    // The key of a solver's model: -1 for the default optimal solver (or
    // -1), the solver's index for another optimal one.
    int modelKey(int solver) const;
    // The searched moves: the metric's moves in declaration order (a solver's
    // move numbers index this list; it equals the model's canon.searchMoves).
    const std::vector<int>& metricMoves();
    // check() + the search plan of phased solver `solver`; null on error.
    const analysis::SolverPlan* phasedPlan(int solver, DiagnosticEngine& diags);

    // The word table of the puzzle's sift solvers (note [sift words]: one
    // table serves them all, and `pzc solve --sift`); null with the reason in `why`.
    const analysis::SiftWords* siftWords(std::string& why);

    // Emit: the translation unit of the default solver (-1), or of declared
    // solver `solver` (optimal or phased). Needs solverModel(diags, solver)
    // (and for a phased one solverModel() and phasedPlan(solver)) to have succeeded.
    std::string solverSource(int solver = -1) const;
    // A readable name for the solver's binary in the cache.
    std::string solverStem(int solver = -1) const;

    // note [enumeration spaces]
    // `pzc enumerate` counts the distances of one pattern's space. The
    // pattern becomes a solver of its own, an optimal solver over it alone,
    // appended to the loaded puzzle: its model emits the pattern's coordinate
    // and the move kernels, and its table key is the same as in any other
    // solver's model (so `pzc enumerate --table` writes the table a solver
    // loads). The whole puzzle is the pattern of every piece (addWholePattern).
    // Both are called before any analysis is built; they return the new index.
    int addWholePattern();
    // A coset pattern of subgroup `subgroup` (pzc enumerate --coset): a
    // declared one without parts, else a new one.
    int addCosetPattern(int subgroup);
    int addEnumerationSolver(int pattern);
    // The enumerator's translation unit (needs solverModel(diags, solver)).
    std::string enumeratorSource(int solver) const;

private:
    std::string file_;
    std::unique_ptr<ir::Puzzle> puzzle_;
    std::unique_ptr<analysis::PuzzleAnalysis> analysis_;
    std::unique_ptr<analysis::ColouringMembership> membership_;
    std::optional<bool> layoutBuilt_;
    analysis::StateLayout layout_;
    std::optional<bool> checked_;
    std::optional<std::vector<int>> metricMoves_;
    uint64_t defaultPatternValues_ = analysis::kDefaultPatternValues;
    std::map<int, std::optional<analysis::SolverModel>> models_;  // by modelKey; nullopt: failed
    std::map<int, std::optional<analysis::SolverPlan>> plans_;  // nullopt: failed
    std::optional<std::optional<analysis::SiftWords>> sift_;    // inner nullopt: failed
    std::string siftWhy_;
};

}  // namespace pz::pipeline
