// pz/enumerate/replicated_bfs.hpp — the breadth-first enumeration of a
// space small enough for every rank to hold in bits (note [replicated
// spaces]); bfs.hpp's SpaceBfs splits the space instead.
//
// note [replicated spaces]
// A partitioned enumeration (bfs.hpp) sends every child that another rank
// owns to that rank: slide4's top_rows table moved 8.6 bytes per state, 4.1
// GiB in all, and two ranks on two cores were 0.72-0.80x of the solver's
// 2-thread build. When three bits per value fit every rank's budget, each
// rank holds the whole space as three bitmaps instead: seen, the level's
// frontier and the next level. A rank expands only its share of the
// frontier (block b of kBlock values on rank b mod ranks, its threads
// taking its blocks in turn) and marks the children in its own `next`;
// after the level the ranks OR their `next` together in place (one
// all-reduce a window at a time, skipping windows no rank marked), and
// every rank takes next & ~seen as the new frontier. So a level exchanges
// the space's size in bits at most, whatever the branching factor, and the
// ranks agree on every bit without asking each other anything. A backward
// level (more frontier than unseen values, moves closed under inverse, as
// PruneTable::build) needs no exchange at all to look: every rank holds the
// whole frontier, so an unseen value of its share finds a parent locally.
// With --table rank 0 also keeps the 4-bit distances, set from each new
// frontier, and writes the file PruneTable::build writes (depths up to 14,
// 0xF beyond). Checkpoints stay the partitioned layout's (a slice per rank,
// note [bfs checkpoints]): --checkpoint runs partitioned.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "pz/enumerate/bfs.hpp"
#include "pz/support/prefetch.hpp"
#include "pz/tables/prune.hpp"

namespace pz::enumerate {

// Bit j of an 8-bit mask spread to the low bit of nibble j (a 32-bit mask).
inline constexpr std::array<uint32_t, 256> kNibbleSpread = [] {
    std::array<uint32_t, 256> t{};
    for (unsigned m = 0; m < 256; ++m)
        for (unsigned j = 0; j < 8; ++j)
            if (m >> j & 1) t[m] |= 1u << (4 * j);
    return t;
}();

template <class T, class P, class Transport>
class ReplicatedBfs {
public:
    using State = typename T::State;
    // Values per block of a rank's share: whole words of every bitmap.
    static constexpr uint64_t kBlock = uint64_t{1} << 16;
    // (Functions: a coset space's size is known only once it is built.)
    static uint64_t blocks() { return (P::kSize + kBlock - 1) / kBlock; }
    static uint64_t words() { return blocks() * (kBlock / 64); }
    static uint64_t nibbleWords() { return (P::kSize + 15) / 16; }
    // The deepest level kept in 4 bits (as PruneTable::build: 0xF is unreached).
    static constexpr unsigned kTableDepth = 14;

    // Bytes per rank: the three bitmaps, and on rank 0 with a table its 4-bit distances.
    static uint64_t bytesNeeded(bool tableHere) { return 3 * words() * 8 + (tableHere ? nibbleWords() * 8 : 0); }

    ReplicatedBfs(Transport& net, BfsOptions options, bool table)
        : net_(net), options_(std::move(options)), table_(table && net.rank() == 0), seen_(words() * 8),
          frontier_(words() * 8), next_(words() * 8) {
        for (HugeBuffer* b : {&seen_, &frontier_, &next_}) std::memset(b->data, 0, words() * 8);
        if (table_) {
            nibbles_ = HugeBuffer(nibbleWords() * 8);
            std::memset(nibbles_.data, 0xFF, nibbleWords() * 8);
        }
        if (table) options_.maxDepth = std::min(options_.maxDepth, kTableDepth);
        // Threads mark children in bitmaps of their own when these fit the
        // budget too (note [marks per thread]).
        const uint64_t threads = static_cast<uint64_t>(std::max(1, options_.threads));
        if (threads > 1 && bytesNeeded(table_) + (threads - 1) * words() * 8 <= memoryBudget())
            for (uint64_t t = 1; t < threads; ++t) {
                marks_.emplace_back(words() * 8);
                std::memset(marks_.back().data, 0, words() * 8);
            }
    }

    const std::vector<uint64_t>& counts() const { return counts_; }
    uint64_t reached() const {
        uint64_t r = 0;
        for (auto c : counts_) r += c;
        return r;
    }
    // Rank 0's 4-bit distances (with a table): PruneTable's data words.
    const uint64_t* nibbles() const { return nibbles_.data; }

