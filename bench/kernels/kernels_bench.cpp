// The search's per-node kernels (pz/search/search.hpp's stage 1 and 2) on the
// checked-in generated traits, one operation at a time over 4096 random
// states (their words in L1), best of 5 runs, in ns an operation:
//   children, one kernel each   T::applyMove for every move
//   children, every move at once T::applyAllMoves, then every move's words
//   children, byte-lane moves    pz::spreadLanes once, pz::applyByteLaneMove a move
//   coset ranks (cube3 h48h3)    the reduced parts' rank; the kept parts' at a symmetry
//   inverse step                 T::premultiplyInverseMove
// The children rows are per node (all moves); the others per call.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "cube3/cube3.hpp"
#include "pz/solver_main.hpp"
#include "rotate4o/rotate4o.hpp"
#include "slide4/slide4.hpp"

namespace {

constexpr int kStates = 4096;
constexpr int kReps = 300;

template <class F>
double nsPer(F&& f, double ops) {
    double best = 1e30;
    for (int run = 0; run < 5; ++run) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best / ops * 1e9;
}

// Keeps a value alive without a store to memory per call.
volatile uint64_t gSink;

template <class T>
void benchChildren(const char* name) {
    using State = typename T::State;
    constexpr int W = State::kWords;
    std::mt19937_64 rng(5);
    std::vector<State> states(kStates);
    for (auto& s : states) s = pz::randomState<T>(rng);
    const double nodes = static_cast<double>(kStates) * kReps;
    const double one = nsPer(
        [&] {
            uint64_t acc = 0;
            for (int r = 0; r < kReps; ++r)
                for (const State& s : states)
                    for (int m = 0; m < T::kMoves; ++m) acc += T::applyMove(s, m).w[0];
            gSink = acc;
        },
        nodes);
    const double all = nsPer(
        [&] {
            uint64_t acc = 0;
            typename T::AllMoves out;
            for (int r = 0; r < kReps; ++r)
                for (const State& s : states) {
                    T::applyAllMoves(s, out);
                    for (int m = 0; m < T::kMoves; ++m) acc += out.stateAt(m).w[0];
                }
            gSink = acc;
        },
        nodes);
    const double bytes = nsPer(
        [&] {
            uint64_t acc = 0;
            for (int r = 0; r < kReps; ++r)
                for (const State& s : states) {
                    const pz::SpreadLanes b = pz::spreadLanes(s);
                    for (int m = 0; m < T::kMoves; ++m) acc += pz::applyByteLaneMove<W>(T::kByteLaneMoves, b, m).w[0];
                }
            gSink = acc;
        },
        nodes);
    std::printf("%-9s %2d moves, %d words | one kernel each %7.2f | every move at once %7.2f | byte-lane moves%s %7.2f  (ns a node)\n",
                name, T::kMoves, W, one, all, pz::kByteLaneMoveKernels ? "" : " (loop)", bytes);
}

void benchCosetRanks() {
    using T = pzgen::cube3::Traits;
    std::mt19937_64 rng(6);
    std::vector<T::State> states(kStates);
    std::vector<int> syms(kStates);
    for (int i = 0; i < kStates; ++i) {
        states[static_cast<size_t>(i)] = pz::randomState<T>(rng);
        syms[static_cast<size_t>(i)] = static_cast<int>(rng() % T::kSymmetries);
    }
    const double calls = static_cast<double>(kStates) * kReps;
    const double reduced = nsPer(
        [&] {
            uint64_t acc = 0;
            for (int r = 0; r < kReps; ++r)
                for (const auto& s : states) acc += T::cosetRank(0, pz::CosetRanks::Reduced, s);
            gSink = acc;
        },
        calls);
    const double kept = nsPer(
        [&] {
            uint64_t acc = 0;
            for (int r = 0; r < kReps; ++r)
                for (int i = 0; i < kStates; ++i) acc += T::cosetKeptRankAt(0, states[static_cast<size_t>(i)], syms[static_cast<size_t>(i)]);
            gSink = acc;
        },
        calls);
    const double inverse = nsPer(
        [&] {
            uint64_t acc = 0;
            for (int r = 0; r < kReps; ++r)
                for (int i = 0; i < kStates; ++i) acc += T::premultiplyInverseMove(states[static_cast<size_t>(i)], i % T::kMoves).w[1];
            gSink = acc;
        },
        calls);
    std::printf("cube3 h48h3 | reduced rank %5.2f | kept rank at a symmetry %5.2f | inverse step %5.2f  (ns a call)\n", reduced,
                kept, inverse);
}

}  // namespace

int main() {
    benchChildren<pzgen::cube3::Traits>("cube3");
    benchChildren<pzgen::rotate4o::Traits>("rotate4o");
    benchChildren<pzgen::slide4::Traits>("slide4");
    benchCosetRanks();
}
