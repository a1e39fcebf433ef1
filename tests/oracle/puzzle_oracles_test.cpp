// Oracles for the shipped puzzles (../shared/reference/facts.md): exact
// group, subgroup and symmetry-group orders from the analyses, and new
// states per depth from breadth-first search with the reference interpreter.
// Run from the repository root (CTest sets the working directory).
#include <catch2/catch.hpp>

#include <iostream>

#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/interp/interpreter.hpp"
#include "compiler/interp/state_set.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

using namespace pz;

namespace {

ir::Puzzle load(const std::string& path) {
    DiagnosticEngine diags;
    auto puzzle = ir::loadPuzzle(path, diags);
    if (!puzzle) diags.print(std::cerr);
    REQUIRE(puzzle);
    return *puzzle;
}

int subgroupIndex(const ir::Puzzle& p, const std::string& name) {
    for (size_t i = 0; i < p.subgroups.size(); ++i)
        if (p.subgroups[i].name == name) return (int)i;
    FAIL("no subgroup " << name);
    return -1;
}

// Moves whose power is one of `powers` (negative = counted from the order).
std::vector<int> movesWithPowers(const ir::Puzzle& p, std::vector<int> powers) {
    std::vector<int> result;
    for (size_t m = 0; m < p.moves.size(); ++m) {
        const int order = p.families[p.moves[m].family].order;
        for (int k : powers)
            if (p.moves[m].power == (k < 0 ? order + k : k)) result.push_back((int)m);
    }
    return result;
}

std::vector<int> metricMoves(const ir::Puzzle& p) {
    std::vector<int> result;
    for (size_t m = 0; m < p.moves.size(); ++m)
        if (p.moves[m].inMetric) result.push_back((int)m);
    return result;
}

std::vector<uint64_t> depths(const ir::Puzzle& p, const std::vector<int>& moves, int maxDepth) {
    interp::Interpreter interpreter(p);
    return interp::depthCounts(interpreter, moves, maxDepth);
}

}  // namespace

TEST_CASE("cube3 group, subgroup and symmetry orders") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    analysis::PuzzleAnalysis a(p);
    DiagnosticEngine diags;
    CHECK(a.check(diags));
    CHECK(a.groupOrder() == mpz_class("43252003274489856000"));
    CHECK(a.symmetries().elements.size() == 48);
    const auto& g1 = a.subgroup(subgroupIndex(p, "G1"));
    CHECK(g1.order == mpz_class("19508428800"));
    CHECK(g1.index == mpz_class("2217093120"));
    const auto& h48 = a.subgroup(subgroupIndex(p, "H48"));
    CHECK(h48.order == mpz_class("8153726976"));
    CHECK(h48.index == mpz_class("5304568500"));
    CHECK(a.subgroup(subgroupIndex(p, "domino")).order == mpz_class("19508428800"));
    // 16 symmetries fix the U-D axis: those mapping U to U or D (or their inverses).
    const auto& sym = a.symmetries();
    int u = -1;
    for (size_t m = 0; m < p.moves.size(); ++m)
        if (p.moves[m].name == "U") u = (int)m;
    REQUIRE(u >= 0);
    int fixingUD = 0;
    for (size_t s = 0; s < sym.elements.size(); ++s) {
        const std::string& name = p.families[p.moves[sym.moveMap[s][u]].family].name;
        fixingUD += name == "U" || name == "D";
    }
    CHECK(fixingUD == 16);
    // Those 16 are exactly the symmetries of Kociemba's G1; H48's target has all 48.
    CHECK(a.subgroupSymmetries(subgroupIndex(p, "G1")).size() == 16);
    CHECK(a.subgroupSymmetries(subgroupIndex(p, "domino")).size() == 16);
    CHECK(a.subgroupSymmetries(subgroupIndex(p, "H48")).size() == 48);
    // Membership in subgroups given by generators and by invariants.
    auto element = [&](const char* text) {
        DiagnosticEngine d;
        auto e = ir::evaluateText(p, text, "<test>", d);
        REQUIRE(e);
        return *e;
    };
    for (const char* sub : {"G1", "domino"}) {
        INFO(sub);
        CHECK(*a.subgroupContains(subgroupIndex(p, sub), element("U R2 D' F2")));
        CHECK_FALSE(*a.subgroupContains(subgroupIndex(p, sub), element("U R")));
    }
    CHECK(*a.subgroupContains(subgroupIndex(p, "H48"), element("U2 R2 F2")));
    CHECK_FALSE(*a.subgroupContains(subgroupIndex(p, "H48"), element("U")));
}

