// pz/coord.hpp — coordinates: a pattern's view of a state as a dense index.
//
// A pattern tracks k pieces of an orbit of n positions (the tracked set is a
// bitmask of solved labels). Its coordinate is, as a mixed-radix number:
//   positions, ordered   : colex rank of the occupied positions (C(n,k)) * k!
//                          + Lehmer rank of the tracked pieces read in
//                          position order (a partial-permutation rank);
//   positions, unordered : the colex rank only (a combination);
//   orientations         : with positions, the tracked pieces' orientations
//                          (base m) in position order; without positions,
//                          the orientations at the tracked positions (base m,
//                          ascending). Without positions the orientation at a
//                          position is what a move's change depends on, so
//                          this is a coordinate (a move's image depends only
//                          on the value) when every move maps the tracked
//                          positions onto themselves (the compiler checks it;
//                          a piece's orientation wherever it is would not be:
//                          which twist it gets depends on where it is).
// Every coordinate has an unrank that builds a state (untracked lanes get the
// untracked labels in increasing order), so pruning tables are built by BFS
// over states: unrank, apply a move kernel, rank. The rank is the hot path of
// search: two byte shuffles, a movemask, a compress, a table read, and k
// popcount steps.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "pz/state.hpp"
#include "pz/support/startup_tables.hpp"

#if defined(__BMI2__) || defined(__AVX512VBMI2__)
#include <immintrin.h>
#endif

