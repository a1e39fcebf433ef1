// The layout of a grid-actor level's generated state: one bitboard per
// colour with actors, and the closed-set key (note [grid key parts]).
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

// How one level is laid out: its boards and closed-set key; the grid
// emitters (compiler/codegen/grid/) follow it, pzc reports it.
struct GridLayout {
    int cells = 0, words = 0, floorCells = 0;
    std::vector<int> colours;  // IR colour of each state colour (those with actors)
    // The closed-set key (note [grid keys] in runtime/include/pz/grid_bits.hpp):
    // Packed = one u64 of per-colour parts (note [grid key parts]); Words =
    // the bitboards themselves (when no choice of parts fits 64 bits).
    enum class KeyKind { Packed, Words } key = KeyKind::Packed;
    struct Part {
        enum class Kind { FloorBits, IndexList, Colex } kind = Kind::FloorBits;
        int actors = 0, bits = 0, offset = 0;  // bits [offset, offset + bits) of the key
    };
    std::vector<Part> parts;  // one per state colour, for Packed
    std::string describe() const;
};

GridLayout gridLayout(const ir::GridRules& rules, const ir::Level& level);

// Bits that number `count` things (at least 1): a floor index in a key field.
int indexBits(int count);

}  // namespace pz::analysis
