// pz/search/search.hpp — optimal search: IDA* over generated traits.
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
// lookup is a lower bound. The lookups of a node's children are computed
// together and all their table lines prefetched before any is read; those
// of the inverse only for the children the others do not prune (note [lazy
// inverse lookups]); nodes whose subtrees follow one another are expanded
// together too, level by level (notes [sibling batches], [batched descent]).
//
// Note [parallel IDA*]
// ~~~~~~~~~~~~~~~~~~~~
// One state is searched on several threads (`threads` of the constructor or
// setSearchThreads; 0 = the online CPUs, at most kMaxSearchThreads). Each
// iteration (bound) whose predecessor generated at least parallelFromNodes()
// nodes is split: the nodes of the tree down to a split depth are expanded
// level by level, with the same canonical automaton and the same pruning as
// the serial search, until there are at least kSplitSubtrees subtrees (or the
// split depth reaches bound - 1); later iterations split at the same depth.
// The subtrees are put in an order that depends on the previous iteration's
// node counts only (note [subtree order]). Threads take subtrees from a
// shared counter in that order; a thread that finds a solution in subtree i
// records it (the lowest i wins) and every thread abandons subtrees above
// the lowest solved index, while subtrees below it run to the end. So the
// answer is the solution of the lowest solved subtree: the same moves (not
// only the same length) for any thread count, one thread included. Smaller
// iterations are not split (threads would cost more than they save). Node
// counts are summed over the threads (they include work on subtrees that a
// lower solution made useless). A background copy of mapped tables starts
// before the first split iteration at the latest; the workers take it up
// together, between subtrees (note [background residency]).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <type_traits>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "pz/coset_pattern.hpp"
#include "pz/state.hpp"
#include "pz/tables/prune.hpp"

namespace pz {

template <class T>
class Search {
public:
    using State = typename T::State;

    struct Result {
        std::vector<int> moves;
        uint64_t nodes = 0;
        double seconds = 0;     // wall time
        double cpuSeconds = 0;  // CPU time of the process (every search thread) during the solve
        bool found = false;
    };

    // Loads or builds every pattern table. Throws MemoryBudgetError, before
    // anything is allocated or mapped, when the tables together exceed
    // memoryBudget().
    // `resident`: copy loaded tables into huge-page memory at once (for a
    // process with many positions); else they stay mapped until the search
    // passes kResidentAfterNodes nodes (note [table residency], pz/tables/prune.hpp).
    // `threads`: for the table builds and the search (note [parallel IDA*]);
    // 0 = every online CPU.
    explicit Search(const std::string& tableDir, int threads = 0, bool resident = false) : tableDir_(tableDir) {
        checkMemoryBudget();
        std::apply([&](auto&... t) { (t.loadOrBuild(tableDir, threads, resident), ...); }, tables_);
        if constexpr (kCoset > 0) {
            for (auto& spec : T::cosetPatterns()) {
                coset_.push_back(std::make_unique<CosetPattern<T>>(std::move(spec)));
                coset_.back()->loadOrBuild(tableDir, threads);
            }
            if (resident) makeCosetResident();
            for (const auto& c : coset_)
                for (size_t l = 0; l < c->lookups().size(); ++l)
                    cosetSlots_.push_back({c.get(), c->lookups()[l], c->movesInSubgroupMask(l)});
            if (static_cast<int>(cosetSlots_.size()) != kCosetLookups)
                throw std::logic_error("coset pattern lookups: the traits count " + std::to_string(kCosetLookups) +
                                       ", the patterns list " + std::to_string(cosetSlots_.size()));
        }
        setSearchThreads(threads);
        if constexpr (kSymmetricStates) prepareSymmetricStates();
        // Every table is in memory now: nothing to make resident, and no
        // solve writes a member (note [solve control]).
        if (resident) untilResident_ = INT64_MAX;
    }

    // Coset patterns (note [coset patterns]): T::kCosetPatterns tables read
    // through T::cosetPatterns(), none when the traits declare none.
    static constexpr int cosetPatternCount() {
        if constexpr (requires { T::kCosetPatterns; }) return T::kCosetPatterns;
        else return 0;
    }
    // Every use of the coset machinery is behind `if constexpr (kCoset > 0)`:
    // a solver without coset patterns does not instantiate it (a fifth less
    // code for g++ to optimise in each solver compile).
    static constexpr int kCoset = cosetPatternCount();
    // Their lookups per state (note [coset pattern lookups]).
    static constexpr int cosetLookupCount() {
        if constexpr (requires { T::kCosetLookups; }) return T::kCosetLookups;
        return kCoset;
    }
    static constexpr int kCosetLookups = cosetLookupCount();
    // Skipping moves in a coset pattern's subgroup (note [moves in the
    // subgroup]) needs the inverse lookups and a move mask of 64 bits.
    static constexpr bool kSkipMoves = kCosetLookups > 0 && T::kInverseLookups && T::kMoves <= 64;
    const std::vector<std::unique_ptr<CosetPattern<T>>>& cosetPatterns() const { return coset_; }
    // Symmetric states near the root try one move per class of equivalent
    // moves (note [symmetric states]).
    static constexpr bool stateSymmetries() {
        if constexpr (requires { T::kStateSymmetries; }) return T::kStateSymmetries && T::kSymmetries > 1 && T::kMoves <= 64;
        else return false;
    }
    static constexpr bool kSymmetricStates = stateSymmetries();
    static constexpr int kSymmetricDepth = 4;
    // Whether symmetric states are searched once per class (on by default).
    void symmetricStates(bool on) { symmetric_ = on; }

    static constexpr int kMaxSearchThreads = 64;
    // An iteration is split into at least this many subtrees (the same for
    // any thread count: note [subtree order]).
    static constexpr size_t kSplitSubtrees = 4096;
    static constexpr uint64_t kParallelFromNodes = uint64_t{1} << 16;
    // Threads of one search: n >= 1, or 0 for the online CPUs (at most kMaxSearchThreads).
    void setSearchThreads(int n) {
        if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        searchThreads_ = std::min(n, kMaxSearchThreads);
    }
    int searchThreads() const { return searchThreads_; }
    // An iteration is split over the threads once the previous one generated
    // at least `nodes` nodes (kParallelFromNodes; 0: every iteration, for tests).
    void parallelFromNodes(uint64_t nodes) { parallelFrom_ = nodes; }
    // Whether the search may switch sides (note [switching sides]); on by default.
    void switchSides(bool on) { switching_ = on; }
    // Whether a node's survivors are expanded as a batch (note [sibling
    // batches]); on by default. Off searches the same tree, node by node.
    void siblingBatches(bool on) { batches_ = on; }
    // Called after every iteration of solve(): its bound, its nodes, the
    // seconds since the solve began, and whether it found a solution.
    using IterationHook = std::function<void(int bound, uint64_t nodes, double seconds, bool found)>;
    void onIteration(IterationHook hook) { onIteration_ = std::move(hook); }
    // Tests: hand out the subtrees last first (the answer must not change).
    void reverseSubtreesForTests(bool on) { reverseSubtrees_ = on; }

    static constexpr int64_t kResidentAfterNodes = int64_t{1} << 18;  // about 0.1 s of slide4 search
    // Mapped tables become resident once the search has generated `nodes`
    // more nodes (never after keepTablesMapped()).
    void residentAfterNodes(int64_t nodes) {
        if (!keptMapped_) untilResident_ = nodes;
    }
    // Mapped tables stay mapped for good: they are the copy the machine's
    // processes share (note [huge page cache] in pz/tables/mapped_file.hpp).
    void keepTablesMapped() {
        keptMapped_ = true;
        untilResident_ = INT64_MAX;
    }
    // Whether that copy runs in the background (note [background
    // residency]; on by default) or at once, in the search's thread.
    void residencyInBackground(bool on) { residencyInBackground_ = on; }
    // The copy rate the background copy's start assumes (note [background
    // residency]; tests: infinity starts the copy at once, a tiny rate never).
    void residentCopyRate(double bytesPerSecond) { copyRate_ = bytesPerSecond; }
    // A background copy has started and not been taken up (tests: a search
    // shorter than the copy never starts one).
    bool residencyInFlight() const { return residency_ != nullptr; }
    // Tests: waits for a background copy that has started and takes it up.
    void finishResidency() {
        if (residency_) adoptResidency();
    }

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
        if constexpr (kCoset > 0)  // skipped at compile time: see kCoset
            for (const auto& c : coset_) {
                if (done) break;
                best = std::max(best, c->bound(s));
                if constexpr (T::kInverseLookups) best = std::max(best, c->bound(inv));
                done = best > limit;
            }
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

