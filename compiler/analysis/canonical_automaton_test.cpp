// The canonical automaton on 3x3 Loopover (built as IR, no front end):
// rows commute with rows, columns with columns; the counts of canonical
// sequences bound the true new-state counts of facts.md from above, and
// with the look-back (note [look-back]) equal them up to four moves.
#include <catch2/catch.hpp>

#include "compiler/analysis/canonical_automaton.hpp"
#include "compiler/analysis/coordinates.hpp"
#include "compiler/analysis/state_layout.hpp"
#include "compiler/codegen/test_puzzles.hpp"

using namespace pz;

TEST_CASE("canonical automaton of 3x3 Loopover", "[canonical]") {
    auto p = codegen::testing::loopover(3, {});
    analysis::PuzzleAnalysis groups(p);
    auto a = analysis::buildCanonicalAutomaton(p, groups);
    REQUIRE(a.searchMoves.size() == 12);
    // Pairwise rules alone: start + one state per family (7). The look-back
    // states (last three moves) minimise to more.
    REQUIRE(a.next.size() > 7);
    for (int f = 0; f < 6; ++f)
        for (int g = 0; g < 6; ++g) REQUIRE(a.commute[f][g] == ((f < 3) == (g < 3)));
    auto counts = a.sequenceCounts(6);
    // True new states per depth: 1, 12, 96, 736, 5208, 28674, 89497 (facts.md).
    REQUIRE(counts[0] == 1);
    REQUIRE(counts[1] == 12);
    REQUIRE(counts[2] == 96);    // pairwise rules: all 2-move redundancies
    REQUIRE(counts[3] == 736);   // look-back: every redundancy up to 4 moves
    REQUIRE(counts[4] == 5208);
    REQUIRE(counts[5] >= 28674);  // beyond the look-back: an upper bound
    REQUIRE(counts[6] >= 89497);
}

TEST_CASE("state layout: one nibble word per orbit, orientation words after", "[layout]") {
    auto tw = codegen::testing::twister();
    DiagnosticEngine diags;
    analysis::StateLayout layout;
    REQUIRE(analysis::computeStateLayout(tw, layout, diags));
    REQUIRE(layout.words == 2);
    REQUIRE(layout.orbits[0].permWord == 0);
    REQUIRE(layout.orbits[0].oriWord == 1);
    auto big = tw;
    big.orbits[0].size = 17;
    REQUIRE(!analysis::computeStateLayout(big, layout, diags));
    REQUIRE(diags.hasErrors());
}

TEST_CASE("reference coordinates: rank -> unrank -> rank for every value", "[coordinates]") {
    auto tw = codegen::testing::twister();
    DiagnosticEngine diags;
    std::vector<analysis::Coordinate> coords;
    REQUIRE(analysis::computeCoordinates(tw, coords, diags));
    REQUIRE(coords[0].size == 6 * 5 * 4 * 27);  // 3 of 6 ordered, x 3^3 orientations
    REQUIRE(coords[1].size == 729);             // 3^6 orientations
    REQUIRE(coords[2].size == 20);              // C(6,3)
    for (const auto& c : coords)
        for (uint64_t r = 0; r < c.size; ++r)
            REQUIRE(analysis::referenceRank(c, analysis::referenceUnrank(c, r, tw.orbits)) == r);
}
