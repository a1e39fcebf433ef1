// pz/search/phased.hpp — phased (multi-phase, Kociemba-style) search on coordinates.
//
// A phased solver reaches solved through a chain of subgroups
// G > H1 > ... > Hk > {solved}: phase 1 searches with all moves into H1,
// phase 2 with the moves in H1 into H2, ..., the last phase ends solved (see
// note [coset coordinates] in compiler/analysis/perm/coset_coordinates.hpp for
// what the parts mean and why they are coordinates). pzc emits each phase as
// a PhaseSpec: its moves (traits move indices), its canonical automaton, its
// coordinate parts and which pairs of parts get a pruning table.
//
// At start-up the search builds, per phase, a move table per part
// (value x move -> value: unrank the value into a state, apply the move's
// kernel, rank) and a 4-bit pruning table per pair of parts (breadth-first
// from the goal, depths >= 15 stored as 15, still a lower bound). Search is
// IDA* on the coordinates only; a state is rebuilt from the moves at each
// phase boundary. Phase 1's solutions are enumerated by increasing length;
// for each one the later phases run IDA* with the bound "shorter than the
// best total so far", until the best total is <= the target length (or the
// first solution when there is no target), or a time / node budget runs out
// after a solution was found. A phase-1 solution whose last move lies in the
// next phase's moves is skipped (one move shorter, the same state was
// already handed on), and a phase never starts with the family the previous
// phase ended with. Results are not optimal in general and are never
// labelled so.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "pz/lane_coord.hpp"
#include "pz/lanes.hpp"
#include "pz/state.hpp"
#include "pz/support/prefetch.hpp"
#include "pz/tables/sym_classes.hpp"
#include "pz/tables/table_blob.hpp"
#include "pz/tables/table_layout.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace pz {

// Positions of an orbit a phased plan can read (note [phased lanes]).
inline constexpr int kMaxPhasedLanes = 64;
// Coordinate parts of one phase (the compiler's kMaxPhaseParts).
inline constexpr int kMaxPhaseParts = 16;

struct PhasePartSpec {
    enum Kind : uint8_t { Membership, Orientation, Parity, SetPermutation };
    Kind kind = Membership;
    int orbit = 0;                       // index into T::kOrbitShapes
    std::array<uint8_t, kMaxPhasedLanes> setOf{};     // Membership: label -> set
    int sets = 0;                        // Membership
    std::array<uint8_t, 16> positions{}; // SetPermutation: the set's positions, ascending;
                                         // Orientation: the positions whose digits it keeps
    int count = 0;                       // SetPermutation: |set|; Orientation: kept positions (0 = all)
    int modulus = 1;                     // Orientation
    bool sumConstrained = false;         // Orientation: last position implied
    std::array<uint8_t, kMaxPhasedLanes> frame{};     // Orientation: digit = ((ori - frame[p] + frame[label]) mod modulus) / step
    int step = 1;
    bool framed = false;                 // Orientation: frame not all 0 (else the digits are the lanes)
    uint32_t parityOrbits = 0;           // Parity: bitmask over kOrbitShapes
    uint64_t size = 1;
    uint64_t goal = 0;                   // the rank of the solved state
};

struct PhaseSpec {
    const char* target = "";
    std::vector<int> moves;       // traits move indices
    std::vector<int> canonNext;   // [state * moves.size() + i] -> state, -1 = not allowed
    int canonStart = 0;
    std::vector<PhasePartSpec> parts;
    std::vector<std::pair<int, int>> tables;  // pruning tables over (part, part); second -1 = one part
    // The symmetry-reduced pruning table (note [symmetry classes]); no
    // symmetries = none. symmetries[0] is the identity (traits symmetry 0).
    std::vector<int> symmetries;   // traits symmetry indices
    std::vector<int> symInverse;   // index (into symmetries) of each one's inverse
    std::vector<int> reduced;      // the parts reduced to classes (mixed radix, first most significant)
    std::vector<int> rest;         // the parts conjugated value by value
};

// The numbers phase `spec`'s sections are sized by (pz/tables/table_layout.hpp).
inline PhasedLayoutPhase layoutOf(const PhaseSpec& spec, uint64_t classes) {
    PhasedLayoutPhase l;
    l.moves = spec.moves.size();
    for (const auto& part : spec.parts) l.partSizes.push_back(part.size);
    l.tables = spec.tables;
    l.symmetries = spec.symmetries.size();
    l.reduced = spec.reduced;
    l.rest = spec.rest;
    l.classes = classes;
    return l;
}

// A direction to search from (note [phased directions]): the state
// conjugated by symmetry `symmetry` (S^-1 s S, traits symmetry index; 0 =
// identity), of its inverse when `inverse`. A solution w found there is
// turned into one of s by mapping each move m to moveMap[m] (S m S^-1) and,
// for the inverse, reversing and inverting the moves.
struct PhaseDirection {
    int symmetry = 0;
    bool inverse = false;
    std::vector<int> moveMap;  // empty = identity
};

struct PhasedLimits {
    int maxLength = -1;          // stop once the best total is <= this; -1: at the first solution
    double budgetMs = 0;         // stop after this long once a solution exists; 0 = none
    uint64_t nodeBudget = 0;     // the same in nodes; 0 = none
};

struct PhasedResult {
    bool found = false;
    std::vector<int> moves;         // traits move indices
    std::vector<int> phaseLengths;  // per phase
    uint64_t nodes = 0;
    double seconds = 0;
};

namespace phased_detail {

// C(n, k) for n, k <= 64 from a table: ranks run in the optimal search's
// inner loop for coset patterns (pz/coset_pattern.hpp), where a division per
// term cost more than the rest of a node.
struct BinomTable {
    uint64_t c[65][65] = {};
    constexpr BinomTable() {
        for (int n = 0; n <= 64; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0);
        }
    }
};
inline constexpr BinomTable kBinom{};
inline uint64_t binom(unsigned n, unsigned k) { return k > n ? 0 : kBinom.c[n][k]; }


// The bits of x at the positions set in mask, packed to the bottom.
inline uint64_t compressBits(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
    return _pext_u64(x, mask);
#else
    uint64_t r = 0;
    for (int b = 0; mask; mask &= mask - 1, ++b) r |= (x >> std::countr_zero(mask) & 1) << b;
    return r;
#endif
}

// Lane p of the labels / orientations of orbit shape `shape` (4-, 8- or
// 16-bit lanes, pz/lanes.hpp): the parts below read and write states
// through these, so one plan runs on every lane width (note [phased lanes]).
template <class S, class Shape>
inline unsigned labelAt(const S& s, const Shape& shape, int p) {
    return fieldLane(&s.w[shape.permWord], shape.laneBits, p);
}
template <class S, class Shape>
inline void setLabelAt(S& s, const Shape& shape, int p, unsigned v) {
    setFieldLane(&s.w[shape.permWord], shape.laneBits, p, v);
}
template <class S, class Shape>
inline unsigned oriAt(const S& s, const Shape& shape, int p) {
    return fieldLane(&s.w[shape.oriWord], shape.laneBits, p);
}
template <class S, class Shape>
inline void setOriAt(S& s, const Shape& shape, int p, unsigned v) {
    setFieldLane(&s.w[shape.oriWord], shape.laneBits, p, v);
}

template <class S, class Shape>
inline int laneParity(const S& s, const Shape& shape) {
    const int n = shape.size;
    uint64_t seen = 0;
    int parity = 0;
    for (int i = 0; i < n; ++i) {
        if (seen >> i & 1) continue;
        int len = 0;
        for (int j = i; !(seen >> j & 1); j = static_cast<int>(labelAt(s, shape, j))) {
            seen |= uint64_t{1} << j;
            ++len;
        }
        parity ^= (len + 1) & 1;
    }
    return parity;
}

}  // namespace phased_detail

// note [phased lanes]
// Parts read and write the state one lane at a time (labelAt / oriAt), so
// orbits in byte lanes (17..64 positions, pz/lanes.hpp) take the same plans
// as 4-bit ones: ranks only run when move tables are built and at phase
// boundaries, never in the coordinate search. Positions and sets are
// bounded by 64 (the masks below and PhasePartSpec's arrays); pzc check
// refuses a phased solver on a larger orbit.

// An orientation part whose digits are the orientation lanes (not framed,
// step 1): their mixed-radix value, first position most significant. Always
// inlined, so a part known at compile time (note [fixed ranks]) unrolls.
template <class T>
[[gnu::always_inline]] inline uint64_t rankOrientationLanes(const PhasePartSpec& part, const typename T::State& s) {
    const auto& shape = T::kOrbitShapes[static_cast<size_t>(part.orbit)];
    const int digits = part.count > 0 ? part.count : shape.size - (part.sumConstrained ? 1 : 0);
    uint64_t r = 0;
    for (int i = 0; i < digits; ++i)
        r = r * static_cast<uint64_t>(part.modulus) +
            phased_detail::oriAt(s, shape, part.count > 0 ? part.positions[static_cast<size_t>(i)] : i);
    return r;
}

// Rank and unrank of one part on a traits state (the same encoding as
// referencePartRank / referencePartUnrank in the compiler).
template <class T>
uint64_t rankPart(const PhasePartSpec& part, const typename T::State& s) {
    using namespace phased_detail;
    switch (part.kind) {
        case PhasePartSpec::Membership: {
            // Set i's positions as a mask; its rank is the colex rank of that
            // mask among the positions no earlier set took.
            const auto& shape = T::kOrbitShapes[part.orbit];
            const int n = shape.size;
            uint64_t maskOf[kMaxPhasedLanes];
#if defined(__SSSE3__)
            if (shape.laneBits == 4 && n <= 16) {
                // Every lane's set at once: labels spread to bytes, mapped
                // through setOf by one shuffle, compared per set (a loop of
                // read-modify-writes on maskOf[set] is a chain through memory).
                const __m128i sets = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(part.setOf.data())),
                                                      unpackLanesSse(s.w[shape.permWord]));
                const uint64_t lanes = (uint64_t{1} << n) - 1;
                for (int i = 0; i < part.sets; ++i)
                    maskOf[i] = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(sets, _mm_set1_epi8(static_cast<char>(i))))) & lanes;
            } else
