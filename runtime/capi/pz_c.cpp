// The C ABI (pz/pz_c.h) over pz::api::Solver (pz/api/solver.hpp).
//
// note [c handles]
// A handle is a key into one process-wide registry (a number cast to a
// pointer, never an address): every call looks its handles up under a
// mutex, so a NULL, freed or foreign handle is an error instead of a read of
// freed memory, and keys are not reused (until the counter wraps, 2^60
// handles on), so a stale handle cannot alias a newer object. The registry holds each object by shared_ptr and a lookup
// copies it: a free from another thread during a call only drops the
// registry's reference, and the object dies when the call returns.
#include "pz/pz_c.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pz/api/c_handle.hpp"

namespace pz::api {
namespace {

// pz_code's numbers are ErrorCode's (codes pass through unchanged).
static_assert(PZ_BAD_INPUT == static_cast<int>(ErrorCode::BadInput) &&
              PZ_NOT_PREPARED == static_cast<int>(ErrorCode::NotPrepared) &&
              PZ_OUT_OF_MEMORY == static_cast<int>(ErrorCode::OutOfMemory) &&
              PZ_CORRUPT_TABLES == static_cast<int>(ErrorCode::CorruptTables) &&
              PZ_CANCELLED == static_cast<int>(ErrorCode::Cancelled) &&
              PZ_NO_SOLUTION == static_cast<int>(ErrorCode::NoSolution) &&
              PZ_UNSUPPORTED == static_cast<int>(ErrorCode::Unsupported) &&
              PZ_INTERNAL == static_cast<int>(ErrorCode::Internal) &&
              PZ_TABLES_UNWRITABLE == static_cast<int>(ErrorCode::TablesUnwritable) &&
              PZ_WRONG_PUZZLE == static_cast<int>(ErrorCode::WrongPuzzle));
static_assert(static_cast<int>(Limits::Goal::FirstSolution) == PZ_GOAL_FIRST &&
              static_cast<int>(Limits::Goal::Optimal) == PZ_GOAL_OPTIMAL);

enum class Kind { Solver, Position, Solution };

struct SolverBox {
    static constexpr Kind kKind = Kind::Solver;
    static constexpr const char* kWhat = "solver";
    std::unique_ptr<Solver> solver;
    std::shared_ptr<CancelToken> cancel;
    // prepare() writes what solve() and prepared() read: it runs alone.
    std::shared_mutex preparing;
};
struct PositionBox {
    static constexpr Kind kKind = Kind::Position;
    static constexpr const char* kWhat = "position";
    Position position;
};
struct SolutionBox {
    static constexpr Kind kKind = Kind::Solution;
    static constexpr const char* kWhat = "solution";
    Solution solution;
};

class Registry {
public:
    uintptr_t add(Kind kind, std::shared_ptr<void> object) {
        std::lock_guard<std::mutex> lock(mutex_);
        next_ += kStep;
        if (next_ == 0) next_ += kStep;  // 0 is NULL
        live_.emplace(next_, Entry{kind, std::move(object)});
        return next_;
    }
    std::shared_ptr<void> find(uintptr_t key, Kind kind) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = live_.find(key);
        if (it == live_.end() || it->second.kind != kind) return nullptr;
        return it->second.object;
    }
    // The object, for the caller to drop outside the lock (a solver's
    // destructor frees its tables: slow).
    std::shared_ptr<void> remove(uintptr_t key, Kind kind) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = live_.find(key);
        if (it == live_.end() || it->second.kind != kind) return nullptr;
        auto object = std::move(it->second.object);
        live_.erase(it);
        return object;
    }

    // Keys start at a random point: each copy of pz_c (one per shared
    // object that links it statically, when the loader does not merge
    // them) has its own registry, and another copy's handle must miss here
    // rather than name an object of this one.
    Registry() {
        uint64_t x = reinterpret_cast<uintptr_t>(this) ^
                     static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;  // splitmix64's finaliser
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        next_ = static_cast<uintptr_t>(x ^ (x >> 31)) & ~(kStep - 1);
    }

private:
    // Keys look like aligned pointers (a debugger shows them as pointers);
    // they are never dereferenced.
    static constexpr uintptr_t kStep = 16;
    struct Entry {
        Kind kind;
        std::shared_ptr<void> object;
    };
    std::mutex mutex_;
    std::unordered_map<uintptr_t, Entry> live_;
    uintptr_t next_ = 0;
};

