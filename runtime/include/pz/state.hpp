// pz/state.hpp — the representation of a permutation-puzzle state.
//
// A state is W machine words. Each field of an orbit (the piece labels, or
// the orientations) holds one lane per position: for orbits of at most 16
// positions (modulus <= 8) one word of 4-bit lanes (lane p = bits 4p..4p+3),
// the helpers below; larger orbits get several words of byte or 16-bit lanes
// (pz/lanes.hpp). pzc chooses this
// layout (see compiler/analysis/state_layout.hpp); generated traits say which
// word holds what. The helpers below are the layout-generic operations that
// generated code composes: lane rotation by a constant (move kernels),
// SWAR addition modulo m (orientation), and byte shuffles (compose, relabel)
// done with SSSE3 pshufb when available.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__SSSE3__)
#include <immintrin.h>
#endif

namespace pz {

// Bumped whenever the contract between generated code and the runtime changes;
// generated headers static_assert on it.
inline constexpr int kRuntimeAbi = 1;

template <int W>
struct State {
    std::array<uint64_t, W> w{};
    bool operator==(const State&) const = default;
};

inline constexpr uint64_t rotl(uint64_t x, unsigned r) { return std::rotl(x, static_cast<int>(r)); }

// Rotates the 16-bit field at bits [Bit, Bit + 16) left by R bits and keeps
// every other bit. On x86-64: rotate the field down, a 16-bit rotate (which
// merges into the register), rotate back: three one-cycle instructions, one
// fewer than the mask form on a dependent chain.
template <int Bit, int R>
inline constexpr uint64_t rotlField16(uint64_t x) {
    static_assert(Bit >= 0 && Bit <= 48 && R > 0 && R < 16);
#if defined(__x86_64__)
    if (!std::is_constant_evaluated()) {
        uint64_t y = std::rotr(x, Bit);
        asm("rolw %1, %w0" : "+r"(y) : "I"(R) : "cc");
        return std::rotl(y, Bit);
    }
#endif
    const uint64_t field = (x >> Bit) & 0xFFFF;
    const uint64_t rotated = ((field << R) | (field >> (16 - R))) & 0xFFFF;
    return (x & ~(0xFFFFULL << Bit)) | (rotated << Bit);
}

// A nibble value repeated in every lane of a 16-lane word.
inline constexpr uint64_t nibbleBroadcast(uint64_t v) { return v * 0x1111111111111111ULL; }

// Lane-wise (a + b) mod m for lanes holding values < m, m <= 8 (sums fit a
// nibble; adding 8 - m sets bit 3 exactly where the sum reached m).
template <unsigned M>
inline constexpr uint64_t addModLanes(uint64_t a, uint64_t b) {
    static_assert(M >= 1 && M <= 8);
    if constexpr (M == 1) {
        return 0;
    } else if constexpr ((M & (M - 1)) == 0) {
        return (a + b) & nibbleBroadcast(M - 1);
    } else {
        uint64_t s = a + b;
        uint64_t over = ((s + nibbleBroadcast(8 - M)) >> 3) & nibbleBroadcast(1);
        return s - over * M;
    }
}

// Lane-wise (m - a) mod m (lanes hold values < m; unused lanes stay 0).
template <unsigned M>
inline constexpr uint64_t negModLanes(uint64_t a) {
    if constexpr (M == 1) {
        return 0;
    } else {
        return addModLanes<M>(nibbleBroadcast(M) - a, 0);
    }
}

// Note [all moves at once]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// A node's children are every search move applied to one state. With the
// move kernels as data (word j of s * m = OR over t of rotl(w[j], rot) &
// mask, generated kMoveTerms), the terms laid out by word, term and move,
// padded to a multiple of 8 moves, let the loop over the moves run in
// vector lanes (AVX-512: a variable rotate per lane; AVX2: two variable
// shifts; elsewhere scalar): one pass computes every child of a node, and
// the search copies out those its automaton allows. cube3 h48h3, one thread,
// the complete 17-move iteration of a random 18-move state (444M nodes):
// 24.4-24.5 s with one kernel per child, 23.5-23.8 s so (0.97x); rotate4o
// and slide4 unchanged. Generated for states whose words are all 4-bit
// lanes (Traits::applyAllMoves); other layouts keep applyMove.
template <int W, int T, int MP>
struct MoveTermsByMove {
    alignas(64) uint64_t rot[W][T][MP];
    alignas(64) uint64_t mask[W][T][MP];
    alignas(64) uint64_t add[W][MP];
};
// Word j of every move's result: w[j][m] (the padding past the last move: 0).
template <int W, int MP>
struct AllMoves {
    alignas(64) uint64_t w[W][MP];
    // Move m's result, a prvalue: the caller's State is built from these
    // words in place (no zeroing first, no copy).
    State<W> stateAt(int m) const { return stateAt(m, std::make_index_sequence<W>{}); }
    template <std::size_t... J>
    State<W> stateAt(int m, std::index_sequence<J...>) const {
        return State<W>{{w[J][m]...}};
    }
};
// kMoveTerms (one struct per move, rot[W][T], mask[W][T], add[W]) by word,
// term and move.
template <int W, int T, int MP, class Terms, std::size_t N>
constexpr MoveTermsByMove<W, T, MP> termsByMove(const Terms (&terms)[N]) {
    static_assert(N <= static_cast<std::size_t>(MP) && MP % 8 == 0);
    MoveTermsByMove<W, T, MP> k{};
    for (std::size_t m = 0; m < N; ++m)
        for (int j = 0; j < W; ++j) {
            for (int t = 0; t < T; ++t) {
                k.rot[j][t][m] = terms[m].rot[j][t];
                k.mask[j][t][m] = terms[m].mask[j][t];
            }
            k.add[j][m] = terms[m].add[j];
        }
    return k;
}
// The rotate and mask terms of every move on s (the orientation words' adds
// are the generated caller's: their moduli differ by word). The rotate is
// written with shifts (a count of 0 gives x) so that it vectorises.
template <int W, int T, int MP>
inline void applyTermsToAll(const uint64_t* s, const MoveTermsByMove<W, T, MP>& k, AllMoves<W, MP>& out) {
    for (int j = 0; j < W; ++j) {
        const uint64_t x = s[j];
        for (int m = 0; m < MP; ++m) {
            uint64_t r = 0;
            for (int t = 0; t < T; ++t) {
                const uint64_t c = k.rot[j][t][m];
                r |= ((x << c) | (x >> ((64 - c) & 63))) & k.mask[j][t][m];
            }
            out.w[j][m] = r;
        }
    }
}

inline constexpr unsigned lane(uint64_t x, unsigned p) { return static_cast<unsigned>((x >> (4 * p)) & 0xF); }

// The 16 lanes of a word, one per byte, and back.
struct Lanes16 {
    alignas(16) uint8_t b[16];
};
inline Lanes16 unpackLanes(uint64_t x) {
    Lanes16 r;
    for (unsigned p = 0; p < 16; ++p) r.b[p] = static_cast<uint8_t>(lane(x, p));
    return r;
}
inline uint64_t packLanes(const Lanes16& l) {
    uint64_t x = 0;
    for (unsigned p = 0; p < 16; ++p) x |= static_cast<uint64_t>(l.b[p] & 0xF) << (4 * p);
    return x;
}

#if defined(__SSSE3__)
inline __m128i unpackLanesSse(uint64_t x) {
    const uint64_t lo = x & 0x0F0F0F0F0F0F0F0FULL, hi = (x >> 4) & 0x0F0F0F0F0F0F0F0FULL;
    return _mm_unpacklo_epi8(_mm_cvtsi64_si128(static_cast<long long>(lo)),
                             _mm_cvtsi64_si128(static_cast<long long>(hi)));
}
inline uint64_t packLanesSse(__m128i bytes) {
    // byte pairs (lo, hi) -> lo + 16*hi in 16-bit lanes, then narrow to bytes.
    __m128i pairs = _mm_maddubs_epi16(bytes, _mm_set1_epi16(0x1001));
    return static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)));
}
#endif

