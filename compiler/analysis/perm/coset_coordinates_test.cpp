// Coset coordinates and phase plans (note [coset coordinates]) on the
// shipped cube and rotate4o definitions: sizes against the Schreier–Sims
// index, rank/unrank round trips, invariance on cosets H s, and "rank = goal
// iff in H" against the subgroup's membership test.
#include "compiler/analysis/perm/coset_coordinates.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

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

int subgroupIndex(const ir::Puzzle& p, const std::string& name) {
    for (size_t i = 0; i < p.subgroups.size(); ++i)
        if (p.subgroups[i].name == name) return (int)i;
    FAIL("no subgroup " << name);
    return -1;
}

int solverIndex(const ir::Puzzle& p, const std::string& name) {
    for (size_t i = 0; i < p.solvers.size(); ++i)
        if (p.solvers[i].name == name) return (int)i;
    FAIL("no solver " << name);
    return -1;
}

ir::Element randomWord(const ir::Puzzle& p, const std::vector<int>& moves, int length, std::mt19937_64& rng) {
    ir::Element e = ir::identity(p.orbits);
    for (int i = 0; i < length; ++i)
        e = ir::compose(e, p.moves[moves[rng() % moves.size()]].effect, p.orbits);
    return e;
}

std::vector<int> allMoves(const ir::Puzzle& p) {
    std::vector<int> v;
    for (size_t m = 0; m < p.moves.size(); ++m)
        if (p.moves[m].inMetric) v.push_back((int)m);
    return v;
}

uint64_t rankAll(const std::vector<PhasePart>& parts, const ir::Element& e) {
    uint64_t r = 0;
    for (const auto& part : parts) r = r * part.size + referencePartRank(part, e);
    return r;
}

}  // namespace

TEST_CASE("cube domino: twist x flip x slice = the index") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    PuzzleAnalysis a(p);
    const int h = subgroupIndex(p, "domino");
    CosetCoordinate c = cosetCoordinate(a, h);
    CHECK(c.exact);
    CHECK(c.index == mpz_class("2217093120"));
    std::vector<uint64_t> sizes;
    for (const auto& part : c.parts) sizes.push_back(part.size);
    CHECK(sizes == std::vector<uint64_t>{2187, 495, 2048});
    CHECK(c.parts[0].kind == PhasePart::Kind::Orientation);
    CHECK(c.parts[0].sumConstrained);
    CHECK(c.parts[1].kind == PhasePart::Kind::Membership);
    CHECK(c.invariants.parities.empty());  // corner parity = edge parity already in G, and U is odd in both

    // G1 by generators: the same subgroup, derived invariants, the same coordinate size.
    CosetCoordinate g1 = cosetCoordinate(a, subgroupIndex(p, "G1"));
    CHECK(g1.invariants.derived);
    CHECK(g1.exact);
    CHECK(g1.size == c.size);
}

TEST_CASE("coset coordinate parts: round trips, invariance under H, goal iff in H") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    PuzzleAnalysis a(p);
    const int h = subgroupIndex(p, "domino");
    CosetCoordinate c = cosetCoordinate(a, h);
    std::vector<int> hMoves;
    for (int m : allMoves(p))
        if (*a.subgroupContains(h, p.moves[m].effect)) hMoves.push_back(m);
    CHECK(hMoves.size() == 10);
    std::mt19937_64 rng(7);
    const uint64_t goal = rankAll(c.parts, ir::identity(p.orbits));
    for (int trial = 0; trial < 200; ++trial) {
        ir::Element s = randomWord(p, allMoves(p), 30, rng);
        for (const auto& part : c.parts) {
            const uint64_t r = referencePartRank(part, s);
            REQUIRE(r < part.size);
            CHECK(referencePartRank(part, referencePartUnrank(part, r, p.orbits)) == r);
            const uint64_t v = rng() % part.size;
            CHECK(referencePartRank(part, referencePartUnrank(part, v, p.orbits)) == v);
        }
        // h s is in the same coset: same coordinate.
        ir::Element hs = ir::compose(randomWord(p, hMoves, 20, rng), s, p.orbits);
        CHECK(rankAll(c.parts, hs) == rankAll(c.parts, s));
        CHECK((rankAll(c.parts, s) == goal) == *a.subgroupContains(h, s));
        ir::Element inH = randomWord(p, hMoves, 25, rng);
        CHECK(rankAll(c.parts, inH) == goal);
    }
}

