// pz/tables/prune.hpp — pruning tables: exact distances of a coordinate, by BFS.
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
// (<cache> = $PZC_CACHE_DIR, else $XDG_CACHE_HOME/pzc, else ~/.cache/pzc) and
// mapped read-only when loaded (never copied: a one-shot solve reads only the
// pages its search touches; concurrent solvers share the page cache, in
// 2 MiB pages where it can: note [huge page cache] in
// pz/tables/mapped_file.hpp). The
// file is a 4 KiB header page (magic, format version, definition hash, size,
// depth distribution, layout, a checksum of the header page), the data, and
// one hash per 64 KiB block of data. See note [table integrity] for what is
// checked when. A file is written to an unnamed temporary file (O_TMPFILE)
// that is verified, then linked under a temporary name and renamed; temporary
// files of dead writers are removed by the next load or save.
//
// Note [table integrity]
// ~~~~~~~~~~~~~~~~~~~~~~
// A table that lies makes the search lie: an entry too high gives a
// non-optimal answer labelled optimal, an entry reading 0xF calls a reachable
// state unreachable. So no table is trusted without checks, but a full hash of
// a 247 MiB table costs ten times a typical search, so the work is split:
//   * After writing (once per build): the whole file is read back and every
//     block hash recomputed before the file gets its name (catches a short or
//     bad write; fsync comes first so the name never points at lost data).
//   * Every load: the header page in full (magic, version, definition hash,
//     entry count, layout, depth counts consistent, and a checksum over the
//     whole page), the exact file size (truncation, appended bytes), the
//     checksum of the block-hash array, and the hashes of up to kSampleBlocks
//     data blocks: the first, the last, evenly spread ones, and a random
//     choice that differs from load to load. Tables of at most kSampleBlocks
//     blocks (2 MiB) are thus checked in full on every load.
//   * `--verify-tables` (setTableVerification(Full)): every block, every load.
// Not detected on a given load: damage confined to data blocks that this load
// did not sample (a flipped bit in the 247 MiB, 3,959-block slide4 table is
// caught by one load with probability 16/3959, about 1/250, by some load of
// 300 with probability ~70%), and by no load of a process that made the table
// resident (note [table residency]), since that copy checks every block.
// That is acceptable because such damage can only come from the disk or from
// someone editing the cache after the verified write: every way the writer
// itself can fail (killed, full disk, crash before the data reached the disk)
// leaves either no file or one the header, size or sampled checks reject, and
// solutions are still replayed, so a damaged table can cost optimality, never
// correctness of the moves. Use --verify-tables when in doubt.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pz/state.hpp"
#include "pz/support/atomic_ref.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/prefetch.hpp"
#include "pz/support/startup_tables.hpp"
#include "pz/tables/mapped_file.hpp"

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

inline uint64_t checksumWords(const uint64_t* w, size_t n, uint64_t seed = 0) {
    // Four independent multiply-xor lanes: fast and order-sensitive.
    uint64_t h[4] = {0x243F6A8885A308D3ULL ^ seed, 0x13198A2E03707344ULL, 0xA4093822299F31D0ULL, 0x082EFA98EC4E6C89ULL};
    const size_t blocks = n / 4;
    for (size_t b = 0; b < blocks; ++b)
        for (size_t j = 0; j < 4; ++j) h[j] = (h[j] ^ w[4 * b + j]) * 0x9E3779B97F4A7C15ULL + (h[j] >> 29);
    for (size_t i = 4 * blocks; i < n; ++i) h[0] = (h[0] ^ w[i]) * 0x9E3779B97F4A7C15ULL + (h[0] >> 29);
    return h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7) ^ n;
}

// The first page of a table file (the rest of the page is zero).
struct TableFileHeader {
    char magic[8];
    uint32_t version;
    uint32_t bitsPerEntry;
    uint64_t entries;
    char definitionHash[32];
    uint64_t depthCount[16];
    uint64_t dataOffset;        // kTablePage
    uint64_t dataBytes;
    uint64_t blockBytes;        // kTableBlockBytes
    uint64_t blocks;            // ceil(dataBytes / blockBytes)
    uint64_t hashesOffset;      // dataOffset + dataBytes: blocks u64 hashes follow
    uint64_t hashesChecksum;    // checksumWords of the block hashes
    uint64_t headerChecksum;    // checksumWords of the header page with this field 0
};
inline constexpr char kTableMagic[8] = {'P', 'Z', 'P', 'R', 'U', 'N', 'E', '\n'};
inline constexpr uint32_t kTableVersion = 2;
inline constexpr size_t kTablePage = 4096;
inline constexpr size_t kTableBlockBytes = size_t{64} << 10;
static_assert(sizeof(TableFileHeader) <= kTablePage);