TEST_CASE("symmetries act on moves as a group and commute with the interpreter") {
    for (const char* file : {"puzzles/cube3.pz", "puzzles/slide4.pz", "puzzles/rotate4o.pz"}) {
        INFO(file);
        ir::Puzzle p = load(file);
        analysis::PuzzleAnalysis a(p);
        const auto& sym = a.symmetries();
        const size_t n = sym.elements.size(), moves = p.moves.size();
        REQUIRE(sym.product.size() == n);
        // (a b) m (a b)^-1 = a (b m b^-1) a^-1, and every map is a bijection.
        bool homomorphism = true, bijective = true;
        for (size_t s = 0; s < n; ++s) {
            std::vector<int> seen(moves, 0);
            for (size_t m = 0; m < moves; ++m) {
                if (sym.moveMap[s][m] < 0) bijective = false;
                else seen[sym.moveMap[s][m]]++;
            }
            for (int c : seen) bijective = bijective && c == 1;
            for (size_t t = 0; t < n; ++t)
                for (size_t m = 0; m < moves; ++m)
                    if (sym.moveMap[sym.product[s][t]][m] != sym.moveMap[s][sym.moveMap[t][m]]) homomorphism = false;
            CHECK(sym.product[s][sym.inverse[s]] == 0);
        }
        CHECK(bijective);
        CHECK(homomorphism);
        // Conjugating the state of a sequence = the state of the mapped sequence.
        interp::Interpreter in(p);
        uint64_t seed = 12345;
        for (size_t s = 0; s < n; ++s) {
            std::vector<int> seq, mapped;
            for (int k = 0; k < 25; ++k) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                int m = (int)((seed >> 33) % moves);
                seq.push_back(m);
                mapped.push_back(sym.moveMap[s][m]);
            }
            interp::State state = in.applySequence(in.solved(), seq);
            CHECK(in.conjugate(state, sym.elements[s]) == in.applySequence(in.solved(), mapped));
        }
    }
}

TEST_CASE("the interpreter agrees with the element algebra on random sequences") {
    for (const char* file : {"puzzles/cube3.pz", "puzzles/slide4.pz", "puzzles/rotate4o.pz", "tests/puzzles/loopover3.pz"}) {
        INFO(file);
        ir::Puzzle p = load(file);
        interp::Interpreter in(p);
        analysis::PuzzleAnalysis a(p);
        uint64_t seed = 99;
        for (int trial = 0; trial < 50; ++trial) {
            std::vector<int> seq;
            ir::Element product = ir::identity(p.orbits);
            for (int k = 0; k < 1 + trial; ++k) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                const int m = (int)((seed >> 33) % p.moves.size());
                seq.push_back(m);
                product = ir::compose(product, p.moves[m].effect, p.orbits);
            }
            const interp::State s = in.applySequence(in.solved(), seq);
            CHECK(in.toElement(s) == product);
            CHECK(in.isSolved(in.compose(s, in.invert(s))));
            CHECK(isReachable(in, a, s));
            // Undoing the sequence move by move (inverse moves, reversed) solves it.
            std::vector<int> undo;
            for (auto it = seq.rbegin(); it != seq.rend(); ++it) undo.push_back(a.inverseMove()[*it]);
            CHECK(in.isSolved(in.applySequence(s, undo)));
        }
    }
}

TEST_CASE("cube3 superflip flips every edge and nothing else") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    DiagnosticEngine diags;
    auto e = ir::evaluateText(p, "superflip", "<test>", diags);
    REQUIRE(e);
    interp::Interpreter in(p);
    interp::State s = in.apply(in.solved(), *e);
    for (int i = 0; i < in.positionCount(); ++i) {
        CHECK(s.piece[i] == in.solved().piece[i]);
        CHECK(s.ori[i] == (i >= in.offset(1) ? 1 : 0));
    }
}

TEST_CASE("cube3 HTM depth counts d0..d5") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    REQUIRE(metricMoves(p).size() == 18);
    CHECK(depths(p, metricMoves(p), 5) == std::vector<uint64_t>{1, 18, 243, 3240, 43239, 574908});
}

