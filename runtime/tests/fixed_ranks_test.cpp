// Generated coset ranks (note [fixed ranks] in pz/search/phased.hpp) on the
// checked-in cube3 traits: Traits::cosetRank of the projected pattern h48h3
// (two reduced parts, two kept parts) equals the plan's ranks, rankPart over
// the spec's parts in the spec's order, on random states; a wrong part, a
// wrong order or a field folded wrongly would differ.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "cube3.hpp"

namespace {

using T = pzgen::cube3::Traits;

uint64_t planRank(const std::vector<pz::PhasePartSpec>& parts, const std::vector<int>& which, const T::State& s) {
    uint64_t x = 0;
    for (int j : which) x = x * parts[static_cast<size_t>(j)].size + pz::rankPart<T>(parts[static_cast<size_t>(j)], s);
    return x;
}

}  // namespace

TEST_CASE("generated coset ranks are the plan's (cube3 h48h3)", "[runtime][fixed-ranks]") {
    const auto patterns = T::cosetPatterns();
    REQUIRE(patterns.size() == 1);
    const auto& spec = patterns[0];
    REQUIRE(spec.fixedRanks == 0);
    REQUIRE(spec.phase.reduced.size() == 2);
    REQUIRE(spec.kept.size() == 2);
    std::vector<int> allKept(spec.kept.size());
    for (size_t j = 0; j < allKept.size(); ++j) allKept[j] = static_cast<int>(j);
    std::mt19937_64 rng(3);
    std::set<uint64_t> reducedSeen, keptSeen;
    for (int i = 0; i < 20000; ++i) {
        const T::State s = pz::randomState<T>(rng);
        const uint64_t reduced = T::cosetRank(0, pz::CosetRanks::Reduced, s);
        const uint64_t kept = T::cosetRank(0, pz::CosetRanks::Kept, s);
        REQUIRE(reduced == planRank(spec.phase.parts, spec.phase.reduced, s));
        REQUIRE(kept == planRank(spec.kept, allKept, s));
        reducedSeen.insert(reduced);
        keptSeen.insert(kept);
    }
    // Random states spread over the coordinates (the ranks are not constant).
    REQUIRE(reducedSeen.size() > 10000);
    REQUIRE(keptSeen.size() > 10000);
    REQUIRE(T::cosetRank(0, pz::CosetRanks::Kept, T::solved()) == planRank(spec.kept, allKept, T::solved()));
    REQUIRE_THROWS_AS(T::cosetRank(1, pz::CosetRanks::Reduced, T::solved()), std::logic_error);
}

// The kept parts at a conjugate (what every lookup reads): conjugating only
// the orbits they read must give the ranks of the whole conjugate, for every
// symmetry, mirrors included (a mirror's orientations are negated: dropping
// that or conjugating the wrong orbit changes the edge ranks).
TEST_CASE("generated kept ranks at conjugates are the plan's (cube3 h48h3)", "[runtime][fixed-ranks]") {
    const auto patterns = T::cosetPatterns();
    const auto& spec = patterns[0];
    std::vector<int> allKept(spec.kept.size());
    for (size_t j = 0; j < allKept.size(); ++j) allKept[j] = static_cast<int>(j);
    std::mt19937_64 rng(5);
    std::set<uint64_t> seen;
    for (int i = 0; i < 2000; ++i) {
        const T::State s = pz::randomState<T>(rng);
        for (int sym = 0; sym < T::kSymmetries; ++sym) {
            const uint64_t r = T::cosetKeptRankAt(0, s, sym);
            REQUIRE(r == planRank(spec.kept, allKept, sym == 0 ? s : T::conjugate(s, sym)));
            seen.insert(r);
        }
        // The edges (orbit 1) of the partial conjugate are the whole conjugate's.
        const T::State whole = T::conjugate(s, 7), part = T::conjugateOrbits<2u>(s, 7);
        REQUIRE(part.w[1] == whole.w[1]);
        REQUIRE(part.w[3] == whole.w[3]);
        REQUIRE(part.w[0] == s.w[0]);
    }
    REQUIRE(seen.size() > 10000);
    REQUIRE_THROWS_AS(T::cosetKeptRankAt(1, T::solved(), 0), std::logic_error);
}

namespace {

// Orientation parts the table path of rankFixedPart takes (note in
// pz/search/phased.hpp, OrientationDigitTable) where the machine has BMI2, and the
// digit loop elsewhere: positions out of order (the table maps pext's
// position order to the declared one), all positions with the last implied,
// moduli 2 and 3.
constexpr pz::PhasePartSpec orientationPart(int orbit, int modulus, std::initializer_list<int> positions, bool sum) {
    pz::PhasePartSpec c;
    c.kind = pz::PhasePartSpec::Orientation;
    c.orbit = orbit;
    c.modulus = modulus;
    c.sumConstrained = sum;
    int k = 0;
    for (int p : positions) c.positions[static_cast<size_t>(k++)] = static_cast<uint8_t>(p);
    c.count = k;
    uint64_t size = 1;
    const int digits = k > 0 ? k : T::kOrbitShapes[static_cast<size_t>(orbit)].size - (sum ? 1 : 0);
    for (int i = 0; i < digits; ++i) size *= static_cast<uint64_t>(modulus);
    c.size = size;
    return c;
}
constexpr pz::PhasePartSpec kEdgeFlipsShuffled = orientationPart(1, 2, {11, 3, 0, 7, 5}, false);
constexpr pz::PhasePartSpec kEdgeFlipsAll = orientationPart(1, 2, {}, true);
constexpr pz::PhasePartSpec kCornerTwistsShuffled = orientationPart(0, 3, {6, 1, 4}, false);
constexpr pz::PhasePartSpec kCornerTwistsAll = orientationPart(0, 3, {}, true);

template <pz::PhasePartSpec P>
void checkOrientationPart(std::mt19937_64& rng) {
#if defined(__BMI2__)
    STATIC_REQUIRE(pz::OrientationDigitTable<T, P>::usable());
#endif
    std::set<uint64_t> seen;
    for (int i = 0; i < 5000; ++i) {
        const T::State s = pz::randomState<T>(rng);
        const uint64_t r = pz::rankFixedPart<T, P>(s);
        REQUIRE(r == pz::rankPart<T>(P, s));
        REQUIRE(r < P.size);
        seen.insert(r);
    }
    REQUIRE(seen.size() > P.size / 2);  // the ranks spread over the part's values
}

}  // namespace

TEST_CASE("orientation parts ranked at once are rankPart's", "[runtime][fixed-ranks]") {
    std::mt19937_64 rng(11);
    checkOrientationPart<kEdgeFlipsShuffled>(rng);
    checkOrientationPart<kEdgeFlipsAll>(rng);
    checkOrientationPart<kCornerTwistsShuffled>(rng);
    checkOrientationPart<kCornerTwistsAll>(rng);
    // The table of a part out of position order is not the identity: flips
    // at {11, 3, 0, 7, 5} with only UR (position 0) flipped rank 0b00100.
    T::State s = T::solved();
    s.w[3] |= 1;  // edge orientation lane 0
    REQUIRE(pz::rankFixedPart<T, kEdgeFlipsShuffled>(s) == 4);
    REQUIRE(pz::rankPart<T>(kEdgeFlipsShuffled, s) == 4);
}