// The header page of a table file: `entries` of `bitsPerEntry` bits in
// `dataBytes` bytes, keyed by `hash`, with its block hashes (and, for a
// pruning table, its depth counts).
inline std::vector<char> tableHeaderPage(uint32_t bitsPerEntry, uint64_t entries, const char* hash, uint64_t dataBytes,
                                         const std::vector<uint64_t>& hashes, const uint64_t* depthCount = nullptr) {
    TableFileHeader h{};
    std::memcpy(h.magic, kTableMagic, 8);
    h.version = kTableVersion;
    h.bitsPerEntry = bitsPerEntry;
    h.entries = entries;
    std::strncpy(h.definitionHash, hash, sizeof h.definitionHash - 1);
    if (depthCount)
        for (int i = 0; i < 16; ++i) h.depthCount[i] = depthCount[i];
    h.dataOffset = kTablePage;
    h.dataBytes = dataBytes;
    h.blockBytes = kTableBlockBytes;
    h.blocks = hashes.size();
    h.hashesOffset = kTablePage + dataBytes;
    h.hashesChecksum = checksumWords(hashes.data(), hashes.size());
    std::vector<char> page(kTablePage, 0);
    std::memcpy(page.data(), &h, sizeof h);
    h.headerChecksum = checksumWords(reinterpret_cast<const uint64_t*>(page.data()), kTablePage / 8);
    std::memcpy(page.data(), &h, sizeof h);
    return page;
}

// Block b's hash, of its blockBytes at `block`: seeded by b, so blocks that
// trade places do not match.
inline uint64_t tableBlockHashOf(const uint64_t* block, size_t blockBytes, uint64_t b) {
    return checksumWords(block, blockBytes / 8, (b + 1) * 0xD1B54A32D192ED03ULL);
}
// The same, of block b of the table data at `data` (dataBytes long).
inline uint64_t tableBlockHash(const uint64_t* data, size_t dataBytes, uint64_t b) {
    size_t begin = b * kTableBlockBytes, end = std::min(dataBytes, begin + kTableBlockBytes);
    return tableBlockHashOf(data + begin / 8, end - begin, b);
}

// How much of a table's data each load checks (note [table integrity]).
enum class TableVerification { Sampled, Full };
// Per thread, as memoryBudget() (pz/support/memory.hpp).
inline TableVerification& tableVerification() {
    thread_local TableVerification v = TableVerification::Sampled;
    return v;
}
inline constexpr uint64_t kSampleBlocks = 32;

// Reads all n bytes at offset (pread, retried on EINTR and short reads):
// 0, or the errno of the failure (EIO at an unexpected end of file).
inline int readAllAt(int fd, void* p, size_t n, uint64_t offset) {
    char* c = static_cast<char*>(p);
    while (n > 0) {
        ssize_t k = ::pread(fd, c, std::min<size_t>(n, size_t{1} << 30), static_cast<off_t>(offset));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return k < 0 ? errno : EIO;
        c += k, n -= static_cast<size_t>(k), offset += static_cast<uint64_t>(k);
    }
    return 0;
}

// What making a mapped table resident reads (note [table residency]): its
// file, the bytes of its data (at kTablePage) and their block hashes (in
// the mapping, after the data). fd < 0: the table is not mapped.
struct ResidentSource {
    int fd = -1;
    uint64_t bytes = 0;
    const uint64_t* hashes = nullptr;
};
// The source of a table file mapped in `mapping` whose data is `bytes`
// long (nothing when it is not mapped).
inline ResidentSource residentSourceOf(const MappedFile& mapping, uint64_t bytes) {
    if (!mapping.data) return {};
    return {mapping.fd, bytes, reinterpret_cast<const uint64_t*>(mapping.data + kTablePage + bytes)};
}
// How the copy runs: `threads` readers (0: the CPUs, at most 8; one below
// 64 MiB); `cancel`, when set, stops it between 1 MiB chunks (it then fails
// with "cancelled").
struct ResidentCopyOptions {
    unsigned threads = 0;
    const std::atomic<bool>* cancel = nullptr;
};