TEST_CASE("cube two_phase plan: phase 2 moves and coordinates derived from domino") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    PuzzleAnalysis a(p);
    SolverPlan plan;
    DiagnosticEngine diags;
    REQUIRE(buildSolverPlan(a, solverIndex(p, "two_phase"), allMoves(p), plan, diags));
    REQUIRE(plan.phases.size() == 2);
    CHECK(plan.phases[0].moves.size() == 18);
    std::vector<std::string> names;
    for (int m : plan.phases[1].canon.searchMoves) names.push_back(p.moves[m].name);
    CHECK(names == std::vector<std::string>{"U", "U2", "U'", "D", "D2", "D'", "F2", "B2", "L2", "R2"});
    std::vector<uint64_t> sizes;
    for (const auto& part : plan.phases[1].parts) sizes.push_back(part.size);
    CHECK(sizes == std::vector<uint64_t>{40320, 24, 40320});  // corners, slice edges, U/D edges
    // Phase 1: one symmetry-reduced table over all three parts (flip x slice
    // by the 16 symmetries keeping the U-D axis, x twist), so no pair table.
    CHECK(plan.phases[0].tables.empty());
    CHECK(plan.phases[0].symmetries.size() == 16);
    CHECK(plan.phases[0].reduced == std::vector<int>{1, 2});  // slice, flip
    CHECK(plan.phases[0].rest == std::vector<int>{0});        // twist
    const auto& domino = a.subgroupSymmetries(subgroupIndex(p, "domino"));
    CHECK(domino.size() == 16);
    for (int s : plan.phases[0].symmetries) CHECK(std::count(domino.begin(), domino.end(), s) == 1);
    for (size_t i = 0; i < plan.phases[0].symmetries.size(); ++i) {
        const int inv = plan.phases[0].symmetries[plan.phases[0].symInverse[i]];
        CHECK(a.symmetries().inverse[plan.phases[0].symmetries[i]] == inv);
    }
    // Phase 2: every pair under the limit (corners x U/D edges, 8!^2, is over
    // it) and a symmetry-reduced table over U/D edges (classes) x corners.
    CHECK(plan.phases[1].tables == std::vector<std::pair<int, int>>{{0, 1}, {2, 1}});
    CHECK(plan.phases[1].symmetries.size() == 16);
    CHECK(plan.phases[1].reduced.size() == 1);
    CHECK(plan.phases[1].rest.size() == 1);
    // Directions: one symmetry per cube axis (48 / 16 keep domino), each also inverted.
    REQUIRE(plan.directions.size() == 6);
    CHECK(plan.directions[0].symmetry == 0);
    CHECK(!plan.directions[0].inverse);
    CHECK(plan.directions[1].inverse);
    const auto& keep = a.subgroupSymmetries(subgroupIndex(p, "domino"));
    for (size_t i = 2; i < plan.directions.size(); i += 2)
        CHECK(std::count(keep.begin(), keep.end(), plan.directions[i].symmetry) == 0);
    // Set-permutation parts: the solved state ranks 0, every H element has a rank.
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 50; ++trial) {
        ir::Element s = randomWord(p, plan.phases[1].canon.searchMoves, 30, rng);
        for (const auto& part : plan.phases[1].parts) {
            const uint64_t r = referencePartRank(part, s);
            CHECK(r < part.size);
            CHECK(referencePartRank(part, referencePartUnrank(part, r, p.orbits)) == r);
        }
    }
}

