// pz/lane_coord.hpp — pattern coordinates over byte-lane fields (orbits of
// 17..64 positions; see pz/lanes.hpp). The encoding is exactly the one of
// pz/coord.hpp (colex rank of the occupied positions, Lehmer rank of the
// tracked pieces in position order, orientations in base M), so a table does
// not depend on the layout; only the reads differ: the tracked-index lookup
// is one byte shuffle of a constant table by the labels, the colex rank sums
// k binomials from a table (no 2^N table: N is up to 64).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "pz/coord.hpp"
#include "pz/lanes.hpp"

namespace pz {

// C(n, k) for n, k <= 64 (C(64, 32) < 2^63).
struct BinomialTable {
    uint64_t c[65][65] = {};
    constexpr BinomialTable() {
        for (int n = 0; n <= 64; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
        }
    }
};
inline constexpr BinomialTable kBinomials{};

// Colex rank of a mask of k set bits: sum over the i-th set bit p of C(p, i+1).
// It does not depend on how many positions there are, so one table of every
// 16-bit mask (128 KiB; ranks below C(16, 8) = 12870) serves every set of up
// to 16 positions: a coset pattern's lookup ranks memberships at every node,
// where the loop of dependent additions was the largest cost (cube3's h48h3).
// Built at start-up by a function that is not constexpr: as a
// constexpr lambda the compiler evaluated it while compiling every solver
// (4 of a solver's 12 s of g++ time).
// One step a mask: the highest set bit p of a k-bit mask adds C(p, k) to
// the rank of the rest (a term a bit was 1.5 ms of every solver's start).
// In start-up table memory (note [start-up tables]).
inline const uint16_t* makeColexRank16() {
    uint16_t* t = startupTable<uint16_t>(size_t{1} << 16);
    for (uint32_t m = 1; m < (uint32_t{1} << 16); ++m) {
        const unsigned p = 31u - static_cast<unsigned>(std::countl_zero(m));
        t[m] = static_cast<uint16_t>(t[m ^ (1u << p)] + kBinomials.c[p][std::popcount(m)]);
    }
    return t;
}
inline const uint16_t* const kColexRank16 = makeColexRank16();
inline uint64_t colexRank(uint64_t mask) {
    if (mask < (uint64_t{1} << 16)) return kColexRank16[mask];
    uint64_t r = 0;
    for (unsigned i = 1; mask; mask &= mask - 1, ++i) r += kBinomials.c[std::countr_zero(mask)][i];
    return r;
}
// The mask of k bits below n with colex rank r.
inline uint64_t colexUnrank(uint64_t r, unsigned n, unsigned k) {
    uint64_t mask = 0;
    int p = static_cast<int>(n) - 1;
    for (unsigned i = k; i > 0; --i) {
        while (kBinomials.c[p][i] > r) --p;
        mask |= uint64_t{1} << p;
        r -= kBinomials.c[p][i];
        --p;
    }
    return mask;
}

// The coordinate of one pattern part on a byte-lane orbit of N positions in
// a field of NL lanes; Tracked is the bitmask of tracked solved labels.
// OriSumFixed, Residues: as PieceCoordinate's (pz/coord.hpp): the last
// orientation implied; orientations stored as orientation / kStep.
template <unsigned NL, unsigned N, uint64_t Tracked, bool Ordered, bool Positions, unsigned OriMod, bool OriSumFixed = false,
          class Residues = NoOrientationResidues>
struct BytePieceCoordinate {
    static_assert(N <= 64 && N <= NL);
    static constexpr unsigned kTracked = static_cast<unsigned>(std::popcount(Tracked));
    static_assert(!OriSumFixed || (OriMod > 1 && kTracked == N && N >= 2), "an implied orientation needs every piece tracked");
    static_assert(Residues::kStep == 1 || (Positions && Ordered && OriMod % Residues::kStep == 0),
                  "residues need an ordered positions part (which piece is where)");
    static constexpr unsigned kStep = Residues::kStep;
    static constexpr unsigned kDigit = OriMod / kStep;  // values of one stored orientation
    static constexpr unsigned kOriDigits = OriSumFixed ? kTracked - 1 : kTracked;
    static_assert(!(Positions && Ordered) || kTracked <= 16, "a partial permutation of more than 16 pieces");
    static constexpr uint64_t kPositionSize =
        Positions ? kBinomials.c[N][kTracked] * (Ordered ? factorial(kTracked) : 1) : 1;
    static constexpr uint64_t kOrientSize = OriMod > 1 ? ipow(kDigit, kOriDigits) : 1;
    static constexpr uint64_t kSize = kPositionSize * kOrientSize;

