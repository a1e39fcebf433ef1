// pz/api/optimal.hpp — OptimalSolver<T>: the library Solver of an optimal
// (IDA*) permutation solver, over pz::Search. Include pz/api/perm.hpp.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pz/api/perm.hpp"
#include "pz/search/search.hpp"

namespace pz::api {

// note [library optimal solver]
// prepare() loads or builds the pattern tables and makes them resident, so
// that every solve() after it reads the same tables from any thread
// (note [solve control] in pz/search/search.hpp). The command line's
// one-shot solves skip the copy (note [table residency]): `resident` false.
// With options.sharedTables the tables stay mapped for good: no copy at
// once or in the background (note [huge page cache]).
template <class T>
class OptimalSolver : public PermSolverBase<T> {
public:
    using State = typename T::State;
    using Base = PermSolverBase<T>;
    static constexpr int kDepthLimit = 40;

    explicit OptimalSolver(SolverOptions options = {}, SolverInfo solver = {"", "optimal"}, std::vector<SolverInfo> all = {},
                           bool resident = true)
        : Base(std::move(options), std::move(solver), std::move(all)), resident_(resident) {
        if (this->info_.solvers.empty()) this->info_.solvers.push_back(this->info_.solver);
    }

    Status prepare() override {
        if (search_) return {};
        if (Status dir = this->checkTableDir(); !dir) return dir;
        PrepareScope scope(this->options_);
        const bool shared = this->options_.sharedTables;
        return preparing(
            "pruning tables",
            [&] {
                search_.emplace(this->tableDir(), this->options_.threads, resident_ && !shared);
                if (shared) search_->keepTablesMapped();
            },
            "out of memory while building or loading the pruning tables (they need " + formatBytes(Search<T>::tableBytes()) +
                "; the memory budget is " + formatBytes(memoryBudget()) +
                "): free memory, or set the memory budget to what the machine can spare");
    }
    bool prepared() const override { return search_.has_value(); }

    Result<Solution> solve(const Position& p, const Limits& limits = {}) override {
        if (auto e = this->refuseSolve(search_.has_value())) return *e;
        auto s = this->toState(p);
        if (!s) return s.error();
        return solveState(*s, limits);
    }
    // The same on a generated state (the command line's path).
    // stats: what the search did, found or not (the command line prints it).
    Result<Solution> solveState(const State& start, const Limits& limits = {}, SolveStats* stats = nullptr) {
        if (auto e = this->refuseSolve(search_.has_value())) return *e;
        typename Search<T>::SolveControl control;
        control.threads = limits.threads;
        control.maxNodes = limits.maxNodes;
        if (limits.maxSeconds > 0)
            control.deadline = std::chrono::steady_clock::now() +
                               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(limits.maxSeconds));
        if (this->options_.cancel) control.cancel = this->options_.cancel->flag();
        const int depth = limits.maxLength >= 0 ? limits.maxLength : kDepthLimit;
        const auto r = search_->solve(start, depth, control);
        SolveStats local;
        SolveStats& st = stats ? *stats : local;
        st = SolveStats{r.nodes, r.seconds, r.cpuSeconds, false};
        if (control.stopped) return this->stopped(r.nodes, r.seconds);
        if (!r.found) {
            st.unreachable = search_->provablyUnreachable(start);
            if (st.unreachable) return makeError(ErrorCode::NoSolution, "the position is not reachable by the puzzle's moves");
            return makeError(ErrorCode::NoSolution, "no solution of " + std::to_string(depth) + " moves or fewer" +
                                                        (depth == kDepthLimit ? " (the search's depth limit)" : ""));
        }
        // IDA* with admissible tables: the first solution is optimal.
        return this->finish(start, r.moves, true, r.nodes, r.seconds);
    }
    // The search itself (its tables, its switches): the command line's --tables.
    Search<T>& search() { return *search_; }

private:
    bool resident_;
    std::optional<Search<T>> search_;
};

}  // namespace pz::api
