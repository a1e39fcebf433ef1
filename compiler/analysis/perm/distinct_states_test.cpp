#include "compiler/analysis/perm/distinct_states.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <unordered_set>

#include "compiler/analysis/perm/colouring_stabiliser.hpp"
#include "compiler/analysis/perm/schreier_sims.hpp"

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

// A labelled state: label and orientation per position.
std::string stateKey(const ir::Puzzle& p, const ir::Element& e) {
    std::string k;
    for (size_t o = 0; o < p.orbits.size(); ++o)
        for (int q = 0; q < p.orbits[o].size; ++q) {
            k.push_back(static_cast<char>(p.orbits[o].solvedLabel[e.perm[o][q]]));
            k.push_back(static_cast<char>(e.ori[o][q]));
        }
    return k;
}

// Breadth first, the labelled states reachable from solved: the reference
// the counting methods are checked against.
std::unordered_set<std::string> bfsStates(const ir::Puzzle& p) {
    std::unordered_set<std::string> seen{stateKey(p, ir::identity(p.orbits))};
    std::vector<ir::Element> frontier{ir::identity(p.orbits)};
    while (!frontier.empty()) {
        std::vector<ir::Element> next;
        for (const auto& e : frontier)
            for (const auto& f : p.families) {  // the generators suffice
                ir::Element n = ir::compose(e, f.base, p.orbits);
                if (seen.insert(stateKey(p, n)).second) next.push_back(n);
            }
        frontier.swap(next);
    }
    return seen;
}

size_t bfsCount(const ir::Puzzle& p) { return bfsStates(p).size(); }

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

