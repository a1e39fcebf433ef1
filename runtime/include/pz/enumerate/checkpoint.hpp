// pz/enumerate/checkpoint.hpp — each rank's slice on disk after every level,
// so that a lost job continues where it stopped (`--checkpoint DIR --resume`).
//
// note [bfs checkpoints]
// After level D every rank writes DIR/<space>.rank-R-of-N.D: a 4 KiB header
// (magic, version, the space's key, values, ranks, rank, depth, bits per
// value, the counts per depth, a checksum of the data, a checksum of the
// header) and its slice. A file is written under a temporary name, synced
// and renamed, then the rank's file of level D-2 is removed: a rank keeps
// its last two levels. Levels end together (the sum of a level's counts is
// a collective call), so after a crash every rank has level L or L-1 as its
// newest: a resume takes the newest level every rank has (the minimum over
// ranks) and each rank loads its file of that level, checked in full. A
// missing, damaged or foreign file (another space, another number of ranks)
// is refused with a message on every rank; nothing is overwritten until the
// run goes on.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "pz/tables/prune.hpp"

namespace pz::enumerate {

inline constexpr char kCheckpointMagic[8] = {'P', 'Z', 'B', 'F', 'S', 'C', 'K', '\n'};
inline constexpr uint32_t kCheckpointVersion = 1;
inline constexpr size_t kCheckpointPage = 4096;
// Depths a header holds (the 15-puzzle's deepest is 80).
inline constexpr unsigned kCheckpointMaxDepth = 400;

struct CheckpointHeader {
    char magic[8];
    uint32_t version;
    uint32_t bits;  // per value: 2 (enumeration) or 4 (table)
    char space[64];
    uint64_t values;
    uint64_t sliceBytes;
    int32_t ranks, rank;
    uint32_t depth;
    uint32_t pad;
    uint64_t dataChecksum;
    uint64_t headerChecksum;  // of the page with this field 0
    uint64_t counts[kCheckpointMaxDepth + 1];
};
static_assert(sizeof(CheckpointHeader) <= kCheckpointPage);

inline std::string checkpointPath(const std::string& dir, const std::string& space, int rank, int ranks,
                                  unsigned depth) {
    return dir + "/" + space + ".rank-" + std::to_string(rank) + "-of-" + std::to_string(ranks) + "." +
           std::to_string(depth);
}

// Writes this rank's slice after level `depth`; false with `why`.
inline bool writeCheckpoint(const std::string& dir, const std::string& space, int rank, int ranks, unsigned bits,
                            uint64_t values, const std::vector<uint64_t>& counts, const uint64_t* data,
                            uint64_t bytes, std::string& why) {
    const unsigned depth = static_cast<unsigned>(counts.size() - 1);
    if (depth > kCheckpointMaxDepth) return (why = "deeper than a checkpoint holds", false);
    std::vector<char> page(kCheckpointPage, 0);
    CheckpointHeader h{};
    std::memcpy(h.magic, kCheckpointMagic, 8);
    h.version = kCheckpointVersion;
    h.bits = bits;
    std::strncpy(h.space, space.c_str(), sizeof h.space - 1);
    h.values = values;
    h.sliceBytes = bytes;
    h.ranks = ranks, h.rank = rank, h.depth = depth;
    h.dataChecksum = checksumWords(data, bytes / 8);
    for (unsigned d = 0; d <= depth; ++d) h.counts[d] = counts[d];
    std::memcpy(page.data(), &h, sizeof h);
    h.headerChecksum = checksumWords(reinterpret_cast<const uint64_t*>(page.data()), kCheckpointPage / 8);
    std::memcpy(page.data(), &h, sizeof h);
    const std::string path = checkpointPath(dir, space, rank, ranks, depth), tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return (why = "cannot create " + tmp + ": " + std::strerror(errno), false);
    const bool ok = writeAllAt(fd, page.data(), page.size(), 0) && writeAllAt(fd, data, bytes, kCheckpointPage) &&
                    ::fsync(fd) == 0;
    const int err = errno;
    ::close(fd);
    if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        return (why = "cannot write " + path + ": " + std::strerror(err), false);
    }
    if (depth >= 2) ::unlink(checkpointPath(dir, space, rank, ranks, depth - 2).c_str());
    return true;
}

// The newest level this rank has a checkpoint file of (-1: none); `others`
// gets a file of the space written by another number of ranks, if any.
inline long newestCheckpoint(const std::string& dir, const std::string& space, int rank, int ranks,
                             std::string& others) {
    namespace fs = std::filesystem;
    const std::string mine = space + ".rank-" + std::to_string(rank) + "-of-" + std::to_string(ranks) + ".";
    long newest = -1;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(space + ".rank-", 0) != 0 || (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0))
            continue;
        if (name.rfind(mine, 0) != 0) {
            others = name;
            continue;
        }
        const std::string digits = name.substr(mine.size());
        if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
        newest = std::max(newest, std::stol(digits));
    }
    return newest;
}

// Loads this rank's slice of level `depth` into `data` (`bytes` long) and
// the counts; false with `why`.
inline bool readCheckpoint(const std::string& dir, const std::string& space, int rank, int ranks, unsigned bits,
                           uint64_t values, unsigned depth, uint64_t* data, uint64_t bytes,
                           std::vector<uint64_t>& counts, std::string& why) {
    const std::string path = checkpointPath(dir, space, rank, ranks, depth);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return (why = "cannot open " + path + ": " + std::strerror(errno), false);
    std::vector<char> page(kCheckpointPage);
    CheckpointHeader h{};
    const bool read = readAllAt(fd, page.data(), page.size(), 0) == 0;
    struct stat st{};
    const bool sized = ::fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) == kCheckpointPage + bytes;
    const bool data_read = read && sized && readAllAt(fd, data, bytes, kCheckpointPage) == 0;
    ::close(fd);
    if (!read) return (why = path + ": cannot read its header", false);
    std::memcpy(&h, page.data(), sizeof h);
    if (std::memcmp(h.magic, kCheckpointMagic, 8) != 0) return (why = path + ": not a pzc checkpoint", false);
    const uint64_t stored = h.headerChecksum;
    std::memset(page.data() + offsetof(CheckpointHeader, headerChecksum), 0, 8);
    if (h.version != kCheckpointVersion ||
        checksumWords(reinterpret_cast<const uint64_t*>(page.data()), kCheckpointPage / 8) != stored)
        return (why = path + ": damaged header", false);
    if (std::string(h.space, strnlen(h.space, sizeof h.space)) != space || h.values != values || h.bits != bits)
        return (why = path + ": written for another space", false);
    if (h.ranks != ranks || h.rank != rank || h.depth != depth || h.sliceBytes != bytes)
        return (why = path + ": inconsistent header", false);
    if (!sized) return (why = path + ": wrong size (truncated?)", false);
    if (!data_read || checksumWords(data, bytes / 8) != h.dataChecksum)
        return (why = path + ": checksum mismatch in the data", false);
    counts.assign(h.counts, h.counts + depth + 1);
    return true;
}

}  // namespace pz::enumerate
