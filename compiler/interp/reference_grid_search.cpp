#include "compiler/interp/reference_grid_search.hpp"

namespace pz::interp {

namespace {

// Adapts a GridBoard to the runtime's Space interface; the key is the state.
struct InterpretedSpace {
    using State = GridState;
    using Key = GridState;
    using Hasher = GridStateHash;
    static constexpr int kDead = GridBoard::kUnreachable;

    const GridBoard& board;
    int directions() const { return board.directionCount(); }
    State initial() const { return board.initialState(); }
    State move(const State& s, int p) const { return board.step(s, p); }
    bool solved(const State& s) const { return board.isSolved(s); }
    int heuristic(const State& s) const { return board.heuristic(s); }
    Key pack(const State& s) const { return s; }
    State unpack(const Key& k) const { return k; }
    Hasher hasher() const { return {}; }
};

}  // namespace

grid::SearchResult interpretedAStar(const GridBoard& board, const grid::SearchLimits& limits) {
    return grid::astar(InterpretedSpace{board}, limits);
}

grid::SearchResult interpretedBfs(const GridBoard& board, const grid::SearchLimits& limits) {
    return grid::bfs(InterpretedSpace{board}, limits);
}

}  // namespace pz::interp
