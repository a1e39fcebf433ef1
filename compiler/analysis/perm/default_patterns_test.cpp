// Default patterns: chosen only when none is declared, per moved orbit, the
// largest prefix of pieces whose table fits the orbit's share of the budget.
#include <catch2/catch.hpp>

#include "compiler/analysis/perm/coordinates.hpp"
#include "compiler/analysis/perm/default_patterns.hpp"
#include "compiler/codegen/test_puzzles.hpp"

using namespace pz;

TEST_CASE("no default patterns when the definition declares one", "[default-patterns]") {
    REQUIRE(analysis::defaultPatterns(codegen::testing::twister()).empty());
}

TEST_CASE("default patterns fit the budget and track the most pieces that fit", "[default-patterns]") {
    auto tw = codegen::testing::twister();
    tw.patterns.clear();
    auto d = analysis::defaultPatterns(tw);
    REQUIRE(d.size() == 1);
    // 6 blocks mod 3: all six pieces, 720 * 729 values.
    REQUIRE(d[0].name == "default_blocks");
    REQUIRE(d[0].parts[0].pieces == std::vector<int>{0, 1, 2, 3, 4, 5});
    REQUIRE(d[0].parts[0].orientations);

    // 25 tiles (byte lanes): 25*24*23*22 = 303600 fits 2^22, times 21 does not.
    auto l5 = codegen::testing::loopover(5, {});
    d = analysis::defaultPatterns(l5);
    REQUIRE(d.size() == 1);
    REQUIRE(d[0].parts[0].pieces == std::vector<int>{0, 1, 2, 3});
    REQUIRE(!d[0].parts[0].orientations);

    // Several orbits share the budget; an orbit past 64 positions gets none.
    auto w = codegen::testing::wideOrbits();
    w.patterns.clear();
    d = analysis::defaultPatterns(w);
    REQUIRE(d.size() == 2);  // ring (40 mod 3) and flat (12 mod 12); long and huge are past 64
    uint64_t total = 0;
    DiagnosticEngine diags;
    std::vector<analysis::Coordinate> coords;
    ir::Puzzle with = w;
    with.patterns = d;
    REQUIRE(analysis::computeCoordinates(with, coords, diags));
    for (size_t i = 0; i < coords.size(); ++i) {
        total += coords[i].size;
        // One more piece would not fit the orbit's half of the budget.
        const auto& o = w.orbits[d[i].parts[0].orbit];
        const int k = static_cast<int>(d[i].parts[0].pieces.size());
        const long double next = static_cast<long double>(coords[i].size) * (o.size - k) * o.orient;
        REQUIRE(next > static_cast<long double>(analysis::kDefaultPatternValues / 2));
    }
    REQUIRE(total <= analysis::kDefaultPatternValues);

}

TEST_CASE("default patterns of orbits with identical pieces track whole label classes", "[default-patterns]") {
    // 4x4 Loopover with row colours (4 labels of 4): classes in order of
    // first appearance, as many as fit, never the last one; the pattern is
    // one the coordinates accept, within the budget.
    auto l4 = codegen::testing::loopover(4, {});
    l4.patterns.clear();
    for (int p = 0; p < 16; ++p) l4.orbits[0].solvedLabel[p] = p / 4;
    auto d = analysis::defaultPatterns(l4);
    REQUIRE(d.size() == 1);
    // C(16,12) * 12!/(4!^3) = 1820 * 34650 = 63,063,000 > 2^22; two classes:
    // C(16,8) * 8!/(4!4!) = 12870 * 70 = 900,900 fits.
    REQUIRE(d[0].parts[0].pieces == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
    DiagnosticEngine diags;
    std::vector<analysis::Coordinate> coords;
    ir::Puzzle with = l4;
    with.patterns = d;
    REQUIRE(analysis::computeCoordinates(with, coords, diags));
    REQUIRE(coords.size() == 1);
    REQUIRE(coords[0].size == 900900);

    // 4x4x4-like centres (24 positions, six colours of four): U alone is
    // C(24,4) = 10,626 values and U, D ordered 51,482,970 (past the budget),
    // so the first two colours as one unordered set, C(24,8) = 735,471.
    ir::Puzzle c4 = codegen::testing::labelledWide();
    c4.patterns.clear();
    auto dc = analysis::defaultPatterns(c4);
    REQUIRE(dc.size() == 3);
    REQUIRE(dc[0].parts[0].pieces == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
    REQUIRE(dc[0].parts[0].unordered);
    with = c4;
    with.patterns = dc;
    REQUIRE(analysis::computeCoordinates(with, coords, diags));
    REQUIRE(coords[0].size == 735471);
    // The twisty pairs (6 positions mod 12, share 1,398,101): two pairs
    // ordered are 1,866,240 values, so one pair ordered (2,160) or two as
    // one set (C(6,4) 12^4 = 311,040): the set.
    REQUIRE(dc[1].parts[0].unordered);
    REQUIRE(dc[1].parts[0].pieces == std::vector<int>{0, 1, 2, 3});
    // The beads (two, three and 35 of mod 3 on 40): the two ordered (7,020
    // values); the first two colours as a set would be 159,892,380.
    REQUIRE_FALSE(dc[2].parts[0].unordered);
    REQUIRE(dc[2].parts[0].pieces == std::vector<int>{0, 1});

    // One label only: no default pattern (nothing to track).
    for (int p = 0; p < 16; ++p) l4.orbits[0].solvedLabel[p] = 0;
    REQUIRE(analysis::defaultPatterns(l4).empty());
}

TEST_CASE("a memory budget buys more tracked pieces, within its limits", "[default-patterns]") {
    // pzc solve --memory SIZE: SIZE values (half of SIZE in 4-bit entries).
    REQUIRE(analysis::defaultPatternValuesFor(64ull << 20) == 64ull << 20);
    REQUIRE(analysis::defaultPatternValuesFor(1 << 10) == analysis::kDefaultPatternValues);
    REQUIRE(analysis::defaultPatternValuesFor(64ull << 30) == analysis::kMaxDefaultPatternValues);
    // 5x5 Loopover: 25*24*23*22*21 = 6,375,600 fits 64 Mi values, times 20 does not.
    auto l5 = codegen::testing::loopover(5, {});
    auto d = analysis::defaultPatterns(l5, analysis::defaultPatternValuesFor(64ull << 20));
    REQUIRE(d.size() == 1);
    REQUIRE(d[0].parts[0].pieces == std::vector<int>{0, 1, 2, 3, 4});
}
