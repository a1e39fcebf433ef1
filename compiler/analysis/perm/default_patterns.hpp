// Default pruning patterns (issue 12 item 4): when a definition declares no
// pattern, `pzc solve` would search with no heuristic. Instead the solver
// model tracks, per orbit of 2..64 positions that some move moves, the pieces
// at solved positions 0..k-1 (positions, and orientations when the orbit is
// oriented) for the largest k whose pruning table fits the orbit's share of
// a budget of values, kDefaultPatternValues unless `pzc solve --memory SIZE`
// sets one (defaultPatternValuesFor; split evenly among those orbits). An orbit with
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
// The most a memory budget buys: 2^31 values, 1 GiB of tables (a build of
// minutes on 2 cores: note [table estimates]).
inline constexpr uint64_t kMaxDefaultPatternValues = uint64_t{1} << 31;

// The values of default patterns for a memory budget of `bytes` (pzc solve
// --memory): half the budget in 4-bit entries (the search needs room beside
// its tables), at least kDefaultPatternValues, at most kMaxDefaultPatternValues.
uint64_t defaultPatternValuesFor(uint64_t bytes);

// The default patterns of `puzzle` within `values` values in all (empty when
// it declares any pattern, or no orbit qualifies). Named default_<orbit>.
std::vector<ir::Pattern> defaultPatterns(const ir::Puzzle& puzzle, uint64_t values = kDefaultPatternValues);

}  // namespace pz::analysis