TEST_CASE("rotate4o square: invariants derived in an orientation frame, exact") {
    ir::Puzzle p = load("puzzles/rotate4o.pz");
    PuzzleAnalysis a(p);
    const int h = subgroupIndex(p, "square");
    CosetCoordinate c = cosetCoordinate(a, h);
    CHECK(c.invariants.derived);
    CHECK(c.index == mpz_class("843448320"));
    REQUIRE(c.exact);
    std::vector<uint64_t> sizes;
    for (const auto& part : c.parts) sizes.push_back(part.size);
    CHECK(sizes == std::vector<uint64_t>{12870, 32768, 2});  // C(16,8) * 2^15 * 2
    CHECK(c.parts[1].step == 2);
    // Rank = goal iff in H, invariance on H s, round trips.
    std::mt19937_64 rng(5);
    std::vector<int> hMoves;
    for (int m : allMoves(p))
        if (*a.subgroupContains(h, p.moves[m].effect)) hMoves.push_back(m);
    CHECK(hMoves.size() == 9);
    const uint64_t goal = rankAll(c.parts, ir::identity(p.orbits));
    for (int trial = 0; trial < 200; ++trial) {
        ir::Element s = randomWord(p, allMoves(p), trial % 7, rng);
        CHECK((rankAll(c.parts, s) == goal) == *a.subgroupContains(h, s));
        ir::Element hs = ir::compose(randomWord(p, hMoves, 20, rng), s, p.orbits);
        CHECK(rankAll(c.parts, hs) == rankAll(c.parts, s));
        for (const auto& part : c.parts) {
            const uint64_t v = rng() % part.size;
            CHECK(referencePartRank(part, referencePartUnrank(part, v, p.orbits)) == v);
        }
    }
    SolverPlan plan;
    DiagnosticEngine diags;
    REQUIRE(buildSolverPlan(a, solverIndex(p, "via_square"), allMoves(p), plan, diags));
    std::vector<uint64_t> phase2;
    for (const auto& part : plan.phases[1].parts) phase2.push_back(part.size);
    CHECK(phase2 == std::vector<uint64_t>{40320, 40320});  // each colour's pieces; orientation fixed by the frame
}

TEST_CASE("a subgroup the derived invariants do not describe: located error") {
    ir::Puzzle p = load("tests/puzzles/cube2_phased.pz");
    PuzzleAnalysis a(p);
    CosetCoordinate c = cosetCoordinate(a, subgroupIndex(p, "ur2"));
    CHECK(!c.exact);
    CHECK(c.index == 30618);
    SolverPlan plan;
    DiagnosticEngine diags;
    CHECK(!buildSolverPlan(a, solverIndex(p, "via_ur2"), allMoves(p), plan, diags));
    REQUIRE(diags.errorCount() == 1);
    CHECK(diags.all()[0].message.find("30618") != std::string::npos);
    CHECK(diags.all()[0].range.line > 0);
}

// note [phase symmetries]: a symmetry is used only if it acts on the reduced
// parts as a function of their values; flip alone is not such a part under
// the quarter turn about U-D (it moves the slice edges' F/B facelets to R/L:
// the flip of the conjugate depends on where the slice edges are), flip x
// slice is.
TEST_CASE("phase symmetries: the flip needs the slice, the combined unrank ranks back") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    PuzzleAnalysis a(p);
    SolverPlan plan;
    DiagnosticEngine diags;
    REQUIRE(buildSolverPlan(a, solverIndex(p, "two_phase"), allMoves(p), plan, diags));
    const auto& ph = plan.phases[0];
    const auto& group = a.symmetries();
    auto conj = [&](const ir::Element& x, int s) {
        return ir::compose(ir::compose(ir::inverse(group.elements[s], p.orbits), x, p.orbits), group.elements[s], p.orbits);
    };
    std::mt19937_64 rng(7);
    bool flipAloneFails = false;
    for (int trial = 0; trial < 40; ++trial) {
        const ir::Element x = randomWord(p, allMoves(p), 60, rng);
        std::vector<uint64_t> v;
        for (int j : ph.reduced) v.push_back(referencePartRank(ph.parts[j], x));
        const ir::Element y = referencePartsUnrank(ph.parts, ph.reduced, v, p.orbits);
        for (size_t i = 0; i < ph.reduced.size(); ++i) CHECK(referencePartRank(ph.parts[ph.reduced[i]], y) == v[i]);
        for (int s : ph.symmetries) {
            for (int j : ph.reduced)
                CHECK(referencePartRank(ph.parts[j], conj(x, s)) == referencePartRank(ph.parts[j], conj(y, s)));
            // The flip alone: the state with x's flip and solved slice.
            const ir::Element f = referencePartUnrank(ph.parts[2], referencePartRank(ph.parts[2], x), p.orbits);
            if (referencePartRank(ph.parts[2], conj(x, s)) != referencePartRank(ph.parts[2], conj(f, s))) flipAloneFails = true;
        }
    }
    CHECK(flipAloneFails);
}

