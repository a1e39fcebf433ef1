// pz/tables/projected_depth.hpp — how far a projected coset table's build searches
// (pz/tables/projected_coset.hpp): its limits and the rule that picks the
// depth-first step's length. A header of its own, without the tables, so
// that `pzc check`'s estimate (compiler/analysis/perm/table_estimates.cpp)
// applies the builder's rule rather than a copy of it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pz {

// Build limits (docs/language.md, Coset patterns).
inline constexpr uint64_t kMaxLayerCandidates = uint64_t{1} << 25;
inline constexpr uint64_t kMaxDepthFirstNodes = uint64_t{1} << 31;
// Entries are built in 4 bits, 15 = not reached, so the exact depth
// (farther entries read it + 1) is at most 14.
inline constexpr unsigned kMaxExactDepth = 14;

struct DepthFirstStep {
    unsigned moves = 0;  // R: moves past the last breadth-first layer
    double nodes = 0;    // layerKeys x the canonical sequences of 1..R moves
};

// The depth-first step from the last breadth-first layer d0 (layerKeys
// keys): R the largest, at least 1, with the nodes within `budget`, then
// raised to reach declaredExact (note [declared exact depth]; 0 = none),
// d0 + R at most kMaxExactDepth. sequences[r]: the canonical sequences of
// exactly r moves (sequences[0] = 1); lengths past its end count as its last.
inline DepthFirstStep depthFirstStep(double layerKeys, const std::vector<double>& sequences, unsigned d0, double budget,
                                     unsigned declaredExact) {
    auto at = [&](size_t r) { return r < sequences.size() ? sequences[r] : sequences.back(); };
    const unsigned most = kMaxExactDepth - std::min(d0, kMaxExactDepth);
    DepthFirstStep s;
    while (s.moves < most) {
        const double more = s.nodes + layerKeys * at(s.moves + 1);
        if (s.moves >= 1 && more > budget) break;
        s.nodes = more;
        ++s.moves;
    }
    while (d0 + s.moves < std::min(declaredExact, kMaxExactDepth)) {
        s.nodes += layerKeys * at(s.moves + 1);
        ++s.moves;
    }
    return s;
}

}  // namespace pz