// note [table residency]: the table data of `src` read into 2 MiB pages
// with pread (no page-table entries for a mapping), each 64 KiB block's
// hash checked against src.hashes[block] right after it is read, while it
// is still in cache. Threads take 1 MiB at a time: the copy and the hashing
// of a 1.8 GiB table are a few seconds on one core. On a mismatch: false,
// naming the lowest bad block (a damaged table is reported, never used).
inline bool readResident(const ResidentSource& src, HugeBuffer& out, std::string& why, ResidentCopyOptions how = {}) {
    const int file = src.fd;
    const uint64_t offset = kTablePage, bytes = src.bytes;
    const uint64_t* hashes = src.hashes;
    HugeBuffer b(bytes);
    const uint64_t blocks = (bytes + kTableBlockBytes - 1) / kTableBlockBytes;
    constexpr uint64_t kChunkBlocks = 16;
    std::atomic<uint64_t> next{0}, badBlock{UINT64_MAX};
    std::atomic<int> readError{0};
    auto worker = [&] {
        for (;;) {
            const uint64_t first = next.fetch_add(kChunkBlocks);
            // Chunks go out in order, and every chunk up to the lowest bad
            // block is checked: the block named does not depend on timing.
            if (first >= blocks || first > badBlock.load() || readError.load() != 0) return;
            if (how.cancel && how.cancel->load(std::memory_order_relaxed)) return;
            const uint64_t last = std::min(blocks, first + kChunkBlocks);
            const size_t begin = first * kTableBlockBytes, len = std::min<size_t>(last * kTableBlockBytes, bytes) - begin;
            char* dst = reinterpret_cast<char*>(b.data) + begin;
            if (int e = readAllAt(file, dst, len, offset + begin)) {
                int expected = 0;
                readError.compare_exchange_strong(expected, e);
                return;
            }
            for (uint64_t blk = first; blk < last; ++blk)
                if (tableBlockHash(b.data, bytes, blk) != hashes[blk]) {
                    uint64_t seen = badBlock.load();
                    while (blk < seen && !badBlock.compare_exchange_weak(seen, blk)) {
                    }
                    return;
                }
        }
    };
    const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
    const unsigned threads = bytes < (uint64_t{64} << 20) ? 1u : std::min(how.threads > 0 ? how.threads : cpus, 8u);
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (how.cancel && how.cancel->load()) return (why = "cancelled", false);
    if (readError.load() != 0) return (why = std::string("read error: ") + std::strerror(readError.load()), false);
    if (badBlock.load() != UINT64_MAX)
        return (why = "checksum mismatch (data block " + std::to_string(badBlock.load()) + " of " + std::to_string(blocks) + ")",
                false);
    out = std::move(b);
    return true;
}

// A mapped table (residentSource(), adoptResident()) copied into huge pages
// at once, on every CPU.
template <class Table>
bool makeResidentNow(Table& table, std::string& why) {
    const ResidentSource src = table.residentSource();
    if (src.fd < 0) return true;
    HugeBuffer b;
    return readResident(src, b, why) && table.adoptResident(std::move(b), why);
}

