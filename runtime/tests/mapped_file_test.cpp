// pz::MappedFile (pz/tables/mapped_file.hpp, note [huge page cache]): a file
// maps at a 2 MiB-aligned address and reads as written; with sharedTables(),
// a file the page cache holds in small folios ends up mapped in 2 MiB pages
// where the kernel can (on kernels and file systems with large folios: this
// machine's 6.18 and ext4; elsewhere the test says it could not look), and
// the mapping holds a shared lock that a process sharing its tables first
// holds exclusively while it reads the file again.
#include "pz/tables/mapped_file.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace {

constexpr size_t kMiB = size_t{1} << 20;

// A file of `bytes` whose 8-byte words are their own index, written and
// synced (its pages clean, so the cache may drop them); its path.
std::string writeFile(const std::string& name, size_t bytes) {
    const std::string path = (std::filesystem::temp_directory_path() / (name + "." + std::to_string(::getpid()))).string();
    std::vector<uint64_t> words(bytes / 8);
    for (size_t i = 0; i < words.size(); ++i) words[i] = i;
    const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, words.data(), bytes) == static_cast<ssize_t>(bytes));
    REQUIRE(::fsync(fd) == 0);
    ::close(fd);
    return path;
}

bool readsAsWritten(const pz::MappedFile& m) {
    const auto* words = reinterpret_cast<const uint64_t*>(m.data);
    for (size_t i = 0; i < m.length / 8; i += 4093)
        if (words[i] != i) return false;
    return words[m.length / 8 - 1] == m.length / 8 - 1;
}

// The file's cache dropped, then read in 64 KiB pieces 1 MiB apart and the
// rest through a 4 KiB-page mapping: small folios, as a one-shot solve's
// sampled checks and faults leave them.
void cacheInSmallFolios(int fd, size_t bytes) {
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    std::vector<char> piece(64 << 10);
    for (size_t at = 0; at + piece.size() <= bytes; at += kMiB) REQUIRE(::pread(fd, piece.data(), piece.size(), at) > 0);
    void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
    REQUIRE(p != MAP_FAILED);
    ::madvise(p, bytes, MADV_NOHUGEPAGE);
    volatile char sink = 0;
    for (size_t i = 0; i < bytes; i += 4096) sink = sink + static_cast<const char*>(p)[i];
    ::munmap(p, bytes);
}

}  // namespace

TEST_CASE("MappedFile: 2 MiB-aligned, reads as written", "[mapped_file]") {
    for (size_t bytes : {size_t{64} << 10, 5 * kMiB + 4096}) {
        const std::string path = writeFile("pz-mapped-file-test", bytes);
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        REQUIRE(fd >= 0);
        {
            pz::MappedFile m(fd, bytes);
            REQUIRE(m.data != nullptr);
            CHECK(m.length == bytes);
            if (bytes >= pz::kHugePageBytes) CHECK(reinterpret_cast<uintptr_t>(m.data) % pz::kHugePageBytes == 0);
            CHECK(readsAsWritten(m));
            // Its shared lock: an exclusive one elsewhere fails.
            const int other = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            CHECK(::flock(other, LOCK_EX | LOCK_NB) != 0);
            CHECK(::flock(other, LOCK_SH | LOCK_NB) == 0);
            ::close(other);
        }
        ::close(fd);
        ::unlink(path.c_str());
    }
}

TEST_CASE("MappedFile: shared tables end up in 2 MiB pages where the kernel can", "[mapped_file]") {
    const size_t bytes = 24 * kMiB + 4096;  // as a table file: not a whole number of huge pages
    const std::string path = writeFile("pz-mapped-file-huge", bytes);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    cacheInSmallFolios(fd, bytes);
    std::optional<uint64_t> before;
    {
        pz::MappedFile plain(fd, bytes);  // not shared: the cache as it is
        REQUIRE(plain.data != nullptr);
        pz::mapped_file_detail::populate(plain.data, bytes);
        before = pz::hugeMappedBytes(plain.data);
        CHECK(readsAsWritten(plain));
    }
    pz::sharedTables() = true;
    {
        pz::MappedFile shared(fd, bytes);
        REQUIRE(shared.data != nullptr);
        CHECK(readsAsWritten(shared));
        pz::mapped_file_detail::populate(shared.data, bytes);
        const std::optional<uint64_t> after = pz::hugeMappedBytes(shared.data);
        // The same kernel, asked directly: does the file come back in 2 MiB
        // folios once dropped and read through an advised mapping?
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);  // drops what `shared` does not map: nothing
        if (!before || !after) {
            WARN("this kernel's smaps has no FilePmdMapped: nothing to check");
        } else if (*before >= 8 * pz::kHugePageBytes) {
            WARN("the small reads left 2 MiB folios here (" << *before << " bytes): nothing to check");
        } else if (*after == 0) {
            // Not even the trial stretch came back in a 2 MiB page: check
            // that the kernel indeed cannot, with a fresh file.
            const std::string fresh = writeFile("pz-mapped-file-fresh", 8 * kMiB);
            const int f = ::open(fresh.c_str(), O_RDONLY | O_CLOEXEC);
            ::posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED);
            const char* probe = pz::mapped_file_detail::mapAligned(f, 8 * kMiB, true);
            REQUIRE(probe != nullptr);
            pz::mapped_file_detail::populate(probe, 8 * kMiB);
            CHECK(pz::hugeMappedBytes(probe).value_or(0) == 0);
            ::munmap(const_cast<char*>(probe), 8 * kMiB);
            ::close(f);
            ::unlink(fresh.c_str());
            WARN("this kernel or file system keeps no file in 2 MiB folios: nothing more to check");
        } else {
            // Every whole 2 MiB stretch but the last (the file's tail) in a 2 MiB page.
            CHECK(*after >= (bytes / pz::kHugePageBytes - 1) * pz::kHugePageBytes);
            CHECK(*after > *before);
        }
    }
    pz::sharedTables() = false;
    ::close(fd);
    ::unlink(path.c_str());
}
