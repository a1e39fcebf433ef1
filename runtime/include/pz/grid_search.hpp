// A* and BFS for grid-actor puzzles over packed states.
//
// Representation: a Space (generated per level, or the interpreter adapter)
// supplies State (bitboards), Key (the compact form the closed set keeps,
// see note [grid keys]), Hasher, kDead, and directions / initial / move /
// solved / heuristic / pack / unpack / hasher. The closed set stores each distinct state once in dense
// chunks (key, parent node, move, g) and finds it through an open-addressing
// table of 32-bit node numbers; with a u64 key a stored state costs 14 bytes
// plus 4 bytes / load of index (load 0.4-0.8: 19-24 bytes). The open list holds only
// node numbers, bucketed by f = g + h; a bucket is a stack, so among equal f
// the deepest node goes first.
//
// Optimality: the heuristic must be consistent (each move changes it by at
// most one). Goals are recognised when generated; a goal of cost c ends the
// search once every open f is >= c. A node reached again with a smaller g is
// re-linked and pushed again; stale open entries are skipped.
#pragma once

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "pz/support/prefetch.hpp"

namespace pz::grid {

inline uint64_t mixHash(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

namespace detail {
// note [index pool]
// The closed set's index buffers are kept for the next search of the
// process (the next level of a folder, the next --repeat run) instead of
// going back to malloc. A returned block of 2 MiB or more is not reliably
// handed out again at the same pages, and each fresh transparent huge page
// is zeroed by the kernel on first touch: 8-16% of a 12x12 level's search
// time went to clear_page before the pool. Up to kKeptBytes are kept;
// buffers are 64-byte aligned, 2 MiB aligned and madvise(MADV_HUGEPAGE)d
// from 2 MiB on (the probes and grow()'s re-inserts are random, and with
// 4 KiB pages each one was a TLB miss).
class IndexPool {
public:
    static constexpr size_t kHugePage = size_t(2) << 20;
    static constexpr size_t kKeptBytes = size_t(1) << 30;

    static uint32_t* take(size_t bytes) {
        {
            std::lock_guard<std::mutex> lock(instance().mutex_);
            auto& kept = instance().kept_;
            for (size_t i = 0; i < kept.size(); ++i)
                if (kept[i].bytes == bytes) {
                    uint32_t* p = kept[i].p;
                    instance().keptBytes_ -= bytes;
                    kept.erase(kept.begin() + (std::ptrdiff_t)i);
                    return p;
                }
        }
        auto* p = (uint32_t*)std::aligned_alloc(bytes >= kHugePage ? kHugePage : 64, bytes);
        if (!p) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
        if (bytes >= kHugePage) madvise(p, bytes, MADV_HUGEPAGE);
#endif
        return p;
    }
    static void give(uint32_t* p, size_t bytes) {
        if (!p) return;
        {
            std::lock_guard<std::mutex> lock(instance().mutex_);
            if (instance().keptBytes_ + bytes <= kKeptBytes) {
                instance().kept_.push_back({p, bytes});
                instance().keptBytes_ += bytes;
                return;
            }
        }
        std::free(p);
    }

private:
    struct Block {
        uint32_t* p;
        size_t bytes;
    };
    // Never destroyed: a closed set that outlives static destruction (one
    // owned by a static object) can still return its index. The process's
    // exit frees the kept blocks.
    static IndexPool& instance() {
        static IndexPool* pool = new IndexPool;
        return *pool;
    }
    std::mutex mutex_;
    std::vector<Block> kept_;
    size_t keptBytes_ = 0;
};
}  // namespace detail

// note [grid closed set]
// Nodes (key, parent, move, g) live in dense chunks, numbered in insertion
// order; an open-addressing index of 32-bit slots finds them. A slot holds
// node + 1 in its low s bits (2^s = the slot count, which always exceeds
// the node count) and a fingerprint of the hash in the 32 - s bits above,
// so a probe reads a stored key only when fingerprints agree (about one
// probe in 2^(32-s), e.g. 1 in 4096 at 2^20 slots). Slots are probed in
// aligned groups of 8 (32 bytes, half a cache line): one compare finds the
// group's empty and matching slots, so a probe has no data-dependent
// branch per slot (per-slot probing mispredicted about four times per
// expansion on the 12x12 benchmark levels).
template <class Key, class Hasher>
class ClosedSet {
public:
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    static constexpr uint32_t kChunkBits = 12, kChunkSize = 1u << kChunkBits;
    static constexpr int kMaxDepth = 255;  // g is one byte
    static constexpr int kInitialSlotBits = 14;
    static constexpr int kMaxSlotBits = 31;  // leaves a fingerprint of at least one bit
    static constexpr size_t kGroup = 8;

    explicit ClosedSet(Hasher hasher) : hasher_(std::move(hasher)) { allocateIndex(kInitialSlotBits); }

    uint32_t size() const { return size_; }
    size_t slots() const { return mask_ + 1; }
    const Key& key(uint32_t n) const { return chunk(n).keys[n & (kChunkSize - 1)]; }
    uint32_t parent(uint32_t n) const { return chunk(n).parent[n & (kChunkSize - 1)]; }
    int move(uint32_t n) const { return chunk(n).move[n & (kChunkSize - 1)]; }
    int g(uint32_t n) const { return chunk(n).g[n & (kChunkSize - 1)]; }
    void link(uint32_t n, uint32_t parent, int move, int g) {
        Chunk& c = chunk(n);
        c.parent[n & (kChunkSize - 1)] = parent;
        c.move[n & (kChunkSize - 1)] = (uint8_t)move;
        c.g[n & (kChunkSize - 1)] = (uint8_t)g;
    }

    uint64_t hash(const Key& k) const { return hasher_(k); }
    // Brings the key's index group into cache ahead of insert().
    void prefetch(uint64_t hash) const { pz::prefetch(&index_[groupOf(hash)]); }
    // With the key's group in cache: if a slot of it has the key's
    // fingerprint, brings that node's key and g into cache ahead of insert()
    // (a duplicate's two reads; a fresh key has no match).
    void prefetchMatch(uint64_t hash) const {
        const uint32_t* slots = &index_[groupOf(hash)];
        const uint32_t match = groupMasks(slots, tagOf(hash)).second;
        if (match) {
            const uint32_t n = (slots[__builtin_ctz(match)] & nodeMask_) - 1;
            const Chunk& c = chunk(n);
            pz::prefetch(&c.keys[n & (kChunkSize - 1)]);
            pz::prefetch(&c.g[n & (kChunkSize - 1)]);
        }
    }

    // Returns (node, true) for a new key, (existing node, false) otherwise.
    std::pair<uint32_t, bool> insert(const Key& k) { return insert(k, hasher_(k)); }
    [[gnu::always_inline]] std::pair<uint32_t, bool> insert(const Key& k, uint64_t hash) {
        if ((uint64_t)(size_ + 1) * 5 > ((uint64_t)mask_ + 1) * 4) [[unlikely]] grow();
        const uint32_t tag = tagOf(hash);
        for (size_t group = groupOf(hash);; group = (group + kGroup) & mask_) {
            const uint32_t* slots = &index_[group];
            auto [empty, match] = groupMasks(slots, tag);
            while (match) [[unlikely]] {
                const uint32_t n = (slots[__builtin_ctz(match)] & nodeMask_) - 1;
                if (key(n) == k) return {n, false};
                match &= match - 1;
            }
            if (empty) [[likely]] {
                const uint32_t n = size_++;
                if ((n >> kChunkBits) == chunks_.size()) [[unlikely]]
                    chunks_.push_back(std::unique_ptr<Chunk>(new Chunk));  // no zeroing
                chunk(n).keys[n & (kChunkSize - 1)] = k;
                index_[group + __builtin_ctz(empty)] = (n + 1) | tag;
                return {n, true};
            }
        }
    }

    // The most states a closed set can hold.
    // Bytes of an empty closed set with its first chunk (its index is
    // allocated by the constructor).
    static constexpr size_t bytesAtStart() { return (size_t(1) << kInitialSlotBits) * sizeof(uint32_t) + sizeof(Chunk); }

    static constexpr uint64_t kCapacity = (uint64_t(1) << kMaxSlotBits) / 5 * 4 - 1;

    // Bytes held: the node chunks plus the index.
    size_t bytes() const { return chunks_.size() * sizeof(Chunk) + (mask_ + 1) * sizeof(uint32_t); }
    // Peak bytes held once `more` further states are inserted: the chunks
    // they need, and the index (three times it when they make it grow: the
    // old index and the doubled one are both held while grow() re-inserts).
    size_t bytesAfter(size_t more) const {
        const size_t nodes = (size_t)size_ + more;
        const size_t chunks = (nodes + kChunkSize - 1) / kChunkSize;
        const size_t index = (mask_ + 1) * sizeof(uint32_t);
        const bool grows = (uint64_t)nodes * 5 > ((uint64_t)mask_ + 1) * 4;
        return std::max(chunks, chunks_.size()) * sizeof(Chunk) + (grows ? 3 : 1) * index;
    }
    // Bytes per stored state in steady state (no partially filled chunk).
    static constexpr double bytesPerNode() { return (double)sizeof(Chunk) / kChunkSize; }

private:
    struct Chunk {
        Key keys[kChunkSize];
        uint32_t parent[kChunkSize];
        uint8_t g[kChunkSize];
        uint8_t move[kChunkSize];
    };
    struct FreeIndex {
        size_t bytes = 0;
        void operator()(uint32_t* p) const { detail::IndexPool::give(p, bytes); }
    };
    Chunk& chunk(uint32_t n) { return *chunks_[n >> kChunkBits]; }
    const Chunk& chunk(uint32_t n) const { return *chunks_[n >> kChunkBits]; }
    size_t groupOf(uint64_t hash) const { return hash & mask_ & ~(kGroup - 1); }
    // The fingerprint is the hash's top 32 - s bits, kept in place above the
    // node field (one shift by a constant and a mask); the group comes from
    // bits 3 .. s-1.
    uint32_t tagOf(uint64_t hash) const { return (uint32_t)(hash >> 32) & ~nodeMask_; }

    // Bit i of `empty`: slot i of the group is free; of `match`: it holds a
    // node whose fingerprint is `tag`.
    [[gnu::always_inline]] std::pair<uint32_t, uint32_t> groupMasks(const uint32_t* slots, uint32_t tag) const {
#if defined(__AVX2__)
        const __m256i v = _mm256_load_si256((const __m256i*)slots);
        const uint32_t empty =
            (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256())));
        const __m256i tags = _mm256_and_si256(v, _mm256_set1_epi32((int)~nodeMask_));
        const uint32_t same =
            (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(tags, _mm256_set1_epi32((int)tag))));
        return {empty, same & ~empty};
#else
        uint32_t empty = 0, match = 0;
        for (size_t i = 0; i < kGroup; ++i) {
            empty |= (uint32_t)(slots[i] == 0) << i;
            match |= (uint32_t)(slots[i] != 0 && (slots[i] & ~nodeMask_) == tag) << i;
        }
        return {empty, match};
#endif
    }

    // The index comes from the pool (note [index pool]).
    void allocateIndex(int slotBits) {
        const size_t slots = size_t(1) << slotBits, bytes = slots * sizeof(uint32_t);
        index_ = std::unique_ptr<uint32_t[], FreeIndex>(detail::IndexPool::take(bytes), FreeIndex{bytes});
        std::memset(index_.get(), 0, bytes);
        slotBits_ = slotBits;
        mask_ = slots - 1;
        nodeMask_ = (uint32_t)mask_;
    }
    // Doubles the index and re-inserts every node in node order (keys read
    // sequentially; only the new index is written at random).
    [[gnu::noinline]] void grow() {
        if (slotBits_ >= kMaxSlotBits) throw std::length_error("closed set: more than 2^31 index slots");
        allocateIndex(slotBits_ + 1);
        // Hashes are computed kAhead nodes early and their groups prefetched,
        // so the random group reads of the re-inserts overlap. The new index
        // is mostly not in cache; at 16 ahead (~80 ns) half of grow()'s samples
        // still waited on it (s12x12-5r4b-seed1: grow 12.5 -> 8.9 ms at 64).
        constexpr uint32_t kAhead = 64;
        uint64_t ahead[kAhead];
        for (uint32_t n = 0; n < std::min(size_, kAhead); ++n) {
            ahead[n] = hasher_(key(n));
            pz::prefetchForWrite(&index_[groupOf(ahead[n])]);
        }
        for (uint32_t n = 0; n < size_; ++n) {
            const uint64_t hash = ahead[n % kAhead];
            if (n + kAhead < size_) {
                ahead[n % kAhead] = hasher_(key(n + kAhead));
                pz::prefetchForWrite(&index_[groupOf(ahead[n % kAhead])]);
            }
            const uint32_t tag = tagOf(hash);
            for (size_t group = groupOf(hash);; group = (group + kGroup) & mask_) {
                const uint32_t empty = groupMasks(&index_[group], tag).first;
                if (empty) {
                    index_[group + __builtin_ctz(empty)] = (n + 1) | tag;
                    break;
                }
            }
        }
    }

    std::vector<std::unique_ptr<Chunk>> chunks_;
    Hasher hasher_;
    std::unique_ptr<uint32_t[], FreeIndex> index_;  // 0 = empty, else (node + 1) | fingerprint
    size_t mask_ = 0;                               // slot count - 1
    uint32_t nodeMask_ = 0;                         // the node + 1 field of a slot
    int slotBits_ = 0;
    uint32_t size_ = 0;
};