// A table found corrupt after the search began using it.
struct TableCorruptError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Writes all n bytes at offset (pwrite in chunks of at most 1 GiB, retried
// on EINTR); false on any error. Table files and phase-table blobs share it.
inline bool writeAllAt(int fd, const void* p, size_t n, uint64_t offset) {
    const char* c = static_cast<const char*>(p);
    while (n > 0) {
        ssize_t k = ::pwrite(fd, c, std::min<size_t>(n, size_t{1} << 30), static_cast<off_t>(offset));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        c += k, n -= static_cast<size_t>(k), offset += static_cast<uint64_t>(k);
    }
    return true;
}

// Writes a table file (note [table integrity]) whose data arrives in order,
// a piece at a time: append() writes each piece and hashes every 64 KiB
// block as it completes; finish() writes the block hashes and the header
// page (made from the hashes), syncs, reads the whole file back against
// them, then links it as <path>.tmp.<pid> and renames it over <path>. The
// file is an unnamed O_TMPFILE in path's directory (a named
// "<path>.tmp.<pid>" where unsupported) until then, so a writer that stops
// early leaves nothing behind. Pruning tables, phase-table blobs and tables
// gathered from several ranks (pzc enumerate --table, note [streamed
// tables] in pz/enumerate/enumerate_main.hpp) share it; the last need never
// hold the whole table.
class TableFileWriter {
public:
    TableFileWriter() = default;
    TableFileWriter(const TableFileWriter&) = delete;
    TableFileWriter& operator=(const TableFileWriter&) = delete;
    ~TableFileWriter() { abandon(); }

    bool open(const std::string& path, std::string& why) {
        path_ = path;
        std::string dir = std::filesystem::path(path).parent_path().string();
        if (dir.empty()) dir = ".";
        tmp_ = path + ".tmp." + std::to_string(::getpid());
        fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
        if (fd_ < 0) {  // a file system without O_TMPFILE: a named temporary file
            fd_ = ::open(tmp_.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
            if (fd_ < 0) return (why = std::string("cannot create ") + tmp_ + ": " + std::strerror(errno), false);
            named_ = true;
        }
        return true;
    }
    // The next n bytes of the data section (a multiple of 8 in all but the last piece).
    bool append(const void* p, uint64_t n, std::string& why) {
        if (!writeAllAt(fd_, p, n, kTablePage + bytes_)) return fail(std::string("write failed: ") + std::strerror(errno), why);
        const char* c = static_cast<const char*>(p);
        bytes_ += n;
        if (!carry_.empty()) {  // complete the block a previous piece began
            const uint64_t take = std::min<uint64_t>(n, kTableBlockBytes - carry_.size());
            carry_.insert(carry_.end(), c, c + take);
            c += take, n -= take;
            if (carry_.size() < kTableBlockBytes) return true;
            hashCarry();
        }
        for (; n >= kTableBlockBytes; c += kTableBlockBytes, n -= kTableBlockBytes) {
            if (reinterpret_cast<uintptr_t>(c) % alignof(uint64_t) == 0) {
                hashes_.push_back(tableBlockHashOf(reinterpret_cast<const uint64_t*>(c), kTableBlockBytes, hashes_.size()));
                continue;
            }
            std::vector<uint64_t> block(kTableBlockBytes / 8);  // a piece that is not 8-aligned
            std::memcpy(block.data(), c, kTableBlockBytes);
            hashes_.push_back(tableBlockHashOf(block.data(), kTableBlockBytes, hashes_.size()));
        }
        carry_.assign(c, c + n);
        return true;
    }
    uint64_t bytes() const { return bytes_; }
    // Ends the file; page(hashes) is its header page (kTablePage bytes).
    template <class Page>
    bool finish(Page&& pageOf, std::string& why) {
        if (!carry_.empty()) hashCarry();
        const std::vector<char> page = pageOf(hashes_);
        if (!writeAllAt(fd_, hashes_.data(), hashes_.size() * 8, kTablePage + bytes_) ||
            !writeAllAt(fd_, page.data(), page.size(), 0))
            return fail(std::string("write failed: ") + std::strerror(errno), why);
        if (::fsync(fd_) != 0) return fail(std::string("fsync failed: ") + std::strerror(errno), why);
        if (!readBack(page, why)) return fail(why, why);
        if (!named_) {
            std::string proc = "/proc/self/fd/" + std::to_string(fd_);
            ::unlink(tmp_.c_str());  // a leftover of a dead process with our pid
            if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp_.c_str(), AT_SYMLINK_FOLLOW) != 0)
                return fail(std::string("cannot link ") + tmp_ + ": " + std::strerror(errno), why);
            named_ = true;
        }
        if (::rename(tmp_.c_str(), path_.c_str()) != 0) return fail(std::string("cannot rename: ") + std::strerror(errno), why);
        named_ = false;
        ::close(fd_);
        fd_ = -1;
        return true;
    }

private:
    void hashCarry() {
        std::vector<uint64_t> block((carry_.size() + 7) / 8, 0);
        std::memcpy(block.data(), carry_.data(), carry_.size());
        hashes_.push_back(tableBlockHashOf(block.data(), carry_.size(), hashes_.size()));
        carry_.clear();
    }
    // Read back a chunk at a time with pread, not through a mapping: the
    // mapped pages would count as the process's memory beside the table
    // just written (rotate4o's 3.4 GiB diag7 peaked at 7.2 GB resident).
    bool readBack(const std::vector<char>& page, std::string& why) const {
        constexpr size_t kChunkBlocks = 16;
        std::vector<uint64_t> chunk(kChunkBlocks * kTableBlockBytes / 8);
        if (int e = readAllAt(fd_, chunk.data(), page.size(), 0))
            return (why = std::string("cannot read the written file back: ") + std::strerror(e), false);
        if (std::memcmp(chunk.data(), page.data(), page.size()) != 0) return (why = "the written header reads back differently", false);
        for (uint64_t first = 0; first < hashes_.size(); first += kChunkBlocks) {
            const uint64_t begin = first * kTableBlockBytes;
            const size_t len = static_cast<size_t>(std::min<uint64_t>(kChunkBlocks * kTableBlockBytes, bytes_ - begin));
            if (int e = readAllAt(fd_, chunk.data(), len, kTablePage + begin))
                return (why = std::string("cannot read the written file back: ") + std::strerror(e), false);
            for (uint64_t b = first; b < std::min<uint64_t>(hashes_.size(), first + kChunkBlocks); ++b) {
                const size_t at = static_cast<size_t>((b - first) * kTableBlockBytes);
                const size_t blockBytes = std::min<size_t>(kTableBlockBytes, len - at);
                if (tableBlockHashOf(chunk.data() + at / 8, blockBytes, b) != hashes_[b])
                    return (why = "the written data reads back differently", false);
            }
        }
        return true;
    }
    bool fail(std::string what, std::string& why) {
        why = std::move(what);
        abandon();
        return false;
    }
    void abandon() {
        if (fd_ < 0) return;
        ::close(fd_);
        fd_ = -1;
        if (named_) ::unlink(tmp_.c_str());
    }
    std::string path_, tmp_;
    int fd_ = -1;
    bool named_ = false;
    uint64_t bytes_ = 0;
    std::vector<uint64_t> hashes_;
    std::vector<char> carry_;  // the start of a block not yet complete
};

// A table file of `bytes` of data at `data`, in one piece; page(hashes) is its header page.
template <class Page>
bool writeTableFile(const std::string& path, const void* data, uint64_t bytes, Page&& pageOf, std::string& why) {
    TableFileWriter out;
    return out.open(path, why) && out.append(data, bytes, why) && out.finish(pageOf, why);
}

