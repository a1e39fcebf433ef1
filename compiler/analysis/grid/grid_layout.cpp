// How a level is laid out: boards, floor cells, and the closed-set key
// (note [grid key parts]).
#include "compiler/analysis/grid/grid_layout.hpp"

#include <algorithm>

namespace pz::analysis {

int indexBits(int count) {
    int bits = 1;
    while ((1 << bits) < count) ++bits;
    return bits;
}

namespace {

uint64_t binomialSaturating(int n, int k) {
    if (k < 0 || k > n) return 0;
    unsigned __int128 r = 1;
    for (int i = 1; i <= k; ++i) {
        r = r * (unsigned)(n - k + i) / (unsigned)i;
        if (r > ~uint64_t(0)) return ~uint64_t(0);
    }
    return (uint64_t)r;
}

}  // namespace

std::string GridLayout::describe() const {
    std::string key;
    switch (this->key) {
        case KeyKind::Packed: {
            static const char* partNames[] = {"floor bits", "floor indices", "colex rank"};
            key = "u64 of";
            for (size_t i = 0; i < parts.size(); ++i)
                key += std::string(i ? " +" : "") + " " + partNames[(int)parts[i].kind] + " (" +
                       std::to_string(parts[i].bits) + " bits)";
            break;
        }
        case KeyKind::Words: key = "bitboards"; break;
    }
    return std::to_string(cells) + " cells, " + std::to_string(floorCells) + " floor, " +
           std::to_string(colours.size()) + " colour board(s) of " + std::to_string(words) + " word(s), key: " + key;
}

namespace {

// Bits that hold the values 0 .. count - 1.
int bitsFor(uint64_t count) {
    int bits = 0;
    while (bits < 64 && (uint64_t(1) << bits) < count) ++bits;
    return bits;
}

// note [grid key parts]
// Each colour's actor set becomes one bit field of a u64 key, in the
// cheapest form that lets all fields fit: its floor bits (pext/pdep only),
// its actors' floor indices (a few bits per actor, unpacked without search),
// or its colex rank (fewest bits, but unranking searches a binomial table per
// actor). Costs are relative instruction counts per pack + unpack.
bool choosePackedParts(const ir::Level& level, GridLayout& layout) {
    using Kind = GridLayout::Part::Kind;
    const size_t n = layout.colours.size();
    std::vector<std::vector<GridLayout::Part>> options(n);
    std::vector<std::vector<int>> costs(n);
    for (size_t i = 0; i < n; ++i) {
        int k = 0;
        for (const auto& a : level.actors) k += a.colour == layout.colours[i];
        const int f = layout.floorCells;
        options[i].push_back({Kind::FloorBits, k, f, 0});
        costs[i].push_back(2);
        options[i].push_back({Kind::IndexList, k, k * indexBits(f), 0});
        costs[i].push_back(2 + 2 * k);
        const uint64_t ranks = binomialSaturating(f, k);
        if (ranks != ~uint64_t(0)) {
            options[i].push_back({Kind::Colex, k, bitsFor(ranks), 0});
            costs[i].push_back(2 + 12 * k);
        }
    }
    // Exhaustive over the (few) colours: least cost, then fewest bits.
    std::vector<size_t> pick(n, 0), best;
    int bestCost = 1 << 30, bestBits = 65;
    for (;;) {
        int cost = 0, bits = 0;
        for (size_t i = 0; i < n; ++i) cost += costs[i][pick[i]], bits += options[i][pick[i]].bits;
        if (bits <= 64 && (cost < bestCost || (cost == bestCost && bits < bestBits)))
            best = pick, bestCost = cost, bestBits = bits;
        size_t i = 0;
        while (i < n && ++pick[i] == options[i].size()) pick[i++] = 0;
        if (i == n) break;
    }
    if (best.empty()) return false;
    int offset = 0;
    for (size_t i = 0; i < n; ++i) {
        GridLayout::Part part = options[i][best[i]];
        part.offset = offset;
        offset += part.bits;
        layout.parts.push_back(part);
    }
    return true;
}

}  // namespace

GridLayout gridLayout(const ir::GridRules& rules, const ir::Level& level) {
    GridLayout layout;
    layout.cells = level.width * level.height;
    layout.words = std::max(1, (layout.cells + 63) / 64);
    for (bool f : level.floor) layout.floorCells += f;
    for (size_t c = 0; c < rules.colours.size(); ++c)
        for (const auto& a : level.actors)
            if (a.colour == (int)c) {
                layout.colours.push_back((int)c);
                break;
            }
    // A level without actors still needs one board to be a state.
    if (layout.colours.empty() && !rules.colours.empty()) layout.colours.push_back(0);
    layout.key = choosePackedParts(level, layout) ? GridLayout::KeyKind::Packed : GridLayout::KeyKind::Words;
    return layout;
}

}  // namespace pz::analysis
