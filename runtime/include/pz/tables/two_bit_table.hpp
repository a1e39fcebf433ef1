// pz/tables/two_bit_table.hpp — 2-bit pruning entries with a base and a per-line
// 4-bit minimum (note [two-bit tables]), and the entries below the base
// beside them (note [entries below the base]).
//
// note [two-bit tables]
// A distance d is stored in 2 bits relative to the table's base b:
//   0 when d <= b, d - b when b < d < b + 3, 3 when d >= b + 3.
// A read of 1, 2 or 3 gives the lower bound b + v directly. A read of 0 says
// only "at most b", so every 64-byte cache line holds 254 entries (508 bits)
// and, in its last 4 bits, the minimum distance over those 254 entries
// (capped at 15, not relative to the base): after a 0 read that minimum is a
// lower bound that costs no further cache miss (the H48 solver's fallback,
// after nxopt). Lines are 64-byte aligned (the buffer is 2 MiB aligned and
// madvise(HUGEPAGE)d, pz/tables/prune.hpp HugeBuffer), one line per 254 entries.
//
// Packing reads a 4-bit distance per entry (15 = 15 or more, still a lower
// bound) and writes each line from its own entries only, so the bytes are
// the same for any number of threads.
//
// note [entries below the base]
// The base is chosen for the table's distribution, where entries at or
// below it are rare (cube3 h48h3: 0.7%), but the search reads those most:
// deep in the tree its nodes are near solved, and there a 0 read is the
// common one (h48h3, a 17-move state: 56% of the reads), where the line's
// minimum is often far below the entry (a line holding one near-solved
// entry reads it for all 254). So the entries below a threshold t <= b are
// kept beside the lines in a small open-addressing set of 16-bit slots
// (a 12-bit fingerprint of the index, the distance + 1; about one slot per
// 512 entries, at most half of them used): a 0 read in a line whose
// minimum is below b looks the entry up there, and reads its distance if
// found and t if not (every entry below t is in the set). In a line whose
// minimum is b the entry is exactly b, with no lookup. Two entries whose
// probe sequences meet with the same fingerprint share a slot holding the
// lesser distance, and an entry not in the set that matches a fingerprint
// reads a distance below t: either way a lower bound, never more. The set
// is filled in index order on one thread, so its bytes do not depend on
// the thread count either. cube3 h48h3 (t = b = 8, 567,387 entries below
// 8 in 2^21 slots, 4 MiB beside 226.6 MiB): a 17-move state's search
// takes 0.69x the nodes and 0.80x the time of the line minimum alone.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "pz/support/prefetch.hpp"
#include "pz/tables/prune.hpp"

namespace pz {

// Where a table's set of entries below the base is (no slots: none).
struct BelowBaseView {
    const uint16_t* slots = nullptr;
    unsigned bits = 0;       // 2^bits slots
    unsigned threshold = 0;  // every entry below it is in the set
};

// note [entries below the base]: the set of the entries below a threshold.
struct BelowBase {
    static constexpr unsigned kFingerprintBits = 12;
    static constexpr uint64_t kEntriesPerSlot = 512;
    // Slots for a table of `entries` entries: a power of two, at least 64.
    static constexpr uint64_t slotsFor(uint64_t entries) {
        uint64_t n = 64;
        while (n < entries / kEntriesPerSlot) n <<= 1;
        return n;
    }
    static constexpr uint64_t bytesFor(uint64_t entries) { return slotsFor(entries) * 2; }
    // The largest threshold t <= base whose entries below it (counts[d]
    // entries at distance d) fill at most half of `slots`.
    static unsigned thresholdFor(const std::array<uint64_t, 16>& counts, unsigned base, uint64_t slots) {
        for (unsigned t = base; t > 0; --t) {
            uint64_t below = 0;
            for (unsigned d = 0; d < t; ++d) below += counts[d];
            if (below <= slots / 2) return t;
        }
        return 0;
    }
    // Entry i's home slot and fingerprint in a set of 2^bits slots.
    static uint64_t hashOf(uint64_t i) { return (i + 1) * 0x9E3779B97F4A7C15ULL; }
    static uint64_t homeOf(uint64_t h, unsigned bits) { return h >> (64 - bits); }
    static unsigned fingerprintOf(uint64_t h, unsigned bits) {
        return static_cast<unsigned>(h >> (64 - bits - kFingerprintBits)) & ((1u << kFingerprintBits) - 1);
    }
    // Adds entry i at distance d (< 15) to the set (slots zeroed at first).
    static void insert(uint16_t* slots, unsigned bits, uint64_t i, unsigned d) {
        const uint64_t h = hashOf(i), mask = (uint64_t{1} << bits) - 1;
        const unsigned fp = fingerprintOf(h, bits);
        for (uint64_t k = homeOf(h, bits);; k = (k + 1) & mask) {
            const unsigned s = slots[k];
            if (s == 0) return void(slots[k] = static_cast<uint16_t>(fp << 4 | (d + 1)));
            if (s >> 4 == fp) {  // a shared slot keeps the lesser distance
                if (d + 1 < (s & 15)) slots[k] = static_cast<uint16_t>(fp << 4 | (d + 1));
                return;
            }
        }
    }
    // Entry i's distance if the set has it, else `absent` (the threshold).
    static unsigned find(const uint16_t* slots, unsigned bits, uint64_t i, unsigned absent) {
        const uint64_t h = hashOf(i), mask = (uint64_t{1} << bits) - 1;
        const unsigned fp = fingerprintOf(h, bits);
        for (uint64_t k = homeOf(h, bits);; k = (k + 1) & mask) {
            const unsigned s = slots[k];
            if (s == 0) return absent;
            // Never above the threshold: a damaged slot (distance 0 is never
            // written) reads no more than an absent entry.
            if (s >> 4 == fp) return std::min((s & 15) - 1u, absent);
        }
    }
};

class TwoBitTable {
public:
    static constexpr uint64_t kPerLine = 254;
    static constexpr uint64_t kLineWords = 8;