    static constexpr uint64_t kPositions = N == 64 ? ~uint64_t{0} : (uint64_t{1} << N) - 1;
    // Lane v: the index of label v among the tracked labels, or 0xFF.
    static constexpr std::array<uint8_t, NL> trackedIndex() {
        std::array<uint8_t, NL> t{};
        unsigned i = 0;
        for (unsigned v = 0; v < NL; ++v) t[v] = (v < N && (Tracked >> v & 1)) ? static_cast<uint8_t>(i++) : 0xFF;
        return t;
    }
    alignas(64) static constexpr std::array<uint8_t, NL> kIndex = trackedIndex();

    // The occupied-position mask; the tracked indices in position order.
    static inline uint64_t trackedInPositionOrder(const uint64_t* perm, uint8_t* out) {
        alignas(64) uint8_t rel[NL];
        shuffleBytes<NL>(kIndex.data(), lanePtr<uint8_t>(perm), rel);
        const uint64_t occupied = ~bytesEqualMask<NL>(rel, 0xFF) & kPositions;
        unsigned j = 0;
        for (uint64_t m = occupied; m; m &= m - 1) out[j++] = rel[std::countr_zero(m)];
        return occupied;
    }

    static inline uint64_t rank(const uint64_t* perm, const uint64_t* ori) {
        uint64_t r = 0, occupied = 0;
        uint8_t order[64];
        if constexpr (Positions) {
            occupied = trackedInPositionOrder(perm, order);
            r = colexRank(occupied);
            if constexpr (Ordered) r = r * factorial(kTracked) + lehmerRankFixed<kTracked>(order);
        }
        if constexpr (OriMod > 1) {
            const auto* o8 = lanePtr<uint8_t>(ori);
            uint64_t o = 0;
            if constexpr (OriSumFixed) {
                for (unsigned p = 0; p + 1 < N; ++p) o = o * kDigit + o8[p] / kStep;
            } else {
                for (uint64_t m = Positions ? occupied : Tracked; m; m &= m - 1)
                    o = o * kDigit + o8[std::countr_zero(m)] / kStep;
            }
            r = r * kOrientSize + o;
        } else {
            (void)ori;
        }
        return r;
    }

    // Writes the orbit's lanes (0..N-1) of a state with this coordinate;
    // padding lanes are left as they are (the caller starts from solved).
    static inline void unrank(uint64_t r, uint64_t* perm, uint64_t* ori) {
        uint8_t oriDigit[64] = {};
        // With residues the implied orientation is set once the pieces are placed.
        if constexpr (OriMod > 1) r = splitOrientationDigits<kDigit, OriSumFixed && kStep == 1>(r, kOriDigits, oriDigit);
        uint8_t trackedLabel[64], untrackedLabel[64];
        unsigned nt = 0, nu = 0;
        for (unsigned v = 0; v < N; ++v) (Tracked >> v & 1 ? trackedLabel[nt++] : untrackedLabel[nu++]) = static_cast<uint8_t>(v);
        auto* p8 = lanePtr<uint8_t>(perm);
        uint8_t scratch[NL];
        auto* o8 = ori ? lanePtr<uint8_t>(ori) : reinterpret_cast<LaneByte*>(scratch);
        for (unsigned p = 0; p < N; ++p) o8[p] = 0;
        if constexpr (Positions) {
            uint8_t order[64];
            if constexpr (Ordered) {
                lehmerUnrank(r % factorial(kTracked), kTracked, order);
                r /= factorial(kTracked);
            } else {
                for (unsigned i = 0; i < kTracked; ++i) order[i] = static_cast<uint8_t>(i);
            }
            uint64_t occupied = colexUnrank(r, N, kTracked);
            unsigned i = 0, u = 0, sum = 0;
            for (unsigned p = 0; p < N; ++p) {
                if (occupied >> p & 1) {
                    p8[p] = trackedLabel[order[i]];
                    unsigned o = oriDigit[i];
                    if constexpr (kStep > 1) o = Residues::kOffset[p8[p] * N + p] + kStep * o;
                    o8[p] = static_cast<uint8_t>(o);
                    sum += o;
                    ++i;
                } else {
                    p8[p] = untrackedLabel[u++];
                }
            }
            if constexpr (OriSumFixed && kStep > 1)
                o8[N - 1] = static_cast<uint8_t>((OriMod - (sum - o8[N - 1]) % OriMod) % OriMod);
        } else {
            for (unsigned p = 0; p < N; ++p) p8[p] = static_cast<uint8_t>(p);
            for (unsigned i = 0; i < nt; ++i) o8[trackedLabel[i]] = oriDigit[i];
        }
    }

