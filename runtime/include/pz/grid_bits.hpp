// Bitboards for grid-actor puzzles: one bit per board cell (index
// y * width + x, y = 0 the bottom row), N 64-bit words for boards of up to
// 64 * N cells. Generated kernels (see compiler/codegen/grid/) move
// all actors of a colour with one shifted<S>() and a few masks; for N = 1
// every operation is a single machine instruction.
//
// Also here: the compact keys the closed set stores (pext of the floor
// cells, floor indices or a colex rank per colour), see note [grid keys];
// and the byte rows of the heuristic, see note [grid distance rows].
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <utility>

#if defined(__BMI__) || defined(__BMI2__) || defined(__AVX__) || defined(__SSE4_1__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace pz::grid {

namespace detail {
// The words of a bitboard. Two to four words are one SIMD vector (the
// GCC/Clang vector extension; lanes past N stay zero), so each board
// operation of a kernel is one instruction on all words at once and a
// multi-word shift is a lane shuffle plus two shifts (measured on 12x12
// levels: the kernels' share of a search fell from ~30% to ~10%). Other
// sizes are plain arrays.
template <size_t N>
struct WordsOf {
    using type = std::array<uint64_t, N>;
    static constexpr size_t kLanes = N;
    static constexpr bool kVector = false;
};
template <>
struct WordsOf<2> {
    typedef uint64_t type __attribute__((vector_size(16)));
    static constexpr size_t kLanes = 2;
    static constexpr bool kVector = true;
};
template <size_t N>
    requires(N == 3 || N == 4)
struct WordsOf<N> {
    typedef uint64_t type __attribute__((vector_size(32)));
    static constexpr size_t kLanes = 4;
    static constexpr bool kVector = true;
};
}  // namespace detail

// Default construction leaves the words uninitialised (search buffers are
// not zeroed on every expansion); Bits{} and State{} are all zero.
template <size_t N>
struct Bits {
    using Words = typename detail::WordsOf<N>::type;
    static constexpr bool kVector = detail::WordsOf<N>::kVector;
    static constexpr size_t kLanes = detail::WordsOf<N>::kLanes;
    Words w;

    constexpr Bits operator&(const Bits& o) const {
        if constexpr (kVector) return Bits{w & o.w};
        Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] & o.w[i]; return r;
    }
    constexpr Bits operator|(const Bits& o) const {
        if constexpr (kVector) return Bits{w | o.w};
        Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] | o.w[i]; return r;
    }
    constexpr Bits operator^(const Bits& o) const {
        if constexpr (kVector) return Bits{w ^ o.w};
        Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] ^ o.w[i]; return r;
    }
    constexpr Bits operator~() const {
        Bits r{};
        for (size_t i = 0; i < N; ++i) r.w[i] = ~w[i];  // lanes past N stay zero
        return r;
    }
    constexpr Bits& operator&=(const Bits& o) { return *this = *this & o; }
    constexpr Bits& operator|=(const Bits& o) { return *this = *this | o; }
    constexpr Bits& operator^=(const Bits& o) { return *this = *this ^ o; }
    bool any() const {
#if defined(__AVX__)
        if constexpr (kVector && kLanes == 4) return !_mm256_testz_si256((__m256i)w, (__m256i)w);
#endif
#if defined(__SSE4_1__)
        if constexpr (kVector && kLanes == 2) return !_mm_testz_si128((__m128i)w, (__m128i)w);
#endif
        uint64_t a = 0;
        for (size_t i = 0; i < N; ++i) a |= w[i];
        return a != 0;
    }
    bool operator==(const Bits& o) const {
        if constexpr (kVector) return !(*this ^ o).any();
        for (size_t i = 0; i < N; ++i)
            if (w[i] != o.w[i]) return false;
        return true;
    }
    int count() const { int c = 0; for (size_t i = 0; i < N; ++i) c += __builtin_popcountll(w[i]); return c; }
    bool test(int cell) const { return (w[cell >> 6] >> (cell & 63)) & 1; }
    void set(int cell) { w[cell >> 6] |= uint64_t(1) << (cell & 63); }
};

