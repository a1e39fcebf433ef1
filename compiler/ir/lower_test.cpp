// Lowering: the shipped definitions load with the moves they document, and
// bad definitions are rejected with every error reported.
#include "compiler/ir/lower.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <iostream>

#include "compiler/ir/element.hpp"
#include "dsl/frontend.hpp"

using namespace pz;
using namespace pz::ir;

namespace {

Puzzle load(const std::string& path) {
    DiagnosticEngine diags;
    auto p = loadPuzzle(path, diags);
    if (!p) diags.print(std::cerr);
    REQUIRE(p);
    return *p;
}

const Move& move(const Puzzle& p, const std::string& name) {
    for (const auto& m : p.moves)
        if (m.name == name) return m;
    FAIL("no move " << name);
    throw 0;
}

Element eval(const Puzzle& p, const std::string& text) {
    DiagnosticEngine diags;
    auto e = evaluateText(p, text, "<test>", diags);
    if (!e) diags.print(std::cerr);
    REQUIRE(e);
    return *e;
}

// Where the piece solved at `from` is after applying e to solved.
int whereIs(const Element& e, int orbit, int from) {
    for (size_t p = 0; p < e.perm[orbit].size(); ++p)
        if (e.perm[orbit][p] == from) return (int)p;
    return -1;
}

std::optional<Puzzle> lowerText(const std::string& text, DiagnosticEngine& diags) {
    auto ast = parsePzText("test.pz", text, diags);
    if (!ast) return std::nullopt;
    return lower(*ast, diags);
}

}  // namespace

TEST_CASE("slide4 moves", "[lower]") {
    Puzzle p = load("puzzles/slide4.pz");
    REQUIRE(p.moves.size() == 24);
    REQUIRE(p.families.size() == 8);
    std::vector<std::string> first = {"R1", "R1x2", "R1x3", "R2"};
    for (size_t i = 0; i < first.size(); ++i) CHECK(p.moves[i].name == first[i]);
    for (const auto& m : p.moves) CHECK(m.inMetric);
    for (const auto& f : p.families) CHECK(f.order == 4);

    const Element& r1 = move(p, "R1").effect;
    CHECK(whereIs(r1, 0, 0) == 1);
    CHECK(whereIs(r1, 0, 3) == 0);
    CHECK(whereIs(move(p, "C1").effect, 0, 0) == 4);
    CHECK(whereIs(move(p, "C4").effect, 0, 15) == 3);
    CHECK(whereIs(move(p, "R4").effect, 0, 12) == 13);
    CHECK(compose(r1, move(p, "R1x3").effect, p.orbits) == identity(p.orbits));
    CHECK(move(p, "R1x3").effect == inverse(r1, p.orbits));
    CHECK(move(p, "R1x2").effect == power(r1, 2, p.orbits));
    CHECK(eval(p, "R1 R1") == move(p, "R1x2").effect);
    CHECK(eval(p, "R1'") == move(p, "R1x3").effect);
    CHECK(p.symmetries.size() == 4);
}

TEST_CASE("expressions: inverse, power, commutator, conjugate", "[lower]") {
    Puzzle p = load("puzzles/slide4.pz");
    auto& o = p.orbits;
    Element a = move(p, "R1").effect, b = move(p, "C1").effect;
    CHECK(eval(p, "[R1, C1]") == compose(compose(compose(a, b, o), inverse(a, o), o), inverse(b, o), o));
    CHECK(eval(p, "[R1: C1]") == compose(compose(a, b, o), inverse(a, o), o));
    CHECK(eval(p, "(R1 C1)^-1") == inverse(compose(a, b, o), o));
    CHECK(eval(p, "(R1 C1)'") == eval(p, "C1' R1'"));
    CHECK(eval(p, "R1^4") == identity(o));
    CHECK(eval(p, "()") == identity(o));
    CHECK(eval(p, "") == identity(o));
    DiagnosticEngine diags;
    CHECK_FALSE(evaluateText(p, "R1 X9 (", "<bad>", diags));
    CHECK(diags.errorCount() >= 1);
}

TEST_CASE("family order matches ir::order", "[lower]") {
    for (auto path : {"puzzles/slide4.pz", "tests/puzzles/loopover3.pz"}) {
        Puzzle p = load(path);
        for (const auto& f : p.families) CHECK(f.order == order(f.base, p.orbits));
    }
}

