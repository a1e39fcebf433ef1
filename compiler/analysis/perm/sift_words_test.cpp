// Sift words (note [sift words]): every stored sequence does what the table
// says, random group elements are solved, non-members are refused, the
// shortener keeps the effect, and the table depends on the definition only.
#include "compiler/analysis/perm/sift_words.hpp"

#include <catch2/catch.hpp>

#include <set>

#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

using namespace pz;

namespace {

ir::Puzzle load(const std::string& path) {
    DiagnosticEngine diags;
    auto p = ir::loadPuzzle(path, diags);
    REQUIRE(p);
    return *p;
}

std::vector<int> metricOf(const ir::Puzzle& p) {
    std::vector<int> m;
    for (size_t i = 0; i < p.moves.size(); ++i)
        if (p.moves[i].inMetric) m.push_back(static_cast<int>(i));
    return m;
}

ir::Element replay(const ir::Puzzle& p, ir::Element e, const std::vector<int>& moves) {
    for (int m : moves) e = ir::compose(e, p.moves[m].effect, p.orbits);
    return e;
}

// Each entry's word has its stored effect, fixes the earlier levels' pieces
// and brings the piece at its place home.
void checkEntries(const ir::Puzzle& p, const analysis::SiftWords& t) {
    analysis::PointAction points(p.orbits);
    for (size_t i = 0; i < t.levels.size(); ++i) {
        const auto& level = t.levels[i];
        for (size_t x = 0; x < level.slot.size(); ++x) {
            if (level.slot[x] < 0) continue;
            const auto& entry = t.entries[level.slot[x]];
            analysis::Perm g = analysis::identityPerm(points.pointCount());
            for (uint16_t l : entry.word) g = analysis::composePerm(g, points.toPoints(p.moves[t.metric[l]].effect));
            REQUIRE(g == entry.perm);
            REQUIRE(g[x] == level.base);
            for (size_t j = 0; j < i; ++j) REQUIRE(g[t.levels[j].base] == t.levels[j].base);
        }
    }
}

void solveRandom(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, const analysis::SiftWords& t, int count) {
    analysis::PointAction points(p.orbits);
    analysis::WordShortener shortener(p, a, t.metric);
    const auto directions = analysis::siftDirections(a, t.metric, 96);
    REQUIRE(!directions.empty());
    REQUIRE(ir::isIdentity(directions[0].by));
    REQUIRE(!directions[0].inverse);
    std::mt19937_64 rng(42);
    for (int k = 0; k < count; ++k) {
        ir::Element e = a.randomElement(rng);
        auto moves = analysis::siftSolve(t, points, e, p);
        REQUIRE(moves);
        REQUIRE(ir::isIdentity(replay(p, e, *moves)));
        auto shorter = shortener.shorten(*moves);
        REQUIRE(shorter.size() <= moves->size());
        REQUIRE(ir::isIdentity(replay(p, e, shorter)));
        // From every direction (note [sift directions]): never longer than the plain answer.
        auto best = analysis::siftSolveBest(t, points, shortener, directions, p, e);
        REQUIRE(best);
        REQUIRE(best->size() <= shorter.size());
        REQUIRE(ir::isIdentity(replay(p, e, *best)));
    }
}

// A definition, its analysis and its sift table, built and checked entry by entry.
struct BuiltSift {
    explicit BuiltSift(const std::string& file) : p(load(file)), a(p) {
        std::string why;
        auto built = analysis::buildSiftWords(a, metricOf(p), why);
        INFO(why);
        REQUIRE(built);
        table = std::move(*built);
        checkEntries(p, table);
    }
    ir::Puzzle p;
    analysis::PuzzleAnalysis a;
    analysis::SiftWords table;
};

}  // namespace

TEST_CASE("sift words solve the 2x2x2 and refuse what is not in its group", "[sift]") {
    BuiltSift built("puzzles/cube2.pz");
    const ir::Puzzle& p = built.p;
    analysis::PuzzleAnalysis& a = built.a;
    const analysis::SiftWords* t = &built.table;
    // The table covers the group exactly: the places per level multiply to its order.
    mpz_class product = 1;
    for (const auto& level : t->levels) product *= level.count;
    REQUIRE(product == a.groupOrder());
    solveRandom(p, a, *t, 50);
    // One corner twisted in place is not a state of the cube.
    ir::Element twisted = ir::identity(p.orbits);
    twisted.ori[0][0] = 1;
    REQUIRE(!analysis::siftSolve(*t, analysis::PointAction(p.orbits), twisted, p));
}