#endif
            {
                std::fill_n(maskOf, part.sets, uint64_t{0});
                for (int p = 0; p < n; ++p) maskOf[part.setOf[labelAt(s, shape, p)]] |= uint64_t{1} << p;
            }
            uint64_t free = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
            uint64_t r = 0;
            unsigned remaining = static_cast<unsigned>(n);
            for (int i = 0; i + 1 < part.sets; ++i) {
                uint64_t m = compressBits(maskOf[i], free);
                const unsigned k = static_cast<unsigned>(std::popcount(m));
                r = r * kBinom.c[remaining][k] + colexRank(m);
                remaining -= k;
                free &= ~maskOf[i];
            }
            return r;
        }
        case PhasePartSpec::Orientation: {
            // The digits are the orientation lanes (a coset pattern's lookup
            // ranks these at every node).
            if (!part.framed && part.step == 1) return rankOrientationLanes<T>(part, s);
            const auto& shape = T::kOrbitShapes[part.orbit];
            const int digits = part.count > 0 ? part.count : shape.size - (part.sumConstrained ? 1 : 0);
            const int m = part.modulus;
            uint64_t r = 0;
            const uint64_t radix = static_cast<uint64_t>(m / part.step);
            for (int i = 0; i < digits; ++i) {
                const int p = part.count > 0 ? part.positions[i] : i;
                // ori, frame < m: the sum is below 3m, no division needed.
                int x = static_cast<int>(oriAt(s, shape, p)) + m - part.frame[p] + part.frame[labelAt(s, shape, p)];
                if (x >= m) x -= m;
                if (x >= m) x -= m;
                r = r * radix + static_cast<uint64_t>(part.step == 1 ? x : x / part.step);
            }
            return r;
        }
        case PhasePartSpec::Parity: {
            int parity = 0;
            for (int o = 0; o < static_cast<int>(T::kOrbitShapes.size()); ++o)
                if (part.parityOrbits >> o & 1) parity ^= laneParity(s, T::kOrbitShapes[o]);
            return static_cast<uint64_t>(parity);
        }
        case PhasePartSpec::SetPermutation: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            uint8_t index[kMaxPhasedLanes] = {};
            for (int i = 0; i < part.count; ++i) index[part.positions[i]] = static_cast<uint8_t>(i);
            uint64_t r = 0;
            uint32_t seen = 0;
            for (int i = 0; i < part.count; ++i) {
                const unsigned x = index[labelAt(s, shape, part.positions[i])];
                const unsigned smaller = static_cast<unsigned>(std::popcount(seen & ((1u << x) - 1)));
                seen |= 1u << x;
                r = r * static_cast<uint64_t>(part.count - i) + (x - smaller);
            }
            return r;
        }
    }
    return 0;
}

// note [fixed ranks]
// ~~~~~~~~~~~~~~~~~~
// rankPart reads its part from a spec at run time: a switch, loops over
// the spec's bounds and a call per part. A coset pattern's lookup ranks its
// parts at every node (a third of a cube3 node), so the generator also
// emits each coset pattern's parts as constants (Traits::cosetRank) and
// this template ranks them: rankPart inlined with every field of the part
// known to the compiler, so the switch, the bounds and the shapes fold
// away. The encoding is rankPart's own, by construction.
// Which parts of a coset pattern Traits::cosetRank ranks: its reduced parts
// (their mixed-radix value) or a projected pattern's kept ones.
enum class CosetRanks { Reduced, Kept };
// The generated rank switches' fallthrough (a pattern without generated
// ranks: a caller's bug). Out of line and cold, so that the switches stay
// small enough to inline into the search (a throw expression in them kept
// cosetKeptRankAt a call; inlined, cube3 h48h3 took 0.95-1.00x the time:
// pairs of one-thread runs, at this machine's noise).
[[noreturn, gnu::cold, gnu::noinline]] inline void noGeneratedRanks(const char* function, int pattern) {
    throw std::logic_error(std::string(function) + ": no generated ranks for coset pattern " + std::to_string(pattern));
}
// A membership part on one word of 4-bit lanes, its sets' sizes known:
// every set's mask comes from one shuffle and compare, and the mixed radix
// is unrolled with constant binomials (rankPart's loop kept its masks in
// memory and multiplied by table reads). Same encoding as rankPart.
template <class T, PhasePartSpec P>
constexpr bool fixedMembership() {
    if constexpr (P.kind != PhasePartSpec::Membership) return false;
    const auto& shape = T::kOrbitShapes[static_cast<size_t>(P.orbit)];
    return shape.laneBits == 4 && shape.size <= 16 && P.sets >= 1;
}
template <class T, PhasePartSpec P>
constexpr int membershipSetSize(int set) {
    int k = 0;
    for (int q = 0; q < T::kOrbitShapes[static_cast<size_t>(P.orbit)].size; ++q) k += P.setOf[static_cast<size_t>(q)] == set;
    return k;
}
#if defined(__SSSE3__)
// The set of each position's piece, one byte a position.
template <class T, PhasePartSpec P>
[[gnu::always_inline]] inline __m128i membershipSets(__m128i labels) {
    static constexpr PhasePartSpec kPart = P;
    return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kPart.setOf.data())), labels);
}
template <class T, PhasePartSpec P, int... I>
[[gnu::always_inline]] inline uint64_t rankFixedMembership(__m128i sets, std::integer_sequence<int, I...>) {
    constexpr auto shape = T::kOrbitShapes[static_cast<size_t>(P.orbit)];
    constexpr uint64_t lanes = (uint64_t{1} << shape.size) - 1;
    uint64_t free = lanes, r = 0;
    int remaining = shape.size;
    (
        [&] {
            constexpr int k = membershipSetSize<T, P>(I);
            const uint64_t mask = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(sets, _mm_set1_epi8(static_cast<char>(I))))) & lanes;
            r = r * phased_detail::kBinom.c[remaining][k] + kColexRank16[phased_detail::compressBits(mask, free)];
            remaining -= k;
            free &= ~mask;
        }(),
        ...);
    return r;
}
#endif
// An orientation part of 4-bit lanes whose digits fit 14 bits (the cube's
// corner twists: 7 digits of 2 bits; its edges' flips at a few positions):
// one pext gathers the digits' low bits in position order, and a table
// (at most 16 Ki entries, built at compile time) maps them to the part's
// mixed radix in its declared order, instead of a digit-by-digit chain.
template <class T, PhasePartSpec P>
struct OrientationDigitTable {
    static constexpr auto kShape = T::kOrbitShapes[static_cast<size_t>(P.orbit)];
    static constexpr int kDigits = P.count > 0 ? P.count : kShape.size - (P.sumConstrained ? 1 : 0);
    static constexpr int kBits = P.modulus <= 2 ? 1 : P.modulus <= 4 ? 2 : P.modulus <= 8 ? 3 : 4;
    static constexpr bool usable() {
        if (P.kind != PhasePartSpec::Orientation || P.framed || P.step != 1 || kShape.laneBits != 4) return false;
        if (kShape.oriWord < 0 || kDigits < 1 || kDigits * kBits > 14 || P.modulus < 2) return false;
        uint64_t values = 1;
        for (int i = 0; i < kDigits; ++i) values *= static_cast<uint64_t>(P.modulus);
        return values <= 0xFFFF;
    }
    static constexpr int position(int i) { return P.count > 0 ? P.positions[static_cast<size_t>(i)] : i; }
    static constexpr uint64_t mask() {
        uint64_t m = 0;
        for (int i = 0; i < kDigits; ++i) m |= ((uint64_t{1} << kBits) - 1) << (4 * position(i));
        return m;
    }
    static constexpr unsigned kEntries = usable() ? 1u << (kDigits * kBits) : 1u;
    static constexpr std::array<uint16_t, kEntries> build() {
        std::array<uint16_t, kEntries> t{};
        if constexpr (usable()) {
            // pext keeps lane order: digit j of an index is the j-th lowest position.
            int rankOfSlot[64] = {};
            for (int i = 0; i < kDigits; ++i) {
                int slot = 0;
                for (int j = 0; j < kDigits; ++j) slot += position(j) < position(i);
                rankOfSlot[i] = slot;
            }
            for (uint32_t v = 0; v < t.size(); ++v) {
                uint32_t r = 0;
                for (int i = 0; i < kDigits; ++i)
                    r = r * static_cast<uint32_t>(P.modulus) + (v >> (kBits * rankOfSlot[i]) & ((1u << kBits) - 1));
                t[v] = static_cast<uint16_t>(r);
            }
        }
        return t;
    }
    static constexpr auto kTable = build();
};
template <class T, PhasePartSpec P>
[[gnu::always_inline]] inline uint64_t rankFixedPart(const typename T::State& s) {
#if defined(__SSSE3__)
    if constexpr (fixedMembership<T, P>())
        return rankFixedMembership<T, P>(membershipSets<T, P>(unpackLanesSse(s.w[T::kOrbitShapes[static_cast<size_t>(P.orbit)].permWord])),
                                         std::make_integer_sequence<int, P.sets - 1>{});
#endif
#if defined(__BMI2__)
    using Digits = OrientationDigitTable<T, P>;
    if constexpr (Digits::usable())
        return Digits::kTable[_pext_u64(s.w[static_cast<size_t>(Digits::kShape.oriWord)], Digits::mask())];
#endif
    // Called directly (a call to rankPart's constant-propagated clone would
    // not be inlined).
    if constexpr (P.kind == PhasePartSpec::Orientation && !P.framed && P.step == 1) return rankOrientationLanes<T>(P, s);
    return rankPart<T>(P, s);
}
template <class T, PhasePartSpec... Parts>
[[gnu::flatten]] inline uint64_t rankFixedParts(const typename T::State& s) {
    uint64_t x = 0;
    ((x = x * Parts.size + rankFixedPart<T, Parts>(s)), ...);
    return x;
}