    // note [parts on one orbit]: as PieceCoordinate's (pz/coord.hpp).
    static inline uint64_t occupiedPositions(uint64_t r) requires Positions {
        r /= kOrientSize;
        if constexpr (Ordered) r /= factorial(kTracked);
        return colexUnrank(r, N, kTracked);
    }
    static inline void unrankMerged(uint64_t r, uint64_t* perm, uint64_t* ori) requires Positions {
        uint64_t p2[NL / 8] = {}, o2[NL / 8] = {};
        unrank(r, p2, o2);
        const auto* q8 = lanePtr<uint8_t>(p2);
        const auto* r8 = lanePtr<uint8_t>(o2);
        auto* p8 = lanePtr<uint8_t>(perm);
        for (unsigned t = 0; t < N; ++t) {
            const uint8_t piece = q8[t];
            if (!(Tracked >> piece & 1)) continue;
            unsigned c = 0;
            while (p8[c] != piece) ++c;
            if (c != t) std::swap(p8[c], p8[t]);
            if constexpr (OriMod > 1) lanePtr<uint8_t>(ori)[t] = r8[t];
        }
    }
};

// The pieces of each label of a byte-lane orbit with identical pieces
// (count[l] for labels 0..63): a template argument of ByteLabelCoordinate.
struct LabelCounts {
    uint8_t count[64] = {};
};

// The coordinate of one pattern part on a byte-lane orbit with identical
// pieces (note [labelled lanes] in compiler/analysis/perm/state_layout.hpp): lanes
// hold labels, Counts gives the pieces of each label, and the part tracks
// every piece of the labels in TrackedLabels, K pieces in all. The encoding
// is LabelCoordinate's (pz/coord.hpp): the colex rank of the positions
// holding tracked labels, then (Ordered) the rank of the tracked labels read
// in position order among the K! / prod c_l! arrangements of their
// multiset, then (OriMod > 1) their orientations in position order.
template <unsigned NL, unsigned N, LabelCounts Counts, uint64_t TrackedLabels, bool Ordered, unsigned OriMod>
struct ByteLabelCoordinate {
    static_assert(N <= 64 && N <= NL);
    // Tracked labels renumbered densely 0..T-1 in label order.
    static constexpr unsigned kLabels = static_cast<unsigned>(std::popcount(TrackedLabels));
    static constexpr std::array<uint8_t, 64> denseCounts() {
        std::array<uint8_t, 64> c{};
        for (unsigned l = 0, d = 0; l < 64; ++l)
            if (TrackedLabels >> l & 1) c[d++] = Counts.count[l];
        return c;
    }
    static constexpr std::array<uint8_t, 64> kCounts = denseCounts();
    static constexpr unsigned trackedPieces() {
        unsigned k = 0;
        for (unsigned d = 0; d < kLabels; ++d) k += kCounts[d];
        return k;
    }
    static constexpr unsigned kTracked = trackedPieces();
    static constexpr uint64_t arrangements() {
        // K! / prod c! as a product of binomials (no intermediate overflow).
        uint64_t a = 1;
        unsigned placed = 0;
        for (unsigned d = 0; d < kLabels; ++d) {
            placed += kCounts[d];
            a *= kBinomials.c[placed][kCounts[d]];
        }
        return a;
    }
    static constexpr uint64_t kArrangements = Ordered ? arrangements() : 1;
    static constexpr uint64_t kPositionSize = kBinomials.c[N][kTracked] * kArrangements;
    static constexpr uint64_t kOrientSize = OriMod > 1 ? ipow(OriMod, kTracked) : 1;
    static constexpr uint64_t kSize = kPositionSize * kOrientSize;

