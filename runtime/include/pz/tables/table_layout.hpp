// pz/tables/table_layout.hpp — the sizes of the table blobs the runtime builds,
// from the numbers that shape them and nothing else.
//
// The solvers check a loaded blob against these sizes, and the compiler
// (`pzc check`'s table-bytes, `--memory`'s choice of a table) asks the same
// functions, so the size a user is told is the size the solver holds. The
// bytes are the blob in memory; its cache file adds a 4 KiB header page and
// 8 bytes per 64 KiB block (note [table integrity] in pz/tables/prune.hpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pz/tables/two_bit_table.hpp"

namespace pz {

// A projected coset table (pz/tables/projected_coset.hpp), in 8-byte words: the
// header, classOf (a u32 per raw value of the reduced parts), the
// stabilisers (a u64 per class), the class floors (a byte per class),
// padding to a 64-byte line, the 2-bit lines of classes x kept values, the
// set of entries below the base.
struct ProjectedCosetLayout {
    static constexpr uint64_t kHeaderWords = 8 + 16 + 2;
    static uint64_t classWords(uint64_t rawA) { return (rawA * 4 + 7) / 8; }
    static uint64_t floorWords(uint64_t classes) { return (classes + 7) / 8; }
    // Where the 2-bit lines start.
    static uint64_t linesAt(uint64_t rawA, uint64_t classes) {
        return (kHeaderWords + classWords(rawA) + classes + floorWords(classes) + TwoBitTable::kLineWords - 1) /
               TwoBitTable::kLineWords * TwoBitTable::kLineWords;
    }
    static uint64_t words(uint64_t rawA, uint64_t classes, uint64_t keptValues) {
        const uint64_t entries = classes * keptValues;
        return linesAt(rawA, classes) + TwoBitTable::bytesFor(entries) / 8 + BelowBase::bytesFor(entries) / 8;
    }
};

// One phase of a phased-table blob (pz/search/phased.hpp; a coset pattern's plain
// table is a one-phase blob): the sizes its sections follow from.
struct PhasedLayoutPhase {
    uint64_t moves = 0;                       // search moves of the phase
    std::vector<uint64_t> partSizes;          // values of each coordinate part
    std::vector<std::pair<int, int>> tables;  // 4-bit tables over (part, part); second -1 = one part
    uint64_t symmetries = 0;                  // 0: no symmetry-reduced table
    std::vector<int> reduced, rest;           // parts reduced to classes, the others
    uint64_t classes = 0;                     // classes of the reduced parts
};

// Words of the blob: magic, section count, a size per section, then per
// phase: a move table per part (u32 per value and move), the 4-bit tables,
// the information section (16 depth counts per table, the class count and
// 16 more), and with symmetries the class index (classOf u32 per raw value,
// representatives u32 and stabilisers u64 per class), a conjugation table
// per other part (u32 per value and symmetry) and the 4-bit symmetry table.
inline uint64_t phasedBlobWords(const std::vector<PhasedLayoutPhase>& phases) {
    uint64_t sections = 0, words = 0;
    auto add = [&](uint64_t bytes) {
        ++sections;
        words += (bytes + 7) / 8;
    };
    for (const auto& ph : phases) {
        for (uint64_t size : ph.partSizes) add(size * ph.moves * 4);
        for (const auto& [a, b] : ph.tables) add((ph.partSizes[a] * (b < 0 ? 1 : ph.partSizes[b]) + 1) / 2);
        add((ph.tables.size() * 16 + 17) * 8);
        if (ph.symmetries == 0) continue;
        uint64_t rawA = 1, bSize = 1;
        for (int j : ph.reduced) rawA *= ph.partSizes[j];
        for (int j : ph.rest) bSize *= ph.partSizes[j];
        add(rawA * 4);
        add(ph.classes * 4);
        add(ph.classes * 8);
        for (int j : ph.rest) add(ph.partSizes[j] * ph.symmetries * 4);
        add((ph.classes * bSize + 15) / 16 * 8);
    }
    return 2 + sections + words;
}

}  // namespace pz