// note [conjugated kept ranks]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A projected coset lookup ranks the kept parts of S^-1 s S, S the class
// symmetry of the state's reduced parts (a different one almost every
// node). Conjugating the orbit in 4-bit lanes and ranking the result
// spreads and packs the lanes four times (a fourth of a cube search's
// time). When every kept part is on one orbit of at most 16 lanes of 4 bits
// and ranks from bytes (membership, or orientation digits through their
// table), the orbit is spread to bytes once, and the conjugate's fields are
// two byte shuffles each: with a = S^-1's and b = S's words,
//   set at p  = (setOf o a)[s[b[p]]]        (setOf o a: one shuffle of constants)
//   twist at p = +-(a_o[s[b[p]]] + s_o[b[p]]) + b_o[p]   (mod the orbit's modulus; - for a mirror)
// the same values as conjugateOrbits followed by rankFixedParts, by
// construction (checked against it in projected_coset.hpp's self-check).
template <class T, PhasePartSpec... Parts>
constexpr bool conjugatedByteRanks() {
#if defined(__SSSE3__) && defined(__BMI2__)
    constexpr PhasePartSpec parts[] = {Parts...};
    const int orbit = parts[0].orbit;
    const auto& shape = T::kOrbitShapes[static_cast<size_t>(orbit)];
    if (shape.laneBits != 4 || shape.size > 16) return false;
    bool ok = true;
    ((ok = ok && Parts.orbit == orbit &&
           (fixedMembership<T, Parts>() || (OrientationDigitTable<T, Parts>::usable() && Parts.modulus == shape.orient))),
     ...);
    return ok;
#else
    return false;
#endif
}
#if defined(__SSSE3__) && defined(__BMI2__)
// x + y mod m for bytes below m.
template <int M>
[[gnu::always_inline]] inline __m128i addModBytes(__m128i x, __m128i y) {
    if constexpr (M == 2) return _mm_xor_si128(x, y);
    const __m128i t = _mm_add_epi8(x, y);
    return _mm_min_epu8(t, _mm_sub_epi8(t, _mm_set1_epi8(static_cast<char>(M))));
}
template <int M>
[[gnu::always_inline]] inline __m128i negModBytes(__m128i x) {
    if constexpr (M == 2) return x;
    const __m128i t = _mm_sub_epi8(_mm_set1_epi8(static_cast<char>(M)), x);
    return _mm_min_epu8(t, _mm_sub_epi8(t, _mm_set1_epi8(static_cast<char>(M))));
}
template <class T, PhasePartSpec P>
[[gnu::always_inline]] inline uint64_t rankConjugatedPart(__m128i labels, __m128i twists, __m128i aLabels,
                                                          __m128i positions) {
    if constexpr (fixedMembership<T, P>()) {
        const __m128i sets = _mm_shuffle_epi8(_mm_shuffle_epi8(membershipSets<T, P>(aLabels), labels), positions);
        return rankFixedMembership<T, P>(sets, std::make_integer_sequence<int, P.sets - 1>{});
    } else {
        using Digits = OrientationDigitTable<T, P>;
        return Digits::kTable[_pext_u64(packLanesSse(twists), Digits::mask())];
    }
}
#endif
// The words of one orbit of a symmetry S and of S^-1 a byte a lane: read by
// every conjugated kept rank, so spread once at compile time instead of on
// every lookup, and the four side by side in one cache line.
struct SymmetryOrbitLanes {
    alignas(64) Lanes16 inversePerm{};
    Lanes16 inverseOri{};
    Lanes16 perm{};
    Lanes16 ori{};
};
static_assert(sizeof(SymmetryOrbitLanes) == 64, "one cache line a symmetry");
// permWord, oriWord: the orbit's words (oriWord < 0: none, zeros).
template <int W, size_t N>
constexpr std::array<SymmetryOrbitLanes, N> symmetryOrbitLanes(const State<W> (&inverses)[N], const State<W> (&symmetries)[N],
                                                               int permWord, int oriWord) {
    std::array<SymmetryOrbitLanes, N> r{};
    for (size_t i = 0; i < N; ++i) {
        r[i].inversePerm = unpackLanes(inverses[i].w[static_cast<size_t>(permWord)]);
        r[i].perm = unpackLanes(symmetries[i].w[static_cast<size_t>(permWord)]);
        if (oriWord >= 0) {
            r[i].inverseOri = unpackLanes(inverses[i].w[static_cast<size_t>(oriWord)]);
            r[i].ori = unpackLanes(symmetries[i].w[static_cast<size_t>(oriWord)]);
        }
    }
    return r;
}
// The kept parts' rank of S^-1 s S (k: the orbit's words of S^-1 and S
// spread to bytes; mirror: whether S is a mirror), for parts with
// conjugatedByteRanks.
template <class T, PhasePartSpec... Parts>
[[gnu::flatten]] inline uint64_t rankFixedPartsConjugated(const typename T::State& s, const SymmetryOrbitLanes& k, bool mirror) {
#if defined(__SSSE3__) && defined(__BMI2__)
    constexpr PhasePartSpec first[] = {Parts...};
    constexpr auto shape = T::kOrbitShapes[static_cast<size_t>(first[0].orbit)];
    const auto bytes = [](const Lanes16& l) { return _mm_load_si128(reinterpret_cast<const __m128i*>(l.b)); };
    const __m128i labels = unpackLanesSse(s.w[shape.permWord]);
    const __m128i positions = bytes(k.perm);
    const __m128i aLabels = bytes(k.inversePerm);
    __m128i twists = _mm_setzero_si128();
    if constexpr (shape.oriWord >= 0) {
        constexpr int M = shape.orient;
        const __m128i o = addModBytes<M>(_mm_shuffle_epi8(bytes(k.inverseOri), labels), unpackLanesSse(s.w[shape.oriWord]));
        const __m128i g = _mm_shuffle_epi8(o, positions);
        twists = addModBytes<M>(mirror ? negModBytes<M>(g) : g, bytes(k.ori));
    }
    uint64_t x = 0;
    ((x = x * Parts.size + rankConjugatedPart<T, Parts>(labels, twists, aLabels, positions)), ...);
    return x;
#else
    static_assert(sizeof...(Parts) == 0, "rankFixedPartsConjugated without SSSE3 and BMI2: see conjugatedByteRanks");
    return 0;
#endif
}
// Traits::cosetKeptRankAt: the kept parts' rank of the conjugate of s by
// symmetry sym (k, mirror: its orbit's spread words and kind, as above);
// Orbits: the orbits the parts read (conjugated alone on the general path).
template <class T, unsigned Orbits, PhasePartSpec... Parts>
[[gnu::always_inline]] inline uint64_t rankFixedPartsAt(const typename T::State& s, int sym, const SymmetryOrbitLanes& k,
                                                        bool mirror) {
    if constexpr (conjugatedByteRanks<T, Parts...>())
        return rankFixedPartsConjugated<T, Parts...>(s, k, mirror);
    else
        return rankFixedParts<T, Parts...>(sym == 0 ? s : T::template conjugateOrbits<Orbits>(s, sym));
}

template <class T>
typename T::State unrankPart(const PhasePartSpec& part, uint64_t rank) {
    using namespace phased_detail;
    typename T::State s = T::solved();
    switch (part.kind) {
        case PhasePartSpec::Membership: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            const int n = shape.size;
            constexpr int L = kMaxPhasedLanes;
            int members[L][L], memberCount[L] = {};
            for (int q = 0; q < n; ++q) members[part.setOf[q]][memberCount[part.setOf[q]]++] = q;
            int remainingAt[L];
            int remaining = n;
            for (int i = 0; i < part.sets; ++i) {
                remainingAt[i] = remaining;
                remaining -= memberCount[i];
            }
            uint64_t digit[L] = {};
            for (int i = part.sets - 2; i >= 0; --i) {
                const uint64_t radix = binom(static_cast<unsigned>(remainingAt[i]), static_cast<unsigned>(memberCount[i]));
                digit[i] = rank % radix;
                rank /= radix;
            }
            int setAt[L];
            for (int p = 0; p < n; ++p) setAt[p] = -1;
            for (int i = 0; i + 1 < part.sets; ++i) {
                int freePositions[L], nf = 0;
                for (int p = 0; p < n; ++p)
                    if (setAt[p] < 0) freePositions[nf++] = p;
                uint64_t r = digit[i];
                for (int t = memberCount[i]; t >= 1; --t) {
                    int j = t - 1;
                    while (binom(static_cast<unsigned>(j + 1), static_cast<unsigned>(t)) <= r) ++j;
                    r -= binom(static_cast<unsigned>(j), static_cast<unsigned>(t));
                    setAt[freePositions[j]] = i;
                }
            }
            int next[L] = {};
            for (int p = 0; p < n; ++p) {
                const int set = setAt[p] < 0 ? part.sets - 1 : setAt[p];
                setLabelAt(s, shape, p, static_cast<unsigned>(members[set][next[set]++]));
            }
            return s;
        }
        case PhasePartSpec::Orientation: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            const int n = shape.size;
            const int digits = part.count > 0 ? part.count : n - (part.sumConstrained ? 1 : 0);
            int sum = 0;
            const uint64_t radix = static_cast<uint64_t>(part.modulus / part.step);
            for (int i = digits - 1; i >= 0; --i) {
                const int p = part.count > 0 ? part.positions[i] : i;
                const int d = static_cast<int>(rank % radix) * part.step;
                rank /= radix;
                sum += d;
                setOriAt(s, shape, p, static_cast<unsigned>(d));
            }
            if (part.sumConstrained)
                setOriAt(s, shape, n - 1, static_cast<unsigned>((part.modulus - sum % part.modulus) % part.modulus));
            return s;
        }
        case PhasePartSpec::Parity: {
            if (rank & 1)
                for (int o = 0; o < static_cast<int>(T::kOrbitShapes.size()); ++o)
                    if ((part.parityOrbits >> o & 1) && T::kOrbitShapes[o].size >= 2) {
                        const auto& shape = T::kOrbitShapes[o];
                        const unsigned a = labelAt(s, shape, 0), b = labelAt(s, shape, 1);
                        setLabelAt(s, shape, 0, b);
                        setLabelAt(s, shape, 1, a);
                        break;
                    }
            return s;
        }
        case PhasePartSpec::SetPermutation: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            const int k = part.count;
            int digit[16];
            for (int i = k - 1; i >= 0; --i) {
                digit[i] = static_cast<int>(rank % static_cast<uint64_t>(k - i));
                rank /= static_cast<uint64_t>(k - i);
            }
            uint32_t used = 0;
            for (int i = 0; i < k; ++i) {
                int d = digit[i], x = 0;
                for (;; ++x)
                    if (!(used >> x & 1) && d-- == 0) break;
                used |= 1u << x;
                setLabelAt(s, shape, part.positions[i], part.positions[x]);
            }
            return s;
        }
    }
    return s;
}

// A state whose parts `which` have the values `values[i]` (the other parts
// are whatever the construction leaves): the permutation parts first
// (membership: the whole orbit; set permutation: its positions), then
// parities (by swapping two pieces of one membership set), then
// orientations, written in their frames for the permutation just built.
// The symmetry-class tables take their representatives' states from here;
// the values read back are checked where it matters (PhasedSearch::buildSym).
template <class T>
typename T::State unrankParts(const std::vector<PhasePartSpec>& parts, const std::vector<int>& which,
                              const uint64_t* values) {
    using namespace phased_detail;
    typename T::State s = T::solved();
    for (size_t i = 0; i < which.size(); ++i) {
        const PhasePartSpec& part = parts[which[i]];
        const auto& shape = T::kOrbitShapes[part.orbit];
        if (part.kind == PhasePartSpec::Membership) {
            const typename T::State t = unrankPart<T>(part, values[i]);
            for (int p = 0; p < shape.size; ++p) setLabelAt(s, shape, p, labelAt(t, shape, p));
        } else if (part.kind == PhasePartSpec::SetPermutation) {
            const typename T::State t = unrankPart<T>(part, values[i]);
            for (int k = 0; k < part.count; ++k)
                setLabelAt(s, shape, part.positions[k], labelAt(t, shape, part.positions[k]));
        }
    }
    for (size_t i = 0; i < which.size(); ++i) {
        const PhasePartSpec& part = parts[which[i]];
        if (part.kind != PhasePartSpec::Parity || rankPart<T>(part, s) == values[i]) continue;
        bool fixed = false;
        for (int o = 0; o < static_cast<int>(T::kOrbitShapes.size()) && !fixed; ++o) {
            if (!(part.parityOrbits >> o & 1)) continue;
            const PhasePartSpec* sets = nullptr;
            bool permuted = false;
            for (int j : which) {
                if (parts[j].orbit != o) continue;
                if (parts[j].kind == PhasePartSpec::Membership) sets = &parts[j];
                if (parts[j].kind == PhasePartSpec::SetPermutation) permuted = true;
            }
            if (permuted) continue;
            const auto& shape = T::kOrbitShapes[o];
            const int n = shape.size;
            for (int p = 0; p < n && !fixed; ++p)
                for (int q = p + 1; q < n && !fixed; ++q) {
                    const unsigned a = labelAt(s, shape, p), b = labelAt(s, shape, q);
                    if (sets && sets->setOf[a] != sets->setOf[b]) continue;
                    setLabelAt(s, shape, p, b);
                    setLabelAt(s, shape, q, a);
                    fixed = true;
                }
        }
    }
    for (size_t i = 0; i < which.size(); ++i) {
        const PhasePartSpec& part = parts[which[i]];
        if (part.kind != PhasePartSpec::Orientation) continue;
        const auto& shape = T::kOrbitShapes[part.orbit];
        const int n = shape.size, m = part.modulus;
        const int digits = part.count > 0 ? part.count : n - (part.sumConstrained ? 1 : 0);
        const uint64_t radix = static_cast<uint64_t>(m / part.step);
        uint64_t rank = values[i];
        int sum = 0;
        for (int d = digits - 1; d >= 0; --d) {
            const int p = part.count > 0 ? part.positions[d] : d;
            const int x = static_cast<int>(rank % radix) * part.step;
            rank /= radix;
            const int raw = ((x + part.frame[p] - part.frame[labelAt(s, shape, p)]) % m + m) % m;
            sum += raw;
            setOriAt(s, shape, p, static_cast<unsigned>(raw));
        }
        if (part.sumConstrained) setOriAt(s, shape, n - 1, static_cast<unsigned>((m - sum % m) % m));
    }
    return s;
}

