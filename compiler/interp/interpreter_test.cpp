#include "compiler/interp/interpreter.hpp"

#include <catch2/catch.hpp>

#include "compiler/interp/state_set.hpp"
#include "compiler/ir/element.hpp"

using namespace pz;
using namespace pz::interp;

namespace {

// An n x n Loopover built in the IR: one family per row (shift right) and
// per column (shift down), powers 1 .. n-1 all in the metric.
ir::Puzzle loopover(int n) {
    ir::Puzzle p;
    p.name = "loopover";
    ir::Orbit tiles;
    tiles.name = "tiles";
    tiles.size = n * n;
    for (int i = 0; i < n * n; ++i) {
        tiles.solvedLabel.push_back(i);
        tiles.positionNames.push_back(std::string(1, char('a' + i)));
    }
    p.orbits = {tiles};
    auto addFamily = [&](const std::string& name, std::vector<int> line) {
        ir::Element base = ir::identity(p.orbits);
        for (int k = 0; k < n; ++k) base.perm[0][line[(k + 1) % n]] = line[k];
        int family = (int)p.families.size();
        p.families.push_back({name, base, n, {}});
        for (int k = 1; k < n; ++k)
            p.moves.push_back({name + (k == 1 ? "" : std::to_string(k)), family, k, true, ir::power(base, k, p.orbits)});
    };
    for (int r = 0; r < n; ++r) {
        std::vector<int> line;
        for (int c = 0; c < n; ++c) line.push_back(r * n + c);
        addFamily("r" + std::to_string(r), line);
    }
    for (int c = 0; c < n; ++c) {
        std::vector<int> line;
        for (int r = 0; r < n; ++r) line.push_back(r * n + c);
        addFamily("c" + std::to_string(c), line);
    }
    return p;
}

// One orbit of 3 pieces with orientation mod 3 and two equal labels.
ir::Puzzle twisty() {
    ir::Puzzle p;
    ir::Orbit o;
    o.name = "p";
    o.size = 3;
    o.orient = 3;
    o.solvedLabel = {0, 0, 1};
    p.orbits = {o};
    ir::Element turn;
    turn.perm = {{2, 0, 1}};
    turn.ori = {{1, 0, 0}};
    p.families.push_back({"T", turn, 9, {}});
    p.moves.push_back({"T", 0, 1, true, turn});
    return p;
}

}  // namespace

TEST_CASE("interp: moves agree with the element algebra") {
    ir::Puzzle p = twisty();
    Interpreter in(p);
    State s = in.applySequence(in.solved(), {0, 0, 0, 0});
    CHECK(s == in.fromElement(ir::power(p.moves[0].effect, 4, p.orbits)));
    CHECK(in.toElement(s) == ir::power(p.moves[0].effect, 4, p.orbits));
    CHECK(in.compose(s, in.invert(s)) == in.solved());
    CHECK(in.compose(in.invert(s), s) == in.solved());
    CHECK(in.invert(s) == in.fromElement(ir::inverse(ir::power(p.moves[0].effect, 4, p.orbits), p.orbits)));
    CHECK_FALSE(in.isSolved(s));
    CHECK(in.isSolved(in.applySequence(in.solved(), std::vector<int>(9, 0))));
}

TEST_CASE("interp: solvedness with indistinguishable pieces") {
    ir::Puzzle p = twisty();
    Interpreter in(p);
    State s = in.solved();
    std::swap(s.piece[0], s.piece[1]);  // the two pieces labelled 0 swap
    CHECK(in.isSolved(s));
    s.ori[0] = 2;
    CHECK_FALSE(in.isSolved(s));
    State t = in.solved();
    std::swap(t.piece[0], t.piece[2]);
    CHECK_FALSE(in.isSolved(t));
}

TEST_CASE("interp: state printer") {
    ir::Puzzle p = loopover(3);
    Interpreter in(p);
    State s = in.applyMove(in.solved(), 0);  // r0: shift the top row right
    CHECK(in.format(s) == "tiles: a=c b=a c=b d=d e=e f=f g=g h=h i=i\n");
    ir::Puzzle q = twisty();
    Interpreter tw(q);
    CHECK(tw.format(tw.applyMove(tw.solved(), 0)) == "p: 0=2+1 1=0 2=1\n");
}

TEST_CASE("interp: 3x3 Loopover depth counts (facts.md)") {
    ir::Puzzle p = loopover(3);
    Interpreter in(p);
    std::vector<int> all;
    for (size_t m = 0; m < p.moves.size(); ++m) all.push_back((int)m);
    REQUIRE(all.size() == 12);
    auto counts = depthCounts(in, all, 20);
    CHECK(counts == std::vector<uint64_t>{1, 12, 96, 736, 5208, 28674, 89497, 54741, 2475});
}

TEST_CASE("interp: membership through the analysis") {
    ir::Puzzle p = loopover(3);
    Interpreter in(p);
    analysis::PuzzleAnalysis a(p);
    CHECK(a.groupOrder() == 181440);
    State s = in.applySequence(in.solved(), {0, 3, 7, 11});
    CHECK(isReachable(in, a, s));
    std::swap(s.piece[0], s.piece[1]);
    CHECK_FALSE(isReachable(in, a, s));
}
