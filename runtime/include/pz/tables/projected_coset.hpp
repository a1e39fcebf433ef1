// pz/tables/projected_coset.hpp — a coset pattern table that keeps only part of its
// subgroup's coset coordinate (note [projected coset patterns] in
// compiler/analysis/perm/coset_coordinates.hpp; the H48 solver's h1..h10 tables).
//
// The full coordinate is the coset of H' (the cube: H48 with every edge
// oriented, 3393 corner classes x 34,650 edge slice values x 2^11 edge
// orientations, 240 billion values): too many for a table, but each value
// is a function of the coset, and a projection of it is too. The table keeps
// the reduced parts A (by symmetry class) and the parts `kept` (the cube:
// edge slices and the orientations at a few positions), and holds for each
// kept value the fewest moves over every full value that projects to it: a
// lower bound on the distance to H', so to H' s solved, so to solved.
//
// A state is looked up as: A's raw value -> (class, k) (the class index of
// pz/tables/sym_classes.hpp), the state conjugated by symmetry k (a state-level
// conjugation: the orientations of the cube's edges conjugate with their
// slices, not value by value), its kept parts ranked. A self-symmetric
// representative's entries are written with their images under its
// stabiliser, so any such k reads the same value.
//
// Note [class floors]
// ~~~~~~~~~~~~~~~~~~~
// The least entry of each class (over every kept value) is a lower bound for
// every state of the class, known as soon as the class is: the H48 solver's
// corner-only estimate that skips the full coordinate. The search reads it
// right after the class entry, and a child it already prunes never gets its
// other parts conjugated and ranked, nor its line of the big table fetched.
// One byte per class, written by the build.
//
// The build cannot search the full coordinate breadth-first, so it goes in
// two steps (learned from the H48 solver's table generator):
//   1. breadth first over full values (keys), one layer at a time, a state
//      per key, while a layer times the moves stays under kMaxLayerCandidates;
//      every key of depth <= D0 is kept in a hash set;
//   2. depth first from every state of layer D0, R more moves (the
//      canonical automaton of the search moves), R >= 1 the largest with
//      N(D0) x (canonical sequences of at most R moves) within
//      kMaxDepthFirstNodes; a child of a layer state whose key is in the
//      set (depth <= D0: the move went back or sideways) is not expanded.
//      Deeper nodes are not looked up: the canonical automaton already
//      rules out the move straight back, few others return to the set, and
//      the full key and its probe cost more than the subtrees they would
//      skip (h48h6 exact to 11, progress of the depth-first step after
//      120 s: 18.3% looking up the first two moves' children, 21.8% the
//      first move's, 17.0% none).
// Every node marks its projected entry with min(entry, depth). Every state
// at distance <= D0 + R is reached along one of its shortest paths (its
// prefix of length D0 ends at a key of layer D0, whose stored state differs
// from the path's by H' and a symmetry, which the marks do not see), so the
// entries up to D0 + R are exact and the others are set to D0 + R + 1, still
// a lower bound. The entries are minima, so the bytes do not depend on the
// thread count or on which state stands for a key.
//
// Note [declared exact depth]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The node budget gives the cube's tables R = 2 from layer 8: exact up to
// 10, and most of h48h6's entries read "11 or more", so the bigger families
// prune little better than the smaller (the cap, not the kept bits, limits
// them). `coset H exact D;` asks for entries exact up to at least D: R is
// raised to D - D0 whatever the budget: build time traded for pruning
// (h48h6 exact up to 11: 2.17e10 nodes against 1.63e9, 746 s against 86 s
// on 2 cores; its searches take about two thirds of the time). It is part
// of the plan, so of the table's cache key; `pzc check` estimates the
// nodes and the time.
//
// Note [projected tables across ranks]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `pzc enumerate --pattern P --table --mpi` builds a projected table on
// several ranks (pz/enumerate/enumerate_main.hpp). Every rank computes the
// symmetry classes and the breadth-first step (the same layers: its sort is
// by key, whatever the threads), then walks the depth-first step from its
// share of layer D0, state i on rank i mod N. The marks are minima, so rank
// 0 takes each entry's least over the ranks (a reduction of the 4-bit
// entries, a window at a time) and has exactly the table one process
// builds; it alone packs and writes it. Each rank holds the whole 4-bit
// table: ranks divide the time of the depth-first step, not the memory.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pz/search/phased.hpp"
#include "pz/support/atomic_ref.hpp"
#include "pz/support/prefetch.hpp"
#include "pz/tables/projected_depth.hpp"
#include "pz/tables/sym_classes.hpp"
#include "pz/tables/table_blob.hpp"
#include "pz/tables/table_layout.hpp"
#include "pz/tables/two_bit_table.hpp"