namespace detail {
// Lane i of a shuffle of (v, zero) that reads word i + d of v, or zero when
// that word is outside 0..N-1. A lane past N reads itself: it is zero in
// every board, and a lane that stays in place lets d = 0 be no shuffle at
// all (Bits<3> has one such lane; zeroing it explicitly cost three
// instructions per shift of a 12x12 kernel).
template <size_t N, size_t L>
constexpr int laneFrom(int i, int d) {
    const int from = i + d;
    if (i >= (int)N) return i;
    return from >= 0 && from < (int)N ? from : (int)L;
}
template <size_t N, int D, class V, int... I>
inline V lanesFrom(V v, std::integer_sequence<int, I...>) {
    constexpr size_t L = sizeof...(I);
    const V zero{};
    return __builtin_shufflevector(v, zero, laneFrom<N, L>(I, D)...);
}
}  // namespace detail

// Moves every bit S cells up in index (S < 0: down). Bits leaving the board
// vanish; generated kernels only shift cells whose target is on the board.
template <int S, size_t N>
inline Bits<N> shifted(const Bits<N>& b) {
    if constexpr (S == 0) {
        return b;
    } else if constexpr (Bits<N>::kVector) {
        // Lane i = word i - words (S > 0) shifted, plus the carry from the word below it.
        constexpr int words = (S > 0 ? S : -S) / 64, bits = (S > 0 ? S : -S) % 64;
        constexpr int d = S > 0 ? -words : words, carry = S > 0 ? -words - 1 : words + 1;
        using Seq = std::make_integer_sequence<int, (int)Bits<N>::kLanes>;
        const auto main = detail::lanesFrom<N, d>(b.w, Seq{});
        if constexpr (bits == 0) {
            return Bits<N>{main};
        } else {
            const auto next = detail::lanesFrom<N, carry>(b.w, Seq{});
            if constexpr (S > 0)
                return Bits<N>{(main << bits) | (next >> (64 - bits))};
            else
                return Bits<N>{(main >> bits) | (next << (64 - bits))};
        }
    } else if constexpr (S > 0) {
        Bits<N> r{};
        constexpr int words = S / 64, bits = S % 64;
        for (int i = (int)N - 1; i >= words; --i) {
            uint64_t v = b.w[i - words] << bits;
            if constexpr (bits != 0) {
                if (i - words - 1 >= 0) v |= b.w[i - words - 1] >> (64 - bits);
            }
            r.w[i] = v;
        }
        return r;
    } else {
        Bits<N> r{};
        constexpr int words = (-S) / 64, bits = (-S) % 64;
        for (int i = 0; i + words < (int)N; ++i) {
            uint64_t v = b.w[i + words] >> bits;
            if constexpr (bits != 0) {
                if (i + words + 1 < (int)N) v |= b.w[i + words + 1] << (64 - bits);
            }
            r.w[i] = v;
        }
        return r;
    }
}

// Gathers the bits of `value` selected by `mask` into the low bits.
inline uint64_t extractBits(uint64_t value, uint64_t mask) {
#if defined(__BMI2__)
    return _pext_u64(value, mask);
#else
    uint64_t r = 0;
    for (uint64_t bit = 1; mask; bit <<= 1, mask &= mask - 1)
        if (value & mask & -mask) r |= bit;
    return r;
#endif
}

// Scatters the low bits of `value` to the positions selected by `mask`.
inline uint64_t depositBits(uint64_t value, uint64_t mask) {
#if defined(__BMI2__)
    return _pdep_u64(value, mask);
#else
    uint64_t r = 0;
    for (uint64_t bit = 1; mask; bit <<= 1, mask &= mask - 1)
        if (value & bit) r |= mask & -mask;
    return r;
#endif
}

