// pz/blocks/tiles_pdb.hpp — the additive disjoint pattern databases of the
// n-puzzle (included by pz/blocks/tiles.hpp; note [tiles traits contract]).
//
// note [tiles pattern databases]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// One entry per placement of a pattern's k tiles on the N cells, indexed by
// the partial-permutation rank of their cells (Board::rankCells: mixed radix
// N, N-1, ..., N-k+1; N!/(N-k)! entries). The value is the least number of
// moves OF THE PATTERN'S TILES that bring them home, the other tiles being
// indistinguishable and their moves free (Korf & Felner's disjoint additive
// databases: the sum over disjoint patterns is admissible).
//
// Entries are 4 bits where they fit. The value is at least md, the Manhattan
// sum of the pattern's tiles at that placement, and value - md is even (each
// move of a pattern tile changes its Manhattan distance by 1, so both change
// parity together). A pattern's entry is (value - md) / 2, two entries a
// byte (entry i in the low nibble of byte i/2 when i is even, the high one
// when odd), when every one of its placements has (value - md) / 2 <= 15;
// else the pattern keeps one byte per entry holding the same (value - md) / 2
// (the table file says which, per pattern; not needed by the 15- and
// 24-puzzle partitions: the 7-8 patterns' largest entries are 7 and 9). The
// search keeps the Manhattan distance of ALL tiles incrementally (note
// [tiles search]): the Manhattan sums of the patterns' tiles plus that of the
// tiles in no pattern is that total, so h = Manhattan + 2 x the sum of the
// entries, bit for bit the byte tables' h. The 15-puzzle's 7-8 tables are
// 275 MiB (550 MiB a byte an entry), the 24-puzzle's 6-6-6-6 243 MiB. The
// lookup is a shift and a mask more than a byte's; the halved tables miss
// the caches and TLB less, so the search is no slower (bench/fifteen).
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
// time gets its entry from the level (the minimum over blank positions) and
// its Manhattan sum (carried with the child: the parent's +- 1), written
// straight into the packed table (an atomic OR of the nibble: neighbours
// share a byte). An entry over 15 stops nothing but marks the pattern: it
// is then built again a byte per entry, the layout of the later patterns
// moved. After a level, one pass turns 01 into 11 and 10 into 01. Threads
// share the scan in chunks; marks are atomic, so the table does not depend
// on the thread count. Build memory: the tables + the words (2 bytes a
// placement for at most 8 free cells, 4 for 16, 8 for 24) of the pattern
// being built.
//
// Cache: one table blob (pz/tables/table_blob.hpp, the format of note
// [table integrity]) at <dir>/<kTableKey>-<layout>.pzt, keyed "tiles2-" + a
// hash of the board, goal and patterns ("tiles1-" files held a byte per
// entry and are rebuilt, never read as these). The blob is a 64-byte
// directory (byte p: 4 or 8, the bits per entry of pattern p; the rest 0)
// and then each pattern's entries from a 64-byte boundary. A loaded file
// is copied into 2 MiB pages with every block's hash checked
// (readResident); a file that fails any check is reported on stderr and
// rebuilt, never used.
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
    static constexpr uint64_t kDirectoryBytes = 64;  // byte p: bits per entry of pattern p
    static_assert(P <= static_cast<int>(kDirectoryBytes));

    // Pattern p's entries: (value - Manhattan sum of its tiles) / 2, 4 or 8
    // bits each (note [tiles pattern databases]).
    const uint8_t* table(int p) const { return data_ + offset_[p]; }
    int bitsPerEntry(int p) const { return bits_[p]; }
    // The whole blob (directory + entries), bytes() long.
    const uint8_t* data() const { return data_; }
    uint64_t bytes() const { return bytes_; }
    bool loadedFromCache() const { return loaded_; }
    double buildSeconds() const { return buildSeconds_; }
    double loadSeconds() const { return loadSeconds_; }

    // Entry `index` of pattern p as stored: (value - Manhattan) / 2.
    unsigned halfExcess(int p, uint64_t index) const {
        const uint8_t* t = table(p);
        return bits_[p] == 8 ? t[index] : (t[index >> 1] >> ((index & 1) * 4)) & 15u;
    }
    // The database value of placement `index` of pattern p (the moves of its tiles).
    unsigned value(int p, uint64_t index) const {
        uint8_t cells[kMaxTileCells];
        B::unrankCells(index, B::patterns[p].size, cells);
        return manhattanOf(p, cells) + 2 * halfExcess(p, index);
    }
    // Entries per value of pattern p (after a build or a load).
    std::vector<uint64_t> depthCounts(int p) const {
        std::vector<uint64_t> counts;
        forEachPlacement(p, [&](uint64_t index, unsigned md) {
            const unsigned v = md + 2 * halfExcess(p, index);
            if (v >= counts.size()) counts.resize(v + 1u);
            ++counts[v];
        });
        return counts;
    }

    // Bytes of pattern p's entries at `bits` per entry (from a 64-byte boundary).
    static uint64_t patternBytes(int p, int bits) {
        const uint64_t e = B::patterns[p].entries;
        return ((bits == 4 ? (e + 1) / 2 : e) + 63) / 64 * 64;
    }
    // The tables when every pattern's entries fit 4 bits (the budget's figure).
    static uint64_t packedBytes() {
        uint64_t b = kDirectoryBytes;
        for (int p = 0; p < P; ++p) b += patternBytes(p, 4);
        return b;
    }
    // Bytes of the 2-bit word per placement while pattern p is built.
    static uint64_t wordBytes(int p) {
        const int freeCells = B::N - B::patterns[p].size;
        return freeCells <= 8 ? 2 : freeCells <= 16 ? 4 : 8;
    }
    // The most memory a build holds besides the tables: one pattern's words.
    static uint64_t buildWorkBytes() {
        uint64_t most = 0;
        for (int p = 0; p < P; ++p) most = std::max(most, B::patterns[p].entries * wordBytes(p));
        return most;
    }

    // A hash of what the entries encode: board, goal, patterns.
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
    // The file name is the byte tables' (a stale file is replaced, not left
    // beside); the key inside says the format.
    static std::string fileName() { return std::string(T::kTableKey) + "-" + layoutHash() + ".pzt"; }
    static std::string blobKey() { return "tiles2-" + layoutHash(); }

    // Tests: entries above `most` (at most 15) count as not fitting 4 bits,
    // so the byte fallback can be exercised on small boards.
    void setNibbleLimit(unsigned most) { nibbleLimit_ = std::min(most, 15u); }

    // Loads the tables from `dir` (verified), else builds and caches them
    // there; "" = build in memory only. Throws MemoryBudgetError before
    // allocating or mapping anything that does not fit memoryBudget().
    void loadOrBuild(const std::string& dir, int threads = 0) {
        if constexpr (P == 0) return;
        checkBudget(dir.empty(), packedBytes());
        if (dir.empty()) return build(threads);
        const std::string path = (std::filesystem::path(dir) / fileName()).string();
        MappedFile mapping;
        const double t0 = pdb_detail::now();
        loaded_ = loadOrBuildBlob(
            path, blobKey(), std::string("tiles tables of ") + T::kName, mapping,
            [&](const uint64_t* words, uint64_t count, std::string& why) {
                const auto* dir8 = reinterpret_cast<const uint8_t*>(words);
                int bits[P > 0 ? P : 1];
                if (count * 8 < kDirectoryBytes) return (why = "wrong size", false);
                for (uint64_t i = 0; i < kDirectoryBytes; ++i) {
                    const int b = dir8[i];
                    if (static_cast<int>(i) < P ? (b != 4 && b != 8) : b != 0) return (why = "bad directory", false);
                    if (static_cast<int>(i) < P) bits[i] = b;
                }
                if (count * 8 != layOut(bits)) return (why = "wrong size", false);
                HugeBuffer copy;
                if (!readResident(residentSourceOf(mapping, count * 8), copy, why)) return false;
                buffer_ = std::move(copy);
                data_ = reinterpret_cast<const uint8_t*>(buffer_.data);
                return true;
            },
            [&] {
                build(threads);
                return std::pair<const uint64_t*, uint64_t>(buffer_.data, bytes_);
            });
        if (loaded_) loadSeconds_ = pdb_detail::now() - t0;
    }

    void build(int threads = 0) {
        if constexpr (P == 0) return;
        if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        checkBudget(true, packedBytes());
        const double t0 = pdb_detail::now();
        int bits[P > 0 ? P : 1];
        for (int p = 0; p < P; ++p) bits[p] = 4;
        layOut(bits);
        buffer_ = HugeBuffer(bytes_);
        std::memset(buffer_.data, 0, buffer_.bytes);
        auto* out = reinterpret_cast<uint8_t*>(buffer_.data);
        for (int p = 0; p < P; ++p) {
            if (buildPatternInto(p, out + offset_[p], 4, threads, t0)) continue;
            // An entry over the nibble limit: this pattern a byte per entry,
            // the later ones moved (the earlier ones copied as they are).
            if (!progressSink())
                std::fprintf(stderr, "pz: tiles table %s pattern %d/%d: an entry does not fit 4 bits; building it a byte per entry\n",
                             T::kName, p + 1, P);
            const uint64_t oldBytes = bytes_, doneBytes = offset_[p];
            bits[p] = 8;
            layOut(bits);
            checkBudget(false, oldBytes + bytes_);  // both while copying
            checkBudget(true, bytes_);               // the wider tables + the words
            {
                HugeBuffer wider(bytes_);
                std::memset(wider.data, 0, wider.bytes);
                std::memcpy(wider.data, buffer_.data, doneBytes);
                std::swap(buffer_, wider);
            }  // the narrower tables freed before the words are allocated
            out = reinterpret_cast<uint8_t*>(buffer_.data);
            buildPatternInto(p, out + offset_[p], 8, threads, t0);
        }
        for (int p = 0; p < P; ++p) out[p] = static_cast<uint8_t>(bits[p]);
        data_ = out;
        buildSeconds_ = pdb_detail::now() - t0;
        if (const ProgressSink* sink = progressSink()) {
            if (sink->report) {
                BuildProgress done;
                done.table = std::string("tiles tables of ") + T::kName;
                done.fraction = 1.0, done.elapsed = buildSeconds_, done.tableDone = true;
                sink->report(done);
            }
        } else if (buildSeconds_ >= 1.0) {
            std::fprintf(stderr, "pz: tiles tables of %s: %s (%s) built in %.1f s on %d threads\n", T::kName,
                         formatBytes(bytes_).c_str(), formatDescription().c_str(), buildSeconds_, threads);
        }
    }

    // "4-bit entries over Manhattan" or which patterns keep bytes.
    std::string formatDescription() const {
        int wide = 0;
        for (int p = 0; p < P; ++p) wide += bits_[p] == 8;
        if (wide == 0) return "4-bit differences over Manhattan";
        std::string s = "4-bit differences over Manhattan, a byte each for pattern";
        for (int p = 0; p < P; ++p)
            if (bits_[p] == 8) s += " " + std::to_string(p + 1);
        return s;
    }

    // The one-byte database of pattern p (its values, not differences), as
    // the builder makes it: the reference the tests compare the entries with.
    static std::vector<uint8_t> byteTable(int p, int threads = 1) {
        TileTables t;
        std::vector<uint8_t> out(B::patterns[p].entries);
        t.buildPatternInto(p, out.data(), 0, threads, pdb_detail::now());
        return out;
    }

    // Calls f(index, Manhattan sum of the pattern's tiles) for every
    // placement of pattern p, in rank order.
    template <class F>
    static void forEachPlacement(int p, F&& f) {
        const auto& pat = B::patterns[p];
        const int k = pat.size;
        auto rec = [&](auto&& self, int j, uint32_t used, unsigned md, uint64_t index) -> void {
            if (j == k) return f(index, md);
            uint32_t freeCells = B::kFull & ~used;
            for (uint64_t digit = 0; freeCells; ++digit, freeCells &= freeCells - 1) {
                const int c = std::countr_zero(freeCells);
                self(self, j + 1, used | (1u << c), md + T::kManhattan[pat.tiles[j]][c],
                     index * static_cast<uint64_t>(B::N - j) + digit);
            }
        };
        rec(rec, 0, 0, 0, 0);
    }