// Never destroyed: handles stay usable from atexit handlers and static destructors.
Registry& registry() {
    static Registry* r = new Registry;
    return *r;
}

// The longest prefix of s of at most max bytes that does not split a UTF-8 character.
size_t utf8Cut(std::string_view s, size_t max) {
    if (s.size() <= max) return s.size();
    size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return n;
}

// Messages are written without allocating: this runs in catch blocks.
template <class... Parts>
int fail(pz_error* err, int code, const Parts&... parts) noexcept {
    if (!err) return code;
    err->code = code;
    size_t used = 0;
    bool cut = false;
    const size_t room = sizeof err->message - 1;
    for (std::string_view part : {std::string_view(parts)...}) {
        if (cut) break;
        const size_t n = utf8Cut(part, room - used);
        std::memcpy(err->message + used, part.data(), n);
        used += n;
        cut = n < part.size();
    }
    err->message[used] = '\0';
    return code;
}
int fail(pz_error* err, const Error& e) noexcept { return fail(err, static_cast<int>(e.code), e.message); }
int succeed(pz_error* err) noexcept {
    if (err) {
        err->code = PZ_OK;
        err->message[0] = '\0';
    }
    return PZ_OK;
}
int nullArgument(pz_error* err, const char* name) noexcept {
    return fail(err, PZ_BAD_ARGUMENT, name, " is NULL");
}

// Runs body, turning every exception into a code (none crosses the C ABI).
template <class F>
int guarded(pz_error* err, F&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return fail(err, PZ_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(err, PZ_INTERNAL, "internal error: ", e.what());
    } catch (...) {
        return fail(err, PZ_INTERNAL, "internal error: an unknown exception");
    }
}

uintptr_t keyOf(const void* handle) { return reinterpret_cast<uintptr_t>(handle); }

template <class Box>
std::shared_ptr<Box> lookup(const void* handle) {
    if (!handle) return nullptr;
    return std::static_pointer_cast<Box>(registry().find(keyOf(handle), Box::kKind));
}
template <class Box>
int invalid(pz_error* err, const void* handle) noexcept {
    return fail(err, PZ_INVALID_HANDLE, "invalid ", Box::kWhat,
                handle ? " handle: freed, or not made by this library" : " handle: NULL");
}

// Looks handle up and runs body(box) with the object held alive.
template <class Box, class F>
int with(const void* handle, pz_error* err, F&& body) noexcept {
    return guarded(err, [&] {
        auto box = lookup<Box>(handle);
        if (!box) return invalid<Box>(err, handle);
        return body(*box);
    });
}

template <class Handle, class Box>
Handle* publish(std::shared_ptr<Box> box) {
    return reinterpret_cast<Handle*>(registry().add(Box::kKind, std::move(box)));
}

template <class Box>
int release(void* handle, pz_error* err) noexcept {
    return guarded(err, [&] {
        if (!handle) return succeed(err);
        auto object = registry().remove(keyOf(handle), Box::kKind);
        if (!object) return invalid<Box>(err, handle);
        if constexpr (std::is_same_v<Box, SolverBox>) {
            // In-flight prepares and solves stop rather than hold the tables.
            auto* box = static_cast<SolverBox*>(object.get());
            if (box->cancel) box->cancel->cancel();
        }
        object.reset();
        return succeed(err);
    });
}

// A Result<Position> to a new position handle in *out.
int positionOut(Result<Position> r, pz_position** out, pz_error* err) {
    if (!r) return fail(err, r.error());
    *out = publish<pz_position>(std::make_shared<PositionBox>(PositionBox{std::move(*r)}));
    return succeed(err);
}

