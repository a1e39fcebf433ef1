// Symmetry-reduced distance tables (runtime/include/pz/tables/coset_prune.hpp) by
// brute force on a small puzzle: signed permutations of 5 points (A = the
// permutation, 120 values; B = the flips, 32 values), moves = every
// transposition of two positions, plain or flipping both (20 moves), reduced
// by the 24 relabellings of points 0..3 (they map moves to moves and fix the
// goal). Every raw coordinate's lookup equals its breadth-first distance (15 for
// the unreachable odd flip parity),
// 1 and 2 threads give the same table, and the 2-bit packing of it never
// overestimates.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <deque>
#include <vector>

#include "pz/tables/coset_prune.hpp"
#include "pz/tables/two_bit_table.hpp"

namespace {

constexpr int kN = 5;
struct St {
    std::array<int, kN> p;  // piece at position i
    unsigned f;             // flip bit per position
};
std::vector<std::array<int, kN>> perms() {
    std::vector<std::array<int, kN>> out;
    std::array<int, kN> p{0, 1, 2, 3, 4};
    do out.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
    return out;
}
const std::vector<std::array<int, kN>>& allPerms() {
    static const auto v = perms();
    return v;
}
uint64_t rankA(const St& s) {
    const auto& all = allPerms();
    return static_cast<uint64_t>(std::lower_bound(all.begin(), all.end(), s.p) - all.begin());
}
St unrank(uint64_t a, uint64_t b) { return St{allPerms()[a], static_cast<unsigned>(b)}; }

struct Move {
    int i, j;
    bool flip;
};
std::vector<Move> moves() {
    std::vector<Move> out;
    for (int i = 0; i < kN; ++i)
        for (int j = i + 1; j < kN; ++j) {
            out.push_back({i, j, false});
            out.push_back({i, j, true});
        }
    return out;
}
St apply(St s, const Move& m) {
    std::swap(s.p[m.i], s.p[m.j]);
    const unsigned fi = s.f >> m.i & 1, fj = s.f >> m.j & 1;
    s.f &= ~((1u << m.i) | (1u << m.j));
    s.f |= fi << m.j | fj << m.i;
    if (m.flip) s.f ^= (1u << m.i) | (1u << m.j);
    return s;
}
// Relabel positions and pieces by sigma (a permutation of 0..3, 4 fixed).
St relabel(const St& x, const std::array<int, kN>& sigma) {
    St y{};
    y.f = 0;
    for (int i = 0; i < kN; ++i) {
        y.p[sigma[i]] = sigma[x.p[i]];
        y.f |= (x.f >> i & 1) << sigma[i];
    }
    return y;
}

}  // namespace

TEST_CASE("symmetry-reduced coset table equals brute-force BFS distances", "[coset_prune]") {
    const auto& all = allPerms();
    const std::vector<Move> ms = moves();
    const int n = static_cast<int>(ms.size());
    std::vector<std::array<int, kN>> syms;
    for (const auto& p : all)
        if (p[4] == 4) syms.push_back(p);
    REQUIRE(syms.size() == 24);
    const int nS = 24;
    std::vector<int> symInverse;
    for (const auto& s : syms) {
        std::array<int, kN> inv{};
        for (int i = 0; i < kN; ++i) inv[s[i]] = i;
        symInverse.push_back(static_cast<int>(std::find(syms.begin(), syms.end(), inv) - syms.begin()));
    }
    const pz::SymClasses sc = pz::computeSymClasses(
        120, nS, symInverse, [&](uint64_t a) { return unrank(a, 0); }, rankA,
        [&](const St& x, int s) { return relabel(x, syms[s]); }, "test");
    REQUIRE(sc.classes() < 120);
    const auto conjB = pz::conjugationTable(
        32, nS, [&](uint64_t b) { return unrank(0, b); }, [](const St& x) { return uint64_t{x.f}; },
        [&](const St& x, int s) { return relabel(x, syms[s]); });
    std::vector<uint32_t> moveA(120 * n), moveB(32 * n);
    for (uint64_t a = 0; a < 120; ++a)
        for (int m = 0; m < n; ++m) moveA[a * n + m] = static_cast<uint32_t>(rankA(apply(unrank(a, 0), ms[m])));
    for (uint64_t b = 0; b < 32; ++b)
        for (int m = 0; m < n; ++m) moveB[b * n + m] = apply(unrank(0, b), ms[m]).f;
    pz::CosetTableSpec spec;
    spec.rawA = 120;
    spec.sizeB = 32;
    spec.moves = n;
    spec.nS = nS;
    spec.moveA = moveA.data();
    spec.moveB = moveB.data();
    spec.classes = &sc;
    spec.conjB = conjB.data();
    spec.goalA = 0;
    spec.goalB = 0;
    spec.movesClosedUnderInverse = true;
    const pz::CosetTable t1 = pz::CosetTable::build(spec, 1);
    const pz::CosetTable t2 = pz::CosetTable::build(spec, 2);
    CHECK(t1.words() == t2.words());
    CHECK(t1.entries() == sc.classes() * 32);

    // Brute force over all 3840 raw coordinates.
    std::vector<int> dist(120 * 32, -1);
    std::deque<uint64_t> q{0};
    dist[0] = 0;
    while (!q.empty()) {
        const uint64_t x = q.front();
        q.pop_front();
        const St s = unrank(x / 32, x % 32);
        for (const Move& m : ms) {
            const St y = apply(s, m);
            const uint64_t j = rankA(y) * 32 + y.f;
            if (dist[j] < 0) {
                dist[j] = dist[x] + 1;
                q.push_back(j);
            }
        }
    }
    std::array<uint64_t, 16> rawCounts{};
    uint64_t wrong = 0;
    for (uint64_t x = 0; x < 120 * 32; ++x) {
        // Odd flip parity is unreachable (moves flip 0 or 2): those entries stay 15.
        CHECK((dist[x] >= 0) == (std::popcount(static_cast<unsigned>(x % 32)) % 2 == 0));
        const int want = dist[x] < 0 ? 15 : std::min(dist[x], 15);
        if (dist[x] >= 0) ++rawCounts[want];
        if (t1.lookup(x / 32, x % 32) != static_cast<unsigned>(want)) ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(rawCounts[5] > 0);  // a spread of depths
    // The stored distribution: every depth present in the raw space is present among the entries.
    for (int d = 0; d < 15; ++d) CHECK((rawCounts[d] > 0) == (t1.counts()[d] > 0));
    // 2-bit packing with every base: lower bounds only.
    for (unsigned base = 0; base < 6; ++base) {
        const pz::TwoBitTable packed =
            pz::TwoBitTable::pack(t1.entries(), base, [&](uint64_t i) { return t1.entry(i); }, 2);
        uint64_t over = 0;
        for (uint64_t x = 0; x < 120 * 32; ++x)
            if (dist[x] >= 0 && packed.lookup(t1.index(x / 32, x % 32)) > static_cast<unsigned>(dist[x])) ++over;
        INFO("base " << base);
        CHECK(over == 0);
    }
}
