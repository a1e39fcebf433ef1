// The plan of a permutation puzzle's solver (buildSolverModel). Its
// emitters are in compiler/codegen/perm/ (one file per section of the traits
// header); its `pzc inspect` report is codegen/perm/describe.cpp.
#include "compiler/analysis/perm/solver_model.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/perm/default_patterns.hpp"
#include "compiler/analysis/content_hash.hpp"
#include "compiler/ir/element.hpp"

namespace pz::analysis {

namespace {

// note [labelled lanes] (state_layout.hpp): a puzzle with identical pieces
// keeps labels in the state, so no lookup may treat a state as a
// permutation: no inverse lookups (dist(s^-1) is not defined), no symmetry
// conjugates, no shuffle of pieces for random states.
void limitForIdenticalPieces(SolverModel& m) {
    bool labelled = false;
    for (const auto& l : m.layout.orbits) labelled = labelled || l.labelled;
    if (!labelled) return;
    m.inverseLookups = false;
    m.allPermutationsReachable = false;
    m.stateSymmetries = false;
    for (auto& l : m.lookups) l = {-1};
}

}  // namespace

ir::Element labelledView(const ir::Puzzle& puzzle, const ir::Element& e, const analysis::StateLayout& layout) {
    ir::Element v = e;
    for (const auto& l : layout.orbits)
        if (l.labelled)
            for (int p = 0; p < l.size; ++p) v.perm[l.orbit][p] = puzzle.orbits[l.orbit].solvedLabel[e.perm[l.orbit][p]];
    return v;
}

bool buildSolverModel(const ir::Puzzle& puzzle, SolverModel& m, DiagnosticEngine& diags) {
    analysis::PuzzleAnalysis groups(puzzle);
    return buildSolverModel(puzzle, groups, m, diags);
}

bool buildSolverModel(const ir::Puzzle& puzzle, analysis::PuzzleAnalysis& groups, SolverModel& m,
                      DiagnosticEngine& diags, int solver, uint64_t defaultPatternValues) {
    m = {};
    m.puzzle = &puzzle;
    if (puzzle.kind != ir::Puzzle::Kind::Permutation) {
        diags.error(puzzle.file, {}, "the permutation code generator needs a permutation puzzle");
        return false;
    }
    if (!analysis::computeStateLayout(puzzle, m.layout, diags)) return false;
    m.canon = analysis::buildCanonicalAutomaton(puzzle, groups);

    // The searched patterns: those of optimal solver `solver`, by default of
    // the first optimal solver, else all (note [search plans]).
    ir::Puzzle searched = puzzle;
    std::vector<int> searchedIndices;
    for (size_t i = 0; i < puzzle.patterns.size(); ++i) searchedIndices.push_back((int)i);
    if (solver >= 0) {
        searchedIndices = puzzle.solvers.at(solver).patterns;
    } else {
        for (const auto& s : puzzle.solvers)
            if (s.kind == ir::Solver::Kind::Optimal) {
                searchedIndices = s.patterns;
                break;
            }
    }
    searched.patterns.clear();
    for (int i : searchedIndices) {
        if (puzzle.patterns[i].cosetSubgroup < 0) {
            searched.patterns.push_back(puzzle.patterns[i]);
            continue;
        }
        analysis::PhasePlan plan;
        if (!analysis::buildCosetPatternPlan(groups, i, m.canon.searchMoves, plan, diags)) return false;
        m.cosetPatternNames.push_back(puzzle.patterns[i].name);
        m.cosetPatterns.push_back(std::move(plan));
    }
    if (puzzle.patterns.empty()) {
        searched.patterns = analysis::defaultPatterns(puzzle, defaultPatternValues);
        m.defaultPatterns = !searched.patterns.empty();
    }
    if (!analysis::computeCoordinates(searched, m.coordinates, diags)) return false;

    // Kernels and inverses of the search moves.
    std::string kernelText;
    for (int mi : m.canon.searchMoves) {
        m.kernels.push_back(deriveKernel(puzzle.moves[mi].effect, m.layout));
        for (const auto& w : m.kernels.back().words) {
            for (const auto& t : w.terms) kernelText += std::to_string(t.shift) + ":" + hex64(t.mask) + " ";
            kernelText += hex64(w.add) + "/" + std::to_string(w.modulus) + ";";
        }
        for (const auto& lk : m.kernels.back().lanes) {
            for (int src : lk.src) kernelText += std::to_string(src) + " ";
            for (int t : lk.twist) kernelText += std::to_string(t) + " ";
            kernelText += ";";
        }
        kernelText += "\n";
    }
    m.inverseLookups = true;
    for (int mi : m.canon.searchMoves) {
        ir::Element inv = ir::inverse(puzzle.moves[mi].effect, puzzle.orbits);
        int found = -1;
        for (size_t j = 0; j < m.canon.searchMoves.size(); ++j)
            if (puzzle.moves[m.canon.searchMoves[j]].effect == inv) found = static_cast<int>(j);
        m.moveInverse.push_back(found);
        if (found < 0) m.inverseLookups = false;
    }

    // Uniform random states can be drawn by shuffling when the group is all
    // permutations of every (unoriented) orbit.
    {
        mpz_class all = 1;
        bool unoriented = true;
        for (const auto& o : puzzle.orbits) {
            for (int i = 2; i <= o.size; ++i) all *= i;
            unoriented = unoriented && o.orient == 1;
        }
        m.allPermutationsReachable = unoriented && groups.groupOrder() == all && puzzle.illegal.empty();
    }

    // Symmetries: the whole group; mirrors negate orientations (composeMirrored).
    const auto& symmetryGroup = groups.symmetries();
    m.symmetries = symmetryGroup.elements;
    m.symmetryNames = symmetryGroup.names;
    m.symmetryNames[0] = "identity";
    m.symmetryMoveMap = symmetryGroup.moveMap;
    m.stateSymmetries = puzzle.illegal.empty();  // and identical pieces: limitForIdenticalPieces

    // Lookups: one per distinct image of the tracked pieces under a symmetry
    // (conjugates tracking the same pieces have equal distances). Only
    // symmetries that map the searched moves onto searched moves preserve
    // distance in the metric (a symmetry may map a counted move onto an
    // uncounted one: S m S^-1 is checked to be *a* move, of any kind).
    std::vector<bool> preservesMetric(m.symmetries.size(), true);
    for (size_t s = 0; s < m.symmetries.size(); ++s)
        for (int mi : m.canon.searchMoves) {
            int image = symmetryGroup.moveMap[s][mi];
            if (image < 0 || !puzzle.moves[image].inMetric) preservesMetric[s] = false;
        }
    for (const auto& c : m.coordinates) {
        std::set<std::vector<std::vector<int>>> images;
        std::vector<int> lookups;
        for (size_t s = 0; s < m.symmetries.size(); ++s) {
            if (!preservesMetric[s]) continue;
            std::vector<std::vector<int>> image;
            for (const auto& part : c.parts) {
                std::vector<int> set;
                for (int v = 0; v < part.n; ++v)
                    if (part.tracked >> v & 1) set.push_back(m.symmetries[s].perm[part.orbit][v]);
                std::sort(set.begin(), set.end());
                image.push_back(set);
            }
            if (images.insert(image).second) lookups.push_back(s == 0 ? -1 : static_cast<int>(s));
        }
        m.lookups.push_back(lookups);
        std::ostringstream def;
        def << "v1 " << puzzle.name << " words " << m.layout.words << "\n";
        for (const auto& p : c.parts) {
            def << p.orbit << " " << p.n << " " << p.tracked << " " << p.positions << p.ordered << " " << p.oriMod;
            // Orientations without positions were once read per piece (not a
            // coordinate: a wrong table); now per position. The tag keeps a
            // cached table of the old encoding from matching.
            if (!p.positions && p.oriMod > 1) def << " ori-at-positions";
            // Up to 16 positions the 4-bit solved lanes name the colouring (the
            // keys of tables built before byte-lane labels); past that, every label.
            if (p.labelled && p.n <= 16) def << " labels " << hex64(p.solvedLanes()) << " " << p.trackedLabels;
            if (p.labelled && p.n > 16) {
                def << " labels";
                for (int l : p.pieceLabel) def << " " << l;
                def << " tracked " << p.trackedLabels;
            }
            if (p.oriSumFixed) def << " ori-sum-fixed";
            if (p.oriStep > 1) def << " ori-step " << p.oriStep;  // note [orientation residues]
            def << "\n";
        }
        m.patternHashes.push_back(contentHash(def.str() + kernelText));
    }
    limitForIdenticalPieces(m);
    return true;
}

}  // namespace pz::analysis
