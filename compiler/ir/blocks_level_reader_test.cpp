// Sliding-block levels: Rush Hour database lines (the hardest known board
// among them), character grids and token rows, n-puzzle --state strings;
// every error located.
#include "compiler/ir/blocks_level_reader.hpp"

#include <catch2/catch.hpp>
#include <iostream>

#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"

using namespace pz;
using namespace pz::ir;

namespace {

BlockRules rulesOf(const std::string& text) {
    DiagnosticEngine diags;
    auto ast = parsePzText("rules.pz", text, diags);
    REQUIRE(ast);
    auto p = lower(*ast, diags);
    if (!p) diags.print(std::cerr);
    REQUIRE(p);
    return p->blocks;
}

const std::string kRushHour = "blocks rh { size 6 x 6; exit right 2; metric slide; axis long; goal A exits; }";
const std::string kFifteen = "blocks f { board { \". 1 2 3\" \"4 5 6 7\" \"8 9 10 11\" \"12 13 14 15\" } moves blank; }";

std::string errorsOf(const BlockRules& rules, const std::string& text) {
    DiagnosticEngine diags;
    parseBlockLevelText("level.txt", text, rules, diags);
    std::string out;
    for (const auto& d : diags.all())
        out += std::to_string(d.range.line) + ":" + std::to_string(d.range.col) + ": " + d.message + "\n";
    return out;
}

std::vector<BlockLayout> levels(const BlockRules& rules, const std::string& text, const std::string& file = "rh.txt") {
    DiagnosticEngine diags;
    auto out = parseBlockLevelText(file, text, rules, diags);
    if (!out) diags.print(std::cerr);
    REQUIRE(out);
    return *out;
}

const BlockPiece& pieceNamed(const BlockLayout& layout, const std::string& name) {
    for (const auto& p : layout.pieces)
        if (p.name == name) return p;
    FAIL("no piece " << name);
    throw 0;
}

}  // namespace

TEST_CASE("the hardest Rush Hour board: a database line with its moves, cars, walls and cluster size") {
    BlockRules rules = rulesOf(kRushHour);
    auto all = levels(rules, "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n");
    REQUIRE(all.size() == 1);
    const BlockLayout& l = all[0];
    CHECK(l.name == "rh");
    CHECK(l.expectedMoves == 60);
    CHECK(l.expectedStates == 2332);
    CHECK(l.wall[3]);  // the x at (3, 0)
    CHECK(std::count(l.wall.begin(), l.wall.end(), true) == 1);
    CHECK(l.pieces.size() == 12);  // A..M without C: ten cars and two trucks
    CHECK(l.types.size() == 12);
    CHECK(l.empties == 36 - 1 - 2 * 10 - 3 * 2);
    const auto& a = pieceNamed(l, "A");
    CHECK(a.anchor == BlockCell{1, 2});
    CHECK(l.types[a.type].shape == std::vector<BlockCell>{{0, 0}, {1, 0}});
    CHECK(l.types[a.type].axis == BlockAxis::Horizontal);
    const auto& i = pieceNamed(l, "I");
    CHECK(i.anchor == BlockCell{0, 0});
    CHECK(l.types[i.type].axis == BlockAxis::Vertical);
    const auto& m = pieceNamed(l, "M");
    CHECK(m.anchor == BlockCell{5, 3});
    CHECK(l.types[m.type].shape == std::vector<BlockCell>{{0, 0}, {0, 1}, {0, 2}});
    const auto& h = pieceNamed(l, "H");
    CHECK(h.anchor == BlockCell{2, 5});
    CHECK(l.types[h.type].shape.size() == 3);
    CHECK(l.types[h.type].axis == BlockAxis::Horizontal);
}

TEST_CASE("Rush Hour: several database lines are several levels; a bare string and a grid are one") {
    BlockRules rules = rulesOf(kRushHour);
    auto all = levels(rules, "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n\n1 ooooooooooooAAoooooooooooooooooooooo 5\n",
                      "dir/db.txt");
    REQUIRE(all.size() == 2);
    CHECK(all[0].name == "db:1");
    CHECK(all[1].name == "db:3");
    CHECK(all[1].expectedMoves == 1);
    CHECK(all[1].pieces.size() == 1);
    auto bare = levels(rules, "ooooooooooooAAoooooooooooooooooooooo");
    REQUIRE(bare.size() == 1);
    CHECK(!bare[0].expectedMoves);
    auto grid = levels(rules, "......\n......\nAA....\n......\n.....B\n.....B\n");
    REQUIRE(grid.size() == 1);
    CHECK(pieceNamed(grid[0], "B").anchor == BlockCell{5, 4});
    CHECK(grid[0].empties == 32);
}

