// pz/lanes.hpp — byte and 16-bit lane fields (orbits past 16 positions).
//
// A field of NL lanes of type L (uint8_t or uint16_t) occupies NL*sizeof(L)/8
// consecutive state words, lane p in bytes [p*sizeof(L), (p+1)*sizeof(L)) of
// the field (little-endian words). See compiler/analysis/perm/state_layout.hpp
// for the choice; padding lanes past the orbit's size are fixed points.
//
// The operations generated code composes:
//   permute(src, idx, dst)  dst[p] = src[idx[p]] (a move: idx a constant
//                           table; compose: idx the other state's labels);
//                           InBlocks when idx keeps lanes in their 16-byte
//                           blocks (one in-block pshufb);
//   addMod<M>(x, a)         x[p] = (x[p] + a[p]) mod M (orientations);
//   negMod<M>(x)            x[p] = (M - x[p]) mod M;
//   invert(src, dst)        dst[src[p]] = p.
// permute is one instruction for byte fields of 64 lanes with AVX-512 VBMI
// (vpermb zmm) and of 32 with VBMI + VL (vpermb ymm); two pshufb and a blend
// for 32 lanes with AVX2; one pshufb for 16 lanes with SSSE3; else (and
// always with PZ_PORTABLE_LANES defined) a loop over the index table. The
// path is chosen at compile time; kLanePath names it.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if !defined(PZ_PORTABLE_LANES) && (defined(__SSSE3__) || defined(__AVX2__) || defined(__AVX512VBMI__))
#include <immintrin.h>
#endif

namespace pz {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "lane fields assume little-endian words");

#if !defined(PZ_PORTABLE_LANES) && defined(__AVX512VBMI__) && defined(__AVX512VL__) && defined(__AVX512BW__)
#define PZ_LANES_VBMI 1
inline constexpr const char* kLanePath = "vpermb (AVX-512 VBMI)";
#elif !defined(PZ_PORTABLE_LANES) && defined(__AVX2__)
#define PZ_LANES_AVX2 1
inline constexpr const char* kLanePath = "pshufb (AVX2)";
#elif !defined(PZ_PORTABLE_LANES) && defined(__SSSE3__)
#define PZ_LANES_SSSE3 1
inline constexpr const char* kLanePath = "pshufb (SSSE3)";
#else
inline constexpr const char* kLanePath = "portable loop";
#endif

// Lane access that may alias the state's words.
typedef uint8_t LaneByte __attribute__((may_alias));
template <class L>
struct AliasOf;
template <>
struct AliasOf<uint8_t> {
    typedef uint8_t type __attribute__((may_alias));
};
template <>
struct AliasOf<uint16_t> {
    typedef uint16_t type __attribute__((may_alias));
};
template <class L>
using AliasLane = typename AliasOf<L>::type;

template <class L>
inline const AliasLane<L>* lanePtr(const uint64_t* w) { return reinterpret_cast<const AliasLane<L>*>(w); }
template <class L>
inline AliasLane<L>* lanePtr(uint64_t* w) { return reinterpret_cast<AliasLane<L>*>(w); }

#if defined(PZ_LANES_VBMI) || defined(PZ_LANES_AVX2)
// dst = op(src, idx) on one 256-bit vector of byte lanes.
template <class Op>
inline void bytes256(const LaneByte* src, const LaneByte* idx, LaneByte* dst, Op op) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    const __m256i i = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), op(v, i));
}
#endif