TEST_CASE("sift words solve 5x5 Loopover and Megaminx random states", "[sift]") {
    for (const char* file : {"puzzles/loopover5.pz", "puzzles/megaminx.pz"}) {
        BuiltSift built(file);
        const ir::Puzzle& p = built.p;
        analysis::PuzzleAnalysis& a = built.a;
        const analysis::SiftWords* t = &built.table;
        solveRandom(p, a, *t, 10);
        // A swap of two tiles (odd) is not in A25; a flipped edge is not a Megaminx state.
        ir::Element odd = ir::identity(p.orbits);
        if (p.orbits.size() == 1) std::swap(odd.perm[0][0], odd.perm[0][1]);
        else odd.ori[1][0] = 1;
        REQUIRE(!analysis::siftSolve(*t, analysis::PointAction(p.orbits), odd, p));
        analysis::WordShortener shortener(p, a, t->metric);
        REQUIRE(!analysis::siftSolveBest(*t, analysis::PointAction(p.orbits), shortener,
                                         analysis::siftDirections(a, t->metric, 96), p, odd));
    }
}

TEST_CASE("a sift table that passes its work budget is refused, the same way every time", "[sift]") {
    const ir::Puzzle p = load("puzzles/megaminx.pz");
    analysis::PuzzleAnalysis a(p);
    std::string why;
    auto full = analysis::buildSiftWords(a, metricOf(p), why);
    REQUIRE(full);
    REQUIRE(full->stats.work > 1'000'000);
    REQUIRE(full->stats.work <= analysis::kMaxSiftWork);
    // A budget below what the table takes: refused, and at the same point each time.
    std::string first, second;
    REQUIRE(!analysis::buildSiftWords(a, metricOf(p), first, full->stats.work / 2));
    REQUIRE(!analysis::buildSiftWords(a, metricOf(p), second, full->stats.work / 2));
    CHECK(first.find("took more than its budget of " + std::to_string(full->stats.work / 2) + " steps") != std::string::npos);
    CHECK(first == second);
    // At exactly its own work the table is built, and the same one.
    auto again = analysis::buildSiftWords(a, metricOf(p), why, full->stats.work);
    REQUIRE(again);
    CHECK(again->stats.work == full->stats.work);
    CHECK(again->stats.bound == full->stats.bound);
}

TEST_CASE("sift words solve a puzzle with identical pieces (4x4x4 centres)", "[sift]") {
    const ir::Puzzle p = load("puzzles/cube4.pz");
    analysis::PuzzleAnalysis a(p);
    std::string why;
    auto t = analysis::buildSiftWords(a, metricOf(p), why);
    REQUIRE(t);
    analysis::PointAction points(p.orbits);
    analysis::WordShortener shortener(p, a, t->metric);
    const auto directions = analysis::siftDirections(a, t->metric, 96);
    REQUIRE(directions.size() == 1);  // the position itself only
    std::mt19937_64 rng(3);
    for (int k = 0; k < 10; ++k) {
        ir::Element e = a.randomElement(rng);
        auto moves = analysis::siftSolveBest(*t, points, shortener, directions, p, e);
        REQUIRE(moves);
        REQUIRE(analysis::isSolvedColouring(p, replay(p, e, *moves)));
    }
    // Two corners swapped: this lift is not in the group (corner and centre
    // parities agree in it), but one with two same-coloured centres swapped
    // is; the choices find one.
    ir::Element swapped = ir::identity(p.orbits);
    int corners = -1;
    for (size_t o = 0; o < p.orbits.size(); ++o)
        if (p.orbits[o].name == "corners") corners = static_cast<int>(o);
    std::swap(swapped.perm[corners][0], swapped.perm[corners][1]);
    REQUIRE(!a.contains(swapped));
    auto parity = analysis::siftSolveBest(*t, points, shortener, directions, p, swapped);
    REQUIRE(parity);
    REQUIRE(analysis::isSolvedColouring(p, replay(p, swapped, *parity)));
    // One corner twisted is no state at all: no sequence from any choice.
    ir::Element twisted = ir::identity(p.orbits);
    twisted.ori[corners][0] = 1;
    REQUIRE(!analysis::siftSolveBest(*t, points, shortener, directions, p, twisted));
}