namespace pz {

inline constexpr uint64_t binomial(unsigned n, unsigned k) {
    if (k > n) return 0;
    uint64_t r = 1;
    for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}
inline constexpr uint64_t factorial(unsigned n) { return n <= 1 ? 1 : n * factorial(n - 1); }
inline constexpr uint64_t ipow(uint64_t b, unsigned e) { return e == 0 ? 1 : b * ipow(b, e - 1); }

// The orientation digits of a coordinate value, its least significant
// mixed-radix group: `stored` base-OriMod digits, most significant first,
// into digit[0 .. stored-1]; with SumFixed one more, digit[stored], implied
// (the digits sum to 0 mod OriMod). Returns the value without them.
template <unsigned OriMod, bool SumFixed>
inline uint64_t splitOrientationDigits(uint64_t r, unsigned stored, uint8_t* digit) {
    const uint64_t size = ipow(OriMod, stored);
    uint64_t o = r % size;
    unsigned sum = 0;
    for (unsigned i = stored; i-- > 0;) {
        digit[i] = static_cast<uint8_t>(o % OriMod);
        sum += digit[i];
        o /= OriMod;
    }
    if constexpr (SumFixed) digit[stored] = static_cast<uint8_t>((OriMod - sum % OriMod) % OriMod);
    return r / size;
}

// x / d for d in 1..64 when d divides x (the multiset ranks below divide
// counts of arrangements exactly): d = 2^s o with o odd, and x / d is
// (x >> s) times the inverse of o modulo 2^64, a multiply instead of a
// division (a 64-bit division was most of a labelled rank's time).
struct ExactDivisors {
    uint64_t inverse[65] = {};
    uint8_t shift[65] = {};
    constexpr ExactDivisors() {
        for (unsigned d = 1; d <= 64; ++d) {
            unsigned s = 0;
            uint64_t o = d;
            while (!(o & 1)) o >>= 1, ++s;
            uint64_t inv = o;  // Newton's iteration: each step doubles the correct low bits
            for (int i = 0; i < 6; ++i) inv *= 2 - o * inv;
            inverse[d] = inv;
            shift[d] = static_cast<uint8_t>(s);
        }
    }
};
inline constexpr ExactDivisors kExactDivisors{};
inline uint64_t divideExactly(uint64_t x, unsigned d) { return (x >> kExactDivisors.shift[d]) * kExactDivisors.inverse[d]; }

// Rank of a sequence of k labels among the `arrangements` arrangements of
// the multiset with count[l] pieces of label l (0 for labels not in it),
// lexicographic: for each place, the arrangements that put a smaller label
// there (arrangements left * count / places left of them) come first.
template <size_t L>
inline uint64_t multisetRank(const uint8_t* seq, std::array<uint8_t, L> count, unsigned k, uint64_t arrangements) {
    uint64_t m = arrangements, r = 0;
    for (unsigned i = 0; i < k; ++i) {
        const unsigned rem = k - i, v = seq[i];
        for (unsigned l = 0; l < v; ++l) r += divideExactly(m * count[l], rem);
        m = divideExactly(m * count[v], rem);
        --count[v];
    }
    return r;
}
// The sequence of rank r (multisetRank's inverse); labels below `labels`.
template <size_t L>
inline void multisetUnrank(uint64_t r, uint8_t* seq, std::array<uint8_t, L> count, unsigned k, unsigned labels,
                           uint64_t arrangements) {
    uint64_t m = arrangements;
    for (unsigned i = 0; i < k; ++i) {
        const unsigned rem = k - i;
        for (unsigned l = 0; l < labels; ++l) {
            const uint64_t block = divideExactly(m * count[l], rem);
            if (r < block) {
                seq[i] = static_cast<uint8_t>(l);
                m = block;
                --count[l];
                break;
            }
            r -= block;
        }
    }
}

// Colex rank of an n-bit mask with k bits set: sum over the i-th set bit
// (position p, i from 0) of C(p, i+1). Tabulated for the hot path.
template <unsigned N>
struct CombinationRanks {
    uint32_t* rank;                    // [mask] -> rank among masks of its popcount
    std::array<uint32_t*, N + 1> mask;  // [k][rank] -> mask (the unrank)
    // Built before main in every solver: one step a mask (the highest set
    // bit p of a k-bit mask adds C(p, k) to the rank of the rest), not one
    // a bit (16 times the work: 1.5 ms of a one-shot solve's start), in
    // start-up table memory (note [start-up tables]).
    CombinationRanks() : rank(startupTable<uint32_t>(size_t{1} << N)) {
        uint32_t choose[N + 1][N + 1] = {};
        for (unsigned p = 0; p <= N; ++p)
            for (unsigned k = 0; k <= N; ++k) choose[p][k] = static_cast<uint32_t>(binomial(p, k));
        for (unsigned k = 0; k <= N; ++k) mask[k] = startupTable<uint32_t>(binomial(N, k));
        mask[0][0] = 0;
        for (uint32_t m = 1; m < (uint32_t{1} << N); ++m) {
            const unsigned p = 31u - static_cast<unsigned>(std::countl_zero(m));
            const unsigned k = static_cast<unsigned>(std::popcount(m));
            const uint32_t r = rank[m ^ (1u << p)] + choose[p][k];
            rank[m] = r;
            mask[k][r] = m;
        }
    }
    static const CombinationRanks& get();
};
// One table per N, built before main (a global, not a function-local static:
// no initialisation guard on the hot path).
template <unsigned N>
inline const CombinationRanks<N> kCombinationRanks{};
template <unsigned N>
inline const CombinationRanks<N>& CombinationRanks<N>::get() {
    return kCombinationRanks<N>;
}

// Lehmer rank of `k` distinct values < k, value i in byte i of `v`.
inline uint64_t lehmerRank(const uint8_t* v, unsigned k) {
    uint64_t r = 0;
    uint32_t seen = 0;
    for (unsigned i = 0; i < k; ++i) {
        unsigned x = v[i];
        unsigned smallerSeen = static_cast<unsigned>(std::popcount(seen & ((1u << x) - 1)));
        seen |= 1u << x;
        r = r * (k - i) + (x - smallerSeen);
    }
    return r;
}
// The same rank without a serial multiply chain (k known at compile time):
// digit i = value minus the smaller values before it, weighted by (k-1-i)!.
template <unsigned K>
inline uint64_t lehmerRankFixed(const uint8_t* v) {
    uint64_t r = 0;
    uint32_t seen = 0;
    for (unsigned i = 0; i < K; ++i) {
        unsigned x = v[i];
        unsigned digit = x - static_cast<unsigned>(std::popcount(seen & ((1u << x) - 1)));
        seen |= 1u << x;
        r += digit * factorial(K - 1 - i);
    }
    return r;
}
inline void lehmerUnrank(uint64_t r, unsigned k, uint8_t* out) {
    uint8_t digit[16];
    for (unsigned i = k; i-- > 0;) {
        digit[i] = static_cast<uint8_t>(r % (k - i));
        r /= (k - i);
    }
    uint32_t used = 0;
    for (unsigned i = 0; i < k; ++i) {
        unsigned d = digit[i], x = 0;
        for (;; ++x)
            if (!(used >> x & 1) && d-- == 0) break;
        used |= 1u << x;
        out[i] = static_cast<uint8_t>(x);
    }
}

// The 16 low bits of v in reverse order (bit 0 <-> bit 15).
inline constexpr std::array<uint8_t, 256> kReversedBytes = [] {
    std::array<uint8_t, 256> t{};
    for (unsigned v = 0; v < 256; ++v)
        for (unsigned b = 0; b < 8; ++b) t[v] |= static_cast<uint8_t>((v >> b & 1) << (7 - b));
    return t;
}();
inline constexpr uint64_t reverseLow16(unsigned v) {
    return static_cast<uint64_t>(kReversedBytes[v & 0xFF]) << 8 | kReversedBytes[v >> 8 & 0xFF];
}

// note [orientation residues] (compiler/analysis/perm/coordinates.hpp): an orbit
// whose moves fix each piece's orientation modulo kStep by where it is. A
// generated residues type gives kStep and kOffset[piece * N + position],
// that residue; a part stores orientation / kStep and unrank adds it back.
struct NoOrientationResidues {
    static constexpr unsigned kStep = 1;
    static constexpr std::array<uint8_t, 1> kOffset{};
};

// The coordinate of one pattern part on one orbit (perm word + optional
// orientation word). Template parameters are the compile-time pattern.
//   N: positions; Tracked: bitmask of tracked solved labels; Ordered:
//   distinguish the tracked pieces; Positions: track where they are;
//   OriMod: track orientations modulo OriMod (1 = no).
//   OriSumFixed: every piece tracked and every move keeps the orbit's
//   orientation sum at 0 mod OriMod, so the last position's orientation is
//   implied and not stored (OriMod^(N-1) values, the cube corners' 3^7).
//   Residues: NoOrientationResidues, or the orbit's orientation residues
//   (a stored digit is orientation / kStep; unrank adds kOffset back).
template <unsigned N, uint32_t Tracked, bool Ordered, bool Positions, unsigned OriMod, bool OriSumFixed = false,
          class Residues = NoOrientationResidues>
struct PieceCoordinate {
    static constexpr unsigned kTracked = static_cast<unsigned>(std::popcount(Tracked));
    static_assert(!OriSumFixed || (OriMod > 1 && kTracked == N && N >= 2), "an implied orientation needs every piece tracked");
    static_assert(Residues::kStep == 1 || (Positions && Ordered && OriMod % Residues::kStep == 0),
                  "residues need an ordered positions part (which piece is where)");
    static constexpr unsigned kStep = Residues::kStep;
    static constexpr unsigned kDigit = OriMod / kStep;  // values of one stored orientation
    static constexpr unsigned kOriDigits = OriSumFixed ? kTracked - 1 : kTracked;
    static constexpr uint64_t kPositionSize =
        Positions ? binomial(N, kTracked) * (Ordered ? factorial(kTracked) : 1) : 1;
    static constexpr uint64_t kOrientSize = OriMod > 1 ? ipow(kDigit, kOriDigits) : 1;
    static constexpr uint64_t kSize = kPositionSize * kOrientSize;
    static constexpr uint32_t kFieldMask = N >= 32 ? ~0u : ((1u << N) - 1);

