// Analyses of sliding-block puzzles (note [blocks model] in
// compiler/ir/blocks.hpp): which engine a puzzle gets, solvability by
// parity, the reachable-state count, the symmetries' maps and the additive
// heuristics' validity. `pzc check` prints them; the back end refuses what
// they refuse before any code is generated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/blocks.hpp"

namespace pz::analysis {

// An n-puzzle: moves named by the blank (one empty cell, every piece a 1x1
// tile of its own), no walls, no exit. These get the tile engine
// (pz/blocks/tiles.hpp): Manhattan distance and additive pattern databases.
bool isTilePuzzle(const ir::BlockRules& rules);

// Solvable from `layout` to the solved board, by parity (n-puzzles without
// walls: the permutation of the cells, blank included, has the parity of
// the blank's taxicab distance to its goal cell). nullopt: parity does not
// decide (not a tile puzzle).
std::optional<bool> tileParitySolvable(const ir::BlockRules& rules, const ir::BlockLayout& layout);

// (width*height)!/2 as decimal text: the states an n-puzzle without walls
// reaches from any position (both sides at least 2).
std::string tileReachableFormula(const ir::BlockRules& rules);

// The cell a symmetry maps (x, y) to, nullopt when it does not fit the board
// (a transpose of a non-square board).
std::optional<ir::BlockCell> mapCell(const ir::BlockRules& rules, ir::BlockSymmetryKind kind, ir::BlockCell c);

// Checks that a symmetry maps the walls, the exit and the goal to
// themselves; empty when it does, else why not.
std::string symmetryProblem(const ir::BlockRules& rules, const ir::BlockSymmetry& symmetry);

// For a full goal on a tile puzzle: tileMap[t] = the tile whose goal cell is
// the image of tile t's goal cell (0 = the blank), cellMap[c] = the image of c.
struct TileReflection {
    std::vector<int> cellMap, tileMap;
};
std::optional<TileReflection> tileReflection(const ir::BlockRules& rules, const ir::BlockSymmetry& symmetry);

// The solvers the back end can build for these rules: empty when `solver`
// is buildable, else the reason (a located error at the solver).
std::string solverProblem(const ir::BlockRules& rules, const ir::BlockSolver& solver);

// A pattern's placements on the board: N!/(N-k)!, one database entry each.
uint64_t tilePatternEntries(const ir::BlockRules& rules, const ir::BlockPattern& pattern);
// The bytes of a solver's additive databases when every entry fits 4 bits,
// as pz/blocks/tiles_pdb.hpp lays them out (a 64-byte directory, each
// pattern from a 64-byte boundary); 0 for other heuristics.
uint64_t tileTableBytes(const ir::BlockRules& rules, const ir::BlockSolver& solver);

}  // namespace pz::analysis