// note [grid actor lists]
// A colour's actors as floor indices, ascending, one per byte of a 16-byte
// vector (lanes past the actor count are 0), for the key fields and the
// distance rows. FloorIndexBytes holds the floor index of each board cell.
// With AVX-512 VBMI2 each board word is one vpcompressb of its 64 cells'
// indices by the word itself, and the words' lists are joined with a byte
// shuffle: no loop over actors and no branch (on 12x12 levels this replaced
// about 150 of the 250 instructions that packing and the heuristic took
// per state). Elsewhere K fixed steps each take the lowest set bit of the
// first non-empty word, also without data-dependent branches.
template <size_t N>
struct alignas(64) FloorIndexBytes {
    uint8_t at[64 * N];
};
typedef uint8_t ActorList __attribute__((vector_size(16)));
template <size_t K, size_t N>
inline ActorList actorList(const Bits<N>& board, const FloorIndexBytes<N>& index) {
    static_assert(K >= 1 && K <= 16, "an actor list holds 1 to 16 actors");
#if defined(__AVX512VBMI2__) && defined(__AVX512BW__)
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m128i list = _mm_setzero_si128();
    int count = 0;
    for (size_t w = 0; w < N; ++w) {
        const uint64_t cells = board.w[w];
        const __m512i indices = _mm512_load_si512((const void*)(index.at + 64 * w));
        const __m128i part = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(cells, indices));
        // lane i of the shuffle reads part[i - count]; lanes below count get an
        // index with the top bit set, which pshufb turns into 0
        list = w == 0 ? part : _mm_or_si128(list, _mm_shuffle_epi8(part, _mm_sub_epi8(iota, _mm_set1_epi8((char)count))));
        count += __builtin_popcountll(cells);
    }
    return (ActorList)list;
#else
    uint64_t words[N];
    for (size_t w = 0; w < N; ++w) words[w] = board.w[w];
    ActorList list{};
    for (size_t a = 0; a < K; ++a) {
        size_t w = N - 1;  // the first non-empty word (select chain, no branch)
        for (size_t j = N - 1; j-- > 0;) w = words[j] ? j : w;
        const uint64_t cells = words[w];
        list[a] = index.at[64 * w + (size_t)__builtin_ctzll(cells)];
        words[w] = cells & (cells - 1);
    }
    return list;
#endif
}
// Bytes 0-7 and 8-15 of an actor list as words (byte a at bits 8a..8a+7).
inline uint64_t lowBytes(ActorList list) {
    uint64_t w;
    __builtin_memcpy(&w, &list, 8);
    return w;
}
inline uint64_t highBytes(ActorList list) {
    uint64_t w;
    __builtin_memcpy(&w, (const char*)&list + 8, 8);
    return w;
}

// note [grid distance rows]
// The heuristic is the max over goals of the nearest same-coloured actor's
// distance. With at most 16 goals, a floor cell's distances to every goal
// are one 16-byte row (255 = unreachable; 0 in the bytes of goals of other
// colours), so a colour's nearest-actor distances are the bytewise min of
// its actors' rows and h is the largest byte of the bytewise max over
// colours: a load and a min per actor, no branches (the ring scan it
// replaced mispredicted several times per state).
typedef uint8_t DistanceRow __attribute__((vector_size(16)));
inline DistanceRow minRow(DistanceRow a, DistanceRow b) { return a < b ? a : b; }
inline DistanceRow maxRow(DistanceRow a, DistanceRow b) { return a > b ? a : b; }
// The largest of the first G bytes (the rest are 0): log2(G) shuffle-max
// steps, the end of the heuristic's dependency chain.
template <int G = 16>
inline int largestByte(DistanceRow v) {
    static_assert(G >= 1 && G <= 16, "a distance row has 16 bytes");
    if constexpr (G > 8) v = maxRow(v, __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
    if constexpr (G > 4) v = maxRow(v, __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3));
    if constexpr (G > 2) v = maxRow(v, __builtin_shufflevector(v, v, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1));
    if constexpr (G > 1) v = maxRow(v, __builtin_shufflevector(v, v, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0));
    return v[0];
}
inline constexpr int kUnreachableByte = 255;

