// One move kernel per pressed direction.
#include "compiler/codegen/grid/level_emitter.hpp"

// note [grid kernels]
// Cell (x, y) is bit y * width + x, so the press that moves a colour by
// (dx, dy) is shifted<dy * width + dx> on that colour's board. A kernel only
// shifts the actors whose target is floor (a constant mask per direction and
// colour, which is where the walls live), so rows never wrap. The rules'
// fixpoint (note [grid rules] in compiler/interp/grid_interp.hpp) becomes:
//   go_c   = actors of c that still move;  stay = all other actors
//   to_c   = shifted(go_c)                  (their targets)
//   twice  = cells claimed by two of stay, to_0, to_1, ...
//   stop_c = go_c & shifted back(twice)     (movers whose target is claimed twice)
// repeated until no stop_c is set; each round only removes movers, so it ends
// after at most as many rounds as there are actors (usually one or two).

namespace pz::codegen::grid {

// Actors of colour c whose target under `pressed` is floor.
Words LevelEmitter::movable(int c, int pressed) const {
    Words w = emptyWords();
    const auto& d = rules_.directions[rules_.colours[c].motion[pressed]];
    if (d.dx == 0 && d.dy == 0) return w;
    for (int y = 0; y < level_.height; ++y)
        for (int x = 0; x < level_.width; ++x)
            if (level_.isFloor(x, y) && level_.isFloor(x + d.dx, y + d.dy)) setBit(w, cellOf(x, y));
    return w;
}

int LevelEmitter::shiftOf(int c, int pressed) const {
    const auto& d = rules_.directions[rules_.colours[c].motion[pressed]];
    return d.dy * level_.width + d.dx;
}

void LevelEmitter::emitKernel(int pressed) {
    w_.section("grid_emit: move kernel");
    w_.set("DIR", identifierPart(rules_.directions[pressed].name));
    w_.line("// " + directionComment(rules_, layout_, pressed) + "; see note [grid kernels]");
    w_.line("[[gnu::always_inline]] inline State move_{{DIR}}(const State& s) {");
    w_.indent();
    const size_t n = layout_.colours.size();
    for (size_t i = 0; i < n; ++i)
        w_.line("Board go" + std::to_string(i) + " = s.colour[" + std::to_string(i) + "] & " +
                boardLiteral(movable(layout_.colours[i], pressed)) + ";");
    w_.line("for (;;) {");
    w_.indent();
    std::string stay, twice, seen;
    for (size_t i = 0; i < n; ++i) {
        std::string k = std::to_string(i);
        stay += (i ? " | " : "") + std::string("(s.colour[") + k + "] ^ go" + k + ")";
    }
    w_.line("const Board stay = " + stay + ";");
    for (size_t i = 0; i < n; ++i) {
        std::string k = std::to_string(i);
        w_.line("const Board to" + k + " = pz::grid::shifted<" +
                std::to_string(shiftOf(layout_.colours[i], pressed)) + ">(go" + k + ");");
    }
    seen = "stay";
    for (size_t i = 0; i < n; ++i) {
        std::string k = std::to_string(i);
        twice += (i ? " | " : "") + std::string("(") + (i ? "(" + seen + ")" : seen) + " & to" + k + ")";
        seen += " | to" + k;
    }
    w_.line("const Board twice = " + twice + ";");
    std::string anyStop;
    for (size_t i = 0; i < n; ++i) {
        std::string k = std::to_string(i);
        w_.line("const Board stop" + k + " = go" + k + " & pz::grid::shifted<" +
                std::to_string(-shiftOf(layout_.colours[i], pressed)) + ">(twice);");
        anyStop += (i ? " | " : "") + std::string("stop") + k;
    }
    std::string result;
    for (size_t i = 0; i < n; ++i) {
        std::string k = std::to_string(i);
        result += (i ? ", " : "") + std::string("(s.colour[") + k + "] ^ go" + k + ") | to" + k;
    }
    w_.line("if (!(" + anyStop + ").any()) return State{" + result + "};");
    for (size_t i = 0; i < n; ++i) {
        std::string k = std::to_string(i);
        w_.line("go" + k + " ^= stop" + k + ";");
    }
    w_.dedent();
    w_.line("}");
    w_.dedent();
    w_.line("}");
    w_.line();
}

}  // namespace pz::codegen::grid