    void run() {
        std::vector<uint64_t> starts{P::rank(T::solved())};
        if constexpr (requires { P::starts(); }) starts = P::starts();
        for (uint64_t s : starts) {
            seen_.data[s >> 6] |= uint64_t{1} << (s & 63);
            frontier_.data[s >> 6] |= uint64_t{1} << (s & 63);
            if (table_) setNibble(s, 0);
        }
        counts_.assign(1, starts.size());
        for (unsigned d = 0; d + 1 <= options_.maxDepth; ++d) {
            if (reached() == P::kSize) break;
            if (options_.progress) options_.progress->beginLevel();
            const bool backward = T::kInverseLookups && P::kSize - reached() < counts_[d];
            if (backward) {
                expandBackward(d);
            } else if (options_.threads > 1 && marks_.empty()) {
                expandForward<true>(d);
            } else {
                expandForward<false>(d);
                mergeMarks();
            }
            net_.orWords(next_.data, words());
            // Nothing new: the level just expanded is the last, and stays
            // the frontier (farthest() reads it).
            const uint64_t found = keepNew();
            if (found == 0) break;
            advance(d + 1);
            counts_.push_back(found);
            if (options_.progress) options_.progress->level(static_cast<int>(d + 1), found);
        }
    }

    // Up to n values at the greatest depth, smallest first (every rank
    // holds them; rank 0 prints).
    std::vector<uint64_t> farthest(size_t n) const {
        std::vector<uint64_t> out;
        for (uint64_t w = 0; w < words() && out.size() < n; ++w)
            for (uint64_t bits = frontier_.data[w]; bits && out.size() < n; bits &= bits - 1)
                out.push_back(w * 64 + static_cast<uint64_t>(std::countr_zero(bits)));
        return out;
    }

private:
    // Runs f(block, thread) over this rank's blocks, its threads taking them in turn.
    template <class F>
    void forMyBlocks(unsigned level, F&& f) {
        const uint64_t ranks = static_cast<uint64_t>(net_.ranks()), me = static_cast<uint64_t>(net_.rank());
        const uint64_t mine = blocks() > me ? (blocks() - me + ranks - 1) / ranks : 0;
        std::atomic<uint64_t> next{0};
        parallelSum(std::max(1, options_.threads), [&](int t) {
            for (uint64_t k; (k = next.fetch_add(1)) < mine;) {
                f(me + k * ranks, t);
                if (t == 0 && options_.progress && k % 64 == 0)
                    options_.progress->update(static_cast<int>(level), double(k) / double(mine));
            }
            return uint64_t{0};
        });
    }

    // note [marks per thread]
    // Children of the frontier's states in this rank's blocks are marked
    // with plain ORs into a bitmap only their thread writes (thread 0:
    // next_; the others: marks_, merged into next_ after the level), so a
    // child's cache miss overlaps the next ones'. Shared, the marks would
    // need locked ORs, which on x86 drain the store buffer at every child:
    // cube3's G1 cosets on one process x 2 threads took 80 s with a shared
    // bitmap (a word's bit read before the locked OR) against 30 s on 2
    // ranks x 1 thread with a bitmap each. Without room for the extra
    // bitmaps (threads - 1 of them), the threads share next_ that way.
    template <bool Atomic>
    void expandForward(unsigned d) {
        forMyBlocks(d + 1, [&](uint64_t block, int t) {
            uint64_t* const marks = t == 0 || marks_.empty() ? next_.data : marks_[static_cast<size_t>(t) - 1].data;
            uint64_t child[T::kMoves];
            for (uint64_t w = block * (kBlock / 64); w < (block + 1) * (kBlock / 64); ++w)
                for (uint64_t bits = frontier_.data[w]; bits; bits &= bits - 1) {
                    const State s = P::unrank(w * 64 + static_cast<uint64_t>(std::countr_zero(bits)));
                    // Ranked and prefetched first: each mark is a cache miss.
                    for (int m = 0; m < T::kMoves; ++m) {
                        child[m] = P::rank(T::applyInverseMove(s, m));
                        pz::prefetch(marks + (child[m] >> 6));
                    }
                    for (int m = 0; m < T::kMoves; ++m) {
                        const uint64_t bit = uint64_t{1} << (child[m] & 63);
                        uint64_t& word = marks[child[m] >> 6];
                        if constexpr (Atomic) {
                            pz::AtomicRef<uint64_t> ref(word);
                            if (!(ref.load(std::memory_order_relaxed) & bit)) ref.fetch_or(bit, std::memory_order_relaxed);
                        } else {
                            word |= bit;
                        }
                    }
                }
        });
    }