    static constexpr uint64_t kPositions = N == 64 ? ~uint64_t{0} : (uint64_t{1} << N) - 1;
    // What unrank lays out: the label of each dense index, the tracked
    // pieces' dense labels in increasing order (the arrangement of rank 0),
    // the untracked pieces' labels in increasing order.
    struct Layout {
        std::array<uint8_t, 64> labelOf{}, sortedTracked{}, untracked{};
    };
    static constexpr Layout layout() {
        Layout t;
        unsigned nt = 0, nu = 0, d = 0;
        for (unsigned l = 0; l < N; ++l) {
            const bool tracked = TrackedLabels >> l & 1;
            if (tracked) t.labelOf[d++] = static_cast<uint8_t>(l);
            for (unsigned c = 0; c < Counts.count[l]; ++c) {
                if (tracked)
                    t.sortedTracked[nt++] = static_cast<uint8_t>(d - 1);
                else
                    t.untracked[nu++] = static_cast<uint8_t>(l);
            }
        }
        return t;
    }
    static constexpr Layout kLayout = layout();

    // Lane v: the dense index of label v if tracked, else 0xFF (padding
    // lanes hold their own index, at least N: never a label).
    static constexpr std::array<uint8_t, NL> denseIndex() {
        std::array<uint8_t, NL> t{};
        unsigned d = 0;
        for (unsigned v = 0; v < NL; ++v) t[v] = (v < 64 && (TrackedLabels >> v & 1)) ? static_cast<uint8_t>(d++) : 0xFF;
        return t;
    }
    alignas(64) static constexpr std::array<uint8_t, NL> kIndex = denseIndex();

    static inline uint64_t rank(const uint64_t* perm, const uint64_t* ori) {
        alignas(64) uint8_t rel[NL];
        shuffleBytes<NL>(kIndex.data(), lanePtr<uint8_t>(perm), rel);
        const uint64_t occupied = ~bytesEqualMask<NL>(rel, 0xFF) & kPositions;
        uint64_t r = colexRank(occupied);
        if constexpr (Ordered && kArrangements > 1) {
            uint8_t seq[64];
            unsigned j = 0;
            for (uint64_t m = occupied; m; m &= m - 1) seq[j++] = rel[std::countr_zero(m)];
            r = r * kArrangements + multisetRank(seq, kCounts, kTracked, kArrangements);
        }
        if constexpr (OriMod > 1) {
            const auto* o8 = lanePtr<uint8_t>(ori);
            uint64_t o = 0;
            for (uint64_t m = occupied; m; m &= m - 1) o = o * OriMod + o8[std::countr_zero(m)];
            r = r * kOrientSize + o;
        } else {
            (void)ori;
        }
        return r;
    }

    // Writes the orbit's lanes (0..N-1) of a state with this coordinate:
    // tracked labels where the rank says, the untracked pieces' labels in
    // increasing order elsewhere; padding lanes are left as they are.
    static inline void unrank(uint64_t r, uint64_t* perm, uint64_t* ori) {
        uint8_t oriDigit[64] = {};
        if constexpr (OriMod > 1) r = splitOrientationDigits<OriMod, false>(r, kTracked, oriDigit);
        std::array<uint8_t, 64> seq = kLayout.sortedTracked;
        if constexpr (Ordered && kArrangements > 1) {
            multisetUnrank(r % kArrangements, seq.data(), kCounts, kTracked, kLabels, kArrangements);
            r /= kArrangements;
        }
        const uint64_t occupied = colexUnrank(r, N, kTracked);
        auto* p8 = lanePtr<uint8_t>(perm);
        uint8_t scratch[NL];
        auto* o8 = ori ? lanePtr<uint8_t>(ori) : reinterpret_cast<LaneByte*>(scratch);
        for (unsigned p = 0, i = 0, u = 0; p < N; ++p) {
            if (occupied >> p & 1) {
                p8[p] = kLayout.labelOf[seq[i]];
                o8[p] = oriDigit[i];
                ++i;
            } else {
                p8[p] = kLayout.untracked[u++];
                o8[p] = 0;
            }
        }
    }
};

}  // namespace pz