// Copies s into buf (the buffer rules of pz/pz_c.h).
int copyText(std::string_view s, char* buf, size_t size, size_t* needed, pz_error* err) {
    if (needed) *needed = s.size() + 1;
    if (!buf) return size == 0 ? succeed(err) : nullArgument(err, "buf");
    if (size == 0) return fail(err, PZ_TRUNCATED, "the buffer has no room for the text");
    const size_t n = utf8Cut(s, size - 1);
    std::memcpy(buf, s.data(), n);
    buf[n] = '\0';
    if (n < s.size()) return fail(err, PZ_TRUNCATED, "the buffer is too small for the text (see needed)");
    return succeed(err);
}
int copyInts(const std::vector<int>& v, int* out, size_t capacity, size_t* count, pz_error* err) {
    if (count) *count = v.size();
    if (!out) return capacity == 0 ? succeed(err) : nullArgument(err, "out");
    const size_t n = std::min(capacity, v.size());
    if (n) std::memcpy(out, v.data(), n * sizeof(int));
    if (n < v.size()) return fail(err, PZ_TRUNCATED, "the array is too small (see count)");
    return succeed(err);
}

int toOptions(const pz_options& c, SolverOptions& o, pz_error* err) {
    if (c.threads < 0) return fail(err, PZ_BAD_ARGUMENT, "options: threads must be >= 0");
    o.tableDir = c.table_dir ? c.table_dir : "";
    o.memoryBytes = c.memory_bytes;
    o.threads = c.threads;
    o.verifyTables = c.verify_tables != 0;
    o.cacheTables = c.cache_tables != 0;
    o.sharedTables = c.shared_tables != 0;
    if (c.progress) {
        o.progress = [fn = c.progress, user = c.progress_user](const BuildProgress& p) {
            pz_build_progress cp{p.table.c_str(), p.depth,   p.fraction,   p.elapsed,
                                 p.levelEta,      p.entries, p.levelDone, p.tableDone};
            fn(&cp, user);
        };
    }
    return PZ_OK;
}

int toLimits(const pz_limits& c, Limits& l, pz_error* err) {
    if (c.goal < PZ_GOAL_DEFAULT || c.goal > PZ_GOAL_OPTIMAL)
        return fail(err, PZ_BAD_ARGUMENT, "limits: goal must be PZ_GOAL_DEFAULT, PZ_GOAL_FIRST or PZ_GOAL_OPTIMAL");
    if (c.max_length < -1) return fail(err, PZ_BAD_ARGUMENT, "limits: max_length must be >= -1");
    if (c.threads < 0) return fail(err, PZ_BAD_ARGUMENT, "limits: threads must be >= 0");
    if (!(c.max_seconds >= 0) || std::isinf(c.max_seconds))
        return fail(err, PZ_BAD_ARGUMENT, "limits: max_seconds must be finite and >= 0");
    l.goal = static_cast<Limits::Goal>(c.goal);
    l.maxLength = c.max_length;
    l.maxNodes = c.max_nodes;
    // Past ~30 years the deadline would overflow the clock: no limit.
    l.maxSeconds = c.max_seconds > 1e9 ? 0 : c.max_seconds;
    l.threads = c.threads;
    return PZ_OK;
}

// A string the solver owns, by pointer.
template <class Get>
int solverString(const pz_solver* s, const char** out, pz_error* err, Get get) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        *out = get(b.solver->info()).c_str();
        return succeed(err);
    });
}
int indexed(const std::vector<std::string>& names, size_t index, const char* what, const char** out, pz_error* err) {
    if (index >= names.size())
        return fail(err, PZ_BAD_ARGUMENT, what, " index out of range (see the count)");
    *out = names[index].c_str();
    return succeed(err);
}

// A solver and a string argument to a new position.
template <class Parse>
int parsed(const pz_solver* s, const char* text, const char* name, pz_position** out, pz_error* err,
           Parse parse) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    if (!text) return nullArgument(err, name);
    return with<SolverBox>(s, err, [&](SolverBox& b) { return positionOut(parse(*b.solver, text), out, err); });
}

