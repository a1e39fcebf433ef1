// The cache's bookkeeping: what each cached file is for, when it was last
// used, which files are in use, and what is stale (`pzc cache`, cmd_cache.cpp).
//
// note [cache metadata]
// ~~~~~~~~~~~~~~~~~~~~~
// The cache ($PZC_CACHE_DIR, note in native_build.hpp) holds three kinds of
// entries: solver binaries (bin/KEY with KEY.stamp, KEY.cpp, KEY.meta,
// KEY.log), solver index entries (index/KEY, note [solver index]) and
// tables (tables/NAME.pzt with NAME.pzt.used). Each gets a small sidecar
// written by whoever knows about it, when it is created or used:
//   * bin/KEY.meta, written by pzc each time it hands out the binary (built,
//     found by its source, or found in the index; at most once a process):
//     "pzc-cache-meta 1", "pzc <build id>", "runtime <headers digest>", and
//     when pzc knows the definition (pzc solve through the index): "variant",
//     "definition-hash", "definition <path>". Its mtime is the last use.
//   * index/KEY: the same lines after the entry's "end" (readers stop there).
//   * tables/NAME.pzt.used, written by the solver (the runtime: noteTableUse
//     in pz/tables/prune.hpp) when it loads or builds the table: a line per program
//     that used it, "<executable>\t<$PZC_CACHE_USER>", where pzc sets
//     PZC_CACHE_USER="<definition-hash>\t<variant>\t<definition path>" for
//     the solver it runs. Its mtime is the table's last use.
// The runtime writes the table sidecar because only the solver knows its
// table files (their names hash the solver model, which pzc's index path
// never builds); pzc passes what only it knows through the environment.
//
// Current (what `pzc cache prune` keeps): a binary or index entry is current
// when its metadata names this pzc's build id, the digest of the runtime
// headers this pzc compiles against, and (if it names one) a definition file
// that still holds the bytes it was built from. $CXX and PZC_MARCH are not
// compared: a cache shared by two compilers keeps both. An index entry for a
// binary is current only while its binary is. A table is current when a
// program that used it is current: a current cache binary, or a program
// outside the cache that still exists (pzc build -o: it cannot be judged).
// A table none of whose users is current is still kept ("pending") when one
// of them was built for a definition that still holds its bytes and the
// current pzc has no solver for that definition and variant yet: only
// running that solver tells whether the new pzc names the same table (a
// pzc upgrade must not throw away an hour-long cube table it still uses).
// Everything else is stale. Entries without metadata (written by a pzc
// before this one) are "unknown": prune keeps them, clear and the size cap
// remove them (a table gains its sidecar the next time a solver loads it).
// Temporaries of live writers are never touched; those of dead ones are stale.
//
// In use: a solver holds flock(LOCK_SH) on every table file it has mapped
// (MappedFile in pz/tables/prune.hpp), pzc on every binary it hands out, for the
// rest of its life (pinCacheFile); prune, clear and the size cap take
// LOCK_EX|LOCK_NB on a file before removing it and skip it when that fails.
// A table being written is an unnamed O_TMPFILE, then <name>.tmp.<pid>: never
// removed while its writer lives. pzc pins a binary before it checks it, and
// treats a binary unlinked before the pin (link count 0) as missing.
//
// Size cap: --max-size SIZE on prune, or $PZC_CACHE_MAX_SIZE after every
// pzc solve, solve-dir and build: the least recently used binaries and
// tables (by the sidecars' mtimes) are removed until the cache fits, never
// one in use or used by the current command.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pz::driver {

// What pzc knows about the definition a solver binary is built from.
struct SolverOrigin {
    std::string definition;      // the path as given
    std::string definitionHash;  // contentHash of its bytes
    std::string variant;         // the solver index's variant
};

// Writes bin's .meta sidecar (its mtime: last use). With no `origin`, a
// sidecar of this pzc and runtime is only touched (it keeps its origin).
void recordBinaryUse(const std::string& bin, const SolverOrigin* origin);

// The metadata text (magic line first) of this pzc and `origin` (may be null):
// a binary's .meta, and what index entries carry after their "end".
std::string cacheMetaText(const SolverOrigin* origin);

// Sets PZC_CACHE_USER for the solvers pzc runs (note [cache metadata]).
void setCacheUser(const SolverOrigin& origin);

// Opens `path` and holds a shared lock on it until pzc exits; false when it
// cannot be opened or was unlinked meanwhile.
bool pinCacheFile(const std::string& path);

enum class EntryStatus { Current, Pending, Unknown, Stale };

struct CacheEntry {
    std::string kind;               // "binary", "index", "table", "temp"
    std::string name;               // file name (binary key, index key, table file)
    std::vector<std::string> files; // absolute paths, the main file first
    uint64_t bytes = 0;
    int64_t lastUse = 0;            // seconds since the epoch
    EntryStatus status = EntryStatus::Unknown;
    std::string why;                // why stale / pending / unknown
    std::string definition;         // when known
    std::string solver;             // solver variant or table pattern
    bool inUse = false;
};

const char* statusName(EntryStatus s);

// Every entry of the cache directory, oldest use first.
std::vector<CacheEntry> scanCache();

// Removes `entry`'s files unless its main file is locked; false (and
// `why`) when it is in use or cannot be removed.
bool removeCacheEntry(const CacheEntry& entry, std::string& why);

// The least-recently-used eviction: removes entries (oldest use first,
// skipping in-use ones and those used since `since`) until the total is at
// most `limit`; appends what it removed (or would) to `removed`.
// Returns the total size afterwards.
uint64_t evictToFit(std::vector<CacheEntry>& entries, uint64_t limit, int64_t since, bool dryRun,
                    std::vector<CacheEntry>& removed, std::vector<std::string>& skipped);

// $PZC_CACHE_MAX_SIZE, applied after a command that may have written to the
// cache (a bad value is reported once and ignored).
void enforceCacheCapFromEnvironment();

// When this pzc started (seconds since the epoch).
int64_t processStartTime();

}  // namespace pz::driver
