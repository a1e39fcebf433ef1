// The reference interpreter of grid-actor puzzles (Anima): actor lists and
// the rules exactly as stated, generic over ir::GridRules (any directions,
// any colours with any motion maps). It is the oracle the generated bitboard
// kernels are tested against, and the baseline they are measured against.
//
// note [grid rules]
// One press of direction p moves every actor at once: an actor of colour c
// targets its cell + direction motion[c][p]; a target that is wall (or off
// the board) becomes the actor's own cell. Then, until nothing changes, any
// two actors with the same target both keep their own cell as target. So a
// train moves together, a blocked leader holds its followers, two actors that
// face each other as neighbours swap (their targets differ), and two actors
// one empty cell apart moving towards each other both stay. A press counts
// one move even if nothing moves. Solved: every goal holds an actor of the
// goal's colour (other actors may be anywhere), checked after each move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/analysis/grid/grid_distances.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::interp {

// The actors of one position: per colour, the sorted cell indices
// (y * width + x), so the order of actors never matters.
struct GridState {
    std::vector<std::vector<int>> cells;  // [colour] sorted
    bool operator==(const GridState&) const = default;
};

struct GridStateHash {
    size_t operator()(const GridState& s) const;
};

// The static part of one level under one rule set.
class GridBoard {
public:
    GridBoard(const ir::GridRules& rules, const ir::Level& level);

    const ir::GridRules& rules() const { return *rules_; }
    const ir::Level& level() const { return *level_; }
    int cellCount() const { return level_->width * level_->height; }
    int directionCount() const { return (int)rules_->directions.size(); }

    GridState initialState() const;
    // One press of `pressed` (index into rules.directions); see note [grid rules].
    GridState step(const GridState& state, int pressed) const;
    bool isSolved(const GridState& state) const;

    // distance(g, cell): the fewest presses that bring one actor of goal g's
    // colour from `cell` to the goal, alone on the board (walls respected);
    // kUnreachable if it never can. Other actors only ever add moves, so the
    // max over goals of the nearest actor's distance is an admissible and
    // consistent heuristic (each press changes any distance by at most one).
    static constexpr int kUnreachable = analysis::kUnreachableDistance;
    int distance(int goal, int cell) const { return distance_[goal][cell]; }
    int heuristic(const GridState& state) const;

    // Readable form for tests and failure messages.
    std::string describe(const GridState& state) const;

private:
    const ir::GridRules* rules_;
    const ir::Level* level_;
    std::vector<std::vector<int>> distance_;  // [goal][cell]
};

// Direction names of a solution, e.g. "up right right".
std::string solutionText(const ir::GridRules& rules, const std::vector<int>& moves);

// Replays `moves` from the level's start; true iff the final state is solved.
bool replaySolves(const GridBoard& board, const std::vector<int>& moves);

}  // namespace pz::interp
