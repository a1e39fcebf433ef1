#include "compiler/analysis/perm/puzzle_analysis.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "compiler/ir/element.hpp"

using namespace pz;
using namespace pz::analysis;

namespace {

// The 3x3x3 cube built directly in the IR from the cubie tables of Kociemba's
// convention ("position i is replaced by cubie cp[i] with twist co[i]"),
// which is exactly note [element convention]. Corners URF UFL ULB UBR DFR DLF
// DBL DRB; edges UR UF UL UB DR DF DL DB FR FL BL BR.
ir::Element cubie(std::vector<int> cp, std::vector<int> co, std::vector<int> ep, std::vector<int> eo) {
    ir::Element e;
    e.perm = {cp, ep};
    e.ori = {co, eo};
    return e;
}

ir::Puzzle cube3() {
    ir::Puzzle p;
    p.name = "cube3";
    p.file = "<test>";
    ir::Orbit corners{"corners", 8, 3, {}, {0, 1, 2, 3, 4, 5, 6, 7}, {}};
    ir::Orbit edges{"edges", 12, 2, {}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {}};
    p.orbits = {corners, edges};
    const std::vector<int> z8(8, 0), z12(12, 0);
    std::vector<std::pair<std::string, ir::Element>> faces = {
        {"U", cubie({3, 0, 1, 2, 4, 5, 6, 7}, z8, {3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11}, z12)},
        {"R", cubie({4, 1, 2, 0, 7, 5, 6, 3}, {2, 0, 0, 1, 1, 0, 0, 2}, {8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0}, z12)},
        {"F", cubie({1, 5, 2, 3, 0, 4, 6, 7}, {1, 2, 0, 0, 2, 1, 0, 0}, {0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11},
                    {0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0})},
        {"D", cubie({0, 1, 2, 3, 5, 6, 7, 4}, z8, {0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11}, z12)},
        {"L", cubie({0, 2, 6, 3, 4, 1, 5, 7}, {0, 1, 2, 0, 0, 2, 1, 0}, {0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11}, z12)},
        {"B", cubie({0, 1, 3, 7, 4, 5, 2, 6}, {0, 0, 1, 2, 0, 0, 2, 1}, {0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7},
                    {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1})},
    };
    for (auto& [name, base] : faces) {
        int family = (int)p.families.size();
        p.families.push_back({name, base, 4, {}});
        const char* suffix[] = {"", "2", "'"};
        for (int k = 1; k <= 3; ++k)
            p.moves.push_back({name + suffix[k - 1], family, k, true, ir::power(base, k, p.orbits)});
    }
    return p;
}

int moveIndex(const ir::Puzzle& p, const std::string& name) {
    for (size_t m = 0; m < p.moves.size(); ++m)
        if (p.moves[m].name == name) return (int)m;
    return -1;
}

}  // namespace

TEST_CASE("analysis: cube3 group order, move orders, inverses, commutation") {
    ir::Puzzle cube = cube3();
    PuzzleAnalysis a(cube);
    CHECK(a.groupOrder() == mpz_class("43252003274489856000"));
    CHECK(a.familyOrders() == std::vector<long>(6, 4));
    CHECK(a.inverseMove()[moveIndex(cube, "R")] == moveIndex(cube, "R'"));
    CHECK(a.inverseMove()[moveIndex(cube, "R2")] == moveIndex(cube, "R2"));
    CHECK(a.commutes()[moveIndex(cube, "U")][moveIndex(cube, "D2")]);
    CHECK_FALSE(a.commutes()[moveIndex(cube, "U")][moveIndex(cube, "R")]);
    CHECK(a.commutationClasses().size() == 3);  // the three axes

    // Membership: any move word is in; a single corner twist or edge flip is not.
    ir::Element sexy = ir::identity(cube.orbits);
    for (const char* m : {"R", "U", "R'", "U'"})
        sexy = ir::compose(sexy, cube.moves[moveIndex(cube, m)].effect, cube.orbits);
    CHECK(a.contains(sexy));
    ir::Element twist = ir::identity(cube.orbits);
    twist.ori[0][0] = 1;
    CHECK_FALSE(a.contains(twist));
    ir::Element flip = ir::identity(cube.orbits);
    flip.ori[1][0] = 1;
    CHECK_FALSE(a.contains(flip));
    ir::Element swap = ir::identity(cube.orbits);
    std::swap(swap.perm[1][0], swap.perm[1][1]);
    CHECK_FALSE(a.contains(swap));
    ir::Element twoFlips = flip;
    twoFlips.ori[1][5] = 1;
    CHECK(a.contains(twoFlips));
}