// A solver and a position to a new position.
template <class Map>
int mapped(const pz_solver* s, const pz_position* p, pz_position** out, pz_error* err, Map map) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        return with<PositionBox>(p, err, [&](PositionBox& pb) { return positionOut(map(*b.solver, pb.position), out, err); });
    });
}

// A solution's field, by value.
template <class T, class Get>
int solutionValue(const pz_solution* sol, T* out, pz_error* err, Get get) noexcept {
    if (!out) return nullArgument(err, "out");
    return with<SolutionBox>(sol, err, [&](SolutionBox& b) {
        *out = get(b.solution);
        return succeed(err);
    });
}

}  // namespace

pz_solver* wrapSolver(std::unique_ptr<Solver> solver, std::shared_ptr<CancelToken> cancel) {
    auto box = std::make_shared<SolverBox>();
    box->solver = std::move(solver);
    box->cancel = std::move(cancel);
    return publish<pz_solver>(std::move(box));
}

int newSolverC(const pz_options* options, pz_solver** out, pz_error* err, const SolverFactory& make) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return guarded(err, [&] {
        pz_options defaults;
        pz_options_init(&defaults);
        SolverOptions o;
        if (int rc = toOptions(options ? *options : defaults, o, err)) return rc;
        auto token = std::make_shared<CancelToken>();
        o.cancel = token;
        if (!make) return fail(err, PZ_INTERNAL, "internal error: no solver factory");
        auto made = make(std::move(o));
        if (!made) return fail(err, made.error());
        if (!*made) return fail(err, PZ_INTERNAL, "internal error: the solver factory returned no solver");
        *out = wrapSolver(std::move(*made), std::move(token));
        return succeed(err);
    });
}

}  // namespace pz::api

using namespace pz::api;

extern "C" {

const char* pz_code_name(int code) noexcept {
    switch (code) {
        case PZ_INVALID_HANDLE: return "invalid handle";
        case PZ_BAD_ARGUMENT: return "bad argument";
        case PZ_TRUNCATED: return "truncated";
        default: break;
    }
    if (code < PZ_OK || code > PZ_WRONG_PUZZLE) return "unknown";
    return errorCodeName(static_cast<ErrorCode>(code));
}

int pz_abi_version(void) noexcept { return PZ_ABI_VERSION; }

int pz_options_init(pz_options* o) noexcept {
    if (!o) return PZ_BAD_ARGUMENT;
    *o = pz_options{};
    o->cache_tables = 1;
    return PZ_OK;
}

int pz_limits_init(pz_limits* l) noexcept {
    if (!l) return PZ_BAD_ARGUMENT;
    *l = pz_limits{};
    l->max_length = -1;
    return PZ_OK;
}

int pz_solver_prepare(pz_solver* s, pz_error* err) noexcept {
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        std::unique_lock<std::shared_mutex> alone(b.preparing);
        Status st = b.solver->prepare();
        return st ? succeed(err) : fail(err, st.error());
    });
}

int pz_solver_prepared(const pz_solver* s, int* out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        std::shared_lock<std::shared_mutex> reading(b.preparing);
        *out = b.solver->prepared() ? 1 : 0;
        return succeed(err);
    });
}

int pz_solver_cancel(pz_solver* s, pz_error* err) noexcept {
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        if (!b.cancel) return fail(err, PZ_UNSUPPORTED, "this solver was wrapped without a cancel token");
        b.cancel->cancel();
        return succeed(err);
    });
}

int pz_solver_reset_cancel(pz_solver* s, pz_error* err) noexcept {
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        if (!b.cancel) return fail(err, PZ_UNSUPPORTED, "this solver was wrapped without a cancel token");
        b.cancel->reset();
        return succeed(err);
    });
}

int pz_solver_free(pz_solver* s, pz_error* err) noexcept { return release<SolverBox>(s, err); }

