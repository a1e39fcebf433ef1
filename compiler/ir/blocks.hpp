// The IR of sliding-block puzzles (Puzzle::Kind::Blocks): the 8-, 15- and
// 24-puzzles, Rush Hour, Klotski. Lowered from a `blocks NAME { ... }`
// definition (docs/language.md, "Sliding-block puzzles").
//
// note [blocks model]
// A board is a rectangle of width x height cells, (x, y) with y = 0 the TOP
// row (as the board is written), cell index y * width + x. Some cells are
// walls. Pieces are polyominoes; a piece is its shape (cells relative to its
// anchor, the top-left cell of its bounding box) and an anchor cell. Pieces
// of one `type` are interchangeable: states that differ only by swapping
// them are one state (Klotski's soldiers; all the tiles of an n-puzzle have
// types of their own). A move slides one piece:
//   step   one cell up, down, left or right into empty cells;
//   slide  any distance in one of those directions, every cell passed empty;
//   path   to any place reachable by a sequence of one-cell steps through
//          empty cells, counted as one move.
// A piece with an axis moves only along it (Rush Hour's cars). An exit is a
// gap in the outer wall: a piece may only leave the board through it, and
// the goal `PIECE exits` is met when that piece stands next to the exit
// (the Rush Hour convention: the red car at the right edge of its row).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/diagnostics.hpp"

namespace pz::ir {

struct BlockCell {
    int x = 0, y = 0;
    bool operator==(const BlockCell&) const = default;
};

enum class BlockAxis { Any, Horizontal, Vertical };

// Pieces of one type look the same and are interchangeable.
struct BlockType {
    std::string name;               // the first piece's name, or the `identical` group's first name
    std::vector<BlockCell> shape;   // cells relative to the anchor, sorted by (y, x); (0,0) is the anchor's row
    BlockAxis axis = BlockAxis::Any;
};

struct BlockPiece {
    std::string name;  // its token on the board: "1", "A", "b"
    int type = 0;      // index into the layout's types (BlockLayout::types)
    BlockCell anchor;  // top-left cell of its bounding box (which may be outside the shape, e.g. an L)
};

// One arrangement: the start of a level, or the solved board.
struct BlockLayout {
    std::string name;  // level name (file stem or database line number), empty for the definition's own
    std::string file;  // where it was read, for messages
    std::vector<BlockPiece> pieces;
    int empties = 0;   // empty (non-wall, uncovered) cells
    // Added by the front end:
    // The types the pieces index: BlockRules::types for the definition's
    // board and for levels of a definition with a board (a level's piece
    // takes the type of the board's piece of its name); a level of a
    // definition without one (Rush Hour) has a type per piece of its own.
    std::vector<BlockType> types;
    // [y * width + x]: the rules' walls and the level's own (Rush Hour's `x`).
    std::vector<bool> wall;
    // A Rush Hour database line `moves board cluster-size`: the optimal
    // number of moves and the number of states of the level's cluster.
    std::optional<long> expectedMoves, expectedStates;
};

enum class BlockMetric { Step, Slide, Path };

struct BlockGoal {
    enum class Kind {
        Full,     // every piece where the solved layout has it (n-puzzles)
        Place,    // each named piece (or a piece of its type) at an anchor: Klotski's block
        Exit,     // the named piece stands at the exit (Rush Hour)
    } kind = Kind::Full;
    struct Placement {
        std::string piece;  // a piece name; identical pieces: any piece of its type
        BlockCell anchor;
    };
    std::vector<Placement> placements;  // Place
    std::string exitPiece;              // Exit
};

// The board's symmetries (note [blocks symmetry]): a map of cells that maps
// walls to walls and the goal to itself (check proves both).
enum class BlockSymmetryKind { Transpose, AntiTranspose, MirrorX, MirrorY, Rotate180 };
struct BlockSymmetry {
    std::string name;
    BlockSymmetryKind kind = BlockSymmetryKind::Transpose;
    SourceRange where;
};

// A pattern: a set of pieces whose places are tabled (the others are
// ignored). The patterns of an additive solver are disjoint (they need not
// cover every piece).
struct BlockPattern {
    std::string name;
    std::vector<int> pieces;  // indices into the solved layout's pieces
    SourceRange where;
};

struct BlockSolver {
    std::string name;
    enum class Heuristic {
        Bfs,        // no heuristic: breadth-first over the whole reachable set (small spaces)
        Manhattan,  // Manhattan distance, plus linear conflicts when `conflicts`
        Additive,   // the sum of disjoint pattern databases (each move moves one piece, costs 1)
    } heuristic = Heuristic::Manhattan;
    bool conflicts = false;         // Manhattan: add linear conflicts
    std::vector<int> patterns;      // Additive: indices into BlockRules::patterns
    std::optional<int> reflection;  // Additive/Manhattan: max with the lookup reflected by this symmetry
    SourceRange where;
};

struct BlockRules {
    int width = 0, height = 0;
    std::vector<bool> wall;  // [y * width + x]
    struct Exit {
        enum class Side { Left, Right, Top, Bottom } side = Side::Right;
        int offset = 0;  // the row (Left/Right) or column (Top/Bottom), 0-based from the top/left
    };
    std::optional<Exit> exit;
    BlockMetric metric = BlockMetric::Step;
    std::vector<BlockType> types;
    // The definition's own board (n-puzzles: the solved board; Klotski: the
    // classic start), when it gives one. Level files give the others.
    std::optional<BlockLayout> board;
    bool boardIsSolved = true;  // `board` is the goal layout (Full goals); false: a start
    BlockGoal goal;
    // How moves are named: Blank = U/D/L/R name the direction the blank
    // moves (n-puzzles: one empty cell, all pieces 1x1); Piece = <piece><+|-><cells>.
    enum class MoveNames { Blank, Piece } moveNames = MoveNames::Piece;
    std::vector<BlockSymmetry> symmetries;
    std::vector<BlockPattern> patterns;
    std::vector<BlockSolver> solvers;
    std::vector<std::string> levelPaths;  // resolved relative to the definition

    // Added by the front end: what level files need to type their pieces
    // when the definition has no board (the board's pieces have their axes
    // in their types): `axis long|horizontal|vertical;` for every piece, and
    // `axis PIECE horizontal;` per piece name. Long: each piece along its
    // long side (a piece must be 1 x k or k x 1, k >= 2).
    enum class AxisRule { None, Horizontal, Vertical, Long } axisRule = AxisRule::None;
    std::vector<std::pair<std::string, BlockAxis>> pieceAxes;
};

// A board holds at most this many cells (width * height, walls included):
// the back end keeps a cell set in one 64-bit word.
inline constexpr int kMaxBlockCells = 64;

}  // namespace pz::ir
