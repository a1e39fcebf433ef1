// Estimates of a pruning table before it is built: its mean entry and its
// build time, printed beside its size by `pzc check` (and --json) and
// `pzc inspect`, so that a table family can be chosen (`pzc solve --memory`)
// without building every member.
//
// Note [table estimates]
// ~~~~~~~~~~~~~~~~~~~~~~
// Mean: a coordinate value at distance d is reached by a shortest move
// sequence, whose canonical form (note [canonical sequences]) has the same
// length, so at most N(d) values lie at distance d, N(d) the canonical
// sequences of length d. Filling the V values of the coordinate (the raw
// values a lookup can read: a symmetry-reduced table's classes times their
// sizes) that fast gives the counting mean, sum of d * min(N(d), left) / V:
// a lower bound on the mean of the exact distances, and a good estimate when
// the distances are far below the entries' cap (15, or a projected table's
// exact depth + 1, unknown before the build). The built table's own mean is
// what the solver's --tables prints; on the cube, h48h3 counts 9.5 against
// 10.43 built, h48 (h0) 8.7.
//
// Build time: a cost per value or entry and per move, measured for each kind
// of table on the reference machine (2 cores; the builds are listed in
// table_estimates.cpp and docs/language.md, "Table estimates"), divided by
// the threads. A projected table's build is
// mostly its depth-first step, whose node budget is fixed
// (kMaxDepthFirstNodes in pz/projected_coset.hpp), so it costs a constant
// plus a term per entry. These are estimates to within a factor of about 2:
// the actual time depends on the machine and on the coordinate's rank costs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/analysis/canonical_automaton.hpp"
#include "compiler/analysis/coset_coordinates.hpp"

namespace pz::analysis {

enum class TableKind {
    Pattern,         // a 4-bit table over a pattern's coordinate (breadth first, pz/prune.hpp)
    LabelledPattern, // the same over identical pieces (labelled ranks cost more)
    Coset,           // a coset pattern's table, symmetry-reduced or not (pz/phased.hpp)
    ProjectedCoset,  // a projected coset pattern's 2-bit table (pz/projected_coset.hpp)
};

struct TableEstimate {
    double meanEntry = 0;     // the counting mean over the coordinate's raw values
    double buildSeconds = 0;  // on the reference machine with `threads` threads
};

// The sequence lengths the estimates count (values beyond sit at the last).
inline constexpr int kEstimateLengths = 40;

// Canonical sequences of each length 0..maxLength (as doubles: they pass
// 2^64 on big puzzles).
std::vector<double> canonicalSequenceCounts(const CanonicalAutomaton& automaton, int maxLength);

// The counting mean of note [table estimates] over `values` raw values,
// entries capped at `cap`.
double countingMean(double values, const std::vector<double>& sequences, int cap);

// values: the raw coordinate values a lookup reads; entries: the table's
// entries (values / symmetries for a reduced table); moves: the metric's.
TableEstimate estimateTable(TableKind kind, double values, double entries, int moves,
                            const std::vector<double>& sequences, int threads = 2);

// A coset pattern's table (projected or not) from its plan; `entries`: its
// class count times the rest (pzc check) or an approximation (pzc inspect).
TableEstimate estimateCosetTable(const PhasePlan& plan, double entries, int moves, const std::vector<double>& sequences);

// "estimates: mean entry >= 9.50 (counting bound), build about 79 s on 2
// threads": the line pzc check and pzc inspect print under a table.
std::string estimateText(const TableEstimate& e);

// The build-time model's constants (seconds per unit of work on one thread
// of the reference machine), exposed for the tests.
struct BuildCosts {
    double patternPerValueMove;        // Pattern: per value and move
    double labelledPerValueMove;       // LabelledPattern: per value and move
    double cosetPerEntryMove;          // Coset: per entry and move
    double projectedFixed;             // ProjectedCoset: the depth-first step
    double projectedPerEntry;          // ProjectedCoset: per entry
};
const BuildCosts& referenceBuildCosts();

}  // namespace pz::analysis
