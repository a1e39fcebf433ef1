// Table estimates (note [table estimates] in table_estimates.hpp).
#include "compiler/analysis/perm/table_estimates.hpp"

#include <algorithm>
#include <cstdio>

#include "compiler/ir/puzzle.hpp"
#include "pz/tables/projected_depth.hpp"

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
//   projected coset tables (thread-seconds of the whole build): h48h3,
//   940,539,600 entries, 1.63e9 depth-first nodes, 90 s; h48h6,
//   7,524,316,800 entries, the same nodes, 142 s; h48h6 exact up to 11,
//   2.17e10 nodes, 1081 s (1455 s before the builder's read prefetches and
//   its key set probed after the first move only). The cost per node fits
//   the deep build; the small ones come out at 93 and 145 s.
const BuildCosts& referenceBuildCosts() {
    static const BuildCosts costs{
        /*patternPerValueMove=*/10.8e-9,
        /*labelledPerValueMove=*/53.2e-9,
        /*cosetPerEntryMove=*/12.7e-9,
        /*projectedFixed=*/10.0,
        /*projectedPerEntry=*/7.9e-9,
        /*projectedPerNode=*/47e-9,
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
    }
    return e;
}

static_assert(ir::kMaxProjectedExactDepth == static_cast<int>(pz::kMaxExactDepth),
              "the language's exact-depth limit is the builder's");

ProjectedBuild estimateProjectedBuild(double fullValues, double symmetries, int moves,
                                      const std::vector<double>& sequences, int declaredExact) {
    ProjectedBuild b;
    const double keysInAll = fullValues / std::max(1.0, symmetries);
    auto sequencesAt = [&](size_t d) { return d < sequences.size() ? sequences[d] : sequences.back(); };
    // Breadth first while a layer times the moves stays within the limit.
    double reached = 0, layer = 0;
    unsigned d = 0;
    for (;; ++d) {
        layer = d == 0 ? 1 : std::min(keysInAll - reached, std::max(1.0, sequencesAt(d) * kProjectedKeyShare / std::max(1.0, symmetries)));
        if (layer <= 0) return b;  // every key reached: exact everywhere, no depth-first step
        reached += layer;
        if (layer * moves > double(pz::kMaxLayerCandidates) || d >= pz::kMaxExactDepth) break;
    }
    const pz::DepthFirstStep step = pz::depthFirstStep(layer, sequences, d, double(pz::kMaxDepthFirstNodes),
                                                       static_cast<unsigned>(std::max(0, declaredExact)));
    b.exactDepth = static_cast<int>(d + step.moves);
    b.depthFirstNodes = step.nodes;
    return b;
}

TableEstimate estimateCosetTable(const PhasePlan& plan, double entries, int moves, const std::vector<double>& sequences) {
    double values = 1;
    for (const auto& part : plan.parts) values *= static_cast<double>(part.size);
    if (plan.kept.empty()) return estimateTable(TableKind::Coset, values, entries, moves, sequences);
    // A projected table is read at its reduced parts' raw value and its kept
    // parts; its entries are exact up to the build's depth and read one more
    // beyond (the counting mean's cap).
    const ProjectedBuild b = estimateProjectedBuild(values, static_cast<double>(std::max<size_t>(1, plan.symmetries.size())),
                                                    moves, sequences, plan.exactDepth);
    const double read = static_cast<double>(plan.reducedSize) * static_cast<double>(plan.restSize);
    TableEstimate e;
    e.meanEntry = countingMean(read, sequences, b.exactDepth > 0 ? b.exactDepth + 1 : 15);
    e.exactDepth = b.exactDepth;
    e.depthFirstNodes = b.depthFirstNodes;
    const BuildCosts& c = referenceBuildCosts();
    e.buildSeconds = (c.projectedFixed + entries * c.projectedPerEntry + b.depthFirstNodes * c.projectedPerNode) / 2;
    return e;
}

std::string estimateText(const TableEstimate& e) {
    char buf[240];
    std::string exact;
    if (e.exactDepth > 0) {
        std::snprintf(buf, sizeof buf, ", exact up to %d (%.2g depth-first nodes)", e.exactDepth, e.depthFirstNodes);
        exact = buf;
    }
    std::snprintf(buf, sizeof buf, "estimates: mean entry >= %.2f (counting bound)%s, build about %.0f s on 2 threads",
                  e.meanEntry, exact.c_str(), e.buildSeconds);
    return buf;
}

}  // namespace pz::analysis
