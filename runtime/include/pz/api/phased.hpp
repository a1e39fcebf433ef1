// pz/api/phased.hpp — PhasedSolver<T>: the library Solver of a phased
// permutation solver, over pz::PhasedSearch. Include pz/api/perm.hpp.
#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "pz/api/perm.hpp"
#include "pz/search/phased.hpp"

namespace pz::api {

// note [library phased solver]
// The phase plan comes from the generated code (phasePlan_<solver>());
// its tables are cached in one file per solver, as the command line does.
// A phased search keeps its own thread pool and per-search state, so one
// solver's solves run one at a time (each on the solver's threads); solves
// from several threads are safe and share the tables, but queue. Give each
// thread its own PhasedSolver for parallel batches (each then holds its own
// copy of the tables).
template <class T>
class PhasedSolver : public PermSolverBase<T> {
public:
    using State = typename T::State;
    using Base = PermSolverBase<T>;

    struct Plan {
        std::string solver;      // the declared name
        std::string tablesHash;  // the plan's and traits' hash (the cache key)
        std::vector<PhaseSpec> phases;
        std::vector<int> moveFamily;
        std::vector<PhaseDirection> directions;
    };

    // `resident`: copy loaded tables into memory in prepare() (for many
    // solves); the command line's one-shot solves keep them mapped, as
    // options.sharedTables does always (note [huge page cache]).
    PhasedSolver(SolverOptions options, Plan plan, std::vector<SolverInfo> all = {}, bool resident = true)
        : Base(std::move(options), SolverInfo{plan.solver, "phased"}, std::move(all)),
          plan_(std::move(plan)),
          search_(plan_.phases, plan_.moveFamily),
          resident_(resident) {
        search_.setDirections(plan_.directions);
        if (this->info_.solvers.empty()) this->info_.solvers.push_back(this->info_.solver);
    }

    Status prepare() override {
        if (ready_) return {};
        if (Status dir = this->checkTableDir(); !dir) return dir;
        PrepareScope scope(this->options_);
        const std::string hash = plan_.tablesHash + "-p1";  // the plan's hash and the blob layout's version
        const std::string path = this->options_.cacheTables
                                     ? this->tableDir() + "/" + T::kName + "-" + plan_.solver + "-" + hash + ".pzt"
                                     : std::string();
        Status st = preparing("phased tables", [&] { search_.loadOrBuild(path, hash, this->options_.threads); });
        if (!st) return st;
        search_.setThreads(this->options_.threads);
        std::string why;
        if (resident_ && !this->options_.sharedTables && !search_.makeResident(why))
            return makeError(ErrorCode::CorruptTables, "the cached phased tables are damaged (" + why + "); delete them");
        ready_ = true;
        return {};
    }
    bool prepared() const override { return ready_; }

    Result<Solution> solve(const Position& p, const Limits& limits = {}) override {
        if (auto e = this->refuseSolve(ready_)) return *e;
        auto s = this->toState(p);
        if (!s) return s.error();
        return solveState(*s, limits);
    }
    Result<Solution> solveState(const State& start, const Limits& limits = {}, SolveStats* stats = nullptr) {
        if (auto e = this->refuseSolve(ready_)) return *e;
        if (limits.goal == Limits::Goal::Optimal)
            return makeError(ErrorCode::Unsupported, "solver " + plan_.solver +
                                                         " is phased: its solutions are not proved optimal (use an optimal solver)");
        // note [abelian invariants]
        if (!abelianInvariantsReachable<T>(start))
            return makeError(ErrorCode::BadInput, "bad state: it cannot be reached by the moves (its permutation parities or "
                                                  "orientation sums are those of no move sequence)");
        PhasedLimits l;
        if (limits.maxLength >= 0) l.maxLength = limits.maxLength;
        if (limits.maxNodes) l.nodeBudget = limits.maxNodes;
        if (limits.maxSeconds > 0) l.budgetMs = limits.maxSeconds * 1000;
        std::lock_guard<std::mutex> one(solving_);  // note [library phased solver]
        auto r = search_.solve(start, l);
        if (stats) *stats = SolveStats{r.nodes, r.seconds, 0, false};
        if (!r.found)
            return makeError(ErrorCode::NoSolution, "no solution within the search's depth limit of " +
                                                        std::to_string(PhasedSearch<T>::kMaxDepth) + " moves");
        auto out = this->finish(start, r.moves, false, r.nodes, r.seconds);
        if (out) out->phases = r.phaseLengths;
        return out;
    }
    PhasedSearch<T>& search() { return search_; }
    const Plan& plan() const { return plan_; }

private:
    Plan plan_;
    PhasedSearch<T> search_;
    std::mutex solving_;
    bool resident_;
    bool ready_ = false;
};

}  // namespace pz::api
