// slide4 benchmark, one run prints everything:
//   1. move application, ns/move in a dependent chain: generated kernels
//      (table-driven dispatch on random moves, as search uses them; and the
//      named kernels themselves, a fixed sequence dispatched at compile time)
//      vs the reference interpreter;
//   2. the pruning-table build (fresh, in a temporary cache): time, peak
//      memory, and its depth distribution checked against facts.md;
//   3. the seed's table: scramble depth 3..13, 80 scrambles each: avg, median,
//      min, max solve time and (min, max, avg) solution lengths;
//   4. 100 uniform random states: mean, median, max time, nodes/s.
//   bench_slide4 [--table-dir DIR]   (default: a fresh temporary directory)
//   bench_slide4 --moves-only        (part 1 only)
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "compiler/interp/interpreter.hpp"
#include "compiler/ir/lower.hpp"
#include "pz/search/search.hpp"
#include "pz/solver_main.hpp"
#include "slide4.hpp"

using T = pzgen::slide4::Traits;
using Clock = std::chrono::steady_clock;

static double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
// CPU time of this thread: the machine may be shared, and wall time then
// measures the neighbours too. Solve and move timings use it.
static double cpuNow() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static std::string fmtTime(double s) {
    char b[32];
    if (s < 1e-3) std::snprintf(b, sizeof b, "%.2fus", s * 1e6);
    else if (s < 1) std::snprintf(b, sizeof b, "%.2fms", s * 1e3);
    else std::snprintf(b, sizeof b, "%.2fs", s);
    return b;
}

// All 24 named kernels once, in the order m = 7i mod 24 (rows and columns
// interleaved), each applied to the previous result.
template <size_t... I>
static T::State namedKernelRound(T::State s, std::index_sequence<I...>) {
    ((s = pzgen::slide4::kMoveKernels[(7 * I) % T::kMoves](s)), ...);
    return s;
}

static void moveApplication() {
    std::printf("== move application (dependent chain of random moves; thread CPU time)\n");
    std::mt19937_64 rng(0xdeadbeef);
    const int n = 1 << 22;
    std::vector<uint8_t> moves(n);
    for (auto& m : moves) m = static_cast<uint8_t>(rng() % T::kMoves);
    T::State s = T::solved();
    double c0 = cpuNow();
    for (int rep = 0; rep < 8; ++rep)
        for (int i = 0; i < n; ++i) s = T::applyMove(s, moves[i]);
    double gen = (cpuNow() - c0) / (8.0 * n);
    std::printf("  generated kernels:   %6.2f ns/move   (result %016llx)\n", gen * 1e9, static_cast<unsigned long long>(s.w[0]));
    T::State named = T::solved();
    const int rounds = n / T::kMoves;
    c0 = cpuNow();
    for (int i = 0; i < rounds; ++i) named = namedKernelRound(named, std::make_index_sequence<T::kMoves>{});
    double namedNs = (cpuNow() - c0) / (static_cast<double>(rounds) * T::kMoves);
    T::State namedCheck = T::solved();
    for (int i = 0; i < rounds; ++i)
        for (int j = 0; j < T::kMoves; ++j) namedCheck = T::applyMove(namedCheck, (7 * j) % T::kMoves);
    std::printf("  named kernels:       %6.2f ns/move   (fixed sequence; same result as the table: %s)\n", namedNs * 1e9,
                named == namedCheck ? "yes" : "NO");

    pz::DiagnosticEngine diags;
    auto puzzle = pz::ir::loadPuzzle(std::string(PZ_SOURCE_DIR) + "/puzzles/slide4.pz", diags);
    if (!puzzle) return;
    pz::interp::Interpreter interp(*puzzle);
    // Interpreter move indices: the same metric moves in the same order.
    std::vector<int> interpMove;
    for (int i = 0; i < static_cast<int>(puzzle->moves.size()); ++i)
        if (puzzle->moves[i].inMetric) interpMove.push_back(i);
    auto a = interp.solved(), b = a;
    const int m = 1 << 20;
    c0 = cpuNow();
    for (int i = 0; i < m; i += 2) {
        interp.applyMove(a, interpMove[moves[i]], b);
        interp.applyMove(b, interpMove[moves[i + 1]], a);
    }
    double ref = (cpuNow() - c0) / m;
    // Same moves, same result?
    T::State check = T::solved();
    for (int i = 0; i < m; ++i) check = T::applyMove(check, moves[i]);
    bool same = true;
    for (int p = 0; p < 16; ++p) same = same && static_cast<int>(pz::lane(check.w[0], p)) == a.piece[p];
    std::printf("  reference interpreter: %6.2f ns/move   (same final state: %s)\n", ref * 1e9, same ? "yes" : "NO");
    std::printf("  speed-up: %.1fx\n", ref / gen);
}

struct Stats {
    std::vector<double> times;
    std::vector<int> lengths;
    uint64_t nodes = 0;
};

