#include "compiler/ir/blocks_shapes.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace pz::ir {

std::vector<std::vector<BlockCell>> blockComponents(const std::vector<BlockCell>& cells) {
    std::vector<std::vector<BlockCell>> out;
    std::vector<char> seen(cells.size(), 0);
    for (size_t start = 0; start < cells.size(); ++start) {
        if (seen[start]) continue;
        std::vector<size_t> stack{start}, members;
        seen[start] = 1;
        while (!stack.empty()) {
            size_t i = stack.back();
            stack.pop_back();
            members.push_back(i);
            for (size_t j = 0; j < cells.size(); ++j) {
                if (seen[j]) continue;
                int d = std::abs(cells[i].x - cells[j].x) + std::abs(cells[i].y - cells[j].y);
                if (d == 1) {
                    seen[j] = 1;
                    stack.push_back(j);
                }
            }
        }
        std::sort(members.begin(), members.end());
        std::vector<BlockCell> component;
        for (size_t i : members) component.push_back(cells[i]);
        out.push_back(std::move(component));
    }
    return out;
}

std::pair<BlockCell, std::vector<BlockCell>> normaliseBlock(const std::vector<BlockCell>& cells) {
    BlockCell anchor{INT_MAX, INT_MAX};
    for (const auto& c : cells) {
        anchor.x = std::min(anchor.x, c.x);
        anchor.y = std::min(anchor.y, c.y);
    }
    std::vector<BlockCell> shape;
    for (const auto& c : cells) shape.push_back({c.x - anchor.x, c.y - anchor.y});
    std::sort(shape.begin(), shape.end(), [](BlockCell a, BlockCell b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    return {anchor, shape};
}

std::pair<int, int> blockExtent(const std::vector<BlockCell>& shape) {
    int w = 0, h = 0;
    for (const auto& c : shape) {
        w = std::max(w, c.x + 1);
        h = std::max(h, c.y + 1);
    }
    return {w, h};
}

std::string extentText(const std::vector<BlockCell>& shape) {
    auto [w, h] = blockExtent(shape);
    return std::to_string(w) + " x " + std::to_string(h);
}

bool isLineShape(const std::vector<BlockCell>& shape) {
    auto [w, h] = blockExtent(shape);
    return (w == 1 && h >= 2) || (h == 1 && w >= 2);
}

const char* axisName(BlockAxis axis) {
    switch (axis) {
        case BlockAxis::Any: return "any";
        case BlockAxis::Horizontal: return "horizontal";
        case BlockAxis::Vertical: return "vertical";
    }
    return "?";
}

const char* symmetryName(BlockSymmetryKind kind) {
    switch (kind) {
        case BlockSymmetryKind::Transpose: return "transpose";
        case BlockSymmetryKind::AntiTranspose: return "antitranspose";
        case BlockSymmetryKind::MirrorX: return "mirror_x";
        case BlockSymmetryKind::MirrorY: return "mirror_y";
        case BlockSymmetryKind::Rotate180: return "rotate180";
    }
    return "?";
}

const char* metricName(BlockMetric metric) {
    switch (metric) {
        case BlockMetric::Step: return "step";
        case BlockMetric::Slide: return "slide";
        case BlockMetric::Path: return "path";
    }
    return "?";
}

const char* sideName(BlockRules::Exit::Side side) {
    using S = BlockRules::Exit::Side;
    switch (side) {
        case S::Left: return "left";
        case S::Right: return "right";
        case S::Top: return "top";
        case S::Bottom: return "bottom";
    }
    return "?";
}

BlockCell mapBlockCell(BlockSymmetryKind kind, BlockCell c, int width, int height) {
    switch (kind) {
        case BlockSymmetryKind::Transpose: return {c.y, c.x};
        case BlockSymmetryKind::AntiTranspose: return {height - 1 - c.y, width - 1 - c.x};
        case BlockSymmetryKind::MirrorX: return {width - 1 - c.x, c.y};
        case BlockSymmetryKind::MirrorY: return {c.x, height - 1 - c.y};
        case BlockSymmetryKind::Rotate180: return {width - 1 - c.x, height - 1 - c.y};
    }
    return c;
}

BlockCell exitCell(const BlockRules::Exit& exit, int width, int height) {
    using S = BlockRules::Exit::Side;
    switch (exit.side) {
        case S::Left: return {-1, exit.offset};
        case S::Right: return {width, exit.offset};
        case S::Top: return {exit.offset, -1};
        case S::Bottom: return {exit.offset, height};
    }
    return {};
}

bool exitOfCell(BlockCell c, int width, int height, BlockRules::Exit& out) {
    using S = BlockRules::Exit::Side;
    if (c.x == -1 && c.y >= 0 && c.y < height) out = {S::Left, c.y};
    else if (c.x == width && c.y >= 0 && c.y < height) out = {S::Right, c.y};
    else if (c.y == -1 && c.x >= 0 && c.x < width) out = {S::Top, c.x};
    else if (c.y == height && c.x >= 0 && c.x < width) out = {S::Bottom, c.x};
    else return false;
    return true;
}

}  // namespace pz::ir
