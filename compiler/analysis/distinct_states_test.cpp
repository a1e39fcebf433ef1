#include "compiler/analysis/distinct_states.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <unordered_set>

#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

using namespace pz;
using namespace pz::analysis;

namespace {

ir::Puzzle load(const std::string& path) {
    DiagnosticEngine diags;
    auto p = ir::loadPuzzle(path, diags);
    REQUIRE(p);
    return *p;
}

// Breadth-first count of the labelled states reachable from solved: the
// reference the counting method is checked against.
size_t bfsCount(const ir::Puzzle& p) {
    auto key = [&](const ir::Element& e) {
        std::string k;
        for (size_t o = 0; o < p.orbits.size(); ++o)
            for (int q = 0; q < p.orbits[o].size; ++q) {
                k.push_back(static_cast<char>(p.orbits[o].solvedLabel[e.perm[o][q]]));
                k.push_back(static_cast<char>(e.ori[o][q]));
            }
        return k;
    };
    std::unordered_set<std::string> seen{key(ir::identity(p.orbits))};
    std::vector<ir::Element> frontier{ir::identity(p.orbits)};
    while (!frontier.empty()) {
        std::vector<ir::Element> next;
        for (const auto& e : frontier)
            for (const auto& f : p.families) {  // the generators suffice
                ir::Element n = ir::compose(e, f.base, p.orbits);
                if (seen.insert(key(n)).second) next.push_back(n);
            }
        frontier.swap(next);
    }
    return seen.size();
}

}  // namespace

TEST_CASE("distinct states: identical corners of a 2x2x2 (Y inside G)") {
    auto p = load("tests/puzzles/cube2_first_layer.pz");
    PuzzleAnalysis a(p);
    auto d = countDistinctStates(a);
    REQUIRE(d.known);
    CHECK(d.method == "normalising");
    CHECK(d.count == 612360);
    CHECK(a.groupOrder() == 3674160);
    CHECK(colouringStabiliserOrder(p) == 6);
    CHECK(bfsCount(p) == 612360);
}

TEST_CASE("distinct states: Loopover 3x3 with coloured rows (G = A9 normalised by Y)") {
    auto p = load("tests/puzzles/loopover3_rows.pz");
    PuzzleAnalysis a(p);
    auto d = countDistinctStates(a);
    REQUIRE(d.known);
    CHECK(d.method == "normalising");
    CHECK(d.count == 1680);
    CHECK(bfsCount(p) == 1680);
}

TEST_CASE("distinct states: a group Y does not normalise is enumerated, or unknown past the limit") {
    auto p = load("tests/puzzles/turntable_pairs.pz");
    PuzzleAnalysis a(p);
    auto d = countDistinctStates(a);
    REQUIRE(d.known);
    CHECK(d.method == "enumerated");
    CHECK(d.count == 4);
    CHECK(bfsCount(p) == 4);
    // |G| / |Y| would be 1: the normalising formula does not apply here.
    CHECK(a.groupOrder() / colouringStabiliserOrder(p) == 1);
    auto limited = countDistinctStates(a, 3);
    CHECK_FALSE(limited.known);
    CHECK(limited.reason.find("more than 3 states") != std::string::npos);
}

TEST_CASE("distinct states: distinct pieces count the group order") {
    auto p = load("tests/puzzles/loopover3.pz");
    PuzzleAnalysis a(p);
    CHECK_FALSE(hasIdenticalPieces(p));
    auto d = countDistinctStates(a);
    REQUIRE(d.known);
    CHECK(d.count == a.groupOrder());
}

TEST_CASE("distinct states: .tws repeated ids") {
    // Two 2x2 blocks of a 2x3 board, three red and three blue tiles: 20
    // colourings (the file's own comment, from a BFS).
    auto p = load("tests/tws/features.tws");
    PuzzleAnalysis a(p);
    auto d = countDistinctStates(a);
    REQUIRE(d.known);
    CHECK(d.count == 20);
    CHECK(bfsCount(p) == 20);
}