TEST_CASE("analysis: cube3 subgroups by generators and by invariants") {
    ir::Puzzle cube = cube3();
    ir::Subgroup g1;
    g1.name = "G1";
    for (const char* m : {"U", "D", "R2", "L2", "F2", "B2"}) {
        g1.generators.push_back(cube.moves[moveIndex(cube, m)].effect);
        g1.generatorText.push_back(m);
    }
    // H48's target: corners stay in their tetrads and oriented, edges in their slices.
    ir::Subgroup h48;
    h48.name = "H48";
    h48.keepIn.push_back({0, {{0, 2, 5, 7}, {1, 3, 4, 6}}});
    h48.keepIn.push_back({1, {{1, 3, 5, 7}, {8, 9, 10, 11}, {0, 2, 4, 6}}});
    h48.oriented.push_back({0, {}});
    // Kociemba's G1 again, by invariants: orientations solved, E-slice edges in the slice.
    ir::Subgroup g1inv;
    g1inv.name = "G1inv";
    g1inv.keepIn.push_back({1, {{8, 9, 10, 11}}});
    g1inv.oriented.push_back({0, {}});
    g1inv.oriented.push_back({1, {}});
    cube.subgroups = {g1, h48, g1inv};

    PuzzleAnalysis a(cube);
    CHECK(a.subgroup(0).order == mpz_class("19508428800"));
    CHECK(a.subgroup(0).index == mpz_class("2217093120"));
    CHECK(a.subgroup(1).order == mpz_class("8153726976"));
    CHECK(a.subgroup(1).index == mpz_class("5304568500"));
    CHECK(a.subgroup(2).order == mpz_class("19508428800"));
    // Membership in subgroups by generators and by invariants agrees.
    ir::Element inG1 = ir::identity(cube.orbits);
    for (const char* m : {"U", "R2", "D'", "F2", "B2", "L2", "U2"})
        inG1 = ir::compose(inG1, cube.moves[moveIndex(cube, m)].effect, cube.orbits);
    ir::Element notInG1 = ir::compose(inG1, cube.moves[moveIndex(cube, "F")].effect, cube.orbits);
    CHECK(*a.subgroupContains(0, inG1));
    CHECK(*a.subgroupContains(2, inG1));
    CHECK_FALSE(*a.subgroupContains(0, notInG1));
    CHECK_FALSE(*a.subgroupContains(2, notInG1));
    CHECK_FALSE(*a.subgroupContains(1, inG1));
    DiagnosticEngine diags;
    CHECK(a.check(diags));
    CHECK(a.satisfiesInvariants(2, cube.moves[moveIndex(cube, "U")].effect));
    CHECK_FALSE(a.satisfiesInvariants(2, cube.moves[moveIndex(cube, "R")].effect));
    CHECK(a.satisfiesInvariants(2, cube.moves[moveIndex(cube, "R2")].effect));
}

TEST_CASE("analysis: bad subgroup generators are diagnosed") {
    ir::Puzzle cube = cube3();
    ir::Subgroup bad;
    bad.name = "bad";
    bad.generators.push_back(cube.moves[moveIndex(cube, "R")].effect);
    bad.generatorText.push_back("R");
    bad.oriented.push_back({0, {}});
    ir::Element twist = ir::identity(cube.orbits);
    twist.ori[0][0] = 1;
    ir::Subgroup outside;
    outside.name = "outside";
    outside.generators.push_back(twist);
    outside.generatorText.push_back("twist");
    cube.subgroups = {bad, outside};
    PuzzleAnalysis a(cube);
    DiagnosticEngine diags;
    CHECK_FALSE(a.check(diags));
    REQUIRE(diags.errorCount() == 2);
    CHECK(diags.all()[0].message.find("breaks its invariants") != std::string::npos);
    CHECK(diags.all()[1].message.find("not in the puzzle's group") != std::string::npos);
    CHECK_FALSE(a.subgroup(1).generatorsInGroup);
}

// An element from cycles per orbit; {position, twist} pairs, a cycle moves the
// piece at each entry to the next and adds the twist to the piece leaving.
ir::Element fromCycles(const std::vector<ir::Orbit>& orbits,
                       const std::vector<std::vector<std::vector<std::pair<int, int>>>>& perOrbit) {
    ir::Element e = ir::identity(orbits);
    for (size_t o = 0; o < perOrbit.size(); ++o)
        for (const auto& cycle : perOrbit[o])
            for (size_t i = 0; i < cycle.size(); ++i) {
                const auto [from, twist] = cycle[i];
                const int to = cycle[(i + 1) % cycle.size()].first;
                e.perm[o][to] = from;
                e.ori[o][to] = twist;
            }
    return e;
}

