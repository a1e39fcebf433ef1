// pz/api/solver.hpp — generated solvers as a library: the interface every
// generated solver implements, whatever its family (docs/library.md).
//
// A program gets a Solver from a generated library's factory
// (`pzc_generate(TARGET cube ...)` makes `cube.hpp` with `cube::makeSolver`),
// prepares it once (builds or loads its tables), then parses positions and
// solves them, from as many threads as it likes:
//
//   auto solver = cube::makeSolver({.threads = 2});
//   if (auto st = (*solver)->prepare(); !st) { print(st.error().message); }
//   auto pos = (*solver)->parseScramble("R U F'");
//   auto sol = (*solver)->solve(*pos);        // sol->names: {"F", "U'", "R'"}
//
// Every failure is a value (Result / Status) whose message is the one the
// command-line solver prints; nothing here exits, aborts or writes to stdout.
//
// note [no global state]
// A solver holds everything it uses: its options, its tables, its search.
// What the runtime keeps per thread (the memory budget, the table check
// level, where build progress goes: pz/support/memory.hpp,
// pz/tables/prune.hpp) is set for the duration of prepare() and restored
// after, so two solvers, of one puzzle or two, live in one program without
// seeing each other's settings. Generated code of different puzzles lives
// in different namespaces, so two generated libraries link into one program.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "pz/tables/prune.hpp"

namespace pz::api {

// What went wrong; the C ABI (pz_c.h) uses the same numbers.
enum class ErrorCode : int {
    Ok = 0,
    BadInput = 1,       // a scramble, state, level or option the solver rejects
    NotPrepared = 2,    // solve() before a successful prepare()
    OutOfMemory = 3,    // the tables exceed the memory budget, or allocation failed
    CorruptTables = 4,  // a cached table failed its checks and could not be rebuilt
    Cancelled = 5,      // the cancellation token was set
    NoSolution = 6,     // none within the limits (or the position is unreachable)
    Unsupported = 7,    // asked of a solver that cannot do it (optimal from a phased solver)
    Internal = 8,       // a bug: please report it
    TablesUnwritable = 9,
    WrongPuzzle = 10,   // a position of another puzzle
};

inline const char* errorCodeName(ErrorCode c) {
    switch (c) {
        case ErrorCode::Ok: return "ok";
        case ErrorCode::BadInput: return "bad input";
        case ErrorCode::NotPrepared: return "not prepared";
        case ErrorCode::OutOfMemory: return "out of memory";
        case ErrorCode::CorruptTables: return "corrupt tables";
        case ErrorCode::Cancelled: return "cancelled";
        case ErrorCode::NoSolution: return "no solution";
        case ErrorCode::Unsupported: return "unsupported";
        case ErrorCode::Internal: return "internal error";
        case ErrorCode::TablesUnwritable: return "tables unwritable";
        case ErrorCode::WrongPuzzle: return "wrong puzzle";
    }
    return "unknown";
}

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;
};

