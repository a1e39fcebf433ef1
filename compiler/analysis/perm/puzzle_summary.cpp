#include "compiler/analysis/perm/puzzle_summary.hpp"

#include <algorithm>
#include <map>

#include "compiler/analysis/perm/coordinates.hpp"
#include "compiler/analysis/perm/coset_coordinates.hpp"

namespace pz::analysis {

int distinctLabels(const ir::Orbit& orbit) {
    std::vector<int> labels = orbit.solvedLabel;
    std::sort(labels.begin(), labels.end());
    return (int)(std::unique(labels.begin(), labels.end()) - labels.begin());
}

// The orientation values of a part: M/s per tracked piece (s the stored
// step, note [orientation residues]), the last implied when the sum is fixed.
static mpz_class orientationValues(const ir::Puzzle& puzzle, const ir::PatternPart& part) {
    if (!part.orientations) return 1;
    const auto& orbit = puzzle.orbits[part.orbit];
    const unsigned long k = part.pieces.empty() ? orbit.size : part.pieces.size();
    mpz_class o;
    mpz_ui_pow_ui(o.get_mpz_t(), (unsigned long)(orbit.orient / storedOrientationStep(puzzle, part)),
                  lastOrientationImplied(puzzle, part) ? k - 1 : k);
    return o;
}

mpz_class patternPartSize(const ir::Puzzle& puzzle, const ir::PatternPart& part) {
    const auto& orbit = puzzle.orbits[part.orbit];
    const unsigned long n = orbit.size;
    const unsigned long k = part.pieces.empty() ? n : part.pieces.size();
    mpz_class size = 1;
    if (part.positions) {
        mpz_class c;
        mpz_bin_uiui(c.get_mpz_t(), n, k);
        size = c;
        if (!part.unordered) {
            mpz_class f;
            mpz_fac_ui(f.get_mpz_t(), k);
            size *= f;
            // Identical pieces are tracked by label: arrangements of a multiset.
            if (distinctLabels(orbit) < orbit.size) {
                std::map<int, unsigned long> count;
                for (int piece = 0; piece < orbit.size; ++piece)
                    if (part.pieces.empty() || std::count(part.pieces.begin(), part.pieces.end(), piece))
                        ++count[orbit.solvedLabel[piece]];
                for (const auto& [label, c] : count) {
                    mpz_class cf;
                    mpz_fac_ui(cf.get_mpz_t(), c);
                    size /= cf;
                }
            }
        }
    }
    return size * orientationValues(puzzle, part);
}

mpz_class patternSize(const ir::Puzzle& puzzle, const ir::Pattern& pattern) {
    mpz_class size = 1;
    for (const auto& part : pattern.parts) size *= patternPartSize(puzzle, part);
    return size;
}

mpz_class patternStates(const ir::Puzzle& puzzle, const ir::Pattern& pattern) {
    // note [parts on one orbit]: each later positions part of an orbit
    // places its pieces among the positions the earlier ones left.
    std::map<int, unsigned long> left;  // orbit -> positions not yet taken
    mpz_class states = 1;
    for (const auto& part : pattern.parts) {
        const unsigned long n = puzzle.orbits[part.orbit].size;
        const unsigned long k = part.pieces.empty() ? n : part.pieces.size();
        auto [it, first] = left.emplace(part.orbit, n);
        if (!part.positions || first) {
            states *= patternPartSize(puzzle, part);
            if (part.positions) it->second -= std::min(k, n);
            continue;
        }
        mpz_class placed;
        mpz_bin_uiui(placed.get_mpz_t(), it->second, k);
        if (!part.unordered) {
            mpz_class f;
            mpz_fac_ui(f.get_mpz_t(), k);
            placed *= f;
        }
        states *= placed * orientationValues(puzzle, part);
        it->second -= std::min(k, it->second);
    }
    return states;
}

mpz_class patternTableBytes(const ir::Puzzle& puzzle, const ir::Pattern& pattern) {
    mpz_class words = (patternSize(puzzle, pattern) + 15) / 16;
    return words * 8;
}

std::optional<uint64_t> optimalSolverTableBytes(PuzzleAnalysis& groups, int solver,
                                                const std::vector<int>& metricMoves) {
    const ir::Puzzle& puzzle = groups.puzzle();
    uint64_t bytes = 0;
    for (int i : puzzle.solvers.at(solver).patterns) {
        const ir::Pattern& pattern = puzzle.patterns[i];
        if (pattern.cosetSubgroup < 0) {
            bytes += patternTableBytes(puzzle, pattern).get_ui();
            continue;
        }
        PhasePlan plan;
        DiagnosticEngine diags;  // pzc check reports a plan that cannot be built
        if (!buildCosetPatternPlan(groups, i, metricMoves, plan, diags)) return std::nullopt;
        const PhaseClassCount classes = plan.symmetries.empty() ? PhaseClassCount{} : countPhaseClasses(groups, plan);
        bytes += cosetPatternTableBytes(plan, classes);
    }
    return bytes;
}

std::vector<std::pair<std::string, std::string>> inducedMoves(const ir::Puzzle& puzzle,
                                                              const SymmetryGroup& group,
                                                              int declared) {
    std::vector<std::pair<std::string, std::string>> result;
    const int s = group.declared[declared];
    for (size_t m = 0; m < puzzle.moves.size(); ++m) {
        if (puzzle.moves[m].power != 1) continue;
        const int image = s < 0 ? -1 : group.moveMap[s][m];
        result.emplace_back(puzzle.moves[m].name, image < 0 ? std::string("?") : puzzle.moves[image].name);
    }
    return result;
}

std::vector<int> commutingFamilies(const ir::Puzzle& p, PuzzleAnalysis& a, int f) {
    std::vector<int> result;
    const auto& commutes = a.commutes();
    // Moves by family: O(moves of f * moves), not O(families * moves^2).
    std::vector<std::vector<int>> movesOf(p.families.size());
    for (size_t m = 0; m < p.moves.size(); ++m) movesOf[p.moves[m].family].push_back((int)m);
    for (size_t g = 0; g < p.families.size(); ++g) {
        if ((int)g == f) continue;
        bool all = true;
        for (int m1 : movesOf[f])
            for (int m2 : movesOf[g]) all = all && commutes[m1][m2];
        if (all) result.push_back((int)g);
    }
    return result;
}

}  // namespace pz::analysis
