// The n-puzzle engine (pz/blocks/tiles.hpp): the 8-puzzle's whole state
// space by BFS (181,440 states, max 31 with 2 positions) as the oracle for
// IDA* with every kind of heuristic and for the admissibility of the
// heuristics on every state; a small 15-puzzle partition (5-5-5 +
// reflection) on Korf's instances; the 4-bit entries against the one-byte
// databases, entry by entry and h by h; the table cache (a corrupt or
// byte-format file is reported and rebuilt); the memory budget; parsing and
// parity.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "pz/blocks/tiles.hpp"
#include "pz/blocks/tiles_main.hpp"
#include "tiles_fixtures.hpp"

using namespace pz::blocks;
using namespace tiles_fixtures;

namespace {

using Eight = ManhattanOnly<3, 3, false>;
using EightLc = ManhattanOnly<3, 3, true>;

uint32_t rank9(const Cells<Eight>& c) {
    uint32_t r = 0;
    for (int i = 0; i < 9; ++i) {
        int smaller = 0;
        for (int j = i + 1; j < 9; ++j) smaller += c[j] < c[i];
        r = r * static_cast<uint32_t>(9 - i) + static_cast<uint32_t>(smaller);
    }
    return r;
}

// Distances of every 8-puzzle state from the goal (by Lehmer rank; -1 unreachable).
const std::vector<int8_t>& eightDistances() {
    static const std::vector<int8_t> dist = [] {
        std::vector<int8_t> d(362880, -1);
        std::vector<Cells<Eight>> frontier{goalCells<Eight>()}, next;
        d[rank9(frontier[0])] = 0;
        for (int depth = 0; !frontier.empty(); ++depth) {
            next.clear();
            for (const auto& s : frontier)
                for (int m = 0; m < 4; ++m) {
                    Cells<Eight> c = s;
                    if (!moveBlank<Eight>(c, m)) continue;
                    int8_t& x = d[rank9(c)];
                    if (x < 0) x = static_cast<int8_t>(depth + 1), next.push_back(c);
                }
            std::swap(frontier, next);
        }
        return d;
    }();
    return dist;
}

template <class T>
std::vector<Cells<T>> allEightStates() {
    std::vector<Cells<T>> out;
    Cells<T> c = goalCells<T>();
    std::sort(c.begin(), c.end());
    do {
        if (solvable<T>(c)) out.push_back(c);
    } while (std::next_permutation(c.begin(), c.end()));
    return out;
}

std::string tempDir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("pz-tiles-test-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

template <class T>
void checkIdaMatchesBfs(const TileTables<T>* tables) {
    TileSolver<T> solver(tables);
    std::mt19937_64 rng(12345);
    const auto& dist = eightDistances();
    for (int i = 0; i < 300; ++i) {
        const Cells<T> s = randomCells<T>(rng);
        Cells<Eight> e;
        std::copy(s.begin(), s.end(), e.begin());
        const auto r = solver.solve(s);
        REQUIRE(r.solved);
        REQUIRE(static_cast<int>(r.moves.size()) == dist[rank9(e)]);
        REQUIRE(replaySolves<T>(s, r.moves));
    }
}

template <class T>
void checkAdmissibleEverywhere(const TileTables<T>* tables) {
    TileSolver<T> solver(tables);
    const auto& dist = eightDistances();
    int exact = 0;
    for (const auto& s : allEightStates<T>()) {
        Cells<Eight> e;
        std::copy(s.begin(), s.end(), e.begin());
        const int d = dist[rank9(e)];
        const int h = solver.heuristic(s);
        REQUIRE(h <= d);
        REQUIRE((h & 1) == (d & 1));  // every part of h keeps the parity of its tiles' moves
        exact += h == d;
    }
    REQUIRE(exact > 0);
}

}  // namespace

TEST_CASE("tiles: 8-puzzle BFS from the goal reaches 181,440 states, max distance 31 at 2 positions") {
    const auto& dist = eightDistances();
    long reached = 0, atMax = 0, sum = 0;
    int most = 0;
    for (int8_t d : dist)
        if (d >= 0) ++reached, sum += d, most = std::max<int>(most, d);
    for (int8_t d : dist) atMax += d == most;
    REQUIRE(reached == 181440);
    REQUIRE(most == 31);
    REQUIRE(atMax == 2);
    REQUIRE(std::abs(double(sum) / double(reached) - 21.97) < 0.01);
}

TEST_CASE("tiles: solvability is the parity rule (exactly the BFS-reachable half)") {
    const auto& dist = eightDistances();
    Cells<Eight> c = goalCells<Eight>();
    long solvableCount = 0;
    do {
        const bool s = solvable<Eight>(c);
        REQUIRE(s == (dist[rank9(c)] >= 0));
        solvableCount += s;
    } while (std::next_permutation(c.begin(), c.end()));
    REQUIRE(solvableCount == 181440);
}

TEST_CASE("tiles: IDA* with Manhattan equals the BFS distance on 300 random 8-puzzle states") {
    checkIdaMatchesBfs<Eight>(nullptr);
}

TEST_CASE("tiles: IDA* with Manhattan + linear conflicts equals the BFS distance on 300 random 8-puzzle states") {
    checkIdaMatchesBfs<EightLc>(nullptr);
}

TEST_CASE("tiles: IDA* with 1-4/5-8 tables + reflection equals the BFS distance on 300 random 8-puzzle states") {
    TileTables<EightPdb> tables;
    tables.loadOrBuild("", 2);
    checkIdaMatchesBfs<EightPdb>(&tables);
}

TEST_CASE("tiles: IDA* with 1-3/4-6 tables + Manhattan/conflicts of 7, 8 + reflection equals the BFS distance") {
    TileTables<EightMixed> tables;
    tables.loadOrBuild("", 2);
    checkIdaMatchesBfs<EightMixed>(&tables);
}

TEST_CASE("tiles: every heuristic is at most the BFS distance on all 181,440 8-puzzle states") {
    checkAdmissibleEverywhere<Eight>(nullptr);
    checkAdmissibleEverywhere<EightLc>(nullptr);
    TileTables<EightPdb> a;
    a.loadOrBuild("", 2);
    checkAdmissibleEverywhere<EightPdb>(&a);
    TileTables<EightMixed> b;
    b.loadOrBuild("", 1);
    checkAdmissibleEverywhere<EightMixed>(&b);
}

namespace {
// Korf's instances 1..10 (Korf 1985): optimal length, then the 16 cells.
struct KorfInstance {
    int id, length;
    const char* cells;
};
constexpr KorfInstance kKorf[] = {
    {1, 57, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"},  {2, 55, "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6"},
    {3, 59, "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15"},  {4, 56, "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6"},
    {5, 56, "4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0"},  {6, 52, "14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13"},
    {7, 52, "2 11 15 5 13 4 6 7 12 8 10 1 9 3 14 0"},  {8, 50, "12 11 15 3 8 0 4 2 6 13 9 5 14 1 10 7"},
    {9, 46, "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0"},  {10, 59, "13 11 8 9 0 15 7 10 4 3 6 14 5 12 2 1"},
};
}  // namespace

TEST_CASE("tiles: 15-puzzle with 5-5-5 tables + reflection solves Korf's instances 1..10 to their published lengths") {
    const std::string dir = tempDir("555");
    TileTables<Fifteen555> tables;
    tables.loadOrBuild(dir, 2);
    REQUIRE_FALSE(tables.loadedFromCache());
    REQUIRE(tables.bytes() == 64 + 3 * 262080);  // the directory + 16!/11! nibbles each (a multiple of 64)
    for (int p = 0; p < 3; ++p) REQUIRE(tables.bitsPerEntry(p) == 4);
    // Pattern 1-5's distribution: one goal placement, the rest reachable.
    const auto counts = tables.depthCounts(0);
    REQUIRE(counts[0] == 1);
    uint64_t total = 0;
    for (auto c : counts) total += c;
    REQUIRE(total == 524160);
    TileSolver<Fifteen555> solver(&tables);
    uint64_t nodes = 0;
    for (const auto& k : kKorf) {
        Cells<Fifteen555> s;
        std::string why;
        REQUIRE(parseCells<Fifteen555>(k.cells, s, why));
        const auto r = solver.solve(s);
        INFO("Korf #" << k.id << ": " << r.nodes << " nodes, " << r.seconds << " s");
        REQUIRE(r.solved);
        REQUIRE(static_cast<int>(r.moves.size()) == k.length);
        REQUIRE(replaySolves<Fifteen555>(s, r.moves));
        nodes += r.nodes;
    }
    WARN("5-5-5 + reflection, Korf 1..10: " << nodes << " nodes");
    // A second solver process would load the file: so does a second table object.
    TileTables<Fifteen555> again;
    again.loadOrBuild(dir, 2);
    REQUIRE(again.loadedFromCache());
    REQUIRE(again.bytes() == tables.bytes());
    REQUIRE(std::memcmp(again.data(), tables.data(), tables.bytes()) == 0);
    std::filesystem::remove_all(dir);
}

namespace {
// Every entry of every pattern decodes to the one-byte database's value
// (TileTables::byteTable, the builder writing plain values); the number of
// entries that differ.
template <class T>
uint64_t entriesDifferingFromBytes(const TileTables<T>& tables) {
    uint64_t differ = 0;
    for (int p = 0; p < T::kPatterns; ++p) {
        const std::vector<uint8_t> bytes = TileTables<T>::byteTable(p, 2);
        REQUIRE(bytes.size() == Board<T>::patterns[p].entries);
        TileTables<T>::forEachPlacement(p, [&](uint64_t i, unsigned md) {
            differ += md + 2 * tables.halfExcess(p, i) != bytes[i];
        });
        // value() (unranking) agrees with the enumeration.
        for (uint64_t i = 0; i < bytes.size(); i += 97) differ += tables.value(p, i) != bytes[i];
    }
    return differ;
}
// h from the one-byte databases: the patterns' values + Manhattan of the
// tiles in no pattern, the max with the reflected lookup (no conflicts).
template <class T>
struct ByteHeuristic {
    std::vector<uint8_t> bytes[T::kPatterns];
    ByteHeuristic() {
        for (int p = 0; p < T::kPatterns; ++p) bytes[p] = TileTables<T>::byteTable(p, 1);
    }
    int operator()(const Cells<T>& cells) const {
        static_assert(!T::kLinearConflicts);
        using B = Board<T>;
        uint8_t pos[B::N];
        for (int c = 0; c < B::N; ++c) pos[cells[c]] = static_cast<uint8_t>(c);
        int a = 0, b = 0;
        for (int t = 1; t < B::N; ++t) {
            if (T::kPatternOf[t] < 0) a += T::kManhattan[t][pos[t]];
            const int rt = T::kReflectTile[t];
            if (T::kPatternOf[rt] < 0) b += T::kManhattan[rt][T::kReflectCell[pos[t]]];
        }
        for (int p = 0; p < T::kPatterns; ++p) {
            a += bytes[p][B::patternIndex(p, pos)];
            b += bytes[p][B::reflectedPatternIndex(p, pos)];
        }
        return T::kReflection ? std::max(a, b) : a;
    }
};
}  // namespace

TEST_CASE("tiles: 4-bit entries (value - Manhattan) / 2 decode to the one-byte databases, entry by entry") {
    TileTables<EightPdb> a;
    a.loadOrBuild("", 2);
    TileTables<EightMixed> b;
    b.loadOrBuild("", 2);
    TileTables<EightPartial> c;
    c.loadOrBuild("", 1);
    TileTables<ElevenPdb> d;
    d.loadOrBuild("", 2);
    TileTables<Fifteen555> e;
    e.loadOrBuild("", 2);
    for (int p = 0; p < 2; ++p) {
        REQUIRE(a.bitsPerEntry(p) == 4);
        REQUIRE(b.bitsPerEntry(p) == 4);
        REQUIRE(c.bitsPerEntry(p) == 4);
        REQUIRE(d.bitsPerEntry(p) == 4);
    }
    REQUIRE(entriesDifferingFromBytes(a) == 0);
    REQUIRE(entriesDifferingFromBytes(b) == 0);
    REQUIRE(entriesDifferingFromBytes(c) == 0);
    REQUIRE(entriesDifferingFromBytes(d) == 0);
    REQUIRE(entriesDifferingFromBytes(e) == 0);  // 3 x 524,160 entries
    // The tables are half the bytes (the directory, each pattern from 64 bytes).
    REQUIRE(d.bytes() == 64 + (95040 / 2 + 63) / 64 * 64 + (11880 / 2 + 63) / 64 * 64);
}

TEST_CASE("tiles: h from 4-bit entries equals h from the one-byte databases on every 8-puzzle state and 20,000 11-puzzle states") {
    {
        TileTables<EightPdb> tables;
        tables.loadOrBuild("", 2);
        TileSolver<EightPdb> solver(&tables);
        const ByteHeuristic<EightPdb> ref;
        long differ = 0;
        for (const auto& s : allEightStates<EightPdb>()) differ += solver.heuristic(s) != ref(s);
        REQUIRE(differ == 0);
    }
    {
        TileTables<EightPartial> tables;
        tables.loadOrBuild("", 2);
        TileSolver<EightPartial> solver(&tables);
        const ByteHeuristic<EightPartial> ref;
        long differ = 0;
        for (const auto& s : allEightStates<EightPartial>()) differ += solver.heuristic(s) != ref(s);
        REQUIRE(differ == 0);
        checkAdmissibleEverywhere<EightPartial>(&tables);
    }
    {
        TileTables<ElevenPdb> tables;
        tables.loadOrBuild("", 2);
        TileSolver<ElevenPdb> solver(&tables);
        const ByteHeuristic<ElevenPdb> ref;
        std::mt19937_64 rng(5);
        long differ = 0;
        for (int i = 0; i < 20000; ++i) {
            const auto s = randomCells<ElevenPdb>(rng);
            differ += solver.heuristic(s) != ref(s);
        }
        REQUIRE(differ == 0);
    }
}

TEST_CASE("tiles: a pattern whose entries do not fit keeps a byte per entry, with the same values, h and file round trip") {
    // The largest (value - Manhattan) / 2 of each 11-puzzle pattern.
    TileTables<ElevenPdb> nibbles;
    nibbles.loadOrBuild("", 2);
    unsigned most[2] = {0, 0};
    for (int p = 0; p < 2; ++p)
        for (uint64_t i = 0; i < Board<ElevenPdb>::patterns[p].entries; ++i)
            most[p] = std::max(most[p], nibbles.halfExcess(p, i));
    INFO("largest entries " << most[0] << ", " << most[1]);
    REQUIRE(most[0] != most[1]);
    REQUIRE(most[0] <= 15);
    // A limit between the two: one pattern packed, the other in bytes.
    const unsigned limit = std::min(most[0], most[1]);
    const std::string dir = tempDir("wide");
    TileTables<ElevenPdb> mixed;
    mixed.setNibbleLimit(limit);
    mixed.loadOrBuild(dir, 2);
    REQUIRE_FALSE(mixed.loadedFromCache());
    const int wide = most[0] > limit ? 0 : 1;
    REQUIRE(mixed.bitsPerEntry(wide) == 8);
    REQUIRE(mixed.bitsPerEntry(1 - wide) == 4);
    REQUIRE(mixed.bytes() == 64 + TileTables<ElevenPdb>::patternBytes(wide, 8) + TileTables<ElevenPdb>::patternBytes(1 - wide, 4));
    REQUIRE(entriesDifferingFromBytes(mixed) == 0);
    // Every pattern in bytes.
    TileTables<ElevenPdb> bytes;
    bytes.setNibbleLimit(0);
    bytes.loadOrBuild("", 2);
    REQUIRE(bytes.bitsPerEntry(0) == 8);
    REQUIRE(bytes.bitsPerEntry(1) == 8);
    REQUIRE(entriesDifferingFromBytes(bytes) == 0);
    // Loaded from the file: its directory says which pattern is which.
    TileTables<ElevenPdb> loaded;
    loaded.loadOrBuild(dir, 2);
    REQUIRE(loaded.loadedFromCache());
    REQUIRE(loaded.bitsPerEntry(wide) == 8);
    REQUIRE(loaded.bytes() == mixed.bytes());
    REQUIRE(std::memcmp(loaded.data(), mixed.data(), mixed.bytes()) == 0);
    // The same h and the same searches whatever the format.
    TileSolver<ElevenPdb> a(&nibbles), b(&loaded), c(&bytes);
    std::mt19937_64 rng(11);
    for (int i = 0; i < 2000; ++i) {
        const auto s = randomCells<ElevenPdb>(rng);
        REQUIRE(a.heuristic(s) == b.heuristic(s));
        REQUIRE(a.heuristic(s) == c.heuristic(s));
        if (i < 20) {
            const auto ra = a.solve(s), rb = b.solve(s), rc = c.solve(s);
            REQUIRE(ra.solved);
            REQUIRE(ra.nodes == rb.nodes);
            REQUIRE(ra.nodes == rc.nodes);
            REQUIRE(ra.moves == rb.moves);
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("tiles: a corrupt or truncated table file is reported and rebuilt, never used") {
    const std::string dir = tempDir("corrupt");
    TileTables<EightPdb> built;
    built.loadOrBuild(dir, 2);
    REQUIRE_FALSE(built.loadedFromCache());
    const std::string path = dir + "/" + TileTables<EightPdb>::fileName();
    REQUIRE(std::filesystem::exists(path));
    const auto size = std::filesystem::file_size(path);
    {
        // One data byte changed (an entry lowered: still "plausible").
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(4096 + 1000);
        char b = 0;
        f.read(&b, 1);
        f.seekp(4096 + 1000);
        b = static_cast<char>(b ^ 1);
        f.write(&b, 1);
    }
    TileTables<EightPdb> second;
    second.loadOrBuild(dir, 2);
    REQUIRE_FALSE(second.loadedFromCache());
    REQUIRE(std::memcmp(second.data(), built.data(), built.bytes()) == 0);
    TileTables<EightPdb> third;
    third.loadOrBuild(dir, 2);
    REQUIRE(third.loadedFromCache());
    // Truncated.
    std::filesystem::resize_file(path, size - 100);
    TileTables<EightPdb> fourth;
    fourth.loadOrBuild(dir, 2);
    REQUIRE_FALSE(fourth.loadedFromCache());
    REQUIRE(std::filesystem::file_size(path) == size);
    // Another layout's file under this name (a stale key) is not used either.
    std::filesystem::copy_file(path, dir + "/tmp.pzt");
    TileTables<EightMixed> mixed;
    mixed.loadOrBuild(dir, 2);
    std::filesystem::rename(dir + "/" + TileTables<EightMixed>::fileName(), dir + "/mixed.pzt");
    std::filesystem::copy_file(path, dir + "/" + TileTables<EightMixed>::fileName());
    TileTables<EightMixed> mixed2;
    mixed2.loadOrBuild(dir, 2);
    REQUIRE_FALSE(mixed2.loadedFromCache());
    REQUIRE(std::memcmp(mixed2.data(), mixed.data(), mixed.bytes()) == 0);
    // A file of the byte format (key "tiles1-") under this name: refused, rebuilt.
    {
        const std::vector<uint64_t> old(9 * 8 * 7 * 6 / 8 * 2 + 16, 0x0101010101010101ULL);
        std::string why;
        REQUIRE(pz::saveTableBlob(path, "tiles1-" + TileTables<EightPdb>::layoutHash(), old.data(), old.size() * 8, why));
        TileTables<EightPdb> fifth;
        fifth.loadOrBuild(dir, 2);
        REQUIRE_FALSE(fifth.loadedFromCache());
        REQUIRE(std::memcmp(fifth.data(), built.data(), built.bytes()) == 0);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("tiles: tables over the memory budget are refused before allocating, naming both sizes") {
    const uint64_t saved = pz::memoryBudget();
    pz::memoryBudget() = 100000;  // the 7-8 tables need 275 MiB + 990 MiB of build work
    TileTables<Fifteen78> tables;
    try {
        tables.loadOrBuild("", 2);
        FAIL("no MemoryBudgetError");
    } catch (const pz::MemoryBudgetError& e) {
        const std::string m = e.what();
        INFO(m);
        REQUIRE(m.find("274.9 MiB of tables") != std::string::npos);
        REQUIRE(m.find("989.8 MiB of build work") != std::string::npos);
        REQUIRE(m.find("97.7 KiB") != std::string::npos);
    }
    pz::memoryBudget() = saved;
}

TEST_CASE("tiles: parsing, parity, scrambles and random states") {
    using F = Fifteen555;
    Cells<F> c;
    std::string why;
    REQUIRE(parseCells<F>("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", c, why));
    REQUIRE(c == goalCells<F>());
    REQUIRE(parseCells<F>("0,1,2,3, 4,5,6,7, 8,9,10,11, 12,13,14,15", c, why));
    REQUIRE_FALSE(parseCells<F>("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15", c, why));
    REQUIRE(why.find("unsolvable") != std::string::npos);
    REQUIRE_FALSE(parseCells<F>("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14", c, why));
    REQUIRE_FALSE(parseCells<F>("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 14", c, why));
    REQUIRE_FALSE(parseCells<F>("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 x", c, why));
    std::vector<int> moves;
    REQUIRE(parseDirections("D R U L", moves, why));
    REQUIRE(moves == std::vector<int>{1, 3, 0, 2});
    REQUIRE_FALSE(parseDirections("D X", moves, why));
    Cells<F> g = goalCells<F>();
    REQUIRE_FALSE(moveBlank<F>(g, 0));  // the blank is top-left: no U, no L
    REQUIRE_FALSE(moveBlank<F>(g, 2));
    REQUIRE(moveBlank<F>(g, 1));
    REQUIRE(g[0] == 4);
    std::mt19937_64 rng(7);
    int odd = 0;
    for (int i = 0; i < 1000; ++i) {
        const auto s = randomCells<F>(rng);
        REQUIRE(solvable<F>(s));
        odd += s[0] != 0;
    }
    REQUIRE(odd > 800);
}

namespace {
// Runs tilesMain<T> in a child process with `input` on stdin; its exit
// status, stdout and stderr.
struct MainRun {
    int status;
    std::string out, err;
};
template <class T>
MainRun runMain(std::vector<std::string> args, const std::string& input = "") {
    const std::string dir = tempDir("main-io");
    const std::string in = dir + "/in", out = dir + "/out", err = dir + "/err";
    std::ofstream(in) << input;
    std::cout.flush();  // else the child inherits (and writes) the parent's pending output
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(::open(in.c_str(), O_RDONLY), 0);
        ::dup2(::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 1);
        ::dup2(::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
        args.insert(args.begin(), "tiles");
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        const int rc = tilesMain<T>(static_cast<int>(args.size()), argv.data());
        std::fflush(stdout);
        std::cout.flush();
        ::_exit(rc);
    }
    int ws = 0;
    ::waitpid(pid, &ws, 0);
    auto slurp = [](const std::string& f) {
        std::ifstream i(f);
        std::stringstream ss;
        ss << i.rdbuf();
        return ss.str();
    };
    MainRun r{WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, slurp(out), slurp(err)};
    std::filesystem::remove_all(dir);
    return r;
}
}  // namespace

TEST_CASE("tiles: the solver main: --state, --scramble, --random, --json, --machine, errors and exit codes") {
    const std::string tables = tempDir("main-tables");
    const std::vector<std::string> base{"--table-dir", tables, "--threads", "2"};
    auto with = [&](std::vector<std::string> extra) {
        extra.insert(extra.end(), base.begin(), base.end());
        return extra;
    };
    // One of the two farthest 8-puzzle positions (31 moves; with this goal).
    auto r = runMain<EightPdb>(with({"--state", "8 7 6 0 4 1 2 5 3", "--json"}));
    INFO(r.err);
    REQUIRE(r.status == 0);
    REQUIRE(r.out.find("\"length\": 31") != std::string::npos);
    REQUIRE(r.out.find("\"optimal\": true") != std::string::npos);
    r = runMain<EightPdb>(with({"--scramble", "D R D R", "--scramble", "R"}));
    REQUIRE(r.status == 0);
    REQUIRE(r.out.find("L U L U (4 moves") != std::string::npos);
    REQUIRE(r.out.find("\nL (1 moves") != std::string::npos);
    r = runMain<EightPdb>(with({"--random", "5", "--seed", "3", "--json"}));
    REQUIRE(r.status == 0);
    REQUIRE(std::count(r.out.begin(), r.out.end(), '\n') == 5);
    // An illegal scramble move, an unsolvable position: clear messages, exit 1, nothing solved.
    r = runMain<EightPdb>(with({"--scramble", "D U U"}));
    REQUIRE(r.status == 1);
    REQUIRE(r.err.find("scramble move 3 (U) is illegal") != std::string::npos);
    r = runMain<EightPdb>(with({"--state", "0 2 1 3 4 5 6 7 8"}));
    REQUIRE(r.status == 1);
    REQUIRE(r.err.find("unsolvable") != std::string::npos);
    REQUIRE(r.out.empty());
    // --machine: a solution, an error line for a bad and an unsolvable line, in order.
    r = runMain<EightPdb>(with({"--machine"}), "1 0 2 3 4 5 6 7 8\n0 1 2\n\n0 2 1 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n");
    REQUIRE(r.status == 0);
    std::istringstream lines(r.out);
    std::string l;
    std::vector<std::string> got;
    while (std::getline(lines, l)) got.push_back(l);
    REQUIRE(got.size() == 4);
    REQUIRE(got[0].rfind("{\"type\": \"solution\", \"index\": 0, \"moves\": [2], \"nodes\": ", 0) == 0);
    REQUIRE(got[1].rfind("{\"type\": \"error\", \"index\": 1, \"message\": \"bad state: 3 numbers", 0) == 0);
    REQUIRE(got[2].find("\"index\": 2") != std::string::npos);
    REQUIRE(got[2].find("unsolvable") != std::string::npos);
    REQUIRE(got[3].find("\"moves\": [0]") != std::string::npos);
    // --states FILE: one position a line, comments and blank lines skipped.
    {
        const std::string file = tables + "/states.txt";
        std::ofstream(file) << "# two positions\n1 0 2 3 4 5 6 7 8\n\n3 1 2 0 4 5 6 7 8\n";
        r = runMain<EightPdb>(with({"--states", file}));
        REQUIRE(r.status == 0);
        REQUIRE(r.out.find("L (1 moves") != std::string::npos);
        REQUIRE(r.out.find("U (1 moves") != std::string::npos);
        REQUIRE(runMain<EightPdb>(with({"--states", tables + "/missing.txt"})).status == 2);
    }
    // --max-nodes: not solved, exit 1.
    r = runMain<EightPdb>(with({"--state", "8 7 6 0 4 1 2 5 3", "--max-nodes", "10"}));
    REQUIRE(r.status == 1);
    REQUIRE(r.out.find("no solution within") != std::string::npos);
    // The memory budget: exit 4 naming both sizes; usage errors: exit 2.
    r = runMain<EightPdb>({"--state", "1 0 2 3 4 5 6 7 8", "--table-dir", tables + "/new", "--memory", "1K"});
    REQUIRE(r.status == 4);
    REQUIRE(r.err.find("more than the memory budget of 1.0 KiB") != std::string::npos);
    REQUIRE(runMain<EightPdb>(with({"--bogus", "1"})).status == 2);
    REQUIRE(runMain<EightPdb>(with({"--random", "x"})).status == 2);
    std::filesystem::remove_all(tables);
}

TEST_CASE("tiles: 24-puzzle positions up to 14 moves from the goal are solved to their BFS distance") {
    using M = ManhattanOnly<5, 5, true>;
    using P = TwentyFour3;
    // BFS from the goal to depth 14, keeping a sample of each depth.
    std::vector<std::pair<Cells<M>, int>> sample;
    {
        std::set<Cells<M>> seen{goalCells<M>()};
        std::vector<Cells<M>> frontier{goalCells<M>()}, next;
        std::mt19937_64 rng(99);
        for (int depth = 1; depth <= 14; ++depth) {
            next.clear();
            for (const auto& s : frontier)
                for (int m = 0; m < 4; ++m) {
                    Cells<M> c = s;
                    if (moveBlank<M>(c, m) && seen.insert(c).second) next.push_back(c);
                }
            std::swap(frontier, next);
            for (int k = 0; k < 4; ++k) sample.emplace_back(frontier[rng() % frontier.size()], depth);
        }
    }
    TileTables<P> tables;
    tables.loadOrBuild("", 2);
    TileSolver<M> md(nullptr);
    TileSolver<P> pdb(&tables);
    for (const auto& [cells, depth] : sample) {
        Cells<P> c;
        std::copy(cells.begin(), cells.end(), c.begin());
        INFO(cellsText<M>(cells));
        REQUIRE(md.heuristic(cells) <= depth);
        REQUIRE(pdb.heuristic(c) <= depth);
        const auto a = md.solve(cells);
        const auto b = pdb.solve(c);
        REQUIRE(static_cast<int>(a.moves.size()) == depth);
        REQUIRE(static_cast<int>(b.moves.size()) == depth);
        REQUIRE(replaySolves<M>(cells, a.moves));
        REQUIRE(replaySolves<P>(c, b.moves));
    }
}
