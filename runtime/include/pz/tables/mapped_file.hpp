// pz/tables/mapped_file.hpp — a cached table file mapped read-only, in 2 MiB
// pages where the kernel's page cache holds it so (note [huge page cache]).
//
// Note [huge page cache]
// ~~~~~~~~~~~~~~~~~~~~~~
// A search reads its pattern tables at random, so through 4 KiB pages it
// pays a TLB miss on most probes: 200 slide4 positions on 2 MPI ranks took
// 0.86 s of search with the 247 MiB table mapped in 4 KiB pages, 0.70 s in
// 2 MiB pages (the 2-core VM). One process copies its tables into anonymous
// huge pages (note [table residency] in pz/tables/prune.hpp); processes
// sharing a machine share the file's page cache instead (MPI ranks, note
// [mpi batch]), and Linux maps a file's cached 2 MiB folios with 2 MiB
// pages where the mapping is 2 MiB-aligned and asks for them
// (MADV_HUGEPAGE); a fault there also reads the file ahead in 2 MiB folios.
// That takes a kernel and file system with large folios (Linux 6.x; ext4
// since 6.16, xfs); elsewhere the advice does nothing. Every table file is
// mapped 2 MiB-aligned (cached 2 MiB folios then map as 2 MiB pages even
// unadvised), but advised only where tables are shared: a one-shot solve on
// a table not in the cache took 1.5x as long advised (0.27 s against 0.18
// s for slide4's 13-move position: every fault reads, and first compacts
// memory for, a whole 2 MiB folio).
//
// Whether the cache holds a file in 2 MiB folios is its history's: a fresh
// write does; small reads of a file not cached (a one-shot solve's faults
// through a 4 KiB-page mapping, 64 KiB sampled checks, note [table
// integrity]) leave small folios, which stay until evicted. A process that
// shares its tables (sharedTables(): the solvers' `--shared-tables`, which
// pzc gives an MPI batch's solvers) looks at kSampledStretches 2 MiB
// stretches of each file it maps (smaps' FilePmdMapped); when some are in
// small pages, it drops one stretch from the cache and reads it again
// through the mapping, and when that comes back in a 2 MiB page, does the
// same for the whole file: the pages no process maps are dropped (those
// another process maps stay as they are) and the file is read again, once
// per machine (slide4's 247 MiB: 0.3 s here). Where the kernel cannot, a
// load costs one stretch read again.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