// note [grid keys]
// The closed set stores a key, not the bitboards. A colour's actors never
// appear or vanish, so with F floor cells and k actors of a colour its set
// is one of C(F, k). Each colour becomes one bit field of a u64 key, in the
// cheapest form that lets every field fit (note [grid key parts] in
// compiler/codegen/grid/): its floor bits (pext, F bits), its
// actors' floor indices (k * ceil(log2 F) bits), or its colex rank
// sum_i C(f_i, i + 1) over the sorted floor indices f_0 < f_1 < ...
// (ceil(log2 C(F, k)) bits). A stored state then costs 8 bytes of key plus
// its parent link; only when no choice fits are the bitboards the key.

// note [grid colex tables]
// Binomial coefficients C(n, k) for n < Rows (a power of two above the
// floor cell count), k <= K, saturating at 2^64 - 1, stored per k so that
// unranking can compare a rank with a run of them at once. largest(i,
// rank), the largest n with C(n, i) <= rank, is a count: C(n, i) does not
// decrease in n and C(0, i) = 0. With AVX-512 it is one compare of the
// rank with every 16th coefficient and one with the 16 of the run found,
// instead of log2(Rows) dependent table reads (a colex-keyed 12x12 level
// spent a fifth of its search in that binary search); elsewhere it is the
// binary search.
template <int Rows, int K>
struct ColexTable {
    static_assert(Rows >= 2 && (Rows & (Rows - 1)) == 0, "rows: a power of two");
    static constexpr int kRun = 16;
    static constexpr int kPadded = Rows < kRun ? kRun : Rows;  // whole runs of 16
    static constexpr int kRuns = kPadded / kRun;
    static_assert(kRuns <= 16, "at most 256 rows");
    alignas(64) uint64_t at[K + 1][kPadded]{};
    alignas(64) uint64_t runStart[K + 1][16]{};  // C(16 j, k); 2^64 - 1 past the last run

    constexpr ColexTable() {
        constexpr uint64_t kMax = ~uint64_t(0);
        for (int n = 0; n < kPadded; ++n) {
            for (int k = 0; k <= K; ++k) {
                if (n >= Rows) { at[k][n] = kMax; continue; }
                if (k == 0) { at[k][n] = 1; continue; }
                if (n == 0) { at[k][n] = 0; continue; }
                const uint64_t x = at[k - 1][n - 1], y = at[k][n - 1];
                at[k][n] = x > kMax - y ? kMax : x + y;
            }
        }
        for (int k = 0; k <= K; ++k)
            for (int j = 0; j < 16; ++j) runStart[k][j] = j < kRuns ? at[k][kRun * j] : kMax;
    }
    constexpr uint64_t operator()(int n, int k) const { return at[k][n]; }

    // The largest n < Rows with C(n, i) <= rank, for 1 <= i <= K.
    int largest(int i, uint64_t rank) const {
#if defined(__AVX512F__)
        const __m512i r = _mm512_set1_epi64((long long)rank);
        const int run = __builtin_popcount(_mm512_cmple_epu64_mask(_mm512_load_si512(runStart[i]), r)) +
                        __builtin_popcount(_mm512_cmple_epu64_mask(_mm512_load_si512(runStart[i] + 8), r)) - 1;
        const uint64_t* c = at[i] + kRun * run;
        return kRun * run + __builtin_popcount(_mm512_cmple_epu64_mask(_mm512_load_si512(c), r)) +
               __builtin_popcount(_mm512_cmple_epu64_mask(_mm512_load_si512(c + 8), r)) - 1;
#else
        int n = 0;
        for (int step = Rows / 2; step; step >>= 1) n += step & -(int)(at[i][n + step] <= rank);
        return n;
#endif
    }
};

}  // namespace pz::grid

namespace pz::grid {
// Bumped when generated grid code must be regenerated.
inline constexpr int kGridAbiVersion = 1;

// The levels of one generated translation unit (their Space types).
template <class... Spaces>
struct LevelList {};
}  // namespace pz::grid
