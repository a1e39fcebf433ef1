// Lowering of sliding-block puzzles: the three examples (tests/puzzles/
// blocks_*.pz) give the documented types, shapes and anchors; every check
// reports its error at the right place; .pz and YAML lower alike.
#include "compiler/ir/lower_blocks.hpp"

#include <catch2/catch.hpp>
#include <iostream>

#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"

using namespace pz;
using namespace pz::ir;

namespace {

Puzzle load(const std::string& path) {
    DiagnosticEngine diags;
    auto p = loadPuzzle(path, diags);
    if (!p) diags.print(std::cerr);
    REQUIRE(p);
    REQUIRE(p->kind == Puzzle::Kind::Blocks);
    return *p;
}

// "line:col: message" of every error lowering `text` reports; "" when it lowers.
std::string errorsOf(const std::string& text) {
    DiagnosticEngine diags;
    auto ast = parsePzText("t.pz", text, diags);
    if (ast) lower(*ast, diags);
    std::string out;
    for (const auto& d : diags.all())
        out += std::to_string(d.range.line) + ":" + std::to_string(d.range.col) + ": " + d.message + "\n";
    return out;
}

bool hasError(const std::string& text, const std::string& part) {
    std::string errors = errorsOf(text);
    if (errors.find(part) != std::string::npos) return true;
    std::cerr << "expected an error containing '" << part << "', got:\n" << errors;
    return false;
}

const BlockPiece& pieceNamed(const BlockLayout& layout, const std::string& name) {
    for (const auto& p : layout.pieces)
        if (p.name == name) return p;
    FAIL("no piece " << name);
    throw 0;
}

}  // namespace

TEST_CASE("the 15-puzzle: sixteen cells, fifteen 1x1 tiles of their own types, blank moves") {
    Puzzle p = load("tests/puzzles/blocks_fifteen.pz");
    const BlockRules& r = p.blocks;
    CHECK(r.width == 4);
    CHECK(r.height == 4);
    CHECK(std::count(r.wall.begin(), r.wall.end(), true) == 0);
    REQUIRE(r.board);
    CHECK(r.boardIsSolved);
    CHECK(r.board->empties == 1);
    REQUIRE(r.board->pieces.size() == 15);
    REQUIRE(r.types.size() == 15);
    for (size_t i = 0; i < 15; ++i) {
        const auto& piece = r.board->pieces[i];
        CHECK(piece.name == std::to_string(i + 1));
        CHECK(piece.type == (int)i);
        CHECK(r.types[i].shape == std::vector<BlockCell>{{0, 0}});
        CHECK(r.types[i].axis == BlockAxis::Any);
        CHECK(piece.anchor == BlockCell{(int)(i + 1) % 4, (int)(i + 1) / 4});
    }
    CHECK(r.board->types.size() == 15);
    CHECK(r.metric == BlockMetric::Step);
    CHECK(r.moveNames == BlockRules::MoveNames::Blank);
    CHECK(r.goal.kind == BlockGoal::Kind::Full);
    REQUIRE(r.symmetries.size() == 1);
    CHECK(r.symmetries[0].kind == BlockSymmetryKind::Transpose);
    REQUIRE(r.patterns.size() == 2);
    CHECK(r.patterns[0].pieces == std::vector<int>{0, 1, 2, 3, 4, 5, 6});
    CHECK(r.patterns[1].pieces == std::vector<int>{7, 8, 9, 10, 11, 12, 13, 14});
    REQUIRE(r.solvers.size() == 3);
    CHECK(r.solvers[0].heuristic == BlockSolver::Heuristic::Additive);
    CHECK(r.solvers[0].patterns == std::vector<int>{0, 1});
    CHECK(r.solvers[0].reflection == 0);
    CHECK(r.solvers[1].heuristic == BlockSolver::Heuristic::Manhattan);
    CHECK(r.solvers[1].conflicts);
    CHECK(!r.solvers[1].reflection);
    CHECK(r.solvers[2].heuristic == BlockSolver::Heuristic::Bfs);
}

