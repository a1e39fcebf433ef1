// phase_bfs FILE SOLVER — an oracle for phased solvers' pruning tables.
//
// For each phase of the declared phased solver SOLVER, a breadth-first search
// from the solved state over the phase's moves in which two elements are the
// same node when they lie in the same coset H s of the phase's target H (the
// canonical coset representative of H's stabiliser chain; the element itself
// for the last phase). Prints per phase "phase K: depth:count ...": the
// distance distribution of the phase's coset space, computed without the
// coordinates, move tables or pruning tables it checks. Small puzzles only.
// With PHASES, only the first PHASES phases (a last phase too big to
// enumerate is left out).
//
// SOLVER may also name a coset pattern (note [coset patterns]): its table is
// phase 1 of a plan into its subgroup with every move, printed the same way;
// a projected one (note [projected coset patterns]) prints the distribution
// of its table's entries: for each class representative of the reduced parts
// (the smallest raw value of its orbit under the plan's symmetries) and each
// value of the kept parts, the least distance of the cosets that have them.
#include <cstdio>
#include <iostream>
#include <memory>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/analysis/perm/coset_coordinates.hpp"
#include "compiler/analysis/perm/schreier_sims.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

using namespace pz;

int main(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        std::fprintf(stderr, "usage: phase_bfs FILE SOLVER [PHASES]\n");
        return 2;
    }
    const size_t maxPhases = argc == 4 ? std::stoul(argv[3]) : ~size_t{0};
    DiagnosticEngine diags;
    auto puzzle = ir::loadPuzzle(argv[1], diags);
    if (!puzzle) return 1;
    analysis::PuzzleAnalysis a(*puzzle);
    int solver = -1, pattern = -1;
    for (size_t i = 0; i < puzzle->solvers.size(); ++i)
        if (puzzle->solvers[i].name == argv[2]) solver = (int)i;
    for (size_t i = 0; i < puzzle->patterns.size(); ++i)
        if (puzzle->patterns[i].name == argv[2] && puzzle->patterns[i].cosetSubgroup >= 0) pattern = (int)i;
    if (solver < 0 && pattern < 0) return 1;
    std::vector<int> metric;
    for (size_t m = 0; m < puzzle->moves.size(); ++m)
        if (puzzle->moves[m].inMetric) metric.push_back((int)m);
    analysis::SolverPlan plan;
    if (solver >= 0 ? !analysis::buildSolverPlan(a, solver, metric, plan, diags)
                    : !analysis::buildCosetPatternPlan(a, pattern, metric, plan.phases.emplace_back(), diags)) {
        diags.print(std::cerr);
        return 1;
    }
    analysis::PointAction points(puzzle->orbits);
    for (size_t k = 0; k < plan.phases.size() && k < maxPhases; ++k) {
        const auto& ph = plan.phases[k];
        std::unique_ptr<analysis::StabilizerChain> h;
        if (ph.subgroup >= 0) {
            h = std::make_unique<analysis::StabilizerChain>(points.pointCount());
            for (const auto& g : a.subgroupGenerators(ph.subgroup)) h->addGenerator(points.toPoints(g));
        }
        auto key = [&](const ir::Element& e) {
            return h ? h->canonicalCosetRepresentative(points.toPoints(e)) : points.toPoints(e);
        };
        // A projected coset pattern (note [projected coset patterns]): the
        // distance of each (reduced parts, kept parts) value is the least
        // over the cosets that have it.
        auto rankOf = [&](const std::vector<analysis::PhasePart>& parts, const std::vector<int>& which,
                          const ir::Element& e) {
            uint64_t x = 0;
            for (int j : which) x = x * parts[j].size + analysis::referencePartRank(parts[j], e);
            return x;
        };
        std::vector<int> allKept;
        for (size_t j = 0; j < ph.kept.size(); ++j) allKept.push_back((int)j);
        std::map<std::pair<uint64_t, uint64_t>, int> projected;
        auto project = [&](const ir::Element& e, int depth) {
            // the first visit is the least depth
            projected.emplace(std::make_pair(rankOf(ph.parts, ph.reduced, e), rankOf(ph.kept, allKept, e)), depth);
        };
        std::set<analysis::Perm> seen;
        std::vector<ir::Element> level{ir::identity(puzzle->orbits)};
        seen.insert(key(level[0]));
        if (ph.kept.empty()) std::printf("phase %zu:", k + 1);
        for (int depth = 0; !level.empty(); ++depth) {
            if (ph.kept.empty()) std::printf(" %d:%zu", depth, level.size());
            else
                for (const auto& e : level) project(e, depth);
            std::vector<ir::Element> next;
            for (const auto& e : level)
                for (int i : ph.moves) {
                    ir::Element n = ir::compose(e, puzzle->moves[metric[i]].effect, puzzle->orbits);
                    if (seen.insert(key(n)).second) next.push_back(std::move(n));
                }
            level = std::move(next);
        }
        if (!ph.kept.empty()) {
            // The table's entries: the representatives of the reduced parts'
            // classes under the plan's symmetries (the smallest raw value of
            // each orbit, conjugating elements here) by every kept value.
            const auto& group = a.symmetries();
            uint64_t rawA = 1, keptSize = 1;
            for (int j : ph.reduced) rawA *= ph.parts[j].size;
            for (const auto& part : ph.kept) keptSize *= part.size;
            std::vector<bool> covered(rawA, false);
            std::map<int, uint64_t> counts;
            for (uint64_t v = 0; v < rawA; ++v) {
                if (covered[v]) continue;
                std::vector<uint64_t> values(ph.reduced.size());
                uint64_t r = v;
                for (size_t i = ph.reduced.size(); i-- > 0;) {
                    values[i] = r % ph.parts[ph.reduced[i]].size;
                    r /= ph.parts[ph.reduced[i]].size;
                }
                const ir::Element x = analysis::referencePartsUnrank(ph.parts, ph.reduced, values, puzzle->orbits);
                for (int sym : ph.symmetries) {
                    const ir::Element& S = group.elements[sym];
                    const ir::Element y = ir::compose(ir::compose(ir::inverse(S, puzzle->orbits), x, puzzle->orbits), S,
                                                      puzzle->orbits);
                    covered[rankOf(ph.parts, ph.reduced, y)] = true;
                }
                for (uint64_t b = 0; b < keptSize; ++b) {
                    auto it = projected.find({v, b});
                    ++counts[it == projected.end() ? 15 : it->second];
                }
            }
            std::printf("phase %zu:", k + 1);
            for (const auto& [d, c] : counts) std::printf(" %d:%llu", d, (unsigned long long)c);
        }
        std::printf("\n");
    }
    return 0;
}