    static double processCpuSeconds() {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }

    // note [solve control]
    // A library solve (pz/api/perm.hpp) may bound its work and run beside
    // other solves on the same tables. The budget is checked between
    // iterations and, within a split iteration, before each subtree (an
    // iteration is at least kSplitSubtrees of them), so a stop overshoots
    // by about one subtree per thread; a stopped search reports stopped,
    // not "no solution". Concurrent solves are safe once the tables are
    // resident (the library makes them so in prepare()) or mapped for good
    // (keepTablesMapped()): the search then writes no member of
    // the Search, only its workers' own state.
    struct SolveControl {
        int threads = 0;                      // this search's threads; 0: setSearchThreads'
        uint64_t maxNodes = 0;                // 0: none
        std::optional<std::chrono::steady_clock::time_point> deadline;
        const std::atomic<bool>* cancel = nullptr;
        bool stopped = false;                 // out: a limit or the cancel flag stopped the search
        bool exceeded(uint64_t nodes) const {
            return (maxNodes && nodes >= maxNodes) || (cancel && cancel->load(std::memory_order_relaxed)) ||
                   (deadline && std::chrono::steady_clock::now() >= *deadline);
        }
    };

    Result solve(const State& start, int maxDepth = 40) {
        SolveControl none;
        return solve(start, maxDepth, none);
    }
    Result solve(const State& start, int maxDepth, SolveControl& control) {
        auto t0 = std::chrono::steady_clock::now();
        const bool residentTables = untilResident_ == INT64_MAX;
        if (!residentTables) solveStart_ = t0;
        const double cpu0 = processCpuSeconds();
        Result r;
        State inv = T::inverse(start);
        if (!provablyUnreachable(start)) {
            uint64_t previous = 0;  // nodes of the previous iteration
            SplitPlan plan;
            for (int bound = static_cast<int>(heuristic(start, inv, 255)); bound <= maxDepth; ++bound) {
                if (control.exceeded(r.nodes)) {
                    control.stopped = true;
                    break;
                }
                Worker w;
                w.path.reserve(static_cast<size_t>(bound) + 1);
                bool found;
                if (previous >= parallelFrom_) {
                    found = splitIteration(start, inv, bound, w, plan, control, r.nodes);
                } else {
                    w.untilResident = residentTables ? nullptr : &untilResident_;
                    found = dfs(w, start, inv, bound, 0, 0, Direction{false, true});
                }
                r.nodes += w.nodes;
                previous = w.nodes;
                if (control.stopped) break;
                if (onIteration_)
                    onIteration_(bound, w.nodes,
                                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), found);
                if (found) {
                    r.found = true;
                    r.moves = solutionOf(w.path);
                    break;
                }
            }
        }
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.cpuSeconds = processCpuSeconds() - cpu0;
        return r;
    }

private:
    template <class P>
    static constexpr int lookupCount() {
        return conjugateCount<P>() * (T::kInverseLookups ? 2 : 1);
    }
    template <class P>
    static constexpr int conjugateCount() {
        return static_cast<int>(P::kSymmetryLookups.size());
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

    // P's table indices of x's lookup conjugates (conjugateCount<P>() of them).
    template <class P>
    static inline void conjugateIndices(const State& x, uint64_t* idx) {
        int j = 0;
#if defined(__SSSE3__)
        if constexpr (kByteLookups<P>) {
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
            return;
        }
#endif
        for (int sym : P::kSymmetryLookups) idx[j++] = P::rank(sym < 0 ? x : T::conjugate(x, sym));
    }
    // Every lookup of s: its conjugates, then (inverse lookups) those of inv.
    template <class P>
    static inline void lookupIndices(const State& s, const State& inv, uint64_t* idx) {
        conjugateIndices<P>(s, idx);
        if constexpr (T::kInverseLookups) conjugateIndices<P>(inv, idx + conjugateCount<P>());
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

    static constexpr size_t kTableCount = std::tuple_size_v<typename T::Patterns>;
    template <size_t I>
    using PatternAt = std::tuple_element_t<I, typename T::Patterns>;
    template <size_t... I>
    static constexpr std::array<int, sizeof...(I) + 1> offsets(std::index_sequence<I...>) {
        std::array<int, sizeof...(I) + 1> o{};
        int acc = 0, j = 0;
        ((o[j++] = acc, acc += conjugateCount<PatternAt<I>>()), ...);
        o[j] = acc;
        return o;
    }
    static constexpr auto kOffsets = offsets(std::make_index_sequence<kTableCount>{});
    static constexpr int kLookups = kOffsets[kTableCount];

    // index: the table indices of the state's conjugates, later (note
    // [lazy inverse lookups]) those of the inverse's.
    struct Child {
        State state, inverse;
        int move, next;
        uint64_t index[kLookups > 0 ? kLookups : 1];
        uint64_t coset[kCosetLookups > 0 ? kCosetLookups : 1];  // the coset patterns' table indices
        uint64_t skip;  // moves its own children need not try (note [moves in the subgroup])
        uint64_t tight;  // the moves in the subgroup of the coset reads of `state` that are exactly the moves left
        bool flip;       // the child's search goes on from the other side (note [switching sides])
    };
    // Every table index of x (the child's state, later its inverse) into k,
    // each table line prefetched.
    // The coset patterns' indices come in stages (note [staged coset
    // lookups]): indicesOf only starts them in `probes`, and
    // finishCosetIndices completes them for a batch of children.
    using CosetProbe = typename CosetPattern<T>::Probe;
    static constexpr int kProbeSlots = kCosetLookups > 0 ? kCosetLookups : 1;
    void indicesOf(const State& x, Child& k, CosetProbe* probes) const {
        computeIndices(x, k.index, std::make_index_sequence<kTableCount>{});
        if constexpr (kCosetLookups > 0)
            for (int i = 0; i < kCosetLookups; ++i) {
                const CosetSlot& slot = cosetSlots_[static_cast<size_t>(i)];
                slot.pattern->startAt(x, slot.symmetry, probes[i]);
            }
        (void)probes;
    }
    // Note [staged coset lookups]
    // ~~~~~~~~~~~~~~~~~~~~~~~~~~~
    // A symmetry-reduced coset table is read through two smaller tables
    // first (the class of the reduced parts, then the conjugation of the
    // others by that class's symmetry): three dependent cache misses per
    // lookup. Each stage runs for every child of a node before the next
    // (ranks and class prefetch; class read and conjugation prefetch; index
    // and table prefetch), so the misses of one stage overlap across the
    // children instead of adding up. The table lines are prefetched after
    // every index is computed, not each as soon as its index is: a prefetch
    // that misses holds up the instructions behind it for a while, and
    // back to back those waits overlap (cube3 optimal_h6, one thread, two
    // 18-move states: 0.94x and 0.92x the time, medians of 3).
    //
    // A probe whose class floor (the least entry of its class: note [class
    // floors] in pz/tables/projected_coset.hpp) already exceeds `limit` prunes the
    // child there: its last stage (the conjugation, the ranks, the big
    // table's miss) is skipped and its index reads kPrunedByFloor.
    static constexpr uint64_t kPrunedByFloor = ~uint64_t{0};
    void finishCosetIndices(Child* kids, const int* list, int n, CosetProbe (*probes)[kProbeSlots], unsigned limit) const {
        if constexpr (kCosetLookups > 0) {
            for (int j = 0; j < n; ++j) {
                const int c = list ? list[j] : j;
                for (int i = 0; i < kCosetLookups; ++i) cosetSlots_[static_cast<size_t>(i)].pattern->classify(probes[c][i]);
            }
            for (int j = 0; j < n; ++j) {
                const int c = list ? list[j] : j;
                for (int i = 0; i < kCosetLookups; ++i) {
                    const CosetPattern<T>& pattern = *cosetSlots_[static_cast<size_t>(i)].pattern;
                    if (probes[c][i].floor > limit) {
                        kids[c].coset[i] = kPrunedByFloor;
                        break;  // the child is pruned: its other lookups do not matter
                    }
                    kids[c].coset[i] = pattern.finish(probes[c][i]);
                }
            }
            for (int j = 0; j < n; ++j) {
                const int c = list ? list[j] : j;
                for (int i = 0; i < kCosetLookups; ++i) {
                    if (kids[c].coset[i] == kPrunedByFloor) break;
                    cosetSlots_[static_cast<size_t>(i)].pattern->prefetch(kids[c].coset[i]);
                }
            }
        }
        (void)kids, (void)list, (void)n, (void)probes, (void)limit;
    }
    // Whether some lookup of k exceeds `limit` (the child can be pruned).
    bool prunes(const Child& k, unsigned limit) const {
        if (exceeds(k.index, limit, std::make_index_sequence<kTableCount>{})) return true;
        if constexpr (kCosetLookups > 0)
            for (int i = 0; i < kCosetLookups; ++i) {
                if (k.coset[i] == kPrunedByFloor) return true;
                if (cosetSlots_[static_cast<size_t>(i)].pattern->exceeds(k.coset[i], limit)) return true;
            }
        return false;
    }
    // prunes(k, limit) when the table lines answer it (1: prunes, 0: not);
    // -1 when some lookup needs a second read, which is prefetched.
    int prunesOrDefer(const Child& k, unsigned limit) const {
        if (exceeds(k.index, limit, std::make_index_sequence<kTableCount>{})) return 1;
        int verdict = 0;
        if constexpr (kCosetLookups > 0)
            for (int i = 0; i < kCosetLookups; ++i) {
                if (k.coset[i] == kPrunedByFloor) return 1;
                const int v = cosetSlots_[static_cast<size_t>(i)].pattern->exceedsOrDefer(k.coset[i], limit);
                if (v > 0) return 1;
                if (v < 0) verdict = -1;
            }
        return verdict;
    }
    // The children no lookup prunes at `limit`, in two halves: those whose
    // answer needs a second read (note [entries below the base]) are
    // decided later, so that their reads' misses overlap (note [decisions
    // deferred across a batch]). First half: keeps in list[0..n) (ascending
    // child indices) the children the table lines leave (returns how many)
    // and puts those only a second read can decide in deferred[0..nd), the
    // set's slot each needs prefetched.
    int keepLineDecided(const Child* kids, int* list, int n, unsigned limit, int* deferred, int& nd) const {
        int kept = 0;
        nd = 0;
        for (int j = 0; j < n; ++j) {
            const int v = prunesOrDefer(kids[list[j]], limit);
            if (v == 0) list[kept++] = list[j];
            else if (v < 0) deferred[nd++] = list[j];
        }
        return kept;
    }
    // Its second half: the deferred children that no lookup prunes merged
    // into list[0..kept), in order; returns how many there are then.
    int mergeDeferred(const Child* kids, int* list, int kept, unsigned limit, int* deferred, int nd) const {
        if (nd == 0) return kept;
        int late = 0;
        for (int j = 0; j < nd; ++j)
            if (!prunes(kids[deferred[j]], limit)) deferred[late++] = deferred[j];
        // Merge the two ascending lists, from the back.
        int out = kept + late, a = kept - 1, b = late - 1;
        while (b >= 0) list[--out] = (a >= 0 && list[a] > deferred[b]) ? list[a--] : deferred[b--];
        return kept + late;
    }

    // At most this many nodes are expanded together (note [sibling
    // batches]); more are taken this many at a time.
    static constexpr int kMaxBatch = 16;
    // One node's expansion, in stages (note [sibling batches]): its
    // children, their lookups under way, the children the lookups read so
    // far leave, and whether the node was searched as a symmetric one.
    struct Expansion {
        Child kids[T::kMoves];
        CosetProbe probes[T::kMoves][kProbeSlots];
        int alive[T::kMoves];
        int deferred[T::kMoves];  // children only a second read decides (note [decisions deferred across a batch])
        int count = 0, survived = 0, deferredCount = 0;
        bool symmetric = false;
    };
    // One searching thread's path and node count. Serial: untilResident
    // counts down to making the tables resident. Parallel: the worker is on
    // subtree `index` and gives up once *lowestSolved < index.
    struct Level;
    struct Worker {
        std::vector<int> path;
        uint64_t nodes = 0;
        int64_t* untilResident = nullptr;
        const std::atomic<size_t>* lowestSolved = nullptr;
        size_t index = 0;
        // Whether a lower subtree holds a solution (this one is given up).
        bool abandoned() const { return lowestSolved && lowestSolved->load(std::memory_order_relaxed) < index; }
        // The batches' expansions, by depth (note [sibling batches]),
        // grown on use: a puzzle with many moves and a big state
        // would not fit kMaxBatch * kMoves children a level on the stack.
        std::vector<std::vector<Expansion>> batches;
        Expansion* batchAt(int depth, int size) {
            if (batches.size() <= static_cast<size_t>(depth)) batches.resize(static_cast<size_t>(depth) + 1);
            auto& b = batches[static_cast<size_t>(depth)];
            if (b.size() < static_cast<size_t>(size)) b.resize(static_cast<size_t>(size));
            return b.data();
        }
        // The batched descent's levels, by depth (note [batched descent]).
        std::vector<std::unique_ptr<Level>> levels;
        Level& levelAt(int depth) {
            if (levels.size() <= static_cast<size_t>(depth)) levels.resize(static_cast<size_t>(depth) + 1);
            auto& l = levels[static_cast<size_t>(depth)];
            if (!l) l = std::make_unique<Level>();
            return *l;
        }
    };

    // Stage 1 of an expansion: the children of s (inverse inv, automaton
    // state canon) that the canonical automaton allows, into e.kids
    // (e.count of them), their table lookups started (plain tables' lines
    // and coset tables' class entries prefetched). The children's inverses
    // wait for stage 3 (most children are pruned first) unless no lookup
    // reads them.
    // Flattened: the move kernel and the coset ranks are inlined into the
    // loop (GCC kept applyMove a call; 0.95x the time on cube3).
    [[gnu::flatten]] void startChildren(const State& s, const State& inv, int canon, uint64_t skip, Expansion& e) const {
        // A byte permute a child where the traits and the CPU have them
        // (note [byte-lane moves] in pz/state.hpp); else every move's result
        // in one vectorised pass where the traits have it (note [all moves
        // at once]); else a kernel a child.
        if constexpr (kByteLaneChildren) {
            const SpreadLanes bytes = spreadLanes(s);
            addChildren(inv, canon, skip, e, [&](int m) { return applyByteLaneMove<State::kWords>(T::kByteLaneMoves, bytes, m); });
        } else if constexpr (requires { typename T::AllMoves; }) {
            typename T::AllMoves all;
            T::applyAllMoves(s, all);
            addChildren(inv, canon, skip, e, [&](int m) { return all.stateAt(m); });
        } else {
            addChildren(inv, canon, skip, e, [&](int m) { return T::applyMove(s, m); });
        }
    }
    static constexpr bool byteLaneChildren() {
        if constexpr (requires { T::kByteLaneMoves.usable; })
            return kByteLaneMoveKernels && T::kByteLaneMoves.usable && T::kByteLaneMoves.cheaper;
        return false;
    }
    static constexpr bool kByteLaneChildren = byteLaneChildren();
    // The moves the canonical automaton allows from each of its states, as
    // masks (puzzles of at most 64 moves).
    static constexpr auto canonAllowed() {
        std::array<uint64_t, std::size(T::kCanonNext)> a{};
        if constexpr (T::kMoves <= 64)
            for (size_t c = 0; c < a.size(); ++c)
                for (int m = 0; m < T::kMoves; ++m)
                    if (T::kCanonNext[c][m] >= 0) a[c] |= uint64_t{1} << m;
        return a;
    }
    static constexpr auto kCanonAllowed = canonAllowed();
    // startChildren's loop; childAt(m): the state after move m, a prvalue.
    // The children first, then their lookups, in two loops: one loop doing
    // both kept the child count in memory; two take 0.89-0.96x its time
    // (cube3 h48h3, one thread, one to five 17-move states, pairs).
    template <class ChildAt>
    [[gnu::always_inline]] void addChildren(const State& inv, int canon, uint64_t skip, Expansion& e, ChildAt&& childAt) const {
        Child* kids = e.kids;
        int count = 0;
        const auto add = [&](int m) {
            Child& k = kids[count];
            // Initialised in place, not assigned: the move's result is
            // written into the child directly (a copy of a just-returned
            // state is a stalled store-to-load forward).
            ::new (static_cast<void*>(&k.state)) State(childAt(m));
            // Illegal placements (a generated T::legal): never entered.
            if constexpr (requires { T::legal(k.state); })
                if (!T::legal(k.state)) return;
            ++count;
            k.move = m;
            k.next = T::kCanonNext[canon][m];
            k.skip = 0;
            k.tight = 0;
            k.flip = false;
            if constexpr (!T::kInverseLookups) k.inverse = T::premultiplyInverseMove(inv, m);
        };
        if constexpr (T::kMoves <= 64) {
            uint64_t allowed = kCanonAllowed[static_cast<size_t>(canon)];
            if constexpr (kSkipMoves || kSymmetricStates) allowed &= ~skip;
            for (; allowed; allowed &= allowed - 1) add(std::countr_zero(allowed));
        } else {
            for (int m = 0; m < T::kMoves; ++m)
                if (T::kCanonNext[canon][m] >= 0) add(m);
        }
        for (int i = 0; i < count; ++i) indicesOf(kids[i].state, kids[i], e.probes[i]);
        e.count = count;
        (void)inv, (void)skip;
    }
    // Stage 2: the children's coset table indices, their lines prefetched
    // (those a class floor prunes at `limit` marked so).
    void finishChildren(Expansion& e, unsigned limit) const { finishCosetIndices(e.kids, nullptr, e.count, e.probes, limit); }

    // Note [lazy inverse lookups]
    // ~~~~~~~~~~~~~~~~~~~~~~~~~~~
    // A child is pruned when some lookup exceeds the remaining depth. The
    // lookups of the state's conjugates come first, for all children at once
    // (every table line prefetched before any is read); only the children
    // they do not prune get the lookups of their inverse's conjugates (again
    // all computed and prefetched, then read). The pruning decisions, hence
    // the nodes, are those of looking everything up for every child, but deep
    // in the tree, where most children are pruned by the first batch, the
    // inverse costs little. scripts/bench_search.py, one thread, CPU time of
    // the set (all lookups at once / lazy / no inverse lookups at all):
    //   cube3, 5 scrambles of 12 moves: 1.12 / 0.60 / 0.66 s
    //     (365,330 nodes with inverse lookups, 448,150 without);
    //   rotate4o, 5 of 10-11 moves: 0.43 / 0.27 / 0.70 s (2,739,826 / 8,409,507);
    //   slide4, 10 of 30 moves: 0.059 / 0.034 / 0.044 s (206,005 / 306,329).
    // So inverse lookups stay on wherever the compiler allows them (every
    // move's inverse a move of the metric: kInverseLookups), looked up lazily.
    //
    // Stage 3: writes the indices (in ascending order) of the children that
    // no lookup of their states prunes at `remaining` into e.alive
    // (e.survived of them) and starts their inverses' lookups. inv: the
    // node's inverse (the survivors' inverses are computed here). In two
    // halves: decideChildren reads the table lines, startInverses takes
    // the deferred children's second reads (note [decisions deferred
    // across a batch]) and starts the survivors' inverses.
    void decideChildren(Expansion& e, unsigned remaining) const {
        for (int i = 0; i < e.count; ++i) e.alive[i] = i;
        e.survived = keepLineDecided(e.kids, e.alive, e.count, remaining, e.deferred, e.deferredCount);
    }
    void startInverses(Expansion& e, unsigned remaining, bool mayFlip, const State& inv) const {
        Child* kids = e.kids;
        int* alive = e.alive;
        const int n = mergeDeferred(kids, alive, e.survived, remaining, e.deferred, e.deferredCount);
        e.survived = n;
        (void)inv, (void)mayFlip;
        if constexpr (T::kInverseLookups) {
            for (int j = 0; j < n; ++j)
                ::new (static_cast<void*>(&kids[alive[j]].inverse)) State(T::premultiplyInverseMove(inv, kids[alive[j]].move));
            if constexpr (kSkipMoves)
                if (mayFlip)
                    for (int j = 0; j < n; ++j) kids[alive[j]].tight = tightMoves(kids[alive[j]], remaining);
            for (int j = 0; j < n; ++j) indicesOf(kids[alive[j]].inverse, kids[alive[j]], e.probes[alive[j]]);
        }
    }
    // Stage 4: the inverses' coset table indices, their lines prefetched.
    void finishInverses(Expansion& e, unsigned remaining) const {
        if constexpr (T::kInverseLookups) finishCosetIndices(e.kids, e.alive, e.survived, e.probes, remaining);
        (void)e, (void)remaining;
    }
    // Stage 5: keeps in e.alive the survivors that no lookup of their
    // inverses prunes either, with the moves their own children skip and
    // the side they go on from; returns how many. In two halves again:
    // decideInverses reads the lines, survivingChildren the second reads.
    void decideInverses(Expansion& e, unsigned remaining) const {
        if constexpr (T::kInverseLookups) e.survived = keepLineDecided(e.kids, e.alive, e.survived, remaining, e.deferred, e.deferredCount);
        (void)e, (void)remaining;
    }
    int survivingChildren(Expansion& e, unsigned remaining) const {
        Child* kids = e.kids;
        int* alive = e.alive;
        int n = e.survived;
        if constexpr (T::kInverseLookups) {
            n = mergeDeferred(kids, alive, n, remaining, e.deferred, e.deferredCount);
            // note [moves in the subgroup]: a coset table read at the
            // inverse that is exactly the moves left rules out the child's
            // next moves in the subgroup; failing that, a tight read at the
            // state itself does so on the other side (note [switching sides]).
            if constexpr (kSkipMoves)
                for (int j = 0; j < n; ++j) {
                    Child& k = kids[alive[j]];
                    k.skip = tightMoves(k, remaining);
                    if (k.skip == 0 && k.tight != 0) {
                        k.flip = true;
                        k.skip = k.tight;
                    }
                }
        }
        e.survived = n;
        return n;
    }
    // Every stage of one node's expansion (s, inverse inv, automaton state
    // canon, skipping `skip`); returns how many children survive.
    int expand(const State& s, const State& inv, int canon, uint64_t skip, Expansion& e, unsigned remaining) const {
        startChildren(s, inv, canon, skip, e);
        finishChildren(e, remaining);
        decideChildren(e, remaining);
        startInverses(e, remaining, switching_, inv);
        finishInverses(e, remaining);
        decideInverses(e, remaining);
        return survivingChildren(e, remaining);
    }
    // The moves in the subgroup of every coset lookup of k (its current
    // indices) that reads exactly `remaining`.
    uint64_t tightMoves(const Child& k, unsigned remaining) const {
        uint64_t moves = 0;
        for (int i = 0; i < kCosetLookups; ++i) {
            const CosetSlot& slot = cosetSlots_[static_cast<size_t>(i)];
            if (slot.pattern->reads(k.coset[i], remaining)) moves |= slot.movesInSubgroup;
        }
        return moves;
    }

    // Note [switching sides]
    // ~~~~~~~~~~~~~~~~~~~~~~
    // The search may extend a solution from either end (the H48 solver's
    // NISS-like switch, after nxopt). A node tracks x = C^-1 s0 A, s0 the
    // start, A the moves applied on the normal side and C those applied on
    // the inverse side, and y = x^-1: a normal move m makes x m, an inverse
    // one makes y m, and x = e means s0 A C^-1 = e, so the solution is A then
    // C's moves reversed and inverted. A child whose own coset read is
    // exactly the moves left (and whose inverse read is not) cannot end with
    // a move in the subgroup (note [moves in the subgroup]); from the other
    // side that move comes first, so the child's search goes on from there,
    // skipping those moves. Completeness: the moves tried on a side follow
    // that side's canonical automaton, which accepts some solution of the
    // node as long as it was started afresh when the search came to that
    // side (state 0 accepts every solution's canonical form; later states
    // accept the continuation of the one they were following). A side the
    // search comes back to therefore restarts its automaton: its earlier
    // moves constrain nothing (a non-minimal junction is never a solution at
    // the bound IDA* is at, it only costs nodes). Path entries are the move
    // (normal side) or its complement ~move (inverse side).
    struct Direction {
        bool inverse = false;  // moves apply to the inverse side
        bool mayBeSymmetric = false;  // the root, or a child of a symmetric node (note [symmetric states])
    };
    // What one split iteration leaves the next: its split depth and the
    // nodes of each subtree (by path; note [subtree order]).
    struct SplitPlan {
        int depth = -1;
        std::map<std::vector<int>, uint64_t> nodes;
    };
    static std::vector<int> solutionOf(const std::vector<int>& path) {
        std::vector<int> out;
        for (int m : path)
            if (m >= 0) out.push_back(m);
        if constexpr (T::kInverseLookups)
            for (auto it = path.rbegin(); it != path.rend(); ++it)
                if (*it < 0) out.push_back(T::kMoveInverse[static_cast<size_t>(~*it)]);
        return out;
    }

    // Note [symmetric states]
    // ~~~~~~~~~~~~~~~~~~~~~~~
    // If a symmetry S (one that maps the searched moves onto searched moves)
    // fixes a node x, S x S^-1 = x, then S (x m) S^-1 = x (S m S^-1): the
    // children by m and by S m S^-1 are conjugates, at the same distance.
    // So a node that some symmetry fixes tries one move of each class of
    // moves its fixing symmetries make equivalent: the lowest one the
    // automaton allows and skip does not rule out (a class with none is not
    // tried), after the H48 solver's filtering of symmetric starts.
    // Completeness: let t be the least solution at the bound in move order
    // (the automaton accepts it: it only rejects sequences equal to earlier
    // ones). Below every node of t, the rest of t is the least solution of
    // that node; its first move m is the least of its class, since S t' S^-1
    // for a fixing S would otherwise be a lesser solution starting with
    // S m S^-1. So t is never filtered out, and the automaton goes on as
    // usual. Only the root and the children of symmetric nodes, down to
    // kSymmetricDepth and on the normal side, are tested (48 conjugations
    // for the cube): a random state costs one test; the superflip's 18 first
    // moves become 2.
    void prepareSymmetricStates() {
        const State solved = T::solved();
        std::array<State, T::kMoves> single;
        for (int m = 0; m < T::kMoves; ++m) single[static_cast<size_t>(m)] = T::applyMove(solved, m);
        for (int k = 1; k < T::kSymmetries; ++k) {
            std::array<int8_t, T::kMoves> image{};
            bool maps = true;
            for (int m = 0; m < T::kMoves && maps; ++m) {
                const State c = T::conjugate(single[static_cast<size_t>(m)], k);
                int found = -1;
                for (int n = 0; n < T::kMoves && found < 0; ++n)
                    if (single[static_cast<size_t>(n)] == c) found = n;
                image[static_cast<size_t>(m)] = static_cast<int8_t>(found);
                maps = found >= 0;
            }
            if (maps) moveImages_.push_back({k, image});
        }
    }
    // Whether node s (automaton state canon) is searched as a symmetric
    // node: then skip also rules out all but one move per class.
    bool symmetricNode(const State& s, int depth, uint64_t& skip, const Direction& dir, int canon) const {
        if constexpr (kSymmetricStates) {
            if (!symmetric_ || !dir.mayBeSymmetric || dir.inverse || depth >= kSymmetricDepth) return false;
            const std::array<int8_t, T::kMoves>* fixing[T::kSymmetries];
            int n = 0;
            for (const auto& [k, image] : moveImages_)
                if (T::conjugate(s, k) == s) fixing[n++] = &image;
            if (n == 0) return false;
            uint64_t covered = 0, keep = 0;
            for (int m = 0; m < T::kMoves; ++m) {
                if (covered >> m & 1) continue;
                uint64_t cls = uint64_t{1} << m;
                for (int i = 0; i < n; ++i) cls |= uint64_t{1} << (*fixing[i])[static_cast<size_t>(m)];
                covered |= cls;
                for (uint64_t c = cls & ~skip; c; c &= c - 1)
                    if (T::kCanonNext[canon][std::countr_zero(c)] >= 0) {
                        keep |= c & -c;
                        break;
                    }
            }
            skip = ~keep;
            return true;
        } else {
            (void)s, (void)depth, (void)skip, (void)dir, (void)canon;
            return false;
        }
    }

    // skip: moves not to try from s (note [moves in the subgroup]).
    bool dfs(Worker& w, const State& s, const State& inv, int bound, int canon, uint64_t skip, Direction dir) {
        int depth = static_cast<int>(w.path.size());
        if (depth == bound) return s == T::solved();
        unsigned remaining = static_cast<unsigned>(bound - depth - 1);
        if (remaining == 0) {
            // Last move: only a child equal to solved matters; no lookups.
            for (int m = 0; m < T::kMoves; ++m) {
                if (T::kCanonNext[canon][m] < 0) continue;
                if constexpr (kSkipMoves || kSymmetricStates)
                    if (skip >> m & 1) continue;
                ++w.nodes;
                if (T::applyMove(s, m) == T::solved()) {
                    w.path.push_back(dir.inverse ? ~m : m);
                    return true;
                }
            }
            return false;
        }
        if (w.abandoned()) return false;
        // Every allowed child generated and its table lines prefetched
        // before any is read: the latencies of one node's lookups overlap.
        Expansion e;
        e.symmetric = symmetricNode(s, depth, skip, dir, canon);
        expand(s, inv, canon, skip, e, remaining);
        countNodes(w, e.count);
        return descend(w, e, bound, dir);
    }

    // Note [sibling batches]
    // ~~~~~~~~~~~~~~~~~~~~~~
    // A node's lookups wait for their table lines twice (the children's
    // states, then the survivors' inverses), with little else to do
    // meanwhile: on the cube's 1.8 GiB table (about 200 ns a miss on this
    // kind of machine) that wait was about 40% of the search. Nodes whose
    // subtrees come one after another, though, are expanded independently:
    // so they are expanded as a batch, in stages (expandTogether): every
    // node's children generated and their lines prefetched, then every
    // node's lines read and its survivors' inverse lookups started (their
    // lines prefetched), then the inverses' lines read, node by node. Each
    // wait overlaps the other nodes' work. Which nodes form a batch: note
    // [batched descent] (the survivors of a whole batch, not only those of
    // one node). The order of the search, hence every pruning decision and
    // the answer, is unchanged; a node's children are counted when its
    // subtree's turn comes, so the node counts are too (when an earlier
    // node's subtree holds the solution, later nodes' children were
    // generated for nothing, but not counted).

    // Note [decisions deferred across a batch]
    // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    // A prune test that only the set of entries below the base can answer
    // (note [entries below the base] in pz/tables/two_bit_table.hpp) is a second,
    // dependent miss. Its slot is prefetched when the line is read, and the
    // test is decided once every node of the batch has had its lines read
    // (decideChildren, then startInverses; decideInverses, then
    // survivingChildren), not after the node's own other children: about 13
    // line reads did not cover a miss of about 250 ns here. The same goes for
    // the tight check of a survivor (tightMoves, note [moves in the
    // subgroup]): at a limit of the base a 0 read passes the prune test from
    // the line alone, but whether it is exactly the limit takes the set, so
    // that slot is prefetched with the line read too; and the check reads
    // the set only when the line cannot tell (readsIn). cube3 optimal_h6,
    // one thread, the five 17-move states of bench/h48: 4.86M set reads
    // without a prefetch before; 3.54M after, each slot prefetched with its
    // line; the same nodes, 0.93x the time (3 pairs; 0.90x on all ten).

    // A node's generated children counted; mapped tables made resident
    // once the serial search has generated enough.
    void countNodes(Worker& w, int count) {
        w.nodes += static_cast<uint64_t>(count);
        if (w.untilResident && (*w.untilResident -= count) < 0) [[unlikely]]
            advanceResidency();
    }
    // How the search goes on below surviving child k of a node on side dir
    // (symmetric: that node was searched as symmetric): from the other side
    // after a flip (note [switching sides]), its automaton restarted.
    struct Continuation {
        const State& state;
        const State& inverse;
        int canon;
        Direction dir;
    };
    static Continuation continuationOf(const Child& k, Direction dir, bool symmetric) {
        if (k.flip) return {k.inverse, k.state, 0, Direction{!dir.inverse, false}};
        return {k.state, k.inverse, k.next, Direction{dir.inverse, symmetric}};
    }
    // k's path entry (note [switching sides]: ~move on the inverse side).
    static int pathEntry(const Child& k, Direction dir) { return dir.inverse ? ~k.move : k.move; }

    // A node of a batch: a surviving child, the side its parent was searched
    // on and whether that parent was searched as symmetric.
    struct Pending {
        const Child* kid;
        Direction dir;
        bool parentSymmetric;
        Continuation continuation() const { return continuationOf(*kid, dir, parentSymmetric); }
        int pathEntry() const { return Search::pathEntry(*kid, dir); }
    };
    // Stages 1 to 4 of the expansions of nodes[0..n) (at `depth`, their
    // children's lookups at `remaining`) into batch[0..n), stage by stage.
    void expandTogether(const Pending* nodes, int n, int depth, unsigned remaining, Expansion* batch) const {
        for (int j = 0; j < n; ++j) {
            const Continuation c = nodes[j].continuation();
            uint64_t skip = nodes[j].kid->skip;
            batch[j].symmetric = symmetricNode(c.state, depth, skip, c.dir, c.canon);
            startChildren(c.state, c.inverse, c.canon, skip, batch[j]);
            finishChildren(batch[j], remaining);
        }
        for (int j = 0; j < n; ++j) decideChildren(batch[j], remaining);
        for (int j = 0; j < n; ++j) {
            startInverses(batch[j], remaining, switching_, nodes[j].continuation().inverse);
            finishInverses(batch[j], remaining);
        }
    }

    // Searches the subtrees of the survivors of expansion `parent` (a node on
    // side dir) in order.
    bool descend(Worker& w, const Expansion& parent, int bound, Direction dir) {
        const int n = parent.survived;
        const int depth = static_cast<int>(w.path.size()) + 1;  // the survivors'
        if (n == 0) return false;
        if (depth + 1 >= bound || !batches_) {
            // Survivors whose children have no lookups (the last move), or
            // batches off: node by node.
            for (int j = 0; j < n; ++j) {
                const Child& k = parent.kids[parent.alive[j]];
                const Continuation c = continuationOf(k, dir, parent.symmetric);
                w.path.push_back(pathEntry(k, dir));
                if (dfs(w, c.state, c.inverse, bound, c.canon, k.skip, c.dir)) return true;
                w.path.pop_back();
            }
            return false;
        }
        Level& level = w.levelAt(depth);
        level.above = nullptr;
        for (int first = 0; first < n; first += kMaxBatch) {
            if (w.abandoned()) return false;
            level.size = std::min(n - first, kMaxBatch);
            level.entered = -1;
            for (int j = 0; j < level.size; ++j) level.nodes[j] = {&parent.kids[parent.alive[first + j]], dir, parent.symmetric};
            level.expansions = w.batchAt(depth, level.size);
            expandTogether(level.nodes, level.size, depth, static_cast<unsigned>(bound - depth - 1), level.expansions);
            if (searchLevel(w, level, depth, bound)) return true;
        }
        return false;
    }

    // Note [batched descent]
    // ~~~~~~~~~~~~~~~~~~~~~~
    // Deep in the tree a node has few survivors (cube3 h48h3, a bound of 17:
    // one child in twenty survives at depth 8), so batches of one node's
    // survivors (note [sibling batches]) would leave most nodes to be
    // expanded alone, each waiting for its own lines. Instead the search
    // below a node goes level by level: a Level holds up to kMaxBatch nodes
    // of one depth, in search order, expanded together; the survivors of
    // all of them, in order, form the next level's batches, kMaxBatch at a
    // time, and so on down to the last ply. A node's subtree is searched
    // before the next node's (the next level's batches are taken in order
    // and searched to the end first), so the order of the search, every
    // pruning decision, the answer and the node counts are those of the
    // node-by-node search: a node is counted, and its path entry put on
    // w.path, when the search comes to it (enter). cube3 h48h3, the ten
    // random states of bench/h48 on two threads (the same nodes): 22.95 and
    // 23.22 s mean with sibling batches, 20.80 and 21.10 s so (runs
    // alternating); the 1.8 GiB h48h6 on one thread, bound by its table's
    // misses: unchanged within this box's noise.
    struct Level {
        Pending nodes[kMaxBatch];
        int owner[kMaxBatch];  // each node's parent: its index in `above`
        int size = 0;
        int entered = -1;       // the node whose path entry ends w.path, -1: none
        Level* above = nullptr; // nullptr: the nodes are the survivors of one expansion
        Expansion* expansions = nullptr;
    };
    // Puts node i of `level` on w.path: the nodes of the level before it,
    // and of the levels above up to its parent, are entered first, in
    // order; each entered node's children are counted.
    void enter(Worker& w, Level& level, int i) {
        while (level.entered < i) {
            if (level.entered >= 0) w.path.pop_back();
            ++level.entered;
            if (level.above) enter(w, *level.above, level.owner[level.entered]);
            w.path.push_back(level.nodes[level.entered].pathEntry());
            countNodes(w, level.expansions[level.entered].count);
        }
    }
    // Every node of `level` entered (counted), then its path entry taken off.
    void leave(Worker& w, Level& level) {
        enter(w, level, level.size - 1);
        w.path.pop_back();
        level.entered = -1;
    }
    // The subtrees of the nodes of `level` (at `depth`, expanded through
    // stage 4), in order; on success w.path is the solution's.
    bool searchLevel(Worker& w, Level& level, int depth, int bound) {
        const unsigned remaining = static_cast<unsigned>(bound - depth - 1);  // the nodes' children's
        for (int j = 0; j < level.size; ++j) decideInverses(level.expansions[j], remaining);
        for (int j = 0; j < level.size; ++j) survivingChildren(level.expansions[j], remaining);
        if (depth + 2 >= bound) {
            // The children's children are the last ply: descend takes each
            // node's survivors one by one.
            for (int j = 0; j < level.size; ++j) {
                if (level.expansions[j].survived == 0) continue;
                if (w.abandoned()) break;
                enter(w, level, j);
                if (descend(w, level.expansions[j], bound, level.nodes[j].continuation().dir)) return true;
            }
        } else {
            Level& next = w.levelAt(depth + 1);
            next.above = &level;
            for (int j = 0, i = 0;;) {
                if (w.abandoned()) break;
                int count = 0;
                for (; count < kMaxBatch && j < level.size; ++i) {
                    const Expansion& e = level.expansions[j];
                    if (i == e.survived) {
                        ++j;
                        i = -1;
                        continue;
                    }
                    next.nodes[count] = {&e.kids[e.alive[i]], level.nodes[j].continuation().dir, e.symmetric};
                    next.owner[count++] = j;
                }
                if (count == 0) break;
                next.size = count;
                next.entered = -1;
                next.expansions = w.batchAt(depth + 1, count);
                expandTogether(next.nodes, count, depth + 1, remaining - 1, next.expansions);
                if (searchLevel(w, next, depth + 1, bound)) return true;
            }
        }
        if (w.abandoned()) {
            if (level.entered >= 0) w.path.pop_back();
            level.entered = -1;
            return false;
        }
        leave(w, level);
        return false;
    }

    // One iteration split into subtrees (note [parallel IDA*]) searched by
    // the threads in the plan's order (note [subtree order]); on success
    // out.path is the solution. out.nodes: every thread's nodes.
    struct Subtree {
        State state, inverse;
        int canon;
        std::vector<int> path;
        uint64_t skip = 0;
        Direction dir;
    };
    bool splitIteration(const State& start, const State& inv, int bound, Worker& out, SplitPlan& plan,
                        SolveControl& control, uint64_t nodesBefore) {
        if (untilResident_ != INT64_MAX) advanceResidency();
        const int threads = control.threads > 0 ? std::min(control.threads, kMaxSearchThreads) : searchThreads_;
        std::vector<Subtree> level{Subtree{start, inv, 0, {}, 0, Direction{false, true}}};
        // Expand while a level's nodes are above the last ply (remaining >=
        // 1), to the plan's depth once there is one.
        int depth = 0;
        for (; depth + 2 <= bound && (plan.depth >= 0 ? depth < plan.depth : level.size() < kSplitSubtrees); ++depth) {
            const unsigned remaining = static_cast<unsigned>(bound - depth - 1);
            std::vector<Subtree> next;
            auto e = std::make_unique<Expansion>();
            for (const Subtree& n : level) {
                uint64_t skip = n.skip;
                e->symmetric = symmetricNode(n.state, depth, skip, n.dir, n.canon);
                const int survived = expand(n.state, n.inverse, n.canon, skip, *e, remaining);
                out.nodes += static_cast<uint64_t>(e->count);
                for (int j = 0; j < survived; ++j) {
                    const Child& k = e->kids[e->alive[j]];
                    const Continuation c = continuationOf(k, n.dir, e->symmetric);
                    Subtree t{c.state, c.inverse, c.canon, n.path, k.skip, c.dir};
                    t.path.push_back(pathEntry(k, n.dir));
                    next.push_back(std::move(t));
                }
            }
            level.swap(next);
            if (level.empty()) return false;
        }
        if (plan.depth < 0) plan.depth = depth;
        // Note [subtree order]
        // ~~~~~~~~~~~~~~~~~~~~
        // The last iteration ends at its first solution, so the sooner the
        // subtree holding one is searched the better. Subtrees that took
        // many nodes in the previous iteration (their lookups pruned less:
        // they are closer to solved than the bounds say) hold solutions more
        // often (the H48 solver's task sorting), so they go first: by the
        // previous iteration's nodes, most first, ties and new subtrees in
        // the serial order. Those counts are the same for any thread count
        // (an iteration without a solution searches every subtree to the
        // end), so the order, hence the answer, is too.
        if (!plan.nodes.empty()) {
            std::vector<uint64_t> score(level.size(), 0);
            for (size_t i = 0; i < level.size(); ++i) {
                auto it = plan.nodes.find(level[i].path);
                if (it != plan.nodes.end()) score[i] = it->second;
            }
            std::vector<size_t> order(level.size());
            for (size_t i = 0; i < order.size(); ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
            std::vector<Subtree> sorted;
            sorted.reserve(level.size());
            for (size_t i : order) sorted.push_back(std::move(level[i]));
            level.swap(sorted);
        }
        std::vector<uint64_t> subtreeNodes(level.size(), 0);
        std::atomic<size_t> nextSubtree{0}, lowestSolved{SIZE_MAX};
        std::atomic<uint64_t> nodes{0}, doneNodes{0};  // doneNodes: of finished subtrees (note [solve control])
        std::atomic<bool> stop{false};
        std::mutex solutionLock;
        std::vector<int> solution;
        std::exception_ptr failure;  // a helper's exception, rethrown by the caller
        Rendezvous rendezvous;
        auto workOn = [&] {
            Worker w;
            w.lowestSolved = &lowestSolved;
            w.path.reserve(static_cast<size_t>(bound) + 1);
            for (;;) {
                if (residencyDone_.load(std::memory_order_acquire)) [[unlikely]]
                    meet(rendezvous);  // note [background residency]
                if (control.exceeded(nodesBefore + doneNodes.load(std::memory_order_relaxed))) [[unlikely]] {
                    stop.store(true, std::memory_order_relaxed);
                    lowestSolved.store(0, std::memory_order_relaxed);  // everyone stops
                    break;
                }
                size_t k = nextSubtree.fetch_add(1, std::memory_order_relaxed);
                if (k >= level.size()) break;
                size_t i = reverseSubtrees_ ? level.size() - 1 - k : k;
                if (i > lowestSolved.load(std::memory_order_relaxed)) continue;
                const Subtree& n = level[i];
                w.index = i;
                w.path = n.path;
                const uint64_t before = w.nodes;
                const bool solved = dfs(w, n.state, n.inverse, bound, n.canon, n.skip, n.dir);
                subtreeNodes[i] = w.nodes - before;
                doneNodes.fetch_add(w.nodes - before, std::memory_order_relaxed);
                if (solved) {
                    std::lock_guard<std::mutex> lock(solutionLock);
                    if (i < lowestSolved.load(std::memory_order_relaxed)) {
                        solution = w.path;
                        lowestSolved.store(i, std::memory_order_relaxed);
                    }
                }
            }
            nodes.fetch_add(w.nodes, std::memory_order_relaxed);
        };
        auto work = [&] {
            try {
                workOn();
            } catch (...) {
                std::lock_guard<std::mutex> lock(solutionLock);
                if (!failure) failure = std::current_exception();
                lowestSolved.store(0, std::memory_order_relaxed);  // everyone stops
            }
            leave(rendezvous);
        };
        std::vector<std::thread> pool;
        const int helpers = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads), level.size())) - 1;
        rendezvous.active = helpers + 1;
        for (int t = 0; t < helpers; ++t) {
            try {
                pool.emplace_back(work);
            } catch (const std::system_error&) {
                leave(rendezvous);  // no more threads: the ones running share the subtrees
                for (int u = t + 1; u < helpers; ++u) leave(rendezvous);
                break;
            }
        }
        work();
        for (auto& th : pool) th.join();
        if (failure) std::rethrow_exception(failure);
        out.nodes += nodes.load();
        if (stop.load()) {
            control.stopped = true;
            return false;
        }
        if (lowestSolved.load() == SIZE_MAX) {
            plan.nodes.clear();
            for (size_t i = 0; i < level.size(); ++i) plan.nodes.emplace(std::move(level[i].path), subtreeNodes[i]);
            return false;
        }
        out.path = std::move(solution);
        return true;
    }