namespace pz {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// Whether this thread's table loads keep their tables mapped and shared
// with the machine's other processes, in 2 MiB pages where the kernel can
// (note [huge page cache]); as tableVerification() (pz/tables/prune.hpp).
inline bool& sharedTables() {
    thread_local bool shared = false;
    return shared;
}

namespace mapped_file_detail {

// `length` bytes of `fd` mapped read-only at a 2 MiB-aligned address (a
// cached 2 MiB folio maps with one page only there), advised MADV_HUGEPAGE
// when `advise`; nullptr on failure, with errno set.
inline const char* mapAligned(int fd, size_t length, bool advise) {
    if (length < kHugePageBytes) {
        void* p = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
        return p == MAP_FAILED ? nullptr : static_cast<const char*>(p);
    }
    // Reserve a span a huge page longer, map over its aligned part, give
    // back the rest.
    const size_t spanBytes = length + kHugePageBytes;
    void* span = ::mmap(nullptr, spanBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (span == MAP_FAILED) return nullptr;
    const auto base = reinterpret_cast<uintptr_t>(span);
    const uintptr_t at = (base + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
    void* p = ::mmap(reinterpret_cast<void*>(at), length, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
    if (p == MAP_FAILED) {
        const int e = errno;
        ::munmap(span, spanBytes);
        errno = e;
        return nullptr;
    }
    const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t end = (at + length + page - 1) & ~(page - 1);
    if (at > base) ::munmap(span, at - base);
    if (base + spanBytes > end) ::munmap(reinterpret_cast<void*>(end), base + spanBytes - end);
    if (advise) ::madvise(p, length, MADV_HUGEPAGE);  // a hint: ignored where file THP is not built in
    return static_cast<const char*>(p);
}

// Maps `bytes` at `p` (read from the cache or the disk).
inline void populate(const char* p, size_t bytes) {
#ifdef MADV_POPULATE_READ
    if (::madvise(const_cast<char*>(p), bytes, MADV_POPULATE_READ) == 0) return;
#endif
    volatile char sink = 0;  // before Linux 5.14: a read per page
    for (size_t i = 0; i < bytes; i += 4096) sink = sink + p[i];
}

}  // namespace mapped_file_detail

// The bytes of the mapping that starts at `data` mapped with 2 MiB pages
// (smaps' FilePmdMapped, plus ShmemPmdMapped for a file on tmpfs mounted
// with huge pages); nothing where the kernel does not say.
inline std::optional<uint64_t> hugeMappedBytes(const void* data) {
    FILE* f = std::fopen("/proc/self/smaps", "re");
    if (!f) return std::nullopt;
    char head[32];
    std::snprintf(head, sizeof head, "%lx-", static_cast<unsigned long>(reinterpret_cast<uintptr_t>(data)));
    const size_t headLength = std::strlen(head);
    std::optional<uint64_t> out;
    bool inside = false;
    for (char line[512]; std::fgets(line, sizeof line, f);) {
        // A mapping's first line starts with its address (lower-case hex),
        // its fields with a capitalised name.
        const bool first = std::isxdigit(static_cast<unsigned char>(line[0])) && !std::isupper(static_cast<unsigned char>(line[0]));
        if (!inside) {
            inside = std::strncmp(line, head, headLength) == 0;
            continue;
        }
        if (first) break;
        unsigned long kb = 0;
        if (std::sscanf(line, "FilePmdMapped: %lu kB", &kb) == 1 || std::sscanf(line, "ShmemPmdMapped: %lu kB", &kb) == 1)
            out = out.value_or(0) + (uint64_t{kb} << 10);
    }
    std::fclose(f);
    return out;
}

// note [huge page cache]: the file `fd` mapped `length` bytes at `data`
// (2 MiB-aligned) is made to sit in the page cache in 2 MiB folios, where
// the kernel can.
inline void keepInHugePages(int fd, const char* data, size_t length) {
    using namespace mapped_file_detail;
    constexpr size_t kSampledStretches = 8;
    const size_t stretches = length / kHugePageBytes;  // whole ones
    if (stretches < 2 || reinterpret_cast<uintptr_t>(data) % kHugePageBytes != 0) return;
    const size_t sampled = std::min(kSampledStretches, stretches);
    auto stretch = [&](size_t i) { return data + i * (stretches - 1) / (sampled - 1) * kHugePageBytes; };
    for (size_t i = 0; i < sampled; ++i) populate(stretch(i), kHugePageBytes);
    const std::optional<uint64_t> huge = hugeMappedBytes(data);
    if (!huge || *huge >= sampled * kHugePageBytes) return;
    // A trial: the middle stretch, dropped from this mapping and the cache,
    // read again.
    char* writable = const_cast<char*>(data);
    ::madvise(writable, length, MADV_DONTNEED);  // a read-only file mapping: its pages go, the file stays
    const char* middle = stretch(sampled / 2);
    ::posix_fadvise(fd, static_cast<off_t>(middle - data), kHugePageBytes, POSIX_FADV_DONTNEED);
    populate(middle, kHugePageBytes);
    if (hugeMappedBytes(data).value_or(0) < kHugePageBytes) return;
    ::madvise(writable, length, MADV_DONTNEED);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    populate(data, length);
}

// A read-only mapping of a whole file (and the file, open, for pread), at
// a 2 MiB-aligned address; with sharedTables(), advised MADV_HUGEPAGE and
// kept in 2 MiB folios of the page cache where the kernel can (note [huge
// page cache]).
struct MappedFile {
    static constexpr int kSharedWaitMs = 60000;
    const char* data = nullptr;
    size_t length = 0;
    int fd = -1;
    MappedFile() = default;
    MappedFile(int file, size_t len) {
        data = mapped_file_detail::mapAligned(file, len, sharedTables());
        if (!data) return;
        length = len;
        fd = ::dup(file);
        if (fd < 0) return;
        // A shared lock while mapped: `pzc cache prune` skips locked files
        // (note [cache metadata] in compiler/driver/cache.hpp). An exclusive
        // lock is held only for an unlink or a probe: waited for a little;
        // or, by a process sharing its tables, while it reads the file into
        // 2 MiB pages: another sharing one waits for that (its check then
        // finds them), up to kSharedWaitMs.
        const bool shared = sharedTables();
        const bool alone = shared && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
        for (int i = 0; !alone && i < (shared ? kSharedWaitMs : 100) && ::flock(fd, LOCK_SH | LOCK_NB) != 0 &&
                        errno == EWOULDBLOCK;
             ++i)
            ::usleep(1000);
        if (!shared) return;
        keepInHugePages(fd, data, length);
        if (alone) ::flock(fd, LOCK_SH);  // from the exclusive lock: others may map it now
    }
    MappedFile(MappedFile&& o) noexcept : data(o.data), length(o.length), fd(o.fd) {
        o.data = nullptr;
        o.fd = -1;
    }
    MappedFile& operator=(MappedFile&& o) noexcept {
        std::swap(data, o.data);
        std::swap(length, o.length);
        std::swap(fd, o.fd);
        return *this;
    }
    ~MappedFile() {
        if (data) ::munmap(const_cast<char*>(data), length);
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace pz