    TwoBitTable() = default;

    // Packs entries 0..entries-1 with distances dist(i) (0..15, 15 = 15 or
    // more) using `threads` threads.
    template <class Dist>
    static TwoBitTable pack(uint64_t entries, unsigned base, Dist&& dist, int threads = 1) {
        TwoBitTable t;
        t.entries_ = entries;
        t.base_ = base;
        t.lines_ = (entries + kPerLine - 1) / kPerLine;
        t.buf_ = HugeBuffer(std::max<uint64_t>(1, t.lines_) * kLineWords * 8);
        std::memset(t.buf_.data, 0, t.buf_.bytes);
        std::atomic<uint64_t> next{0};
        constexpr uint64_t kChunk = 4096;  // lines per claim
        auto worker = [&] {
            for (;;) {
                const uint64_t begin = next.fetch_add(kChunk);
                if (begin >= t.lines_) break;
                const uint64_t end = std::min(t.lines_, begin + kChunk);
                for (uint64_t line = begin; line < end; ++line) t.packLine(line, dist);
            }
        };
        std::vector<std::thread> pool;
        for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
        worker();
        for (auto& th : pool) th.join();
        std::array<uint64_t, 16> counts{};
        for (uint64_t i = 0; i < entries; ++i) ++counts[std::min(15u, static_cast<unsigned>(dist(i)))];
        const uint64_t slots = BelowBase::slotsFor(entries);
        t.below_.assign(slots, 0);
        t.bits_ = static_cast<unsigned>(std::countr_zero(slots));
        t.threshold_ = BelowBase::thresholdFor(counts, base, slots);
        for (uint64_t i = 0; i < entries; ++i)
            if (const unsigned d = static_cast<unsigned>(dist(i)); d < t.threshold_) BelowBase::insert(t.below_.data(), t.bits_, i, d);
        return t;
    }

    // The base that maximises the mean lower bound over a distance
    // distribution (counts[d] entries at distance d, counts[15] = 15 or
    // more), counting a 0 read as a bound of 0 (the line minimum only
    // helps; it is not modelled).
    static unsigned chooseBase(const std::array<uint64_t, 16>& counts) {
        unsigned best = 0;
        double bestSum = -1;
        for (unsigned b = 0; b <= 12; ++b) {
            double sum = 0;
            for (unsigned d = b + 1; d < 16; ++d) sum += double(counts[d]) * double(b + std::min(d - b, 3u));
            if (sum > bestSum) {
                bestSum = sum;
                best = b;
            }
        }
        return best;
    }

