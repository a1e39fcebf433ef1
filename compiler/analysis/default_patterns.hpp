// Default pruning patterns (issue 12 item 4): when a definition declares no
// pattern, `pzc solve` would search with no heuristic. Instead the solver
// model tracks, per orbit of 2..64 positions that some move moves, the pieces
// at solved positions 0..k-1 (positions, and orientations when the orbit is
// oriented) for the largest k whose pruning table fits the orbit's share of
// kDefaultPatternValues (split evenly among those orbits). An orbit with
// identical pieces (2+ labels, within kMaxLabelledPatternOrbit and
// kMaxLabelledPatternOrient) tracks whole label classes instead, in order of
// first appearance, as many as fit, never the last. `pzc check` and
// `pzc inspect` print the choice. docs/language.md, Patterns.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

// 2^22 values: 2 MiB of 4-bit entries in all (about a second of table build).
inline constexpr uint64_t kDefaultPatternValues = uint64_t{1} << 22;

// The default patterns of `puzzle` (empty when it declares any pattern, or
// no orbit qualifies). Named default_<orbit>.
std::vector<ir::Pattern> defaultPatterns(const ir::Puzzle& puzzle);

}  // namespace pz::analysis