namespace pz {

// A rank's part in a build across ranks (note [projected tables across
// ranks]): reduceMin(words, count) makes rank 0's 4-bit entries every
// rank's least; firstOver(over) is the lowest rank whose `over` is true
// (-1: none). Both are called by every rank.
struct ProjectedShare {
    int rank = 0, ranks = 1;
    std::function<void(uint64_t*, uint64_t)> reduceMin;
    std::function<int(bool)> firstOver;
};
// Thrown on the ranks of a build across ranks that another rank's memory
// budget stopped: that rank says why (MemoryBudgetError).
struct StoppedByAnotherRank : std::runtime_error {
    StoppedByAnotherRank() : std::runtime_error("stopped by another rank") {}
};

template <class T>
class ProjectedCosetTable {
public:
    using State = typename T::State;

    // phase: the full coordinate (parts, reduced A, rest B, symmetries,
    // search moves and their canonical automaton); kept: the parts the table
    // stores in place of B.
    // fixedRanks: the traits' generated ranks of these parts (note [fixed
    // ranks] in pz/search/phased.hpp), T::cosetRank(fixedRanks, ...); -1 = none.
    // declaredExact: note [declared exact depth]; 0 = the budget's depth.
    ProjectedCosetTable(PhaseSpec phase, std::vector<PhasePartSpec> kept, std::string label, int fixedRanks = -1,
                        int declaredExact = 0)
        : spec_(std::move(phase)), kept_(std::move(kept)), label_(std::move(label)), fixed_(fixedRanks),
          declaredExact_(declaredExact) {
        if (declaredExact_ < 0 || declaredExact_ > static_cast<int>(kMaxExactDepth))
            throw std::logic_error(label_ + ": declared exact depth out of range");
        if (spec_.symmetries.empty() || spec_.reduced.empty())
            throw std::logic_error(label_ + ": a projected coset table needs symmetry-reduced parts");
        if (spec_.symmetries.size() > 64) throw std::logic_error(label_ + ": more than 64 symmetries");
        rawA_ = product(spec_.parts, spec_.reduced);
        bFull_ = product(spec_.parts, spec_.rest);
        bSize_ = 1;
        for (const auto& p : kept_) bSize_ *= p.size;
        // Test knobs: force the depth-first step on a small puzzle (the
        // cached file does not record them: use a separate table directory).
        if (const char* v = std::getenv("PZ_PROJECTED_BFS_CANDIDATES")) maxCandidates_ = std::strtoull(v, nullptr, 10);
        if (const char* v = std::getenv("PZ_PROJECTED_DFS_NODES")) maxDfsNodes_ = std::strtoull(v, nullptr, 10);
    }

