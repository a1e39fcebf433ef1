// Boards in floor numbering (pext/pdep) and the actors read from them.
#include "compiler/codegen/grid/level_emitter.hpp"

namespace pz::codegen::grid {

// kFloorIndex[cell]: the cell's number among floor cells; kFloorCell: back.
void LevelEmitter::emitFloorTables() {
    std::string floorIndex, floorCell;
    int f = 0;
    std::vector<int> indexOf(cellCount(), 0);
    for (int cell = 0; cell < cellCount(); ++cell)
        if (level_.floor[cell]) {
            indexOf[cell] = f++;
            floorCell += (floorCell.empty() ? "" : ", ") + std::to_string(cell);
        }
    for (int cell = 0; cell < cellCount(); ++cell) floorIndex += (cell ? ", " : "") + std::to_string(indexOf[cell]);
    w_.line("constexpr uint16_t kFloorIndex[" + std::to_string(cellCount()) + "] = {" + floorIndex + "};");
    w_.line("constexpr uint16_t kFloorCell[" + std::to_string(layout_.floorCells) + "] = {" + floorCell + "};");
}

int LevelEmitter::actorsOfColour(int colour) const {
    int k = 0;
    for (const auto& a : level_.actors) k += a.colour == colour;
    return k;
}

Words LevelEmitter::floorWords() const {
    Words floor = emptyWords();
    for (int y = 0; y < level_.height; ++y)
        for (int x = 0; x < level_.width; ++x)
            if (level_.isFloor(x, y)) setBit(floor, cellOf(x, y));
    return floor;
}

// FloorSet, floorSet(board) and boardOf(set): a board in floor numbering and back.
void LevelEmitter::emitFloorSets() {
    w_.section("grid_emit: floor sets");
    const Words floor = floorWords();
    const bool wide = layout_.floorCells > 64;
    w_.line(std::string("using FloorSet = ") + (wide ? "unsigned __int128" : "uint64_t") +
            ";  // one bit per floor cell, in cell order");
    std::string set;
    std::vector<std::string> back;
    int offset = 0;
    for (int wi = 0; wi < layout_.words; ++wi) {
        const int count = __builtin_popcountll(floor[wi]);
        if (!count) continue;
        std::string part = "pz::grid::extractBits(b.w[" + std::to_string(wi) + "], " + hex(floor[wi]) + ")";
        if (wide) part = "(FloorSet)" + part;
        if (offset) part = "(" + part + " << " + std::to_string(offset) + ")";
        set += (set.empty() ? "" : " | ") + part;
        const std::string bits = offset ? "(uint64_t)(f >> " + std::to_string(offset) + ")" : "(uint64_t)f";
        back.push_back("b.w[" + std::to_string(wi) + "] = pz::grid::depositBits(" + bits + ", " + hex(floor[wi]) + ");");
        offset += count;
    }
    w_.line("inline FloorSet floorSet(const Board& b) { return " + (set.empty() ? "0" : set) + "; }");
    w_.line("inline Board boardOf(FloorSet f) {");
    w_.indent();
    w_.line("Board b{};");
    for (const auto& line : back) w_.line(line);
    w_.line("return b;");
    w_.dedent();
    w_.line("}");
    bool lists = false;
    for (size_t i = 0; i < layout_.colours.size(); ++i) lists |= listed(i);
    if (lists) {
        std::string at;
        int f = 0;
        for (int cell = 0; cell < 64 * layout_.words; ++cell)
            at += (cell ? ", " : "") + std::to_string(cell < cellCount() && level_.floor[cell] ? f++ : 0);
        w_.line("// the floor index of each cell (0 for walls), see note [grid actor lists]");
        w_.line("constexpr pz::grid::FloorIndexBytes<{{WORDS}}> kFloorIndexBytes{ {" + at + "} };");
    }
    w_.line();
}

}  // namespace pz::codegen::grid
