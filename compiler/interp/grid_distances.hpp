// Per-goal distance tables of a grid-actor level (header-only, so both the
// interpreter and the code generator use the very same tables).
//
// distances[g][cell]: the fewest presses that bring one actor of goal g's
// colour from `cell` to the goal, alone on the board (walls respected), or
// kUnreachableDistance. Other actors only ever add presses, so these bound
// the remaining moves from below (see note [grid heuristic]).
#pragma once

#include <deque>
#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::interp {

inline constexpr int kUnreachableDistance = 0xFFFF;

inline std::vector<std::vector<int>> goalDistances(const ir::GridRules& rules, const ir::Level& level) {
    const int w = level.width, h = level.height;
    std::vector<std::vector<int>> distances(level.goals.size(), std::vector<int>((size_t)w * h, kUnreachableDistance));
    for (size_t g = 0; g < level.goals.size(); ++g) {
        const auto& goal = level.goals[g];
        const auto& colour = rules.colours[goal.colour];
        // BFS backwards from the goal: u precedes v if some press moves an
        // actor of this colour from u to v.
        auto& dist = distances[g];
        std::deque<int> queue;
        dist[goal.y * w + goal.x] = 0;
        queue.push_back(goal.y * w + goal.x);
        while (!queue.empty()) {
            int v = queue.front();
            queue.pop_front();
            int vx = v % w, vy = v / w;
            for (int motion : colour.motion) {
                const auto& d = rules.directions[motion];
                int ux = vx - d.dx, uy = vy - d.dy;
                if (!level.isFloor(ux, uy)) continue;
                int u = uy * w + ux;
                if (dist[u] != kUnreachableDistance) continue;
                dist[u] = dist[v] + 1;
                queue.push_back(u);
            }
        }
    }
    return distances;
}

}  // namespace pz::interp
