// Table estimates (note [table estimates] in table_estimates.hpp).
#include "compiler/analysis/table_estimates.hpp"

#include <algorithm>
#include <cstdio>

namespace pz::analysis {

std::vector<double> canonicalSequenceCounts(const CanonicalAutomaton& automaton, int maxLength) {
    std::vector<double> counts;
    std::vector<double> at(automaton.next.size(), 0.0);
    if (at.empty()) return {1.0};
    at[static_cast<size_t>(automaton.start)] = 1;
    for (int len = 0; len <= maxLength; ++len) {
        double total = 0;
        for (double c : at) total += c;
        counts.push_back(total);
        std::vector<double> next(at.size(), 0.0);
        for (size_t s = 0; s < at.size(); ++s)
            for (int t : automaton.next[s])
                if (t >= 0) next[static_cast<size_t>(t)] += at[s];
        at = std::move(next);
    }
    return counts;
}

double countingMean(double values, const std::vector<double>& sequences, int cap) {
    if (values <= 0) return 0;
    double left = values, sum = 0;
    for (size_t d = 0; d < sequences.size() && left > 0; ++d) {
        const double here = std::min(left, sequences[d]);
        sum += here * static_cast<double>(std::min<size_t>(d, static_cast<size_t>(cap)));
        left -= here;
    }
    // Values no listed length reaches sit at the last length or beyond: the cap bounds them.
    if (left > 0) sum += left * static_cast<double>(std::min<size_t>(sequences.size(), static_cast<size_t>(cap)));
    return sum / values;
}

// Measured on the reference machine (2 cores, `pzc solve puzzles/cube3.pz
// --solver S --threads 2` into an empty cache; thread-seconds per unit):
//   Pattern: corners_all, 88,179,840 values x 18 moves, built in 8.6 s;
//   LabelledPattern: cube4.pz with its U and D centres ordered
//   (`centres {U1 .. D4}: positions`), 51,482,970 values x 27 moves, 37 s;
//   Coset: h48 (h0), 117,567,450 entries x 18 moves, 13.4 s;
//   ProjectedCoset: h48h3, 940,539,600 entries, 89.9 s, and h48h6,
//   7,524,316,800 entries, 141.8 s (h48h2, 470,269,800 entries, 84.5 s:
//   the depth-first step from layer 8 dominates the small ones).
const BuildCosts& referenceBuildCosts() {
    static const BuildCosts costs{
        /*patternPerValueMove=*/10.8e-9,
        /*labelledPerValueMove=*/53.2e-9,
        /*cosetPerEntryMove=*/12.7e-9,
        /*projectedFixed=*/82.5,
        /*projectedPerEntry=*/7.9e-9,
    };
    return costs;
}

TableEstimate estimateTable(TableKind kind, double values, double entries, int moves,
                            const std::vector<double>& sequences, int threads) {
    TableEstimate e;
    e.meanEntry = countingMean(values, sequences, 15);
    const BuildCosts& c = referenceBuildCosts();
    const double t = std::max(1, threads);
    switch (kind) {
        case TableKind::Pattern: e.buildSeconds = values * moves * c.patternPerValueMove / t; break;
        case TableKind::LabelledPattern: e.buildSeconds = values * moves * c.labelledPerValueMove / t; break;
        case TableKind::Coset: e.buildSeconds = entries * moves * c.cosetPerEntryMove / t; break;
        case TableKind::ProjectedCoset: e.buildSeconds = (c.projectedFixed + entries * c.projectedPerEntry) / t; break;
    }
    return e;
}

TableEstimate estimateCosetTable(const PhasePlan& plan, double entries, int moves, const std::vector<double>& sequences) {
    // A projected table is read at its reduced parts' raw value and its kept parts.
    double values = 1;
    for (const auto& part : plan.parts) values *= static_cast<double>(part.size);
    if (!plan.kept.empty()) values = static_cast<double>(plan.reducedSize) * static_cast<double>(plan.restSize);
    return estimateTable(plan.kept.empty() ? TableKind::Coset : TableKind::ProjectedCoset, values, entries, moves,
                         sequences);
}

std::string estimateText(const TableEstimate& e) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "estimates: mean entry >= %.2f (counting bound), build about %.0f s on 2 threads",
                  e.meanEntry, e.buildSeconds);
    return buf;
}

}  // namespace pz::analysis
