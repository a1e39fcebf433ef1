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
// phase 1 of a plan into its subgroup with every move, printed the same way.
#include <cstdio>
#include <iostream>
#include <memory>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/analysis/coset_coordinates.hpp"
#include "compiler/analysis/schreier_sims.hpp"
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
        std::set<analysis::Perm> seen;
        std::vector<ir::Element> level{ir::identity(puzzle->orbits)};
        seen.insert(key(level[0]));
        std::printf("phase %zu:", k + 1);
        for (int depth = 0; !level.empty(); ++depth) {
            std::printf(" %d:%zu", depth, level.size());
            std::vector<ir::Element> next;
            for (const auto& e : level)
                for (int i : ph.moves) {
                    ir::Element n = ir::compose(e, puzzle->moves[metric[i]].effect, puzzle->orbits);
                    if (seen.insert(key(n)).second) next.push_back(std::move(n));
                }
            level = std::move(next);
        }
        std::printf("\n");
    }
    return 0;
}