// A 4-bit table over the values of one part or a pair of parts (built in memory).
struct NibbleTable {
    std::vector<uint8_t> bytes;
    uint64_t entries = 0;
    uint8_t get(uint64_t i) const { return bytes[i >> 1] >> ((i & 1) * 4) & 15; }
    void set(uint64_t i, uint8_t v) {
        uint8_t& b = bytes[i >> 1];
        b = static_cast<uint8_t>((b & ~(15 << ((i & 1) * 4))) | v << ((i & 1) * 4));
    }
};

// note [symmetry classes]
// A phase whose spec lists symmetries (S: conjugations x -> S^-1 x S that
// keep the phase's target subgroup and map the phase's moves to its moves,
// chosen and checked by the compiler, note [phase symmetries] in
// compiler/analysis/perm/coset_coordinates.hpp) gets one pruning table over the
// parts `reduced` (A) and `rest` (B) together, stored by symmetry class:
//   * A's raw values (mixed radix) are split into classes under conjugation;
//     classOf[a] = (class << 6) | k with conj_k(a) = the class's
//     representative (the smallest raw value of the class), stab[class] the
//     mask of the symmetries that fix the representative;
//   * B's parts are conjugated value by value: conjB[j][v * |S| + k];
//   * entry (class, b) holds the distance of the coordinate (rep, b).
// x and conj_k(x) are equally far from the target (S maps the target to
// itself and moves to moves), so a coordinate (a, b) is looked up as
// (class, conjB(b, k)). A self-symmetric representative (stab has more than
// the identity) stands for the coordinates (rep, b) and (rep, conjB(b, t))
// with t in stab: the breadth-first search writes all of them at once, so
// the lookup may take any k with conj_k(a) = rep. Before the table is
// built, the lookup is checked on random states: the entry of x and of each
// conj_k(x) must be the same (a symmetry the coordinates do not follow would
// fail here rather than give a wrong table).

template <class T>
class PhasedSearch {
public:
    using State = typename T::State;
    static constexpr int kMaxDepth = 64;
    static constexpr int kMaxSymmetries = 64;

    // moveFamily: the family of each traits move (a phase never starts with
    // the family the previous one ended with).
    PhasedSearch(std::vector<PhaseSpec> phases, std::vector<int> moveFamily)
        : spec_(std::move(phases)), family_(std::move(moveFamily)) {
        phases_.resize(spec_.size());
    }

