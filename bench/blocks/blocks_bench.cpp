// Benchmark of the small-space sliding-block engine (pz/blocks/small_space.hpp):
// Rush Hour boards and Klotski in its three metrics. For each: the optimal
// length, the search to the first goal (states stored, time), the search
// of the whole cluster (--count: states, time) and states/s of the latter;
// times are the thread's CPU time (not wall: the machine may be shared),
// the fastest of --repeat runs (default 20), the solution's reconstruction
// included, its replay check not. Usage:
//   bench_blocks [--repeat N] [--random N]
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "blocks_fixtures.hpp"
#include "pz/blocks/small_space.hpp"

using namespace pz::blocks;
using namespace pz::blocks::fixtures;

namespace {

struct Timed {
    SearchResult result;
    double best = 1e30;
};

// This thread's CPU time: the machine may be shared, and wall time then
// counts other processes' turns.
double cpuSeconds() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

template <class T>
Timed timeSearch(const Level& level, bool count, int repeat) {
    Timed t;
    for (int r = 0; r < repeat; ++r) {
        const double c0 = cpuSeconds();
        SearchResult res = search<T>(level, {.countAll = count});
        t.best = std::min(t.best, cpuSeconds() - c0);
        t.result = std::move(res);
    }
    return t;
}

template <class T>
void report(const char* label, const Level& level, int repeat) {
    Timed goal = timeSearch<T>(level, false, repeat);
    Timed all = timeSearch<T>(level, true, repeat);
    if (goal.result.outcome == SearchResult::Outcome::Solved && !replay<T>(level, goal.result.moves)) {
        std::fprintf(stderr, "%s: the solution does not replay\n", label);
        std::exit(3);
    }
    const bool solved = goal.result.outcome == SearchResult::Outcome::Solved;
    std::printf("%-44s %5s %9llu %10.3f %9llu %10.3f %8.2f\n", label,
                solved ? std::to_string(goal.result.moves.size()).c_str() : "-",
                static_cast<unsigned long long>(goal.result.states), goal.best * 1e3,
                static_cast<unsigned long long>(all.result.reachable), all.best * 1e3,
                all.best > 0 ? double(all.result.reachable) / all.best / 1e6 : 0.0);
}

// A random Rush Hour board: the red car in row 2, then cars (and maybe a
// wall) dropped at random free places.
std::string randomRush(std::mt19937& rng) {
    std::string board(36, 'o');
    auto place = [&](char ch, bool horizontal, int len, int x, int y) {
        for (int k = 0; k < len; ++k) {
            int cx = x + (horizontal ? k : 0), cy = y + (horizontal ? 0 : k);
            if (cx >= 6 || cy >= 6 || board[cy * 6 + cx] != 'o') return false;
        }
        for (int k = 0; k < len; ++k) board[(y + (horizontal ? 0 : k)) * 6 + x + (horizontal ? k : 0)] = ch;
        return true;
    };
    place('A', true, 2, int(rng() % 3), 2);
    int cars = 8 + int(rng() % 6);
    char ch = 'B';
    for (int c = 0; c < cars * 6 && ch < 'B' + cars; ++c) {
        bool h = rng() % 2;
        int len = 2 + int(rng() % 3 == 0);
        if (place(ch, h, len, int(rng() % 6), int(rng() % 6))) ++ch;
    }
    return board;
}

}  // namespace

int main(int argc, char** argv) {
    int repeat = 20, randomBoards = 2000;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--random") && i + 1 < argc) randomBoards = std::max(0, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: %s [--repeat N] [--random N]\n", argv[0]);
            return 2;
        }
    }
    std::printf("%-44s %5s %9s %10s %9s %10s %8s\n", "board", "moves", "to-goal", "goal-ms", "cluster", "count-ms", "Mstate/s");
    using Rush = RushTraits<0>;
    report<Rush>(kHardest, rushLevel(kHardest), repeat);
    // Random boards (seed 1): the solvable ones with the longest solutions
    // and the largest clusters, and the mean and worst over all.
    std::mt19937 rng(1);
    struct Found {
        std::string board;
        size_t moves, cluster;
    };
    std::vector<Found> found;
    double total = 0, worst = 0;
    int solvable = 0;
    for (int i = 0; i < randomBoards; ++i) {
        std::string b = randomRush(rng);
        Level level = rushLevel(b);
        const double c0 = cpuSeconds();
        SearchResult r = search<Rush>(level, {.countAll = true});
        const double sec = cpuSeconds() - c0;
        total += sec;
        worst = std::max(worst, sec);
        if (r.outcome != SearchResult::Outcome::Solved) continue;
        ++solvable;
        found.push_back({b, r.moves.size(), r.reachable});
    }
    if (randomBoards > 0)
        std::printf("random boards: %d (%d solvable), whole cluster: mean %.3f ms, worst %.3f ms\n", randomBoards, solvable,
                    total / randomBoards * 1e3, worst * 1e3);
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.moves > b.moves; });
    for (size_t i = 0; i < found.size() && i < 3; ++i) report<Rush>(found[i].board.c_str(), rushLevel(found[i].board), repeat);
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.cluster > b.cluster; });
    for (size_t i = 0; i < found.size() && i < 3; ++i) report<Rush>(found[i].board.c_str(), rushLevel(found[i].board), repeat);

    auto klotski = [&](auto traits, const char* label) {
        using T = decltype(traits);
        std::istringstream in(kKlotskiLevel);
        report<T>(label, parseLevels<T>(in).at(0), repeat);
    };
    klotski(KlotskiTraits<Metric::Step>{}, "klotski step");
    klotski(KlotskiTraits<Metric::Slide>{}, "klotski slide");
    klotski(KlotskiTraits<Metric::Path>{}, "klotski path");
    return 0;
}