TEST_CASE("cube3 QTM depth counts d0..d4") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    auto quarter = movesWithPowers(p, {1, -1});
    REQUIRE(quarter.size() == 12);
    CHECK(depths(p, quarter, 4) == std::vector<uint64_t>{1, 12, 114, 1068, 10011});
}

TEST_CASE("slide4 group and symmetry orders") {
    ir::Puzzle p = load("puzzles/slide4.pz");
    analysis::PuzzleAnalysis a(p);
    DiagnosticEngine diags;
    CHECK(a.check(diags));
    CHECK(a.groupOrder() == mpz_class("20922789888000"));
    CHECK(a.symmetries().elements.size() == 128);
}

TEST_CASE("slide4 depth counts d0..d5 (24 moves)") {
    ir::Puzzle p = load("puzzles/slide4.pz");
    REQUIRE(metricMoves(p).size() == 24);
    CHECK(depths(p, metricMoves(p), 5) == std::vector<uint64_t>{1, 24, 396, 6264, 97558, 1486728});
}

TEST_CASE("slide4 single-step depth counts d0..d6 (16 moves)") {
    ir::Puzzle p = load("puzzles/slide4.pz");
    auto single = movesWithPowers(p, {1, -1});
    REQUIRE(single.size() == 16);
    CHECK(depths(p, single, 6) == std::vector<uint64_t>{1, 16, 184, 2032, 21932, 230480, 2377512});
}

TEST_CASE("rotate4o group and subgroup orders") {
    ir::Puzzle p = load("puzzles/rotate4o.pz");
    analysis::PuzzleAnalysis a(p);
    DiagnosticEngine diags;
    CHECK(a.check(diags));
    CHECK(a.groupOrder() == mpz_class("685597979049984000"));
    const auto& square = a.subgroup(subgroupIndex(p, "square"));
    CHECK(square.order == mpz_class("812851200"));
    CHECK(square.index == mpz_class("843448320"));
    CHECK(a.subgroupSymmetries(subgroupIndex(p, "square")).size() == a.symmetries().elements.size());
    // Without orientation (rotate4): all of S16.
    ir::Puzzle plain = p;
    plain.orbits[0].orient = 1;
    for (auto& f : plain.families) f.base.ori[0].assign(16, 0);
    analysis::PuzzleAnalysis b(plain);
    CHECK(b.groupOrder() == mpz_class("20922789888000"));
}

TEST_CASE("rotate4o depth counts d0..d6 (18 quarter turns)") {
    ir::Puzzle p = load("puzzles/rotate4o.pz");
    auto quarter = movesWithPowers(p, {1, -1});
    REQUIRE(quarter.size() == 18);
    CHECK(depths(p, quarter, 6) == std::vector<uint64_t>{1, 18, 233, 2848, 34216, 405896, 4766722});
}

TEST_CASE("rotate4o depth counts d0..d4 (27 moves)") {
    ir::Puzzle p = load("puzzles/rotate4o.pz");
    REQUIRE(metricMoves(p).size() == 27);
    CHECK(depths(p, metricMoves(p), 4) == std::vector<uint64_t>{1, 27, 504, 8844, 153127});
}

TEST_CASE("rotate4 (no orientation) depth counts d0..d5 (18 quarter turns)") {
    ir::Puzzle p = load("puzzles/rotate4o.pz");
    p.orbits[0].orient = 1;
    for (auto& m : p.moves) m.effect.ori[0].assign(16, 0);
    auto quarter = movesWithPowers(p, {1, -1});
    CHECK(depths(p, quarter, 5) == std::vector<uint64_t>{1, 18, 233, 2824, 33264, 379408});
}

TEST_CASE("rotate4o square subgroup depth counts d0..d8 (9 half turns)") {
    ir::Puzzle p = load("puzzles/rotate4o.pz");
    auto half = movesWithPowers(p, {2});
    REQUIRE(half.size() == 9);
    CHECK(depths(p, half, 8) == std::vector<uint64_t>{1, 9, 56, 316, 1727, 9238, 48092, 241565, 1151725});
}

TEST_CASE("loopover3 full depth distribution") {
    ir::Puzzle p = load("tests/puzzles/loopover3.pz");
    analysis::PuzzleAnalysis a(p);
    CHECK(a.groupOrder() == 181440);
    CHECK(depths(p, metricMoves(p), 30) ==
          std::vector<uint64_t>{1, 12, 96, 736, 5208, 28674, 89497, 54741, 2475});
}
