// Per-goal distance tables of a grid-actor level: the interpreter and the
// grid emitters use the very same tables.
//
// distances[g][cell]: the fewest presses that bring one actor of goal g's
// colour from `cell` to the goal, alone on the board (walls respected), or
// kUnreachableDistance. Other actors only ever add presses, so these bound
// the remaining moves from below (see note [grid heuristic]).
#pragma once

#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

inline constexpr int kUnreachableDistance = 0xFFFF;

std::vector<std::vector<int>> goalDistances(const ir::GridRules& rules, const ir::Level& level);

}  // namespace pz::analysis