// Keeps freed memory in the process: malloc neither trims the heap nor
// serves closed-set blocks with their own mmap. A search that follows another
// (the next level of a folder, the next --repeat run) then reuses pages that
// are already mapped; faulting in fresh zeroed pages cost about as much as
// the search itself on levels with 10^5 states (measured: 3.14-antiparticle
// 13 -> 8 ms, s12x12-5r4b-seed2 106 -> 54 ms). Called once per process by
// whoever runs searches (generated main, pzc's interpreter path).
inline void keepFreedMemory() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest allowed threshold
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

// note [grid memory budget]
// A search holds its closed set (keys, parents, moves and g in chunks, and
// the index: ClosedSet::bytes) and its open list (8 bytes per entry, twice
// that for vector growth). Before each batch of inserts it projects the
// peak after them (ClosedSet::bytesAfter: the next chunks, and the index
// tripled while it doubles) and stops with MemoryLimit when that would pass
// SearchLimits::memoryBytes, so a search never meets bad_alloc within its
// budget; SearchResult::neededBytes is the projection that did not fit.
// pzc solve --memory (default: a quarter of physical memory) sets it.
struct SearchLimits {
    uint64_t maxStates = 200'000'000;  // give up (not "unsolvable") beyond this
    uint64_t memoryBytes = UINT64_MAX;  // note [grid memory budget]
    // Batched expansion (note [batched expansion]) from an index of this many
    // slots (a 1 MiB index: smaller ones sit in L2, where batching only
    // costs). Tests set 0 to run the batched path on small levels.
    size_t batchFromSlots = size_t(1) << 18;
};