    // Loads the tables from the cache file `path` (keyed by `hash`), or builds
    // them with `threads` threads and saves them there; "" = build, no cache.
    void loadOrBuild(const std::string& path, const std::string& hash, int threads) {
        const auto t0 = std::chrono::steady_clock::now();
        loaded_ = loadOrBuildBlob(
            path, hash, "phased tables", mapping_,
            [&](const uint64_t* words, uint64_t count, std::string& why) { return attach(words, count, why); },
            [&] {
                build(threads);
                return std::make_pair(static_cast<const uint64_t*>(blob_.data), tableWords_ * 8);
            });
        buildSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    // note [table residency] in pz/tables/prune.hpp: a process that solves several
    // positions copies mapped tables into 2 MiB pages (fewer TLB misses),
    // checking every block's hash on the way.
    ResidentSource residentSource() const { return residentSourceOf(mapping_, tableWords_ * 8); }
    bool adoptResident(HugeBuffer&& b, std::string& why) {
        if (!b.data) return true;
        if (!attach(b.data, tableWords_, why)) return false;
        resident_ = std::move(b);
        mapping_ = MappedFile();
        return true;
    }
    bool makeResident(std::string& why) { return makeResidentNow(*this, why); }

    double buildSeconds() const { return buildSeconds_; }
    bool loadedFromCache() const { return loaded_; }
    // What the build's progress lines call the table (default: "symmetry-
    // reduced phase K table of PUZZLE").
    void setTableLabel(std::string label) { tableLabel_ = std::move(label); }

    // note [entries from elsewhere]
    // A symmetry-reduced table's entries can come from another build (the
    // distributed one of pz/enumerate/coset_classes.hpp): set a source, and
    // build() takes phase k's entry words from it in place of its own
    // breadth-first search; everything else in the blob (move tables,
    // classes, conjugations, depth counts) is built as always, so the file
    // is byte for byte the one the search would write when the entries are.
    using EntrySource = std::function<void(size_t k, std::vector<uint64_t>& words)>;
    void setEntrySource(EntrySource source) { entrySource_ = std::move(source); }

    // Phase k's move tables: per part, [value * moves + i] -> the value after move i.
    std::vector<std::vector<uint32_t>> moveTables(size_t k) const {
        const PhaseSpec& spec = spec_[k];
        const int n = static_cast<int>(spec.moves.size());
        std::vector<std::vector<uint32_t>> moveTable;
        for (const auto& part : spec.parts) {
            std::vector<uint32_t> table(part.size * n);
            for (uint64_t v = 0; v < part.size; ++v) {
                const State s = unrankPart<T>(part, v);
                for (int i = 0; i < n; ++i)
                    table[v * n + i] = static_cast<uint32_t>(rankPart<T>(part, T::applyMove(s, spec.moves[i])));
            }
            moveTable.push_back(std::move(table));
        }
        return moveTable;
    }
    // What a symmetry-reduced table of phase k is indexed by (note
    // [symmetry classes]): the reduced parts' classes, and the other parts'
    // conjugation tables. Entry (class c, b) is the coordinate whose reduced
    // parts are c's representative and whose other parts are b (mixed radix).
    struct SymSpace {
        SymClasses classes;
        std::vector<std::vector<uint32_t>> conjB;  // per rest part: [value * symmetries + s]
        uint64_t rawA = 1, bSize = 1;
    };
    SymSpace symSpace(size_t k) const {
        const PhaseSpec& spec = spec_[k];
        const int nS = static_cast<int>(spec.symmetries.size());
        if (nS > kMaxSymmetries || spec.symInverse.size() != spec.symmetries.size())
            throw std::logic_error("phased tables: bad symmetry list");
        SymSpace space;
        space.rawA = product(spec, spec.reduced);
        space.bSize = product(spec, spec.rest);
        std::vector<uint64_t> values(spec.reduced.size() + 1);
        space.classes = computeSymClasses(
            space.rawA, nS, spec.symInverse,
            [&](uint64_t a) {
                split(spec, spec.reduced, a, values.data());
                return unrankParts<T>(spec.parts, spec.reduced, values.data());
            },
            [&](const State& x) { return rankParts(spec, spec.reduced, x); },
            [&](const State& x, int s) { return T::conjugate(x, spec.symmetries[s]); }, "phased tables");
        for (int j : spec.rest) {
            const auto& part = spec.parts[j];
            space.conjB.push_back(conjugationTable(
                part.size, nS, [&](uint64_t v) { return unrankPart<T>(part, v); },
                [&](const State& x) { return rankPart<T>(part, x); },
                [&](const State& x, int s) { return T::conjugate(x, spec.symmetries[s]); }));
        }
        return space;
    }
    // How budget errors name the tables: "the phased tables need", or for a
    // coset pattern "the coset pattern table cube3/h48 needs".
    std::string tablesNeed() const {
        return tableLabel_.empty() ? "the phased tables need" : "the " + tableLabel_ + " needs";
    }
    size_t tableBytes() const { return tableWords_ * 8; }
    // Depth distribution of pruning table t of phase k (entries per stored value 0..15).
    std::array<uint64_t, 16> depthCounts(size_t k, size_t t) const { return phases_[k].counts[t]; }
    // The symmetry-reduced table of phase k: classes, entries, depth distribution.
    bool hasSymTable(size_t k) const { return phases_[k].sym; }
    uint64_t symClasses(size_t k) const { return phases_[k].classes; }
    uint64_t symEntries(size_t k) const { return phases_[k].classes * phases_[k].bSize; }
    std::array<uint64_t, 16> symDepthCounts(size_t k) const { return phases_[k].symCounts; }
    // The distribution over every raw coordinate value of the table's parts
    // (each looked up through its class); for small tables and tests.
    std::array<uint64_t, 16> symRawDepthCounts(size_t k) const {
        const Phase& ph = phases_[k];
        const PhaseSpec& spec = spec_[k];
        std::array<uint64_t, 16> c{};
        std::vector<uint32_t> coords(spec.parts.size());
        for (uint64_t a = 0; a < ph.rawA; ++a)
            for (uint64_t b = 0; b < ph.bSize; ++b) {
                uint64_t x = a;
                for (size_t i = spec.reduced.size(); i-- > 0;) {
                    coords[spec.reduced[i]] = static_cast<uint32_t>(x % spec.parts[spec.reduced[i]].size);
                    x /= spec.parts[spec.reduced[i]].size;
                }
                x = b;
                for (size_t i = spec.rest.size(); i-- > 0;) {
                    coords[spec.rest[i]] = static_cast<uint32_t>(x % spec.parts[spec.rest[i]].size);
                    x /= spec.parts[spec.rest[i]].size;
                }
                ++c[symLookup(ph, spec, coords.data())];
            }
        return c;
    }
    uint64_t symRawSize(size_t k) const { return phases_[k].rawA * phases_[k].bSize; }

    // note [move tables or raw states]
    // The search moves coordinates through move tables (value x move ->
    // value), never states: per node and part one load from a small table
    // (the cube's largest, phase 2's corner permutation, is 40,320 x 10 x 4
    // bytes) against applying the move's kernel to a state and ranking each
    // part from it. measurePartCosts times both on one random walk of the
    // phase's moves (a dependent chain, as in the search): ns per step of
    // each part's move table, of the kernel, and of each part's rank from the
    // state. `--calibrate` of a phased solver prints them; on every shipped
    // puzzle and part the table is the faster (bench/phased_results.txt), so
    // the tables stay for every part.
    struct PartCost {
        double tableNs = 0, rankNs = 0;
    };
    struct PhaseCost {
        double applyNs = 0;
        std::vector<PartCost> parts;
    };
    PhaseCost measurePartCosts(size_t k, int steps = 1 << 20) const {
        const PhaseSpec& spec = spec_[k];
        const Phase& ph = phases_[k];
        const int n = static_cast<int>(spec.moves.size());
        std::mt19937_64 rng(7);
        std::vector<int> walk(static_cast<size_t>(steps));
        for (int& m : walk) m = static_cast<int>(rng() % static_cast<uint64_t>(n));
        auto nsPerStep = [&](auto&& body) {
            const auto t0 = std::chrono::steady_clock::now();
            body();
            return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / steps;
        };
        volatile uint64_t sink = 0;
        PhaseCost cost;
        for (size_t j = 0; j < spec.parts.size(); ++j) {
            PartCost c;
            c.tableNs = nsPerStep([&] {
                uint64_t v = spec.parts[j].goal;
                for (int m : walk) v = ph.moveRows[j][v * static_cast<uint64_t>(n) + static_cast<uint64_t>(m)];
                sink = sink + v;
            });
            cost.parts.push_back(c);
        }
        cost.applyNs = nsPerStep([&] {
            State s = T::solved();
            for (int m : walk) s = T::applyMove(s, spec.moves[m]);
            sink = sink + (s == T::solved() ? 1 : 0);
        });
        for (size_t j = 0; j < spec.parts.size(); ++j) {
            const double both = nsPerStep([&] {
                State s = T::solved();
                uint64_t acc = 0;
                for (int m : walk) {
                    s = T::applyMove(s, spec.moves[m]);
                    acc += rankPart<T>(spec.parts[j], s);
                }
                sink = sink + acc;
            });
            cost.parts[j].rankNs = std::max(0.0, both - cost.applyNs);
        }
        return cost;
    }

    // Phase k's one pruning table read from a full state (the optimal
    // search's coset patterns, pz/coset_pattern.hpp): the symmetry-reduced
    // table, else the phase's first table. Index, prefetch, entry.
    uint64_t stateTableIndex(size_t k, const State& s) const {
        const Phase& ph = phases_[k];
        const PhaseSpec& spec = spec_[k];
        if (ph.sym) {
            uint32_t c[kMaxPhaseParts];
            for (int j : spec.rest) c[j] = static_cast<uint32_t>(rankPart<T>(spec.parts[j], s));
            return symIndexOf(ph, spec, c, rankParts(spec, spec.reduced, s));
        }
        const TableRef& t = ph.tables.front();
        const uint64_t a = rankPart<T>(spec.parts[t.a], s);
        return t.b < 0 ? a : a * t.stride + rankPart<T>(spec.parts[t.b], s);
    }
    // The same index in three stages, so that a caller with many states
    // (the optimal search's children) overlaps their cache misses: start
    // ranks the parts and prefetches the class entry, classify reads it and
    // prefetches the conjugation entries, index combines them.
    struct IndexProbe {
        // Left uninitialised: the search keeps arrays of them on its stack.
        uint64_t raw;  // the reduced parts' raw value (no symmetries: the index)
        uint32_t e;    // its class entry (class << 6 | symmetry)
        uint32_t c[kMaxPhaseParts];
    };
    void startIndex(size_t k, const State& s, IndexProbe& p) const {
        const Phase& ph = phases_[k];
        const PhaseSpec& spec = spec_[k];
        if (!ph.sym) {
            p.raw = stateTableIndex(k, s);
            return;
        }
        for (int j : spec.rest) p.c[j] = static_cast<uint32_t>(rankPart<T>(spec.parts[j], s));
        p.raw = rankParts(spec, spec.reduced, s);
        pz::prefetch(ph.classOf + p.raw);
    }
    void classifyIndex(size_t k, IndexProbe& p) const {
        const Phase& ph = phases_[k];
        if (!ph.sym) return;
        p.e = ph.classOf[p.raw];
        const uint32_t sym = p.e & 63;
        const PhaseSpec& spec = spec_[k];
        for (size_t i = 0; i < spec.rest.size(); ++i)
            pz::prefetch(ph.conjB[i] + static_cast<uint64_t>(p.c[spec.rest[i]]) * ph.nS + sym);
    }
    uint64_t finishIndex(size_t k, const IndexProbe& p) const {
        const Phase& ph = phases_[k];
        return ph.sym ? symIndexOfEntry(ph, spec_[k], p.c, p.e) : p.raw;
    }
    void prefetchTableEntry(size_t k, uint64_t i) const {
        const Phase& ph = phases_[k];
        if (ph.sym) pz::prefetch(ph.symWords + (i >> 4));
        else pz::prefetch(ph.tables.front().bytes + (i >> 1));
    }
    unsigned tableEntry(size_t k, uint64_t i) const {
        const Phase& ph = phases_[k];
        if (ph.sym) return symGet(ph, i);
        return ph.tables.front().bytes[i >> 1] >> ((i & 1) * 4) & 15;
    }
    // Whether phase k has exactly the one table stateTableIndex reads.
    bool hasOneTable(size_t k) const {
        return phases_[k].sym ? spec_[k].tables.empty() : spec_[k].tables.size() == 1;
    }
    size_t phaseCount() const { return spec_.size(); }
    const PhaseSpec& phase(size_t k) const { return spec_[k]; }

    // note [phased directions]
    // The same position is searched from several directions: conjugated by
    // symmetries that move the first subgroup to a different conjugate
    // (one per coset of the symmetries keeping it; the cube's three axes),
    // and inverted. Phase 1 runs depth by depth across all directions, so
    // the direction whose phase 1 is short finds a good total early and its
    // bound prunes the others.
    void setDirections(std::vector<PhaseDirection> directions) {
        if (!directions.empty()) directions_ = std::move(directions);
    }

    // Search threads (note [phased threads]); n <= 0: one per online CPU.
    void setThreads(int n) {
        if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        n = std::min(n, 64);
        stopPool();
        threads_ = n;
        workers_.assign(static_cast<size_t>(n), Worker{});
        for (int t = 1; t < n; ++t) pool_.emplace_back([this, t] { poolLoop(static_cast<size_t>(t)); });
    }
    int threads() const { return threads_; }

    ~PhasedSearch() { stopPool(); }
    PhasedSearch(const PhasedSearch&) = delete;
    PhasedSearch& operator=(const PhasedSearch&) = delete;

    // note [phase length cap]
    // With a target length L (--max-length), a phase-1 prefix of length d
    // leaves the later phases at most L - d moves: the first pass searches
    // only totals <= L (phase 1 up to L, each later phase within what is
    // left), so no time goes into long phase-2 solutions that cannot meet
    // the target. Only if no total <= L exists does a second pass look for
    // the shortest total it can find, as without a target.
    PhasedResult solve(const State& start, const PhasedLimits& limits) {
        limits_ = limits;
        result_ = {};
        nodes_.store(0);
        stopAll_.store(false);
        solutions_.store(0);
        best_.store(kNoBest);
        t0_ = std::chrono::steady_clock::now();
        if (limits.maxLength >= 0 && limits.maxLength < kMaxDepth) {
            // The capped pass: ends at its first solution; a budget ends it even without one.
            capPass_ = true;
            firstMode_ = true;
            passBound_ = limits.maxLength + 1;
            run(start);
            capPass_ = false;
        }
        if (solutions_.load() == 0) {
            // Without a target: the first solution; after a capped pass that found
            // nothing: improve until the budget or the end of the pass.
            firstMode_ = limits.maxLength < 0 || limits.maxLength >= kMaxDepth;
            passBound_ = kMaxDepth + 1;
            stopAll_.store(false);
            run(start);
        }
        PhasedResult r = result_;
        r.found = solutions_.load() > 0;
        r.nodes = nodes_.load();
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        return r;
    }

private:
    struct TableRef {
        const uint8_t* bytes;
        uint64_t stride;
        int a, b;
        uint64_t entries;
    };
    struct Phase {
        int moves = 0;
        std::vector<const uint32_t*> moveRows;  // [part][value * moves + i]
        std::vector<TableRef> tables;           // in spec order
        std::vector<TableRef> refs;             // the pruning tables, largest first
        std::vector<std::array<uint64_t, 16>> counts;
        std::vector<bool> inNext;               // per phase move: it lies in the next phase's moves
        // The symmetry-reduced table (note [symmetry classes]).
        bool sym = false;
        int nS = 0;
        uint64_t rawA = 1, bSize = 1, classes = 0;
        const uint32_t* classOf = nullptr;
        const uint32_t* reps = nullptr;
        const uint64_t* stab = nullptr;
        std::vector<const uint32_t*> conjB;
        const uint64_t* symWords = nullptr;
        std::array<uint64_t, 16> symCounts{};
    };

    // ---- building ----

    using Section = std::vector<uint64_t>;
    template <class V>
    static Section section(const std::vector<V>& v) {
        Section s((v.size() * sizeof(V) + 7) / 8, 0);
        if (!v.empty()) std::memcpy(s.data(), v.data(), v.size() * sizeof(V));
        return s;
    }

    void build(int threads) {
        if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        std::vector<Section> sections;
        for (size_t k = 0; k < spec_.size(); ++k) buildPhase(k, threads, sections);
        // The blob: magic, section count, section sizes (words), sections.
        size_t total = 2 + sections.size();
        for (const auto& s : sections) total += s.size();
        if (total * 8 > memoryBudget())
            throw MemoryBudgetError(tablesNeed() + " " + formatBytes(total * 8) +
                                    ", more than the memory budget of " + formatBytes(memoryBudget()));
        // Untouched pages until written, and each section freed once
        // copied: the peak is the blob plus one section, not twice the blob.
        blob_ = HugeBuffer(total * 8);
        blob_.data[0] = kBlobMagic;
        blob_.data[1] = sections.size();
        size_t at = 2 + sections.size();
        for (size_t i = 0; i < sections.size(); ++i) {
            blob_.data[2 + i] = sections[i].size();
            std::copy(sections[i].begin(), sections[i].end(), blob_.data + at);
            at += sections[i].size();
            Section().swap(sections[i]);
        }
        std::string why;
        if (!attach(blob_.data, total, why)) throw std::logic_error("phased tables: " + why);
    }

    void buildPhase(size_t k, int threads, std::vector<Section>& out) {
        const PhaseSpec& spec = spec_[k];
        const int n = static_cast<int>(spec.moves.size());
        std::vector<std::vector<uint32_t>> moveTable = moveTables(k);
        std::vector<Section> tables;
        std::vector<uint64_t> info;
        for (const auto& [a, b] : spec.tables) {
            const uint64_t stride = b < 0 ? 1 : spec.parts[b].size;
            const uint64_t entries = spec.parts[a].size * stride;
            NibbleTable t;
            t.entries = entries;
            t.bytes.assign((entries + 1) / 2, 0xFF);
            const uint64_t goal = spec.parts[a].goal * stride + (b < 0 ? 0 : spec.parts[b].goal);
            t.set(goal, 0);
            uint64_t filled = 1;
            for (uint8_t d = 0; d < 14 && filled < entries; ++d) {
                uint64_t added = 0;
                for (uint64_t i = 0; i < entries; ++i) {
                    if (t.get(i) != d) continue;
                    const uint64_t va = i / stride, vb = i % stride;
                    for (int m = 0; m < n; ++m) {
                        const uint64_t na = moveTable[a][va * n + m];
                        const uint64_t nb = b < 0 ? 0 : moveTable[b][vb * n + m];
                        const uint64_t j = na * stride + nb;
                        if (t.get(j) == 15) {
                            t.set(j, d + 1);
                            ++added;
                        }
                    }
                }
                filled += added;
                if (added == 0) break;
            }
            std::array<uint64_t, 16> c{};
            for (uint64_t i = 0; i < entries; ++i) ++c[t.get(i)];
            info.insert(info.end(), c.begin(), c.end());
            tables.push_back(section(t.bytes));
        }
        Section symInfo(1 + 16, 0);
        std::vector<Section> symSections;
        if (!spec.symmetries.empty()) buildSym(k, threads, moveTable, symInfo, symSections);
        for (auto& m : moveTable) out.push_back(section(m));
        for (auto& t : tables) out.push_back(std::move(t));
        info.insert(info.end(), symInfo.begin(), symInfo.end());
        out.push_back(std::move(info));
        for (auto& s : symSections) out.push_back(std::move(s));
    }

    static uint64_t product(const PhaseSpec& spec, const std::vector<int>& parts) {
        uint64_t p = 1;
        for (int j : parts) p *= spec.parts[j].size;
        return p;
    }
    static uint64_t combine(const PhaseSpec& spec, const std::vector<int>& parts, const uint32_t* c) {
        uint64_t x = 0;
        for (int j : parts) x = x * spec.parts[j].size + c[j];
        return x;
    }
    static void split(const PhaseSpec& spec, const std::vector<int>& parts, uint64_t x, uint64_t* values) {
        for (size_t i = parts.size(); i-- > 0;) {
            values[i] = x % spec.parts[parts[i]].size;
            x /= spec.parts[parts[i]].size;
        }
    }

    // The table entry of coordinate c (all parts of the phase, indexed by part).
    static uint64_t symIndex(const Phase& ph, const PhaseSpec& spec, const uint32_t* c) {
        return symIndexOf(ph, spec, c, combine(spec, spec.reduced, c));
    }
    // The same, given the reduced parts' raw value.
    static uint64_t symIndexOf(const Phase& ph, const PhaseSpec& spec, const uint32_t* c, uint64_t raw) {
        return symIndexOfEntry(ph, spec, c, ph.classOf[raw]);
    }
    // The same, given the reduced parts' class entry e (class << 6 | symmetry).
    static uint64_t symIndexOfEntry(const Phase& ph, const PhaseSpec& spec, const uint32_t* c, uint32_t e) {
        const uint32_t k = e & 63;
        uint64_t b = 0;
        for (size_t i = 0; i < spec.rest.size(); ++i) {
            const int j = spec.rest[i];
            b = b * spec.parts[j].size + ph.conjB[i][static_cast<uint64_t>(c[j]) * ph.nS + k];
        }
        return static_cast<uint64_t>(e >> 6) * ph.bSize + b;
    }
    static unsigned symGet(const Phase& ph, uint64_t i) { return ph.symWords[i >> 4] >> ((i & 15) * 4) & 15; }
    static unsigned symLookup(const Phase& ph, const PhaseSpec& spec, const uint32_t* c) {
        return symGet(ph, symIndex(ph, spec, c));
    }

    void buildSym(size_t k, int threads, const std::vector<std::vector<uint32_t>>& moveTable, Section& info,
                  std::vector<Section>& out) {
        const PhaseSpec& spec = spec_[k];
        const int n = static_cast<int>(spec.moves.size());
        const int nS = static_cast<int>(spec.symmetries.size());
        Progress progress(tableLabel_.empty() ? std::string("pz: building symmetry-reduced phase ") +
                                                    std::to_string(k + 1) + " table of " + T::kName
                                              : "pz: building " + tableLabel_);
        // Classes of A, and the conjugation of the other parts value by value.
        SymSpace space = symSpace(k);
        const uint64_t rawA = space.rawA, bSize = space.bSize;
        std::vector<uint32_t>& classOf = space.classes.classOf;
        const std::vector<uint32_t>& reps = space.classes.reps;
        const std::vector<uint64_t>& stab = space.classes.stab;
        const uint64_t classes = reps.size();
        const std::vector<std::vector<uint32_t>>& conjB = space.conjB;
        // Point a Phase at them for symIndex (the table words come later).
        Phase& ph = phases_[k];
        ph.nS = nS;
        ph.rawA = rawA;
        ph.bSize = bSize;
        ph.classes = classes;
        ph.classOf = classOf.data();
        ph.conjB.clear();
        for (const auto& t : conjB) ph.conjB.push_back(t.data());
        checkSymmetries(k, stab);
        // Breadth-first search over (class, b).
        const uint64_t entries = classes * bSize;
        {
            // The budget is refused before the fill (the long part) when
            // this phase's sections alone exceed it: a lower bound of the
            // blob that build() checks in full (pzc solve --memory tries a
            // smaller solver next: note [memory choice]).
            auto words = [](uint64_t bytes) { return (bytes + 7) / 8; };
            uint64_t known = (entries + 15) / 16 + words(classOf.size() * 4) + words(reps.size() * 4) + stab.size();
            for (const auto& t : conjB) known += words(t.size() * 4);
            for (const auto& m : moveTable) known += words(m.size() * 4);
            if (known * 8 > memoryBudget())
                throw MemoryBudgetError(tablesNeed() + " at least " + formatBytes(known * 8) +
                                        ", more than the memory budget of " + formatBytes(memoryBudget()));
        }
        std::vector<uint64_t> words((entries + 15) / 16, ~uint64_t{0});
        auto claim = [&](uint64_t i, unsigned d) { return nibbleClaim(words, i, d); };
        auto get = [&](uint64_t i) { return nibbleGet(words, i); };
        // Claims entry (cls, b) and its images under the representative's self-symmetries.
        auto claimAll = [&](uint64_t cls, uint64_t b, unsigned d) {
            uint64_t got = claim(cls * bSize + b, d) ? 1 : 0;
            uint64_t mask = stab[cls] & ~uint64_t{1};
            if (!mask) return got;
            uint64_t bv[16];
            split(spec, spec.rest, b, bv);
            for (; mask; mask &= mask - 1) {
                const int s = std::countr_zero(mask);
                uint64_t b2 = 0;
                for (size_t i = 0; i < spec.rest.size(); ++i)
                    b2 = b2 * spec.parts[spec.rest[i]].size + conjB[i][bv[i] * nS + s];
                if (claim(cls * bSize + b2, d)) ++got;
            }
            return got;
        };
        std::vector<uint32_t> goal(spec.parts.size());
        for (size_t j = 0; j < spec.parts.size(); ++j) goal[j] = static_cast<uint32_t>(spec.parts[j].goal);
        std::array<uint64_t, 16> counts{};
        {
            const uint64_t g = symIndex(ph, spec, goal.data());
            counts[0] = claimAll(g / bSize, g % bSize, 0);
        }
        // A phase whose moves are closed under inverses may search backwards.
        bool closed = true;
        for (int m : spec.moves) closed = closed && std::count(spec.moves.begin(), spec.moves.end(), T::kMoveInverse[m]) == 1;
        uint64_t reached = counts[0];
        // The neighbours of entry i through each move: calls f(index).
        auto neighbours = [&](uint64_t i, auto&& f) {
            const uint64_t cls = i / bSize, b = i % bSize;
            uint64_t av[16], bv[16];
            split(spec, spec.reduced, reps[cls], av);
            split(spec, spec.rest, b, bv);
            for (int m = 0; m < n; ++m) {
                uint64_t na = 0;
                for (size_t q = 0; q < spec.reduced.size(); ++q) {
                    const int j = spec.reduced[q];
                    na = na * spec.parts[j].size + moveTable[j][av[q] * n + m];
                }
                const uint32_t e = classOf[na];
                const uint32_t s = e & 63;
                uint64_t nb = 0;
                for (size_t q = 0; q < spec.rest.size(); ++q) {
                    const int j = spec.rest[q];
                    nb = nb * spec.parts[j].size + conjB[q][static_cast<uint64_t>(moveTable[j][bv[q] * n + m]) * nS + s];
                }
                if (f(static_cast<uint64_t>(e >> 6) * bSize + nb)) return;
            }
        };
        if (entrySource_) {
            // note [entries from elsewhere]: their depths counted as the search counts them.
            entrySource_(k, words);
            if (words.size() != (entries + 15) / 16) throw std::logic_error("phased tables: entries of the wrong size");
            counts = {};
            for (uint64_t i = 0; i < entries; ++i) ++counts[get(i)];
            reached = entries - counts[15];
        }
        for (unsigned d = 0; d + 1 < 15 && !entrySource_; ++d) {
            const uint64_t frontier = counts[d];
            if (frontier == 0 || reached == entries) break;
            const bool backward = closed && entries - reached < frontier;
            std::atomic<uint64_t> next{0}, found{0};
            progress.beginLevel();
            constexpr uint64_t kChunk = 1 << 14;
            auto worker = [&] {
                uint64_t local = 0;
                for (;;) {
                    const uint64_t begin = next.fetch_add(kChunk);
                    if (begin >= entries) break;
                    const uint64_t end = std::min(entries, begin + kChunk);
                    for (uint64_t i = begin; i < end; ++i) {
                        if (backward) {
                            if (get(i) != 15) continue;
                            bool hit = false;
                            neighbours(i, [&](uint64_t j) { return hit = get(j) == d; });
                            if (hit) local += claimAll(i / bSize, i % bSize, d + 1);
                        } else {
                            if (get(i) != d) continue;
                            neighbours(i, [&](uint64_t j) {
                                if (get(j) == 15) local += claimAll(j / bSize, j % bSize, d + 1);
                                return false;
                            });
                        }
                    }
                    if (threads == 1 || begin % (kChunk * 64) == 0)
                        progress.update(static_cast<int>(d + 1), double(begin) / double(entries));
                }
                found += local;
            };
            std::vector<std::thread> pool;
            for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
            worker();
            for (auto& t : pool) t.join();
            counts[d + 1] = found;
            reached += found;
            progress.level(static_cast<int>(d + 1), found);
        }
        counts[15] = entries - reached;
        progress.done();
        info[0] = classes;
        for (int d = 0; d < 16; ++d) info[1 + d] = counts[d];
        out.push_back(section(classOf));
        out.push_back(section(reps));
        out.push_back(section(stab));
        for (const auto& t : conjB) out.push_back(section(t));
        out.push_back(std::move(words));
        ph = Phase();  // attach() sets it up from the blob
    }

    static uint64_t rankParts(const PhaseSpec& spec, const std::vector<int>& parts, const State& s) {
        uint64_t x = 0;
        for (int j : parts) x = x * spec.parts[j].size + rankPart<T>(spec.parts[j], s);
        return x;
    }

    // The lookup of note [symmetry classes] on random states of the phase:
    // x and every conj_k(x) must reach the same entry, up to the
    // representative's self-symmetries (whose images the search writes
    // together).
    void checkSymmetries(size_t k, const std::vector<uint64_t>& stab) {
        const PhaseSpec& spec = spec_[k];
        const Phase& ph = phases_[k];
        std::mt19937_64 rng(12345);
        std::vector<uint32_t> c(spec.parts.size()), d(spec.parts.size());
        for (int trial = 0; trial < 256; ++trial) {
            State x = T::solved();
            for (int i = 0; i < 80; ++i) x = T::applyMove(x, spec.moves[rng() % spec.moves.size()]);
            for (size_t j = 0; j < spec.parts.size(); ++j) c[j] = static_cast<uint32_t>(rankPart<T>(spec.parts[j], x));
            const uint64_t want = symIndex(ph, spec, c.data());
            const uint64_t cls = want / ph.bSize;
            uint64_t bv[16];
            split(spec, spec.rest, want % ph.bSize, bv);
            std::vector<uint64_t> allowed;
            for (uint64_t mask = stab[cls]; mask; mask &= mask - 1) {
                const int t = std::countr_zero(mask);
                uint64_t b2 = 0;
                for (size_t i = 0; i < spec.rest.size(); ++i)
                    b2 = b2 * spec.parts[spec.rest[i]].size + ph.conjB[i][bv[i] * ph.nS + t];
                allowed.push_back(cls * ph.bSize + b2);
            }
            for (size_t s = 0; s < spec.symmetries.size(); ++s) {
                const State y = T::conjugate(x, spec.symmetries[s]);
                for (size_t j = 0; j < spec.parts.size(); ++j) d[j] = static_cast<uint32_t>(rankPart<T>(spec.parts[j], y));
                if (std::count(allowed.begin(), allowed.end(), symIndex(ph, spec, d.data())) == 0)
                    throw std::logic_error("phased tables: symmetry " + std::to_string(spec.symmetries[s]) +
                                           " does not act on the coordinate of phase " + std::to_string(k + 1));
            }
        }
    }

    // ---- the blob ----

    static constexpr uint64_t kBlobMagic = 0x3153455341485050ULL;  // "PPHASES1"

    // Points every phase at its tables in `blob` (words); false if the
    // layout does not match the spec.
    bool attach(const uint64_t* blob, uint64_t words, std::string& why) {
        if (words < 2 || blob[0] != kBlobMagic) return (why = "not a phased-table blob", false);
        const uint64_t count = blob[1];
        if (count > words - 2) return (why = "bad section count", false);
        std::vector<std::pair<const uint64_t*, uint64_t>> sections;
        uint64_t at = 2 + count;
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t size = blob[2 + i];
            if (size > words - at) return (why = "sections overrun the file", false);
            sections.emplace_back(blob + at, size);
            at += size;
        }
        if (at != words) return (why = "trailing data", false);
        size_t next = 0;
        auto take = [&](uint64_t wantBytes) -> const uint64_t* {
            if (next >= sections.size() || sections[next].second != (wantBytes + 7) / 8) return nullptr;
            return sections[next++].first;
        };
        std::vector<Phase> phases(spec_.size());
        for (size_t k = 0; k < spec_.size(); ++k) {
            const PhaseSpec& spec = spec_[k];
            Phase& ph = phases[k];
            ph.moves = static_cast<int>(spec.moves.size());
            for (const auto& part : spec.parts) {
                const uint64_t* p = take(part.size * ph.moves * 4);
                if (!p) return (why = "phase " + std::to_string(k + 1) + ": move table size", false);
                ph.moveRows.push_back(reinterpret_cast<const uint32_t*>(p));
            }
            for (const auto& [a, b] : spec.tables) {
                const uint64_t stride = b < 0 ? 1 : spec.parts[b].size;
                const uint64_t entries = spec.parts[a].size * stride;
                const uint64_t* p = take((entries + 1) / 2);
                if (!p) return (why = "phase " + std::to_string(k + 1) + ": pruning table size", false);
                ph.tables.push_back({reinterpret_cast<const uint8_t*>(p), stride, a, b, entries});
            }
            const uint64_t* info = take((spec.tables.size() * 16 + 17) * 8);
            if (!info) return (why = "phase " + std::to_string(k + 1) + ": table information", false);
            for (size_t t = 0; t < spec.tables.size(); ++t) {
                std::array<uint64_t, 16> c{};
                for (int d = 0; d < 16; ++d) c[d] = info[16 * t + d];
                ph.counts.push_back(c);
            }
            if (!spec.symmetries.empty()) {
                const uint64_t* si = info + 16 * spec.tables.size();
                ph.sym = true;
                ph.nS = static_cast<int>(spec.symmetries.size());
                ph.rawA = product(spec, spec.reduced);
                ph.bSize = product(spec, spec.rest);
                ph.classes = si[0];
                for (int d = 0; d < 16; ++d) ph.symCounts[d] = si[1 + d];
                if (ph.classes == 0 || ph.classes > ph.rawA) return (why = "bad class count", false);
                const uint64_t* p = take(ph.rawA * 4);
                const uint64_t* r = p ? take(ph.classes * 4) : nullptr;
                const uint64_t* st = r ? take(ph.classes * 8) : nullptr;
                if (!st) return (why = "phase " + std::to_string(k + 1) + ": class index size", false);
                ph.classOf = reinterpret_cast<const uint32_t*>(p);
                ph.reps = reinterpret_cast<const uint32_t*>(r);
                ph.stab = st;
                for (int j : spec.rest) {
                    const uint64_t* t = take(spec.parts[j].size * ph.nS * 4);
                    if (!t) return (why = "phase " + std::to_string(k + 1) + ": conjugation table size", false);
                    ph.conjB.push_back(reinterpret_cast<const uint32_t*>(t));
                }
                ph.symWords = take((ph.classes * ph.bSize + 15) / 16 * 8);
                if (!ph.symWords) return (why = "phase " + std::to_string(k + 1) + ": symmetry table size", false);
            }
            ph.refs = ph.tables;
            std::stable_sort(ph.refs.begin(), ph.refs.end(),
                             [](const TableRef& x, const TableRef& y) { return x.entries > y.entries; });
            if (k > 0) {
                Phase& prev = phases[k - 1];
                prev.inNext.assign(spec_[k - 1].moves.size(), false);
                for (size_t i = 0; i < spec_[k - 1].moves.size(); ++i)
                    for (int m : spec.moves)
                        if (m == spec_[k - 1].moves[i]) prev.inNext[i] = true;
            }
        }
        if (next != sections.size()) return (why = "more sections than the spec has tables", false);
        // The sizes the compiler reports (pz/tables/table_layout.hpp) are these.
        std::vector<PhasedLayoutPhase> layout;
        for (size_t k = 0; k < spec_.size(); ++k) layout.push_back(layoutOf(spec_[k], phases[k].classes));
        if (const uint64_t expected = phasedBlobWords(layout); expected != words)
            return (why = "its size differs from the layout's " + std::to_string(expected * 8) + " bytes", false);
        phases_ = std::move(phases);
        tableWords_ = words;
        return true;
    }

