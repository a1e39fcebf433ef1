// pz/search.hpp — optimal search: IDA* over generated traits.
//
// The search walks move sequences that the generated canonical automaton
// allows (see note [canonical sequences] in compiler/analysis/
// canonical_automaton.hpp), so sequences that an earlier sequence of searched
// moves equals (reordered commuting moves, X X' ...) are never tried. It keeps the state and its inverse: the
// inverse of s*m is m^-1 * s^-1, a relabelling of lane values, so it costs a
// byte shuffle rather than a full inversion.
//
// Heuristic: the maximum, over every pattern table, of its value at the
// pattern's symmetry conjugates of the state and (when the metric is closed
// under inverses) of the inverse. Conjugation by a symmetry that maps the
// move set onto itself preserves distance, and dist(s^-1) = dist(s), so every
// lookup is a lower bound. All table lines of a child are prefetched before
// any is read.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "pz/prune.hpp"
#include "pz/state.hpp"

namespace pz {

template <class T>
class Search {
public:
    using State = typename T::State;

    struct Result {
        std::vector<int> moves;
        uint64_t nodes = 0;
        double seconds = 0;
        bool found = false;
    };

    // Loads or builds every pattern table. Throws MemoryBudgetError, before
    // anything is allocated or mapped, when the tables together exceed
    // memoryBudget().
    // `resident`: copy loaded tables into huge-page memory at once (for a
    // process with many positions); else they stay mapped until the search
    // passes kResidentAfterNodes nodes (note [table residency], pz/prune.hpp).
    explicit Search(const std::string& tableDir, int threads = 0, bool resident = false) : tableDir_(tableDir) {
        checkMemoryBudget();
        std::apply([&](auto&... t) { (t.loadOrBuild(tableDir, threads, resident), ...); }, tables_);
    }

    static constexpr int64_t kResidentAfterNodes = int64_t{1} << 18;  // about 0.1 s of slide4 search

    // The memory every pattern table needs, in bytes, and a line per table.
    static uint64_t tableBytes(std::string* detail = nullptr) {
        uint64_t total = 0;
        auto add = [&]<class P>(std::type_identity<P>) {
            uint64_t b = (P::kSize + 15) / 16 * 8;  // 4 bits per entry
            total += b;
            if (detail) *detail += std::string(detail->empty() ? "" : ", ") + P::kName + " " + formatBytes(b);
        };
        [&]<class... P>(std::tuple<P...>*) { (add(std::type_identity<P>{}), ...); }(static_cast<typename T::Patterns*>(nullptr));
        return total;
    }
    static void checkMemoryBudget() {
        std::string detail;
        uint64_t need = tableBytes(&detail);
        if (need > memoryBudget())
            throw MemoryBudgetError(std::string("the pruning tables of ") + T::kName + " need " + formatBytes(need) + " (" +
                                    detail + "), more than the memory budget of " + formatBytes(memoryBudget()) +
                                    "; raise it with --memory SIZE if the machine has the memory");
    }
    template <class F>
    void forEachTable(F&& f) const {
        std::apply([&](const auto&... t) { (f(t), ...); }, tables_);
    }

    // Admissible lower bound on the distance of s (inv = s^-1); returns early
    // with a value > limit as soon as one lookup exceeds limit.
    unsigned heuristic(const State& s, const State& inv, unsigned limit) const {
        unsigned best = 0;
        bool done = false;
        std::apply([&](const auto&... t) { ((done || (best = lookupAll(t, s, inv, best, limit, done))), ...); },
                   tables_);
        return best;
    }

    // Whether any pattern shows the state cannot be solved (a coordinate
    // value no move sequence reaches; only a table whose BFS completed can
    // say so, 0xF in a table cut at depth 14 means "15 or more").
    bool provablyUnreachable(const State& s) const {
        bool bad = false;
        std::apply([&](const auto&... t) { ((bad = bad || unreached(t, s)), ...); }, tables_);
        return bad;
    }

