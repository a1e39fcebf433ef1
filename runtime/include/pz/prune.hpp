// pz/prune.hpp — pruning tables: exact distances of a coordinate, by BFS.
//
// Values are distances to solved: BFS from the solved coordinate along
// inverse moves (x -> x * m^-1).
//
// Storage: 4 bits per coordinate value, 16 entries per u64 word; 0xF means
// "not reached": unreachable if the BFS completed (complete()), else at
// least 15 (the BFS stops at depth 14); either way an admissible bound. The table is built by a level-synchronous BFS over the
// coordinate from the solved state, on all hardware threads: a level is
// expanded forwards (unrank each entry at depth d, apply every move, rank,
// claim unreached children with an atomic AND) while the frontier is small,
// and backwards (unrank each unreached entry, look for a neighbour at depth
// d) once fewer entries are unreached than are in the frontier.
//
// Cache: built tables are stored in <cache>/tables/<puzzle>-<pattern>-<hash>.pzt
// (<cache> = $PZC_CACHE_DIR, else $XDG_CACHE_HOME/pzc, else ~/.cache/pzc).
// The file carries a magic, a format version, the definition hash (the
// generated coordinate and move kernels), the depth distribution and a
// checksum of the data; it is written to a temporary name and renamed.
// A file that is truncated, corrupt or stale is reported on stderr and
// rebuilt, never trusted.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "pz/state.hpp"

