// pz/blocks/tiles_pdb.hpp — the additive disjoint pattern databases of the
// n-puzzle (included by pz/blocks/tiles.hpp; note [tiles traits contract]).
//
// note [tiles pattern databases]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// One byte per placement of a pattern's k tiles on the N cells, indexed by
// the partial-permutation rank of their cells (Board::rankCells: mixed radix
// N, N-1, ..., N-k+1; N!/(N-k)! entries). The entry is the least number of
// moves OF THE PATTERN'S TILES that bring them home, the other tiles being
// indistinguishable and their moves free (Korf & Felner's disjoint additive
// databases: the sum over disjoint patterns is admissible).
//
// Build: a breadth-first search over (placement, blank cell) in which a
// blank move into a non-pattern cell costs 0 and one that moves a pattern
// tile costs 1 — done as a BFS over (placement, blank COMPONENT): the
// connected region of free cells the blank can reach at no cost. Per
// placement a word holds 2 bits per free cell (in increasing cell order):
// 00 unseen, 01 the level being expanded, 10 the next level, 11 done; a
// component is always marked whole (flood fill on the grid's bitboard). A
// level scans every word for 01 lanes and expands those components: each
// pattern tile next to the component moves into it (cost 1), the child's
// component is the flood of the tile's old cell; children are ranked and
// their words prefetched before the compare-and-swap that marks them (the
// words are far bigger than the caches). A placement seen for the first
// time gets its byte = the level (the minimum over blank positions). After
// a level, one pass turns 01 into 11 and 10 into 01. Threads share the scan
// in chunks; marks are atomic, so the table does not depend on the thread
// count. Build memory: the byte table + the words (2 bytes a placement for
// at most 8 free cells, 4 for 16, 8 for 24) of the pattern being built.
//
// Cache: all patterns' bytes in one table blob (pz/tables/table_blob.hpp,
// the format of note [table integrity]) at <dir>/<kTableKey>-<layout>.pzt,
// keyed by a hash of the board, goal and patterns; a loaded file is copied
// into 2 MiB pages with every block's hash checked (readResident); a file
// that fails any check is reported on stderr and rebuilt, never used.
#pragma once

#include <sys/mman.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "pz/support/atomic_ref.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/prefetch.hpp"
#include "pz/tables/prune.hpp"
#include "pz/tables/table_blob.hpp"

namespace pz::blocks {

namespace pdb_detail {
inline uint64_t pext(uint64_t x, uint64_t m) {
#if defined(__BMI2__)
    return _pext_u64(x, m);
#else
    uint64_t r = 0;
    for (uint64_t bb = 1; m; bb <<= 1, m &= m - 1)
        if (x & m & (~m + 1)) r |= bb;
    return r;
#endif
}
inline uint64_t pdep(uint64_t x, uint64_t m) {
#if defined(__BMI2__)
    return _pdep_u64(x, m);
#else
    uint64_t r = 0;
    for (uint64_t bb = 1; m; bb <<= 1, m &= m - 1)
        if (x & bb) r |= m & (~m + 1);
    return r;
#endif
}
inline double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline std::string withCommas(uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
    return s;
}
}  // namespace pdb_detail

template <class T>
class TileTables {
public:
    using B = Board<T>;
    static constexpr int P = T::kPatterns;

    const uint8_t* table(int p) const { return data_ + B::patterns[p].offset; }
    uint64_t bytes() const { return B::tableBytes; }
    bool loadedFromCache() const { return loaded_; }
    double buildSeconds() const { return buildSeconds_; }
    double loadSeconds() const { return loadSeconds_; }
    // Entries per depth of pattern p (after a build or a load).
    std::vector<uint64_t> depthCounts(int p) const {
        std::vector<uint64_t> counts;
        const uint8_t* t = table(p);
        for (uint64_t i = 0; i < B::patterns[p].entries; ++i) {
            if (t[i] >= counts.size()) counts.resize(t[i] + 1u);
            ++counts[t[i]];
        }
        return counts;
    }