    Result solve(const State& start, int maxDepth = 40) {
        auto t0 = std::chrono::steady_clock::now();
        Result r;
        nodes_ = 0;
        State inv = T::inverse(start);
        path_.clear();
        if (!provablyUnreachable(start)) {
            for (int bound = static_cast<int>(heuristic(start, inv, 255)); bound <= maxDepth; ++bound) {
                if (dfs(start, inv, bound, 0)) {
                    r.found = true;
                    r.moves = path_;
                    break;
                }
            }
        }
        r.nodes = nodes_;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return r;
    }

private:
    template <class P>
    static constexpr int lookupCount() {
        return static_cast<int>(P::kSymmetryLookups.size()) * (T::kInverseLookups ? 2 : 1);
    }

    // Fast path (one unoriented orbit in one word): the state's lanes are
    // spread to bytes once, and each conjugate S^-1 s S is two byte shuffles
    // (positions by S, labels by S^-1) feeding the rank directly.
#if defined(__SSSE3__)
    template <class P>
    static constexpr bool kByteLookups = T::kLaneBytes && requires(__m128i x) { P::rankBytes(x); };
#else
    template <class P>
    static constexpr bool kByteLookups = false;
#endif

    template <class P>
    static inline void lookupIndices(const State& s, const State& inv, uint64_t* idx) {
        int j = 0;
#if defined(__SSSE3__)
        if constexpr (kByteLookups<P>) {
            auto conjugates = [&](const State& x) {
                __m128i lanes = unpackLanesSse(x.w[0]);
                for (int sym : P::kSymmetryLookups) {
                    if (sym < 0) {
                        idx[j++] = P::rankBytes(lanes);
                    } else {
                        __m128i moved = _mm_shuffle_epi8(lanes, _mm_loadu_si128(reinterpret_cast<const __m128i*>(T::kSymmetryPositionBytes[sym].data())));
                        __m128i relabelled = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(T::kSymmetryInverseLabelBytes[sym].data())), moved);
                        idx[j++] = P::rankBytes(relabelled);
                    }
                }
            };
            conjugates(s);
            if constexpr (T::kInverseLookups) conjugates(inv);
            return;
        }
#endif
        {
            for (int sym : P::kSymmetryLookups) idx[j++] = P::rank(sym < 0 ? s : T::conjugate(s, sym));
            if constexpr (T::kInverseLookups)
                for (int sym : P::kSymmetryLookups) idx[j++] = P::rank(sym < 0 ? inv : T::conjugate(inv, sym));
        }
    }

    template <class Table>
    static unsigned lookupAll(const Table& t, const State& s, const State& inv, unsigned best, unsigned limit,
                              bool& done) {
        using P = typename Table::Pattern;
        uint64_t idx[lookupCount<P>()];
        lookupIndices<P>(s, inv, idx);
        for (uint64_t i : idx) t.prefetch(i);
        for (uint64_t i : idx) {
            unsigned v = t.get(i);
            if (v > best) best = v;
            if (best > limit) {
                done = true;
                break;
            }
        }
        return best;
    }
    template <class Table>
    static bool unreached(const Table& t, const State& s) {
        return t.complete() && t.get(Table::Pattern::rank(s)) == Table::kUnreached;
    }

    bool dfs(const State& s, const State& inv, int bound, int canon) {
        int depth = static_cast<int>(path_.size());
        if (depth == bound) return s == T::solved();
        unsigned remaining = static_cast<unsigned>(bound - depth - 1);
        if (remaining == 0) {
            // Last move: only a child equal to solved matters; no lookups.
            for (int m = 0; m < T::kMoves; ++m) {
                if (T::kCanonNext[canon][m] < 0) continue;
                ++nodes_;
                if (T::applyMove(s, m) == T::solved()) {
                    path_.push_back(m);
                    return true;
                }
            }
            return false;
        }
        // Generate every allowed child and prefetch all its table lines
        // before reading any: the latencies of one node's lookups overlap.
        Child kids[T::kMoves];
        int count = 0;
        for (int m = 0; m < T::kMoves; ++m) {
            int next = T::kCanonNext[canon][m];
            if (next < 0) continue;
            Child& k = kids[count++];
            k.move = m;
            k.next = next;
            k.state = T::applyMove(s, m);
            k.inverse = T::premultiplyInverseMove(inv, m);
            computeIndices(k.state, k.inverse, k.index, std::make_index_sequence<kTableCount>{});
        }
        nodes_ += static_cast<uint64_t>(count);
        if ((untilResident_ -= count) < 0) [[unlikely]]
            makeTablesResident();
        for (int i = 0; i < count; ++i) {
            Child& k = kids[i];
            if (exceeds(k.index, remaining, std::make_index_sequence<kTableCount>{})) continue;
            path_.push_back(k.move);
            if (dfs(k.state, k.inverse, bound, k.next)) return true;
            path_.pop_back();
        }
        return false;
    }

    // Between two nodes: every lookup reads the table's data pointer afresh.
    // A block that fails its hash here ends the run (the file is removed so
    // the next run rebuilds it): nothing found with the table is printed.
    void makeTablesResident() {
        untilResident_ = INT64_MAX;
        std::apply([&](auto&... t) {
            (([&] {
                 std::string why;
                 if (t.makeResident(why)) return;
                 std::string path = tableDir_ + "/" + t.fileName();
                 std::error_code ec;
                 std::filesystem::remove(path, ec);
                 throw TableCorruptError("pruning table " + path + " is corrupt (" + why + "); removed it: run again to rebuild it");
             }()),
             ...);
        }, tables_);
    }
    std::string tableDir_;
    int64_t untilResident_ = kResidentAfterNodes;

    static constexpr size_t kTableCount = std::tuple_size_v<typename T::Patterns>;
    template <size_t I>
    using PatternAt = std::tuple_element_t<I, typename T::Patterns>;
    template <size_t... I>
    static constexpr std::array<int, sizeof...(I) + 1> offsets(std::index_sequence<I...>) {
        std::array<int, sizeof...(I) + 1> o{};
        int acc = 0, j = 0;
        ((o[j++] = acc, acc += lookupCount<PatternAt<I>>()), ...);
        o[j] = acc;
        return o;
    }
    static constexpr auto kOffsets = offsets(std::make_index_sequence<kTableCount>{});
    static constexpr int kLookups = kOffsets[kTableCount];

    struct Child {
        State state, inverse;
        int move, next;
        uint64_t index[kLookups > 0 ? kLookups : 1];
    };

    template <size_t... I>
    void computeIndices(const State& s, const State& inv, uint64_t* idx, std::index_sequence<I...>) const {
        ((lookupIndices<PatternAt<I>>(s, inv, idx + kOffsets[I]),
          prefetchAll(std::get<I>(tables_), idx + kOffsets[I], lookupCount<PatternAt<I>>())),
         ...);
    }
    template <class Table>
    static void prefetchAll(const Table& t, const uint64_t* idx, int n) {
        for (int i = 0; i < n; ++i) t.prefetch(idx[i]);
    }
    // Whether some lookup exceeds `limit` (the child can be pruned).
    template <size_t... I>
    bool exceeds(const uint64_t* idx, unsigned limit, std::index_sequence<I...>) const {
        return (anyAbove(std::get<I>(tables_), idx + kOffsets[I], lookupCount<PatternAt<I>>(), limit) || ...);
    }
    template <class Table>
    static bool anyAbove(const Table& t, const uint64_t* idx, int n, unsigned limit) {
        for (int i = 0; i < n; ++i)
            if (t.get(idx[i]) > limit) return true;
        return false;
    }

    template <class Tuple>
    struct TablesFor;
    template <class... P>
    struct TablesFor<std::tuple<P...>> {
        using type = std::tuple<PruneTable<T, P>...>;
    };
    typename TablesFor<typename T::Patterns>::type tables_;
    std::vector<int> path_;
    uint64_t nodes_ = 0;
};

}  // namespace pz
