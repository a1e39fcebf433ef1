// Facts about a permutation puzzle that `pzc check` reports beside
// PuzzleAnalysis: the sizes of declared patterns and their tables, where a
// declared symmetry sends each generator, which families commute.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gmpxx.h>

#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

// Distinct solved labels of an orbit (its size unless pieces are identical).
int distinctLabels(const ir::Orbit& orbit);

// Number of values a pattern part can take: arrangements of its tracked
// pieces (ordered or not) times their orientations.
mpz_class patternPartSize(const ir::Puzzle& puzzle, const ir::PatternPart& part);
mpz_class patternSize(const ir::Puzzle& puzzle, const ir::Pattern& pattern);
// How many of its values are states: less than patternSize when parts track
// positions of disjoint pieces of one orbit (note [parts on one orbit]).
mpz_class patternStates(const ir::Puzzle& puzzle, const ir::Pattern& pattern);
// Bytes of the pattern's pruning table (4 bits per value, whole 64-bit words).
mpz_class patternTableBytes(const ir::Puzzle& puzzle, const ir::Pattern& pattern);
// Bytes of the tables of optimal solver `solver`, as `pzc check` reports
// them: its plain patterns' 4-bit tables and its coset patterns' tables
// (classes counted: note [class counts]). Nullopt when a coset pattern's
// plan cannot be built.
std::optional<uint64_t> optimalSolverTableBytes(PuzzleAnalysis& groups, int solver,
                                                const std::vector<int>& metricMoves);

// Where the declared symmetry `declared` sends each family's generator, as
// (move, image) names, e.g. ("R", "F"); "?" when the image is no move.
std::vector<std::pair<std::string, std::string>> inducedMoves(const ir::Puzzle& puzzle, const SymmetryGroup& group,
                                                              int declared);

// Families other than f whose moves all commute with f's moves.
std::vector<int> commutingFamilies(const ir::Puzzle& p, PuzzleAnalysis& a, int f);

}  // namespace pz::analysis