struct SearchResult {
    enum class Outcome { Solved, Unsolvable, LimitReached, MemoryLimit };
    Outcome outcome = Outcome::Unsolvable;
    size_t neededBytes = 0;  // MemoryLimit: the projected peak (note [grid memory budget])
    std::vector<int> moves;
    uint64_t expanded = 0;  // states whose successors were generated
    uint64_t stored = 0;    // distinct states in the closed set
    size_t closedBytes = 0;
    size_t openPeakEntries = 0;
    double seconds = 0;
};

namespace detail {
// Calls f(p) for every direction; unrolled when the Space knows its
// direction count at compile time (generated spaces), so each kernel is
// called with a constant direction and can be inlined.
// A child's h: spaces that can use a lower bound get the parent's h - 1
// (valid because the heuristic is consistent).
template <class Space>
[[gnu::always_inline]] inline int childHeuristic(const Space& space, const typename Space::State& child, int parentH) {
    if constexpr (requires { space.heuristicAtLeast(child, 0); })
        return space.heuristicAtLeast(child, parentH > 0 ? parentH - 1 : 0);
    else
        return space.heuristic(child);
}

// Spaces whose key and heuristic come from the same pass over the actors
// offer packEstimate(state, h); the search then takes h for every child
// when it packs it (most children are new states, which need h anyway).
template <class Space>
concept PacksEstimates = requires(const Space& space, const typename Space::State& s, int& h) {
    { space.packEstimate(s, h) } -> std::same_as<typename Space::Key>;
};

template <class Space, class F>
[[gnu::always_inline]] inline void forEachDirection(const Space& space, F&& f) {
    if constexpr (requires { std::integral_constant<int, Space::kDirections>{}; }) {
        [&]<int... P>(std::integer_sequence<int, P...>) __attribute__((always_inline)) {
            (f(P), ...);
        }(std::make_integer_sequence<int, Space::kDirections>{});
    } else {
        for (int p = 0; p < space.directions(); ++p) f(p);
    }
}

template <class Closed>
std::vector<int> pathTo(const Closed& closed, uint32_t node, int lastMove) {
    std::vector<int> moves;
    if (lastMove >= 0) moves.push_back(lastMove);
    for (uint32_t n = node; closed.parent(n) != Closed::kNone; n = closed.parent(n)) moves.push_back(closed.move(n));
    return {moves.rbegin(), moves.rend()};
}
}  // namespace detail