TEST_CASE("the sift table depends on the definition alone", "[sift]") {
    auto build = [] {
        const ir::Puzzle p = load("puzzles/loopover5.pz");
        analysis::PuzzleAnalysis a(p);
        std::string why;
        auto t = analysis::buildSiftWords(a, metricOf(p), why);
        REQUIRE(t);
        std::vector<analysis::Word> words;
        for (const auto& e : t->entries) words.push_back(e.word);
        return words;
    };
    REQUIRE(build() == build());
}

TEST_CASE("pieces are placed block by block", "[sift]") {
    // 3x3x3: an edge first (two faces forbidden), then a corner beside it
    // (one more face), then the edges between those three faces (none more).
    const ir::Puzzle p = load("puzzles/cube3.pz");
    auto order = analysis::placementOrder(p, metricOf(p));
    size_t total = 0;
    for (const auto& o : p.orbits) total += o.size;
    REQUIRE(order.size() == total);
    auto families = [&](std::pair<int, int> piece) {
        std::set<int> f;
        for (int m : metricOf(p)) {
            const auto& e = p.moves[m].effect;
            if (e.perm[piece.first][piece.second] != piece.second || e.ori[piece.first][piece.second] != 0)
                f.insert(p.moves[m].family);
        }
        return f;
    };
    REQUIRE(families(order[0]).size() == 2);  // an edge
    std::set<int> seen = families(order[0]);
    auto second = families(order[1]);
    REQUIRE(second.size() == 3);  // a corner on both of its faces
    for (int f : seen) REQUIRE(second.count(f));
    seen.insert(second.begin(), second.end());
    for (int k : {2, 3}) {
        auto f = families(order[k]);  // the edges between the three faces
        for (int x : f) REQUIRE(seen.count(x));
    }
}

TEST_CASE("sift directions: the symmetries that map the metric onto itself, then the inverse", "[sift]") {
    // 5x5 Loopover declares 200 symmetries, all mapping moves to moves; every move has its inverse.
    const ir::Puzzle p = load("puzzles/loopover5.pz");
    analysis::PuzzleAnalysis a(p);
    const auto all = analysis::siftDirections(a, metricOf(p), 1000);
    REQUIRE(all.size() == 400);
    REQUIRE(!all[0].inverse);
    REQUIRE(all[1].inverse);
    REQUIRE(all[1].by == all[0].by);
    REQUIRE(!(all[2].by == all[0].by));
    REQUIRE(analysis::siftDirections(a, metricOf(p), 96).size() == 96);
    // Megaminx declares none: itself and its inverse.
    const ir::Puzzle mega = load("puzzles/megaminx.pz");
    analysis::PuzzleAnalysis ma(mega);
    REQUIRE(analysis::siftDirections(ma, metricOf(mega), 96).size() == 2);
}

TEST_CASE("identical pieces are placed last, each orbit ending on one label twice", "[sift]") {
    const ir::Puzzle p = load("puzzles/cube4.pz");
    auto order = analysis::placementOrder(p, metricOf(p));
    int centres = -1;
    for (size_t o = 0; o < p.orbits.size(); ++o)
        if (p.orbits[o].name == "centres") centres = static_cast<int>(o);
    REQUIRE(centres >= 0);
    const size_t n = static_cast<size_t>(p.orbits[centres].size);
    for (size_t k = 0; k < order.size(); ++k) REQUIRE((order[k].first == centres) == (k >= order.size() - n));
    const auto& labels = p.orbits[centres].solvedLabel;
    REQUIRE(labels[order[order.size() - 1].second] == labels[order[order.size() - 2].second]);
}

TEST_CASE("the shortener replaces stretches by shorter words", "[sift]") {
    const ir::Puzzle p = load("puzzles/cube3.pz");
    analysis::PuzzleAnalysis a(p);
    auto find = [&](const std::string& name) {
        for (size_t i = 0; i < p.moves.size(); ++i)
            if (p.moves[i].name == name) return static_cast<int>(i);
        FAIL("no move " << name);
        return -1;
    };
    analysis::WordShortener shortener(p, a, metricOf(p));
    REQUIRE(shortener.depth() >= 3);
    // R U U' R'  -> nothing;  R R -> R2;  U D U -> U2 D (commuting faces).
    REQUIRE(shortener.shorten({find("R"), find("U"), find("U'"), find("R'")}).empty());
    REQUIRE(shortener.shorten({find("R"), find("R")}) == std::vector<int>{find("R2")});
    REQUIRE(shortener.shorten({find("U"), find("D"), find("U")}).size() == 2);
}
