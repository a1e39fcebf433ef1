// Table estimates (note [table estimates]): the counting mean is a lower
// bound on the mean exact distance, close to it where the canonical
// automaton counts sequences well, and the build-time model is linear in
// the work it counts.
#include <catch2/catch.hpp>

#include "compiler/analysis/perm/coordinates.hpp"
#include "compiler/analysis/perm/table_estimates.hpp"
#include "compiler/codegen/test_puzzles.hpp"
#include "pz/tables/projected_depth.hpp"

using namespace pz;

namespace {

double meanOf(const std::vector<double>& counts) {
    double n = 0, sum = 0;
    for (size_t d = 0; d < counts.size(); ++d) {
        n += counts[d];
        sum += counts[d] * static_cast<double>(d);
    }
    return sum / n;
}

}  // namespace

TEST_CASE("counting mean fills the values as fast as the sequences allow", "[estimates]") {
    // 1 + 2 + 4 values at 0, 1, 2, the 3 left at 3.
    REQUIRE(analysis::countingMean(10, {1, 2, 4, 8}, 15) == Approx(1.9));
    // The cap bounds every entry (a 4-bit table reads 15 for "15 or more").
    REQUIRE(analysis::countingMean(10, {1, 2, 4, 8}, 2) == Approx((0 + 2 + 2 * 7) / 10.0));
    // Values no listed length reaches sit at the last length.
    REQUIRE(analysis::countingMean(10, {1, 1}, 15) == Approx((0 + 1 + 2 * 8) / 10.0));
}

TEST_CASE("counting mean bounds the exact distances of 3x3 Loopover from below", "[estimates]") {
    auto p = codegen::testing::loopover(3, {});
    analysis::PuzzleAnalysis groups(p);
    const auto automaton = analysis::buildCanonicalAutomaton(p, groups);
    const auto sequences = analysis::canonicalSequenceCounts(automaton, 40);
    REQUIRE(sequences[3] == 736);  // the automaton's own count (canonical_automaton_test)
    // facts.md: 181,440 states, d0..d8 = 1, 12, 96, 736, 5208, 28674, 89497, 54741, 2475.
    const double exact = meanOf({1, 12, 96, 736, 5208, 28674, 89497, 54741, 2475});
    const double bound = analysis::countingMean(181440, sequences, 15);
    REQUIRE(bound <= exact);
    REQUIRE(bound > exact - 0.5);  // 5.48 against 5.88
}

TEST_CASE("counting mean bounds slide4's top-two-rows pattern from below", "[estimates]") {
    auto p = codegen::testing::loopover(4, {});
    analysis::PuzzleAnalysis groups(p);
    const auto sequences = analysis::canonicalSequenceCounts(analysis::buildCanonicalAutomaton(p, groups), 40);
    // facts.md: 518,918,400 values, exact mean 8.2546.
    const auto e = analysis::estimateTable(analysis::TableKind::Pattern, 518918400.0, 518918400.0, 24, sequences);
    REQUIRE(e.meanEntry <= 8.2546);
    REQUIRE(e.meanEntry > 7.0);
    // Twice the threads, half the time; the work is values x moves.
    const auto one = analysis::estimateTable(analysis::TableKind::Pattern, 518918400.0, 518918400.0, 24, sequences, 1);
    REQUIRE(one.buildSeconds == Approx(2 * e.buildSeconds));
    REQUIRE(e.buildSeconds == Approx(518918400.0 * 24 * analysis::referenceBuildCosts().patternPerValueMove / 2));
    REQUIRE(analysis::estimateText(e).find("mean entry >= ") != std::string::npos);
}

TEST_CASE("patterns over identical pieces get the labelled build cost", "[estimates]") {
    // labelledWide's centres (six colours of four): a labelled pattern, and
    // the cost per value and move of its kind, calibrated on cube4's U and D
    // centres (51,482,970 values x 27 moves in 37 s on 2 threads).
    const auto p = codegen::testing::labelledWide();
    REQUIRE(analysis::tracksLabels(p, p.patterns[0]));
    const auto l5 = codegen::testing::loopover(5, {{0, 1, 2, 3}});
    REQUIRE_FALSE(analysis::tracksLabels(l5, l5.patterns[0]));
    const std::vector<double> sequences(40, 1e9);
    const auto labelled = analysis::estimateTable(analysis::TableKind::LabelledPattern, 51482970.0, 51482970.0, 27, sequences);
    const auto plain = analysis::estimateTable(analysis::TableKind::Pattern, 51482970.0, 51482970.0, 27, sequences);
    REQUIRE(labelled.buildSeconds == Approx(37.0).epsilon(0.05));
    REQUIRE(labelled.buildSeconds > 3 * plain.buildSeconds);
}

TEST_CASE("the builder's depth-first step: the budget's R, raised to a declared depth", "[estimates]") {
    // pz::depthFirstStep, which the builder and the estimate share: 10 keys,
    // 10^r sequences of r moves, budget 1000 nodes.
    const std::vector<double> sequences{1, 10, 100, 1000, 10000};
    const auto plain = pz::depthFirstStep(10, sequences, 5, 1000, 0);
    REQUIRE(plain.moves == 1);  // 100 nodes after R = 1, 1100 > 1000 after R = 2
    REQUIRE(plain.nodes == 100);
    const auto raised = pz::depthFirstStep(10, sequences, 5, 1000, 8);
    REQUIRE(raised.moves == 3);
    REQUIRE(raised.nodes == 100 + 1000 + 10000);
    REQUIRE(pz::depthFirstStep(10, sequences, 13, 1e12, 0).moves == 1);  // capped at depth 14
}

TEST_CASE("the projected estimate follows the cube's h48 builds", "[estimates]") {
    // The cube's canonical sequences in the half-turn metric (OEIS A080601)
    // and H11's full coordinate (10,863,756,288,000 values, 48 symmetries).
    const std::vector<double> sequences{1, 18, 243, 3240, 43254, 577368, 7706988, 102876480, 1373243544, 18330699168.0,
                                        244686773808.0, 3266193870720.0, 43598688377184.0, 581975750199168.0};
    // Measured builds: layer 8 holds 6,235,366 keys; the budget gives R = 2
    // (exact up to 10, 1.63e9 nodes); exact 11 declared: R = 3, 2.17e10.
    const auto plain = analysis::estimateProjectedBuild(10863756288000.0, 48, 18, sequences, 0);
    REQUIRE(plain.exactDepth == 10);
    REQUIRE(plain.depthFirstNodes == Approx(6235366.0 * (18 + 243)).epsilon(0.05));
    const auto deeper = analysis::estimateProjectedBuild(10863756288000.0, 48, 18, sequences, 11);
    REQUIRE(deeper.exactDepth == 11);
    REQUIRE(deeper.depthFirstNodes == Approx(6235366.0 * (18 + 243 + 3240)).epsilon(0.05));
    // A declared depth below the budget's changes nothing.
    const auto lower = analysis::estimateProjectedBuild(10863756288000.0, 48, 18, sequences, 9);
    REQUIRE(lower.exactDepth == 10);
    REQUIRE(lower.depthFirstNodes == plain.depthFirstNodes);
    // A coordinate the breadth-first search covers: no depth-first step.
    const auto small = analysis::estimateProjectedBuild(1e6, 48, 18, sequences, 0);
    REQUIRE(small.exactDepth == 0);
    REQUIRE(small.depthFirstNodes == 0);
}
