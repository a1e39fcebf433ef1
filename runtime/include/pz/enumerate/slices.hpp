// pz/enumerate/slices.hpp — how a breadth-first enumeration splits a space
// of coordinate values across ranks, and what a rank stores per value.
//
// note [rank slices]
// Values [0, size) are cut into blocks of 2^16; block b belongs to rank
// b mod R and is that rank's local block b div R. Round-robin blocks keep the
// ranks' shares of every BFS level even (levels cluster in ranges of a
// coordinate), and a whole block is one rank's, so a slice is a plain array.
// Every rank allocates the same number of local blocks (the most any rank
// has), so all ranks run the same number of rounds per level (note [bfs
// rounds] in bfs.hpp) without agreeing on it.
//
// Two stores:
//   LevelBits    2 bits per value (the enumeration): 0 unseen, 1 the level
//                being expanded, 2 found in this level, 3 done. A level's
//                end turns 1 into 3 and 2 into 1 in one word-parallel pass,
//                so depth is unbounded (the 15-puzzle's 80) at 2 bits.
//   DepthNibbles 4 bits per value holding the distance, 0xF unreached (the
//                pruning-table layout of pz/tables/prune.hpp): levels stop at
//                depth 14, as that build does, so a gathered table is the
//                same bytes.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>

#include "pz/support/atomic_ref.hpp"
#include "pz/support/prefetch.hpp"
#include "pz/tables/prune.hpp"

namespace pz::enumerate {

struct Partition {
    static constexpr unsigned kBlockBits = 16;
    static constexpr uint64_t kBlock = uint64_t{1} << kBlockBits;
    uint64_t size = 0;  // values in the whole space
    int ranks = 1, rank = 0;

    Partition(uint64_t values, int rankCount, int self)
        : size(values), ranks(rankCount), rank(self),
          // A block number over the ranks by a multiply (Lemire's fastdiv:
          // exact for 32-bit numerators and divisors): two per child, where a
          // 64-bit division was a tenth of a child's cost.
          magic_(rankCount > 1 ? UINT64_MAX / static_cast<uint64_t>(rankCount) + 1 : 0),
          fast_(((values + kBlock - 1) >> kBlockBits) < (uint64_t{1} << 32)),
          // A power of two: a shift and a mask.
          shift_(std::has_single_bit(static_cast<unsigned>(rankCount)) ? std::countr_zero(static_cast<unsigned>(rankCount)) : -1) {}

    uint64_t blocks() const { return (size + kBlock - 1) >> kBlockBits; }
    // Local blocks every rank allocates: the most any rank owns.
    uint64_t localBlocks() const { return (blocks() + ranks - 1) / ranks; }
    uint64_t localEntries() const { return localBlocks() << kBlockBits; }
    int owner(uint64_t i) const {
        if (shift_ >= 0) return static_cast<int>((i >> kBlockBits) & ((uint64_t{1} << shift_) - 1));
        const uint64_t b = i >> kBlockBits;
        return static_cast<int>(b - quotient(b) * static_cast<uint64_t>(ranks));
    }
    uint64_t local(uint64_t i) const {
        if (shift_ >= 0) return ((i >> (kBlockBits + shift_)) << kBlockBits) | (i & (kBlock - 1));
        return (quotient(i >> kBlockBits) << kBlockBits) | (i & (kBlock - 1));
    }
    uint64_t global(uint64_t l) const {
        return ranks == 1 ? l : (((l >> kBlockBits) * ranks + rank) << kBlockBits) | (l & (kBlock - 1));
    }

private:
    uint64_t quotient(uint64_t b) const {
        return fast_ ? static_cast<uint64_t>((static_cast<unsigned __int128>(magic_) * b) >> 64)
                     : b / static_cast<uint64_t>(ranks);
    }
    uint64_t magic_;
    bool fast_;
    int shift_;
};

// Bit 0 of every 2-bit lane of `w` that equals `code`.
inline uint64_t lanes2Equal(uint64_t w, unsigned code) {
    constexpr uint64_t kLow = 0x5555555555555555ULL;
    const uint64_t x = w ^ (kLow * code);
    return ~(x | (x >> 1)) & kLow;
}

class LevelBits {
public:
    static constexpr unsigned kMaxDepth = ~0u;  // no limit
    static constexpr unsigned kBits = 2;
    explicit LevelBits(uint64_t entries) : entries_(entries), buffer_(words() * 8) {
        std::memset(buffer_.data, 0, buffer_.bytes);
    }
    uint64_t entries() const { return entries_; }
    uint64_t words() const { return (entries_ + 31) / 32; }
    uint64_t bytes() const { return words() * 8; }
    uint64_t* data() { return buffer_.data; }
    const uint64_t* data() const { return buffer_.data; }