TEST_CASE("analysis: symmetry closure of the cube's quarter turn about U-D") {
    ir::Puzzle cube = cube3();
    // The whole cube turned a quarter about U-D; slice edges change reference face.
    ir::Element u4 = fromCycles(cube.orbits, {{{{0, 0}, {1, 0}, {2, 0}, {3, 0}}, {{4, 0}, {5, 0}, {6, 0}, {7, 0}}},
                                              {{{0, 0}, {1, 0}, {2, 0}, {3, 0}},
                                               {{4, 0}, {5, 0}, {6, 0}, {7, 0}},
                                               {{8, 1}, {9, 1}, {10, 1}, {11, 1}}}});
    cube.symmetries.push_back({"S_U4", u4, {}});
    PuzzleAnalysis a(cube);
    DiagnosticEngine diags;
    CHECK(a.check(diags));
    const auto& sym = a.symmetries();
    REQUIRE(sym.elements.size() == 4);
    CHECK(sym.names[0].empty());
    CHECK(sym.names[2] == "S_U4 S_U4");
    CHECK(sym.inverse[1] == 3);
    CHECK(sym.declared == std::vector<int>{1});
    CHECK(sym.product[1][3] == 0);
    CHECK(sym.moveMap[1][moveIndex(cube, "U")] == moveIndex(cube, "U"));
    CHECK(sym.moveMap[1][moveIndex(cube, "D2")] == moveIndex(cube, "D2"));
    // The four side faces are permuted in one 4-cycle, powers preserved.
    int r = moveIndex(cube, "R");
    std::set<std::string> images;
    for (int s = 0; s < 4; ++s) images.insert(cube.moves[sym.moveMap[s][r]].name);
    CHECK(images == std::set<std::string>{"R", "F", "L", "B"});
    CHECK(cube.moves[sym.moveMap[1][moveIndex(cube, "R2")]].power == 2);
}

TEST_CASE("analysis: a symmetry that does not map moves to moves is diagnosed") {
    ir::Puzzle cube = cube3();
    ir::Element swap = fromCycles(cube.orbits, {{{{0, 0}, {1, 0}}}, {}});
    cube.symmetries.push_back({"bogus", swap, SourceRange::at(3, 5, 5)});
    PuzzleAnalysis a(cube);
    DiagnosticEngine diags;
    CHECK_FALSE(a.check(diags));
    REQUIRE(diags.errorCount() == 1);
    CHECK(diags.all()[0].range.line == 3);
    CHECK(diags.all()[0].message == "symmetry 'bogus' does not map move 'U' to a move");
}

TEST_CASE("analysis: random elements of the Floppy cube are uniform, both parities") {
    // Floppy (1x3x3): corners FL FR BR BL, edges F R B L (flip = orientation 1).
    // Each half turn swaps two corners and flips one edge: every move is an
    // odd corner permutation, so a random walk of even length only reaches
    // even elements; uniform random elements must reach both.
    ir::Puzzle p;
    p.name = "floppy";
    p.file = "<test>";
    p.orbits = {ir::Orbit{"corners", 4, 1, {}, {0, 1, 2, 3}, {}}, ir::Orbit{"edges", 4, 2, {}, {0, 1, 2, 3}, {}}};
    const int swaps[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    for (int f = 0; f < 4; ++f) {
        ir::Element e = ir::identity(p.orbits);
        std::swap(e.perm[0][swaps[f][0]], e.perm[0][swaps[f][1]]);
        e.ori[1][f] = 1;
        p.families.push_back({"m" + std::to_string(f), e, 2, {}});
        p.moves.push_back({"m" + std::to_string(f), f, 1, true, e});
    }
    PuzzleAnalysis a(p);
    REQUIRE(a.groupOrder() == 192);
    auto odd = [](const std::vector<int>& perm) {
        int parity = 0;
        for (size_t i = 0; i < perm.size(); ++i)
            for (size_t j = i + 1; j < perm.size(); ++j) parity ^= perm[i] > perm[j];
        return parity == 1;
    };
    std::mt19937_64 rng(2026);
    std::map<std::pair<std::vector<std::vector<int>>, std::vector<std::vector<int>>>, int> counts;
    const int samples = 192 * 50;
    int oddCount = 0;
    for (int i = 0; i < samples; ++i) {
        ir::Element e = a.randomElement(rng);
        REQUIRE_FALSE(e.mirror);
        REQUIRE(e.perm.size() == 2);
        REQUIRE(a.contains(e));
        oddCount += odd(e.perm[0]);
        ++counts[{e.perm, e.ori}];
    }
    CHECK(counts.size() == 192);
    const double expected = samples / 192.0;
    double chi = 0;
    for (const auto& [k, c] : counts) chi += (c - expected) * (c - expected) / expected;
    // df = 191, sd = sqrt(382) ~ 19.5: mean + 5 sd.
    CHECK(chi < 191 + 5 * 19.5);
    CHECK(oddCount > samples / 2 - 300);
    CHECK(oddCount < samples / 2 + 300);
    // The identity element and the moves come back as themselves.
    CHECK(a.contains(p.moves[2].effect));
}
