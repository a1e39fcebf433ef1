// pz/two_bit_table.hpp — 2-bit pruning entries with a base and a per-line
// 4-bit minimum (note [two-bit tables]).
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
// madvise(HUGEPAGE)d, pz/prune.hpp HugeBuffer), one line per 254 entries.
//
// Packing reads a 4-bit distance per entry (15 = 15 or more, still a lower
// bound) and writes each line from its own entries only, so the bytes are
// the same for any number of threads.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "pz/prefetch.hpp"
#include "pz/prune.hpp"

namespace pz {

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
    unsigned lookup(uint64_t i) const { return lookupIn(buf_.data, base_, i); }
    // The same over lines held elsewhere (64-byte aligned).
    static unsigned lookupIn(const uint64_t* lines, unsigned base, uint64_t i) {
        const uint64_t line = i / kPerLine, j = i % kPerLine;
        const uint64_t* w = lines + line * kLineWords;
        const unsigned v = static_cast<unsigned>(w[j >> 5] >> ((j & 31) * 2) & 3);
        if (v) return base + v;
        return static_cast<unsigned>(w[7] >> 60);
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
    unsigned raw(uint64_t i) const {
        const uint64_t line = i / kPerLine, j = i % kPerLine;
        return static_cast<unsigned>(buf_.data[line * kLineWords + (j >> 5)] >> ((j & 31) * 2) & 3);
    }
    void prefetch(uint64_t i) const { prefetchIn(buf_.data, i); }

    uint64_t entries() const { return entries_; }
    uint64_t lines() const { return lines_; }
    unsigned base() const { return base_; }
    uint64_t bytes() const { return lines_ * kLineWords * 8; }
    const uint64_t* words() const { return buf_.data; }

    // Bytes needed for `entries` entries.
    static uint64_t bytesFor(uint64_t entries) { return (entries + kPerLine - 1) / kPerLine * kLineWords * 8; }

private:
    template <class Dist>
    void packLine(uint64_t line, Dist& dist) {
        packLineInto(buf_.data + line * kLineWords, line, entries_, base_, dist);
    }

    HugeBuffer buf_;
    uint64_t entries_ = 0, lines_ = 0;
    unsigned base_ = 0;
};

}  // namespace pz
