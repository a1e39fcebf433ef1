// Lowering: the shipped definitions load with the moves they document, and
// bad definitions are rejected with every error reported.
#include "compiler/ir/lower.hpp"

#include <catch2/catch.hpp>
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
