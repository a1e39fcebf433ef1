// pz/state.hpp — the representation of a permutation-puzzle state.
//
// A state is W machine words. Each field of an orbit (the piece labels, or
// the orientations) holds one lane per position: for orbits of at most 16
// positions (modulus <= 8) one word of 4-bit lanes (lane p = bits 4p..4p+3),
// the helpers below; larger orbits get several words of byte or 16-bit lanes
// (pz/lanes.hpp). pzc chooses this
// layout (see compiler/analysis/perm/state_layout.hpp); generated traits say which
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
    static constexpr int kWords = W;
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
inline constexpr Lanes16 unpackLanes(uint64_t x) {
    Lanes16 r{};
    for (unsigned p = 0; p < 16; ++p) r.b[p] = static_cast<uint8_t>(lane(x, p));
    return r;
}
inline uint64_t packLanes(const Lanes16& l) {
    uint64_t x = 0;
    for (unsigned p = 0; p < 16; ++p) x |= static_cast<uint64_t>(l.b[p] & 0xF) << (4 * p);
    return x;
}

// Note [byte-lane moves]
// ~~~~~~~~~~~~~~~~~~~~~~
// All moves at once computes every padded move's every word, children the
// automaton then throws away included (cube3: 24 moves x 4 words x 5 terms,
// about 57 ns a node on an AVX-512 box). A state of at most four words of
// 4-bit lanes spread to one byte a lane fits one 64-byte register, and a
// move is then a byte permute (AVX-512 VBMI vpermb) of it: the lanes each
// term rotates are a fixed source lane, so the terms give, per move, the
// source byte of each output byte, the bytes no term writes (zero), and the
// orientation adds; (a + b) mod m for bytes below m is min(a + b, a + b - m)
// (a permutation word's bytes get nothing added, so its modulus, 16, leaves
// them). A child is the node's bytes permuted, added to, reduced and packed
// back to lanes (one multiply-add and one narrowing): a few instructions,
// for the moves the automaton allows only. Built at compile time from the
// move terms (byteLaneMoves); a move whose rotates are not whole lanes
// leaves it unusable, and the search keeps every move at once. So does a
// state whose every-move-at-once pass is the cheaper one (`cheaper`: about 7
// vector instructions a term, a word and 8 moves there, about 9 a move
// here): slide4's one word of 3 terms takes 4 ns a node at once, 31 ns by
// byte permutes; cube3's 4 words of 5 terms 57 ns at once, 26 ns by
// permutes (scripts/bench_kernels.sh).
template <int MP>
struct ByteLaneMoves {
    bool usable = false;
    bool cheaper = false;  // than every move at once
    alignas(64) uint8_t source[MP][64]{};  // output byte 16j + p (word j, lane p) comes from this input byte
    alignas(64) uint8_t add[MP][64]{};
    alignas(64) uint8_t modulus[64]{};
    uint64_t written[MP]{};  // the output bytes some term writes
};
// moduli[j]: word j's orientation modulus (1: a permutation word).
template <int W, int T, int MP>
constexpr ByteLaneMoves<MP> byteLaneMoves(const MoveTermsByMove<W, T, MP>& k, const std::array<int, static_cast<size_t>(W)>& moduli) {
    ByteLaneMoves<MP> b{};
    if (W > 4) return b;
    for (int j = 0; j < W; ++j) {
        if (moduli[static_cast<size_t>(j)] < 1 || moduli[static_cast<size_t>(j)] > 15) return b;
        for (int p = 0; p < 16; ++p) b.modulus[16 * j + p] = static_cast<uint8_t>(moduli[static_cast<size_t>(j)] == 1 ? 16 : moduli[static_cast<size_t>(j)]);
    }
    for (int j = W; j < 4; ++j)
        for (int p = 0; p < 16; ++p) b.modulus[16 * j + p] = 16;
    for (int m = 0; m < MP; ++m)
        for (int j = 0; j < W; ++j) {
            for (int t = 0; t < T; ++t) {
                const uint64_t rot = k.rot[j][t][m], mask = k.mask[j][t][m];
                if (mask == 0) continue;
                if (rot % 4 != 0) return b;  // not a whole-lane rotate
                for (int p = 0; p < 16; ++p) {
                    const uint64_t lanes = mask >> (4 * p) & 0xF;
                    if (lanes == 0) continue;
                    if (lanes != 0xF) return b;  // part of a lane
                    const int q = 16 * j + p;
                    if (b.written[m] >> q & 1) return b;  // two terms write one lane
                    b.written[m] |= uint64_t{1} << q;
                    b.source[m][q] = static_cast<uint8_t>(16 * j + ((p - static_cast<int>(rot / 4)) % 16 + 16) % 16);
                }
            }
            const int mod = moduli[static_cast<size_t>(j)];
            for (int p = 0; p < 16; ++p) {
                const unsigned a = static_cast<unsigned>(k.add[j][m] >> (4 * p) & 0xF);
                if (mod == 1 ? a != 0 : a >= static_cast<unsigned>(mod)) return b;
                b.add[m][16 * j + p] = static_cast<uint8_t>(a);
            }
        }
    b.usable = true;
    int moves = 0;  // the real ones (the padding writes nothing)
    for (int m = 0; m < MP; ++m) moves += b.written[m] != 0;
    b.cheaper = 9 * moves < 7 * W * T * (MP / 8);
    return b;
}
// A state spread to one byte a lane (byte 16j + p = lane p of word j), and
// a move applied to it: with AVX-512 VBMI one register and a byte permute
// (kByteLaneMoveKernels: the search uses them), else a loop (tests).
#if defined(__AVX512VBMI__) && defined(__AVX512BW__)
inline constexpr bool kByteLaneMoveKernels = true;
using SpreadLanes = __m512i;
template <int W>
[[gnu::always_inline]] inline SpreadLanes spreadLanes(const State<W>& s) {
    static_assert(W >= 1 && W <= 4);
    // Plain loads and stores only: a masked store read back at once (the
    // child's words) is not forwarded, and cost slide4 six times its time.
    __m256i words;
    if constexpr (W == 4) {
        words = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.w.data()));
    } else if constexpr (W == 2) {
        words = _mm256_zextsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.w.data())));
    } else if constexpr (W == 1) {
        words = _mm256_zextsi128_si256(_mm_cvtsi64_si128(static_cast<long long>(s.w[0])));
    } else {
        words = _mm256_setr_epi64x(static_cast<long long>(s.w[0]), static_cast<long long>(s.w[1]), static_cast<long long>(s.w[2]), 0);
    }
    const __m512i v = _mm512_cvtepu8_epi16(words);  // byte i of the words -> the low byte of 16-bit element i
    return _mm512_or_si512(_mm512_and_si512(v, _mm512_set1_epi16(0x000F)),
                           _mm512_and_si512(_mm512_slli_epi16(v, 4), _mm512_set1_epi16(0x0F00)));
}
template <int W, int MP>
[[gnu::always_inline]] inline State<W> applyByteLaneMove(const ByteLaneMoves<MP>& k, SpreadLanes b, int m) {
    __m512i t = _mm512_maskz_permutexvar_epi8(k.written[m], _mm512_load_si512(k.source[m]), b);
    t = _mm512_add_epi8(t, _mm512_load_si512(k.add[m]));
    t = _mm512_min_epu8(t, _mm512_sub_epi8(t, _mm512_load_si512(k.modulus)));
    // byte pairs (lane 2i, lane 2i + 1) -> lane 2i + 16 * lane (2i + 1), narrowed to bytes.
    const __m256i words = _mm512_cvtepi16_epi8(_mm512_maddubs_epi16(t, _mm512_set1_epi16(0x1001)));
    State<W> r;
    if constexpr (W == 4) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(r.w.data()), words);
    } else if constexpr (W == 2) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(r.w.data()), _mm256_castsi256_si128(words));
    } else if constexpr (W == 1) {
        r.w[0] = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm256_castsi256_si128(words)));
    } else {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(r.w.data()), _mm256_castsi256_si128(words));
        r.w[2] = static_cast<uint64_t>(_mm256_extract_epi64(words, 2));
    }
    return r;
}
#else
inline constexpr bool kByteLaneMoveKernels = false;
struct SpreadLanes {
    uint8_t b[64];
};
template <int W>
inline SpreadLanes spreadLanes(const State<W>& s) {
    static_assert(W >= 1 && W <= 4);
    SpreadLanes r{};
    for (int j = 0; j < W; ++j) std::memcpy(r.b + 16 * j, unpackLanes(s.w[static_cast<size_t>(j)]).b, 16);
    return r;
}
template <int W, int MP>
inline State<W> applyByteLaneMove(const ByteLaneMoves<MP>& k, const SpreadLanes& b, int m) {
    State<W> r;
    for (int q = 0; q < 16 * W; ++q) {
        unsigned v = (k.written[m] >> q & 1) ? b.b[k.source[m][q]] : 0u;
        v += k.add[m][q];
        if (v >= k.modulus[q]) v -= k.modulus[q];
        r.w[static_cast<size_t>(q / 16)] |= static_cast<uint64_t>(v) << (4 * (q % 16));
    }
    return r;
}
#endif

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
