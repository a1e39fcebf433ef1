// The schematic of a permutation-puzzle state (note [drawing]): one row of
// cells per orbit, without geometry. A cell shows the piece at its position.
#include <algorithm>
#include <set>

#include "compiler/render/drawing.hpp"
#include "compiler/render/svg_writer.hpp"

namespace pz::render {

namespace {

constexpr double kCell = 28, kPitch = 32;  // a cell and the step to the next
constexpr double kLine = kCell + 18;       // a line of cells with its position numbers
constexpr double kPad = 8;
constexpr int kPerLine = 12;  // longer orbits wrap: a 38-ball ring stays readable

bool identical(const ir::Orbit& orbit) {
    return std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size() != orbit.solvedLabel.size();
}

int linesOf(const ir::Orbit& orbit) { return std::max(1, (orbit.size + kPerLine - 1) / kPerLine); }

struct Geometry {
    double label = 0, width = 0, height = 0;
};

Geometry geometry(const ir::Puzzle& puzzle) {
    Geometry g;
    size_t longest = 1;
    int widest = 1, lines = 0;
    for (const auto& orbit : puzzle.orbits) {
        longest = std::max(longest, orbit.name.size());
        widest = std::max(widest, std::min(orbit.size, kPerLine));
        lines += linesOf(orbit);
    }
    g.label = 7.0 * (double)std::min<size_t>(longest, 24) + 12;  // about 7 px a character at 12 px
    g.width = 2 * kPad + g.label + widest * kPitch - (kPitch - kCell);
    g.height = 2 * kPad + lines * kLine;
    return g;
}

std::string nameOf(const ir::Orbit& orbit, int position) {
    return orbit.positionNames.empty() ? std::to_string(position) : orbit.positionNames[position];
}

// One cell: position p of orbit o holding `piece` (solved position) twisted by `ori`.
void drawCell(SvgDocument& svg, const ir::Orbit& orbit, int p, int piece, int ori, const std::string& prefix,
              double x, double y) {
    const bool same = identical(orbit);
    const int shown = same ? orbit.solvedLabel[piece] : piece;
    const int keys = same ? *std::max_element(orbit.solvedLabel.begin(), orbit.solvedLabel.end()) + 1 : orbit.size;
    const bool home = (same ? orbit.solvedLabel[piece] == orbit.solvedLabel[p] : piece == p) && ori == 0;
    const std::string fill = pieceColour(shown, keys);
    svg.open(Tag("g")
                 .attr("id", prefix + orbit.name + "-l" + std::to_string(p) + "-o" + std::to_string(ori))
                 .attr("class", home ? "cell solved" : "cell")
                 .attr("data-orbit", orbit.name)
                 .attr("data-position", p)
                 .attr("data-piece", shown)
                 .attr("data-orientation", ori)
                 .attr("data-solved", home ? "true" : "false")
                 .attr("transform", "translate(" + formatNumber(x) + " " + formatNumber(y) + ")"));
    std::string tip = nameOf(orbit, p) + ": " + (same ? "label " + std::to_string(shown) : "piece " + nameOf(orbit, piece));
    if (orbit.orient > 1) tip += ", orientation " + std::to_string(ori);
    svg.add(Tag("title").text(tip));
    svg.add(Tag("rect").attr("width", kCell).attr("height", kCell).attr("rx", 3).attr("fill", fill)
                .attr("stroke", home ? "#111111" : "#666666").attr("stroke-width", home ? 3 : 1));
    svg.add(Tag("text").attr("x", kCell / 2).attr("y", kCell / 2 + 4).attr("text-anchor", "middle")
                .attr("font-size", 11).attr("fill", textColourOn(fill)).text(std::to_string(shown)));
    if (ori != 0) {  // the twist as a badge in the top right corner
        svg.add(Tag("circle").attr("class", "twist").attr("cx", kCell - 3).attr("cy", 3).attr("r", 6)
                    .attr("fill", "#ffffff").attr("stroke", "#111111"));
        svg.add(Tag("text").attr("x", kCell - 3).attr("y", 6).attr("text-anchor", "middle").attr("font-size", 8)
                    .text(std::to_string(ori)));
    }
    svg.add(Tag("text").attr("x", kCell / 2).attr("y", kCell + 10).attr("text-anchor", "middle")
                .attr("font-size", 7).attr("fill", "#777777").text(nameOf(orbit, p)));
    svg.close();
}

void drawFrame(SvgDocument& svg, const interp::Interpreter& interpreter, const PermFrame& frame,
               const std::string& prefix, const Geometry& g) {
    const ir::Puzzle& puzzle = interpreter.puzzle();
    double y = kPad;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        const ir::Orbit& orbit = puzzle.orbits[o];
        svg.add(Tag("text").attr("class", "orbit-label").attr("x", kPad).attr("y", y + kCell / 2 + 4)
                    .attr("font-size", 12).text(orbit.name));
        for (int p = 0; p < orbit.size; ++p) {
            const int flat = interpreter.offset((int)o) + p;
            const double x = kPad + g.label + (p % kPerLine) * kPitch;
            drawCell(svg, orbit, p, frame.state.piece[flat], frame.state.ori[flat], prefix, x, y + (p / kPerLine) * kLine);
        }
        y += linesOf(orbit) * kLine;
    }
}

}  // namespace

std::string drawSchematic(const interp::Interpreter& interpreter, const std::vector<PermFrame>& frames,
                          const DrawingInfo& info) {
    const Geometry g = geometry(interpreter.puzzle());
    const bool strip = frames.size() > 1;
    const bool captions = std::any_of(frames.begin(), frames.end(), [](const PermFrame& f) { return !f.caption.empty(); });
    const Strip layout = stripFor((int)frames.size(), g.width, g.height, captions);
    SvgDocument svg(layout.width(), layout.height(), info.title, "generated by pzc draw from " + info.source);
    for (size_t k = 0; k < frames.size(); ++k) {
        const std::string prefix = strip ? "f" + std::to_string(k) + "-" : "";
        const double x = layout.x((int)k), y = layout.y((int)k);
        if (!frames[k].caption.empty())
            svg.add(Tag("text").attr("class", "caption").attr("x", x + kPad).attr("y", y - 6).attr("font-size", 12)
                        .text(frames[k].caption));
        svg.open(Tag("g").attr("id", strip ? "frame-" + std::to_string(k) : "frame").attr("class", "frame")
                     .attr("transform", "translate(" + formatNumber(x) + " " + formatNumber(y) + ")"));
        svg.add(Tag("rect").attr("width", g.width).attr("height", g.height).attr("fill", "#ffffff")
                    .attr("stroke", "#cccccc"));
        drawFrame(svg, interpreter, frames[k], prefix, g);
        svg.close();
    }
    return svg.finish();
}

}  // namespace pz::render