template <class Space>
SearchResult bfs(const Space& space, const SearchLimits& limits = {});

// note [grid depth limit]
// A* stores g in one byte (ClosedSet::kMaxDepth = 255) and expands with
// per-expansion buffers for kMaxDirections directions. Neither may turn into
// a false "no solution": a level whose search was cut at depth 255 without a
// solution, or a puzzle with more directions, is searched again breadth
// first, which needs neither (its order is the closed set's; g is only
// informational there), so the answer is still optimal or a true
// "unsolvable". pzc check refuses more than kMaxDirections directions anyway.
template <class Space>
SearchResult astar(const Space& space, const SearchLimits& limits) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    SearchResult result;
    auto finish = [&](SearchResult::Outcome outcome) {
        result.outcome = outcome;
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return result;
    };
    using State = typename Space::State;
    using Key = typename Space::Key;
    const State initial = space.initial();
    if (space.solved(initial)) return finish(SearchResult::Outcome::Solved);
    const int h0 = space.heuristic(initial);
    if (h0 >= Space::kDead) return finish(SearchResult::Outcome::Unsolvable);

    using Closed = ClosedSet<Key, typename Space::Hasher>;
    if (Closed::bytesAtStart() > limits.memoryBytes) {
        result.neededBytes = Closed::bytesAtStart();
        return finish(SearchResult::Outcome::MemoryLimit);
    }
    Closed closed(space.hasher());
    // An open entry is node | g << 32; it is stale if the node's g dropped since.
    std::vector<std::vector<uint64_t>> buckets(h0 + 1);
    {
        auto [n, fresh] = closed.insert(space.pack(initial));
        closed.link(n, Closed::kNone, 0, 0);
        buckets[h0].push_back(n);
    }
    size_t openEntries = 1;
    // note [recent states]: the open list pops the latest pushes first (a
    // bucket is a stack), so the states of recently pushed nodes are kept
    // in a small direct-mapped table and a pop of one skips unpack().
    constexpr bool kRecent = !std::is_same_v<Key, State>;
    constexpr size_t kRecentSlots = kRecent ? 4096 : 1;
    struct RecentState {
        uint32_t node;
        State state;
    };
    std::vector<RecentState> recent(kRecentSlots, RecentState{Closed::kNone, State{}});
    int best = 1 << 30;
    uint32_t bestParent = 0;
    int bestMove = -1;
    constexpr int kMaxDirections = 16;  // per-expansion child buffers
    const int directions = space.directions();
    if (directions > kMaxDirections) return bfs(space, limits);
    bool depthCut = false;  // a node at kMaxDepth was not expanded
    // note [batched expansion]: up to kBatch nodes of the current bucket are
    // expanded together. All their children are generated and their index
    // groups prefetched first; then each child whose group holds a matching
    // fingerprint has its stored key prefetched; only then are the children
    // inserted, in order. The random reads of the closed set (the index
    // group of every child, the key and g of every duplicate) then overlap
    // instead of stalling one by one. Taking the top kBatch entries of a
    // bucket before their children are pushed is still A*: every entry of
    // the bucket has the same f, and with a consistent heuristic no child
    // can lower the g of a node already in the current bucket.
    // Small closed sets sit in the L2 cache, where batching only adds work:
    // it starts once the index reaches limits.batchFromSlots.
    constexpr int kBatch = 16;
    constexpr bool kEstimates = detail::PacksEstimates<Space>;
    struct Child {
        Key key;
        uint64_t hash;
        uint32_t parent;
        int move, g, h;
    };
    Child children[kBatch * kMaxDirections];
    State states[kBatch * kMaxDirections];  // for the heuristic (unless packEstimate gave it) and `recent`
    for (int f = h0; f < best && f < (int)buckets.size(); ++f) {
        while (!buckets[f].empty()) {
            const bool batched = closed.slots() >= limits.batchFromSlots;
            const int batch = batched ? kBatch : 1;
            int count = 0;
            for (int taken = 0; taken < batch && !buckets[f].empty();) {
                const uint64_t entry = buckets[f].back();
                buckets[f].pop_back();
                --openEntries;
                const uint32_t node = (uint32_t)entry;
                const int g = (int)(entry >> 32);
                if (closed.g(node) != g) continue;  // stale: re-linked with a smaller g
                ++taken;
                ++result.expanded;
                if (g + 1 > Closed::kMaxDepth) {
                    depthCut = true;
                    continue;
                }
                State s;
                if constexpr (kRecent) {
                    const RecentState& r = recent[node & (kRecentSlots - 1)];
                    s = r.node == node ? r.state : space.unpack(closed.key(node));
                } else {
                    s = space.unpack(closed.key(node));
                }
                detail::forEachDirection(space, [&](int p) __attribute__((always_inline)) {
                    const State t = space.move(s, p);
                    if (t == s) return;  // nothing moved
                    if (space.solved(t)) {
                        if (g + 1 < best) best = g + 1, bestParent = node, bestMove = p;
                        return;
                    }
                    Child& c = children[count];
                    if constexpr (kEstimates)
                        c.key = space.packEstimate(t, c.h);
                    else
                        c.key = space.pack(t);
                    if constexpr (!kEstimates || kRecent) states[count] = t;
                    c.hash = closed.hash(c.key);
                    closed.prefetch(c.hash);
                    c.parent = node, c.move = p, c.g = g + 1;
                    ++count;
                });
            }
            // note [grid memory budget]: stop before the inserts would pass it.
            if (const size_t need = closed.bytesAfter((size_t)count) + (openEntries + (size_t)count) * 16;
                need > limits.memoryBytes) {
                result.stored = closed.size();
                result.closedBytes = closed.bytes();
                result.neededBytes = need;
                return finish(SearchResult::Outcome::MemoryLimit);
            }
            if (batched)
                for (int i = 0; i < count; ++i) closed.prefetchMatch(children[i].hash);
            for (int i = 0; i < count; ++i) {
                Child& c = children[i];
                auto [n, fresh] = closed.insert(c.key, c.hash);
                if (!fresh && closed.g(n) <= c.g) continue;
                int h;
                if constexpr (kEstimates)
                    h = c.h;
                else
                    h = detail::childHeuristic(space, states[i], f - (c.g - 1));
                closed.link(n, c.parent, c.move, c.g);
                if (h >= Space::kDead) continue;  // stored, never expanded
                const int fn = c.g + h;
                if (fn >= (int)buckets.size()) buckets.resize(fn + 1);
                buckets[fn].push_back(n | (uint64_t)c.g << 32);
                if constexpr (kRecent) recent[n & (kRecentSlots - 1)] = {n, states[i]};
                result.openPeakEntries = std::max(result.openPeakEntries, ++openEntries);
            }
            if (best <= f) break;
            if (closed.size() > limits.maxStates || closed.size() >= Closed::kCapacity - 64) {
                result.stored = closed.size();
                result.closedBytes = closed.bytes();
                return finish(SearchResult::Outcome::LimitReached);
            }
        }
    }
    result.stored = closed.size();
    result.closedBytes = closed.bytes();
    if (bestMove < 0 && depthCut) {
        SearchResult deep = bfs(space, limits);
        deep.expanded += result.expanded;
        deep.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return deep;
    }
    if (bestMove < 0) return finish(SearchResult::Outcome::Unsolvable);
    result.moves = detail::pathTo(closed, bestParent, bestMove);
    return finish(SearchResult::Outcome::Solved);
}

