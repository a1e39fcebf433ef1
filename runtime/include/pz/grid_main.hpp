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

#include "pz/grid_search.hpp"
#include "pz/support/result_json.hpp"

namespace pz::grid {

struct MainOptions {
    bool bfs = false;
    int repeat = 1;
    std::vector<std::string> only;
    SearchLimits limits;
};

template <class Space>
void solveAndPrint(const MainOptions& options) {
    if (!options.only.empty()) {
        bool wanted = false;
        for (const auto& name : options.only) wanted |= name == Space::kName;
        if (!wanted) return;
    }
    SearchResult best;
    for (int r = 0; r < options.repeat; ++r) {
        SearchResult result = options.bfs ? bfs(Space{}, options.limits) : astar(Space{}, options.limits);
        if (r == 0 || result.seconds < best.seconds) best = std::move(result);
    }
    const char* outcome = best.outcome == SearchResult::Outcome::Solved       ? "solved"
                          : best.outcome == SearchResult::Outcome::Unsolvable ? "unsolvable"
                          : best.outcome == SearchResult::Outcome::MemoryLimit ? "memory"
                                                                              : "limit";
    std::string line = json::Line()
                           .field("type", "level")
                           .field("name", Space::kName)
                           .field("outcome", outcome)
                           .field("moves", best.moves)
                           .field("expanded", static_cast<unsigned long long>(best.expanded))
                           .field("stored", static_cast<unsigned long long>(best.stored))
                           .field("bytes", best.outcome == SearchResult::Outcome::MemoryLimit ? best.neededBytes : best.closedBytes)
                           .field("seconds", best.seconds, 9)
                           .str();
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

template <class... Spaces>
int runLevels(LevelList<Spaces...>, const MainOptions& options) {
    (solveAndPrint<Spaces>(options), ...);
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
template <class List>
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
    return runLevels(List{}, options);
}

template <class List>
int levelsMain(int argc, char** argv) {
    try {
        return levelsMainImpl<List>(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: error: out of memory\n", argv[0]);
        return 4;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: internal error: %s\n", argv[0], e.what());
        return 3;
    }
}

}  // namespace pz::grid