    // Byte v: index of label v among the tracked labels, or 0xFF.
    static constexpr std::array<uint8_t, 16> trackedIndex() {
        std::array<uint8_t, 16> t{};
        unsigned i = 0;
        for (unsigned v = 0; v < 16; ++v) t[v] = (Tracked >> v & 1) ? static_cast<uint8_t>(i++) : 0xFF;
        return t;
    }
    static constexpr std::array<uint8_t, 16> kIndex = trackedIndex();

    // The occupied-position mask and the tracked indices in position order.
#if defined(__SSSE3__)
    static inline uint32_t trackedInPositionOrder(__m128i lanes, uint8_t* out) {
        __m128i table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kIndex.data()));
        __m128i rel = _mm_shuffle_epi8(table, lanes);
        uint32_t occupied = ~static_cast<uint32_t>(_mm_movemask_epi8(rel)) & kFieldMask;
#if defined(__AVX512VBMI2__) && defined(__AVX512VL__)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                         _mm_maskz_compress_epi8(static_cast<__mmask16>(occupied), rel));
#else
        alignas(16) uint8_t bytes[16];
        _mm_store_si128(reinterpret_cast<__m128i*>(bytes), rel);
        unsigned j = 0;
        for (uint32_t m = occupied; m; m &= m - 1) out[j++] = bytes[std::countr_zero(m)];
#endif
        return occupied;
    }
    static inline uint32_t trackedInPositionOrder(uint64_t perm, uint8_t* out) {
        return trackedInPositionOrder(unpackLanesSse(perm), out);
    }
    // The rank from the labels already spread one per byte (positions only).
    static inline uint64_t rankBytes(__m128i lanes) requires(Positions && OriMod == 1) {
        alignas(16) uint8_t order[16];
        uint32_t occupied = trackedInPositionOrder(lanes, order);
        uint64_t r = CombinationRanks<N>::get().rank[occupied];
        if constexpr (Ordered) r = r * factorial(kTracked) + lehmerRankFixed<kTracked>(order);
        return r;
    }