    // Loads the table from the cache file `path` (keyed by `hash`), or builds
    // it with `threads` threads and saves it there; "" = build, no cache.
    void loadOrBuild(const std::string& path, const std::string& hash, int threads) {
        const auto t0 = std::chrono::steady_clock::now();
        loaded_ = loadOrBuildBlob(
            path, hash, label_, mapping_,
            [&](const uint64_t* words, uint64_t count, std::string& why) { return attach(words, count, why); },
            [&] {
                build(threads);
                return std::make_pair(static_cast<const uint64_t*>(blob_.data), words_ * 8);
            });
        buildSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    // Builds the table with this rank's share of the depth-first step (note
    // [projected tables across ranks]); rank 0 then has it, and writes it to
    // `path` keyed by `hash` as loadOrBuild does, replacing what is there.
    // Other ranks end with nothing to look up. False, with why, when rank 0
    // cannot write it.
    bool buildAcrossRanks(const std::string& path, const std::string& hash, int threads, const ProjectedShare& share,
                          std::string& why) {
        const auto t0 = std::chrono::steady_clock::now();
        struct Sharing {  // share_ is set while build() runs, thrown out of or not
            const ProjectedShare*& at;
            ~Sharing() { at = nullptr; }
        } sharing{share_ = &share};
        build(threads);
        buildSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (share.rank != 0) return true;
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
        std::filesystem::remove(path, ec);
        return saveTableBlob(path, hash, blob_.data, words_ * 8, why);
    }

    // note [table residency] in pz/tables/prune.hpp.
    ResidentSource residentSource() const { return residentSourceOf(mapping_, words_ * 8); }
    bool adoptResident(HugeBuffer&& b, std::string& why) {
        if (!b.data) return true;
        if (!attach(b.data, words_, why)) return false;
        blob_ = std::move(b);
        mapping_ = MappedFile();
        return true;
    }
    bool makeResident(std::string& why) { return makeResidentNow(*this, why); }

    // ---- lookups ----
    uint64_t rawA(const State& s) const { return rankReduced(s); }
    void prefetchClass(uint64_t raw) const { pz::prefetch(classOf_ + raw); }
    uint32_t classEntry(uint64_t raw) const { return classOf_[raw]; }
    // The least entry of the class of class entry e (note [class floors]).
    unsigned classFloor(uint32_t e) const { return floor_[e >> 6]; }
    // The entry of s given its class entry e = classOf[rawA(s)].
    uint64_t indexOfEntry(const State& s, uint32_t e) const {
        if constexpr (requires { T::cosetKeptRankAt(0, s, 0); })
            if (fixed_ >= 0) return static_cast<uint64_t>(e >> 6) * bSize_ + T::cosetKeptRankAt(fixed_, s, spec_.symmetries[e & 63]);
        return static_cast<uint64_t>(e >> 6) * bSize_ + rankKept(conj(s, e & 63));
    }
    uint64_t index(const State& s) const { return indexOfEntry(s, classOf_[rawA(s)]); }
    // 2-bit entries with a base and a per-line minimum (note [two-bit
    // tables] in pz/tables/two_bit_table.hpp).
    unsigned get(uint64_t i) const { return TwoBitTable::lookupIn(lines_, base_, below_, i); }
    bool reads(uint64_t i, unsigned r) const { return TwoBitTable::readsIn(lines_, base_, below_, i, r); }
    bool exceeds(uint64_t i, unsigned limit) const { return TwoBitTable::exceedsIn(lines_, base_, below_, i, limit); }
    int exceedsOrDefer(uint64_t i, unsigned limit) const { return TwoBitTable::exceedsOrDeferIn(lines_, base_, below_, i, limit); }
    void prefetch(uint64_t i) const { TwoBitTable::prefetchIn(lines_, i); }

    // ---- what was built ----
    uint64_t classes() const { return classes_; }
    uint64_t entries() const { return classes_ * bSize_; }
    uint64_t rawValues() const { return rawA_ * bSize_; }
    // Entries are exact up to this depth; larger ones read as exactDepth + 1.
    unsigned exactDepth() const { return exactDepth_; }
    // Whether the breadth-first search reached every key (every entry exact).
    bool complete() const { return complete_; }
    // Entries per distance before packing (the build's 4-bit values).
    const std::array<uint64_t, 16>& depthCounts() const { return counts_; }
    unsigned base() const { return base_; }
    // note [entries below the base]: every entry below this reads exactly.
    unsigned belowBaseThreshold() const { return below_.threshold; }
    uint64_t belowBaseSlots() const { return uint64_t{1} << below_.bits; }
    uint64_t tableBytes() const { return words_ * 8; }
    double buildSeconds() const { return buildSeconds_; }
    bool loadedFromCache() const { return loaded_; }

private:
    static constexpr uint64_t kMagic = 0x3454434A4F525050ULL;  // "PPROJCT4"

    static uint64_t product(const std::vector<PhasePartSpec>& parts, const std::vector<int>& which) {
        uint64_t p = 1;
        for (int j : which) p *= parts[j].size;
        return p;
    }
    // The reduced parts' value (generated, note [fixed ranks], when there).
    uint64_t rankReduced(const State& s) const {
        if constexpr (requires { T::cosetRank(0, CosetRanks::Reduced, s); })
            if (fixed_ >= 0) return T::cosetRank(fixed_, CosetRanks::Reduced, s);
        return plainRankOf(spec_.reduced, s);
    }
    uint64_t rankKept(const State& s) const {
        if constexpr (requires { T::cosetRank(0, CosetRanks::Kept, s); })
            if (fixed_ >= 0) return T::cosetRank(fixed_, CosetRanks::Kept, s);
        return plainRankKept(s);
    }
    uint64_t plainRankOf(const std::vector<int>& which, const State& s) const {
        uint64_t x = 0;
        for (int j : which) x = x * spec_.parts[j].size + rankPart<T>(spec_.parts[j], s);
        return x;
    }
    uint64_t plainRankKept(const State& s) const {
        uint64_t x = 0;
        for (const auto& p : kept_) x = x * p.size + rankPart<T>(p, s);
        return x;
    }

public:
    // Whether the generated ranks (note [fixed ranks]) agree with the plan's
    // on `states`: --tables checks them on random states.
    bool fixedRanksAgree(const std::vector<State>& states) const {
        if (fixed_ < 0) return true;
        for (const State& s : states)
            if (rankReduced(s) != plainRankOf(spec_.reduced, s) || rankKept(s) != plainRankKept(s)) return false;
        if constexpr (requires(const State& s) { T::cosetKeptRankAt(0, s, 0); })
            for (const State& s : states)
                for (size_t k = 0; k < spec_.symmetries.size(); ++k)
                    if (T::cosetKeptRankAt(fixed_, s, spec_.symmetries[k]) != plainRankKept(conj(s, static_cast<uint32_t>(k))))
                        return false;
        return true;
    }
    bool hasFixedRanks() const {
        if constexpr (requires(const State& s) { T::cosetRank(0, CosetRanks::Reduced, s); }) return fixed_ >= 0;
        return false;
    }

private:
    State conj(const State& s, uint32_t k) const {
        const int sym = spec_.symmetries[k];
        return sym == 0 ? s : T::conjugate(s, sym);
    }

    // The blob's layout: pz/tables/table_layout.hpp (the compiler sizes it there too).
    using Layout = ProjectedCosetLayout;

    bool attach(const uint64_t* blob, uint64_t words, std::string& why) {
        if (words < Layout::kHeaderWords || blob[0] != kMagic) return (why = "not a projected coset table", false);
        const uint64_t classes = blob[1], rawA = blob[2], bSize = blob[3];
        if (rawA != rawA_ || bSize != bSize_) return (why = "its coordinate sizes differ from the spec's", false);
        if (classes == 0 || classes > rawA) return (why = "bad class count", false);
        const uint64_t want = Layout::words(rawA, classes, bSize);
        if (words != want) return (why = "size " + std::to_string(words * 8) + " bytes, expected " + std::to_string(want * 8), false);
        classes_ = classes;
        exactDepth_ = static_cast<unsigned>(blob[5]);
        complete_ = blob[6] != 0;
        base_ = static_cast<unsigned>(blob[7]);
        if (base_ > 12) return (why = "bad base", false);
        const uint64_t slots = BelowBase::slotsFor(classes * bSize);
        if (blob[24] != slots || blob[25] > base_) return (why = "bad set of entries below the base", false);
        for (int d = 0; d < 16; ++d) counts_[d] = blob[8 + d];
        classOf_ = reinterpret_cast<const uint32_t*>(blob + Layout::kHeaderWords);
        stab_ = blob + Layout::kHeaderWords + Layout::classWords(rawA);
        floor_ = reinterpret_cast<const uint8_t*>(stab_ + classes);
        for (uint64_t c = 0; c < classes; ++c)
            if (floor_[c] > 15) return (why = "bad class floor", false);
        lines_ = blob + Layout::linesAt(rawA, classes);
        below_ = {reinterpret_cast<const uint16_t*>(lines_ + TwoBitTable::bytesFor(classes * bSize) / 8),
                  static_cast<unsigned>(std::countr_zero(slots)), static_cast<unsigned>(blob[25])};
        words_ = words;
        return true;
    }

    // Open addressing over the keys of depth <= D0 (never removed). On huge
    // pages: every inner node of the depth-first step looks its children up
    // at random (the cube's: 128 MiB).
    struct KeySet {
        HugeBuffer buffer;
        uint64_t* slots = nullptr;
        uint64_t mask = 0;
        static constexpr uint64_t kEmpty = ~uint64_t{0};
        explicit KeySet(uint64_t keys) {
            uint64_t n = 16;
            while (n < keys * 2) n <<= 1;
            buffer = HugeBuffer(n * 8);
            slots = buffer.data;
            std::fill(slots, slots + n, kEmpty);
            mask = n - 1;
        }
        static uint64_t hash(uint64_t k) { return (k ^ (k >> 31)) * 0x9E3779B97F4A7C15ULL; }
        void insert(uint64_t k) {
            for (uint64_t i = hash(k) & mask;; i = (i + 1) & mask)
                if (slots[i] == kEmpty || slots[i] == k) return void(slots[i] = k);
        }
        void prefetch(uint64_t k) const { pz::prefetch(slots + (hash(k) & mask)); }
        bool contains(uint64_t k) const {
            for (uint64_t i = hash(k) & mask;; i = (i + 1) & mask) {
                if (slots[i] == k) return true;
                if (slots[i] == kEmpty) return false;
            }
        }
    };

    static void nibbleMin(uint64_t* words, uint64_t i, unsigned d) {
        pz::AtomicRef<uint64_t> w(words[i >> 4]);
        const unsigned shift = (i & 15) * 4;
        uint64_t old = w.load(std::memory_order_relaxed);
        while ((old >> shift & 15) > d &&
               !w.compare_exchange_weak(old, (old & ~(uint64_t{15} << shift)) | static_cast<uint64_t>(d) << shift,
                                        std::memory_order_relaxed)) {
        }
    }

    void build(int threads) {
        if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        const PhaseSpec& spec = spec_;
        const int nS = static_cast<int>(spec.symmetries.size());
        Progress progress("pz: building " + label_);
        std::vector<uint64_t> values(spec.reduced.size() + 1);
        SymClasses sc = computeSymClasses(
            rawA_, nS, spec.symInverse,
            [&](uint64_t a) {
                for (size_t i = spec.reduced.size(); i-- > 0;) {
                    values[i] = a % spec.parts[spec.reduced[i]].size;
                    a /= spec.parts[spec.reduced[i]].size;
                }
                return unrankParts<T>(spec.parts, spec.reduced, values.data());
            },
            [&](const State& x) { return rankReduced(x); },
            [&](const State& x, int s) { return conj(x, static_cast<uint32_t>(s)); }, label_);
        const uint64_t classes = sc.classes();
        const uint64_t entries = classes * bSize_;
        // The build fills 4-bit entries, then packs them into 2-bit lines.
        const uint64_t tableWords = (entries + 15) / 16;
        const uint64_t total = Layout::words(rawA_, classes, bSize_);
        const bool over = (total + tableWords) * 8 > memoryBudget();
        // Across ranks they stop together, before any rank waits for the others.
        if (share_ && share_->ranks > 1)
            if (const int first = share_->firstOver(over); first >= 0 && first != share_->rank) throw StoppedByAnotherRank();
        if (over)
            throw MemoryBudgetError("the " + label_ + " needs " + formatBytes(total * 8) + " (" +
                                    formatBytes((total + tableWords) * 8) + " while built), more than the memory budget of " +
                                    formatBytes(memoryBudget()));
        HugeBuffer nibbles(tableWords * 8);
        uint64_t* table = nibbles.data;
        classOf_ = sc.classOf.data();
        stab_ = sc.stab.data();
        classes_ = classes;

        // The entry of x: its class, x conjugated to the representative (y).
        auto locate = [&](const State& x, uint64_t& cls, State& y) {
            const uint32_t e = classOf_[rawA(x)];
            cls = e >> 6;
            y = conj(x, e & 63);
            return cls * bSize_ + rankKept(y);
        };
        // The key of a state located at (cls, y): its class and the smallest
        // full B value over the representative's self-symmetries.
        auto keyAt = [&](uint64_t cls, const State& y) {
            uint64_t b = plainRankOf(spec.rest, y);
            for (uint64_t m = stab_[cls] & ~uint64_t{1}; m; m &= m - 1)
                b = std::min(b, plainRankOf(spec.rest, conj(y, static_cast<uint32_t>(std::countr_zero(m)))));
            return cls * bFull_ + b;
        };
        auto keyOf = [&](const State& x) {
            uint64_t cls;
            State y;
            locate(x, cls, y);
            return keyAt(cls, y);
        };
        // put(i) for entry `at` of y (class cls, conjugated to its
        // representative) and its images under the representative's
        // self-symmetries: the entries a mark of y writes.
        auto forEachEntry = [&](uint64_t at, uint64_t cls, const State& y, auto&& put) {
            put(at);
            for (uint64_t m = stab_[cls] & ~uint64_t{1}; m; m &= m - 1)
                put(cls * bSize_ + rankKept(conj(y, static_cast<uint32_t>(std::countr_zero(m)))));
        };
        auto mark = [&](const State& x, unsigned d) {
            uint64_t cls;
            State y;
            const uint64_t at = locate(x, cls, y);
            forEachEntry(at, cls, y, [&](uint64_t i) { nibbleMin(table, i, std::min(d, 15u)); });
        };
        auto parallel = [&](uint64_t count, auto&& body) {  // body(begin, end) over chunks
            std::atomic<uint64_t> next{0};
            constexpr uint64_t kChunk = 256;
            auto worker = [&] {
                for (;;) {
                    const uint64_t begin = next.fetch_add(kChunk);
                    if (begin >= count) break;
                    body(begin, std::min(count, begin + kChunk));
                }
            };
            std::vector<std::thread> pool;
            for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
            worker();
            for (auto& t : pool) t.join();
        };
        // Every entry starts unreached (15), the first touch of the pages
        // shared by the threads (3.6 GiB for h48h6).
        parallel((tableWords + (uint64_t{1} << 16) - 1) >> 16, [&](uint64_t b, uint64_t e) {
            const uint64_t from = b << 16, to = std::min(tableWords, e << 16);
            std::fill(table + from, table + to, ~uint64_t{0});
        });
        const int n = static_cast<int>(spec.moves.size());
        if (n > T::kMoves) throw std::logic_error(label_ + ": more search moves than the traits have");

        // 1. Breadth first over keys.
        struct Candidate {
            uint64_t key;
            State state;
        };
        std::vector<uint64_t> seen;  // sorted keys of depth <= d
        std::vector<State> layer{T::solved()};
        seen.push_back(keyOf(layer[0]));
        mark(layer[0], 0);
        unsigned d = 0;
        bool complete = false;
        for (;; ++d) {
            if (layer.empty()) {
                complete = true;
                break;
            }
            if (layer.size() * static_cast<uint64_t>(n) > maxCandidates_) break;
            progress.beginLevel();
            // Every child of the layer, in place (one copy at the peak).
            std::vector<Candidate> all(layer.size() * static_cast<size_t>(n));
            parallel(layer.size(), [&](uint64_t b, uint64_t e) {
                for (uint64_t i = b; i < e; ++i)
                    for (int m = 0; m < n; ++m) {
                        const State c = T::applyMove(layer[i], spec.moves[static_cast<size_t>(m)]);
                        all[i * static_cast<uint64_t>(n) + static_cast<uint64_t>(m)] = {keyOf(c), c};
                    }
            });
            std::sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) { return a.key < b.key; });
            std::vector<State> next;
            std::vector<uint64_t> fresh;
            for (size_t i = 0; i < all.size(); ++i) {
                if (i > 0 && all[i].key == all[i - 1].key) continue;
                if (std::binary_search(seen.begin(), seen.end(), all[i].key)) continue;
                fresh.push_back(all[i].key);
                next.push_back(all[i].state);
            }
            std::vector<Candidate>().swap(all);
            const size_t before = seen.size();
            seen.insert(seen.end(), fresh.begin(), fresh.end());
            std::inplace_merge(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(before), seen.end());
            parallel(next.size(), [&](uint64_t b, uint64_t e) {
                for (uint64_t i = b; i < e; ++i) mark(next[i], d + 1);
            });
            layer = std::move(next);
            progress.level(static_cast<int>(d + 1), layer.size());
        }
        unsigned exact = d;
        if (!complete) {
            // 2. Depth first from layer d, R more moves (pz::depthFirstStep):
            // R the largest with |layer| x (canonical sequences of length <=
            // R, counted on the automaton; the key set prunes more) within
            // the budget, or as a declared exact depth asks.
            const int* canon = spec.canonNext.data();
            const bool hasCanon = !spec.canonNext.empty();
            const size_t automaton = hasCanon ? spec.canonNext.size() / static_cast<size_t>(n) : 1;
            std::vector<double> ways(automaton, 0.0), sequences{1.0};
            ways[hasCanon ? static_cast<size_t>(spec.canonStart) : 0] = 1;
            for (unsigned r = 1; r <= kMaxExactDepth; ++r) {
                std::vector<double> next(automaton, 0.0);
                double count = 0;
                for (size_t q = 0; q < automaton; ++q)
                    for (int i = 0; i < n && ways[q] > 0; ++i) {
                        const int q2 = hasCanon ? canon[q * static_cast<size_t>(n) + static_cast<size_t>(i)] : 0;
                        if (q2 < 0) continue;
                        next[static_cast<size_t>(q2)] += ways[q];
                        count += ways[q];
                    }
                sequences.push_back(count);
                ways = std::move(next);
            }
            const unsigned extra = depthFirstStep(double(layer.size()), sequences, d, double(maxDfsNodes_),
                                                  static_cast<unsigned>(declaredExact_)).moves;
            exact = d + extra;
            KeySet set(seen.size());
            for (uint64_t k : seen) set.insert(k);
            std::vector<uint64_t>().swap(seen);
            // Marks wait in a queue of kMarksInFlight after their table line
            // is prefetched, so each thread keeps that many misses in flight
            // across nodes (the table is far bigger than the caches; most
            // marks are at the last level, with nothing else to do between
            // them). Marks are minima: their order changes no byte.
            // 64: the exact-to-11 h48h6 build's depth-first step reached
            // 15.2% in its first 90 s (16: 13.7%, 32: 14.7%, 128: 14.6%).
            // The prefetch is a read: most marks find their entry already as
            // low and write nothing, and a prefetch for writing (an
            // ownership request each) got 17.3% done in 120 s against 18.3%.
            // Tried and not kept: the last level's marks as bits in a bitmap
            // a quarter of the nibbles' size (18.1%), bucketed by 32 KiB of
            // that bitmap and applied a bucket at a time (16.7%).
            constexpr unsigned kMarksInFlight = 64;
            struct MarkQueue {
                uint64_t at[kMarksInFlight];
                unsigned d[kMarksInFlight];
                unsigned head = 0, size = 0;
            };
            auto enqueue = [&](MarkQueue& q, uint64_t at, unsigned d) {
                pz::prefetch(table + (at >> 4));
                if (q.size == kMarksInFlight) {
                    nibbleMin(table, q.at[q.head], q.d[q.head]);
                    q.at[q.head] = at, q.d[q.head] = d;
                    q.head = (q.head + 1) % kMarksInFlight;
                } else {
                    const unsigned slot = (q.head + q.size++) % kMarksInFlight;
                    q.at[slot] = at, q.d[slot] = d;
                }
            };
            auto drain = [&](MarkQueue& q) {
                for (unsigned i = 0; i < q.size; ++i) {
                    const unsigned slot = (q.head + i) % kMarksInFlight;
                    nibbleMin(table, q.at[slot], q.d[slot]);
                }
                q.size = 0;
            };
            // Walks `left` more moves from x (automaton state q) at depth
            // `depth`, marking every child (its entry and the entries of its
            // images under its representative's self-symmetries).
            // A node's children's class entries are fetched together, and
            // a layer state's children's keys looked up in the key set
            // together: a cache miss each, overlapped.
            auto dfs = [&](auto&& self, MarkQueue& marks, const State& x, int q, unsigned depth, unsigned left) __attribute__((flatten)) -> void {
                const unsigned d = std::min(depth + 1, 15u);
                State kids[T::kMoves];
                uint64_t raw[T::kMoves], keys[T::kMoves];
                int next[T::kMoves], count = 0;
                for (int i = 0; i < n; ++i) {
                    const int q2 = hasCanon ? canon[static_cast<size_t>(q) * static_cast<size_t>(n) + static_cast<size_t>(i)] : 0;
                    if (q2 < 0) continue;
                    ::new (static_cast<void*>(&kids[count])) State(T::applyMove(x, spec.moves[static_cast<size_t>(i)]));
                    raw[count] = rawA(kids[count]);
                    pz::prefetch(classOf_ + raw[count]);
                    next[count++] = q2;
                }
                for (int k = 0; k < count; ++k) {
                    const uint32_t e = classOf_[raw[k]];
                    const uint64_t cls = e >> 6;
                    if (left == 1 && (stab_[cls] & ~uint64_t{1}) == 0) {
                        // A leaf of a class without self-symmetries: its entry
                        // alone, ranked as the search does (no conjugated state).
                        enqueue(marks, indexOfEntry(kids[k], e), d);
                        continue;
                    }
                    const State rep = conj(kids[k], e & 63);
                    forEachEntry(cls * bSize_ + rankKept(rep), cls, rep, [&](uint64_t at) { enqueue(marks, at, d); });
                    if (left == extra && left > 1) {  // only the first move's children are looked up
                        keys[k] = keyAt(cls, rep);
                        set.prefetch(keys[k]);
                    }
                }
                if (left > 1)
                    for (int k = 0; k < count; ++k)
                        if (left != extra || !set.contains(keys[k])) self(self, marks, kids[k], next[k], depth + 1, left - 1);
            };
            progress.beginLevel();
            std::atomic<uint64_t> done{0};
            std::mutex drawing;  // Progress is not thread-safe
            // This rank's roots: layer states rank, rank + ranks, ...
            const uint64_t rank = share_ ? static_cast<uint64_t>(share_->rank) : 0;
            const uint64_t ranks = share_ ? static_cast<uint64_t>(share_->ranks) : 1;
            const uint64_t mine = layer.size() > rank ? (layer.size() - rank + ranks - 1) / ranks : 0;
            parallel(mine, [&](uint64_t b, uint64_t e) {
                MarkQueue marks;
                for (uint64_t j = b; j < e; ++j) dfs(dfs, marks, layer[j * ranks + rank], spec.canonStart, d, extra);
                drain(marks);
                const uint64_t total = done.fetch_add(e - b) + (e - b);
                if (std::unique_lock<std::mutex> lock(drawing, std::try_to_lock); lock)
                    progress.update(static_cast<int>(exact), double(total) / double(mine));
            });
        }
        // Across ranks: rank 0 takes every rank's marks, and alone goes on.
        if (share_ && share_->ranks > 1) {
            share_->reduceMin(table, tableWords);
            if (share_->rank != 0) {
                classOf_ = nullptr, stab_ = nullptr;  // they pointed into this build's classes
                return;
            }
        }
        // Unreached entries are farther than `exact` (when the search was cut),
        // and the distribution (the tail of the last word past the entries
        // does not count): one pass over the words, 64 Ki words a task.
        std::array<uint64_t, 16> counts{};
        {
            const uint64_t beyond = complete ? 15 : exact + 1;
            constexpr uint64_t kWordsPerTask = uint64_t{1} << 16;
            std::mutex merging;
            parallel((tableWords + kWordsPerTask - 1) / kWordsPerTask, [&](uint64_t b, uint64_t e) {
                std::array<uint64_t, 16> local{};
                for (uint64_t w = b * kWordsPerTask, end = std::min(tableWords, e * kWordsPerTask); w < end; ++w) {
                    uint64_t v = table[w];
                    const uint64_t valid = std::min<uint64_t>(16, entries - 16 * w);
                    for (uint64_t j = 0; j < 16; ++j) {
                        uint64_t x = v >> (4 * j) & 15;
                        if (x == 15 && beyond != 15) {
                            v = (v & ~(uint64_t{15} << (4 * j))) | beyond << (4 * j);
                            x = beyond;
                        }
                        if (j < valid) ++local[x];
                    }
                    table[w] = v;
                }
                std::lock_guard<std::mutex> lock(merging);
                for (int k = 0; k < 16; ++k) counts[static_cast<size_t>(k)] += local[static_cast<size_t>(k)];
            });
        }
        auto nibble = [&](uint64_t i) { return static_cast<unsigned>(table[i >> 4] >> ((i & 15) * 4) & 15); };
        // The base with the largest mean bound (the cube's h48h3: 8, so the
        // 2-bit reads keep 9, 10 and "11 or more" exactly; the 0.7% of
        // entries at or below 8 read their line's minimum).
        const unsigned base = TwoBitTable::chooseBase(counts);
        blob_ = HugeBuffer(total * 8);
        uint64_t* blob = blob_.data;
        std::memset(blob, 0, total * 8);
        blob[0] = kMagic;
        blob[1] = classes;
        blob[2] = rawA_;
        blob[3] = bSize_;
        blob[4] = d;
        blob[5] = complete ? 15 : exact;
        blob[6] = complete ? 1 : 0;
        blob[7] = base;
        for (int k = 0; k < 16; ++k) blob[8 + k] = counts[k];
        const uint64_t slots = BelowBase::slotsFor(entries);
        const unsigned threshold = BelowBase::thresholdFor(counts, base, slots);
        blob[24] = slots;
        blob[25] = threshold;
        std::memcpy(blob + Layout::kHeaderWords, sc.classOf.data(), rawA_ * 4);
        std::memcpy(blob + Layout::kHeaderWords + Layout::classWords(rawA_), sc.stab.data(), classes * 8);
        // note [class floors]: the least entry of each class.
        auto* floors = reinterpret_cast<uint8_t*>(blob + Layout::kHeaderWords + Layout::classWords(rawA_) + classes);
        parallel(classes, [&](uint64_t b, uint64_t e) {
            for (uint64_t c = b; c < e; ++c) {
                unsigned least = 15;
                for (uint64_t i = c * bSize_, end = i + bSize_; i < end && least > 0; ++i) least = std::min(least, nibble(i));
                floors[c] = static_cast<uint8_t>(least);
            }
        });
        uint64_t* lines = blob + Layout::linesAt(rawA_, classes);
        parallel((entries + TwoBitTable::kPerLine - 1) / TwoBitTable::kPerLine, [&](uint64_t b, uint64_t e) {
            for (uint64_t line = b; line < e; ++line)
                TwoBitTable::packLineInto(lines + line * TwoBitTable::kLineWords, line, entries, base, nibble);
        });
        // note [entries below the base]: found by every thread (lines whose
        // minimum is below the threshold, a block of lines a task), inserted
        // in index order on this one.
        {
            constexpr uint64_t kLinesPerTask = uint64_t{1} << 14;
            const uint64_t lineCount = (entries + TwoBitTable::kPerLine - 1) / TwoBitTable::kPerLine;
            const uint64_t tasks = (lineCount + kLinesPerTask - 1) / kLinesPerTask;
            std::vector<std::vector<uint64_t>> found(tasks);
            parallel(tasks, [&](uint64_t b, uint64_t e) {
                for (uint64_t task = b; task < e; ++task)
                    for (uint64_t line = task * kLinesPerTask, end = std::min(lineCount, (task + 1) * kLinesPerTask); line < end; ++line) {
                        if ((lines[line * TwoBitTable::kLineWords + 7] >> 60) >= threshold) continue;
                        for (uint64_t i = line * TwoBitTable::kPerLine, last = std::min(entries, i + TwoBitTable::kPerLine); i < last; ++i)
                            if (nibble(i) < threshold) found[task].push_back(i);
                    }
            });
            auto* slotsAt = reinterpret_cast<uint16_t*>(lines + TwoBitTable::bytesFor(entries) / 8);
            const unsigned bits = static_cast<unsigned>(std::countr_zero(slots));
            for (const auto& list : found)
                for (uint64_t i : list) BelowBase::insert(slotsAt, bits, i, nibble(i));
        }
        progress.done();
        std::string why;
        if (!attach(blob, total, why)) throw std::logic_error(label_ + ": " + why);
    }

    PhaseSpec spec_;
    std::vector<PhasePartSpec> kept_;
    std::string label_;
    int fixed_ = -1;  // T::cosetRank index (note [fixed ranks]); -1 = none
    int declaredExact_ = 0;  // note [declared exact depth]; 0 = none
    const ProjectedShare* share_ = nullptr;  // while built across ranks
    uint64_t rawA_ = 0, bFull_ = 1, bSize_ = 1;
    uint64_t maxCandidates_ = kMaxLayerCandidates, maxDfsNodes_ = kMaxDepthFirstNodes;
    HugeBuffer blob_;
    MappedFile mapping_;
    uint64_t words_ = 0, classes_ = 0;
    const uint32_t* classOf_ = nullptr;
    const uint64_t* stab_ = nullptr;
    const uint8_t* floor_ = nullptr;
    const uint64_t* lines_ = nullptr;
    BelowBaseView below_;
    unsigned base_ = 0;
    unsigned exactDepth_ = 0;
    bool complete_ = false;
    std::array<uint64_t, 16> counts_{};
    bool loaded_ = false;
    double buildSeconds_ = 0;
};

}  // namespace pz