// A value or an Error (std::expected is C++23).
template <class V>
class Result {
public:
    Result(V value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const V& value() const& { return std::get<0>(v_); }
    V& value() & { return std::get<0>(v_); }
    V&& value() && { return std::get<0>(std::move(v_)); }
    const V& operator*() const& { return value(); }
    V& operator*() & { return value(); }
    const V* operator->() const { return &value(); }
    V* operator->() { return &value(); }
    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<V, Error> v_;
};

// Success or an Error.
class Status {
public:
    Status() = default;
    Status(Error error) : error_(std::move(error)) {}
    bool ok() const { return !error_; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *error_; }

private:
    std::optional<Error> error_;
};

inline Error makeError(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

// A position of one puzzle. Permutation puzzles: the state's numbers, as
// `--state` takes them (for each orbit its permutation, then for each
// oriented orbit its orientations). Grid-actor puzzles: a level's name.
// `puzzle` names the puzzle it belongs to (a solver refuses another's).
struct Position {
    std::string puzzle;
    std::vector<int> numbers;
    std::string level;
    bool operator==(const Position&) const = default;
};

// What solve() may do. Defaults: the solver's own (an optimal solver
// searches to its depth limit, 40; a phased one returns its first solution).
struct Limits {
    enum class Goal {
        Default,        // optimal for optimal solvers, the first solution for phased ones
        FirstSolution,  // any solution (a phased solver's first)
        Optimal,        // proved optimal (refused by a phased solver: Unsupported)
    };
    Goal goal = Goal::Default;
    int maxLength = -1;     // optimal: search solutions of at most this many moves;
                            // phased: keep improving until one this short (-1: default)
    uint64_t maxNodes = 0;  // stop after about this many nodes (0: no limit; see docs/library.md)
    double maxSeconds = 0;  // stop after about this long (0: no limit)
    int threads = 0;        // threads of this search; 0: the solver's option
};

struct Solution {
    std::vector<int> moves;           // indices into PuzzleInfo::moves
    std::vector<std::string> names;   // the moves' names
    int length = 0;
    bool optimal = false;             // proved optimal by the search
    std::vector<int> phases;          // a phased solution's length per phase
    uint64_t nodes = 0;
    double seconds = 0;               // wall time of the search
    std::string text() const {
        std::string s;
        for (size_t i = 0; i < names.size(); ++i) s += (i ? " " : "") + names[i];
        return s;
    }
};

// What a search did, whether or not it found a solution (solveState's out
// parameter: the command line prints it for positions it could not solve).
struct SolveStats {
    uint64_t nodes = 0;
    double seconds = 0;
    double cpuSeconds = 0;     // of the whole process during the search
    bool unreachable = false;  // NoSolution because a table proves no move sequence reaches the position
};

// Set from any thread to stop a prepare() or solve() that uses it.
class CancelToken {
public:
    void cancel() { flag_.store(true, std::memory_order_relaxed); }
    void reset() { flag_.store(false, std::memory_order_relaxed); }
    bool cancelled() const { return flag_.load(std::memory_order_relaxed); }
    const std::atomic<bool>* flag() const { return &flag_; }

private:
    std::atomic<bool> flag_{false};
};

using BuildProgress = pz::BuildProgress;

struct SolverOptions {
    std::string tableDir;      // "" = <cache>/tables, shared with the pzc command line
    uint64_t memoryBytes = 0;  // the tables' budget; 0 = a quarter of physical memory (as the CLI)
    int threads = 0;           // table builds and each search; 0 = every online CPU
    bool verifyTables = false; // check every block of cached tables on load (else a sample)
    bool cacheTables = true;   // false: build in memory, never read or write the cache
    // Keep the cached tables mapped, shared with the machine's other
    // processes (no private copy, at once or later), in 2 MiB pages where
    // the kernel can (note [huge page cache] in pz/tables/mapped_file.hpp):
    // for many solver processes on one machine, such as MPI ranks.
    bool sharedTables = false;
    // Table builds report here (from the building threads, one call at a
    // time).
    std::function<void(const BuildProgress&)> progress;
    // With no callback: print build progress on stderr as the command line
    // does (bars on a terminal, a line per level); false: builds are silent.
    bool printProgress = false;
    std::shared_ptr<CancelToken> cancel;  // checked by prepare() and solve()
};

struct OrbitInfo {
    std::string name;
    int size = 0;          // positions
    int orientations = 1;  // orientation modulus (1: none)
};
struct SolverInfo {
    std::string name;  // as declared ("" for the default optimal search)
    std::string kind;  // "optimal", "phased" or "levels"
};
struct PuzzleInfo {
    std::string name;
    std::string family;                 // "permutation" or "grid-actor"
    std::vector<OrbitInfo> orbits;      // permutation puzzles
    std::vector<std::string> moves;     // move names, by index
    std::vector<std::string> levels;    // grid-actor puzzles: the levels compiled in
    SolverInfo solver;                  // this solver
    std::vector<SolverInfo> solvers;    // every solver the library holds
};

class Solver {
public:
    virtual ~Solver() = default;
    virtual const PuzzleInfo& info() const = 0;

    // Loads the tables from the cache or builds (and caches) them, reporting
    // progress; cancellable. Idempotent once it succeeded.
    virtual Status prepare() = 0;
    virtual bool prepared() const = 0;

    // Positions. Messages are the command line's ("bad scramble: unknown move 'Q'").
    virtual Result<Position> parseScramble(std::string_view moves) const = 0;
    virtual Result<Position> parseState(std::string_view numbers) const = 0;
    virtual Result<Position> parseLevel(std::string_view name) const = 0;
    virtual Position solved() const = 0;
    virtual Result<bool> isSolved(const Position& p) const = 0;
    // p followed by `moves` (names, as a scramble).
    virtual Result<Position> apply(const Position& p, std::string_view moves) const = 0;
    virtual Result<Position> applyMoves(const Position& p, const std::vector<int>& moves) const = 0;
    // A uniformly random state (a random walk where the puzzle's group is not
    // the full symmetric group on its pieces), the same for the same seed.
    virtual Result<Position> randomState(uint64_t seed) const = 0;
    // The inverse state (p * p^-1 = solved); permutation puzzles.
    virtual Result<Position> inverse(const Position& p) const = 0;
    // The numbers of a permutation position as one line ("3 0 1 ...").
    virtual std::string format(const Position& p) const = 0;

    // Solves p; thread-safe after prepare(): concurrent calls share the tables.
    virtual Result<Solution> solve(const Position& p, const Limits& limits = {}) = 0;

    // Solves every position, `threads` at a time (0: every online CPU; each
    // search then runs on one thread), results in input order.
    std::vector<Result<Solution>> solveAll(const std::vector<Position>& positions, const Limits& limits = {},
                                           int threads = 0);
    // A random-state scramble: moves that take the solved state to
    // randomState(seed) (the solution of its inverse).
    Result<Solution> randomScramble(uint64_t seed, const Limits& limits = {}) {
        auto state = randomState(seed);
        if (!state) return state.error();
        auto inv = inverse(*state);
        if (!inv) return inv.error();
        return solve(*inv, limits);
    }
};

inline std::vector<Result<Solution>> Solver::solveAll(const std::vector<Position>& positions, const Limits& limits,
                                                      int threads) {
    std::vector<std::optional<Result<Solution>>> out(positions.size());
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    Limits each = limits;
    if (threads > 1) each.threads = 1;  // parallel over positions, not within a search
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < positions.size();) out[i].emplace(solve(positions[i], each));
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads && static_cast<size_t>(t) < positions.size(); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    std::vector<Result<Solution>> results;
    results.reserve(out.size());
    for (auto& r : out) results.push_back(std::move(*r));
    return results;
}

}  // namespace pz::api