#else
    static inline uint32_t trackedInPositionOrder(uint64_t perm, uint8_t* out) {
        uint32_t occupied = 0;
        unsigned j = 0;
        for (unsigned p = 0; p < N; ++p) {
            uint8_t t = kIndex[lane(perm, p)];
            if (t != 0xFF) {
                occupied |= 1u << p;
                out[j++] = t;
            }
        }
        return occupied;
    }
#endif

    // One stored bit a position (kDigit 2: edge flips, rotate4o's
    // orientations over their residue) and BMI2: the bits of `positions`
    // gathered by one pext, lowest position lowest, then reversed, since
    // the encoding reads positions in increasing order, the first most
    // significant. Otherwise a digit at a time.
#if defined(__BMI2__)
    static constexpr bool kBinaryDigits = kDigit == 2 && (kStep & (kStep - 1)) == 0;
#else
    static constexpr bool kBinaryDigits = false;
#endif
    static inline uint64_t orientationDigits(uint64_t ori, uint32_t positions, [[maybe_unused]] unsigned k) {
#if defined(__BMI2__)
        if constexpr (kBinaryDigits) {
            const uint64_t bits = _pext_u64(ori >> std::countr_zero(kStep), _pdep_u64(positions, 0x1111111111111111ULL));
            return reverseLow16(static_cast<unsigned>(bits)) >> (16 - k);
        }
#endif
        uint64_t o = 0;
        for (uint32_t m = positions; m; m &= m - 1) o = o * kDigit + lane(ori, std::countr_zero(m)) / kStep;
        return o;
    }

    static inline uint64_t rank(uint64_t perm, uint64_t ori) {
        uint64_t r = 0;
        alignas(16) uint8_t order[16];
        uint32_t occupied = 0;
        if constexpr (Positions) {
            occupied = trackedInPositionOrder(perm, order);
            r = CombinationRanks<N>::get().rank[occupied];
            if constexpr (Ordered) r = r * factorial(kTracked) + lehmerRankFixed<kTracked>(order);
        }
        if constexpr (OriSumFixed) {
            // Every position is tracked: the digits of positions 0..N-2.
            r = r * kOrientSize + orientationDigits(ori, (1u << (N - 1)) - 1, N - 1);
        } else if constexpr (OriMod > 1) {
            // Without positions kStep is 1 and kDigit OriMod.
            r = r * kOrientSize + orientationDigits(ori, Positions ? occupied : Tracked, kTracked);
        }
        return r;
    }

    // Writes a state of the orbit with this coordinate into perm / ori.
    static inline void unrank(uint64_t r, uint64_t& perm, uint64_t& ori) {
        uint8_t oriDigit[16] = {};
        // With residues the implied orientation is set once the pieces are placed.
        if constexpr (OriMod > 1) r = splitOrientationDigits<kDigit, OriSumFixed && kStep == 1>(r, kOriDigits, oriDigit);
        uint8_t trackedLabel[16], untrackedLabel[16];
        unsigned nt = 0, nu = 0;
        for (unsigned v = 0; v < N; ++v) (Tracked >> v & 1 ? trackedLabel[nt++] : untrackedLabel[nu++]) = static_cast<uint8_t>(v);
        perm = 0;
        ori = 0;
        if constexpr (Positions) {
            uint8_t order[16];
            if constexpr (Ordered) {
                lehmerUnrank(r % factorial(kTracked), kTracked, order);
                r /= factorial(kTracked);
            } else {
                for (unsigned i = 0; i < kTracked; ++i) order[i] = static_cast<uint8_t>(i);
            }
            uint32_t occupied = CombinationRanks<N>::get().mask[kTracked][r];
            unsigned i = 0, u = 0, sum = 0;
            for (unsigned p = 0; p < N; ++p) {
                if (occupied >> p & 1) {
                    const unsigned piece = trackedLabel[order[i]];
                    unsigned o = oriDigit[i];
                    if constexpr (kStep > 1) o = Residues::kOffset[piece * N + p] + kStep * o;
                    perm |= static_cast<uint64_t>(piece) << (4 * p);
                    ori |= static_cast<uint64_t>(o) << (4 * p);
                    sum += o;
                    ++i;
                } else {
                    perm |= static_cast<uint64_t>(untrackedLabel[u++]) << (4 * p);
                }
            }
            if constexpr (OriSumFixed && kStep > 1) {
                const uint64_t last = lane(ori, N - 1);
                ori ^= last << (4 * (N - 1));
                ori |= static_cast<uint64_t>((OriMod - (sum - last) % OriMod) % OriMod) << (4 * (N - 1));
            }
        } else {
            for (unsigned p = 0; p < N; ++p) perm |= static_cast<uint64_t>(p) << (4 * p);
            for (unsigned i = 0; i < nt; ++i) ori |= static_cast<uint64_t>(oriDigit[i]) << (4 * trackedLabel[i]);
        }
    }

    // note [parts on one orbit] (compiler/analysis/perm/coordinates.hpp): the
    // positions a value puts the tracked pieces at, so that a pattern can
    // tell which of its values are states (two parts' positions overlap).
    static inline uint64_t occupiedPositions(uint64_t r) requires Positions {
        r /= kOrientSize;
        if constexpr (Ordered) r /= factorial(kTracked);
        return CombinationRanks<N>::get().mask[kTracked][r];
    }
    // Unrank into a state whose piece lanes another part on this orbit
    // already wrote: the tracked pieces are swapped into their positions,
    // and their orientations set when this part tracks them. For a value
    // that is a state, no swap moves the other parts' pieces; the pieces
    // that move show orientation 0 (or the orientation lanes belong to an
    // orientations-only part, read by position), so those lanes stay.
    static inline void unrankMerged(uint64_t r, uint64_t& perm, uint64_t& ori) requires Positions {
        uint64_t p2 = 0, o2 = 0;
        unrank(r, p2, o2);
        for (unsigned t = 0; t < N; ++t) {
            const uint64_t piece = p2 >> (4 * t) & 0xF;
            if (!(Tracked >> piece & 1)) continue;
            unsigned c = 0;
            while ((perm >> (4 * c) & 0xF) != piece) ++c;
            if (c != t) {
                const uint64_t x = ((perm >> (4 * c)) ^ (perm >> (4 * t))) & 0xF;
                perm ^= (x << (4 * c)) | (x << (4 * t));
            }
            if constexpr (OriMod > 1) ori = (ori & ~(uint64_t{0xF} << (4 * t))) | (o2 & uint64_t{0xF} << (4 * t));
        }
    }
};