// Byte shuffle of a field of NL byte lanes: dst[p] = src[idx[p]] (idx[p] < NL).
template <unsigned NL>
inline void shuffleBytes(const LaneByte* src, const LaneByte* idx, LaneByte* dst) {
#if defined(PZ_LANES_VBMI)
    if constexpr (NL == 64) {
        __m512i v = _mm512_loadu_si512(src), i = _mm512_loadu_si512(idx);
        _mm512_storeu_si512(dst, _mm512_permutexvar_epi8(i, v));
        return;
    }
    if constexpr (NL == 32) {
        bytes256(src, idx, dst, [](__m256i v, __m256i i) { return _mm256_permutexvar_epi8(i, v); });
        return;
    }
#endif
#if defined(PZ_LANES_VBMI) || defined(PZ_LANES_AVX2)
    if constexpr (NL == 32) {
        // pshufb works within 128-bit halves: shuffle both halves of the
        // source broadcast to the whole register, pick by index bit 4.
        bytes256(src, idx, dst, [](__m256i v, __m256i i) {
            __m256i lo = _mm256_permute2x128_si256(v, v, 0x00), hi = _mm256_permute2x128_si256(v, v, 0x11);
            __m256i pick = _mm256_slli_epi16(i, 3);  // bit 4 -> bit 7 (indices < 32: nothing crosses a byte)
            return _mm256_blendv_epi8(_mm256_shuffle_epi8(lo, i), _mm256_shuffle_epi8(hi, i), pick);
        });
        return;
    }
#endif
#if defined(PZ_LANES_VBMI) || defined(PZ_LANES_AVX2) || defined(PZ_LANES_SSSE3)
    if constexpr (NL == 16) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
        __m128i i = _mm_loadu_si128(reinterpret_cast<const __m128i*>(idx));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_shuffle_epi8(v, i));
        return;
    }
#endif
    uint8_t t[NL];
    for (unsigned p = 0; p < NL; ++p) t[p] = src[idx[p]];
    std::memcpy(dst, t, NL);
}

// shuffleBytes for a table whose every index stays in its lane's 16-byte
// block (idx[p] / 16 == p / 16; checked by the code generator, which picks
// this per move: compiler/codegen/perm/kernels.cpp). One in-block pshufb
// (1 cycle of latency) where vpermb takes 3 and the AVX2 path two pshufb
// and a blend; pshufb reads each index's low 4 bits, its byte in the block.
template <unsigned NL>
inline void shuffleBytesInBlocks(const LaneByte* src, const LaneByte* idx, LaneByte* dst) {
#if defined(PZ_LANES_VBMI)
    if constexpr (NL == 64) {
        _mm512_storeu_si512(dst, _mm512_shuffle_epi8(_mm512_loadu_si512(src), _mm512_loadu_si512(idx)));
        return;
    }
#endif
#if defined(PZ_LANES_VBMI) || defined(PZ_LANES_AVX2)
    if constexpr (NL == 32) {
        bytes256(src, idx, dst, [](__m256i v, __m256i i) { return _mm256_shuffle_epi8(v, i); });
        return;
    }
#endif
    shuffleBytes<NL>(src, idx, dst);
}

// Bit p set where x[p] == value, over a field of NL byte lanes (one compare
// and mask where the vector path has one).
template <unsigned NL>
inline uint64_t bytesEqualMask(const LaneByte* x, uint8_t value) {
#if defined(PZ_LANES_VBMI)
    if constexpr (NL == 64) return _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(x), _mm512_set1_epi8(static_cast<char>(value)));
#endif
#if defined(PZ_LANES_VBMI) || defined(PZ_LANES_AVX2)
    if constexpr (NL == 32) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x));
        return static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(static_cast<char>(value)))));
    }
#endif
#if defined(PZ_LANES_VBMI) || defined(PZ_LANES_AVX2) || defined(PZ_LANES_SSSE3)
    if constexpr (NL == 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x));
        return static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(value)))));
    }
#endif
    uint64_t m = 0;
    for (unsigned p = 0; p < NL; ++p) m |= static_cast<uint64_t>(x[p] == value) << p;
    return m;
}

