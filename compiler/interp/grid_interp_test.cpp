#include "compiler/interp/grid_interp.hpp"

#include <catch2/catch.hpp>

#include "compiler/interp/reference_grid_search.hpp"
#include "compiler/ir/level_reader.hpp"

using namespace pz;

namespace {

// Anima's rules, built directly: up/down/left/right (y up), red moves with
// the pressed direction, blue against it.
ir::GridRules animaRules() {
    ir::GridRules r;
    r.directions = {{"up", 0, 1}, {"down", 0, -1}, {"left", -1, 0}, {"right", 1, 0}};
    r.colours = {{"red", 'R', 'r', {0, 1, 2, 3}}, {"blue", 'B', 'b', {1, 0, 3, 2}}};
    return r;
}

ir::Level level(const ir::GridRules& rules, const std::string& text) {
    DiagnosticEngine diags;
    auto l = parseLevelText("test.txt", text, rules, diags);
    REQUIRE(l);
    return *l;
}

std::string afterPress(const std::string& text, int pressed) {
    auto rules = animaRules();
    auto l = level(rules, text);
    interp::GridBoard board(rules, l);
    return board.describe(board.step(board.initialState(), pressed));
}

constexpr int kUp = 0, kDown = 1, kLeft = 2, kRight = 3;

}  // namespace

TEST_CASE("a train moves together and a wall holds its leader and followers") {
    CHECK(afterPress(".....\n\nR 0 0\nR 1 0\nR 2 0", kRight) == "R(1,0) R(2,0) R(3,0)");
    CHECK(afterPress("... .\n\nR 0 0\nR 1 0\nR 2 0", kRight) == "R(0,0) R(1,0) R(2,0)");
}

TEST_CASE("red and blue neighbours facing each other swap") {
    CHECK(afterPress("....\n\nR 1 0\nB 2 0", kRight) == "R(2,0) B(1,0)");
}

TEST_CASE("red and blue one empty cell apart both stay") {
    CHECK(afterPress(".....\n\nR 1 0\nB 3 0", kRight) == "R(1,0) B(3,0)");
}

TEST_CASE("an actor that stays blocks the one that wanted its cell") {
    // Right pressed: the red at (0,0) and the blue at (2,0) both target (1,0)
    // and stay; so the blue at (3,0), which wanted (2,0), stays too.
    CHECK(afterPress("....\n\nR 0 0\nB 2 0\nB 3 0", kRight) == "R(0,0) B(2,0) B(3,0)");
    CHECK(afterPress(". .\n.. \n\nR 0 0\nB 1 0", kUp) == "R(0,1) B(1,0)");
}

TEST_CASE("the heuristic uses distances around walls") {
    auto rules = animaRules();
    auto l = level(rules, "r.\n .\n..\n\nR 0 0");
    interp::GridBoard board(rules, l);
    CHECK(board.distance(0, 0) == 4);  // (0,0) -> (1,0) -> (1,1) -> (1,2) -> (0,2)
    CHECK(board.heuristic(board.initialState()) == 4);
}

TEST_CASE("BFS and A* over the interpreter agree on a small level") {
    auto rules = animaRules();
    auto l = level(rules, " ....\n.r.r.\n.. ..\n.r.r.\n.... \n\nR 2 1\nR 1 2\nR 3 2\nR 2 3");
    interp::GridBoard board(rules, l);
    auto b = interp::interpretedBfs(board);
    auto a = interp::interpretedAStar(board);
    REQUIRE(b.outcome == grid::SearchResult::Outcome::Solved);
    REQUIRE(a.outcome == grid::SearchResult::Outcome::Solved);
    CHECK(b.moves.size() == 12);
    CHECK(a.moves.size() == 12);
    CHECK(interp::replaySolves(board, a.moves));
}