    // Between two nodes: every lookup reads the table's data pointer afresh.
    // A block that fails its hash here ends the run (the file is removed so
    // the next run rebuilds it): nothing found with the table is printed.
    void makeCosetResident() {
        if constexpr (kCoset > 0)
            for (auto& c : coset_) {
                std::string why;
                if (!c->makeResident(why)) tableCorrupt(tableDir_ + "/" + c->fileName(), why);
            }
    }
    void makeTablesResident() {
        untilResident_ = INT64_MAX;
        forEachResidentTable([&](auto& t, const std::string& file) {
            std::string why;
            if (!t.makeResident(why)) tableCorrupt(tableDir_ + "/" + file, why);
        });
    }
    [[noreturn]] static void tableCorrupt(const std::string& path, const std::string& why) {
        std::error_code ec;
        std::filesystem::remove(path, ec);
        throw TableCorruptError("pruning table " + path + " is corrupt (" + why + "); removed it: run again to rebuild it");
    }

    // Note [background residency]
    // ~~~~~~~~~~~~~~~~~~~~~~~~~~~
    // A process with one position to solve starts with its tables mapped
    // (note [table residency] in pz/tables/prune.hpp). Once its search passes
    // kResidentAfterNodes nodes, or reaches a split iteration, and has run
    // as long as the copy is expected to take (copyPaysOff: the mapped
    // bytes at kResidentCopyBytesPerSecond; slide4's 247 MiB, 0.26 s), a
    // thread copies them into huge pages and checks their hashes (with the CPUs
    // the search leaves, at least one), while the search goes on with the
    // mapped tables. The search takes the copies up at a safe point after
    // the copy is done: serially, between two nodes (polled every
    // kResidencyPollNodes nodes); in a split iteration, when every worker
    // has come to the end of a subtree (each looks at the flag between
    // subtrees and waits for the others; one that has run out of subtrees
    // no longer counts). The copy costs the kernel's zeroing of fresh huge
    // pages: the cube's 1.8 GiB h48h6 table took 0.8 s to 5.5 s on one CPU
    // of the 2-core VM, depending on the memory's history, when its search
    // is only 1.09x slower mapped; so a search with a CPU to spare gets the
    // huge pages for free, and a short one does not wait for them. (At nice
    // 19 the copy took 3.2 s instead of 0.9 s beside one busy thread: the
    // spare CPU is not left to it, so it runs at normal priority.) A damaged
    // block found by the copy ends the run at that safe point as before (the
    // file is removed, nothing found is printed).
    static constexpr int64_t kResidencyPollNodes = int64_t{1} << 16;
    struct Residency {
        std::vector<ResidentSource> sources;  // coset_ in order, then tables_
        std::vector<std::string> files;
        std::vector<HugeBuffer> copies;
        std::string error;  // the first failed copy's, naming files[failed]
        size_t failed = SIZE_MAX;
        std::atomic<bool> cancel{false};
        std::thread thread;
        ~Residency() {
            cancel.store(true);
            if (thread.joinable()) thread.join();
        }
    };
    template <class F>
    void forEachResidentTable(F&& f) {
        if constexpr (kCoset > 0)
            for (auto& c : coset_) f(*c, c->fileName());
        std::apply([&](auto&... t) { (f(t, t.fileName()), ...); }, tables_);
    }
    // At a safe point: starts the background copy, or takes it up once done.
    void advanceResidency() {
        if (!residencyInBackground_) return makeTablesResident();
        if (!residency_) {
            if (!copyPaysOff()) {
                untilResident_ = kResidencyPollNodes;
                return;
            }
            return startResidency();
        }
        if (!residencyDone_.load(std::memory_order_acquire)) {
            untilResident_ = kResidencyPollNodes;
            return;
        }
        adoptResidency();
    }
    // Whether the copy should start now (note [background residency]): once
    // the search has run as long as the copy is expected to take. A search
    // shorter than that never pays for a copy it would throw away at exit;
    // a longer one pays at most about twice (ski rental).
    static constexpr double kResidentCopyBytesPerSecond = 1e9;  // 1.8 GiB h48h6: 0.8-5.5 s on one CPU
    bool copyPaysOff() {
        if (mappedBytes_ < 0) {
            mappedBytes_ = 0;
            forEachResidentTable([&](const auto& t, const std::string&) {
                const ResidentSource src = t.residentSource();
                if (src.fd >= 0) mappedBytes_ += static_cast<double>(src.bytes);
            });
        }
        const double ran = std::chrono::duration<double>(std::chrono::steady_clock::now() - solveStart_).count();
        return ran >= mappedBytes_ / copyRate_;
    }
    void startResidency() {
        auto job = std::make_unique<Residency>();
        bool any = false;
        forEachResidentTable([&](const auto& t, const std::string& file) {
            job->sources.push_back(t.residentSource());
            job->files.push_back(tableDir_ + "/" + file);
            any = any || job->sources.back().fd >= 0;
        });
        if (!any) {
            untilResident_ = INT64_MAX;
            return;
        }
        job->copies.resize(job->sources.size());
        const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
        const unsigned search = static_cast<unsigned>(searchThreads_);
        const unsigned readers = cpus > search ? cpus - search : cpus;
        Residency* j = job.get();
        std::atomic<bool>* done = &residencyDone_;
        job->thread = std::thread([j, readers, done] {
            for (size_t i = 0; i < j->sources.size(); ++i) {
                if (j->sources[i].fd < 0) continue;
                if (!readResident(j->sources[i], j->copies[i], j->error, {readers, &j->cancel})) {
                    j->failed = i;
                    break;
                }
            }
            done->store(true, std::memory_order_release);
        });
        residency_ = std::move(job);
        untilResident_ = kResidencyPollNodes;
    }
    // At a safe point after the copy is done: its copies replace the mappings.
    void adoptResidency() {
        std::unique_ptr<Residency> job = std::move(residency_);
        job->thread.join();
        residencyDone_.store(false, std::memory_order_relaxed);
        untilResident_ = INT64_MAX;
        size_t i = 0;
        forEachResidentTable([&](auto& t, const std::string&) {
            if (i < job->failed && !t.adoptResident(std::move(job->copies[i]), job->error)) job->failed = i;
            ++i;
        });
        if (job->failed != SIZE_MAX) tableCorrupt(job->files[job->failed], job->error);
    }
    // Where the workers of a split iteration meet to take up a finished copy.
    struct Rendezvous {
        std::mutex lock;
        std::condition_variable wake;
        int active = 0;  // workers still taking subtrees
        int waiting = 0;
        uint64_t round = 0;
    };
    // A worker between subtrees, the copy done: the last to arrive takes it
    // up while the others wait.
    void meet(Rendezvous& r) {
        std::unique_lock<std::mutex> hold(r.lock);
        if (!residency_) return;  // taken up by an earlier round
        ++r.waiting;
        const uint64_t round = r.round;
        r.wake.wait(hold, [&] { return r.round != round || r.waiting == r.active; });
        if (r.round != round) return;
        r.waiting = 0;
        ++r.round;
        struct WakeAll {
            Rendezvous& r;
            ~WakeAll() { r.wake.notify_all(); }
        } wakeAll{r};  // also when the copy is found damaged (the throw stops every worker)
        adoptResidency();
    }
    void leave(Rendezvous& r) {
        std::lock_guard<std::mutex> hold(r.lock);
        --r.active;
        r.wake.notify_all();
    }