    // Each unseen value of this rank's blocks looks for a neighbour in the
    // frontier (moves closed under inverse: a parent), one move at a time:
    // most hits come early, and a bitmap's miss is cheap enough that ranking
    // neighbours ahead to prefetch them costs more than it hides (slide4's
    // top_rows on 2 ranks: 24.9-25.3 s ranking 4 at a time, 23.8-24.3 s 2,
    // 23.2-23.4 s 1; PruneTable::build's 4-bit table gained nothing from
    // 1, its misses being dearer).
    // A block's words are its thread's alone: plain writes.
    void expandBackward(unsigned d) {
        forMyBlocks(d + 1, [&](uint64_t block, int) {
            for (uint64_t w = block * (kBlock / 64); w < (block + 1) * (kBlock / 64); ++w) {
                uint64_t unseen = ~seen_.data[w];
                if (w * 64 + 64 > P::kSize) unseen &= P::kSize > w * 64 ? (uint64_t{1} << (P::kSize - w * 64)) - 1 : 0;
                for (; unseen; unseen &= unseen - 1) {
                    const uint64_t i = w * 64 + static_cast<uint64_t>(std::countr_zero(unseen));
                    if constexpr (requires { P::isState(i); })
                        if (!P::isState(i)) continue;  // note [parts on one orbit]
                    const State s = P::unrank(i);
                    for (int m = 0; m < T::kMoves; ++m) {
                        const uint64_t n = P::rank(T::applyMove(s, m));
                        if (frontier_.data[n >> 6] >> (n & 63) & 1) {
                            next_.data[w] |= uint64_t{1} << (i & 63);
                            break;
                        }
                    }
                }
            }
        });
    }

    // The threads' own marks ORed into next_, and cleared for the next level.
    void mergeMarks() {
        if (marks_.empty()) return;
        sumOverWords([&](uint64_t w) {
            uint64_t v = next_.data[w];
            for (auto& m : marks_) v |= std::exchange(m.data[w], 0);
            next_.data[w] = v;
            return uint64_t{0};
        });
    }

    // next_ &= ~seen_ (what this level reached first), counted.
    uint64_t keepNew() {
        return sumOverWords([&](uint64_t w) { return static_cast<uint64_t>(std::popcount(next_.data[w] &= ~seen_.data[w])); });
    }

    // The new level becomes the frontier and is seen; next_ is cleared for
    // the level after; rank 0's table takes depth d for it.
    void advance(unsigned d) {
        sumOverWords([&](uint64_t w) {
            const uint64_t fresh = next_.data[w];
            seen_.data[w] |= fresh;
            frontier_.data[w] = fresh;
            next_.data[w] = 0;
            if (table_ && fresh) setNibbles(w, fresh, d);
            return uint64_t{0};
        });
    }

    // The sum of f(w) over every bitmap word, the threads taking a range each.
    template <class F>
    uint64_t sumOverWords(F&& f) {
        const int threads = std::max(1, options_.threads);
        const uint64_t per = (words() + threads - 1) / threads;
        return parallelSum(threads, [&](int t) {
            uint64_t sum = 0;
            for (uint64_t w = per * t; w < std::min(words(), per * t + per); ++w) sum += f(w);
            return sum;
        });
    }

    // Sets the 4-bit entries of the values whose bits are set in word w's
    // `bits` to d: 16 values per nibble word, spread 8 bits at a time.
    void setNibbles(uint64_t w, uint64_t bits, unsigned d) {
        const uint64_t value = nibbleBroadcast(d);
        for (unsigned q = 0; q < 4; ++q) {
            const uint64_t n = w * 4 + q;
            const unsigned part = static_cast<unsigned>(bits >> (16 * q)) & 0xFFFF;
            if (!part || n >= nibbleWords()) continue;
            const uint64_t mask =
                (uint64_t{kNibbleSpread[part & 0xFF]} | uint64_t{kNibbleSpread[part >> 8]} << 32) * 0xF;
            nibbles_.data[n] = (nibbles_.data[n] & ~mask) | (value & mask);
        }
    }
    void setNibble(uint64_t i, unsigned d) {
        const unsigned shift = (i & 15) * 4;
        nibbles_.data[i >> 4] = (nibbles_.data[i >> 4] & ~(uint64_t{0xF} << shift)) | uint64_t{d} << shift;
    }

    Transport& net_;
    BfsOptions options_;
    bool table_;
    HugeBuffer seen_, frontier_, next_, nibbles_;
    std::vector<HugeBuffer> marks_;  // threads 1.. (note [marks per thread])
    std::vector<uint64_t> counts_;
};

}  // namespace pz::enumerate