    // The lower bound of entry i.
    unsigned lookup(uint64_t i) const { return lookupIn(buf_.data, base_, belowBase(), i); }
    // The same over lines held elsewhere (64-byte aligned) and their set of
    // entries below the base (note [entries below the base]).
    static unsigned lookupIn(const uint64_t* lines, unsigned base, const BelowBaseView& below, uint64_t i) {
        const unsigned v = twoBitsIn(lines, i);
        if (v) return base + v;
        const unsigned lineMin = lineMinIn(lines, i);
        if (lineMin >= base || !below.slots) return lineMin;  // at least the base: exactly the base
        return std::max(lineMin, BelowBase::find(below.slots, below.bits, i, below.threshold));
    }
    // Whether entry i's lower bound is exactly r (lookupIn(...) == r): not
    // above r but above r - 1, so the set is read only where exceedsIn
    // needs it (at r = the base: for r - 1).
    static bool readsIn(const uint64_t* lines, unsigned base, const BelowBaseView& below, uint64_t i, unsigned r) {
        return !exceedsIn(lines, base, below, i, r) && (r == 0 || exceedsIn(lines, base, below, i, r - 1));
    }
    // Whether entry i's lower bound exceeds `limit`: the same answer as
    // lookupIn(...) > limit, with the set looked up only when a 0 read
    // could exceed the limit (below the base) and the line's minimum does not.
    static bool exceedsIn(const uint64_t* lines, unsigned base, const BelowBaseView& below, uint64_t i, unsigned limit) {
        const int v = lineDecides(lines, base, below, i, limit);
        return v >= 0 ? v : BelowBase::find(below.slots, below.bits, i, below.threshold) > limit;
    }
    // exceedsIn's answer when the line decides it (1: exceeds, 0: not);
    // -1 when only the set can, its slot then prefetched (the caller asks
    // exceedsIn later, once other work has covered the miss). At a limit of
    // the base the line always decides, but whether the entry is exactly
    // the limit (a survivor's readsIn, note [moves in the subgroup] in
    // pz/search/search.hpp) asks exceedsIn at limit - 1: its slot is prefetched
    // when that one needs the set.
    static int exceedsOrDeferIn(const uint64_t* lines, unsigned base, const BelowBaseView& below, uint64_t i, unsigned limit) {
        const int v = lineDecides(lines, base, below, i, limit);
        if (v < 0 || (v == 0 && limit == base && limit > 0 && lineDecides(lines, base, below, i, limit - 1) < 0))
            pz::prefetch(below.slots + BelowBase::homeOf(BelowBase::hashOf(i), below.bits));
        return v;
    }
    static void prefetchIn(const uint64_t* lines, uint64_t i) { pz::prefetch(lines + i / kPerLine * kLineWords); }
    // Writes line `line` of `entries` entries at w (zeroed, kLineWords words).
    template <class Dist>
    static void packLineInto(uint64_t* w, uint64_t line, uint64_t entries, unsigned base, Dist& dist) {
        const uint64_t first = line * kPerLine, last = std::min(entries, first + kPerLine);
        unsigned lineMin = 15;
        for (uint64_t i = first; i < last; ++i) {
            const unsigned d = static_cast<unsigned>(dist(i));
            lineMin = std::min(lineMin, d);
            const unsigned v = d <= base ? 0 : std::min(d - base, 3u);
            const uint64_t j = i - first;
            w[j >> 5] |= static_cast<uint64_t>(v) << ((j & 31) * 2);
        }
        w[7] |= static_cast<uint64_t>(lineMin) << 60;
    }
    // The raw 2-bit read of entry i (0..3).
    unsigned raw(uint64_t i) const { return twoBitsIn(buf_.data, i); }
    void prefetch(uint64_t i) const { prefetchIn(buf_.data, i); }

    uint64_t entries() const { return entries_; }
    uint64_t lines() const { return lines_; }
    unsigned base() const { return base_; }
    uint64_t bytes() const { return lines_ * kLineWords * 8; }
    const uint64_t* words() const { return buf_.data; }
    BelowBaseView belowBase() const { return {below_.data(), bits_, threshold_}; }
    const std::vector<uint16_t>& belowBaseSlots() const { return below_; }

    // Bytes needed for `entries` entries.
    static uint64_t bytesFor(uint64_t entries) { return (entries + kPerLine - 1) / kPerLine * kLineWords * 8; }

private:
    // Entry i's 2-bit read (0..3) and its line's minimum (the line's top
    // four bits), in lines held at `lines`.
    static unsigned twoBitsIn(const uint64_t* lines, uint64_t i) {
        const uint64_t line = i / kPerLine, j = i % kPerLine;
        return static_cast<unsigned>(lines[line * kLineWords + (j >> 5)] >> ((j & 31) * 2) & 3);
    }
    static unsigned lineMinIn(const uint64_t* lines, uint64_t i) {
        return static_cast<unsigned>(lines[i / kPerLine * kLineWords + 7] >> 60);
    }
    // Whether entry i's line alone shows it exceeds `limit` (1) or not (0);
    // -1 when only the set can tell.
    static int lineDecides(const uint64_t* lines, unsigned base, const BelowBaseView& below, uint64_t i, unsigned limit) {
        const unsigned v = twoBitsIn(lines, i);
        if (v) return base + v > limit;
        if (limit >= base) return 0;
        const unsigned lineMin = lineMinIn(lines, i);
        if (lineMin > limit || !below.slots) return lineMin > limit;
        return -1;
    }

    template <class Dist>
    void packLine(uint64_t line, Dist& dist) {
        packLineInto(buf_.data + line * kLineWords, line, entries_, base_, dist);
    }

    HugeBuffer buf_;
    uint64_t entries_ = 0, lines_ = 0;
    unsigned base_ = 0;
    std::vector<uint16_t> below_;  // note [entries below the base]
    unsigned bits_ = 0, threshold_ = 0;
};

}  // namespace pz