    std::string tableDir_;
    int64_t untilResident_ = kResidentAfterNodes;
    bool keptMapped_ = false;
    std::chrono::steady_clock::time_point solveStart_ = std::chrono::steady_clock::now();
    double mappedBytes_ = -1;  // bytes of the mapped tables (copyPaysOff), -1 until counted
    double copyRate_ = kResidentCopyBytesPerSecond;
    bool residencyInBackground_ = true;
    std::atomic<bool> residencyDone_{false};

    template <size_t... I>
    void computeIndices(const State& x, uint64_t* idx, std::index_sequence<I...>) const {
        ((conjugateIndices<PatternAt<I>>(x, idx + kOffsets[I]),
          prefetchAll(std::get<I>(tables_), idx + kOffsets[I], conjugateCount<PatternAt<I>>())),
         ...);
    }
    template <class Table>
    static void prefetchAll(const Table& t, const uint64_t* idx, int n) {
        for (int i = 0; i < n; ++i) t.prefetch(idx[i]);
    }
    // Whether some lookup exceeds `limit` (the child can be pruned).
    template <size_t... I>
    bool exceeds(const uint64_t* idx, unsigned limit, std::index_sequence<I...>) const {
        return (anyAbove(std::get<I>(tables_), idx + kOffsets[I], conjugateCount<PatternAt<I>>(), limit) || ...);
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
    std::vector<std::unique_ptr<CosetPattern<T>>> coset_;
    // Every coset pattern lookup: the pattern and the symmetry it is read at.
    struct CosetSlot {
        const CosetPattern<T>* pattern;
        int symmetry;
        uint64_t movesInSubgroup;  // note [moves in the subgroup]
    };
    std::vector<CosetSlot> cosetSlots_;
    int searchThreads_ = 1;
    uint64_t parallelFrom_ = kParallelFromNodes;
    bool reverseSubtrees_ = false;
    bool switching_ = true;
    bool batches_ = true;
    bool symmetric_ = true;
    // The symmetries that map every searched move onto a searched move, and
    // the image of each move (note [symmetric states]).
    struct MoveImages {
        int symmetry;
        std::array<int8_t, T::kMoves> image;
    };
    std::vector<MoveImages> moveImages_;
    IterationHook onIteration_;
    // Last: destroyed (the copy cancelled and joined) before the tables it reads.
    std::unique_ptr<Residency> residency_;
};

}  // namespace pz