TEST_CASE("Rush Hour: a 6 x 6 board from its size, an exit, long axes, no board of its own") {
    Puzzle p = load("tests/puzzles/blocks_rushhour.pz");
    const BlockRules& r = p.blocks;
    CHECK(r.width == 6);
    CHECK(r.height == 6);
    CHECK(r.wall == std::vector<bool>(36, false));
    CHECK(!r.board);
    CHECK(r.types.empty());
    REQUIRE(r.exit);
    CHECK(r.exit->side == BlockRules::Exit::Side::Right);
    CHECK(r.exit->offset == 2);
    CHECK(r.metric == BlockMetric::Slide);
    CHECK(r.axisRule == BlockRules::AxisRule::Long);
    CHECK(r.goal.kind == BlockGoal::Kind::Exit);
    CHECK(r.goal.exitPiece == "A");
    CHECK(r.moveNames == BlockRules::MoveNames::Piece);
    REQUIRE(r.levelPaths.size() == 1);
    CHECK(r.levelPaths[0] == "tests/puzzles/rushhour/levels.txt");
}

TEST_CASE("Klotski: identical pieces share a type, shapes are normalised, the board is a start") {
    Puzzle p = load("tests/puzzles/blocks_klotski.pz");
    const BlockRules& r = p.blocks;
    CHECK(r.width == 4);
    CHECK(r.height == 5);
    REQUIRE(r.board);
    CHECK(!r.boardIsSolved);
    CHECK(r.board->empties == 2);
    REQUIRE(r.board->pieces.size() == 10);
    // Pieces in reading order: b A c d E f g h i j; types b A c->b d->b E f->b g h->g i->g j->g.
    std::vector<std::string> names;
    for (const auto& piece : r.board->pieces) names.push_back(piece.name);
    CHECK(names == std::vector<std::string>{"b", "A", "c", "d", "E", "f", "g", "h", "i", "j"});
    REQUIRE(r.types.size() == 4);
    CHECK(r.types[0].name == "b");
    CHECK(r.types[0].shape == std::vector<BlockCell>{{0, 0}, {0, 1}});
    CHECK(r.types[1].name == "A");
    CHECK(r.types[1].shape == std::vector<BlockCell>{{0, 0}, {1, 0}, {0, 1}, {1, 1}});
    CHECK(r.types[2].name == "E");
    CHECK(r.types[2].shape == std::vector<BlockCell>{{0, 0}, {1, 0}});
    CHECK(r.types[3].name == "g");
    CHECK(r.types[3].shape == std::vector<BlockCell>{{0, 0}});
    for (auto name : {"b", "c", "d", "f"}) CHECK(pieceNamed(*r.board, name).type == 0);
    for (auto name : {"g", "h", "i", "j"}) CHECK(pieceNamed(*r.board, name).type == 3);
    CHECK(pieceNamed(*r.board, "A").anchor == BlockCell{1, 0});
    CHECK(pieceNamed(*r.board, "c").anchor == BlockCell{3, 0});
    CHECK(pieceNamed(*r.board, "d").anchor == BlockCell{0, 2});
    CHECK(pieceNamed(*r.board, "E").anchor == BlockCell{1, 2});
    CHECK(pieceNamed(*r.board, "j").anchor == BlockCell{3, 4});
    CHECK(r.metric == BlockMetric::Path);
    CHECK(r.goal.kind == BlockGoal::Kind::Place);
    REQUIRE(r.goal.placements.size() == 1);
    CHECK(r.goal.placements[0].piece == "A");
    CHECK(r.goal.placements[0].anchor == BlockCell{1, 3});
}

TEST_CASE("an L-shaped piece: its anchor is the top-left of its bounding box, outside the piece") {
    DiagnosticEngine diags;
    auto ast = parsePzText("l.pz", "blocks l { board { \". L\" \"L L\" } }", diags);
    REQUIRE(ast);
    auto p = lower(*ast, diags);
    REQUIRE(p);
    const auto& piece = p->blocks.board->pieces.at(0);
    CHECK(piece.anchor == BlockCell{0, 0});
    CHECK(p->blocks.types[0].shape == std::vector<BlockCell>{{1, 0}, {0, 1}, {1, 1}});
}

TEST_CASE("per-piece axes, walls and the YAML form lower like the .pz form") {
    Puzzle p = load("tests/roundtrip/blocks_axes.pz");
    const BlockRules& r = p.blocks;
    CHECK(r.wall[0]);
    CHECK(r.wall[2 * 5 + 4]);
    CHECK(r.types[pieceNamed(*r.board, "B").type].axis == BlockAxis::Vertical);
    CHECK(r.types[pieceNamed(*r.board, "A").type].axis == BlockAxis::Horizontal);
    CHECK(r.types[pieceNamed(*r.board, "D").type].axis == BlockAxis::Horizontal);
    DiagnosticEngine diags;
    auto ast = parsePuzzleFile("tests/roundtrip/blocks_axes.pz", diags);
    REQUIRE(ast);
    auto yaml = parseYamlText("axes.yaml", printYaml(*ast), diags);
    REQUIRE(yaml);
    auto q = lower(*yaml, diags);
    REQUIRE(q);
    CHECK(q->blocks.wall == r.wall);
    CHECK(q->blocks.types.size() == r.types.size());
    CHECK(q->blocks.solvers.size() == r.solvers.size());
}

