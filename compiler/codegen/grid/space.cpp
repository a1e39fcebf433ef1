// The Space struct the grid runtime (pz/grid_search.hpp) is instantiated with.
#include "compiler/codegen/grid/level_emitter.hpp"

namespace pz::codegen::grid {

void LevelEmitter::emitSpace() {
    w_.section("grid_emit: space");
    std::string start;
    for (size_t i = 0; i < layout_.colours.size(); ++i) start += (i ? ", " : "") + std::string("kStart") + std::to_string(i);
    std::string colourOf;
    for (size_t i = 0; i < layout_.colours.size(); ++i) colourOf += (i ? ", " : "") + std::to_string(layout_.colours[i]);
    w_.line("struct Space {");
    w_.indent();
    w_.line("using State = {{NS}}::State;");
    w_.line("using Key = {{NS}}::Key;");
    w_.line("using Hasher = {{NS}}::Hasher;");
    w_.line("static constexpr const char* kName = {{NAME}};");
    w_.line("static constexpr int kDead = {{NS}}::kDead;");
    w_.line("static constexpr int kWidth = " + std::to_string(level_.width) + ", kHeight = " +
            std::to_string(level_.height) + ";");
    w_.line("static constexpr int kColours = {{COLOURS}};");
    w_.line("static constexpr int kColourOf[" + std::to_string(std::max<size_t>(1, layout_.colours.size())) + "] = {" +
            (colourOf.empty() ? "-1" : colourOf) + "};  // IR colour of each board");
    w_.line("static constexpr int kDirections = " + std::to_string(rules_.directions.size()) + ";");
    w_.line("int directions() const { return kDirections; }");
    w_.line("State initial() const { return State{" + start + "}; }");
    w_.line("[[gnu::always_inline]] State move(const State& s, int pressed) const {");
    w_.indent();
    w_.line("switch (pressed) {");
    for (size_t p = 0; p < rules_.directions.size(); ++p)
        w_.line("    case " + std::to_string(p) + ": return move_" + identifierPart(rules_.directions[p].name) + "(s);");
    w_.line("}");
    w_.line("return s;");
    w_.dedent();
    w_.line("}");
    w_.line("bool solved(const State& s) const { return {{NS}}::solved(s); }");
    w_.line("int heuristic(const State& s) const { return {{NS}}::heuristic(s); }");
    w_.line("// atLeast must not exceed the true value (for a child: its parent's h - 1)");
    w_.line("int heuristicAtLeast(const State& s, int atLeast) const { return {{NS}}::heuristic(s, atLeast); }");
    w_.line("Key pack(const State& s) const { return {{NS}}::pack(s); }");
    if (layout_.key == GridLayout::KeyKind::Packed && useDistanceRows() && !hallBound_)
        w_.line("[[gnu::always_inline]] Key packEstimate(const State& s, int& h) const { return {{NS}}::packEstimate(s, h); }");
    w_.line("State unpack(const Key& k) const { return {{NS}}::unpack(k); }");
    w_.line("Hasher hasher() const { return {}; }");
    w_.dedent();
    w_.line("};");
    w_.line();
}

}  // namespace pz::codegen::grid