    // ---- search ----

    // note [phased threads]
    // A pass searches "items" in a fixed order: phase-1 depth, then
    // direction, then phase 1's first move (the subtree below it), the order
    // a single thread takes. Threads take items from a shared counter in that order; the
    // answer is the one a single thread gives, for any number of threads:
    //   * first-solution passes (no target, or the capped pass of note
    //     [phase length cap]) end at the first solution of the lowest item
    //     that has one. Each item is searched with the pass's fixed bound,
    //     so its first solution does not depend on the other items; a
    //     thread drops its item as soon as a lower item has a solution, and
    //     a solution of item i waits for the items below i to finish;
    //   * improving passes keep the best (total, item) pair, in that order:
    //     item i may take a total equal to the best of a later item, not of
    //     an earlier one. Every thread prunes with the best so far (one
    //     atomic), so the final total is the pass's shortest and its
    //     solution is the first of that length in item order.
    // Time and node budgets stop the threads wherever they are, so a result
    // under a budget depends on timing (it does with one thread too). The
    // reported nodes are summed over the threads, with the work on items
    // that a lower item's solution made useless.
    struct Worker {
        std::vector<int> path;
        std::vector<size_t> phaseStart;
        int lastPhaseMove[16] = {};
        size_t direction = 0;
        uint64_t item = 0;
        uint64_t nodes = 0;    // counted since the last flush into nodes_
        bool stop = false;     // this item is finished or abandoned
        uint64_t recorded = 0; // solutions this worker recorded
    };
    struct Start {
        State state;
        std::vector<uint32_t> coords;
        int h = 0;
    };
    static constexpr uint64_t kNoBest = ~uint64_t{0};

