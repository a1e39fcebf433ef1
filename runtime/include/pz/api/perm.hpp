// pz/api/perm.hpp — the library Solver (pz/api/solver.hpp) of permutation
// puzzles: OptimalSolver<T> over pz::Search (IDA* on pattern tables) and
// PhasedSolver<T> over pz::PhasedSearch. T is a generated puzzle's Traits.
// The command-line solvers (pz/solver_main.hpp, pz/phased_main.hpp) are
// thin mains over these classes: one code path.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pz/api/solver.hpp"
#include "pz/search/phased.hpp"
#include "pz/search/search.hpp"
#include "pz/state_text.hpp"

namespace pz::api {

// For the duration of a prepare(): this thread's memory budget, table check
// level and progress sink are the solver's options (note [no global state]).
class PrepareScope {
public:
    explicit PrepareScope(const SolverOptions& o)
        : budget_(memoryBudget()), verification_(tableVerification()), progress_(&sink_) {
        memoryBudget() = o.memoryBytes ? o.memoryBytes : defaultMemoryBudget();
        tableVerification() = o.verifyTables ? TableVerification::Full : TableVerification::Sampled;
        sink_.report = o.progress;
        sink_.cancelled = o.cancel ? o.cancel->flag() : nullptr;
    }
    ~PrepareScope() {
        memoryBudget() = budget_;
        tableVerification() = verification_;
    }
    PrepareScope(const PrepareScope&) = delete;
    PrepareScope& operator=(const PrepareScope&) = delete;

private:
    uint64_t budget_;
    TableVerification verification_;
    ProgressSink sink_;
    ProgressScope progress_;
};

// The messages of prepare()'s failures, as the command line words them.
template <class F>
Status preparing(const char* what, F&& build) {
    try {
        build();
        return {};
    } catch (const BuildCancelled&) {
        return makeError(ErrorCode::Cancelled, std::string(what) + ": cancelled");
    } catch (const MemoryBudgetError& e) {
        return makeError(ErrorCode::OutOfMemory, e.what());
    } catch (const TableCorruptError& e) {
        return makeError(ErrorCode::CorruptTables, e.what());
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::OutOfMemory, std::string("out of memory while building or loading the ") + what);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string(what) + ": " + e.what());
    }
}

// Positions, moves and the description: what both permutation solvers share.
template <class T>
class PermSolverBase : public Solver {
public:
    using State = typename T::State;

    const PuzzleInfo& info() const override { return info_; }

    Result<Position> parseScramble(std::string_view moves) const override {
        std::string why;
        auto s = stateFromMoveNames<T>(std::string(moves), why);
        if (!s) return makeError(ErrorCode::BadInput, "bad scramble: " + why);
        return toPosition(*s);
    }
    Result<Position> parseState(std::string_view text) const override {
        std::vector<long> nums;
        std::string why;
        std::optional<State> s;
        if (parseStateNumbers(std::string(text), nums, why)) s = stateFromNumbers<T>(nums, why);
        if (!s) return makeError(ErrorCode::BadInput, "bad state: " + why);
        return toPosition(*s);
    }
    Result<Position> parseLevel(std::string_view) const override {
        return makeError(ErrorCode::Unsupported, info_.name + " is a permutation puzzle: it has no levels (give a scramble or a state)");
    }
    Position solved() const override { return toPosition(T::solved()); }
    Result<bool> isSolved(const Position& p) const override {
        auto s = toState(p);
        if (!s) return s.error();
        return *s == T::solved();
    }
    Result<Position> apply(const Position& p, std::string_view moves) const override {
        auto s = toState(p);
        if (!s) return s.error();
        auto seq = parseMoves(moves);
        if (!seq) return seq.error();
        return applyMoves(p, *seq);
    }
    Result<Position> applyMoves(const Position& p, const std::vector<int>& moves) const override {
        auto s = toState(p);
        if (!s) return s.error();
        State x = *s;
        for (int m : moves) {
            if (m < 0 || m >= T::kMoves)
                return makeError(ErrorCode::BadInput, "move index " + std::to_string(m) + " out of range (the puzzle has " +
                                                          std::to_string(T::kMoves) + " moves)");
            x = T::applyMove(x, m);
        }
        return toPosition(x);
    }
    Result<Position> randomState(uint64_t seed) const override {
        std::mt19937_64 rng(seed);
        return toPosition(pz::randomState<T>(rng));
    }
    Result<Position> inverse(const Position& p) const override {
        auto s = toState(p);
        if (!s) return s.error();
        return toPosition(T::inverse(*s));
    }
    std::string format(const Position& p) const override {
        std::string out;
        for (size_t i = 0; i < p.numbers.size(); ++i) out += (i ? " " : "") + std::to_string(p.numbers[i]);
        return out;
    }

