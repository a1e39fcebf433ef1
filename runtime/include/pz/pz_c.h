/* pz/pz_c.h — the C ABI of generated solvers (docs/library.md, "C ABI").
 *
 * A C view of pz::api::Solver (pz/api/solver.hpp) for C and for any
 * language with a C FFI. Valid C99 and C++. A generated library hands out
 * solvers through its own factory (e.g. cube_solver_new, written with
 * pz/api/c_handle.hpp); everything else is here.
 *
 * Conventions:
 *  - Every function returns an int code (PZ_OK on success) except
 *    pz_code_name and pz_abi_version, and takes a pz_error* last; the
 *    error may be NULL. On success it is cleared (code PZ_OK, message "").
 *  - Strings are UTF-8 and NUL-terminated. A string the library owns
 *    (const char** out) lives as long as the handle it came from.
 *  - A string or array copied into a caller's buffer is always
 *    NUL-terminated (strings) and never overruns it; when it does not fit,
 *    the call returns PZ_TRUNCATED with the full size in *needed (bytes
 *    with the NUL, or elements). A NULL buffer with size 0 asks for the
 *    size only and returns PZ_OK.
 *  - Handles are opaque keys into a process-wide registry, not addresses:
 *    a NULL, freed or foreign handle gives PZ_INVALID_HANDLE, never a crash,
 *    and a freed handle is never handed out again.
 *  - No C++ exception crosses these functions.
 *  - Threads: positions and solutions are immutable and may be shared.
 *    A solver may be used from many threads at once (solves share the
 *    tables); prepare and solve exclude each other. Freeing a solver while
 *    another thread prepares or solves with it is safe: that call is
 *    cancelled (PZ_CANCELLED) and the solver dies when it returns.
 */