TEST_CASE("board errors: widths, tokens, connectivity, size, the 64-cell limit") {
    CHECK(errorsOf("blocks b {\n  board {\n    \"A . .\"\n    \"A .\"\n  }\n}") ==
          "4:6: board row 1 has 2 cells but row 0 has 3; rows must be equally wide\n");
    CHECK(errorsOf("blocks b { board { \"A a-b .\" } }") ==
          "1:23: board token 'a-b' is not '.' (empty), '#' (wall), a name or a number\n");
    CHECK(errorsOf("blocks b { board { \"A . A\" } }") ==
          "1:25: piece 'A' is not connected: its cell (2, 0) does not touch its cell (0, 0) side by side (each token "
          "names one piece)\n");
    CHECK(hasError("blocks b { size 9 x 8; goal A at 0 0; }", "9 x 8 = 72 cells; a sliding-block board has at most 64"));
    CHECK(hasError("blocks b { goal A at 0 0; }", "gives neither a board nor a size"));
    CHECK(hasError("blocks b { size 2 x 2; board { \". .\" \". .\" } }", "'size' is for definitions without a board"));
    CHECK(hasError("blocks b { size 2 y 2; goal A at 0 0; }", "expected 'x' between the width and the height"));
    CHECK(hasError("blocks b { board { \"A\" } board { \"A\" } }", "'board' is given twice"));
}

TEST_CASE("names: unknown and duplicate") {
    CHECK(hasError("blocks b { board { \"A .\" } pattern p { Z; } }", "unknown piece 'Z'"));
    CHECK(hasError("blocks b { board { \"A .\" } pattern p { A; } pattern p { A; } }",
                   "duplicate name 'p': already declared as a pattern"));
    CHECK(hasError("blocks b { board { \"A .\" } solver s { additive q; } }", "unknown pattern 'q'"));
    CHECK(hasError("blocks b { board { \"A .\" } solver s { manhattan; reflect q; } }", "unknown symmetry 'q'"));
    CHECK(hasError("blocks b { board { \"A .\" } metric fast; }", "unknown metric 'fast'"));
    CHECK(hasError("blocks b { board { \"A .\" } solver s { } }", "gives no heuristic"));
    CHECK(hasError("blocks b { board { \"A .\" } solver s { bfs; manhattan; } }", "already has a heuristic"));
    CHECK(hasError("blocks b { board { \"A .\" } symmetry s spin; }", "unknown symmetry map 'spin'"));
}

TEST_CASE("identical pieces, patterns and additive solvers") {
    CHECK(hasError("blocks b { board { \"A A .\" \"B . .\" } identical A B; }",
                   "identical pieces 'A' (2 x 1) and 'B' (1 x 1) have different shapes"));
    CHECK(hasError("blocks b { board { \"A B .\" } identical A B; identical B A; }",
                   "piece 'B' is already named in an 'identical' group"));
    CHECK(hasError("blocks b { board { \"A B .\" } pattern p { A B A; } }", "piece 'A' is named twice in pattern 'p'"));
    CHECK(hasError("blocks b { board { \"A B .\" } pattern p { A B; } pattern q { B; } solver s { additive p, q; } }",
                   "patterns 'p' and 'q' of solver 's' share piece 'B'; additive patterns must be disjoint"));
    CHECK(errorsOf("blocks b { board { \"A B C .\" } pattern p { A; } pattern q { C; } solver s { additive p, q; } }")
              .empty());  // disjoint patterns need not cover every piece
    CHECK(hasError("blocks b { size 2 x 2; goal A at 0 0; pattern p { A; } }", "this definition has none"));
}

