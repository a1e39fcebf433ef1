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
// the threads. A projected table's build (pz/tables/projected_coset.hpp) is
// mostly its depth-first step: its nodes are the keys of the breadth-first
// search's last layer D0 times the canonical sequences of at most R moves.
// The keys of layer d are estimated as the canonical sequences of length d
// over the symmetries, times the share of them that reach distinct full
// values (kProjectedKeyShare, measured on the cube); D0 and R then follow
// the builder's own limits and rule (pz/tables/projected_depth.hpp), R raised to
// a declared exact depth (note [declared exact depth]).
// The time is a constant, a term per entry and a term per node. These are
// estimates to within a factor of about 2: the actual time depends on the
// machine and on the coordinate's rank costs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/analysis/perm/canonical_automaton.hpp"
#include "compiler/analysis/perm/coset_coordinates.hpp"

namespace pz::analysis {

enum class TableKind {
    Pattern,         // a 4-bit table over a pattern's coordinate (breadth first, pz/tables/prune.hpp)
    LabelledPattern, // the same over identical pieces (labelled ranks cost more)
    Coset,           // a coset pattern's table, symmetry-reduced or not (pz/search/phased.hpp)
};
// (A projected coset pattern's 2-bit table: estimateCosetTable.)

struct TableEstimate {
    double meanEntry = 0;     // the counting mean over the coordinate's raw values
    double buildSeconds = 0;  // on the reference machine with `threads` threads
    // A projected coset table: the depth its entries are exact up to and
    // the depth-first step's nodes (0 when the breadth-first search is
    // expected to reach every value).
    int exactDepth = 0;
    double depthFirstNodes = 0;
};

// The share of a layer's canonical sequences (over the symmetries) that
// reach distinct full values: the cube's H11 coordinate, layer 8, 6,235,366
// keys of 1.37e9 sequences / 48.
inline constexpr double kProjectedKeyShare = 0.218;

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

// What a projected coset table's build does (note [table estimates]):
// `fullValues` the full coordinate's values, reduced by `symmetries`;
// exactDepth 0 = the breadth-first search reaches every value.
struct ProjectedBuild {
    int exactDepth = 0;
    double depthFirstNodes = 0;
};
ProjectedBuild estimateProjectedBuild(double fullValues, double symmetries, int moves,
                                      const std::vector<double>& sequences, int declaredExact);

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
    double projectedFixed;             // projected coset table: the breadth-first layers, classes, file
    double projectedPerEntry;          // projected: per entry
    double projectedPerNode;           // projected: per node of the depth-first step
};
const BuildCosts& referenceBuildCosts();

}  // namespace pz::analysis
