// A level's namespace: its State, constants (floor, goals, start), the
// sections in order (emit()), and solvedness.
#include "compiler/codegen/grid/level_emitter.hpp"

namespace pz::codegen::grid {

void LevelEmitter::emit() {
    w_.set("NS", gridLevelNamespace(level_));
    w_.set("NAME", stringLiteral(level_.name));
    w_.set("LEVEL", commentText(level_.name + ": " + layout_.describe()));
    w_.set("WORDS", std::to_string(layout_.words));
    w_.set("COLOURS", std::to_string(layout_.colours.size()));
    w_.section("grid_emit: level");
    w_.line("// level {{LEVEL}}");
    w_.line("namespace {{NS}} {");
    w_.line();
    w_.line("using Board = pz::grid::Bits<{{WORDS}}>;");
    w_.line("struct State {");
    w_.indent();
    w_.line("Board colour[{{COLOURS}}];  // " + colourList());
    w_.line("bool operator==(const State&) const = default;");
    w_.dedent();
    w_.line("};");
    w_.line();
    emitConstants();
    if (compactFloorSets()) emitFloorSets();
    for (int p = 0; p < (int)rules_.directions.size(); ++p) emitKernel(p);
    emitSolved();
    emitHeuristic();
    emitKey();
    emitSpace();
    w_.line("}  // namespace {{NS}}");
    w_.line();
}

std::string LevelEmitter::colourList() const {
    std::string r;
    for (size_t i = 0; i < layout_.colours.size(); ++i)
        r += (i ? ", " : "") + rules_.colours[layout_.colours[i]].name;
    return commentText(r);
}

void LevelEmitter::emitConstants() {
    w_.section("grid_emit: constants");
    w_.line("constexpr Board kFloor = " + boardLiteral(floorWords()) + ";");
    for (size_t i = 0; i < layout_.colours.size(); ++i) {
        Words goals = emptyWords(), start = emptyWords();
        for (const auto& g : level_.goals)
            if (g.colour == layout_.colours[i]) setBit(goals, cellOf(g.x, g.y));
        for (const auto& a : level_.actors)
            if (a.colour == layout_.colours[i]) setBit(start, cellOf(a.x, a.y));
        w_.line("constexpr Board kGoals" + std::to_string(i) + " = " + boardLiteral(goals) + ";  // " +
                commentText(rules_.colours[layout_.colours[i]].name));
        w_.line("constexpr Board kStart" + std::to_string(i) + " = " + boardLiteral(start) + ";");
    }
    w_.line();
}

void LevelEmitter::emitSolved() {
    w_.section("grid_emit: solved");
    std::string test;
    for (size_t i = 0; i < layout_.colours.size(); ++i) {
        std::string k = std::to_string(i);
        test += (i ? " && " : "") + std::string("(s.colour[") + k + "] & kGoals" + k + ") == kGoals" + k;
    }
    if (test.empty()) test = "true";
    // Goals of a colour with no actors can never be covered.
    for (const auto& g : level_.goals)
        if (std::find(layout_.colours.begin(), layout_.colours.end(), g.colour) == layout_.colours.end())
            test = "false";
    w_.line("inline bool solved(const State& s) { return " + test + "; }");
    w_.line();
}

}  // namespace pz::codegen::grid