TEST_CASE("distinct states: a group Y does not normalise is searched, or enumerated, or unknown past the limits") {
    auto p = load("tests/puzzles/turntable_pairs.pz");
    PuzzleAnalysis a(p);
    auto d = countDistinctStates(a);
    REQUIRE(d.known);
    CHECK(d.method == "stabiliser search");
    CHECK(d.count == 4);
    CHECK(bfsCount(p) == 4);
    // |G| / |Y| would be 1: the normalising formula does not apply here.
    CHECK(a.groupOrder() / colouringStabiliserOrder(p) == 1);
    auto enumerated = countDistinctStates(a, kMaxEnumeratedStates, 0);
    REQUIRE(enumerated.known);
    CHECK(enumerated.method == "enumerated");
    CHECK(enumerated.count == 4);
    auto limited = countDistinctStates(a, 3, 0);
    CHECK_FALSE(limited.known);
    CHECK(limited.reason.find("ran past its budget") != std::string::npos);
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

TEST_CASE("distinct states: a huge definition is counted by the search, or unknown quickly, never guessed") {
    // 1024 positions in two colours moved by 500 transpositions (f, f+3):
    // the symmetric groups on the residues mod 3 of 0..502 (168, 168 and 167
    // positions, half of each in either colour); the rest stays.
    ir::Puzzle p;
    p.name = "huge";
    p.file = "<test>";
    ir::Orbit o;
    o.name = "beads";
    o.size = 1024;
    for (int i = 0; i < 1024; ++i) o.solvedLabel.push_back(i % 2);
    p.orbits = {o};
    for (int f = 0; f < 500; ++f) {
        ir::MoveFamily fam;
        fam.name = "T" + std::to_string(f);
        fam.base = ir::identity(p.orbits);
        std::swap(fam.base.perm[0][f], fam.base.perm[0][f + 3]);
        fam.order = 2;
        p.families.push_back(fam);
    }
    PuzzleAnalysis a(p);
    auto d = countDistinctStates(a);
    REQUIRE(d.known);
    CHECK(d.method == "stabiliser search");
    mpz_class c168, c167;
    mpz_bin_uiui(c168.get_mpz_t(), 168, 84);
    mpz_bin_uiui(c167.get_mpz_t(), 167, 83);
    CHECK(d.count == c168 * c168 * c167);
    // With a small search budget: unknown, with the reason.
    auto bounded = countDistinctStates(a, kMaxEnumeratedStates, 1e6);
    CHECK_FALSE(bounded.known);
    CHECK(bounded.reason.find("ran past its budget") != std::string::npos);
}

// note [colouring stabiliser]: |G| / |G ∩ Y| from the backtrack search
// equals the breadth-first count on random small puzzles (random moves,
// orientations and labellings; groups up to 200000 elements, so the BFS
// stays cheap), whether or not Y normalises G.
TEST_CASE("distinct states: the stabiliser search agrees with BFS on random puzzles") {
    std::mt19937_64 rng(20261126);
    auto below = [&](int n) { return static_cast<int>(uniformBelow(rng, static_cast<uint64_t>(n))); };
    int checked = 0, nonNormalising = 0, reachableSeen = 0, unreachableSeen = 0;
    for (int trial = 0; trial < 400 && checked < 120; ++trial) {
        ir::Puzzle p;
        p.name = "random" + std::to_string(trial);
        p.file = "<test>";
        const int orbits = 1 + below(3);
        for (int o = 0; o < orbits; ++o) {
            ir::Orbit orb;
            orb.name = "o" + std::to_string(o);
            orb.size = 3 + below(6);
            orb.orient = 1 + below(3);
            const int labels = 1 + below(orb.size);
            for (int q = 0; q < orb.size; ++q) orb.solvedLabel.push_back(q < labels ? q : below(labels));
            p.orbits.push_back(orb);
        }
        const int families = 2 + below(2);
        for (int f = 0; f < families; ++f) {
            ir::MoveFamily fam;
            fam.name = "M" + std::to_string(f);
            fam.base = ir::identity(p.orbits);
            for (int o = 0; o < orbits; ++o) {
                // A random cycle on a few positions, random twists on them.
                std::vector<int> moved(p.orbits[o].size);
                std::iota(moved.begin(), moved.end(), 0);
                std::shuffle(moved.begin(), moved.end(), rng);
                moved.resize(2 + below(p.orbits[o].size - 1));
                for (size_t i = 0; i < moved.size(); ++i) {
                    fam.base.perm[o][moved[i]] = moved[(i + 1) % moved.size()];
                    fam.base.ori[o][moved[i]] = below(p.orbits[o].orient);
                }
            }
            fam.order = ir::order(fam.base, p.orbits);
            p.families.push_back(fam);
        }
        if (!hasIdenticalPieces(p)) continue;
        PuzzleAnalysis a(p);
        if (a.groupOrder() > 200000) continue;
        ColouringSearch search(p, a.groupOrder());
        const auto h = search.stabiliserOrder();
        REQUIRE(h);
        INFO(p.name << ": |G| = " << a.groupOrder().get_str());
        const std::unordered_set<std::string> states = bfsStates(p);
        CHECK(a.groupOrder() / *h == states.size());
        nonNormalising += !colouringNormalises(a);
        ++checked;
        // Reachability of colourings: random elements of G are reachable; a
        // random arrangement (any permutation, any twists) is exactly when
        // the BFS met its colouring.
        for (int k = 0; k < 6; ++k) {
            ir::Element e = ir::identity(p.orbits);
            for (int step = 0; step < 20; ++step) e = ir::compose(e, p.families[below(families)].base, p.orbits);
            CHECK(search.showsReachable(e) == std::optional<bool>(true));
            ir::Element any = ir::identity(p.orbits);
            for (size_t o = 0; o < p.orbits.size(); ++o) {
                std::shuffle(any.perm[o].begin(), any.perm[o].end(), rng);
                for (int& t : any.ori[o]) t = below(p.orbits[o].orient);
            }
            const bool met = states.count(stateKey(p, any)) > 0;
            CHECK(search.showsReachable(any) == std::optional<bool>(met));
            reachableSeen += met, unreachableSeen += !met;
        }
    }
    CHECK(checked == 120);
    CHECK(nonNormalising >= 20);  // the cases the other formula cannot count
    CHECK(reachableSeen >= 50);
    CHECK(unreachableSeen >= 50);
}

TEST_CASE("distinct states: the stabiliser search counts what the normalising formula does") {
    // cube4: the published 7,401,196,841,564,901,869,874,093,974,498,574,336,000,000,000.
    for (const char* path : {"tests/puzzles/cube2_first_layer.pz", "tests/puzzles/loopover3_rows.pz",
                             "tests/puzzles/rings18_colours.pz", "tests/puzzles/cube2_partly_ignored.pz",
                             "puzzles/slide4_rows.pz", "puzzles/cube4.pz"}) {
        INFO(path);
        auto p = load(path);
        PuzzleAnalysis a(p);
        ColouringSearch search(p, a.groupOrder());
        const auto h = search.stabiliserOrder();
        REQUIRE(h);
        CHECK(a.groupOrder() / *h == countDistinctStates(a).count);
    }
}

TEST_CASE("distinct states: the search is not tried past its point limit") {
    ir::Puzzle p;
    p.name = "wide";
    ir::Orbit o;
    o.name = "beads";
    o.size = 1024;
    o.orient = 3;  // 3072 points
    for (int i = 0; i < 1024; ++i) o.solvedLabel.push_back(i % 2);
    p.orbits = {o};
    CHECK_FALSE(colouringSearchAffordable(p));
    p.orbits[0].size = 800;  // 2400 points
    p.orbits[0].solvedLabel.resize(800);
    CHECK(colouringSearchAffordable(p));
}