static void printRow(const char* label, Stats st) {
    std::sort(st.times.begin(), st.times.end());
    double total = 0;
    for (double t : st.times) total += t;
    int lo = *std::min_element(st.lengths.begin(), st.lengths.end());
    int hi = *std::max_element(st.lengths.begin(), st.lengths.end());
    double avg = 0;
    for (int l : st.lengths) avg += l;
    avg /= st.lengths.size();
    std::printf("%6s %12s %12s %12s %12s  [(%d,%d),%.1f]\n", label, fmtTime(total / st.times.size()).c_str(),
                fmtTime(st.times[st.times.size() / 2]).c_str(), fmtTime(st.times.front()).c_str(),
                fmtTime(st.times.back()).c_str(), lo, hi, avg);
}

static Stats solveAll(pz::Search<T>& search, const std::vector<T::State>& states) {
    Stats st;
    for (const auto& s : states) {
        double c0 = cpuNow();
        auto r = search.solve(s);
        r.seconds = cpuNow() - c0;
        if (!r.found) {
            std::printf("  NOT FOUND\n");
            std::exit(1);
        }
        T::State replay = s;
        for (int m : r.moves) replay = T::applyMove(replay, m);
        if (!(replay == T::solved())) {
            std::printf("  WRONG SOLUTION\n");
            std::exit(1);
        }
        st.times.push_back(r.seconds);
        st.lengths.push_back(static_cast<int>(r.moves.size()));
        st.nodes += r.nodes;
    }
    return st;
}

int main(int argc, char** argv) {
    std::string dir;
    bool temporary = true;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--table-dir") {
            dir = argv[++i];
            temporary = false;
        }
    if (dir.empty()) {
        dir = (std::filesystem::temp_directory_path() / ("pz-bench-" + std::to_string(::getpid()))).string();
        std::filesystem::create_directories(dir);
    }
    moveApplication();
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--moves-only") {
            if (temporary) std::filesystem::remove_all(dir);
            return 0;
        }

    std::printf("\n== pruning table (%s)\n", temporary ? "fresh build" : dir.c_str());
    auto processCpu = [] {
        struct rusage r {};
        getrusage(RUSAGE_SELF, &r);
        return r.ru_utime.tv_sec + r.ru_stime.tv_sec + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
    };
    double cpu0 = processCpu();
    auto t0 = Clock::now();
    pz::Search<T> search(dir, 0, /*resident=*/true);  // ~1000 solves: huge pages at once
    double setup = since(t0);
    double setupCpu = processCpu() - cpu0;
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    const uint64_t facts[] = {1, 18, 255, 3648, 48787, 605886, 6632955, 56497090, 253413670, 199503998, 2212092};
    search.forEachTable([&](const auto& t) {
        std::printf("  %s: %llu entries, %.1f MiB, %s in %.1fs wall (%.1fs CPU on %u threads); peak RSS %.1f MiB\n",
                    t.fileName().c_str(), static_cast<unsigned long long>(t.entries()), t.bytes() / 1048576.0,
                    t.loadedFromCache() ? "loaded" : "built", t.loadedFromCache() ? setup : t.buildSeconds(), setupCpu,
                    std::thread::hardware_concurrency(), ru.ru_maxrss / 1024.0);
        bool match = true;
        std::printf("  depth counts:");
        for (int d = 0; d < 11; ++d) {
            std::printf(" %llu", static_cast<unsigned long long>(t.depthCount()[d]));
            match = match && t.depthCount()[d] == facts[d];
        }
        std::printf("\n  facts.md distribution (top_rows): %s\n", match ? "MATCH" : "MISMATCH");
    });

    std::printf("\n== seed's table: 80 scrambles of each length (random moves; solve times are thread CPU time)\n");
    std::printf(" Moves          Avg       Median          Min          Max  Solution\n");
    std::mt19937_64 rng(0x32de);
    for (int depth = 3; depth <= 13; ++depth) {
        std::vector<T::State> states;
        for (int i = 0; i < 80; ++i) {
            T::State s = T::solved();
            for (int k = 0; k < depth; ++k) s = T::applyMove(s, static_cast<int>(rng() % T::kMoves));
            states.push_back(s);
        }
        printRow(std::to_string(depth).c_str(), solveAll(search, states));
    }

    std::printf("\n== 100 uniform random states\n");
    std::mt19937_64 rng2(2024);
    std::vector<T::State> states;
    for (int i = 0; i < 100; ++i) states.push_back(pz::randomState<T>(rng2));
    Stats st = solveAll(search, states);
    std::printf(" States          Avg       Median          Min          Max  Solution\n");
    printRow("100", st);
    double total = 0;
    for (double t : st.times) total += t;
    std::printf("  nodes: %llu total, %.1f M nodes/s\n", static_cast<unsigned long long>(st.nodes), st.nodes / total / 1e6);
    if (temporary) std::filesystem::remove_all(dir);
    return 0;
}
