// The board of a sliding-block puzzle (note [drawing]): cells (walls dark),
// each piece one outlined shape of its cells in its type's colour with its
// name, the goal's places dashed. y counts down from the top row, as the
// board is written.
#include <algorithm>

#include "compiler/render/drawing.hpp"
#include "compiler/render/svg_writer.hpp"

namespace pz::render {

namespace {

constexpr double kCell = 36, kPad = 8, kInset = 2;

std::string translate(double x, double y) { return "translate(" + formatNumber(x) + " " + formatNumber(y) + ")"; }

void drawCells(SvgDocument& svg, const interp::BlockBoard& board, int width, int height, const std::string& prefix) {
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const bool wall = board.isWall(x, y);
            svg.add(Tag("rect")
                        .attr("id", prefix + "cell-" + std::to_string(x) + "-" + std::to_string(y))
                        .attr("class", wall ? "wall" : "floor")
                        .attr("data-x", x)
                        .attr("data-y", y)
                        .attr("x", kPad + x * kCell)
                        .attr("y", kPad + y * kCell)
                        .attr("width", kCell)
                        .attr("height", kCell)
                        .attr("fill", wall ? "#444444" : "#eeeeee")
                        .attr("stroke", wall ? "#444444" : "#cccccc"));
        }
}

// A piece: one rectangle per cell, inset so the piece's outline shows, and
// its name on its first cell.
void drawPiece(SvgDocument& svg, const ir::BlockLayout& layout, const interp::BlockBoard& board, int p,
               const std::string& prefix, const std::string& fill) {
    const auto& piece = layout.pieces[p];
    const auto& type = layout.types[piece.type];
    const ir::BlockCell at = board.anchors()[p];
    svg.open(Tag("g")
                 .attr("id", prefix + "piece-" + piece.name)
                 .attr("class", "piece")
                 .attr("data-piece", piece.name)
                 .attr("data-type", type.name)
                 .attr("data-x", at.x)
                 .attr("data-y", at.y));
    for (const auto& c : type.shape) {
        // Cells of one piece touch: the inset is dropped on sides it shares.
        auto has = [&](int dx, int dy) {
            return std::find(type.shape.begin(), type.shape.end(), ir::BlockCell{c.x + dx, c.y + dy}) != type.shape.end();
        };
        const double left = kPad + (at.x + c.x) * kCell + (has(-1, 0) ? 0 : kInset);
        const double top = kPad + (at.y + c.y) * kCell + (has(0, -1) ? 0 : kInset);
        const double right = kPad + (at.x + c.x + 1) * kCell - (has(1, 0) ? 0 : kInset);
        const double bottom = kPad + (at.y + c.y + 1) * kCell - (has(0, 1) ? 0 : kInset);
        svg.add(Tag("rect").attr("x", left).attr("y", top).attr("width", right - left).attr("height", bottom - top)
                    .attr("fill", fill));
    }
    const auto& first = type.shape.front();
    svg.add(Tag("text")
                .attr("x", kPad + (at.x + first.x + 0.5) * kCell)
                .attr("y", kPad + (at.y + first.y + 0.5) * kCell + 5)
                .attr("font-size", 14)
                .attr("text-anchor", "middle")
                .attr("fill", textColourOn(fill))
                .text(piece.name));
    svg.close();
}

// Over the pieces: each placement of the goal as the dashed outline of its
// piece's bounding box there; an exit as a red bar in the border.
void drawGoal(SvgDocument& svg, const ir::BlockRules& rules, const ir::BlockLayout& layout) {
    for (const auto& place : rules.goal.placements) {
        int w = 1, h = 1;
        for (const auto& piece : layout.pieces)
            if (piece.name == place.piece)
                for (const auto& c : layout.types[piece.type].shape) w = std::max(w, c.x + 1), h = std::max(h, c.y + 1);
        svg.add(Tag("rect").attr("class", "goal").attr("data-piece", place.piece)
                    .attr("x", kPad + place.anchor.x * kCell + 1).attr("y", kPad + place.anchor.y * kCell + 1)
                    .attr("width", w * kCell - 2).attr("height", h * kCell - 2).attr("fill", "none")
                    .attr("stroke", "#cc0000").attr("stroke-width", 2).attr("stroke-dasharray", "5 3"));
    }
    if (rules.exit) {
        using S = ir::BlockRules::Exit::Side;
        const auto& e = *rules.exit;
        const bool vertical = e.side == S::Left || e.side == S::Right;
        const double x = e.side == S::Left ? 1 : e.side == S::Right ? kPad + rules.width * kCell + 1 : kPad + e.offset * kCell;
        const double y = e.side == S::Top ? 1 : e.side == S::Bottom ? kPad + rules.height * kCell + 1 : kPad + e.offset * kCell;
        svg.add(Tag("rect").attr("class", "exit").attr("x", x).attr("y", y)
                    .attr("width", vertical ? kPad - 2 : kCell).attr("height", vertical ? kCell : kPad - 2)
                    .attr("fill", "#cc0000"));
    }
}

}  // namespace

std::string drawBlocks(const ir::BlockRules& rules, const ir::BlockLayout& layout, const std::vector<BlocksFrame>& frames,
                       const DrawingInfo& info) {
    const double width = 2 * kPad + rules.width * kCell, height = 2 * kPad + rules.height * kCell;
    const bool strip = frames.size() > 1;
    const bool captions = std::any_of(frames.begin(), frames.end(), [](const BlocksFrame& f) { return !f.caption.empty(); });
    const Strip layoutStrip = stripFor(static_cast<int>(frames.size()), width, height, captions);
    std::vector<std::string> fills;
    for (size_t t = 0; t < layout.types.size(); ++t)
        fills.push_back(pieceColour(static_cast<int>(t), static_cast<int>(layout.types.size())));
    SvgDocument svg(layoutStrip.width(), layoutStrip.height(), info.title, "generated by pzc draw from " + info.source);
    for (size_t k = 0; k < frames.size(); ++k) {
        const std::string prefix = strip ? "f" + std::to_string(k) + "-" : "";
        const double x = layoutStrip.x(static_cast<int>(k)), y = layoutStrip.y(static_cast<int>(k));
        if (!frames[k].caption.empty())
            svg.add(Tag("text").attr("class", "caption").attr("x", x + kPad).attr("y", y - 6).attr("font-size", 12)
                        .text(frames[k].caption));
        const interp::BlockBoard& board = frames[k].board;
        svg.open(Tag("g").attr("id", strip ? "frame-" + std::to_string(k) : "frame").attr("class", "frame")
                     .attr("data-solved", board.isGoal() ? "true" : "false")
                     .attr("transform", translate(x, y)));
        drawCells(svg, board, rules.width, rules.height, prefix);
        for (size_t p = 0; p < layout.pieces.size(); ++p)
            drawPiece(svg, layout, board, static_cast<int>(p), prefix, fills[layout.pieces[p].type]);
        drawGoal(svg, rules, layout);
        svg.close();
    }
    return svg.finish();
}

}  // namespace pz::render
