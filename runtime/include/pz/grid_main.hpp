// The main() of a generated grid-actor solver: solves every level it was
// generated with (or those named by --only) and prints one JSON line per level
//
//   {"type": "level", "name": "1.1-line_dance", "outcome": "solved", "moves": [0, 3],
//    "expanded": E, "stored": S, "bytes": B, "seconds": T}
//
// (outcome: solved | unsolvable | limit | memory, "bytes" then the
// projected need, note [grid memory budget]; note [result protocol] in
// pz/support/result_json.hpp). pzc reads these lines, replays each solution through
// its interpreter and prints the table. Options:
//   --bfs          breadth-first instead of A*
//   --only NAME    just this level (repeatable)
//   --repeat N     run each search N times, report the fastest (benchmarks)
//   --max-states N give up beyond N stored states
//   --memory BYTES stop before the search holds more (note [grid memory budget])
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "pz/api/grid.hpp"
#include "pz/grid_search.hpp"
#include "pz/support/result_json.hpp"

namespace pz::grid {

struct MainOptions {
    bool bfs = false;
    int repeat = 1;
    std::vector<std::string> only;
    SearchLimits limits;
};

// One level: searched through the library's solver (pz/api/grid.hpp, one
// code path), the fastest of --repeat runs, one JSON line.
template <class Lib>
bool solveAndPrint(const api::GridLevelsSolver<Lib>& solver, const std::string& name, const MainOptions& options) {
    if (!options.only.empty()) {
        bool wanted = false;
        for (const auto& only : options.only) wanted |= only == name;
        if (!wanted) return true;
    }
    SearchResult best;
    for (int r = 0; r < options.repeat; ++r) {
        bool replayed = true;
        SearchResult result = *solver.search(name, options.limits, options.bfs, replayed);
        if (!replayed) {
            std::fprintf(stderr, "internal error: level %s: the solution does not replay to solved\n", name.c_str());
            return false;
        }
        if (r == 0 || result.seconds < best.seconds) best = std::move(result);
    }
    const char* outcome = best.outcome == SearchResult::Outcome::Solved       ? "solved"
                          : best.outcome == SearchResult::Outcome::Unsolvable ? "unsolvable"
                          : best.outcome == SearchResult::Outcome::MemoryLimit ? "memory"
                                                                              : "limit";
    std::string line = json::Line()
                           .field("type", "level")
                           .field("name", name)
                           .field("outcome", outcome)
                           .field("moves", best.moves)
                           .field("expanded", static_cast<unsigned long long>(best.expanded))
                           .field("stored", static_cast<unsigned long long>(best.stored))
                           .field("bytes", best.outcome == SearchResult::Outcome::MemoryLimit ? best.neededBytes : best.closedBytes)
                           .field("seconds", best.seconds, 9)
                           .str();
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    return true;
}

template <class Lib>
int runLevels(const MainOptions& options) {
    const api::GridLevelsSolver<Lib> solver;
    for (const auto& name : solver.info().levels)
        if (!solveAndPrint(solver, name, options)) return 3;
    return 0;
}

// A whole decimal number in [lo, hi]; false for anything else.
inline bool parseLevelsNumber(const char* text, unsigned long long lo, unsigned long long hi, unsigned long long& out) {
    std::string s = text;
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(s);
    return out >= lo && out <= hi;
}

// Exit codes: 0 done (each level's outcome is in its line), 2 usage,
// 3 internal error, 4 out of memory.
template <class Lib>
int levelsMainImpl(int argc, char** argv) {
    MainOptions options;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--bfs") {
            options.bfs = true;
        } else if (a == "--only" && i + 1 < argc) {
            options.only.push_back(argv[++i]);
        } else if (a == "--repeat" && i + 1 < argc) {
            unsigned long long n = 0;
            if (!parseLevelsNumber(argv[++i], 1, 1000000, n)) {
                std::fprintf(stderr, "%s: error: --repeat needs a whole number from 1 to 1000000\n", argv[0]);
                return 2;
            }
            options.repeat = static_cast<int>(n);
        } else if (a == "--max-states" && i + 1 < argc) {
            unsigned long long n = 0;
            if (!parseLevelsNumber(argv[++i], 1, UINT64_MAX, n)) {
                std::fprintf(stderr, "%s: error: --max-states needs a positive whole number\n", argv[0]);
                return 2;
            }
            options.limits.maxStates = n;
        } else if (a == "--memory" && i + 1 < argc) {
            unsigned long long n = 0;  // bytes (pzc passes a whole number)
            if (!parseLevelsNumber(argv[++i], 1, UINT64_MAX, n)) {
                std::fprintf(stderr, "%s: error: --memory needs a positive whole number of bytes\n", argv[0]);
                return 2;
            }
            options.limits.memoryBytes = n;
        } else {
            std::fprintf(stderr, "usage: %s [--bfs] [--only NAME]... [--repeat N] [--max-states N] [--memory BYTES]\n", argv[0]);
            return 2;
        }
    }
    keepFreedMemory();
    return runLevels<Lib>(options);
}

// Lib: the generated Library struct (kName, kDirectionNames, Levels).
template <class Lib>
int levelsMain(int argc, char** argv) {
    try {
        return levelsMainImpl<Lib>(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: error: out of memory\n", argv[0]);
        return 4;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: internal error: %s\n", argv[0], e.what());
        return 3;
    }
}

}  // namespace pz::grid