#ifndef PZ_PZ_C_H
#define PZ_PZ_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define PZ_API __attribute__((visibility("default")))
#else
#define PZ_API
#endif
#ifdef __cplusplus
#define PZ_NOEXCEPT noexcept
extern "C" {
#else
#define PZ_NOEXCEPT
#endif

/* Bumped whenever a struct layout or a function signature changes. */
#define PZ_ABI_VERSION 2 /* 2: pz_options.shared_tables */

/* Codes 0..10 are pz::api::ErrorCode's numbers; 100.. are the C ABI's own. */
typedef enum pz_code {
    PZ_OK = 0,
    PZ_BAD_INPUT = 1,         /* a scramble, state, level or option the solver rejects */
    PZ_NOT_PREPARED = 2,      /* solve before a successful pz_solver_prepare */
    PZ_OUT_OF_MEMORY = 3,     /* the tables exceed the memory budget, or allocation failed */
    PZ_CORRUPT_TABLES = 4,    /* a cached table failed its checks and could not be rebuilt */
    PZ_CANCELLED = 5,         /* pz_solver_cancel was called */
    PZ_NO_SOLUTION = 6,       /* none within the limits (or the position is unreachable) */
    PZ_UNSUPPORTED = 7,       /* asked of a solver that cannot do it */
    PZ_INTERNAL = 8,          /* a bug: please report it */
    PZ_TABLES_UNWRITABLE = 9, /* the table directory cannot be written */
    PZ_WRONG_PUZZLE = 10,     /* a position of another puzzle */
    PZ_INVALID_HANDLE = 100,  /* a NULL, freed or foreign handle */
    PZ_BAD_ARGUMENT = 101,    /* a NULL out-pointer, an index out of range, a bad limit */
    PZ_TRUNCATED = 102        /* the caller's buffer was too small (see *needed) */
} pz_code;

typedef struct pz_error {
    int code;           /* a pz_code */
    char message[512];  /* UTF-8, NUL-terminated, cut at a character boundary */
} pz_error;

typedef struct pz_solver pz_solver;
typedef struct pz_position pz_position;
typedef struct pz_solution pz_solution;

/* A table build's progress (from the building threads, one call at a time). */
typedef struct pz_build_progress {
    const char* table;  /* what is built; valid during the call only */
    int depth;          /* the BFS level under way (or just finished) */
    double fraction;    /* of that level's pass */
    double elapsed;     /* seconds since the table's build began */
    double level_eta;   /* seconds left in the level (0: unknown) */
    uint64_t entries;   /* a finished level's entries (level_done) */
    int level_done;
    int table_done;
} pz_build_progress;

/* Called during pz_solver_prepare; it must not prepare or solve with that solver. */
typedef void (*pz_progress_fn)(const pz_build_progress* progress, void* user);

/* A solver's options; pz_options_init sets the defaults. */
typedef struct pz_options {
    const char* table_dir;   /* NULL or "": <cache>/tables, shared with the pzc command line */
    uint64_t memory_bytes;   /* the tables' budget; 0: a quarter of physical memory */
    int threads;             /* table builds and each search; 0: every online CPU */
    int verify_tables;       /* nonzero: check every block of cached tables on load */
    int cache_tables;        /* zero: build in memory, never read or write the cache */
    pz_progress_fn progress; /* NULL: builds are silent */
    void* progress_user;     /* passed to progress */
    int shared_tables;       /* nonzero: cached tables stay mapped, one copy for every process of the machine */
} pz_options;

/* What pz_solve may do; pz_limits_init sets the defaults. */
typedef enum pz_goal { PZ_GOAL_DEFAULT = 0, PZ_GOAL_FIRST = 1, PZ_GOAL_OPTIMAL = 2 } pz_goal;
typedef struct pz_limits {
    int max_length;        /* -1: the solver's default */
    uint64_t max_nodes;    /* 0: no limit */
    double max_seconds;    /* 0: no limit */
    int goal;              /* a pz_goal */
    int threads;           /* of this search; 0: the solver's option */
} pz_limits;

PZ_API const char* pz_code_name(int code) PZ_NOEXCEPT; /* "bad input"; never NULL */
PZ_API int pz_abi_version(void) PZ_NOEXCEPT;           /* PZ_ABI_VERSION of the library */

PZ_API int pz_options_init(pz_options* options) PZ_NOEXCEPT;
PZ_API int pz_limits_init(pz_limits* limits) PZ_NOEXCEPT;

/* Solvers. Loads or builds the tables; cancellable; idempotent once it succeeded. */
PZ_API int pz_solver_prepare(pz_solver* solver, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_prepared(const pz_solver* solver, int* out, pz_error* err) PZ_NOEXCEPT;
/* From any thread: stops the solver's prepare and solves until reset. */
PZ_API int pz_solver_cancel(pz_solver* solver, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_reset_cancel(pz_solver* solver, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_free(pz_solver* solver, pz_error* err) PZ_NOEXCEPT; /* NULL: PZ_OK */

/* What the solver solves; strings live as long as the solver. */
PZ_API int pz_solver_puzzle_name(const pz_solver* solver, const char** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_family(const pz_solver* solver, const char** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_name(const pz_solver* solver, const char** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_kind(const pz_solver* solver, const char** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_move_count(const pz_solver* solver, size_t* out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_move_name(const pz_solver* solver, size_t index, const char** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_level_count(const pz_solver* solver, size_t* out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solver_level_name(const pz_solver* solver, size_t index, const char** out, pz_error* err) PZ_NOEXCEPT;

/* Positions (messages as the command line's: "bad scramble: unknown move 'Q'"). */
PZ_API int pz_parse_scramble(const pz_solver* solver, const char* moves, pz_position** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_parse_state(const pz_solver* solver, const char* numbers, pz_position** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_parse_level(const pz_solver* solver, const char* name, pz_position** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solved_position(const pz_solver* solver, pz_position** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_random_state(const pz_solver* solver, uint64_t seed, pz_position** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_inverse(const pz_solver* solver, const pz_position* pos, pz_position** out, pz_error* err) PZ_NOEXCEPT;
/* pos followed by moves (names, as a scramble: "R U'"). */
PZ_API int pz_apply(const pz_solver* solver, const pz_position* pos, const char* moves, pz_position** out,
                    pz_error* err) PZ_NOEXCEPT;
/* pos followed by moves (indices into the solver's moves); count 0 allows moves NULL. */
PZ_API int pz_apply_moves(const pz_solver* solver, const pz_position* pos, const int* moves, size_t count,
                          pz_position** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_is_solved(const pz_solver* solver, const pz_position* pos, int* out, pz_error* err) PZ_NOEXCEPT;
/* The position as text: a permutation state's numbers ("3 0 1 ..."), a level's name. */
PZ_API int pz_position_format(const pz_solver* solver, const pz_position* pos, char* buf, size_t size, size_t* needed,
                              pz_error* err) PZ_NOEXCEPT;
/* A permutation position's numbers, as pz_parse_state takes them; *count: how many. */
PZ_API int pz_position_numbers(const pz_position* pos, int* out, size_t capacity, size_t* count,
                               pz_error* err) PZ_NOEXCEPT;
/* The puzzle the position belongs to; lives as long as the position. */
PZ_API int pz_position_puzzle(const pz_position* pos, const char** out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_position_free(pz_position* pos, pz_error* err) PZ_NOEXCEPT; /* NULL: PZ_OK */

/* Solving; limits NULL: the defaults. Thread-safe after prepare. */
PZ_API int pz_solve(pz_solver* solver, const pz_position* pos, const pz_limits* limits, pz_solution** out,
                    pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solution_length(const pz_solution* sol, size_t* out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solution_move(const pz_solution* sol, size_t index, int* out, pz_error* err) PZ_NOEXCEPT;
/* The move's name; lives as long as the solution. */
PZ_API int pz_solution_move_name(const pz_solution* sol, size_t index, const char** out, pz_error* err) PZ_NOEXCEPT;
/* Every move's index at once (see the buffer rules above). */
PZ_API int pz_solution_moves(const pz_solution* sol, int* out, size_t capacity, size_t* count,
                             pz_error* err) PZ_NOEXCEPT;
/* A phased solution's length per phase (none for an optimal solver's). */
PZ_API int pz_solution_phases(const pz_solution* sol, int* out, size_t capacity, size_t* count,
                              pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solution_optimal(const pz_solution* sol, int* out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solution_nodes(const pz_solution* sol, uint64_t* out, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solution_seconds(const pz_solution* sol, double* out, pz_error* err) PZ_NOEXCEPT;
/* The moves' names separated by spaces ("R U' F2"). */
PZ_API int pz_solution_text(const pz_solution* sol, char* buf, size_t size, size_t* needed, pz_error* err) PZ_NOEXCEPT;
PZ_API int pz_solution_free(pz_solution* sol, pz_error* err) PZ_NOEXCEPT; /* NULL: PZ_OK */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PZ_PZ_C_H */