// r[p] = table[x[p]] for every lane: relabel lane values (table = a word
// whose lane v holds the new value of v).
inline uint64_t relabelLanes(uint64_t x, uint64_t table) {
#if defined(__SSSE3__)
    return packLanesSse(_mm_shuffle_epi8(unpackLanesSse(table), unpackLanesSse(x)));
#else
    uint64_t r = 0;
    for (unsigned p = 0; p < 16; ++p) r |= static_cast<uint64_t>(lane(table, lane(x, p))) << (4 * p);
    return r;
#endif
}

// r[p] = a[idx[p]] for the first `lanes` lanes (gather); other lanes are 0.
inline uint64_t gatherLanes(uint64_t a, uint64_t idx, unsigned lanes) {
    uint64_t used = lanes >= 16 ? ~0ULL : ((1ULL << (4 * lanes)) - 1);
    return relabelLanes(idx, a) & used;
}

// The inverse of a permutation held in the first `lanes` lanes.
inline uint64_t inverseLanes(uint64_t a, unsigned lanes) {
    uint64_t r = 0;
    for (unsigned p = 0; p < lanes; ++p) r |= static_cast<uint64_t>(p) << (4 * lane(a, p));
    return r;
}

inline uint64_t stateHash(const uint64_t* w, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n; ++i) {
        h ^= w[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

}  // namespace pz
