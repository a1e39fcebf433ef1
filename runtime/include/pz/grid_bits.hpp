// Bitboards for grid-actor puzzles: one bit per board cell (index
// y * width + x, y = 0 the bottom row), N 64-bit words for boards of up to
// 64 * N cells. Generated kernels (see compiler/codegen/grid_emit.cpp) move
// all actors of a colour with one shifted<S>() and a few masks; for N = 1
// every operation is a single machine instruction.
//
// Also here: the compact keys the closed set stores (pext of the floor
// cells, or a colex rank of each colour's actor set), see note [grid keys].
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace pz::grid {

// Default construction leaves the words uninitialised (search buffers are
// not zeroed on every expansion); Bits{} and State{} are all zero.
template <size_t N>
struct Bits {
    std::array<uint64_t, N> w;

    constexpr Bits operator&(const Bits& o) const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] & o.w[i]; return r; }
    constexpr Bits operator|(const Bits& o) const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] | o.w[i]; return r; }
    constexpr Bits operator^(const Bits& o) const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] ^ o.w[i]; return r; }
    constexpr Bits operator~() const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = ~w[i]; return r; }
    constexpr Bits& operator&=(const Bits& o) { return *this = *this & o; }
    constexpr Bits& operator|=(const Bits& o) { return *this = *this | o; }
    constexpr Bits& operator^=(const Bits& o) { return *this = *this ^ o; }
    constexpr bool any() const { uint64_t a = 0; for (size_t i = 0; i < N; ++i) a |= w[i]; return a != 0; }
    constexpr bool operator==(const Bits&) const = default;
    constexpr int count() const { int c = 0; for (size_t i = 0; i < N; ++i) c += __builtin_popcountll(w[i]); return c; }
    constexpr bool test(int cell) const { return (w[cell >> 6] >> (cell & 63)) & 1; }
    constexpr void set(int cell) { w[cell >> 6] |= uint64_t(1) << (cell & 63); }
};

// Moves every bit S cells up in index (S < 0: down). Bits leaving the board
// vanish; generated kernels only shift cells whose target is on the board.
template <int S, size_t N>
constexpr Bits<N> shifted(const Bits<N>& b) {
    Bits<N> r{};
    if constexpr (S == 0) {
        return b;
    } else if constexpr (S > 0) {
        constexpr int words = S / 64, bits = S % 64;
        for (int i = (int)N - 1; i >= words; --i) {
            uint64_t v = b.w[i - words] << bits;
            if constexpr (bits != 0) {
                if (i - words - 1 >= 0) v |= b.w[i - words - 1] >> (64 - bits);
            }
            r.w[i] = v;
        }
    } else {
        constexpr int words = (-S) / 64, bits = (-S) % 64;
        for (int i = 0; i + words < (int)N; ++i) {
            uint64_t v = b.w[i + words] >> bits;
            if constexpr (bits != 0) {
                if (i + words + 1 < (int)N) v |= b.w[i + words + 1] << (64 - bits);
            }
            r.w[i] = v;
        }
    }
    return r;
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

// The index of the lowest set bit of a non-zero set (branch-free).
inline int lowestBit(uint64_t b) { return __builtin_ctzll(b); }
inline int lowestBit(unsigned __int128 b) {
    const uint64_t lo = (uint64_t)b, hi = (uint64_t)(b >> 64);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi);
}

// note [grid keys]
// The closed set stores a key, not the bitboards. A colour's actors never
// appear or vanish, so with F floor cells and k actors of a colour its set
// is one of C(F, k): the colex rank sum_i C(f_i, i + 1) (f_0 < f_1 < ... the
// actors' floor indices) numbers it densely, and the colours combine in
// mixed radix. Cheaper forms are chosen first when they fit: the floor bits
// themselves (pext) when colours * F <= 64, else the actors' floor indices
// side by side when actors * ceil(log2 F) <= 64. Either way the key is one
// u64, so a stored state costs 8 bytes of key plus its parent link; only when
// even the rank overflows are the bitboards themselves the key.

// Binomial coefficients C(n, k) for n <= F, k <= K, saturating at 2^64 - 1.
template <int F, int K>
struct Binomials {
    std::array<std::array<uint64_t, K + 1>, F + 1> c{};
    constexpr Binomials() {
        for (int n = 0; n <= F; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= K; ++k) {
                if (n == 0) { c[n][k] = 0; continue; }
                uint64_t a = c[n - 1][k - 1], b = c[n - 1][k];
                c[n][k] = a > ~uint64_t(0) - b ? ~uint64_t(0) : a + b;
            }
        }
    }
    constexpr uint64_t operator()(int n, int k) const { return c[n][k]; }
};

}  // namespace pz::grid

namespace pz::grid {
// Bumped when generated grid code must be regenerated.
inline constexpr int kGridAbiVersion = 1;

// The levels of one generated translation unit (their Space types).
template <class... Spaces>
struct LevelList {};
}  // namespace pz::grid
