// Byte-lane move kernels on 5x5 Loopover (25 tiles, 32 byte lanes), ns/move
// in a dependent chain (each move applied to the previous result; thread CPU
// time): the table-driven applyMove on random moves (as search uses it), the
// named kernels in a fixed order, and compose (a runtime-index shuffle).
//   bench_lanes [--iterations N]   (default 2^22 moves, 8 repetitions)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "loopover5.hpp"
#include "pz/lanes.hpp"

using T = pzgen::loopover5::Traits;

static double cpuNow() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

template <size_t... I>
static T::State namedRound(T::State s, std::index_sequence<I...>) {
    ((s = pzgen::loopover5::kMoveKernels[(7 * I) % T::kMoves](s)), ...);
    return s;
}

int main(int argc, char** argv) {
    int n = 1 << 22;
    if (argc == 3 && std::strcmp(argv[1], "--iterations") == 0) n = std::max(1024, std::atoi(argv[2]));
    std::printf("loopover5 byte-lane kernels, lane path: %s\n", pz::kLanePath);
    std::mt19937_64 rng(0xdeadbeef);
    std::vector<uint8_t> moves(n);
    for (auto& m : moves) m = static_cast<uint8_t>(rng() % T::kMoves);
    T::State s = T::solved();
    double c0 = cpuNow();
    for (int rep = 0; rep < 8; ++rep)
        for (int i = 0; i < n; ++i) s = T::applyMove(s, moves[i]);
    double table = (cpuNow() - c0) / (8.0 * n);
    std::printf("  applyMove (random moves): %6.2f ns/move  (result %016llx)\n", table * 1e9,
                static_cast<unsigned long long>(s.w[0]));

    T::State named = T::solved();
    const int rounds = n / T::kMoves;
    c0 = cpuNow();
    for (int i = 0; i < rounds; ++i) named = namedRound(named, std::make_index_sequence<T::kMoves>{});
    double namedNs = (cpuNow() - c0) / (static_cast<double>(rounds) * T::kMoves);
    T::State check = T::solved();
    for (int i = 0; i < rounds; ++i)
        for (int j = 0; j < T::kMoves; ++j) check = T::applyMove(check, (7 * j) % T::kMoves);
    std::printf("  named kernels (fixed):    %6.2f ns/move  (same result as applyMove: %s)\n", namedNs * 1e9,
                named == check ? "yes" : "NO");

    // compose with a runtime permutation: the gather of compose/inverse tracking.
    T::State x = T::solved(), step = T::applyMove(T::applyMove(T::solved(), 0), 11);
    c0 = cpuNow();
    for (int i = 0; i < n; ++i) x = T::compose(x, step);
    double composeNs = (cpuNow() - c0) / n;
    std::printf("  compose (runtime index):  %6.2f ns/op    (result %016llx)\n", composeNs * 1e9,
                static_cast<unsigned long long>(x.w[0]));
    return named == check ? 0 : 1;
}