// The coordinate of one pattern part on an orbit with identical pieces
// (note [labelled lanes] in compiler/analysis/perm/state_layout.hpp): lanes hold
// labels, SolvedLanes is the solved colouring (lane p = label at p), and the
// part tracks every piece of the labels in TrackedLabels (a bitmask of
// labels), K pieces in all, c_l of label l. As a mixed-radix number:
//   the colex rank of the positions holding tracked labels (C(N,K)),
//   * Ordered: the rank of the tracked labels read in position order among
//     the K! / prod c_l! arrangements of that multiset (lexicographic),
//   * OriMod > 1: their orientations (base OriMod) in position order.
// Distances in a table over it are distances between distinct states.
template <unsigned N, uint64_t SolvedLanes, uint32_t TrackedLabels, bool Ordered, unsigned OriMod>
struct LabelCoordinate {
    static_assert(N <= 16);
    static constexpr std::array<uint8_t, 16> labelCounts() {
        std::array<uint8_t, 16> c{};
        for (unsigned p = 0; p < N; ++p) ++c[(SolvedLanes >> (4 * p)) & 0xF];
        return c;
    }
    static constexpr std::array<uint8_t, 16> kCounts = labelCounts();
    static constexpr unsigned trackedPieces() {
        unsigned k = 0;
        for (unsigned v = 0; v < 16; ++v)
            if (TrackedLabels >> v & 1) k += kCounts[v];
        return k;
    }
    static constexpr unsigned kTracked = trackedPieces();
    static constexpr uint64_t arrangements() {
        uint64_t a = factorial(kTracked);
        for (unsigned v = 0; v < 16; ++v)
            if (TrackedLabels >> v & 1) a /= factorial(kCounts[v]);
        return a;
    }
    static constexpr uint64_t kArrangements = Ordered ? arrangements() : 1;
    static constexpr uint64_t kPositionSize = binomial(N, kTracked) * kArrangements;
    static constexpr uint64_t kOrientSize = OriMod > 1 ? ipow(OriMod, kTracked) : 1;
    static constexpr uint64_t kSize = kPositionSize * kOrientSize;

