// pz/blocks/small_space.hpp — breadth-first search over the whole reachable
// set of a sliding-block level (Rush Hour, Klotski: clusters of 10^3..10^6
// states). The traits are note [blocks traits] in pz/blocks/board.hpp.
//
// note [blocks small space]
// A state is the anchors of all pieces, the pieces ordered by type (level
// order within a type at the start) and, within a type, by anchor: pieces of
// one type are interchangeable, so states that differ by swapping them are
// one state. A state packs each anchor in 6 bits, K = ceil(6n / 64) words
// for n pieces (K = 2 up to 21 pieces; at most 6 for 64 pieces), searched by
// an instance for each K. The closed set keeps the keys densely in node
// order (K words each) with a parent node per node, and a second copy in an
// open-addressing table of keys (load <= 1/2), so a lookup reads one slot
// and never the node list. The nodes themselves are the BFS queue
// (insertion order is breadth-first order). A child's key is its parent's
// with the moved piece's field set (and the fields of its type group it
// passes shifted by one); a node's children are generated, hashed and their
// slots prefetched before any is looked up. The node set is kept per
// thread between searches (up to 4M states), so a file of levels does not
// fault in fresh pages for each.
//
// Figures (bench/blocks, CPU time on a shared 2-core machine): Rush Hour's
// hardest board 0.55 ms to the goal, 0.62 ms for its whole cluster of
// 2,332; clusters of ~10^4 in 3-4 ms; Klotski's 25,955 states in 6-8 ms in
// each metric (3-4 M states/s; 1.8-2.5 M/s past 10^5 states).
//
// Successors (note [blocks model]): for each piece, with its own cells taken
// out of the occupied mask, each direction on its axis: step = the next
// anchor if `placement[to] & occupied == 0`; slide = every anchor along
// the direction while that holds, each a move; path = every anchor reached
// by a flood fill of steps, each a move. Goals are tested when a state is
// first generated, so the first goal found is at the least depth; with
// `countAll` the search goes on over the whole cluster (the reachable
// count), otherwise it stops there.
//
// The solution found (a chain of canonical states) is turned back into
// moves of named pieces by matching each step against the moves of the
// actual pieces (any piece of a type will do), then checked by `replay`.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "pz/blocks/board.hpp"
#include "pz/support/prefetch.hpp"