// Records a use of the table file `path` (loaded or built) in its sidecar
// <path>.used (note [cache metadata] in compiler/driver/cache.hpp): one line
// per program that used it, "<executable>\t<$PZC_CACHE_USER>", appended when
// new; the sidecar's mtime is the table's last use. Once per table per
// process (a table is loaded once); failures are ignored.
inline void noteTableUse(const std::string& path) {
    char exe[4096];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    std::string line = n > 0 ? std::string(exe, static_cast<size_t>(n)) : std::string("?");
    const char* user = std::getenv("PZC_CACHE_USER");
    line += std::string("\t") + (user ? user : "") + "\n";
    const int fd = ::open((path + ".used").c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    std::string have;
    char buf[4096];
    for (ssize_t k; (k = ::read(fd, buf, sizeof buf)) > 0 && have.size() < (64u << 10);) have.append(buf, static_cast<size_t>(k));
    if (have.size() >= (64u << 10)) (void)!::ftruncate(fd, 0), have.clear();
    if (have.compare(0, line.size(), line) != 0 && have.find("\n" + line) == std::string::npos)
        (void)!::write(fd, line.data(), line.size());
    else
        ::futimens(fd, nullptr);
    ::close(fd);
}

// Removes "<name>.tmp.<pid>" files in `dir` whose writer process is gone
// (a killed save); files of live processes are left alone.
inline void removeStaleTableTemps(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string name = it->path().filename().string();
        size_t at = name.rfind(".pzt.tmp.");
        if (at == std::string::npos) continue;
        std::string digits = name.substr(at + 9);
        if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
            continue;
        long pid = std::stol(digits);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
            std::error_code rm;
            fs::remove(it->path(), rm);
        }
    }
}

// A library Solver's progress reports and cancellation (pz/api/solver.hpp):
// while one is installed in the building thread (ProgressScope), the
// Progress of the builds it starts reports there instead of to stderr, and a
// build stops at its next level once `cancelled` is set.
struct BuildProgress {
    std::string table;      // what is built ("pz: building pruning table slide4/top_rows")
    int depth = 0;          // the BFS level under way (or just finished)
    double fraction = 0;    // of that level's pass
    double elapsed = 0;     // seconds since the table's build began
    double levelEta = 0;    // seconds left in the level (0: unknown)
    uint64_t entries = 0;   // a finished level's entries (levelDone)
    bool levelDone = false, tableDone = false;
};
struct ProgressSink {
    std::function<void(const BuildProgress&)> report;
    const std::atomic<bool>* cancelled = nullptr;
};
// Thrown by a build that saw its sink cancelled (before anything is cached).
struct BuildCancelled : std::runtime_error {
    BuildCancelled() : std::runtime_error("cancelled") {}
};
inline const ProgressSink*& progressSink() {
    thread_local const ProgressSink* sink = nullptr;
    return sink;
}
class ProgressScope {
public:
    explicit ProgressScope(const ProgressSink* sink) : saved_(progressSink()) { progressSink() = sink; }
    ~ProgressScope() { progressSink() = saved_; }
    ProgressScope(const ProgressScope&) = delete;
    ProgressScope& operator=(const ProgressScope&) = delete;

private:
    const ProgressSink* saved_;
};