// Breadth-first search: the closed set's node order is the queue.
template <class Space>
SearchResult bfs(const Space& space, const SearchLimits& limits) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    SearchResult result;
    auto finish = [&](SearchResult::Outcome outcome) {
        result.outcome = outcome;
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return result;
    };
    using State = typename Space::State;
    using Key = typename Space::Key;
    const State initial = space.initial();
    if (space.solved(initial)) return finish(SearchResult::Outcome::Solved);
    using Closed = ClosedSet<Key, typename Space::Hasher>;
    if (Closed::bytesAtStart() > limits.memoryBytes) {
        result.neededBytes = Closed::bytesAtStart();
        return finish(SearchResult::Outcome::MemoryLimit);
    }
    Closed closed(space.hasher());
    closed.link(closed.insert(space.pack(initial)).first, Closed::kNone, 0, 0);
    for (uint32_t node = 0; node < closed.size(); ++node) {
        const State s = space.unpack(closed.key(node));
        ++result.expanded;
        // note [grid memory budget]: this node's children at most.
        if (const size_t need = closed.bytesAfter((size_t)space.directions()); need > limits.memoryBytes) {
            result.stored = closed.size();
            result.closedBytes = closed.bytes();
            result.neededBytes = need;
            return finish(SearchResult::Outcome::MemoryLimit);
        }
        for (int p = 0; p < space.directions(); ++p) {
            const State t = space.move(s, p);
            if (space.solved(t)) {
                result.moves = detail::pathTo(closed, node, p);
                result.stored = closed.size();
                result.closedBytes = closed.bytes();
                return finish(SearchResult::Outcome::Solved);
            }
            auto [n, fresh] = closed.insert(space.pack(t));
            if (fresh) closed.link(n, node, p, std::min(closed.g(node) + 1, Closed::kMaxDepth));
        }
        if (closed.size() > limits.maxStates || closed.size() >= Closed::kCapacity - 64)
            return finish(SearchResult::Outcome::LimitReached);
    }
    result.stored = closed.size();
    result.closedBytes = closed.bytes();
    return finish(SearchResult::Outcome::Unsolvable);
}

}  // namespace pz::grid