TEST_CASE("Rush Hour level errors are located") {
    BlockRules rules = rulesOf(kRushHour);
    CHECK(errorsOf(rules, "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHH 2332") ==
          "1:4: board string has 34 characters; a 6 x 6 board has 36 (row by row)\n");
    CHECK(errorsOf(rules, "ooooooooooooAAoooooooqoooooooooooooo") ==
          "1:22: unknown character 'q'; expected 'o' or '.' (empty), 'x' (wall) or a letter A..Z\n");
    CHECK(errorsOf(rules, "ooooooooooooAAoooooooBoooooooooooooB") ==
          "1:36: piece 'B' is not connected: its cell (5, 5) does not touch its cell (3, 3) side by side\n");
    CHECK(errorsOf(rules, "ooooooooooooAAooooooBBooooBBoooooooo") ==
          "1:21: car 'B' is neither horizontal nor vertical: it is 2 x 2 (with 'axis long' a piece is 1 x k or k x "
          "1, k >= 2)\n");
    CHECK(errorsOf(rules, "oooooooooooooooooooooooooooooooooooo") == "1:1: the level has no goal piece 'A'\n");
    CHECK(errorsOf(rules, "AAoooooooooooooooooooooooooooooooooo") ==
          "1:1: goal piece 'A' is not in row 2, so it can never reach the exit on the right\n");
    CHECK(errorsOf(rules, "......\n......\nAA....\n......\n......\n") ==
          "5:1: the level has 5 rows; the board is 6 x 6 (6 rows)\n");
    CHECK(errorsOf(rules, "......\n......\nAA....\n......\n......\n.......\n") ==
          "6:1: row has 7 characters; the board is 6 wide\n");
    CHECK(errorsOf(rules, "") == "1:1: the level file is empty; expected a board of 6 x 6\n");
    CHECK(errorsOf(rules, "ooooooooooooAAooox") == "1:1: board string has 18 characters; a 6 x 6 board has 36 (row by row)\n");
    CHECK(errorsOf(rules, "oooooooooooooAAoox" + std::string(18, 'o')) ==
          "1:1: the level's wall at (5, 2) blocks the exit (right 2)\n");
}

TEST_CASE("token rows: an n-puzzle level holds the board's tiles") {
    BlockRules rules = rulesOf(kFifteen);
    auto all = levels(rules, "1 2 3 .\n4 5 6 7\n8 9 10 11\n12 13 14 15\n");
    REQUIRE(all.size() == 1);
    const auto& l = all[0];
    CHECK(l.empties == 1);
    CHECK(pieceNamed(l, "1").anchor == BlockCell{0, 0});
    CHECK(pieceNamed(l, "15").anchor == BlockCell{3, 3});
    CHECK(pieceNamed(l, "15").type == rules.board->pieces[14].type);
    CHECK(errorsOf(rules, "1 2 3 .\n4 5 6 7\n8 9 10 11\n12 13 14 16\n") ==
          "4:10: piece '16' is not on the definition's board\n"
          "1:1: the level lacks piece '15' of the definition's board\n");
    CHECK(errorsOf(rules, "1 2 3 .\n4 5 6 7\n8 9 10 11\n12 13 . .\n") ==
          "1:1: the level lacks piece '14' of the definition's board\n"
          "1:1: the level lacks piece '15' of the definition's board\n"
          "1:1: 'moves blank' needs exactly one empty cell; the level has 3\n");
    CHECK(errorsOf(rules, "1 2 3 .\n4 5 6 7\n8 9 10\n12 13 14 15\n") == "3:1: row has 3 cells; the board is 4 wide\n");
    CHECK(errorsOf(rules, "1 2 3 .\n4 5 6 7\n8 9 10 1-1\n12 13 14 15\n") ==
          "3:8: level token '1-1' is not '.' (empty), '#' (wall), a name or a number\n");
}

TEST_CASE("a level keeps the definition's walls: a piece on one is an error") {
    BlockRules rules = rulesOf("blocks w { board { \"# A .\" } }");
    CHECK(errorsOf(rules, "A . .") == "1:1: piece 'A' on the wall at (0, 0) of the definition's board\n");
    auto all = levels(rules, "# . A");
    CHECK(all[0].wall[0]);
    CHECK(pieceNamed(all[0], "A").anchor == BlockCell{2, 0});
}

TEST_CASE("n-puzzle state strings") {
    BlockRules rules = rulesOf(kFifteen);
    DiagnosticEngine diags;
    auto s = parseBlockState("1 2 3 0, 4 5 6 7, 8 9 10 11, 12 13 14 15", rules, "<state>", diags);
    REQUIRE(s);
    CHECK(s->empties == 1);
    CHECK(s->pieces.size() == 15);
    CHECK(pieceNamed(*s, "1").anchor == BlockCell{0, 0});
    CHECK(pieceNamed(*s, "4").anchor == BlockCell{0, 1});
    auto errors = [&](const std::string& text) {
        DiagnosticEngine d;
        parseBlockState(text, rules, "<state>", d);
        std::string out;
        for (const auto& x : d.all())
            out += std::to_string(x.range.line) + ":" + std::to_string(x.range.col) + ": " + x.message + "\n";
        return out;
    };
    CHECK(errors("1 2 3") == "1:5: the state has 3 cells; the board has 16 (row by row, 0 for the blank)\n");
    CHECK(errors("1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 14") ==
          "1:36: tile '14' is given twice\n1:1: tile '15' is missing from the state\n");
    CHECK(errors("1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 16") ==
          "1:36: unknown tile '16': the board has no such piece\n1:1: tile '15' is missing from the state\n");
    CHECK(errors("1 2 3 0 4 5 6 7 8 9 10 11 12 13 0 15") == "1:1: tile '14' is missing from the state\n");
}