namespace pz::blocks {

struct SearchOptions {
    bool countAll = false;      // search the whole cluster (the reachable count)
    uint64_t maxStates = 0;     // 0: no limit; else stop ("limit") beyond this many stored states
};

struct SearchResult {
    enum class Outcome { Solved, Unsolvable, Limit } outcome = Outcome::Unsolvable;
    std::vector<Move> moves;     // Solved: an optimal solution, level piece indices
    uint64_t states = 0;         // states stored (visited) when the search stopped
    uint64_t reachable = 0;      // the cluster size, when the whole cluster was searched (else 0)
    bool complete = false;       // the whole cluster was searched
    double seconds = 0;
};

namespace detail {

inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

// Anchors of n pieces, 6 bits each, in K words.
template <int K>
struct Key {
    std::array<uint64_t, K> w{};
    bool operator==(const Key& o) const {
        uint64_t d = 0;
        for (int i = 0; i < K; ++i) d |= w[i] ^ o.w[i];
        return d == 0;
    }
};

template <int K>
inline Key<K> pack(const uint8_t* anchors, int n) {
    Key<K> k;
    for (int j = 0; j < n; ++j) {
        const unsigned bit = 6u * unsigned(j), wi = bit >> 6, off = bit & 63;
        k.w[wi] |= uint64_t(anchors[j]) << off;
        if (off > 58) k.w[wi + 1] |= uint64_t(anchors[j]) >> (64 - off);
    }
    return k;
}

template <int K>
inline void unpack(const Key<K>& k, uint8_t* anchors, int n) {
    for (int j = 0; j < n; ++j) {
        const unsigned bit = 6u * unsigned(j), wi = bit >> 6, off = bit & 63;
        uint64_t v = k.w[wi] >> off;
        if (off > 58) v |= k.w[wi + 1] << (64 - off);
        anchors[j] = uint8_t(v & 63);
    }
}

template <int K>
inline uint64_t hashKey(const Key<K>& k) {
    // The words folded by odd multipliers, then one finalising mix.
    uint64_t h = k.w[0];
    for (int i = 1; i < K; ++i) h = (h ^ (h >> 29)) * 0x9e3779b97f4a7c15ULL + k.w[i];
    return mix64(h);
}

// One anchor field of a key.
template <int K>
inline int field(const Key<K>& k, int j) {
    const unsigned bit = 6u * unsigned(j), wi = bit >> 6, off = bit & 63;
    uint64_t v = k.w[wi] >> off;
    if (off > 58) v |= k.w[wi + 1] << (64 - off);
    return int(v & 63);
}

template <int K>
inline void setField(Key<K>& k, int j, int a) {
    const unsigned bit = 6u * unsigned(j), wi = bit >> 6, off = bit & 63;
    k.w[wi] = (k.w[wi] & ~(uint64_t(63) << off)) | (uint64_t(a) << off);
    if (off > 58) {
        const unsigned hi = 64 - off;  // bits of the field in the next word
        k.w[wi + 1] = (k.w[wi + 1] & ~(uint64_t(63) >> hi)) | (uint64_t(a) >> hi);
    }
}

// The nodes (key, parent) in insertion order, which is the BFS queue, and
// an open-addressing table of the keys themselves (a probe reads one slot,
// never the node list: most successors are already stored, and confirming
// them through a node number would be a second cache miss). An empty slot
// has word 0 all ones, which no state has: two pieces would share anchor 63.
template <int K>
class NodeSet {
public:
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    NodeSet() { resize(size_t(1) << 12); }
    // Empty again, keeping the memory (the next level's search reuses it:
    // fresh pages would cost a page fault each) unless it held more than
    // kKeptStates states.
    static constexpr size_t kKeptStates = size_t(1) << 22;
    void clear() {
        if (keys_.capacity() > kKeptStates) {
            std::vector<Key<K>>().swap(keys_);
            std::vector<uint32_t>().swap(parents_);
            std::vector<Key<K>>().swap(table_);
        }
        keys_.clear();
        parents_.clear();
        table_.clear();
        resize(size_t(1) << 12);
    }
    size_t size() const { return keys_.size(); }
    const Key<K>& key(uint32_t i) const { return keys_[i]; }
    uint32_t parent(uint32_t i) const { return parents_[i]; }
    const Key<K>* slotOf(uint64_t hash) const { return &table_[hash & mask_]; }
    // Inserts the key (with its hash and parent) unless present; true if new.
    bool insert(const Key<K>& k, uint64_t hash, uint32_t parent) {
        for (size_t s = hash & mask_;; s = (s + 1) & mask_) {
            Key<K>& slot = table_[s];
            if (slot.w[0] == kEmpty) {
                if (keys_.size() >= kNone - 1) throw std::length_error("pz::blocks: more than 2^32 states");
                slot = k;
                keys_.push_back(k);
                parents_.push_back(parent);
                if (keys_.size() * 2 > table_.size()) resize(table_.size() * 2);
                return true;
            }
            if (slot == k) return false;
        }
    }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    void resize(size_t slots) {
        Key<K> empty;
        empty.w[0] = kEmpty;
        table_.assign(slots, empty);
        mask_ = slots - 1;
        for (const auto& k : keys_) {
            size_t s = hashKey(k) & mask_;
            while (table_[s].w[0] != kEmpty) s = (s + 1) & mask_;
            table_[s] = k;
        }
    }
    std::vector<Key<K>> keys_;
    std::vector<uint32_t> parents_;
    std::vector<Key<K>> table_;
    size_t mask_ = 0;
};

// The level's pieces in search order: by type, level order within a type.
struct Order {
    std::vector<int> levelIndex;  // search slot -> level piece index
    std::vector<uint8_t> types;   // search slot -> type
    std::vector<int> groupEnd;    // search slot -> one past the last slot of its type
    std::vector<int> groupStart;  // search slot -> the first slot of its type
};

template <class T>
Order orderOf(const Level& level) {
    Order o;
    const int n = (int)level.pieces.size();
    for (int t = 0; t < T::kTypes; ++t)
        for (int i = 0; i < n; ++i)
            if (level.pieces[i].type == t) {
                o.levelIndex.push_back(i);
                o.types.push_back(uint8_t(t));
            }
    o.groupEnd.assign(n, n);
    for (int i = n - 1; i >= 0; --i) o.groupEnd[i] = (i + 1 < n && o.types[i + 1] == o.types[i]) ? o.groupEnd[i + 1] : i + 1;
    o.groupStart.assign(n, 0);
    for (int i = 0; i < n; ++i) o.groupStart[i] = (i > 0 && o.types[i - 1] == o.types[i]) ? o.groupStart[i - 1] : i;
    return o;
}

// Whether canonical anchors (search order) meet the goal.
template <class T>
inline bool goalOf(const uint8_t* anchors, const Order& o, int n) {
    if constexpr (T::kGoalKind == GoalKind::Exit) {
        for (int j = 0; j < n; ++j)
            if (o.types[j] == T::kExitType && (kGeometry<T>.exitAnchors >> anchors[j] & 1)) return true;
        return false;
    } else {
        std::array<uint64_t, 64> m{};
        for (int j = 0; j < n; ++j) m[o.types[j]] |= uint64_t(1) << anchors[j];
        for (int t = 0; t < T::kTypes; ++t) {
            if constexpr (T::kGoalKind == GoalKind::Full) {
                if (m[t] != T::kGoalAnchors[t]) return false;
            } else if (T::kGoalAnchors[t] & ~m[t]) {
                return false;
            }
        }
        return true;
    }
}

// Calls f(slot, to) for every move of the piece in search slot j (anchors in
// search order, occ every covered cell and wall): the destinations by the
// metric, each once.
template <class T, class F>
inline void forEachMove(const uint8_t* anchors, const Order& o, int j, uint64_t occ, F&& f) {
    const auto& g = kGeometry<T>;
    const int t = o.types[j];
    const int a = anchors[j];
    const uint64_t rest = occ & ~T::kPlacement[t][a];
    if constexpr (T::kMetric == Metric::Path) {
        uint64_t reach = reachableAnchors<T>(t, a, rest) & ~(uint64_t(1) << a);
        while (reach) {
            int b = __builtin_ctzll(reach);
            reach &= reach - 1;
            f(b, -1, 0);
        }
    } else {
        for (int d = 0; d < 4; ++d) {
            if (!axisAllows(T::kAxis[t], d)) continue;
            int b = a;
            for (int dist = 1;; ++dist) {
                b = g.step[d][b];
                if (b < 0) break;
                const uint64_t m = T::kPlacement[t][b];
                if (m == 0 || (m & rest)) break;
                f(b, d, dist);
                if constexpr (T::kMetric == Metric::Step) break;
            }
        }
    }
}

// The key with slot j (at anchor cur[j]) moved to anchor b, the fields of
// j's type group kept sorted: the fields between j's old and new place
// shift by one (usually none: pieces of one type rarely pass each other).
template <int K>
inline Key<K> movedKey(const Key<K>& key, const uint8_t* cur, int j, int b, int groupStart, int groupEnd) {
    Key<K> k = key;
    int i = j;
    while (i > groupStart && cur[i - 1] > b) {
        setField(k, i, cur[i - 1]);
        --i;
    }
    while (i + 1 < groupEnd && cur[i + 1] < b) {
        setField(k, i, cur[i + 1]);
        ++i;
    }
    setField(k, i, b);
    return k;
}

// Whether the anchors of one type meet the goal's condition on that type.
template <class T>
inline bool typeMeetsGoal(int t, uint64_t anchors) {
    if constexpr (T::kGoalKind == GoalKind::Full) return anchors == T::kGoalAnchors[t];
    else return (T::kGoalAnchors[t] & ~anchors) == 0;
}

template <class T, int K>
SearchResult searchK(const Level& level, const SearchOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    SearchResult result;
    const Order o = orderOf<T>(level);
    const int n = (int)level.pieces.size();

    uint8_t cur[64];
    for (int j = 0; j < n; ++j) cur[j] = uint8_t(level.pieces[o.levelIndex[j]].anchor);
    for (int j = 0; j < n;) {  // sort each type group
        std::sort(cur + j, cur + o.groupEnd[j]);
        j = o.groupEnd[j];
    }
    const uint32_t kNone = NodeSet<K>::kNone;
    // One node set per thread and key width, kept between searches.
    // (A reference: each use of a thread_local with a constructor would go
    // through its initialisation check.)
    static thread_local NodeSet<K> kept;
    NodeSet<K>& set = kept;
    set.clear();
    {
        const Key<K> k0 = pack<K>(cur, n);
        set.insert(k0, hashKey(k0), kNone);
    }
    uint32_t goal = goalOf<T>(cur, o, n) ? 0 : kNone;
    // A node's successors, generated (and their table slots prefetched)
    // before any is looked up, so the lookups' misses overlap.
    struct Child {
        Key<K> key;
        uint64_t hash;
        bool goal;
    };
    std::vector<Child> children;
    children.reserve(size_t(n) * 64);
    std::array<uint64_t, 64> typeAnchors{};
    uint32_t head = 0;
    for (; head < set.size() && (goal == kNone || options.countAll); ++head) {
        if (options.maxStates && set.size() > options.maxStates) break;
        const Key<K> key = set.key(head);
        unpack<K>(key, cur, n);
        uint64_t occ = T::kWalls;
        for (int j = 0; j < n; ++j) occ |= T::kPlacement[o.types[j]][cur[j]];
        // Goal bookkeeping (until a goal is found): a child differs from
        // this node in one piece, so only its type's condition changes.
        const bool wantGoal = goal == kNone;
        int unmet = 0;
        if constexpr (T::kGoalKind != GoalKind::Exit) {
            if (wantGoal) {
                for (int t = 0; t < T::kTypes; ++t) typeAnchors[t] = 0;
                for (int j = 0; j < n; ++j) typeAnchors[o.types[j]] |= uint64_t(1) << cur[j];
                for (int t = 0; t < T::kTypes; ++t) unmet += !typeMeetsGoal<T>(t, typeAnchors[t]);
            }
        }
        children.clear();
        for (int j = 0; j < n; ++j)
            forEachMove<T>(cur, o, j, occ, [&](int b, int, int) {
                Child c;
                c.key = movedKey<K>(key, cur, j, b, o.groupStart[j], o.groupEnd[j]);
                c.hash = hashKey(c.key);
                c.goal = false;
                if (wantGoal) {
                    const int t = o.types[j];
                    if constexpr (T::kGoalKind == GoalKind::Exit) {
                        c.goal = t == T::kExitType && (kGeometry<T>.exitAnchors >> b & 1);
                    } else {
                        const uint64_t moved = typeAnchors[t] ^ (uint64_t(1) << cur[j]) ^ (uint64_t(1) << b);
                        c.goal = unmet - !typeMeetsGoal<T>(t, typeAnchors[t]) + !typeMeetsGoal<T>(t, moved) == 0;
                    }
                }
                pz::prefetch(set.slotOf(c.hash));
                children.push_back(c);
            });
        for (const Child& c : children)
            if (set.insert(c.key, c.hash, head) && c.goal && goal == kNone) goal = uint32_t(set.size() - 1);
    }
    result.states = set.size();
    result.complete = head >= set.size();
    if (result.complete) result.reachable = set.size();
    result.outcome = goal != kNone       ? SearchResult::Outcome::Solved
                     : result.complete   ? SearchResult::Outcome::Unsolvable
                                         : SearchResult::Outcome::Limit;
    if (goal != NodeSet<K>::kNone) {
        // The chain of canonical states, start first.
        std::vector<uint32_t> chain;
        for (uint32_t v = goal; v != NodeSet<K>::kNone; v = set.parent(v)) chain.push_back(v);
        std::reverse(chain.begin(), chain.end());
        // Named pieces follow the chain: at each step, the move of an actual
        // piece whose canonical result is the next state.
        std::vector<Piece> pieces = level.pieces;
        for (size_t s = 1; s < chain.size(); ++s) {
            const Key<K>& want = set.key(chain[s]);
            // Search-order view of the actual pieces (not sorted: slot j of
            // the actual pieces is level piece o.levelIndex[j]).
            uint8_t actual[64];
            for (int j = 0; j < n; ++j) actual[j] = uint8_t(pieces[o.levelIndex[j]].anchor);
            uint64_t occ = T::kWalls;
            for (int j = 0; j < n; ++j) occ |= T::kPlacement[o.types[j]][actual[j]];
            bool found = false;
            for (int j = 0; j < n && !found; ++j) {
                forEachMove<T>(actual, o, j, occ, [&](int b, int d, int dist) {
                    if (found) return;
                    uint8_t moved[64];
                    std::memcpy(moved, actual, size_t(n));
                    moved[j] = uint8_t(b);
                    for (int g = 0; g < n;) {
                        std::sort(moved + g, moved + o.groupEnd[g]);
                        g = o.groupEnd[g];
                    }
                    if (pack<K>(moved, n) == want) {
                        found = true;
                        result.moves.push_back(Move{o.levelIndex[j], d < 0 ? 0 : d, dist, b});
                        pieces[o.levelIndex[j]].anchor = b;
                    }
                });
            }
            if (!found) throw std::logic_error("pz::blocks: a solution step matches no move");
        }
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace detail

// Breadth-first search of the level (note [blocks small space]): an optimal
// solution, the states searched and, with countAll (or when no goal is
// reachable), the cluster size. The level must be valid (parseLevels checks).
template <class T>
SearchResult search(const Level& level, const SearchOptions& options = {}) {
    static_assert(checkTraits<T>(), "pz::blocks: the traits break note [blocks traits]");
    const int n = (int)level.pieces.size();
    if (n < 1 || n > 64) throw std::invalid_argument("pz::blocks: a level has 1..64 pieces");
    switch ((6 * n + 63) / 64) {
        case 1: return detail::searchK<T, 1>(level, options);
        case 2: return detail::searchK<T, 2>(level, options);
        case 3: return detail::searchK<T, 3>(level, options);
        case 4: return detail::searchK<T, 4>(level, options);
        case 5: return detail::searchK<T, 5>(level, options);
        default: return detail::searchK<T, 6>(level, options);
    }
}

}  // namespace pz::blocks
