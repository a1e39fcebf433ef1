// pz/support/memory.hpp — the memory budget of pruning tables.
//
// Sizes are written as a number with an optional binary suffix: 512M, 2G,
// 1.5G, 300000K, 1T (K/M/G/T = 2^10/2^20/2^30/2^40; a trailing B or iB is
// accepted; no suffix = bytes). The default budget is a quarter of the
// physical memory (or of the cgroup's memory.max when that is lower): tables
// are held per solver process (two solves at once hold two copies of a
// resident table), the search and the machine's other users need the rest,
// and a table that does not fit in RAM makes the search thrash. On a 24 GiB
// machine that is 6 GiB: every shipped puzzle's tables fit, an 11 GiB
// six-piece rotate4o pattern is refused unless --memory asks for it.
#pragma once

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

namespace pz {

// Bytes for "2G" etc.; nullopt for anything else (negative, empty, junk, overflow).
inline std::optional<uint64_t> parseMemorySize(const std::string& text) {
    if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])))) return std::nullopt;
    size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (...) {
        return std::nullopt;
    }
    std::string suffix = text.substr(used);
    double unit = 1;
    if (!suffix.empty()) {
        switch (suffix[0]) {
            case 'k': case 'K': unit = 1024.0; break;
            case 'm': case 'M': unit = 1024.0 * 1024; break;
            case 'g': case 'G': unit = 1024.0 * 1024 * 1024; break;
            case 't': case 'T': unit = 1024.0 * 1024 * 1024 * 1024; break;
            case 'b': case 'B': unit = 1; break;
            default: return std::nullopt;
        }
        std::string rest = suffix.substr(unit == 1 ? 0 : 1);
        if (!(rest.empty() || rest == "B" || rest == "b" || rest == "iB")) return std::nullopt;
    }
    double bytes = value * unit;
    if (!std::isfinite(bytes) || bytes < 0 || bytes >= 1.8e19) return std::nullopt;
    return static_cast<uint64_t>(bytes);
}

// "11.8 GB"-style text (binary units, written KiB/MiB/GiB).
inline std::string formatBytes(uint64_t bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, ++u;
    char buf[48];
    if (u == 0) std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

// Physical memory, lowered to the cgroup (v2) limit when one is set.
inline uint64_t physicalMemory() {
    long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    uint64_t total = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : uint64_t{1} << 32;
    std::ifstream cg("/sys/fs/cgroup/memory.max");
    std::string limit;
    if (cg >> limit && limit != "max") {
        if (auto v = parseMemorySize(limit); v && *v > 0 && *v < total) total = *v;
    }
    return total;
}

inline uint64_t defaultMemoryBudget() { return physicalMemory() / 4; }

// The budget in force in this thread (set by a solver's --memory, or for
// the duration of a library Solver's prepare(): pz/api/solver.hpp). Per
// thread, not per process: two library solvers preparing at once in one
// program each see their own (note [no global state] in pz/api/solver.hpp).
// Every check runs in the thread that loads or builds, before its pool starts.
inline uint64_t& memoryBudget() {
    thread_local uint64_t budget = defaultMemoryBudget();
    return budget;
}

// Thrown before a table that does not fit the budget is allocated or mapped.
struct MemoryBudgetError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace pz
