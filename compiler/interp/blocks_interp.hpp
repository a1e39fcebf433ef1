// The reference interpreter of sliding-block puzzles (note [blocks model] in
// compiler/ir/blocks.hpp): positions, the legal moves of each metric, move
// names, the goal test and a plain breadth-first search. Written for
// clarity, not speed: every solution a generated solver prints is replayed
// here first, and the tests compare the generated solvers with its BFS.
//
// note [blocks move names]
//   moves blank (n-puzzles)   U D L R: the direction the BLANK moves (the
//                             tile beside it slides the other way);
//   a piece with an axis      <piece>+<n> / <piece>-<n>: n cells right or
//                             down (+), left or up (-): Rush Hour's `A+2`;
//   any other piece           <piece><U|D|L|R><n>: `AD1`, `bL2` (read from
//                             the right, so any piece name works);
//   metric path               <piece>@<x>,<y>: to that anchor, y from the top.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/blocks.hpp"

namespace pz::interp {

struct BlockMove {
    int piece = -1;      // index into the layout's pieces
    int dx = 0, dy = 0;  // unit direction (step, slide)
    int cells = 1;       // distance (step: 1)
    std::optional<ir::BlockCell> to;  // metric path: the destination anchor
    bool operator==(const BlockMove&) const = default;
};

class BlockBoard {
public:
    BlockBoard(const ir::BlockRules& rules, const ir::BlockLayout& layout);

    const std::vector<ir::BlockCell>& anchors() const { return anchors_; }
    // Every legal move of the rules' metric, pieces in layout order.
    std::vector<BlockMove> legalMoves() const;
    // Applies a move if it is legal; false (and the board unchanged) if not.
    bool apply(const BlockMove& move);
    bool isGoal() const;
    // States equal up to swapping identical pieces have equal keys.
    std::string key() const;

    std::string moveName(const BlockMove& move) const;
    // Reads one move name (note [blocks move names]); nullopt and `why` when
    // it names no piece or direction. Legality is apply's business.
    std::optional<BlockMove> parseMove(const std::string& name, std::string& why) const;

    // The piece covering cell (x, y), -1 for none (a wall or an empty cell).
    int pieceAt(int x, int y) const;
    bool isWall(int x, int y) const { return layout_->wall[y * rules_->width + x]; }
    // The board as rows of tokens (`.` empty, `#` wall), for messages.
    std::string picture() const;

private:
    bool fits(int piece, ir::BlockCell anchor) const;  // inside, no wall, no other piece
    bool movable(int piece, int dx, int dy) const;     // the piece's axis allows it
    std::vector<ir::BlockCell> pathTargets(int piece) const;
    int blankCell() const;  // moves blank: the one empty cell

    const ir::BlockRules* rules_;
    const ir::BlockLayout* layout_;
    std::vector<ir::BlockCell> anchors_;
    std::vector<int> owner_;  // [cell] = piece or -1
};

// Replays move names from the layout; false and `why` if a name is unknown,
// a move is illegal, or the end is not a goal.
bool replayBlocks(const ir::BlockRules& rules, const ir::BlockLayout& layout, const std::vector<std::string>& moves,
                  std::string& why);

// Breadth-first search from the layout over its reachable states.
struct BlockBfs {
    uint64_t states = 0;               // distinct states seen
    std::vector<uint64_t> perDepth;    // states first reached at each depth
    std::optional<int> goalDepth;      // the distance of the nearest goal
    std::vector<std::string> solution; // move names to that goal
    bool limited = false;              // stopped at maxStates
};
// stopAtGoal: stop at the goal's depth (a solve); else count every state.
BlockBfs blockBfs(const ir::BlockRules& rules, const ir::BlockLayout& layout, uint64_t maxStates, bool stopAtGoal);

}  // namespace pz::interp
