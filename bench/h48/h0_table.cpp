// bench/h48: the H48 h0 table of the 3x3x3 cube built with the runtime's
// generic pieces (pz/tables/sym_classes.hpp, pz/tables/coset_prune.hpp,
// pz/tables/two_bit_table.hpp) on the checked-in generated cube3 traits. The
// coordinate is the H48 coset coordinate pzc check reports for cube3.pz
// (corner tetrad membership 70 x corner orientation 2187, reduced by the 48
// symmetries; edge slice membership 34650). Prints classes, entries,
// depth distribution, 2-bit size and base, build times (wall, CPU).
//
//   bench_h48_h0 [threads]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "cube3.hpp"
#include "pz/search/phased.hpp"
#include "pz/tables/coset_prune.hpp"
#include "pz/tables/two_bit_table.hpp"

using T = pzgen::cube3::Traits;
using State = T::State;

static double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpuSeconds();
    // Labels: corners UFR UFL UBL UBR DFR DFL DBL DBR, edges UR UF UL UB DR DF DL DB FR FL BL BR.
    pz::PhasePartSpec cm;
    cm.kind = pz::PhasePartSpec::Membership;
    cm.orbit = 0;
    cm.sets = 2;
    for (int l : {1, 3, 4, 6}) cm.setOf[l] = 1;  // {UFR UBL DFL DBR} = set 0
    cm.size = 70;
    pz::PhasePartSpec co;
    co.kind = pz::PhasePartSpec::Orientation;
    co.orbit = 0;
    co.modulus = 3;
    co.sumConstrained = true;
    co.size = 2187;
    pz::PhasePartSpec em;
    em.kind = pz::PhasePartSpec::Membership;
    em.orbit = 1;
    em.sets = 3;
    for (int l : {0, 2, 4, 6}) em.setOf[l] = 1;
    for (int l : {8, 9, 10, 11}) em.setOf[l] = 2;
    em.size = 34650;
    const std::vector<pz::PhasePartSpec> parts{cm, co, em};
    const std::vector<int> reduced{0, 1};
    auto rankA = [&](const State& s) { return pz::rankPart<T>(cm, s) * 2187 + pz::rankPart<T>(co, s); };
    auto stateA = [&](uint64_t a) {
        const uint64_t v[2] = {a / 2187, a % 2187};
        return pz::unrankParts<T>(parts, reduced, v);
    };
    const int nS = T::kSymmetries;
    std::mt19937_64 rng(1);
    State probe = T::solved();
    for (int i = 0; i < 40; ++i) probe = T::applyMove(probe, static_cast<int>(rng() % T::kMoves));
    std::vector<int> symInverse(nS, -1);
    for (int s = 0; s < nS; ++s)
        for (int t = 0; t < nS; ++t)
            if (T::conjugate(T::conjugate(probe, s), t) == probe) symInverse[s] = t;
    const pz::SymClasses sc = pz::computeSymClasses(
        70 * 2187, nS, symInverse, stateA, rankA, [](const State& x, int s) { return T::conjugate(x, s); }, "h0");
    const auto conjB = pz::conjugationTable(
        34650, nS, [&](uint64_t b) { return pz::unrankPart<T>(em, b); },
        [&](const State& x) { return pz::rankPart<T>(em, x); }, [](const State& x, int s) { return T::conjugate(x, s); });
    const int n = T::kMoves;
    std::vector<uint32_t> moveA(70 * 2187 * n), moveB(34650 * n);
    for (uint64_t a = 0; a < 70 * 2187; ++a) {
        const State x = stateA(a);
        for (int m = 0; m < n; ++m) moveA[a * n + m] = static_cast<uint32_t>(rankA(T::applyMove(x, m)));
    }
    for (uint64_t b = 0; b < 34650; ++b) {
        const State x = pz::unrankPart<T>(em, b);
        for (int m = 0; m < n; ++m) moveB[b * n + m] = static_cast<uint32_t>(pz::rankPart<T>(em, T::applyMove(x, m)));
    }
    pz::CosetTableSpec spec;
    spec.rawA = 70 * 2187;
    spec.sizeB = 34650;
    spec.moves = n;
    spec.nS = nS;
    spec.moveA = moveA.data();
    spec.moveB = moveB.data();
    spec.classes = &sc;
    spec.conjB = conjB.data();
    spec.goalA = rankA(T::solved());
    spec.goalB = pz::rankPart<T>(em, T::solved());
    spec.movesClosedUnderInverse = true;
    const double prepWall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("h0: corner classes %llu (raw %d), entries %llu, prep %.1f s wall\n",
                static_cast<unsigned long long>(sc.classes()), 70 * 2187,
                static_cast<unsigned long long>(sc.classes() * 34650), prepWall);
    std::fflush(stdout);
    const pz::CosetTable table = pz::CosetTable::build(spec, threads);
    const double bfsWall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const unsigned base = pz::TwoBitTable::chooseBase(table.counts());
    const pz::TwoBitTable packed =
        pz::TwoBitTable::pack(table.entries(), base, [&](uint64_t i) { return table.entry(i); }, threads);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("depths:");
    double sum = 0;
    for (int d = 0; d < 16; ++d) {
        std::printf(" %d:%llu", d, static_cast<unsigned long long>(table.counts()[d]));
        sum += double(d) * double(table.counts()[d]);
    }
    double packedSum = 0;
    for (uint64_t i = 0; i < table.entries(); ++i) packedSum += packed.lookup(i);
    std::printf("\nmean entry %.3f; 4-bit %.1f MiB; 2-bit base %u: %.1f MiB, mean lookup %.3f\n",
                sum / double(table.entries()), double(table.words().size() * 8) / 1048576.0, base,
                double(packed.bytes()) / 1048576.0, packedSum / double(table.entries()));
    // Checks on random walks: the entry never exceeds the walk's length
    // (admissible) and is the same for all 48 conjugates (the symmetries act).
    uint64_t over = 0, asym = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        State x = T::solved();
        const int len = static_cast<int>(rng() % 14);
        for (int i = 0; i < len; ++i) x = T::applyMove(x, static_cast<int>(rng() % T::kMoves));
        const unsigned h = table.lookup(rankA(x), pz::rankPart<T>(em, x));
        if (h > static_cast<unsigned>(len)) ++over;
        if (packed.lookup(table.index(rankA(x), pz::rankPart<T>(em, x))) > h) ++over;
        for (int s = 1; s < nS; ++s) {
            const State y = T::conjugate(x, s);
            if (table.lookup(rankA(y), pz::rankPart<T>(em, y)) != h) ++asym;
        }
    }
    std::printf("random walks (20000, length 0..13): over-estimates %llu, conjugates disagreeing %llu\n",
                static_cast<unsigned long long>(over), static_cast<unsigned long long>(asym));
    std::printf("checksums: 4-bit %016llx, 2-bit %016llx (the same for any thread count)\n",
                static_cast<unsigned long long>(pz::checksumWords(table.words().data(), table.words().size())),
                static_cast<unsigned long long>(pz::checksumWords(packed.words(), packed.bytes() / 8)));
    std::printf("threads %d: bfs done %.1f s wall, total %.1f s wall, %.1f s CPU\n", threads, bfsWall, wall,
                cpuSeconds() - c0);
}
