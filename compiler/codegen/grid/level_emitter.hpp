// Internal to the grid emitters (compiler/codegen/grid/): LevelEmitter
// writes one level's namespace, one file per section (level.cpp: the state,
// constants and solvedness; moves.cpp: the move kernels; floor_sets.cpp;
// heuristic.cpp; key.cpp; space.cpp), and the helpers they share. The
// public entry points are in compiler/codegen/grid/grid_emit.hpp; solver.cpp
// writes the translation unit. The layout each level follows is an analysis
// (compiler/analysis/grid/grid_layout.hpp), as are the goal distances
// (compiler/analysis/grid/grid_distances.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "compiler/analysis/grid/grid_distances.hpp"
#include "compiler/analysis/grid/grid_layout.hpp"
#include "compiler/codegen/code_writer.hpp"
#include "compiler/codegen/grid/grid_emit.hpp"

namespace pz::codegen::grid {

using analysis::GridLayout;
using analysis::gridLayout;
using analysis::indexBits;

using Words = std::vector<uint64_t>;

inline std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llxULL", (unsigned long long)v);
    return buf;
}

inline std::string boardLiteral(const Words& w) {
    std::string r = "Board{";
    for (size_t i = 0; i < w.size(); ++i) r += (i ? ", " : "") + hex(w[i]);
    return r + "}";
}

inline void setBit(Words& w, int cell) { w[cell >> 6] |= uint64_t(1) << (cell & 63); }

inline std::string directionComment(const ir::GridRules& rules, const GridLayout& layout, int pressed) {
    std::string r = "pressed " + rules.directions[pressed].name + ":";
    for (int c : layout.colours)
        r += " " + rules.colours[c].name + " " + rules.directions[rules.colours[c].motion[pressed]].name;
    return commentText(r);
}

class LevelEmitter {
public:
    LevelEmitter(CodeWriter& w, const ir::GridRules& rules, const ir::Level& level, bool hallBound)
        : w_(w), rules_(rules), level_(level), hallBound_(hallBound), layout_(gridLayout(rules, level)),
          distances_(analysis::goalDistances(rules, level)) {}

    void emit();

private:
    std::string colourList() const;
    Words emptyWords() const { return Words(layout_.words, 0); }
    int cellOf(int x, int y) const { return y * level_.width + x; }
    int cellCount() const { return level_.width * level_.height; }
    int distance(int goal, int cell) const { return distances_[goal][cell]; }

    Words movable(int c, int pressed) const;
    int shiftOf(int c, int pressed) const;

    void emitConstants();
    void emitKernel(int pressed);
    void emitSolved();
    void emitHeuristic();

    // The max-min distance from byte rows, see note [grid distance rows] in
    // runtime/include/pz/grid_bits.hpp: kDist<i>[f] holds floor cell f's
    // distance to every goal of board i's colour.
    static constexpr int kMaxRowGoals = 16;
    bool useDistanceRows() const;
    bool boardHasDistanceRows(size_t i) const;
    void emitRowHeuristic();

    // note [grid heuristic]
    // Every goal needs its own actor, and each press moves an actor at most
    // one step along its distance table, so the bottleneck assignment (the
    // least d such that goals can be given distinct actors within d presses)
    // is admissible and consistent. By Hall's theorem that is the least d such
    // that every set S of a colour's goals sees at least |S| of its actors
    // within d presses: one popcount per subset, from constant tables, for
    // colours with at most kMaxHallGoals goals (others keep the max-min bound
    // that the rings above give).
    static constexpr int kMaxHallGoals = 6;
    void emitHall(std::vector<std::string>& checks);
    void emitFloorTables();

    // With at most 128 floor cells a colour's actors, pext-ed to floor
    // numbering, fit one (or two) words; its k actors (k is known) are then
    // read lowest first with a fixed number of ctz steps: no data-dependent
    // branches, no table lookups, and the same order as a loop over cells.
    static constexpr int kMaxCompactFloor = 128;
    bool compactFloorSets() const { return layout_.floorCells <= kMaxCompactFloor; }
    int actorsOf(size_t board) const { return actorsOfColour(layout_.colours[board]); }
    int actorsOfColour(int colour) const;
    Words floorWords() const;
    void emitFloorSets();
    // note [grid actor lists] (runtime/include/pz/grid_bits.hpp): with at
    // most 128 floor cells and 16 actors, a board's actors are read as a byte
    // list of floor indices, the form both the key fields and the distance
    // rows take.
    static constexpr int kMaxListActors = 16;
    bool listed(size_t i) const;
    static std::string actorByte(int a);
    static std::string byteFieldMask(int count, int width);
    std::vector<std::string> boardLines(size_t i, bool withKey, bool withRows) const;
    static std::string lowMask(int bits) { return hex(bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1); }
    void emitChooseTable(int maxK);
    void emitColexUnrank(int k, const std::string& each);

    bool goalWithoutActors() const;
    void emitKeyBlocks(bool rows);
    void emitPackEstimate();
    void emitPackedKey();
    void emitKey();
    void emitSpace();

    CodeWriter& w_;
    const ir::GridRules& rules_;
    const ir::Level& level_;
    bool hallBound_;
    GridLayout layout_;
    std::vector<std::vector<int>> distances_;  // [goal][cell]
};

}  // namespace pz::codegen::grid