private:
    static unsigned manhattanOf(int p, const uint8_t* cells) {
        unsigned md = 0;
        for (int j = 0; j < B::patterns[p].size; ++j) md += T::kManhattan[B::patterns[p].tiles[j]][cells[j]];
        return md;
    }

    // Sets bits_, offset_ and bytes_ for these bits per entry; the bytes.
    uint64_t layOut(const int* bits) {
        uint64_t at = kDirectoryBytes;
        for (int p = 0; p < P; ++p) {
            bits_[p] = bits[p];
            offset_[p] = at;
            at += patternBytes(p, bits[p]);
        }
        return bytes_ = at;
    }

    void checkBudget(bool building, uint64_t tables) const {
        const uint64_t need = tables + (building ? buildWorkBytes() : 0);
        if (need > memoryBudget()) {
            std::string what = building ? "building the tiles tables of " + std::string(T::kName) + " needs "
                                        : "the tiles tables of " + std::string(T::kName) + " need ";
            throw MemoryBudgetError(what + formatBytes(need) +
                                    (building ? " (" + formatBytes(tables) + " of tables + " +
                                                    formatBytes(buildWorkBytes()) + " of build work)"
                                              : std::string()) +
                                    ", more than the memory budget of " + formatBytes(memoryBudget()) +
                                    " (--memory)");
        }
    }

    // Builds pattern p into `out`: bits 4 or 8 = (value - Manhattan) / 2 a
    // nibble or a byte per entry, 0 = the value a byte per entry. False when
    // bits is 4 and an entry is over the nibble limit.
    bool buildPatternInto(int p, uint8_t* out, int bits, int threads, double t0) {
        const uint64_t w = wordBytes(p);
        if (w == 2) return buildPattern<uint16_t>(p, out, bits, threads, t0);
        if (w == 4) return buildPattern<uint32_t>(p, out, bits, threads, t0);
        return buildPattern<uint64_t>(p, out, bits, threads, t0);
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
    bool buildPattern(int p, uint8_t* out, int bits, int threads, double t0) {
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
                                 withCommas(entries) + " entries" +
                                 (bits ? std::string(", ") + (bits == 4 ? "4-bit: " : "a byte each: ") +
                                             formatBytes(patternBytes(p, bits))
                                       : std::string()) +
                                 ")";
        // The entry of a placement first reached at `depth` whose tiles'
        // Manhattan sum is md (note [tiles pattern databases]).
        const unsigned limit = bits == 4 ? nibbleLimit_ : 255;
        const int shift = bits == 4 ? 1 : 0;
        std::atomic<bool> over{false}, odd{false};
        auto put = [&](uint64_t index, unsigned depth, unsigned md) {
            if (bits == 0) return pz::AtomicRef<uint8_t>(out[index]).store(static_cast<uint8_t>(depth), std::memory_order_relaxed);
            auto flag = [](std::atomic<bool>& f) {
                if (!f.load(std::memory_order_relaxed)) f.store(true, std::memory_order_relaxed);
            };
            if (depth < md || ((depth - md) & 1)) return flag(odd);
            const unsigned v = (depth - md) >> 1;
            if (v > limit) return flag(over);
            if (bits == 8) return pz::AtomicRef<uint8_t>(out[index]).store(static_cast<uint8_t>(v), std::memory_order_relaxed);
            if (v)
                pz::AtomicRef<uint8_t>(out[index >> 1])
                    .fetch_or(static_cast<uint8_t>(v << ((index & 1) * 4)), std::memory_order_relaxed);
        };
        // The goal: its placement, the blank's component.
        uint8_t a[kMaxTileCells];
        uint32_t occ = 0;
        for (int j = 0; j < k; ++j) a[j] = B::goalCell[pat.tiles[j]], occ |= 1u << a[j];
        const uint32_t free0 = B::kFull & ~occ;
        const uint64_t i0 = B::rankCells(a, k);
        words[i0] = static_cast<Word>(pdep(pext(flood(1u << B::kBlankGoal, free0), free0), kLow));
        put(i0, 0, 0);
        uint64_t reached = 1;
        double lastPrint = now();
        std::mutex printLock;
        const bool tty = ::isatty(2);
        // A library's progress sink (pz/tables/prune.hpp), installed in this
        // thread: reports go there instead of stderr, and a cancel stops the
        // build at the end of a level (BuildCancelled, nothing cached).
        const ProgressSink* sink = progressSink();
        auto report = [&](unsigned depth, double fraction, uint64_t levelEntries, bool levelDone) {
            BuildProgress r;
            r.table = what.substr(4);  // without "pz: "
            r.depth = static_cast<int>(depth);
            r.fraction = fraction, r.elapsed = now() - t0, r.entries = levelEntries, r.levelDone = levelDone;
            sink->report(r);
        };
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
                    uint8_t blank, md;
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
                                put(c.index, d + 1, c.md);
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
                        const unsigned md = manhattanOf(p, cells);
                        for (int j = 0; j < k; ++j) {
                            const uint8_t from = cells[j];
                            const auto& manhattan = T::kManhattan[pat.tiles[j]];
                            for (int dir = 0; dir < 4; ++dir) {
                                const int q = T::kNeighbours[from][dir];
                                if (q < 0 || !((blankCells >> q) & 1)) continue;
                                cells[j] = static_cast<uint8_t>(q);
                                Child& c = ring[head++ % kRing];
                                c.index = B::rankCells(cells, k);
                                cells[j] = from;
                                c.freeCells = freeCells ^ (1u << q) ^ (1u << from);
                                c.blank = from;
                                c.md = static_cast<uint8_t>(md - manhattan[from] + manhattan[q]);
                                pz::prefetchForWrite(words + c.index);
                                pz::prefetchForWrite(out + (c.index >> shift));
                                if (head - tail > kLag) mark(ring[tail++ % kRing]);
                            }
                        }
                    }
                    if (reporter && sink) {
                        const double t = now();
                        if (sink->report && t - lastPrint >= 0.1) {
                            std::lock_guard<std::mutex> hold(printLock);
                            lastPrint = t;
                            report(d + 1, double(end) / double(entries), 0, false);
                        }
                    } else if (reporter) {
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
            if (sink) {
                if (sink->report) report(d + 1, 1.0, found.load(), true);
                if (sink->cancelled && sink->cancelled->load(std::memory_order_relaxed)) throw BuildCancelled();
            } else if (t - t0 >= 1.0) {
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
        if (odd.load())
            throw std::runtime_error(std::string("tiles pattern database of ") + T::kName +
                                     ": a value below its Manhattan sum or of the other parity (internal error)");
        return !over.load();
    }

    HugeBuffer buffer_;
    const uint8_t* data_ = nullptr;
    uint64_t bytes_ = 0;
    uint64_t offset_[P > 0 ? P : 1] = {};
    int bits_[P > 0 ? P : 1] = {};
    unsigned nibbleLimit_ = 15;
    bool loaded_ = false;
    double buildSeconds_ = 0, loadSeconds_ = 0;
};

}  // namespace pz::blocks