TEST_CASE("coset pattern lookups: one per coset of the symmetries keeping the subgroup (the cube's G1 on 3 axes)") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    PuzzleAnalysis a(p);
    const std::vector<int> moves = allMoves(p);
    const auto& group = a.symmetries();
    REQUIRE(group.elements.size() == 48);
    // H48 is kept by all 48 symmetries: the state itself only.
    CHECK(symmetryCosetRepresentatives(a, subgroupIndex(p, "H48"), moves, 8) == std::vector<int>{0});
    // Kociemba's G1 by the 16 that keep the U-D axis: 3 lookups, one per axis.
    const int h = subgroupIndex(p, "domino");
    const std::vector<int> reps = symmetryCosetRepresentatives(a, h, moves, 8);
    REQUIRE(reps.size() == 3);
    CHECK(reps[0] == 0);
    CHECK(symmetryCosetRepresentatives(a, h, moves, 2).size() == 2);  // the limit
    // Read as the search does (S^-1 x S): U is in G1; its conjugates by the
    // other two representatives are quarter turns of other axes (not in G1)
    // and lie in different cosets of G1.
    CosetCoordinate c = cosetCoordinate(a, h);
    const ir::Element solved = ir::identity(p.orbits);
    const uint64_t goal = rankAll(c.parts, solved);
    int u = -1;
    for (size_t m = 0; m < p.moves.size(); ++m)
        if (p.moves[m].name == "U") u = (int)m;
    REQUIRE(u >= 0);
    std::vector<uint64_t> ranks;
    for (int s : reps) {
        const ir::Element& S = group.elements[s];
        const ir::Element x = ir::compose(ir::compose(ir::inverse(S, p.orbits), p.moves[u].effect, p.orbits), S, p.orbits);
        ranks.push_back(rankAll(c.parts, x));
    }
    CHECK(ranks[0] == goal);
    CHECK(ranks[1] != goal);
    CHECK(ranks[2] != goal);
    CHECK(ranks[1] != ranks[2]);
}

TEST_CASE("coset pattern moves in the subgroup: H48 holds the half turns, G1 ten moves per axis") {
    ir::Puzzle p = load("puzzles/cube3.pz");
    PuzzleAnalysis a(p);
    DiagnosticEngine diags;
    CanonicalAutomaton canon = buildCanonicalAutomaton(p, a);
    auto planOf = [&](const std::string& pattern) {
        for (size_t i = 0; i < p.patterns.size(); ++i)
            if (p.patterns[i].name == pattern) {
                PhasePlan plan;
                REQUIRE(buildCosetPatternPlan(a, (int)i, canon.searchMoves, plan, diags));
                return plan;
            }
        FAIL("no pattern " << pattern);
        return PhasePlan{};
    };
    auto names = [&](const std::vector<int>& moves) {
        std::vector<std::string> v;
        for (int i : moves) v.push_back(p.moves[canon.searchMoves[i]].name);
        std::sort(v.begin(), v.end());
        return v;
    };
    PhasePlan h48 = planOf("h48");
    REQUIRE(h48.lookupMovesInSubgroup.size() == 1);
    CHECK(names(h48.lookupMovesInSubgroup[0]) == std::vector<std::string>{"B2", "D2", "F2", "L2", "R2", "U2"});

    // A coset pattern of G1 (declared here: cube3.pz's solvers do not use one).
    p.patterns.push_back(ir::Pattern{});
    p.patterns.back().name = "g1";
    p.patterns.back().cosetSubgroup = subgroupIndex(p, "domino");
    PuzzleAnalysis b(p);
    PhasePlan g1;
    REQUIRE(buildCosetPatternPlan(b, (int)p.patterns.size() - 1, canon.searchMoves, g1, diags));
    REQUIRE(g1.lookupMovesInSubgroup.size() == 3);
    CHECK(names(g1.lookupMovesInSubgroup[0]) ==
          std::vector<std::string>{"B2", "D", "D'", "D2", "F2", "L2", "R2", "U", "U'", "U2"});
    // Read on the other axes, the quarter turns allowed are another face pair's.
    for (size_t l = 1; l < 3; ++l) {
        const auto v = names(g1.lookupMovesInSubgroup[l]);
        CHECK(v.size() == 10);
        CHECK(std::count(v.begin(), v.end(), "U") == 0);
    }
    CHECK(names(g1.lookupMovesInSubgroup[1]) != names(g1.lookupMovesInSubgroup[2]));
}