// dst[p] = src[idx[p]] over a field of NL lanes of type L; idx is a table of
// lanes (a move) or another field (compose).
template <class L, unsigned NL, class I>
inline void permuteLanes(const uint64_t* src, const I* idx, uint64_t* dst) {
    if constexpr (sizeof(L) == 1) {
        shuffleBytes<NL>(lanePtr<L>(src), reinterpret_cast<const LaneByte*>(idx), lanePtr<L>(dst));
    } else {
        const auto* s = lanePtr<L>(src);
        const auto* i = reinterpret_cast<const AliasLane<L>*>(idx);
        L t[NL];
        for (unsigned p = 0; p < NL; ++p) t[p] = s[i[p]];
        std::memcpy(dst, t, sizeof t);
    }
}

// permuteLanes for byte lanes by a table that keeps every lane in its
// 16-byte block (shuffleBytesInBlocks).
template <class L, unsigned NL, class I>
inline void permuteLanesInBlocks(const uint64_t* src, const I* idx, uint64_t* dst) {
    static_assert(sizeof(L) == 1, "in-block shuffles are for byte lanes");
    shuffleBytesInBlocks<NL>(lanePtr<L>(src), reinterpret_cast<const LaneByte*>(idx), lanePtr<L>(dst));
}

// x[p] = (x[p] + a[p]) mod M, lanes < M (M <= 128 for bytes, 256 for 16-bit
// lanes: the sum fits a lane). One add and a min(s, s - M) per vector.
template <class L, unsigned NL, unsigned M, class A>
inline void addModLanes(uint64_t* x, const A* a) {
    auto* v = lanePtr<L>(x);
    const auto* d = reinterpret_cast<const AliasLane<L>*>(a);
    if constexpr (M == 1) {
        return;
    } else if constexpr ((NL & (NL - 1)) == 0 && NL * sizeof(L) <= 64) {
        typedef L Vec __attribute__((vector_size(NL * sizeof(L))));
        Vec s, t;
        std::memcpy(&s, v, sizeof s);
        std::memcpy(&t, d, sizeof t);
        s += t;
        t = s - static_cast<L>(M);
        s = t < s ? t : s;  // unsigned: s - M wraps above s exactly when s < M
        std::memcpy(v, &s, sizeof s);
    } else {
        for (unsigned p = 0; p < NL; ++p) {
            unsigned s = static_cast<unsigned>(v[p]) + d[p];
            v[p] = static_cast<L>(s >= M ? s - M : s);
        }
    }
}

// x[p] = (M - x[p]) mod M.
template <class L, unsigned NL, unsigned M>
inline void negModLanes(uint64_t* x) {
    auto* v = lanePtr<L>(x);
    for (unsigned p = 0; p < NL; ++p) v[p] = static_cast<L>(v[p] == 0 ? 0 : M - v[p]);
}

// dst[src[p]] = p: the inverse permutation (padding lanes stay fixed).
template <class L, unsigned NL>
inline void invertLanes(const uint64_t* src, uint64_t* dst) {
    const auto* s = lanePtr<L>(src);
    L t[NL];
    for (unsigned p = 0; p < NL; ++p) t[s[p]] = static_cast<L>(p);
    std::memcpy(dst, t, sizeof t);
}

// Lane p of a field of `bits`-bit lanes (4, 8 or 16) starting at word w.
// Lanes never straddle words (bits divides 64), so the lane's first bit
// p * bits locates it without a division.
inline unsigned fieldLane(const uint64_t* w, int bits, int p) {
    const unsigned at = static_cast<unsigned>(bits * p);
    return static_cast<unsigned>((w[at >> 6] >> (at & 63)) & ((1ULL << bits) - 1));
}
inline void setFieldLane(uint64_t* w, int bits, int p, unsigned v) {
    const unsigned at = static_cast<unsigned>(bits * p), shift = at & 63;
    const uint64_t mask = ((1ULL << bits) - 1) << shift;
    w[at >> 6] = (w[at >> 6] & ~mask) | (static_cast<uint64_t>(v) << shift & mask);
}

}  // namespace pz