TEST_CASE("lowering reports every error", "[lower]") {
    DiagnosticEngine diags;
    auto p = lowerText(R"(puzzle bad {
  orbit a 4 orient 2 { p q r s }
  orbit a 3;
  move X = a (p q p);
  move Y = a (p+2 q) b (0 1);
  move Z = a (9 q);
  macro M = X Nope;
  subgroup G = <W>;
})", diags);
    CHECK_FALSE(p);
    std::vector<std::string> messages;
    for (const auto& d : diags.all()) messages.push_back(d.message);
    INFO(Catch::Detail::stringify(messages));
    CHECK(diags.errorCount() == 7);
}

namespace {
// Closes elements under composition (small groups only).
size_t closureSize(const std::vector<Element>& gens, const std::vector<Orbit>& orbits) {
    std::vector<Element> all = {identity(orbits)};
    for (size_t i = 0; i < all.size(); ++i)
        for (const auto& g : gens) {
            Element x = compose(all[i], g, orbits);
            if (std::find(all.begin(), all.end(), x) == all.end()) all.push_back(x);
        }
    return all.size();
}
std::vector<Element> symmetryElements(const Puzzle& p) {
    std::vector<Element> out;
    for (const auto& s : p.symmetries) out.push_back(s.effect);
    return out;
}
}  // namespace

TEST_CASE("cube3 moves and element algebra", "[lower]") {
    Puzzle p = load("puzzles/cube3.pz");
    REQUIRE(p.moves.size() == 18);
    CHECK(p.moves[0].name == "U");
    CHECK(p.moves[1].name == "U2");
    CHECK(p.moves[2].name == "U'");
    for (const auto& f : p.families) CHECK(f.order == 4);
    auto orderOf = [&](const std::string& text) { return order(eval(p, text), p.orbits); };
    CHECK(orderOf("R U") == 105);
    CHECK(orderOf("R U'") == 63);
    CHECK(orderOf("sexy") == 6);
    CHECK(orderOf("R U2 D' B D'") == 1260);
    CHECK(eval(p, "(R U)^105") == identity(p.orbits));
    // Superflip: every edge flipped in place, corners solved; central element.
    Element superflip = eval(p, "superflip");
    CHECK(superflip.perm == identity(p.orbits).perm);
    CHECK(superflip.ori[0] == std::vector<int>(8, 0));
    CHECK(superflip.ori[1] == std::vector<int>(12, 1));
    for (const auto& m : p.moves)
        CHECK(compose(superflip, m.effect, p.orbits) == compose(m.effect, superflip, p.orbits));
    // Corner twist sums stay 0 mod 3, edge flip sums 0 mod 2.
    for (const auto& m : p.moves) {
        int twist = 0, flip = 0;
        for (int v : m.effect.ori[0]) twist += v;
        for (int v : m.effect.ori[1]) flip += v;
        CHECK(twist % 3 == 0);
        CHECK(flip % 2 == 0);
    }
    // The mirror maps R to L'.
    const auto& lr = p.symmetries[3];
    REQUIRE(lr.name == "S_LR2");
    CHECK(lr.effect.mirror);
    CHECK(compose(compose(lr.effect, move(p, "R").effect, p.orbits), inverse(lr.effect, p.orbits), p.orbits) ==
          move(p, "L'").effect);
    CHECK(closureSize(symmetryElements(p), p.orbits) == 48);
    REQUIRE(p.subgroups.size() == 4);
    CHECK(p.subgroups[0].generatorText == std::vector<std::string>{"U", "D", "R2", "L2", "F2", "B2"});
    CHECK(p.subgroups[1].keepIn.size() == 2);
    // H11 = H48 with every edge oriented (both orbits oriented, every position).
    REQUIRE(p.subgroups[2].name == "H11");
    CHECK(p.subgroups[2].keepIn.size() == 2);
    CHECK(p.subgroups[2].oriented.size() == 2);
    // A projected coset pattern: H11's coordinate keeping three edge orientations.
    const auto h3 = std::find_if(p.patterns.begin(), p.patterns.end(), [](const Pattern& x) { return x.name == "h48h3"; });
    REQUIRE(h3 != p.patterns.end());
    CHECK(h3->cosetSubgroup == 2);
    REQUIRE(h3->parts.size() == 1);
    CHECK(h3->parts[0].orientations);
    CHECK_FALSE(h3->parts[0].positions);
    CHECK(h3->parts[0].pieces == std::vector<int>{0, 1, 2});  // UR UF UL
    REQUIRE(p.solvers.size() == 6);
    CHECK(p.solvers[0].kind == Solver::Kind::Optimal);  // the default: h48h3
    CHECK(p.solvers[0].patterns == std::vector<int>{(int)(h3 - p.patterns.begin())});
    for (int s = 1; s <= 4; ++s)  // optimal_h6, optimal_h5, optimal_h2, optimal_h0: for --memory
        CHECK(p.solvers[static_cast<size_t>(s)].kind == Solver::Kind::Optimal);
    const auto h6 = std::find_if(p.patterns.begin(), p.patterns.end(), [](const Pattern& x) { return x.name == "h48h6"; });
    REQUIRE(h6 != p.patterns.end());
    CHECK(h6->parts[0].pieces == std::vector<int>{0, 1, 2, 3, 4, 5});  // UR UF UL UB DR DF
    CHECK(p.solvers[1].patterns == std::vector<int>{(int)(h6 - p.patterns.begin())});
    CHECK(p.solvers[5].kind == Solver::Kind::Phased);
}

