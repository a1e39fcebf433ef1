// The n-puzzle engine (pz/blocks/tiles.hpp): the 8-puzzle's whole state
// space by BFS (181,440 states, max 31 with 2 positions) as the oracle for
// IDA* with every kind of heuristic and for the admissibility of the
// heuristics on every state; a small 15-puzzle partition (5-5-5 +
// reflection) on Korf's instances; the table cache (a corrupt file is
// reported and rebuilt); the memory budget; parsing and parity.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "pz/blocks/tiles.hpp"
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
