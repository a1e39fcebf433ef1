#include "compiler/interp/grid_interp.hpp"

#include <algorithm>
#include <unordered_map>

namespace pz::interp {

size_t GridStateHash::operator()(const GridState& s) const {
    uint64_t h = 1469598103934665603ULL;
    for (const auto& colour : s.cells) {
        for (int c : colour) h = (h ^ (uint64_t)c) * 1099511628211ULL;
        h = (h ^ 0xFFu) * 1099511628211ULL;
    }
    return (size_t)h;
}

GridBoard::GridBoard(const ir::GridRules& rules, const ir::Level& level)
    : rules_(&rules), level_(&level), distance_(analysis::goalDistances(rules, level)) {}

GridState GridBoard::initialState() const {
    GridState s;
    s.cells.resize(rules_->colours.size());
    for (const auto& a : level_->actors) s.cells[a.colour].push_back(a.y * level_->width + a.x);
    for (auto& c : s.cells) std::sort(c.begin(), c.end());
    return s;
}

GridState GridBoard::step(const GridState& state, int pressed) const {
    const int w = level_->width;
    struct Actor {
        int colour, from, target;
    };
    std::vector<Actor> actors;
    for (size_t c = 0; c < state.cells.size(); ++c) {
        const auto& d = rules_->directions[rules_->colours[c].motion[pressed]];
        for (int cell : state.cells[c]) {
            int x = cell % w + d.dx, y = cell / w + d.dy;
            actors.push_back({(int)c, cell, level_->isFloor(x, y) ? y * w + x : cell});
        }
    }
    // Until nothing changes: actors sharing a target all stay where they were.
    for (bool changed = true; changed;) {
        changed = false;
        std::unordered_map<int, int> claims;
        for (const auto& a : actors) ++claims[a.target];
        for (auto& a : actors)
            if (a.target != a.from && claims[a.target] > 1) {
                a.target = a.from;
                changed = true;
            }
    }
    GridState next;
    next.cells.resize(state.cells.size());
    for (const auto& a : actors) next.cells[a.colour].push_back(a.target);
    for (auto& c : next.cells) std::sort(c.begin(), c.end());
    return next;
}

bool GridBoard::isSolved(const GridState& state) const {
    for (const auto& g : level_->goals) {
        const auto& cells = state.cells[g.colour];
        if (!std::binary_search(cells.begin(), cells.end(), g.y * level_->width + g.x)) return false;
    }
    return true;
}

int GridBoard::heuristic(const GridState& state) const {
    int h = 0;
    for (size_t g = 0; g < level_->goals.size(); ++g) {
        int nearest = kUnreachable;
        for (int cell : state.cells[level_->goals[g].colour]) nearest = std::min(nearest, distance_[g][cell]);
        h = std::max(h, nearest);
    }
    return h;
}

std::string GridBoard::describe(const GridState& state) const {
    std::string r;
    for (size_t c = 0; c < state.cells.size(); ++c)
        for (int cell : state.cells[c])
            r += std::string(r.empty() ? "" : " ") + rules_->colours[c].actorChar + "(" +
                 std::to_string(cell % level_->width) + "," + std::to_string(cell / level_->width) + ")";
    return r;
}

std::string solutionText(const ir::GridRules& rules, const std::vector<int>& moves) {
    std::string r;
    for (int m : moves) r += (r.empty() ? "" : " ") + rules.directions[m].name;
    return r;
}

bool replaySolves(const GridBoard& board, const std::vector<int>& moves) {
    GridState s = board.initialState();
    for (int m : moves) {
        if (m < 0 || m >= board.directionCount()) return false;
        s = board.step(s, m);
    }
    return board.isSolved(s);
}

}  // namespace pz::interp
