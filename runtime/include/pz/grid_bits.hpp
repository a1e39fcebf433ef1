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

template <size_t N>
struct Bits {
    std::array<uint64_t, N> w{};

    constexpr Bits operator&(const Bits& o) const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] & o.w[i]; return r; }
    constexpr Bits operator|(const Bits& o) const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] | o.w[i]; return r; }
    constexpr Bits operator^(const Bits& o) const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = w[i] ^ o.w[i]; return r; }
    constexpr Bits operator~() const { Bits r; for (size_t i = 0; i < N; ++i) r.w[i] = ~w[i]; return r; }
    constexpr Bits& operator&=(const Bits& o) { return *this = *this & o; }
    constexpr Bits& operator|=(const Bits& o) { return *this = *this | o; }
    constexpr Bits& operator^=(const Bits& o) { return *this = *this ^ o; }
    constexpr bool any() const { uint64_t a = 0; for (size_t i = 0; i < N; ++i) a |= w[i]; return a != 0; }
    constexpr bool operator==(const Bits&) const = default;
    constexpr bool test(int cell) const { return (w[cell >> 6] >> (cell & 63)) & 1; }
    constexpr void set(int cell) { w[cell >> 6] |= uint64_t(1) << (cell & 63); }
};

// Moves every bit S cells up in index (S < 0: down). Bits leaving the board
// vanish; generated kernels only shift cells whose target is on the board.
template <int S, size_t N>
constexpr Bits<N> shifted(const Bits<N>& b) {
    Bits<N> r;
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

// note [grid keys]
// The closed set stores a key, not the bitboards. A colour's actors never
// appear or vanish, so with F floor cells and k actors of a colour its set
// is one of C(F, k): the colex rank sum_i C(f_i, i + 1) (f_0 < f_1 < ... the
// actors' floor indices) numbers it densely, and the colours combine in
// mixed radix. When colours * F <= 64 the floor bits themselves (pext) are
// cheaper and just as small. Either way the key is one u64, so a stored state
// costs 8 bytes of key plus its parent link.

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
