// The main() of a generated grid-actor solver: solves every level it was
// generated with (or those named by --only) and prints one line per level
//
//   level NAME solved length L expanded E stored S bytes B seconds T moves 0 3 3 1
//
// (outcome: solved | unsolvable | limit). pzc reads these lines, replays each
// solution through its interpreter and prints the table. Options:
//   --bfs          breadth-first instead of A*
//   --only NAME    just this level (repeatable)
//   --repeat N     run each search N times, report the fastest (benchmarks)
//   --max-states N give up beyond N stored states
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pz/grid_search.hpp"

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
                                                                              : "limit";
    std::printf("level %s %s length %zu expanded %llu stored %llu bytes %zu seconds %.9f moves", Space::kName,
                outcome, best.moves.size(), (unsigned long long)best.expanded, (unsigned long long)best.stored,
                best.closedBytes, best.seconds);
    for (int m : best.moves) std::printf(" %d", m);
    std::printf("\n");
}

template <class... Spaces>
int runLevels(LevelList<Spaces...>, const MainOptions& options) {
    (solveAndPrint<Spaces>(options), ...);
    return 0;
}

template <class List>
int levelsMain(int argc, char** argv) {
    MainOptions options;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--bfs") {
            options.bfs = true;
        } else if (a == "--only" && i + 1 < argc) {
            options.only.push_back(argv[++i]);
        } else if (a == "--repeat" && i + 1 < argc) {
            options.repeat = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--max-states" && i + 1 < argc) {
            options.limits.maxStates = std::strtoull(argv[++i], nullptr, 10);
        } else {
            std::fprintf(stderr, "usage: %s [--bfs] [--only NAME]... [--repeat N] [--max-states N]\n", argv[0]);
            return 2;
        }
    }
    keepFreedMemory();
    return runLevels(List{}, options);
}

}  // namespace pz::grid