    // Bytes of the 2-bit word per placement while pattern p is built.
    static uint64_t wordBytes(int p) {
        const int freeCells = B::N - B::patterns[p].size;
        return freeCells <= 8 ? 2 : freeCells <= 16 ? 4 : 8;
    }
    // The most memory a build holds at once: every table + one pattern's words.
    static uint64_t buildWorkBytes() {
        uint64_t most = 0;
        for (int p = 0; p < P; ++p) most = std::max(most, B::patterns[p].entries * wordBytes(p));
        return most;
    }

    // A hash of what the bytes encode: board, goal, patterns, format.
    static std::string layoutHash() {
        uint64_t h = 0xcbf29ce484222325ULL;
        auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; };
        for (char ch : std::string("pz-tiles-pdb-v1")) mix(static_cast<unsigned char>(ch));
        mix(B::W), mix(B::H), mix(P);
        for (int c = 0; c < B::N; ++c) mix(T::kGoal[c]), mix(static_cast<uint64_t>(T::kPatternOf[c] + 1));
        char buf[24];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        return buf;
    }
    static std::string fileName() { return std::string(T::kTableKey) + "-" + layoutHash() + ".pzt"; }
    static std::string blobKey() { return "tiles1-" + layoutHash(); }

    // Loads the tables from `dir` (verified), else builds and caches them
    // there; "" = build in memory only. Throws MemoryBudgetError before
    // allocating or mapping anything that does not fit memoryBudget().
    void loadOrBuild(const std::string& dir, int threads = 0) {
        if constexpr (P == 0) return;
        checkBudget(dir.empty());
        if (dir.empty()) return build(threads);
        const std::string path = (std::filesystem::path(dir) / fileName()).string();
        MappedFile mapping;
        const double t0 = pdb_detail::now();
        loaded_ = loadOrBuildBlob(
            path, blobKey(), std::string("tiles tables of ") + T::kName, mapping,
            [&](const uint64_t*, uint64_t words, std::string& why) {
                if (words * 8 != B::tableBytes) return (why = "wrong size", false);
                HugeBuffer copy;
                if (!readResident(residentSourceOf(mapping, B::tableBytes), copy, why)) return false;
                buffer_ = std::move(copy);
                data_ = reinterpret_cast<const uint8_t*>(buffer_.data);
                return true;
            },
            [&] {
                build(threads);
                return std::pair<const uint64_t*, uint64_t>(buffer_.data, B::tableBytes);
            });
        if (loaded_) loadSeconds_ = pdb_detail::now() - t0;
    }

    void build(int threads = 0) {
        if constexpr (P == 0) return;
        if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        checkBudget(true);
        const double t0 = pdb_detail::now();
        buffer_ = HugeBuffer(B::tableBytes);
        std::memset(buffer_.data, 0xFF, buffer_.bytes);
        auto* out = reinterpret_cast<uint8_t*>(buffer_.data);
        for (int p = 0; p < P; ++p) {
            const uint64_t w = wordBytes(p);
            if (w == 2) buildPattern<uint16_t>(p, out + B::patterns[p].offset, threads, t0);
            else if (w == 4) buildPattern<uint32_t>(p, out + B::patterns[p].offset, threads, t0);
            else buildPattern<uint64_t>(p, out + B::patterns[p].offset, threads, t0);
        }
        data_ = out;
        buildSeconds_ = pdb_detail::now() - t0;
        if (buildSeconds_ >= 1.0)
            std::fprintf(stderr, "pz: tiles tables of %s: %s built in %.1f s on %d threads\n", T::kName,
                         formatBytes(B::tableBytes).c_str(), buildSeconds_, threads);
    }

private:
    void checkBudget(bool building) const {
        const uint64_t need = B::tableBytes + (building ? buildWorkBytes() : 0);
        if (need > memoryBudget()) {
            std::string what = building ? "building the tiles tables of " + std::string(T::kName) + " needs "
                                        : "the tiles tables of " + std::string(T::kName) + " need ";
            throw MemoryBudgetError(what + formatBytes(need) +
                                    (building ? " (" + formatBytes(B::tableBytes) + " of tables + " +
                                                    formatBytes(buildWorkBytes()) + " of build work)"
                                              : std::string()) +
                                    ", more than the memory budget of " + formatBytes(memoryBudget()) +
                                    " (--memory)");
        }
    }

