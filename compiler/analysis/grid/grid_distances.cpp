#include "compiler/analysis/grid/grid_distances.hpp"

#include <deque>

namespace pz::analysis {

std::vector<std::vector<int>> goalDistances(const ir::GridRules& rules, const ir::Level& level) {
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

}  // namespace pz::analysis