    void setStart(uint64_t i) { buffer_.data[i >> 5] |= uint64_t{1} << ((i & 31) * 2); }
    // f(i) for each local value in [begin, end) of the level being expanded (d).
    template <class F>
    void forEachFrontier(uint64_t begin, uint64_t end, unsigned, F&& f) const { forEachCode(begin, end, 1, f); }
    template <class F>
    void forEachUnseen(uint64_t begin, uint64_t end, F&& f) const { forEachCode(begin, end, 0, f); }
    bool isFrontier(uint64_t i, unsigned) const { return lane(i) == 1; }
    void prefetch(uint64_t i) const { pz::prefetch(&buffer_.data[i >> 5]); }
    // Marks an unseen value as found at depth d + 1; whether this call did.
    template <bool Atomic>
    bool claim(uint64_t i, unsigned) {
        const unsigned shift = (i & 31) * 2;
        uint64_t& w = buffer_.data[i >> 5];
        if constexpr (Atomic) {
            pz::AtomicRef<uint64_t> a(w);
            if ((a.load(std::memory_order_relaxed) >> shift) & 3) return false;
            // Only claims change a word within a level, and only 0 -> 2: a
            // lane read as 0 holds 0 or 2, so the OR never touches another state.
            return ((a.fetch_or(uint64_t{2} << shift, std::memory_order_relaxed) >> shift) & 3) == 0;
        } else {
            if ((w >> shift) & 3) return false;
            w |= uint64_t{2} << shift;
            return true;
        }
    }
    // The level is over: 1 -> 3 (done), 2 -> 1 (the next level to expand).
    void endLevel() {
        constexpr uint64_t kLow = 0x5555555555555555ULL;
        for (uint64_t k = 0; k < words(); ++k) {
            uint64_t w = buffer_.data[k];
            const uint64_t lo = w & kLow, hi = (w >> 1) & kLow;
            const uint64_t one = lo & ~hi, two = hi & ~lo;
            w |= one << 1;                   // 1 -> 3
            w = (w & ~(two << 1)) | two;     // 2 -> 1
            buffer_.data[k] = w;
        }
    }

private:
    unsigned lane(uint64_t i) const {
        return (pz::AtomicRef<uint64_t>(buffer_.data[i >> 5]).load(std::memory_order_relaxed) >> ((i & 31) * 2)) & 3;
    }
    template <class F>
    void forEachCode(uint64_t begin, uint64_t end, unsigned code, F& f) const {
        for (uint64_t k = begin >> 5; k < (end + 31) >> 5; ++k) {
            uint64_t hits =
                lanes2Equal(pz::AtomicRef<uint64_t>(buffer_.data[k]).load(std::memory_order_relaxed), code);
            for (; hits; hits &= hits - 1) {
                const uint64_t i = (k << 5) + (std::countr_zero(hits) >> 1);
                if (i >= begin && i < end) f(i);
            }
        }
    }
    uint64_t entries_;
    HugeBuffer buffer_;
};

class DepthNibbles {
public:
    static constexpr unsigned kMaxDepth = 14;  // as PruneTable::build: 0xF is "not reached"
    static constexpr unsigned kBits = 4;
    explicit DepthNibbles(uint64_t entries) : entries_(entries), buffer_(words() * 8) {
        std::memset(buffer_.data, 0xFF, buffer_.bytes);
    }
    uint64_t entries() const { return entries_; }
    uint64_t words() const { return (entries_ + 15) / 16; }
    uint64_t bytes() const { return words() * 8; }
    uint64_t* data() { return buffer_.data; }
    const uint64_t* data() const { return buffer_.data; }

    void setStart(uint64_t i) { buffer_.data[i >> 4] &= ~(uint64_t{0xF} << ((i & 15) * 4)); }
    template <class F>
    void forEachFrontier(uint64_t begin, uint64_t end, unsigned d, F&& f) const { forEachValue(begin, end, d, f); }
    template <class F>
    void forEachUnseen(uint64_t begin, uint64_t end, F&& f) const { forEachValue(begin, end, 0xF, f); }
    bool isFrontier(uint64_t i, unsigned d) const { return value(i) == d; }
    void prefetch(uint64_t i) const { pz::prefetch(&buffer_.data[i >> 4]); }
    template <bool Atomic>
    bool claim(uint64_t i, unsigned d) {
        const unsigned shift = (i & 15) * 4;
        const uint64_t clear = ~(static_cast<uint64_t>(0xF ^ (d + 1)) << shift);
        uint64_t& w = buffer_.data[i >> 4];
        if constexpr (Atomic) {
            pz::AtomicRef<uint64_t> a(w);
            if (((a.load(std::memory_order_relaxed) >> shift) & 0xF) != 0xF) return false;
            return ((a.fetch_and(clear, std::memory_order_relaxed) >> shift) & 0xF) == 0xF;
        } else {
            if (((w >> shift) & 0xF) != 0xF) return false;
            w &= clear;
            return true;
        }
    }
    void endLevel() {}

private:
    unsigned value(uint64_t i) const {
        return (pz::AtomicRef<uint64_t>(buffer_.data[i >> 4]).load(std::memory_order_relaxed) >> ((i & 15) * 4)) &
               0xF;
    }
    template <class F>
    void forEachValue(uint64_t begin, uint64_t end, unsigned v, F& f) const {
        constexpr uint64_t kLow3 = 0x7777777777777777ULL;
        for (uint64_t k = begin >> 4; k < (end + 15) >> 4; ++k) {
            const uint64_t t = pz::AtomicRef<uint64_t>(buffer_.data[k]).load(std::memory_order_relaxed) ^
                               (0x1111111111111111ULL * v);
            uint64_t hits = ~(((t & kLow3) + kLow3) | t | kLow3);  // bit 3 of each nibble equal to v
            for (; hits; hits &= hits - 1) {
                const uint64_t i = (k << 4) + (std::countr_zero(hits) >> 2);
                if (i >= begin && i < end) f(i);
            }
        }
    }
    uint64_t entries_;
    HugeBuffer buffer_;
};

}  // namespace pz::enumerate