int pz_solver_puzzle_name(const pz_solver* s, const char** out, pz_error* err) noexcept {
    return solverString(s, out, err, [](const PuzzleInfo& i) -> const std::string& { return i.name; });
}
int pz_solver_family(const pz_solver* s, const char** out, pz_error* err) noexcept {
    return solverString(s, out, err, [](const PuzzleInfo& i) -> const std::string& { return i.family; });
}
int pz_solver_name(const pz_solver* s, const char** out, pz_error* err) noexcept {
    return solverString(s, out, err, [](const PuzzleInfo& i) -> const std::string& { return i.solver.name; });
}
int pz_solver_kind(const pz_solver* s, const char** out, pz_error* err) noexcept {
    return solverString(s, out, err, [](const PuzzleInfo& i) -> const std::string& { return i.solver.kind; });
}

int pz_solver_move_count(const pz_solver* s, size_t* out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        *out = b.solver->info().moves.size();
        return succeed(err);
    });
}
int pz_solver_move_name(const pz_solver* s, size_t index, const char** out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolverBox>(s, err, [&](SolverBox& b) { return indexed(b.solver->info().moves, index, "move", out, err); });
}
int pz_solver_level_count(const pz_solver* s, size_t* out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        *out = b.solver->info().levels.size();
        return succeed(err);
    });
}
int pz_solver_level_name(const pz_solver* s, size_t index, const char** out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolverBox>(s, err, [&](SolverBox& b) { return indexed(b.solver->info().levels, index, "level", out, err); });
}

int pz_parse_scramble(const pz_solver* s, const char* moves, pz_position** out, pz_error* err) noexcept {
    return parsed(s, moves, "moves", out, err, [](const Solver& v, const char* t) { return v.parseScramble(t); });
}
int pz_parse_state(const pz_solver* s, const char* numbers, pz_position** out, pz_error* err) noexcept {
    return parsed(s, numbers, "numbers", out, err, [](const Solver& v, const char* t) { return v.parseState(t); });
}
int pz_parse_level(const pz_solver* s, const char* name, pz_position** out, pz_error* err) noexcept {
    return parsed(s, name, "name", out, err, [](const Solver& v, const char* t) { return v.parseLevel(t); });
}

int pz_solved_position(const pz_solver* s, pz_position** out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolverBox>(s, err, [&](SolverBox& b) { return positionOut(b.solver->solved(), out, err); });
}
int pz_random_state(const pz_solver* s, uint64_t seed, pz_position** out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolverBox>(s, err, [&](SolverBox& b) { return positionOut(b.solver->randomState(seed), out, err); });
}
int pz_inverse(const pz_solver* s, const pz_position* p, pz_position** out, pz_error* err) noexcept {
    return mapped(s, p, out, err, [](const Solver& v, const Position& q) { return v.inverse(q); });
}
int pz_apply(const pz_solver* s, const pz_position* p, const char* moves, pz_position** out, pz_error* err) noexcept {
    if (out && !moves) {
        *out = nullptr;
        return nullArgument(err, "moves");
    }
    return mapped(s, p, out, err, [&](const Solver& v, const Position& q) { return v.apply(q, moves); });
}
int pz_apply_moves(const pz_solver* s, const pz_position* p, const int* moves, size_t count, pz_position** out,
                   pz_error* err) noexcept {
    if (out && !moves && count) {
        *out = nullptr;
        return nullArgument(err, "moves");
    }
    return mapped(s, p, out, err, [&](const Solver& v, const Position& q) {
        return v.applyMoves(q, count ? std::vector<int>(moves, moves + count) : std::vector<int>{});
    });
}

int pz_is_solved(const pz_solver* s, const pz_position* p, int* out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        return with<PositionBox>(p, err, [&](PositionBox& pb) {
            auto r = b.solver->isSolved(pb.position);
            if (!r) return fail(err, r.error());
            *out = *r ? 1 : 0;
            return succeed(err);
        });
    });
}

