// Search over the reference interpreter: the same A* / BFS as generated
// solvers (runtime/include/pz/grid_search.hpp), but over actor lists stepped
// by GridBoard::step and hashed whole. It is the baseline the generated
// bitboard solvers are measured against, and the oracle for small levels.
#pragma once

#include "compiler/interp/grid_interp.hpp"
#include "runtime/include/pz/grid_search.hpp"

namespace pz::interp {

grid::SearchResult interpretedAStar(const GridBoard& board, const grid::SearchLimits& limits = {});
grid::SearchResult interpretedBfs(const GridBoard& board, const grid::SearchLimits& limits = {});

}  // namespace pz::interp
