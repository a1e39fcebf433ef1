// Pruning-table files (runtime/include/pz/tables/prune.hpp, note [table integrity]):
// a table is saved, mapped back with the same values, and every kind of
// damage the per-load checks promise to catch is caught; damage in a data
// block outside the fixed sample is caught by --verify-tables and, over
// loads, by the random sample. Also: temporary files of dead writers are
// removed, a save leaves no temporary file (and reads it back without
// mapping it: no second copy in memory), and the memory budget is enforced
// before anything is allocated or mapped.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "pz/tables/prune.hpp"
#include "pz/tables/table_blob.hpp"

namespace {

// A synthetic puzzle: the coordinate is a position on a cycle of kSize
// cells, moves step by +-1 and +-7. Big enough (4 MiB of table, 64 blocks)
// that loads sample blocks rather than check them all.
struct Cycle {
    struct State {
        uint64_t w[1];
        bool operator==(const State&) const = default;
    };
    static constexpr const char* kName = "cycle";
    static constexpr int kMoves = 4;
    static constexpr bool kInverseLookups = true;
    static constexpr int64_t kStep[kMoves] = {1, -1, 7, -7};
    static State solved() { return State{{0}}; }
    static State applyMove(State s, int m);
    static State applyInverseMove(State s, int m) { return applyMove(s, m ^ 1); }
};
struct CyclePattern {
    static constexpr const char* kName = "all";
    static constexpr const char* kHash = "0123456789abcdef";
    static constexpr uint64_t kSize = uint64_t{1} << 23;
    static uint64_t rank(const Cycle::State& s) { return s.w[0]; }
    static Cycle::State unrank(uint64_t i) { return Cycle::State{{i}}; }
};
Cycle::State Cycle::applyMove(State s, int m) {
    return State{{static_cast<uint64_t>(static_cast<int64_t>(s.w[0] + CyclePattern::kSize) + kStep[m]) % CyclePattern::kSize}};
}

using Table = pz::PruneTable<Cycle, CyclePattern>;
constexpr uint64_t kBlocks = CyclePattern::kSize / 2 / pz::kTableBlockBytes;  // 4 bits per entry

struct TempDir {
    std::string path;
    TempDir() {
        char d[] = "/tmp/pz-prune-testXXXXXX";
        REQUIRE(mkdtemp(d));
        path = d;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

void pokeByte(const std::string& path, uint64_t offset, char value) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put(value);
}
char peekByte(const std::string& path, uint64_t offset) {
    std::ifstream f(path, std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    return static_cast<char>(f.get());
}
void flipByte(const std::string& path, uint64_t offset) { pokeByte(path, offset, static_cast<char>(peekByte(path, offset) ^ 0x10)); }

std::string loadWhy(const std::string& path) {
    Table t;
    std::string why;
    return t.load(path, why) ? "ok" : why;
}

struct Fixture {
    TempDir dir;
    Table built;
    std::string path;
    Fixture() {
        built.loadOrBuild(dir.path, 1);
        REQUIRE(!built.loadedFromCache());
        path = dir.path + "/" + Table::fileName();
    }
    uint64_t dataByte(uint64_t block, uint64_t at) const { return pz::kTablePage + block * pz::kTableBlockBytes + at; }
};

}  // namespace

TEST_CASE("a saved table is mapped back with the same values", "[prune]") {
    Fixture f;
    REQUIRE(std::filesystem::file_size(f.path) == pz::kTablePage + CyclePattern::kSize / 2 + kBlocks * 8);
    Table t;
    t.loadOrBuild(f.dir.path, 1);
    REQUIRE(t.loadedFromCache());
    REQUIRE(t.mapped());
    REQUIRE(t.depthCount() == f.built.depthCount());
    REQUIRE(t.depthCount()[1] == 4);
    for (uint64_t i = 0; i < CyclePattern::kSize; i += 997) REQUIRE(t.get(i) == f.built.get(i));
    REQUIRE(t.get(0) == 0);
    REQUIRE(t.get(8) == 2);  // 7 + 1
    // Nothing but the table and its use sidecar (note [cache metadata] in
    // compiler/driver/cache.hpp) in the directory: no temporary file is left.
    int files = 0;
    for (auto it = std::filesystem::directory_iterator(f.dir.path); it != std::filesystem::directory_iterator(); ++it) ++files;
    REQUIRE(files == 2);
    REQUIRE(std::filesystem::exists(f.path + ".used"));
}

TEST_CASE("every load rejects damaged headers, sizes and sampled blocks", "[prune]") {
    Fixture f;
    const std::string& p = f.path;
    auto restoreAfter = [&](auto damage, const std::string& want) {
        std::string copy = p + ".orig";
        std::filesystem::copy_file(p, copy);
        damage();
        CHECK(loadWhy(p) == want);
        std::filesystem::rename(copy, p);
        REQUIRE(loadWhy(p) == "ok");
    };
    REQUIRE(loadWhy(p) == "ok");
    // Data: the first, the last and evenly spread blocks are checked on every load.
    restoreAfter([&] { flipByte(p, f.dataByte(0, 100)); }, "checksum mismatch (data block 0 of 64)");
    restoreAfter([&] { flipByte(p, f.dataByte(63, pz::kTableBlockBytes - 1)); }, "checksum mismatch (data block 63 of 64)");
    restoreAfter([&] { flipByte(p, f.dataByte(21, 5000)); }, "checksum mismatch (data block 21 of 64)");
    restoreAfter([&] { flipByte(p, f.dataByte(42, 0)); }, "checksum mismatch (data block 42 of 64)");
    // The block hashes themselves.
    restoreAfter([&] { flipByte(p, pz::kTablePage + CyclePattern::kSize / 2 + 17); }, "checksum mismatch (block hashes)");
    // The header: every byte of the page counts.
    restoreAfter([&] { flipByte(p, 300); }, "header checksum mismatch");
    restoreAfter([&] { flipByte(p, pz::kTablePage - 1); }, "header checksum mismatch");
    restoreAfter([&] { flipByte(p, offsetof(pz::TableFileHeader, depthCount) + 8 * 3); }, "header checksum mismatch");
    restoreAfter([&] { flipByte(p, offsetof(pz::TableFileHeader, hashesChecksum)); }, "header checksum mismatch");
    restoreAfter([&] { flipByte(p, offsetof(pz::TableFileHeader, headerChecksum)); }, "header checksum mismatch");
    restoreAfter([&] { flipByte(p, 0); }, "not a pzc table file");
    restoreAfter([&] { pokeByte(p, offsetof(pz::TableFileHeader, version), 1); }, "format version 1");
    restoreAfter([&] { pokeByte(p, offsetof(pz::TableFileHeader, bitsPerEntry), 2); }, "wrong size");
    restoreAfter([&] { flipByte(p, offsetof(pz::TableFileHeader, entries)); }, "wrong size");
    restoreAfter([&] { pokeByte(p, offsetof(pz::TableFileHeader, definitionHash), 'X'); },
                 "stale: built for another definition");
    // Sizes.
    auto resize = [&](uint64_t n) { std::filesystem::resize_file(p, n); };
    uint64_t full = std::filesystem::file_size(p);
    restoreAfter([&] { resize(full - 1); }, "truncated data");
    restoreAfter([&] { resize(full - 8 * kBlocks); }, "truncated data");
    restoreAfter([&] { resize(full + 4096); }, "trailing bytes after the data");
    restoreAfter([&] { resize(100); }, "truncated header");
    restoreAfter([&] { resize(0); }, "truncated header");
    restoreAfter([&] { std::filesystem::remove(p); }, "cannot open: No such file or directory");
}

TEST_CASE("damage in an unsampled block: --verify-tables finds it, and so do repeated loads", "[prune]") {
    Fixture f;
    // Block 1 is not among the spread blocks (0, 4, 8, ... 63 for 16 of 64).
    flipByte(f.path, f.dataByte(1, 12345));
    pz::tableVerification() = pz::TableVerification::Full;
    CHECK(loadWhy(f.path) == "checksum mismatch (data block 1 of 64)");
    pz::tableVerification() = pz::TableVerification::Sampled;
    // 16 random blocks of 64 per load: missed by one load with probability
    // (63/64)^16 = 0.78, by 200 loads with probability 1e-22.
    int detected = 0;
    for (int i = 0; i < 200; ++i) detected += loadWhy(f.path) == "checksum mismatch (data block 1 of 64)";
    CHECK(detected > 0);
    CHECK(detected < 200);
    // With full verification, loadOrBuild reports, rebuilds and replaces the file.
    pz::tableVerification() = pz::TableVerification::Full;
    Table t;
    t.loadOrBuild(f.dir.path, 1);
    REQUIRE(!t.loadedFromCache());
    CHECK(loadWhy(f.path) == "ok");
    pz::tableVerification() = pz::TableVerification::Sampled;
}

TEST_CASE("temporary files of dead writers are removed, those of live ones kept", "[prune]") {
    Fixture f;
    pid_t child = fork();
    if (child == 0) _exit(0);
    REQUIRE(child > 0);
    waitpid(child, nullptr, 0);  // now a dead pid
    std::string dead = f.path + ".tmp." + std::to_string(child);
    std::string live = f.path + ".tmp." + std::to_string(getpid());
    std::string other = f.dir.path + "/notes.tmp.1";
    for (const auto& name : {dead, live, other}) std::ofstream(name) << "partial";
    Table t;
    t.loadOrBuild(f.dir.path, 1);
    REQUIRE(t.loadedFromCache());
    CHECK(!std::filesystem::exists(dead));
    CHECK(std::filesystem::exists(live));
    CHECK(std::filesystem::exists(other));
    // A save over a leftover of our own pid still works and leaves nothing behind.
    std::string why;
    REQUIRE(f.built.save(f.path, why));
    CHECK(!std::filesystem::exists(live));
    CHECK(loadWhy(f.path) == "ok");
}

TEST_CASE("a table larger than the memory budget is refused before allocation", "[prune]") {
    Fixture f;
    uint64_t saved = pz::memoryBudget();
    pz::memoryBudget() = CyclePattern::kSize / 4;  // half the table
    Table t;
    CHECK_THROWS_WITH(t.build(1), "the pruning table cycle/all needs 4.0 MiB, more than the memory budget of 2.0 MiB");
    std::string why;
    CHECK_THROWS_AS(t.load(f.path, why), pz::MemoryBudgetError);
    pz::memoryBudget() = saved;
    CHECK(t.load(f.path, why));
}

TEST_CASE("memory sizes parse with binary suffixes and reject junk", "[prune]") {
    CHECK(pz::parseMemorySize("2G") == uint64_t{2} << 30);
    CHECK(pz::parseMemorySize("512M") == uint64_t{512} << 20);
    CHECK(pz::parseMemorySize("1.5GiB") == uint64_t{3} << 29);
    CHECK(pz::parseMemorySize("4096") == 4096u);
    CHECK(pz::parseMemorySize("64KB") == 65536u);
    CHECK(pz::parseMemorySize("1T") == uint64_t{1} << 40);
    for (const char* bad : {"", "G", "-1G", "2X", "2GG", "abc", "1e30", "nan", "inf", " 2G", "2 G"})
        CHECK(!pz::parseMemorySize(bad));
    CHECK(pz::formatBytes(uint64_t{11811160064}) == "11.0 GiB");
    CHECK(pz::formatBytes(100) == "100 bytes");
    CHECK(pz::defaultMemoryBudget() > 0);
}

TEST_CASE("a mapped table made resident keeps its values and checks every block", "[prune]") {
    Fixture f;
    Table t;
    std::string why;
    REQUIRE(t.load(f.path, why));
    REQUIRE(t.mapped());
    REQUIRE(t.makeResident(why));
    REQUIRE(!t.mapped());
    for (uint64_t i = 0; i < CyclePattern::kSize; i += 991) REQUIRE(t.get(i) == f.built.get(i));
    // Damage the file after a load: the copy finds it, whichever block.
    Table u;
    REQUIRE(u.load(f.path, why));
    flipByte(f.path, f.dataByte(1, 7));
    CHECK(!u.makeResident(why));
    CHECK(why == "checksum mismatch (data block 1 of 64)");
    CHECK(u.mapped());
    // loadOrBuild(resident) rebuilds a table whose unsampled block is bad.
    Table v;
    v.loadOrBuild(f.dir.path, 1, /*resident=*/true);
    CHECK(!v.loadedFromCache());
    CHECK(!v.mapped());
    CHECK(v.get(8) == 2);
}

TEST_CASE("a big blob made resident by several threads: same bytes, the lowest bad block named", "[prune]") {
    // 80 MiB: past readResident's 64 MiB, so the CPUs share the copy.
    TempDir dir;
    const std::string path = dir.path + "/big.pzt";
    const uint64_t words = (uint64_t{80} << 20) / 8, blocks = (words * 8) / pz::kTableBlockBytes;
    std::vector<uint64_t> data(words);
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (auto& w : data) w = (x ^= x << 13, x ^= x >> 7, x ^= x << 17);
    std::string why;
    REQUIRE(pz::saveTableBlob(path, "big", data.data(), words * 8, why));
    {
        pz::MappedFile m;
        uint64_t bytes = 0;
        REQUIRE(pz::loadTableBlob(path, "big", m, bytes, why));
        REQUIRE(bytes == words * 8);
        // The key covers the definition and the blob's layout version (a
        // coset table's "-p4"): another key is stale, and says both.
        REQUIRE(!pz::loadTableBlob(path, "big-p3", m, bytes, why));
        CHECK(why == "stale: built for another definition or an older layout of its table");
    }
    // Mapped directly (a load's random sample could meet the damage below).
    auto resident = [&](pz::HugeBuffer& out, pz::ResidentCopyOptions how = {}) {
        const int fd = ::open(path.c_str(), O_RDONLY);
        REQUIRE(fd >= 0);
        pz::MappedFile m(fd, static_cast<size_t>(std::filesystem::file_size(path)));
        ::close(fd);
        REQUIRE(m.data);
        return pz::readResident(pz::residentSourceOf(m, words * 8), out, why, how);
    };
    pz::HugeBuffer copy;
    REQUIRE(resident(copy));
    CHECK(std::memcmp(copy.data, data.data(), words * 8) == 0);
    // One reader (a background copy beside a search): the same bytes.
    pz::HugeBuffer single;
    REQUIRE(resident(single, {1, nullptr}));
    CHECK(std::memcmp(single.data, data.data(), words * 8) == 0);
    // A cancelled copy fails and hands nothing out.
    std::atomic<bool> cancel{true};
    pz::HugeBuffer cancelled;
    CHECK(!resident(cancelled, {1, &cancel}));
    CHECK(why == "cancelled");
    CHECK(cancelled.data == nullptr);
    // Two bad blocks far apart (unsampled by the load): the lower is named.
    const uint64_t low = blocks / 2 + 3, high = blocks - 5;
    flipByte(path, pz::kTablePage + high * pz::kTableBlockBytes + 100);
    flipByte(path, pz::kTablePage + low * pz::kTableBlockBytes + 9);
    for (int run = 0; run < 3; ++run) {
        pz::HugeBuffer bad;
        CHECK(!resident(bad));
        CHECK(why == "checksum mismatch (data block " + std::to_string(low) + " of " + std::to_string(blocks) + ")");
        CHECK(bad.data == nullptr);
    }
}

namespace {
// A field of /proc/self/status in KiB (0 when absent).
uint64_t statusKiB(const std::string& field) {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind(field, 0) == 0) return std::stoull(line.substr(field.size()));
    return 0;
}
}  // namespace

TEST_CASE("a save reads the written file back without mapping it", "[prune]") {
    // The read-back once mapped the whole file: a table's pages counted twice
    // in the process's memory while it was written (rotate4o's 3.4 GiB diag7
    // peaked at 7.2 GB). The peak (VmHWM) is reset just before the save.
    TempDir dir;
    const uint64_t words = (uint64_t{96} << 20) / 8;
    std::vector<uint64_t> data(words);
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (auto& w : data) w = (x ^= x << 13, x ^= x >> 7, x ^= x << 17);
    {
        std::ofstream reset("/proc/self/clear_refs");
        reset << "5";
        if (!reset.flush()) {
            WARN("cannot reset the peak resident size here (/proc/self/clear_refs); not checked");
            return;
        }
    }
    const uint64_t before = statusKiB("VmRSS:");
    if (statusKiB("VmHWM:") >= before + (uint64_t{8} << 10)) {  // a kernel before 4.0 ignores the reset
        WARN("the peak resident size did not reset here; not checked");
        return;
    }
    std::string why;
    REQUIRE(pz::saveTableBlob(dir.path + "/big.pzt", "big", data.data(), words * 8, why));
    const uint64_t peak = statusKiB("VmHWM:");
    // The hashes and a 1 MiB chunk, not 96 MiB of mapped file.
    CHECK(peak < before + (uint64_t{16} << 10));
}

TEST_CASE("a table written a piece at a time is the same file as one written whole", "[prune]") {
    // TableFileWriter (note [streamed tables] in pz/enumerate/enumerate_main.hpp):
    // pieces that end inside a 64 KiB block and start at odd addresses
    // hash the blocks as the whole-table save does, and the header comes last.
    Fixture f;
    std::ifstream in(f.path, std::ios::binary);
    std::vector<char> whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const uint64_t dataBytes = CyclePattern::kSize / 2;
    REQUIRE(whole.size() == pz::kTablePage + dataBytes + kBlocks * 8);
    std::vector<char> shifted(dataBytes + 1);  // the data one byte off alignment
    std::memcpy(shifted.data() + 1, whole.data() + pz::kTablePage, dataBytes);
    const std::array<uint64_t, 16> counts = f.built.depthCount();
    TempDir other;
    const std::string path = other.path + "/" + Table::fileName();
    pz::TableFileWriter out;
    std::string why;
    REQUIRE(out.open(path, why));
    const uint64_t pieces[] = {1000, 70000, pz::kTableBlockBytes, 3 * pz::kTableBlockBytes + 8, 24};
    uint64_t at = 0;
    for (int k = 0; at < dataBytes; k = (k + 1) % 5) {
        const uint64_t n = std::min(pieces[k], dataBytes - at);
        REQUIRE(out.append(shifted.data() + 1 + at, n, why));
        at += n;
    }
    REQUIRE(out.bytes() == dataBytes);
    REQUIRE(out.finish([&](const std::vector<uint64_t>& hashes) { return Table::headerPage(counts, hashes); }, why));
    std::ifstream back(path, std::ios::binary);
    std::vector<char> streamed((std::istreambuf_iterator<char>(back)), std::istreambuf_iterator<char>());
    REQUIRE(streamed == whole);
    REQUIRE(loadWhy(path) == "ok");
    // A writer dropped before finish() leaves no file and no temporary.
    {
        pz::TableFileWriter dropped;
        REQUIRE(dropped.open(other.path + "/dropped.pzt", why));
        REQUIRE(dropped.append(whole.data() + pz::kTablePage, 4096, why));
    }
    int files = 0;
    for (auto it = std::filesystem::directory_iterator(other.path); it != std::filesystem::directory_iterator(); ++it) ++files;
    REQUIRE(files == 1);  // the table alone
}