    int heuristic(size_t k, const uint32_t* c) const {
        const Phase& ph = phases_[k];
        int h = ph.sym ? static_cast<int>(symLookup(ph, spec_[k], c)) : 0;
        for (const TableRef& t : ph.tables) {
            const uint64_t i = static_cast<uint64_t>(c[t.a]) * t.stride + (t.b < 0 ? 0 : c[t.b]);
            h = std::max(h, static_cast<int>(t.bytes[i >> 1] >> ((i & 1) * 4) & 15));
        }
        return h;
    }

    bool atGoal(size_t k, const uint32_t* c) const {
        const auto& parts = spec_[k].parts;
        for (size_t j = 0; j < parts.size(); ++j)
            if (c[j] != parts[j].goal) return false;
        return true;
    }

    // Totals of item `item` must stay below this.
    int boundFor(uint64_t item) const {
        if (firstMode_) return passBound_;
        const uint64_t b = best_.load(std::memory_order_relaxed);
        if (b == kNoBest) return passBound_;
        const int len = static_cast<int>(b >> 32);
        const uint64_t at = b & 0xFFFFFFFFu;
        return std::min(passBound_, item < at ? len + 1 : len);
    }

    // Checked at every node: the whole search stopped, or (first-solution
    // passes) a lower item has a solution; every 1024 nodes the budgets.
    bool abandon(Worker& w) {
        if (stopAll_.load(std::memory_order_relaxed)) return true;
        if (firstMode_ && winner_.load(std::memory_order_relaxed) < w.item) return true;
        if ((w.nodes & 1023) == 0) {
            const uint64_t total = nodes_.fetch_add(w.nodes, std::memory_order_relaxed) + w.nodes;
            w.nodes = 0;
            if (solutions_.load(std::memory_order_relaxed) == 0 && !capPass_) return false;  // finish the first solution
            bool over = limits_.nodeBudget && total >= limits_.nodeBudget;
            if (!over && limits_.budgetMs > 0)
                over = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count() >=
                       limits_.budgetMs;
            if (over) {
                stopAll_.store(true, std::memory_order_relaxed);
                return true;
            }
        }
        return false;
    }

