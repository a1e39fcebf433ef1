// pz/tables/table_blob.hpp — a cached table file holding arbitrary bytes.
//
// The phased solvers' tables (move tables, symmetry-class index, pruning
// tables of every phase) are one byte blob per solver, cached in the same
// file format as pz/tables/prune.hpp's pruning tables (note [table integrity]
// there): a 4 KiB header page (magic, format version, the hash of what the
// blob encodes, size, a checksum of the page), the data, one hash per 64 KiB
// block. A blob's header says 8 bits per entry, so a pruning-table loader
// refuses it and the reverse. Saved through an unnamed temporary file that
// is read back and verified before it gets its name; loaded by mapping
// read-only after checking the header, the size, the block-hash array and a
// sample of data blocks (every block with --verify-tables).
#pragma once

#include <filesystem>

#include "pz/tables/prune.hpp"

namespace pz {

namespace blob_detail {
inline uint64_t blocksOf(uint64_t bytes) { return (bytes + kTableBlockBytes - 1) / kTableBlockBytes; }
inline uint64_t fileBytesOf(uint64_t bytes) { return kTablePage + bytes + blocksOf(bytes) * 8; }
}  // namespace blob_detail

// Writes `bytes` bytes (a multiple of 8) at `data` to `path`, keyed by `hash`.
inline bool saveTableBlob(const std::string& path, const std::string& hash, const uint64_t* data, uint64_t bytes,
                          std::string& why) {
    return writeTableFile(path, data, bytes, [&](const std::vector<uint64_t>& hashes) {
        return tableHeaderPage(8, bytes, hash.c_str(), bytes, hashes);
    }, why);
}

// Maps the blob at `path` after the checks above; its data starts at
// out.data + kTablePage and is `bytes` (returned) long.
inline bool loadTableBlob(const std::string& path, const std::string& hash, MappedFile& out, uint64_t& bytes,
                          std::string& why) {
    using namespace blob_detail;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return (why = std::string("cannot open: ") + std::strerror(errno), false);
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st{};
    if (::fstat(fd, &st) != 0) return (why = std::string("cannot stat: ") + std::strerror(errno), false);
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size < kTablePage) return (why = "truncated header", false);
    std::vector<char> page(kTablePage);
    if (::pread(fd, page.data(), kTablePage, 0) != static_cast<ssize_t>(kTablePage)) return (why = "read error", false);
    TableFileHeader h{};
    std::memcpy(&h, page.data(), sizeof h);
    if (std::memcmp(h.magic, kTableMagic, 8) != 0) return (why = "not a pzc table file", false);
    if (h.version != kTableVersion) return (why = "format version " + std::to_string(h.version), false);
    if (h.bitsPerEntry != 8 || h.entries % 8 != 0) return (why = "not a table blob", false);
    if (std::string(h.definitionHash, strnlen(h.definitionHash, sizeof h.definitionHash)) != hash)
        return (why = "stale: built for another definition or an older layout of its table", false);
    const uint64_t stored = h.headerChecksum;
    std::memset(page.data() + offsetof(TableFileHeader, headerChecksum), 0, 8);
    if (checksumWords(reinterpret_cast<const uint64_t*>(page.data()), kTablePage / 8) != stored)
        return (why = "header checksum mismatch", false);
    bytes = h.entries;
    const uint64_t blocks = blocksOf(bytes);
    if (h.dataOffset != kTablePage || h.dataBytes != bytes || h.blockBytes != kTableBlockBytes || h.blocks != blocks ||
        h.hashesOffset != kTablePage + bytes)
        return (why = "inconsistent layout", false);
    if (size < fileBytesOf(bytes)) return (why = "truncated data", false);
    if (size > fileBytesOf(bytes)) return (why = "trailing bytes after the data", false);
    if (bytes > memoryBudget())
        throw MemoryBudgetError(std::string("the tables ") + path + " need " + formatBytes(bytes) +
                                ", more than the memory budget of " + formatBytes(memoryBudget()));
    MappedFile m(fd, fileBytesOf(bytes));
    if (!m.data) return (why = std::string("cannot map: ") + std::strerror(errno), false);
    const auto* words = reinterpret_cast<const uint64_t*>(m.data + kTablePage);
    const auto* hashes = reinterpret_cast<const uint64_t*>(m.data + h.hashesOffset);
    if (checksumWords(hashes, blocks) != h.hashesChecksum) return (why = "checksum mismatch (block hashes)", false);
    std::string bad;
    auto check = [&](uint64_t b) {
        if (bad.empty() && tableBlockHash(words, bytes, b) != hashes[b])
            bad = "checksum mismatch (data block " + std::to_string(b) + " of " + std::to_string(blocks) + ")";
    };
    if (tableVerification() == TableVerification::Full || blocks <= kSampleBlocks) {
        for (uint64_t b = 0; b < blocks; ++b) check(b);
    } else {
        const uint64_t spread = kSampleBlocks / 2;
        for (uint64_t i = 0; i < spread; ++i) check(i * (blocks - 1) / (spread - 1));
        std::mt19937_64 rng(std::random_device{}());
        for (uint64_t i = spread; i < kSampleBlocks; ++i) check(rng() % blocks);
    }
    if (!bad.empty()) return (why = bad, false);
    out = std::move(m);
    return true;
}

// The cache protocol of a table blob: load `path` (keyed by `hash`) and hand
// its words to attach(words, count, why); when it is missing or unusable
// (said on stderr, naming `what`), build() and save it there ("" = build
// only). Returns whether it was loaded.
template <class Attach, class Build>
bool loadOrBuildBlob(const std::string& path, const std::string& hash, const std::string& what, MappedFile& mapping,
                     Attach&& attach, Build&& build) {
    namespace fs = std::filesystem;
    std::string why;
    if (!path.empty()) {
        removeStaleTableTemps(fs::path(path).parent_path().string());
        if (fs::exists(path)) {
            uint64_t bytes = 0;
            if (loadTableBlob(path, hash, mapping, bytes, why) &&
                attach(reinterpret_cast<const uint64_t*>(mapping.data + kTablePage), bytes / 8, why)) {
                noteTableUse(path);
                return true;
            }
            mapping = MappedFile();
            std::fprintf(stderr, "pz: %s %s are unusable (%s); rebuilding\n", what.c_str(), path.c_str(), why.c_str());
        }
    }
    const auto [data, bytes] = build();
    if (!path.empty()) {
        std::error_code ec;
        fs::create_directories(fs::path(path).parent_path(), ec);
        if (!saveTableBlob(path, hash, data, bytes, why))
            std::fprintf(stderr, "pz: warning: cannot cache %s %s: %s\n", what.c_str(), path.c_str(), why.c_str());
        else
            noteTableUse(path);
    }
    return false;
}

}  // namespace pz