// Progress on stderr for builds that take over a second: one line per BFS
// level, and on a terminal a redrawn bar with the level's ETA in between;
// elsewhere (a log) a line every kLogSeconds within a long level (h48h6's
// depth-first step runs minutes with no level ending).
class Progress {
public:
    static constexpr double kLogSeconds = 30;
    explicit Progress(std::string what)
        : what_(std::move(what)), start_(now()), levelStart_(start_), tty_(::isatty(2)), sink_(progressSink()) {}
    double elapsed() const { return now() - start_; }
    void beginLevel() {
        checkCancelled();
        levelStart_ = lastDraw_ = now();
    }
    // `fraction` of the current level's pass is done; the ETA is for the level.
    // May be called from the build's worker threads (a sink's calls are serialised).
    void update(int depth, double fraction) {
        double t = now();
        if (sink_) {
            std::unique_lock<std::mutex> lock(sinkLock_, std::try_to_lock);
            if (!lock || t - lastDraw_ < 0.1) return;
            lastDraw_ = t;
            const double spent = t - levelStart_;
            report(depth, fraction, fraction > 0.01 ? spent / fraction - spent : 0, 0, false, false);
            return;
        }
        if (t - start_ < 1.0 || t - lastDraw_ < (tty_ ? 0.2 : kLogSeconds)) return;
        lastDraw_ = t;
        double spent = t - levelStart_;
        double eta = fraction > 0.01 ? spent / fraction - spent : 0;
        if (!tty_) {
            std::fprintf(stderr, "%s: depth %d: %.1f%% of the level (%.1fs; level ETA %.1fs)\n", what_.c_str(), depth,
                         fraction * 100, t - start_, eta);
            return;
        }
        int filled = static_cast<int>(fraction * 30);
        std::fprintf(stderr, "\r%s: depth %2d [%.*s%*s] %5.1f%%  elapsed %5.1fs  level ETA %5.1fs ", what_.c_str(), depth,
                     filled, "##############################", 30 - filled, "", fraction * 100, t - start_, eta);
        std::fflush(stderr);
        drawn_ = true;
    }
    void level(int depth, uint64_t count) {
        if (sink_) {
            std::lock_guard<std::mutex> lock(sinkLock_);
            report(depth, 1.0, 0, count, true, false);
            checkCancelled();
            return;
        }
        if (elapsed() < 1.0) return;
        if (drawn_) std::fprintf(stderr, "\r\033[K");
        std::fprintf(stderr, "%s: depth %d: %llu entries (%.1fs)\n", what_.c_str(), depth,
                     static_cast<unsigned long long>(count), elapsed());
    }
    void done() {
        if (sink_) {
            std::lock_guard<std::mutex> lock(sinkLock_);
            report(0, 1.0, 0, 0, false, true);
            return;
        }
        if (elapsed() >= 1.0) std::fprintf(stderr, "%s: built in %.1fs\n", what_.c_str(), elapsed());
    }

private:
    static double now() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    void checkCancelled() const {
        if (sink_ && sink_->cancelled && sink_->cancelled->load(std::memory_order_relaxed)) throw BuildCancelled();
    }
    void report(int depth, double fraction, double eta, uint64_t entries, bool levelDone, bool tableDone) const {
        if (!sink_->report) return;
        BuildProgress p;
        p.table = what_.rfind("pz: ", 0) == 0 ? what_.substr(4) : what_;
        p.depth = depth, p.fraction = fraction, p.elapsed = elapsed(), p.levelEta = eta;
        p.entries = entries, p.levelDone = levelDone, p.tableDone = tableDone;
        sink_->report(p);
    }
    std::string what_;
    double start_, levelStart_, lastDraw_ = 0;
    bool tty_, drawn_ = false;
    const ProgressSink* sink_;
    std::mutex sinkLock_;
};

// T: puzzle traits; P: one pattern of T (rank/unrank/kSize/kName/kHash).
template <class T, class P>
class PruneTable {
public:
    using State = typename T::State;
    using Pattern = P;
    static constexpr unsigned kUnreached = 0xF;

    uint64_t entries() const { return P::kSize; }
    static size_t bytes() { return words() * 8; }
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

    inline unsigned get(uint64_t i) const { return (data_[i >> 4] >> ((i & 15) * 4)) & 0xF; }
    inline void prefetch(uint64_t i) const { pz::prefetch(&data_[i >> 4]); }
    // Whether the data is the cache file mapped read-only (else built in memory).
    bool mapped() const { return mapping_.data != nullptr; }

    static std::string fileName() {
        return std::string(T::kName) + "-" + P::kName + "-" + P::kHash + ".pzt";
    }

    // Loads the cached table from `dir` or builds (and caches) it. With
    // `resident`, a loaded table is copied into huge-page memory at once
    // (makeResident), else it stays mapped (note [table residency]).
    // An empty `dir` builds in memory and caches nothing (the library's
    // cacheTables = false, pz/api/solver.hpp).
    void loadOrBuild(const std::string& dir, int threads = 0, bool resident = false) {
        namespace fs = std::filesystem;
        if (dir.empty()) return build(threads);
        fs::path path = fs::path(dir) / fileName();
        std::string why;
        removeStaleTableTemps(dir);
        if (fs::exists(path)) {
            if (load(path.string(), why) && (!resident || makeResident(why))) {
                loaded_ = true;
                noteTableUse(path.string());
                return;
            }
            std::fprintf(stderr, "pz: pruning table %s is unusable (%s); rebuilding\n", path.c_str(), why.c_str());
        }
        build(threads);
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (!save(path.string(), why))
            std::fprintf(stderr, "pz: warning: cannot cache pruning table %s: %s\n", path.c_str(), why.c_str());
        else
            noteTableUse(path.string());
    }