int pz_position_format(const pz_solver* s, const pz_position* p, char* buf, size_t size, size_t* needed,
                       pz_error* err) noexcept {
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        return with<PositionBox>(p, err, [&](PositionBox& pb) {
            if (!pb.position.puzzle.empty() && pb.position.puzzle != b.solver->info().name)
                return fail(err, PZ_WRONG_PUZZLE, "the position is of puzzle '", pb.position.puzzle, "', not ",
                            b.solver->info().name);
            return copyText(b.solver->format(pb.position), buf, size, needed, err);
        });
    });
}

int pz_position_numbers(const pz_position* p, int* out, size_t capacity, size_t* count, pz_error* err) noexcept {
    return with<PositionBox>(p, err, [&](PositionBox& b) { return copyInts(b.position.numbers, out, capacity, count, err); });
}

int pz_position_puzzle(const pz_position* p, const char** out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<PositionBox>(p, err, [&](PositionBox& b) {
        *out = b.position.puzzle.c_str();
        return succeed(err);
    });
}

int pz_position_free(pz_position* p, pz_error* err) noexcept { return release<PositionBox>(p, err); }

int pz_solve(pz_solver* s, const pz_position* p, const pz_limits* limits, pz_solution** out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolverBox>(s, err, [&](SolverBox& b) {
        return with<PositionBox>(p, err, [&](PositionBox& pb) {
            Limits l;
            if (limits)
                if (int rc = toLimits(*limits, l, err)) return rc;
            Result<Solution> r = [&] {
                std::shared_lock<std::shared_mutex> reading(b.preparing);
                return b.solver->solve(pb.position, l);
            }();
            if (!r) return fail(err, r.error());
            *out = publish<pz_solution>(std::make_shared<SolutionBox>(SolutionBox{std::move(*r)}));
            return succeed(err);
        });
    });
}

int pz_solution_length(const pz_solution* sol, size_t* out, pz_error* err) noexcept {
    return solutionValue(sol, out, err, [](const Solution& v) { return v.moves.size(); });
}
int pz_solution_move(const pz_solution* sol, size_t index, int* out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    return with<SolutionBox>(sol, err, [&](SolutionBox& b) {
        if (index >= b.solution.moves.size()) return fail(err, PZ_BAD_ARGUMENT, "move index out of range (see the length)");
        *out = b.solution.moves[index];
        return succeed(err);
    });
}
int pz_solution_move_name(const pz_solution* sol, size_t index, const char** out, pz_error* err) noexcept {
    if (!out) return nullArgument(err, "out");
    *out = nullptr;
    return with<SolutionBox>(sol, err, [&](SolutionBox& b) { return indexed(b.solution.names, index, "move", out, err); });
}
int pz_solution_moves(const pz_solution* sol, int* out, size_t capacity, size_t* count, pz_error* err) noexcept {
    return with<SolutionBox>(sol, err, [&](SolutionBox& b) { return copyInts(b.solution.moves, out, capacity, count, err); });
}
int pz_solution_phases(const pz_solution* sol, int* out, size_t capacity, size_t* count, pz_error* err) noexcept {
    return with<SolutionBox>(sol, err, [&](SolutionBox& b) { return copyInts(b.solution.phases, out, capacity, count, err); });
}
int pz_solution_optimal(const pz_solution* sol, int* out, pz_error* err) noexcept {
    return solutionValue(sol, out, err, [](const Solution& v) { return v.optimal ? 1 : 0; });
}
int pz_solution_nodes(const pz_solution* sol, uint64_t* out, pz_error* err) noexcept {
    return solutionValue(sol, out, err, [](const Solution& v) { return static_cast<uint64_t>(v.nodes); });
}
int pz_solution_seconds(const pz_solution* sol, double* out, pz_error* err) noexcept {
    return solutionValue(sol, out, err, [](const Solution& v) { return v.seconds; });
}
int pz_solution_text(const pz_solution* sol, char* buf, size_t size, size_t* needed, pz_error* err) noexcept {
    return with<SolutionBox>(sol, err, [&](SolutionBox& b) { return copyText(b.solution.text(), buf, size, needed, err); });
}
int pz_solution_free(pz_solution* sol, pz_error* err) noexcept { return release<SolutionBox>(sol, err); }

}  // extern "C"