    // The tracked labels' counts (0 for the others), for pz::multisetRank.
    static constexpr std::array<uint8_t, 16> trackedCounts() {
        std::array<uint8_t, 16> c{};
        for (unsigned v = 0; v < 16; ++v)
            if (TrackedLabels >> v & 1) c[v] = kCounts[v];
        return c;
    }
    static constexpr std::array<uint8_t, 16> kTrackedCounts = trackedCounts();

    static inline uint64_t rank(uint64_t perm, uint64_t ori) {
        uint8_t seq[16];
        uint32_t occupied = 0;
        unsigned j = 0;
        for (unsigned p = 0; p < N; ++p) {
            const unsigned v = lane(perm, p);
            if (TrackedLabels >> v & 1) {
                occupied |= 1u << p;
                seq[j++] = static_cast<uint8_t>(v);
            }
        }
        uint64_t r = CombinationRanks<N>::get().rank[occupied];
        if constexpr (Ordered) r = r * kArrangements + multisetRank(seq, kTrackedCounts, kTracked, kArrangements);
        if constexpr (OriMod > 1) {
            uint64_t o = 0;
            for (uint32_t m = occupied; m; m &= m - 1) o = o * OriMod + lane(ori, std::countr_zero(m));
            r = r * kOrientSize + o;
        }
        return r;
    }

    // A state of the orbit with this coordinate: tracked labels where the
    // rank says, the untracked pieces' labels in increasing order elsewhere.
    static inline void unrank(uint64_t r, uint64_t& perm, uint64_t& ori) {
        uint8_t oriDigit[16] = {};
        if constexpr (OriMod > 1) r = splitOrientationDigits<OriMod, false>(r, kTracked, oriDigit);
        uint8_t seq[16], rest[16];
        unsigned nt = 0, nu = 0;
        for (unsigned v = 0; v < 16; ++v)
            for (unsigned c = 0; c < kCounts[v]; ++c) (TrackedLabels >> v & 1 ? seq[nt++] : rest[nu++]) = static_cast<uint8_t>(v);
        if constexpr (Ordered) {
            multisetUnrank(r % kArrangements, seq, kTrackedCounts, kTracked, 16, kArrangements);
            r /= kArrangements;
        }
        const uint32_t occupied = CombinationRanks<N>::get().mask[kTracked][r];
        perm = 0;
        ori = 0;
        for (unsigned p = 0, i = 0, u = 0; p < N; ++p) {
            if (occupied >> p & 1) {
                perm |= static_cast<uint64_t>(seq[i]) << (4 * p);
                ori |= static_cast<uint64_t>(oriDigit[i]) << (4 * p);
                ++i;
            } else {
                perm |= static_cast<uint64_t>(rest[u++]) << (4 * p);
            }
        }
    }
};

}  // namespace pz