    // The generated state of a position; BadInput / WrongPuzzle otherwise.
    Result<State> toState(const Position& p) const {
        if (!p.puzzle.empty() && p.puzzle != T::kName)
            return makeError(ErrorCode::WrongPuzzle, "the position is of puzzle '" + p.puzzle + "', not " + T::kName);
        if (!p.level.empty()) return makeError(ErrorCode::BadInput, "a permutation puzzle's position has no level");
        std::vector<long> nums(p.numbers.begin(), p.numbers.end());
        std::string why;
        auto s = stateFromNumbers<T>(nums, why);
        if (!s) return makeError(ErrorCode::BadInput, "bad state: " + why);
        return *s;
    }
    Position toPosition(const State& s) const {
        Position p;
        p.puzzle = T::kName;
        for (long v : stateNumbers<T>(s)) p.numbers.push_back(static_cast<int>(v));
        return p;
    }
    // Move names (a scramble's words) to indices.
    Result<std::vector<int>> parseMoves(std::string_view text) const {
        std::vector<int> out;
        std::istringstream in{std::string(text)};
        for (std::string tok; in >> tok;) {
            int found = -1;
            for (int m = 0; m < T::kMoves && found < 0; ++m)
                if (tok == T::kMoveNames[m]) found = m;
            if (found < 0) return makeError(ErrorCode::BadInput, "bad scramble: unknown move '" + tok + "'");
            out.push_back(found);
        }
        return out;
    }
    // A solution's moves, replayed through the generated kernels: an
    // Internal error if they do not reach solved (never a wrong answer).
    Result<Solution> finish(const State& start, std::vector<int> moves, bool optimal, uint64_t nodes, double seconds) const {
        State replay = start;
        for (int m : moves) replay = T::applyMove(replay, m);
        if (!(replay == T::solved()))
            return makeError(ErrorCode::Internal, "internal error: the solution does not replay to solved");
        Solution s;
        for (int m : moves) s.names.push_back(T::kMoveNames[m]);
        s.length = static_cast<int>(moves.size());
        s.moves = std::move(moves);
        s.optimal = optimal;
        s.nodes = nodes;
        s.seconds = seconds;
        return s;
    }
    const SolverOptions& options() const { return options_; }
    // The cache directory; "" when the options build tables in memory only.
    std::string tableDir() const {
        if (!options_.cacheTables) return "";
        return options_.tableDir.empty() ? cacheDirectory() + "/tables" : options_.tableDir;
    }
    // The cache directory exists (made if need be) and is writable: else an
    // error before any build, rather than tables built and then not kept.
    Status checkTableDir() const {
        const std::string dir = tableDir();
        if (dir.empty()) return {};
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec || ::access(dir.c_str(), W_OK | X_OK) != 0)
            return makeError(ErrorCode::TablesUnwritable,
                             "cannot write the tables directory " + dir + ": " +
                                 (ec ? ec.message() : std::string(std::strerror(errno))) +
                                 " (choose another tableDir, or set cacheTables = false to build in memory)");
        return {};
    }

protected:
    PermSolverBase(SolverOptions options, SolverInfo solver, std::vector<SolverInfo> all) : options_(std::move(options)) {
        info_.name = T::kName;
        info_.family = "permutation";
        for (size_t o = 0; o < T::kOrbitShapes.size(); ++o) {
            OrbitInfo orbit;
            if constexpr (requires { T::kOrbitNames; }) orbit.name = T::kOrbitNames[o];
            orbit.size = T::kOrbitShapes[o].size;
            orbit.orientations = T::kOrbitShapes[o].orient;
            info_.orbits.push_back(orbit);
        }
        for (int m = 0; m < T::kMoves; ++m) info_.moves.push_back(T::kMoveNames[m]);
        info_.solver = std::move(solver);
        info_.solvers = std::move(all);
    }
    // A stop before the search (cancelled, or a solve before prepare).
    std::optional<Error> refuseSolve(bool ready) const {
        if (!ready) return makeError(ErrorCode::NotPrepared, "solve() before a successful prepare()");
        if (options_.cancel && options_.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "cancelled");
        return std::nullopt;
    }
    Error stopped(uint64_t nodes, double seconds) const {
        const bool cancelled = options_.cancel && options_.cancel->cancelled();
        return makeError(cancelled ? ErrorCode::Cancelled : ErrorCode::NoSolution,
                         cancelled ? std::string("cancelled")
                                   : "stopped by the node or time limit after " + std::to_string(nodes) + " nodes (" +
                                         std::to_string(seconds) + " s)");
    }

    PuzzleInfo info_;
    SolverOptions options_;
};

// note [library optimal solver]
// prepare() loads or builds the pattern tables and makes them resident, so
// that every solve() after it reads the same tables from any thread
// (note [solve control] in pz/search/search.hpp). The command line's
// one-shot solves skip the copy (note [table residency]): `resident` false.
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
        return preparing("pruning tables", [&] {
            search_.emplace(this->tableDir(), this->options_.threads, resident_);
        });
    }
    bool prepared() const override { return search_.has_value(); }

    Result<Solution> solve(const Position& p, const Limits& limits = {}) override {
        if (auto e = this->refuseSolve(search_.has_value())) return *e;
        auto s = this->toState(p);
        if (!s) return s.error();
        return solveState(*s, limits);
    }
    // The same on a generated state (the command line's path).
    // cpuSeconds: the process's CPU time during the search (the command line's --json).
    Result<Solution> solveState(const State& start, const Limits& limits = {}, double* cpuSeconds = nullptr) {
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
        if (cpuSeconds) *cpuSeconds = r.cpuSeconds;
        if (control.stopped) return this->stopped(r.nodes, r.seconds);
        if (!r.found) {
            if (search_->provablyUnreachable(start))
                return makeError(ErrorCode::NoSolution, "the position is not reachable by the puzzle's moves");
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

    PhasedSolver(SolverOptions options, Plan plan, std::vector<SolverInfo> all = {})
        : Base(std::move(options), SolverInfo{plan.solver, "phased"}, std::move(all)),
          plan_(std::move(plan)),
          search_(plan_.phases, plan_.moveFamily) {
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
        if (!search_.makeResident(why))
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
    Result<Solution> solveState(const State& start, const Limits& limits = {}) {
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
    bool ready_ = false;
};

}  // namespace pz::api