    // The cells a blank at `seed` reaches through `freeCells` (grid bitboards).
    static uint32_t flood(uint32_t seed, uint32_t freeCells) {
        constexpr uint32_t notFirstCol = [] {
            uint32_t m = 0;
            for (int c = 0; c < B::N; ++c)
                if (c % B::W != 0) m |= 1u << c;
            return m;
        }();
        constexpr uint32_t notLastCol = [] {
            uint32_t m = 0;
            for (int c = 0; c < B::N; ++c)
                if (c % B::W != B::W - 1) m |= 1u << c;
            return m;
        }();
        uint32_t m = seed, prev;
        do {
            prev = m;
            m |= ((m << B::W) | (m >> B::W) | ((m << 1) & notFirstCol) | ((m >> 1) & notLastCol)) & freeCells;
        } while (m != prev);
        return m;
    }

    template <class Word>
    void buildPattern(int p, uint8_t* out, int threads, double t0) {
        using namespace pdb_detail;
        const auto& pat = B::patterns[p];
        const int k = pat.size;
        const uint64_t entries = pat.entries;
        constexpr Word kLow = static_cast<Word>(0x5555555555555555ULL);
        HugeBuffer wordBuffer(entries * sizeof(Word));
        std::memset(wordBuffer.data, 0, wordBuffer.bytes);
        Word* words = reinterpret_cast<Word*>(wordBuffer.data);
        const std::string what = std::string("pz: building tiles table ") + T::kName + " pattern " +
                                 std::to_string(p + 1) + "/" + std::to_string(P) + " (" + std::to_string(k) + " tiles, " +
                                 withCommas(entries) + " entries)";
        // The goal: its placement, the blank's component.
        uint8_t a[kMaxTileCells];
        uint32_t occ = 0;
        for (int j = 0; j < k; ++j) a[j] = B::goalCell[pat.tiles[j]], occ |= 1u << a[j];
        const uint32_t free0 = B::kFull & ~occ;
        const uint64_t i0 = B::rankCells(a, k);
        words[i0] = static_cast<Word>(pdep(pext(flood(1u << B::kBlankGoal, free0), free0), kLow));
        out[i0] = 0;
        uint64_t reached = 1;
        double lastPrint = now();
        std::mutex printLock;
        const bool tty = ::isatty(2);
        constexpr uint64_t kChunk = uint64_t{1} << 14;  // placements; a multiple of the words in 8 bytes
        const uint64_t chunks = (entries + kChunk - 1) / kChunk;
        // Chunks holding 01 lanes (this level) and 10 lanes (marked by it):
        // the scan and the relabelling visit only those (the first and last
        // levels touch few).
        std::vector<uint8_t> active(chunks, 0), marked(chunks, 0);
        active[i0 / kChunk] = 1;
        for (unsigned d = 0;; ++d) {
            if (d >= 250) throw std::runtime_error("tiles pattern database deeper than 250");
            std::atomic<uint64_t> next{0}, found{0};
            auto expandWorker = [&](bool reporter) {
                uint64_t local = 0;
                // Children wait kLag places in a ring after their word's
                // prefetch: misses overlap across placements.
                struct Child {
                    uint64_t index;
                    uint32_t freeCells;
                    uint8_t blank;
                };
                constexpr unsigned kRing = 64, kLag = 40;
                Child ring[kRing];
                uint64_t head = 0, tail = 0;
                auto mark = [&](const Child& c) {
                    const uint32_t cf = c.freeCells;
                    const unsigned slot = static_cast<unsigned>(std::popcount(cf & ((1u << c.blank) - 1)));
                    const Word lane = static_cast<Word>(Word{3} << (2 * slot));
                    pz::AtomicRef<Word> ref(words[c.index]);
                    Word old = ref.load(std::memory_order_relaxed);
                    if (old & lane) return;
                    const Word bits = static_cast<Word>(pdep(pext(flood(1u << c.blank, cf), cf), kLow) << 1);
                    while (!(old & lane)) {
                        if (ref.compare_exchange_weak(old, static_cast<Word>(old | bits), std::memory_order_relaxed)) {
                            if (old == 0) {
                                pz::AtomicRef<uint8_t>(out[c.index]).store(static_cast<uint8_t>(d + 1), std::memory_order_relaxed);
                                ++local;
                            }
                            pz::AtomicRef<uint8_t>(marked[c.index / kChunk]).store(1, std::memory_order_relaxed);
                            return;
                        }
                    }
                };
                uint8_t cells[kMaxTileCells];
                // The mixed-radix digits of placement `at`, advanced as the
                // scan moves on (no division per placement).
                unsigned digits[kMaxTileCells];
                uint64_t at = 0;
                auto advanceTo = [&](uint64_t i) {
                    uint64_t carry = i - at;
                    for (int j = k - 1; j >= 0 && carry; --j) {
                        const uint64_t radix = static_cast<uint64_t>(B::N - j), v = digits[j] + carry;
                        if (v < radix) {
                            digits[j] = static_cast<unsigned>(v);
                            carry = 0;
                        } else {
                            digits[j] = static_cast<unsigned>(v % radix);
                            carry = v / radix;
                        }
                    }
                    at = i;
                };
                for (;;) {
                    const uint64_t chunk = next.fetch_add(1);
                    if (chunk >= chunks) break;
                    if (!active[chunk]) continue;
                    const uint64_t begin = chunk * kChunk, end = std::min(entries, begin + kChunk);
                    B::digitsOf(begin, k, digits);
                    at = begin;
                    for (uint64_t i = begin; i < end; ++i) {
                        // Skip 8 bytes of words with no 01 lane at once.
                        if constexpr (sizeof(Word) < 8) {
                            constexpr uint64_t per = 8 / sizeof(Word);
                            if (i % per == 0 && i + per <= end) {
                                const uint64_t v = pz::AtomicRef<uint64_t>(*reinterpret_cast<uint64_t*>(words + i))
                                                       .load(std::memory_order_relaxed);
                                if ((v & ~(v >> 1) & 0x5555555555555555ULL) == 0) {
                                    i += per - 1;
                                    continue;
                                }
                            }
                        }
                        const Word w = pz::AtomicRef<Word>(words[i]).load(std::memory_order_relaxed);
                        const Word cur = static_cast<Word>(w & ~(w >> 1) & kLow);
                        if (!cur) continue;
                        advanceTo(i);
                        uint32_t o = 0;
                        for (int j = 0; j < k; ++j) {
                            const unsigned c = B::selectFree(o, digits[j]);
                            cells[j] = static_cast<uint8_t>(c);
                            o |= 1u << c;
                        }
                        const uint32_t freeCells = B::kFull & ~o;
                        const uint32_t blankCells = static_cast<uint32_t>(pdep(pext(cur, kLow), freeCells));
                        for (int j = 0; j < k; ++j) {
                            const uint8_t from = cells[j];
                            for (int dir = 0; dir < 4; ++dir) {
                                const int q = T::kNeighbours[from][dir];
                                if (q < 0 || !((blankCells >> q) & 1)) continue;
                                cells[j] = static_cast<uint8_t>(q);
                                Child& c = ring[head++ % kRing];
                                c.index = B::rankCells(cells, k);
                                cells[j] = from;
                                c.freeCells = freeCells ^ (1u << q) ^ (1u << from);
                                c.blank = from;
                                pz::prefetchForWrite(words + c.index);
                                pz::prefetchForWrite(out + c.index);
                                if (head - tail > kLag) mark(ring[tail++ % kRing]);
                            }
                        }
                    }
                    if (reporter) {
                        const double t = now();
                        if (t - lastPrint >= (tty ? 0.5 : 10.0) && t - t0 >= 1.0) {
                            std::lock_guard<std::mutex> hold(printLock);
                            lastPrint = t;
                            const uint64_t done = reached + found.load() + local;
                            const double spent = t - t0;
                            std::fprintf(stderr, "%s%s: depth %u, %.1f%% of the level scanned; %s/%s placements reached (%.1f%%), %.1f s%s",
                                         tty ? "\r\033[K" : "", what.c_str(), d + 1, 100.0 * double(end) / double(entries),
                                         withCommas(done).c_str(), withCommas(entries).c_str(),
                                         100.0 * double(done) / double(entries), spent, tty ? "" : "\n");
                            std::fflush(stderr);
                        }
                    }
                }
                while (tail < head) mark(ring[tail++ % kRing]);
                found += local;
            };
            std::vector<std::thread> pool;
            for (int t = 1; t < threads; ++t) pool.emplace_back(expandWorker, false);
            expandWorker(true);
            for (auto& t : pool) t.join();
            reached += found.load();
            // 01 -> 11 (expanded), 10 -> 01 (the next level), in the chunks
            // that hold either.
            std::atomic<uint64_t> nextChunk{0};
            bool more = false;
            for (uint64_t c = 0; c < chunks && !more; ++c) more = marked[c] != 0;
            auto relabel = [&] {
                for (;;) {
                    const uint64_t chunk = nextChunk.fetch_add(1);
                    if (chunk >= chunks) break;
                    if (!active[chunk] && !marked[chunk]) continue;
                    const uint64_t begin = chunk * kChunk, end = std::min(entries, begin + kChunk);
                    for (uint64_t i = begin; i < end; ++i) {
                        const Word w = words[i];
                        const Word lo = w & kLow, hi = (w >> 1) & kLow;
                        const Word c01 = lo & ~hi, c10 = hi & ~lo;
                        if (!(c01 | c10)) continue;
                        words[i] = static_cast<Word>(((w | (c01 << 1)) & ~(c10 << 1)) | c10);
                    }
                    active[chunk] = marked[chunk];
                    marked[chunk] = 0;
                }
            };
            pool.clear();
            for (int t = 1; t < threads; ++t) pool.emplace_back(relabel);
            relabel();
            for (auto& t : pool) t.join();
            const double t = now();
            if (t - t0 >= 1.0) {
                const double spent = t - t0;
                const double eta = reached < entries ? spent * double(entries - reached) / double(reached) : 0;
                std::fprintf(stderr, "%s%s: depth %u: %s new, %s/%s reached (%.1f%%), %.1f s, ETA %.0f s\n",
                             tty ? "\r\033[K" : "", what.c_str(), d + 1, withCommas(found.load()).c_str(),
                             withCommas(reached).c_str(), withCommas(entries).c_str(),
                             100.0 * double(reached) / double(entries), spent, eta);
                lastPrint = t;
            }
            if (!more) break;
        }
        if (reached != entries)
            throw std::runtime_error(std::string("tiles pattern database of ") + T::kName + ": " +
                                     std::to_string(reached) + " of " + std::to_string(entries) +
                                     " placements reached (internal error)");
    }

    HugeBuffer buffer_;
    const uint8_t* data_ = nullptr;
    bool loaded_ = false;
    double buildSeconds_ = 0, loadSeconds_ = 0;
};

}  // namespace pz::blocks