TEST_CASE("moves blank, axes, goals, exits, start") {
    CHECK(hasError("blocks b { board { \"1 . .\" } moves blank; }",
                   "'moves blank' needs exactly one empty cell; the board has 2"));
    CHECK(hasError("blocks b { board { \"1 1 .\" } moves blank; }",
                   "'moves blank' needs every piece 1 x 1; piece '1' is 2 x 1"));
    CHECK(hasError("blocks b { board { \"A A .\" \"A A .\" } axis A horizontal; }",
                   "'axis' on piece 'A' of a square shape (2 x 2)"));
    CHECK(hasError("blocks b { board { \"A B .\" } axis long; }", "'axis long': piece 'A' is 1 x 1"));
    CHECK(hasError("blocks b { board { \"A .\" } start; goal Z at 0 0; }", "unknown piece 'Z'"));
    CHECK(hasError("blocks b { board { \"A A .\" } start; goal A at 2 0; }",
                   "the goal's piece 'A' (2 x 1) at (2, 0) is off the board"));
    CHECK(hasError("blocks b { board { \"A .\" } start; goal A at 5 0; }", "goal anchor (5, 0) is off the board"));
    CHECK(hasError("blocks b { size 3 x 3; exit right 3; goal A exits; }",
                   "exit right 3 is not on the border: the right side has rows 0..2"));
    CHECK(hasError("blocks b { board { \"A . #\" } exit right 0; goal A exits; }", "is blocked: its border cell (2, 0) is a wall"));
    CHECK(hasError("blocks b { size 3 x 3; goal A exits; }", "needs an exit"));
    CHECK(hasError("blocks b { board { \"A .\" } start; }", "'start' makes the board a start position"));
    CHECK(hasError("blocks b { board { \"A .\" } start; goal board; }", "'start' makes the board a start position"));
    CHECK(hasError("blocks b { size 3 x 3; }", "without a board needs a goal"));
    CHECK(hasError("blocks b { board { \"A A .\" \". . .\" \". . .\" } exit right 1; goal A exits; }",
                   "goal piece 'A' is not in row 1, so it can never reach the exit on the right"));
}

TEST_CASE("symmetries map the board's dimensions, walls and exit onto themselves") {
    CHECK(hasError("blocks b { board { \"A . .\" \". . .\" } symmetry t transpose; }",
                   "symmetry 't' (transpose) needs a square board; this one is 3 x 2"));
    CHECK(hasError("blocks b { board { \"# . .\" \". . A\" } symmetry m mirror_x; }",
                   "symmetry 'm' (mirror_x) does not map the walls onto themselves: the wall at (0, 0) goes to (2, 0)"));
    CHECK(hasError("blocks b { size 3 x 3; exit right 1; goal A exits; symmetry m mirror_x; }",
                   "symmetry 'm' (mirror_x) moves the exit (right 1) to left 1"));
    CHECK(errorsOf("blocks b { size 3 x 3; exit right 1; goal A exits; symmetry m mirror_y; }").empty());
    CHECK(errorsOf("blocks b { board { \"# . .\" \". A .\" \". . #\" } symmetry r rotate180; symmetry a antitranspose; }")
              .empty());
    // The goal too: the solved board's pieces (up to relabelling), or the placed pieces.
    CHECK(hasError("blocks b { board { \"1 2\" \"3 .\" } symmetry r rotate180; }",
                   "symmetry 'r' (rotate180) does not map the goal onto itself: piece '1' at (0, 0) goes where no goal "
                   "piece is"));
    CHECK(errorsOf("blocks b { board { \". 1\" \"2 3\" } symmetry t transpose; }").empty());
    CHECK(hasError("blocks b { board { \"A A .\" \". . .\" } start; goal A at 0 1; symmetry m mirror_x; }",
                   "symmetry 'm' (mirror_x) does not map the goal onto itself: piece 'A' at (0, 1)"));
    CHECK(errorsOf("blocks b { board { \"A A .\" \". . .\" \". . .\" } start; goal A at 0 1; symmetry m mirror_y; }")
              .empty());
}

TEST_CASE("the sliding-block keywords stay usable as names") {
    CHECK(errorsOf("puzzle p { orbit board 3; move exits = board (0 1 2); move at = exits exits; "
                   "subgroup size = <at>; pattern start { board: positions; } solver goal { optimal start; } }")
              .empty());
    CHECK(errorsOf("blocks blocks { board { \"at goal .\" } start; goal at at 2 0; pattern board { goal; } "
                   "symmetry size mirror_y; solver bfs { additive board; } }") ==
          "1:123: 'additive' tables the distance to the solved board; this puzzle's goal is not 'board'\n");
    CHECK(errorsOf("blocks b { board { \"at goal .\" } pattern board { goal at; } solver s { additive board; reflect size; } "
                   "symmetry size mirror_y; }")
              .empty());
}