    // One pass over the directions, phase 1 depth by depth, totals < bound.
    void run(const State& start) {
        const PhaseSpec& first = spec_[0];
        starts_.clear();
        for (const auto& d : directions_) {
            State s = d.inverse ? T::inverse(start) : start;
            if (d.symmetry != 0) s = T::conjugate(s, d.symmetry);
            Start st{s, std::vector<uint32_t>(first.parts.size()), 0};
            for (size_t j = 0; j < first.parts.size(); ++j) st.coords[j] = static_cast<uint32_t>(rankPart<T>(first.parts[j], s));
            st.h = heuristic(0, st.coords.data());
            starts_.push_back(std::move(st));
        }
        itemCount_ = static_cast<uint64_t>(passBound_) * starts_.size() * static_cast<uint64_t>(phases_[0].moves);
        nextItem_.store(0);
        winner_.store(kNoBest);
        if (threads_ <= 1) {
            work(workers_[0]);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(poolMutex_);
            ++generation_;
            busy_ = static_cast<int>(pool_.size());
        }
        poolWake_.notify_all();
        work(workers_[0]);
        std::unique_lock<std::mutex> lock(poolMutex_);
        poolDone_.wait(lock, [&] { return busy_ == 0; });
    }

    // Takes items until none is left (or none can matter).
    void work(Worker& w) {
        const PhaseSpec& first = spec_[0];
        const Phase& ph = phases_[0];
        const uint64_t n = static_cast<uint64_t>(ph.moves), D = starts_.size();
        for (;;) {
            const uint64_t i = nextItem_.fetch_add(1, std::memory_order_relaxed);
            if (i >= itemCount_ || stopAll_.load(std::memory_order_relaxed)) break;
            if (firstMode_ && winner_.load(std::memory_order_relaxed) < i) break;
            const int depth = static_cast<int>(i / (D * n));
            const size_t d = static_cast<size_t>(i / n % D);
            const int slot = static_cast<int>(i % n);
            if (depth < starts_[d].h || depth >= boundFor(i)) continue;
            if (depth == 0 && slot != 0) continue;
            w.item = i;
            w.direction = d;
            w.stop = false;
            w.path.clear();
            w.phaseStart.assign(spec_.size() + 1, 0);
            const uint32_t* c = starts_[d].coords.data();
            if (depth == 0) {
                dfs(w, 0, starts_[d].state, c, 0, first.canonStart, -1);
                continue;
            }
            // The subtree of the first move `slot`, tested as dfs tests a child.
            const int next = first.canonNext[static_cast<size_t>(first.canonStart) * n + static_cast<size_t>(slot)];
            if (next < 0) continue;
            uint32_t x[16];
            for (size_t j = 0; j < first.parts.size(); ++j) x[j] = ph.moveRows[j][static_cast<size_t>(c[j]) * n + slot];
            if (smallTablesExceed(ph, x, depth - 1) || (ph.sym && static_cast<int>(symLookup(ph, first, x)) > depth - 1))
                continue;
            ++w.nodes;
            w.path.push_back(first.moves[static_cast<size_t>(slot)]);
            w.lastPhaseMove[0] = slot;
            dfs(w, 0, starts_[d].state, x, depth - 1, next, -1);
        }
        nodes_.fetch_add(w.nodes, std::memory_order_relaxed);
        w.nodes = 0;
    }

    void poolLoop(size_t t) {
        uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(poolMutex_);
                poolWake_.wait(lock, [&] { return quit_ || generation_ != seen; });
                if (quit_) return;
                seen = generation_;
            }
            work(workers_[t]);
            std::lock_guard<std::mutex> lock(poolMutex_);
            if (--busy_ == 0) poolDone_.notify_all();
        }
    }

    void stopPool() {
        {
            std::lock_guard<std::mutex> lock(poolMutex_);
            quit_ = true;
        }
        poolWake_.notify_all();
        for (auto& t : pool_) t.join();
        pool_.clear();
        quit_ = false;
    }

    // A solution of the current item (the whole path).
    void record(Worker& w) {
        const int total = static_cast<int>(w.path.size());
        std::lock_guard<std::mutex> lock(resultMutex_);
        if (firstMode_) {
            if (w.item >= winner_.load(std::memory_order_relaxed)) return;
            winner_.store(w.item, std::memory_order_relaxed);
        } else {
            const uint64_t key = static_cast<uint64_t>(total) << 32 | w.item;
            if (key >= best_.load(std::memory_order_relaxed)) return;
            best_.store(key, std::memory_order_relaxed);
            if (limits_.maxLength >= 0 && total <= limits_.maxLength) stopAll_.store(true, std::memory_order_relaxed);
        }
        result_.moves = original(w.path, w.direction);
        result_.phaseLengths.clear();
        for (size_t j = 0; j < spec_.size(); ++j) {
            const size_t end = j + 1 < spec_.size() ? w.phaseStart[j + 1] : w.path.size();
            result_.phaseLengths.push_back(static_cast<int>(end - w.phaseStart[j]));
        }
        solutions_.fetch_add(1, std::memory_order_relaxed);
        ++w.recorded;
    }

    // previousMove: the traits move before phase k starts, -1 at the very start.
    void searchPhase(Worker& w, size_t k, const State& s, int previousMove) {
        const PhaseSpec& spec = spec_[k];
        uint32_t c[16];
        for (size_t j = 0; j < spec.parts.size(); ++j) c[j] = static_cast<uint32_t>(rankPart<T>(spec.parts[j], s));
        const int used = static_cast<int>(w.path.size());
        w.phaseStart[k] = w.path.size();
        // Most phase ends cannot be finished within the bound: the small
        // tables say so without touching the big one.
        if (smallTablesExceed(phases_[k], c, boundFor(w.item) - used - 1)) return;
        const int h = heuristic(k, c);
        for (int depth = h; depth < boundFor(w.item) - used && !w.stop; ++depth) {
            const uint64_t before = w.recorded;
            dfs(w, k, s, c, depth, spec.canonStart, previousMove);  // dfs reads c, never writes it
            if (w.recorded != before) break;  // the shortest that completes
        }
    }

    void dfs(Worker& w, size_t k, const State& phaseStartState, const uint32_t* c, int remaining, int canon,
             int previousMove) {
        ++w.nodes;
        if (abandon(w)) {
            w.stop = true;
            return;
        }
        const PhaseSpec& spec = spec_[k];
        const Phase& ph = phases_[k];
        if (remaining == 0) {
            if (!atGoal(k, c)) return;
            const size_t len = w.path.size() - w.phaseStart[k];
            if (k + 1 < spec_.size()) {
                // Skip a phase end whose last move stays in the next phase's moves.
                if (len > 0 && ph.inNext[w.lastPhaseMove[k]]) return;
                State t = phaseStartState;
                for (size_t i = w.phaseStart[k]; i < w.path.size(); ++i) t = T::applyMove(t, w.path[i]);
                searchPhase(w, k + 1, t, w.path.empty() ? previousMove : w.path.back());
                return;
            }
            if (static_cast<int>(w.path.size()) < boundFor(w.item)) {
                record(w);
                if (firstMode_) w.stop = true;
            }
            return;
        }
        const int n = ph.moves;
        const bool first = w.path.size() == w.phaseStart[k];
        const int before = first ? previousMove : w.path.back();
        const size_t parts = spec.parts.size();
        const int* canonRow = spec.canonNext.data() + static_cast<size_t>(canon) * n;
        // The children first: those the small tables keep get their
        // symmetry-table entry prefetched, then each is tested and searched
        // (the big table's reads are cache misses; they overlap this way).
        uint32_t next[T::kMoves][16];
        uint64_t entry[T::kMoves];
        int keep[T::kMoves], kept = 0;
        for (int i = 0; i < n; ++i) {
            if (canonRow[i] < 0) continue;
            if (first && before >= 0 && family_[spec.moves[i]] == family_[before]) continue;
            uint32_t* x = next[kept];
            for (size_t j = 0; j < parts; ++j) x[j] = ph.moveRows[j][static_cast<size_t>(c[j]) * n + i];
            if (smallTablesExceed(ph, x, remaining - 1)) continue;
            if (ph.sym) {
                entry[kept] = combine(spec, spec.reduced, x);
                pz::prefetch(&ph.classOf[entry[kept]]);
            }
            keep[kept++] = i;
        }
        if (ph.sym)
            for (int t = 0; t < kept; ++t) {
                entry[t] = symIndexOf(ph, spec, next[t], entry[t]);
                pz::prefetch(&ph.symWords[entry[t] >> 4]);
            }
        for (int t = 0; t < kept && !w.stop; ++t) {
            if (ph.sym && static_cast<int>(symGet(ph, entry[t])) > remaining - 1) continue;
            const int i = keep[t];
            w.path.push_back(spec.moves[i]);
            w.lastPhaseMove[k] = i;
            dfs(w, k, phaseStartState, next[t], remaining - 1, canonRow[i], previousMove);
            w.path.pop_back();
            // A later phase found a total no longer than any this branch can give.
            if (static_cast<int>(w.path.size()) + remaining >= boundFor(w.item)) return;
        }
    }

    // The pair tables' part of exceeds().
    static bool smallTablesExceed(const Phase& ph, const uint32_t* c, int limit) {
        for (const TableRef& t : ph.refs) {
            const uint64_t i = static_cast<uint64_t>(c[t.a]) * t.stride + (t.b < 0 ? 0 : c[t.b]);
            if ((t.bytes[i >> 1] >> ((i & 1) * 4) & 15) > limit) return true;
        }
        return false;
    }

    // A solution found in direction `direction`, as moves solving the position.
    std::vector<int> original(const std::vector<int>& path, size_t direction) const {
        const PhaseDirection& d = directions_[direction];
        std::vector<int> out;
        for (int m : path) out.push_back(d.moveMap.empty() ? m : d.moveMap[m]);
        if (d.inverse) {
            std::reverse(out.begin(), out.end());
            for (int& m : out) m = T::kMoveInverse[m];
        }
        return out;
    }

    std::vector<PhaseSpec> spec_;
    std::vector<PhaseDirection> directions_{PhaseDirection{}};
    std::vector<int> family_;
    std::vector<Phase> phases_;
    HugeBuffer blob_;  // built tables (else mapping_ or resident_ holds them)
    MappedFile mapping_;
    HugeBuffer resident_;
    uint64_t tableWords_ = 0;
    bool loaded_ = false;
    double buildSeconds_ = 0;
    std::string tableLabel_;
    EntrySource entrySource_;
    // The search (note [phased threads]).
    int threads_ = 1;
    std::vector<Worker> workers_ = std::vector<Worker>(1);
    std::vector<std::thread> pool_;
    std::mutex poolMutex_, resultMutex_;
    std::condition_variable poolWake_, poolDone_;
    uint64_t generation_ = 0;
    int busy_ = 0;
    bool quit_ = false;
    PhasedLimits limits_;
    std::chrono::steady_clock::time_point t0_;
    std::vector<Start> starts_;
    bool capPass_ = false;
    bool firstMode_ = true;    // this pass ends at its first solution
    int passBound_ = kMaxDepth + 1;
    uint64_t itemCount_ = 0;
    std::atomic<uint64_t> nextItem_{0};
    std::atomic<uint64_t> winner_{kNoBest};  // first-solution passes: the lowest item with a solution
    std::atomic<uint64_t> best_{kNoBest};    // improving passes: (total << 32) | item of the best
    std::atomic<uint64_t> solutions_{0};
    std::atomic<uint64_t> nodes_{0};
    std::atomic<bool> stopAll_{false};
    PhasedResult result_;
};

}  // namespace pz
