// note [search estimates] (search_estimate.hpp).
#include "compiler/analysis/perm/search_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "compiler/analysis/perm/solver_model.hpp"
#include "compiler/analysis/perm/table_estimates.hpp"

namespace pz::analysis {

namespace {

// Sequences of length d: the list, else its last entry grown at the last
// step's rate (the canonical automaton's growth settles within a few moves).
double sequencesAt(const std::vector<double>& sequences, size_t d) {
    if (d < sequences.size()) return sequences[d];
    if (sequences.empty()) return 1;
    const double last = sequences.back();
    const double rate = sequences.size() > 1 && sequences[sequences.size() - 2] > 0
                            ? last / sequences[sequences.size() - 2]
                            : 1.0;
    return last * std::pow(rate, static_cast<double>(d + 1 - sequences.size()));
}

}  // namespace

std::vector<double> countingDistribution(double values, const std::vector<double>& sequences, int cap) {
    std::vector<double> atMost(static_cast<size_t>(std::max(cap, 0)) + 1, 1.0);
    if (values <= 0) return atMost;
    double placed = 0;
    for (int h = 0; h < cap; ++h) {
        placed = std::min(values, placed + sequencesAt(sequences, static_cast<size_t>(h)));
        atMost[static_cast<size_t>(h)] = placed / values;
    }
    return atMost;  // every entry is at most the cap
}

double SearchEstimate::nodesUpTo(int depth) const {
    if (nodes.empty() || depth < 0) return 0;
    if (static_cast<size_t>(depth) < nodes.size()) return nodes[static_cast<size_t>(depth)];
    return sequencesAt(nodes, static_cast<size_t>(depth));
}

SearchEstimate estimateSearch(const std::vector<double>& sequences, const std::vector<CountingTable>& tables,
                              double states) {
    SearchEstimate e;
    // A random state's distance: the counting bound on the median.
    double reached = 0;
    int d = 0;
    for (; d < kMaxEstimatedDepth; ++d) {
        reached += sequencesAt(sequences, static_cast<size_t>(d));
        if (reached >= states / 2) break;
    }
    e.randomDepth = d;
    // P(h): the share of states whose heuristic (the maximum over the
    // tables, taken as independent) is at most h.
    std::vector<std::vector<double>> atMost;
    int longest = 0;
    for (const auto& t : tables) {
        atMost.push_back(countingDistribution(t.values, sequences, t.cap));
        longest = std::max(longest, t.cap);
    }
    auto share = [&](int h) {
        double p = 1;
        for (const auto& a : atMost) p *= static_cast<size_t>(h) < a.size() ? a[static_cast<size_t>(h)] : 1.0;
        return p;
    };
    std::vector<double> p(static_cast<size_t>(longest) + 1);
    for (int h = 0; h <= longest; ++h) p[static_cast<size_t>(h)] = share(h);
    // Listed until the random depth plus a margin (a --max-length or a
    // scramble may ask less; past the list the growth carries on).
    const int last = std::min(kMaxEstimatedDepth, e.randomDepth + 4);
    double total = 0;
    for (int t = 0; t <= last; ++t) {
        double iteration = 0;
        for (int i = 0; i <= t; ++i) {
            const int h = t - i;
            iteration += sequencesAt(sequences, static_cast<size_t>(i)) * (h <= longest ? p[static_cast<size_t>(h)] : 1.0);
        }
        total += iteration;
        if (!std::isfinite(total)) total = std::numeric_limits<double>::max();
        e.nodes.push_back(total);
    }
    return e;
}

SearchEstimate estimateSolverSearch(const SolverModel& model, double states) {
    // Lengths enough for the counting depth of most puzzles; past them the
    // growth rate carries on (sequencesAt).
    const auto sequences = canonicalSequenceCounts(model.canon, 64);
    std::vector<CountingTable> tables;
    for (const auto& c : model.coordinates) tables.push_back({static_cast<double>(c.size), 15});
    const int moves = static_cast<int>(model.canon.searchMoves.size());
    for (const auto& plan : model.cosetPatterns) {
        // As note [table estimates] reads a coset table: over its parts' raw
        // values; a projected one at its reduced and kept parts, exact to
        // its build's depth.
        double values = 1;
        for (const auto& part : plan.parts) values *= static_cast<double>(part.size);
        if (plan.kept.empty()) {
            tables.push_back({values, 15});
            continue;
        }
        const double read = static_cast<double>(plan.reducedSize) * static_cast<double>(plan.restSize);
        const int exact = estimateCosetTable(plan, read, moves, sequences).exactDepth;
        tables.push_back({read, exact > 0 ? exact + 1 : 15});
    }
    return estimateSearch(sequences, tables, states);
}

std::string durationText(double seconds) {
    char buf[64];
    struct Unit {
        const char* name;
        double seconds;
    };
    static const Unit units[] = {{"years", 365.25 * 86400}, {"days", 86400}, {"hours", 3600}, {"minutes", 60}};
    for (const auto& u : units)
        if (seconds >= 2 * u.seconds) {
            const double n = seconds / u.seconds;
            if (n >= 1e4)
                std::snprintf(buf, sizeof buf, "%.1e %s", n, u.name);
            else
                std::snprintf(buf, sizeof buf, "%.0f %s", n, u.name);
            return buf;
        }
    std::snprintf(buf, sizeof buf, seconds >= 10 ? "%.0f s" : "%.2g s", seconds);
    return buf;
}

std::string workText(double nodes, int threads) {
    char buf[128];
    const double seconds = nodes / (kNodesPerSecondPerThread * std::max(1, threads));
    std::snprintf(buf, sizeof buf, "%.2g nodes, about %s on %d thread%s", nodes, durationText(seconds).c_str(), threads,
                  threads == 1 ? "" : "s");
    return buf;
}

}  // namespace pz::analysis