TEST_CASE("slide4 symmetries form a group of 128", "[lower]") {
    Puzzle p = load("puzzles/slide4.pz");
    CHECK(closureSize(symmetryElements(p), p.orbits) == 128);
}

TEST_CASE("rotate4o moves", "[lower]") {
    Puzzle p = load("puzzles/rotate4o.pz");
    REQUIRE(p.moves.size() == 27);
    for (const auto& f : p.families) CHECK(f.order == 4);
    const Element& ul = move(p, "UL").effect;
    CHECK(whereIs(ul, 0, 0) == 1);
    CHECK(whereIs(ul, 0, 1) == 5);
    CHECK(whereIs(ul, 0, 5) == 4);
    CHECK(whereIs(ul, 0, 4) == 0);
    CHECK(ul.ori[0][1] == 1);
    CHECK(ul.ori[0][0] == 1);
    CHECK(ul.ori[0][2] == 0);
    CHECK(move(p, "DR'").effect == inverse(move(p, "DR").effect, p.orbits));
    CHECK(p.subgroups.at(0).generators.size() == 9);
    CHECK(closureSize(symmetryElements(p), p.orbits) == 8);
}

TEST_CASE("anima grid rules", "[lower]") {
    Puzzle p = load("puzzles/anima.pz");
    REQUIRE(p.kind == Puzzle::Kind::Grid);
    REQUIRE(p.grid.directions.size() == 4);
    CHECK(p.grid.directions[0].name == "up");
    CHECK(p.grid.directions[0].dy == 1);
    REQUIRE(p.grid.colours.size() == 2);
    CHECK(p.grid.colours[0].actorChar == 'R');
    CHECK(p.grid.colours[1].goalChar == 'b');
    CHECK(p.grid.colours[0].motion == std::vector<int>{0, 1, 2, 3});
    CHECK(p.grid.colours[1].motion == std::vector<int>{1, 0, 3, 2});
    REQUIRE(p.grid.levelPaths.size() == 23);
    CHECK(p.grid.levelPaths[0] == "puzzles/anima/levels/1.1-line_dance.txt");
    CHECK(p.grid.levelPaths[22] == "puzzles/anima/levels/3.14-antiparticle.txt");
}

TEST_CASE("the YAML twins lower to the same IR", "[lower]") {
    for (std::string name : {"slide4", "cube3", "rotate4o"}) {
        Puzzle pz = load("puzzles/" + name + ".pz");
        Puzzle yaml = load("puzzles/" + name + ".yaml");
        REQUIRE(pz.moves.size() == yaml.moves.size());
        for (size_t i = 0; i < pz.moves.size(); ++i) {
            CHECK(pz.moves[i].name == yaml.moves[i].name);
            CHECK(pz.moves[i].effect == yaml.moves[i].effect);
        }
        REQUIRE(pz.symmetries.size() == yaml.symmetries.size());
        for (size_t i = 0; i < pz.symmetries.size(); ++i) CHECK(pz.symmetries[i].effect == yaml.symmetries[i].effect);
        CHECK(pz.subgroups.size() == yaml.subgroups.size());
        CHECK(pz.patterns.size() == yaml.patterns.size());
        CHECK(pz.solvers.size() == yaml.solvers.size());
    }
}

TEST_CASE("uncounted powers and power aliases", "[lower]") {
    DiagnosticEngine diags;
    auto p = lowerText(R"(puzzle p {
  orbit a 4;
  powers { 1: ""; 2: "2" uncounted; -1: "'"; 3: "x3"; }
  move Q = a (0 1 2 3);
  move H = a (0 1);
})", diags);
    diags.print(std::cerr);
    REQUIRE(p);
    // Q: order 4, x3 aliases Q'. H: order 2, H2 is the identity, H' aliases H.
    std::vector<std::string> names;
    for (const auto& m : p->moves) names.push_back(m.name);
    CHECK(names == std::vector<std::string>{"Q", "Q2", "Q'", "H"});
    CHECK_FALSE(p->moves[1].inMetric);
    CHECK(p->moves[2].power == 3);
    CHECK(eval(*p, "H'") == p->moves[3].effect);
}
