// An estimate of an optimal (IDA*) search's work before it runs, so that
// `pzc solve` can say at once that a random state is out of reach instead of
// searching silently for longer than anyone waits (and name what would
// work: a phased or sift solver, bigger tables).
//
// Note [search estimates]
// ~~~~~~~~~~~~~~~~~~~~~~~
// IDA* with bound t expands a node at depth i when its heuristic is at most
// t - i. With N(i) the canonical sequences of length i (the brute-force
// tree, note [canonical sequences]) and P(h) the share of states whose
// heuristic is at most h, the nodes of iteration t are about
//     sum over i <= t of N(i) * P(t - i)
// (Korf, Reid & Edelkamp 2001). The heuristic is the maximum over the
// solver's tables, taken as independent: P(h) = prod over tables of P_k(h),
// each P_k the counting distribution of note [table estimates] (the table's
// values placed at the smallest depths the canonical sequences allow; an
// entry never passes the table's cap). A random state's distance is taken
// as the counting bound on the median: the smallest d at which the
// sequences of length at most d reach half the states. The work of a search
// to bound d is the sum of its iterations' nodes, its time that work over
// a nodes-per-second rate measured on the reference machine.
//
// Two errors pull against each other: the counting distribution puts
// entries lower than the built tables do (more nodes), the counting depth is
// below the true one (fewer). On the reference machine the estimate came
// within a factor of about 30 of the measured work on the shipped puzzles
// (docs/language.md, "Search estimates"), so pzc calls a search hopeless
// only when its estimate passes kHopelessSeconds, far beyond that factor.
#pragma once

#include <string>
#include <vector>

namespace pz::analysis {

struct SolverModel;

// A table as the estimate sees it: its raw values (what a lookup can read)
// and the largest entry it stores.
struct CountingTable {
    double values = 1;
    int cap = 15;
};

struct SearchEstimate {
    int randomDepth = 0;        // counting bound on a random state's median distance
    std::vector<double> nodes;  // nodes[t]: every iteration's nodes up to bound t (cumulative)
    // The work of a search to bound `depth` (past the list: its last entry
    // grown at the last step's rate).
    double nodesUpTo(int depth) const;
};

// Nodes per second per thread of the generated IDA* solvers on the
// reference machine (2 cores of an AMD EPYC, Zen 4): 30-45 M on the cube
// and slide4, less on byte lanes; the estimate takes the fast end.
inline constexpr double kNodesPerSecondPerThread = 4.5e7;

// A search whose estimate passes this (12 days) is hopeless (note [search
// estimates]: its error is well within the margin).
inline constexpr double kHopelessSeconds = 1e6;

// The longest bound the estimate lists.
inline constexpr int kMaxEstimatedDepth = 255;

// `sequences`: canonical sequences of each length from 0 (as many as the
// caller has: extended at the last growth rate); `states`: the positions
// of the puzzle (its group order, or distinct states).
SearchEstimate estimateSearch(const std::vector<double>& sequences, const std::vector<CountingTable>& tables,
                              double states);

// The estimate of an optimal solver's search: its tables (every pattern's
// coordinate and coset table, once: conjugate and inverse lookups are not
// counted, they are far from independent) over its canonical sequences.
SearchEstimate estimateSolverSearch(const SolverModel& model, double states);

// The share of `values` values at distance at most h, for h = 0..cap, when
// they are placed as note [table estimates] places them.
std::vector<double> countingDistribution(double values, const std::vector<double>& sequences, int cap);

// "1.3e+12 nodes, about 8 hours on 2 threads"
std::string workText(double nodes, int threads);
std::string durationText(double seconds);

}  // namespace pz::analysis