    void build(int threads = 0) {
        if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
        if (bytes() > memoryBudget())
            throw MemoryBudgetError(std::string("the pruning table ") + T::kName + "/" + P::kName + " needs " +
                                    formatBytes(bytes()) + ", more than the memory budget of " +
                                    formatBytes(memoryBudget()));
        mapping_ = MappedFile();
        buffer_ = HugeBuffer(bytes());
        data_ = buffer_.data;
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
                    local += backward        ? expandBackward(begin, end, d)
                             : threads == 1 ? expandForward<false>(begin, end, d)
                                            : expandForward<true>(begin, end, d);
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

    // Writes the table to `path` (note [table integrity]): an unnamed
    // temporary file in the same directory, fsync'd and read back in full,
    // then linked as <path>.tmp.<pid> and renamed over <path>.
    bool save(const std::string& path, std::string& why) const {
        return writeTableFile(path, data_, bytes(), [&](const std::vector<uint64_t>& hashes) { return headerPage(depthCount_, hashes); }, why);
    }
    // The header page of a table file with these depth counts and block
    // hashes (one written a piece at a time: note [streamed tables]).
    static std::vector<char> headerPage(const std::array<uint64_t, 16>& depthCount, const std::vector<uint64_t>& hashes) {
        return tableHeaderPage(4, P::kSize, P::kHash, bytes(), hashes, depthCount.data());
    }

    // Note [table residency]
    // ~~~~~~~~~~~~~~~~~~~~~~
    // A mapped table costs nothing to load but lives in 4 KiB pages: once the
    // search has touched them all, every lookup still misses the TLB, and the
    // slide4 search runs ~1.6x slower than on 2 MiB pages (bench_slide4: 1.6
    // vs 2.5 M nodes/s; the cube's h48h6 search, whose lookups are batched,
    // 1.09x). So a process that will search for long copies its tables into
    // 2 MiB-aligned MADV_HUGEPAGE memory: at once when it has several
    // positions to solve; else, once its search passes
    // Search::kResidentAfterNodes nodes, in the background (note [background
    // residency] in pz/search/search.hpp), since the copy can cost as much as the
    // search (fresh huge pages are zeroed by the kernel: 1.8 GiB took 0.5 s
    // to 3.8 s on both CPUs of the 2-core VM, depending on the memory's
    // history). The
    // copy reads the file with pread (no page-table entries for the mapping)
    // and checks every block's hash, so a long-running process has verified
    // its whole table.
    ResidentSource residentSource() const { return residentSourceOf(mapping_, bytes()); }
    // Takes a copy made from residentSource() (an empty one: nothing to do).
    bool adoptResident(HugeBuffer&& b, std::string&) {
        if (!b.data) return true;
        buffer_ = std::move(b);
        data_ = buffer_.data;
        mapping_ = MappedFile();
        return true;
    }
    bool makeResident(std::string& why) { return makeResidentNow(*this, why); }

    // Maps the table file at `path` after the checks of note [table
    // integrity]; on failure `why` says what is wrong and nothing changes.
    bool load(const std::string& path, std::string& why) {
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return (why = std::string("cannot open: ") + std::strerror(errno), false);
        struct Closer {
            int fd;
            ~Closer() { ::close(fd); }
        } closer{fd};
        struct stat st{};
        if (::fstat(fd, &st) != 0) return (why = std::string("cannot stat: ") + std::strerror(errno), false);
        uint64_t size = static_cast<uint64_t>(st.st_size);
        TableFileHeader h{};
        if (size < kTablePage) return (why = "truncated header", false);
        std::vector<char> page(kTablePage);
        if (::pread(fd, page.data(), kTablePage, 0) != static_cast<ssize_t>(kTablePage))
            return (why = "read error", false);
        std::memcpy(&h, page.data(), sizeof h);
        if (std::memcmp(h.magic, kTableMagic, 8) != 0) return (why = "not a pzc table file", false);
        if (h.version != kTableVersion) return (why = "format version " + std::to_string(h.version), false);
        if (h.bitsPerEntry != 4 || h.entries != P::kSize) return (why = "wrong size", false);
        if (std::string(h.definitionHash, strnlen(h.definitionHash, sizeof h.definitionHash)) != P::kHash)
            return (why = "stale: built for another definition", false);
        uint64_t stored = h.headerChecksum;
        std::memset(page.data() + offsetof(TableFileHeader, headerChecksum), 0, 8);
        if (checksumWords(reinterpret_cast<const uint64_t*>(page.data()), kTablePage / 8) != stored)
            return (why = "header checksum mismatch", false);
        if (h.dataOffset != kTablePage || h.dataBytes != bytes() || h.blockBytes != kTableBlockBytes ||
            h.blocks != blocks() || h.hashesOffset != kTablePage + bytes())
            return (why = "inconsistent layout", false);
        if (size < fileBytes()) return (why = "truncated data", false);
        if (size > fileBytes()) return (why = "trailing bytes after the data", false);
        uint64_t total = 0;
        for (int i = 0; i < 16; ++i) total += h.depthCount[i];
        if (total > P::kSize || h.depthCount[0] != 1 || h.depthCount[kUnreached] != 0)
            return (why = "inconsistent depth counts", false);
        if (bytes() > memoryBudget())
            throw MemoryBudgetError(std::string("the pruning table ") + path + " needs " + formatBytes(bytes()) +
                                    ", more than the memory budget of " + formatBytes(memoryBudget()));
        MappedFile m(fd, fileBytes());
        if (!m.data) return (why = std::string("cannot map: ") + std::strerror(errno), false);
        const auto* words = reinterpret_cast<const uint64_t*>(m.data + kTablePage);
        const auto* hashes = reinterpret_cast<const uint64_t*>(m.data + h.hashesOffset);
        if (checksumWords(hashes, blocks()) != h.hashesChecksum) return (why = "checksum mismatch (block hashes)", false);
        std::string bad;
        // Blocks are read with pread into one start-up-table buffer, not
        // through the mapping: a sampled check then maps no page of the
        // table (32 blocks were ~10% of a one-shot solve's page faults: note
        // [start-up tables]); the search maps what it reads.
        static uint64_t* const blockBuffer = startupTable<uint64_t>(kTableBlockBytes / 8);
        static std::mutex bufferLock;
        auto check = [&](uint64_t b) {
            if (!bad.empty()) return;
            const uint64_t begin = b * kTableBlockBytes, length = std::min<uint64_t>(kTableBlockBytes, bytes() - begin);
            std::lock_guard<std::mutex> hold(bufferLock);
            if (::pread(fd, blockBuffer, length, static_cast<off_t>(kTablePage + begin)) != static_cast<ssize_t>(length))
                bad = "read error (data block " + std::to_string(b) + ")";
            else if (tableBlockHashOf(blockBuffer, length, b) != hashes[b])
                bad = "checksum mismatch (data block " + std::to_string(b) + " of " + std::to_string(blocks()) + ")";
        };
        if (tableVerification() == TableVerification::Full || blocks() <= kSampleBlocks) {
            for (uint64_t b = 0; b < blocks(); ++b) check(b);
        } else {
            // Half spread evenly (first and last included), half at random.
            const uint64_t spread = kSampleBlocks / 2;
            for (uint64_t i = 0; i < spread; ++i) check(i * (blocks() - 1) / (spread - 1));
            std::mt19937_64 rng(std::random_device{}());
            for (uint64_t i = spread; i < kSampleBlocks; ++i) check(rng() % blocks());
        }
        if (!bad.empty()) return (why = bad, false);
        buffer_ = HugeBuffer();
        mapping_ = std::move(m);
        data_ = const_cast<uint64_t*>(words);  // read-only: a mapped table is never written
        for (int i = 0; i < 16; ++i) depthCount_[i] = h.depthCount[i];
        return true;
    }

private:
    static size_t words() { return (P::kSize + 15) / 16; }
    static uint64_t blocks() { return (bytes() + kTableBlockBytes - 1) / kTableBlockBytes; }
    uint64_t fileBytes() const { return kTablePage + bytes() + blocks() * 8; }
    pz::AtomicRef<uint64_t> word(uint64_t i) const { return pz::AtomicRef<uint64_t>(data_[i >> 4]); }
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
    // note [claims without locks]
    // The same with a plain read and write, for an entry whose word no other
    // thread writes during the level: every claim of a 1-thread build, and
    // a backward level's, where a thread claims only entries of its own
    // chunk (2^16 entries: whole words). A locked fetch_and drains the store
    // buffer, so each claim's cache miss waits for the one before; plain
    // stores let them overlap (the enumerator's marks, note [marks per
    // thread] in pz/enumerate/replicated_bfs.hpp, gained 2.9x from that).
    bool claimAlone(uint64_t i, unsigned d) const {
        const unsigned shift = (i & 15) * 4;
        const uint64_t before = word(i).load(std::memory_order_relaxed);
        if (((before >> shift) & 0xF) != kUnreached) return false;
        word(i).store(before & ~(static_cast<uint64_t>(0xF ^ d) << shift), std::memory_order_relaxed);
        return true;
    }

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
            uint64_t hits = nibblesEqual(pz::AtomicRef<uint64_t>(data_[w]).load(std::memory_order_relaxed), v);
            for (; hits; hits &= hits - 1) {
                uint64_t i = (w << 4) + (std::countr_zero(hits) >> 2);
                if (i >= begin && i < end) f(i);
            }
        }
    }

    template <bool Shared>
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
                if constexpr (Shared) {
                    if (getAtomic(child[m]) == kUnreached && claim(child[m], d + 1)) ++found;
                } else {
                    found += claimAlone(child[m], d + 1);  // note [claims without locks]
                }
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
            // note [parts on one orbit]: values that are no state stay unreached.
            if constexpr (requires { P::isState(i); })
                if (!P::isState(i)) return;
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
                claimAlone(i, d + 1);  // i is in this thread's chunk: note [claims without locks]
                ++found;
            }
        });
        return found;
    }

    HugeBuffer buffer_;     // a built table
    MappedFile mapping_;    // or a loaded one
    uint64_t* data_ = nullptr;
    std::array<uint64_t, 16> depthCount_{};
    double buildSeconds_ = 0;
    bool loaded_ = false;
};

}  // namespace pz