namespace pz {

inline std::string cacheDirectory() {
    if (const char* d = std::getenv("PZC_CACHE_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/pzc";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/pzc";
    return "/tmp/pzc-cache";
}

// Memory for big tables: 2 MiB aligned so transparent huge pages can back it.
struct HugeBuffer {
    uint64_t* data = nullptr;
    size_t bytes = 0;
    HugeBuffer() = default;
    explicit HugeBuffer(size_t want) {
        constexpr size_t kHuge = size_t{2} << 20;
        bytes = (want + kHuge - 1) / kHuge * kHuge;
        data = static_cast<uint64_t*>(std::aligned_alloc(kHuge, bytes));
        if (!data) throw std::bad_alloc();
        ::madvise(data, bytes, MADV_HUGEPAGE);
    }
    HugeBuffer(HugeBuffer&& o) noexcept : data(o.data), bytes(o.bytes) { o.data = nullptr; }
    HugeBuffer& operator=(HugeBuffer&& o) noexcept {
        std::swap(data, o.data);
        std::swap(bytes, o.bytes);
        return *this;
    }
    ~HugeBuffer() { std::free(data); }
};

inline uint64_t checksumWords(const uint64_t* w, size_t n) {
    // Four independent multiply-xor lanes: fast and order-sensitive.
    uint64_t h[4] = {0x243F6A8885A308D3ULL, 0x13198A2E03707344ULL, 0xA4093822299F31D0ULL, 0x082EFA98EC4E6C89ULL};
    const size_t blocks = n / 4;
    for (size_t b = 0; b < blocks; ++b)
        for (size_t j = 0; j < 4; ++j) h[j] = (h[j] ^ w[4 * b + j]) * 0x9E3779B97F4A7C15ULL + (h[j] >> 29);
    for (size_t i = 4 * blocks; i < n; ++i) h[0] = (h[0] ^ w[i]) * 0x9E3779B97F4A7C15ULL + (h[0] >> 29);
    return h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7) ^ n;
}

struct TableFileHeader {
    char magic[8];
    uint32_t version;
    uint32_t bitsPerEntry;
    uint64_t entries;
    char definitionHash[32];
    uint64_t depthCount[16];
    uint64_t checksum;
};
inline constexpr char kTableMagic[8] = {'P', 'Z', 'P', 'R', 'U', 'N', 'E', '\n'};
inline constexpr uint32_t kTableVersion = 1;

// Progress on stderr for builds that take over a second: one line per BFS
// level, and on a terminal a redrawn bar with the level's ETA in between
// (CI logs get only the level lines).
class Progress {
public:
    explicit Progress(std::string what) : what_(std::move(what)), start_(now()), levelStart_(start_), tty_(::isatty(2)) {}
    double elapsed() const { return now() - start_; }
    void beginLevel() { levelStart_ = now(); }
    // `fraction` of the current level's pass is done; the ETA is for the level.
    void update(int depth, double fraction) {
        double t = now();
        if (t - start_ < 1.0 || !tty_ || t - lastDraw_ < 0.2) return;
        lastDraw_ = t;
        double spent = t - levelStart_;
        double eta = fraction > 0.01 ? spent / fraction - spent : 0;
        int filled = static_cast<int>(fraction * 30);
        std::fprintf(stderr, "\r%s: depth %2d [%.*s%*s] %5.1f%%  elapsed %5.1fs  level ETA %5.1fs ", what_.c_str(), depth,
                     filled, "##############################", 30 - filled, "", fraction * 100, t - start_, eta);
        std::fflush(stderr);
        drawn_ = true;
    }
    void level(int depth, uint64_t count) {
        if (elapsed() < 1.0) return;
        if (drawn_) std::fprintf(stderr, "\r\033[K");
        std::fprintf(stderr, "%s: depth %d: %llu entries (%.1fs)\n", what_.c_str(), depth,
                     static_cast<unsigned long long>(count), elapsed());
    }
    void done() {
        if (elapsed() >= 1.0) std::fprintf(stderr, "%s: built in %.1fs\n", what_.c_str(), elapsed());
    }

private:
    static double now() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    std::string what_;
    double start_, levelStart_, lastDraw_ = 0;
    bool tty_, drawn_ = false;
};

// T: puzzle traits; P: one pattern of T (rank/unrank/kSize/kName/kHash).
template <class T, class P>
class PruneTable {
public:
    using State = typename T::State;
    using Pattern = P;
    static constexpr unsigned kUnreached = 0xF;

    uint64_t entries() const { return P::kSize; }
    size_t bytes() const { return words() * 8; }
    const std::array<uint64_t, 16>& depthCount() const { return depthCount_; }
    double buildSeconds() const { return buildSeconds_; }
    // Whether the BFS ran to the end, so that 0xF means "no move sequence
    // reaches solved". Otherwise it stopped at depth 14 (4-bit entries) and
    // 0xF only means "at least 15" (inverse-free move sets reach such depths).
    bool complete() const {
        uint64_t total = 0;
        for (auto c : depthCount_) total += c;
        return total == P::kSize || depthCount_[kUnreached - 1] == 0;
    }
    bool loadedFromCache() const { return loaded_; }

    inline unsigned get(uint64_t i) const { return (buffer_.data[i >> 4] >> ((i & 15) * 4)) & 0xF; }
    inline void prefetch(uint64_t i) const { __builtin_prefetch(&buffer_.data[i >> 4]); }

    static std::string fileName() {
        return std::string(T::kName) + "-" + P::kName + "-" + P::kHash + ".pzt";
    }

    // Loads the cached table from `dir` or builds (and caches) it.
    void loadOrBuild(const std::string& dir, int threads = 0) {
        namespace fs = std::filesystem;
        fs::path path = fs::path(dir) / fileName();
        std::string why;
        if (fs::exists(path)) {
            if (load(path.string(), why)) {
                loaded_ = true;
                return;
            }
            std::fprintf(stderr, "pz: pruning table %s is unusable (%s); rebuilding\n", path.c_str(), why.c_str());
        }
        build(threads);
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (!save(path.string(), why))
            std::fprintf(stderr, "pz: warning: cannot cache pruning table %s: %s\n", path.c_str(), why.c_str());
    }

    void build(int threads = 0) {
        if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
        buffer_ = HugeBuffer(bytes());
        std::memset(buffer_.data, 0xFF, buffer_.bytes);
        depthCount_.fill(0);
        Progress progress(std::string("pz: building pruning table ") + T::kName + "/" + P::kName);
        uint64_t start = P::rank(T::solved());
        set(start, 0);
        depthCount_[0] = 1;
        uint64_t reached = 1;
        for (unsigned d = 0; d + 1 < kUnreached; ++d) {
            uint64_t frontier = depthCount_[d];
            if (frontier == 0 || reached == P::kSize) break;
            // Backward steps read "a neighbour at depth d is a parent", which
            // needs a move set closed under inverses.
            bool backward = T::kInverseLookups && P::kSize - reached < frontier;
            std::atomic<uint64_t> next{0}, found{0};
            progress.beginLevel();
            constexpr uint64_t kChunk = 1 << 16;
            auto worker = [&] {
                uint64_t local = 0;
                for (;;) {
                    uint64_t begin = next.fetch_add(kChunk);
                    if (begin >= P::kSize) break;
                    uint64_t end = std::min<uint64_t>(P::kSize, begin + kChunk);
                    local += backward ? expandBackward(begin, end, d) : expandForward(begin, end, d);
                    if (threads == 1 || begin % (kChunk * 64) == 0)
                        progress.update(static_cast<int>(d + 1), double(begin) / double(P::kSize));
                }
                found += local;
            };
            std::vector<std::thread> pool;
            for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
            worker();
            for (auto& t : pool) t.join();
            depthCount_[d + 1] = found;
            reached += found;
            progress.level(static_cast<int>(d + 1), found);
        }
        progress.done();
        buildSeconds_ = progress.elapsed();
    }

    bool save(const std::string& path, std::string& why) const {
        TableFileHeader h{};
        std::memcpy(h.magic, kTableMagic, 8);
        h.version = kTableVersion;
        h.bitsPerEntry = 4;
        h.entries = P::kSize;
        std::strncpy(h.definitionHash, P::kHash, sizeof h.definitionHash - 1);
        for (int i = 0; i < 16; ++i) h.depthCount[i] = depthCount_[i];
        h.checksum = checksumWords(buffer_.data, words());
        std::string tmp = path + ".tmp." + std::to_string(::getpid());
        {
            std::ofstream out(tmp, std::ios::binary);
            out.write(reinterpret_cast<const char*>(&h), sizeof h);
            out.write(reinterpret_cast<const char*>(buffer_.data), static_cast<std::streamsize>(bytes()));
            if (!out) {
                why = "write failed";
                std::filesystem::remove(tmp);
                return false;
            }
        }
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) {
            why = ec.message();
            std::filesystem::remove(tmp, ec);
            return false;
        }
        return true;
    }

    bool load(const std::string& path, std::string& why) {
        std::ifstream in(path, std::ios::binary);
        TableFileHeader h{};
        std::error_code ec;
        auto size = std::filesystem::file_size(path, ec);
        if (ec || size < sizeof h) return (why = "truncated header", false);
        in.read(reinterpret_cast<char*>(&h), sizeof h);
        if (!in || std::memcmp(h.magic, kTableMagic, 8) != 0) return (why = "not a pzc table file", false);
        if (h.version != kTableVersion) return (why = "format version " + std::to_string(h.version), false);
        if (h.bitsPerEntry != 4 || h.entries != P::kSize) return (why = "wrong size", false);
        if (std::string(h.definitionHash, strnlen(h.definitionHash, sizeof h.definitionHash)) != P::kHash)
            return (why = "stale: built for another definition", false);
        if (size != sizeof h + bytes()) return (why = "truncated data", false);
        HugeBuffer b(bytes());
        in.read(reinterpret_cast<char*>(b.data), static_cast<std::streamsize>(bytes()));
        if (!in) return (why = "read error", false);
        if (checksumWords(b.data, words()) != h.checksum) return (why = "checksum mismatch", false);
        uint64_t total = 0;
        for (int i = 0; i < 16; ++i) total += h.depthCount[i];
        if (total + 0 > P::kSize || h.depthCount[0] != 1) return (why = "inconsistent depth counts", false);
        buffer_ = std::move(b);
        for (int i = 0; i < 16; ++i) depthCount_[i] = h.depthCount[i];
        return true;
    }

private:
    size_t words() const { return (P::kSize + 15) / 16; }
    std::atomic_ref<uint64_t> word(uint64_t i) const { return std::atomic_ref<uint64_t>(buffer_.data[i >> 4]); }
    unsigned getAtomic(uint64_t i) const {
        return (word(i).load(std::memory_order_relaxed) >> ((i & 15) * 4)) & 0xF;
    }
    // Lowers an unreached (0xF) entry to d; returns whether this call did it.
    bool claim(uint64_t i, unsigned d) const {
        unsigned shift = (i & 15) * 4;
        uint64_t clear = ~(static_cast<uint64_t>(0xF ^ d) << shift);
        uint64_t before = word(i).fetch_and(clear, std::memory_order_relaxed);
        return ((before >> shift) & 0xF) == kUnreached;
    }
    void set(uint64_t i, unsigned d) { claim(i, d); }

    // Children are ranked and their table words prefetched before any is
    // read: the table is far larger than the caches, so each read is a miss.
    // Bit 3 of every nibble of `word` that equals v (exact, no borrow between lanes).
    static inline uint64_t nibblesEqual(uint64_t word, unsigned v) {
        constexpr uint64_t kLow3 = 0x7777777777777777ULL;
        uint64_t t = word ^ nibbleBroadcast(v);
        return ~(((t & kLow3) + kLow3) | t | kLow3);
    }
    // Calls f(i) for each entry in [begin, end) whose value is v, a word at a time.
    template <class F>
    void forEachEqual(uint64_t begin, uint64_t end, unsigned v, F&& f) const {
        for (uint64_t w = begin >> 4; w < (end + 15) >> 4; ++w) {
            uint64_t hits = nibblesEqual(std::atomic_ref<uint64_t>(buffer_.data[w]).load(std::memory_order_relaxed), v);
            for (; hits; hits &= hits - 1) {
                uint64_t i = (w << 4) + (std::countr_zero(hits) >> 2);
                if (i >= begin && i < end) f(i);
            }
        }
    }

    uint64_t expandForward(uint64_t begin, uint64_t end, unsigned d) const {
        uint64_t found = 0;
        uint64_t child[T::kMoves];
        forEachEqual(begin, end, d, [&](uint64_t i) {
            State s = P::unrank(i);
            // The table holds distances *to* solved: x's BFS neighbours are
            // x * m^-1 (the same set as x * m when moves are closed under inverse).
            for (int m = 0; m < T::kMoves; ++m) {
                child[m] = P::rank(T::applyInverseMove(s, m));
                prefetch(child[m]);
            }
            for (int m = 0; m < T::kMoves; ++m)
                if (getAtomic(child[m]) == kUnreached && claim(child[m], d + 1)) ++found;
        });
        return found;
    }
    uint64_t expandBackward(uint64_t begin, uint64_t end, unsigned d) const {
        constexpr int kBatch = 4;  // backward levels have a large share of entries at depth d: hits come early
        uint64_t found = 0;
        uint64_t neighbour[T::kMoves];
        // Entries claimed during this pass hold d + 1, not 0xF: not revisited.
        forEachEqual(begin, end, kUnreached, [&](uint64_t i) {
            if (getAtomic(i) != kUnreached) return;
            State s = P::unrank(i);
            // Moves are closed under inverse, so a neighbour at depth d is a parent.
            bool hit = false;
            for (int first = 0; first < T::kMoves && !hit; first += kBatch) {
                int last = std::min(T::kMoves, first + kBatch);
                for (int m = first; m < last; ++m) {
                    neighbour[m] = P::rank(T::applyMove(s, m));
                    prefetch(neighbour[m]);
                }
                for (int m = first; m < last && !hit; ++m) hit = getAtomic(neighbour[m]) == d;
            }
            if (hit) {
                claim(i, d + 1);
                ++found;
            }
        });
        return found;
    }

    HugeBuffer buffer_;
    std::array<uint64_t, 16> depthCount_{};
    double buildSeconds_ = 0;
    bool loaded_ = false;
};

}  // namespace pz
