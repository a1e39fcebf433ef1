// The model of a permutation puzzle's solver (buildSolverModel) and its
// `pzc inspect` report. The emitters of the generated code are in
// compiler/codegen/perm/ (one file per section of the traits header).
#include "compiler/codegen/solver_model.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/default_patterns.hpp"
#include "compiler/codegen/code_writer.hpp"
#include "compiler/codegen/content_hash.hpp"
#include "compiler/codegen/perm/sections.hpp"
#include "compiler/ir/element.hpp"

namespace pz::codegen {

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
                      DiagnosticEngine& diags) {
    m = {};
    m.puzzle = &puzzle;
    m.identifier = scopeIdentifier(puzzle.name);
    if (puzzle.kind != ir::Puzzle::Kind::Permutation) {
        diags.error(puzzle.file, {}, "the permutation code generator needs a permutation puzzle");
        return false;
    }
    if (!analysis::computeStateLayout(puzzle, m.layout, diags)) return false;
    m.canon = analysis::buildCanonicalAutomaton(puzzle, groups);

    // The searched patterns: those of the first optimal solver, else all
    // (coset patterns apart: they are phase tables, note [coset patterns]).
    ir::Puzzle searched = puzzle;
    std::vector<int> searchedIndices;
    for (size_t i = 0; i < puzzle.patterns.size(); ++i) searchedIndices.push_back((int)i);
    for (const auto& s : puzzle.solvers)
        if (s.kind == ir::Solver::Kind::Optimal) {
            searchedIndices = s.patterns;
            break;
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
        searched.patterns = analysis::defaultPatterns(puzzle);
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
            if (p.labelled) def << " labels " << hex64(p.solvedLanes()) << " " << p.trackedLabels;
            if (p.oriSumFixed) def << " ori-sum-fixed";
            def << "\n";
        }
        m.patternHashes.push_back(contentHash(def.str() + kernelText));
    }
    limitForIdenticalPieces(m);
    return true;
}

std::string describeModel(const SolverModel& m) {
    using perm::describeLaneKernel, perm::laneFieldWords, perm::wordKernelExpr;
    const ir::Puzzle& p = *m.puzzle;
    std::ostringstream s;
    s << "puzzle " << p.name << " (" << p.file << ")\n\n";
    s << m.layout.describe(p) << "\n";
    s << "move kernels (" << m.kernels.size() << " moves in the metric):\n";
    for (size_t i = 0; i < m.kernels.size(); ++i) {
        const auto& mv = p.moves[m.canon.searchMoves[i]];
        s << "  " << mv.name << " (" << m.kernels[i].operations() << " ops):";
        const std::vector<bool> laneWords = laneFieldWords(m.layout);
        bool first = true;
        for (size_t j = 0; j < m.kernels[i].words.size(); ++j) {
            if (laneWords[j]) continue;
            s << (first ? " " : "\n      ") << "w[" << j << "] = " << wordKernelExpr("w[" + std::to_string(j) + "]", m.kernels[i].words[j]);
            first = false;
        }
        for (const auto& lk : m.kernels[i].lanes) {
            const auto& l = m.layout.orbits[lk.layoutOrbit];
            s << (first ? " " : "\n      ") << "orbit " << p.orbits[l.orbit].name << " = " << describeLaneKernel(lk, l);
            first = false;
        }
        s << "\n";
    }
    s << "\n" << m.canon.describe(p);
    s << "  commuting families:";
    for (size_t f = 0; f < p.families.size(); ++f)
        for (size_t g = f + 1; g < p.families.size(); ++g)
            if (m.canon.commute[f][g]) s << ' ' << p.families[f].name << '|' << p.families[g].name;
    s << "\n\nsymmetries: " << m.symmetries.size() << " (closure of " << p.symmetries.size() << " declared)\n";
    s << "inverse lookups: " << (m.inverseLookups ? "yes" : "no (a metric move's inverse is not in the metric)") << "\n\n";
    s << "coordinates:" << (m.defaultPatterns ? " (default patterns: the definition declares none)" : "") << "\n";
    for (size_t c = 0; c < m.coordinates.size(); ++c) {
        const auto& co = m.coordinates[c];
        s << "  " << co.pattern << ": " << co.size << " values, table " << (co.size + 1) / 2 << " bytes (4-bit entries), "
          << m.lookups[c].size() * (m.inverseLookups ? 2 : 1) << " lookups per node\n";
        for (const auto& part : co.parts)
            s << "    " << part.kind() << " of orbit " << p.orbits[part.orbit].name << ": " << part.size() << "\n";
    }
    // note [coset patterns]: class counts are pzc check's (or the solver's --tables).
    for (size_t c = 0; c < m.cosetPatterns.size(); ++c) {
        const auto& ph = m.cosetPatterns[c];
        s << "  " << m.cosetPatternNames[c] << ": coset coordinate of " << ph.target << ", "
          << ph.lookups.size() * (m.inverseLookups ? 2 : 1) << " lookups per node";
        if (ph.lookups.size() > 1) {
            s << " (read at the conjugates by";
            for (size_t i = 0; i < ph.lookups.size(); ++i) s << (i ? ", " : " ") << m.symmetryNames[ph.lookups[i]];
            s << ")";
        }
        s << "\n";
        for (size_t j = 0; j < ph.parts.size(); ++j) {
            const bool reduced = std::find(ph.reduced.begin(), ph.reduced.end(), (int)j) != ph.reduced.end();
            s << "    " << ph.parts[j].describe(p) << ": " << ph.parts[j].size
              << (ph.symmetries.empty() ? "" : reduced ? " (reduced by symmetry)" : " (conjugated)") << "\n";
        }
        // note [projected coset patterns]
        for (const auto& kept : ph.kept)
            if (kept.kind == analysis::PhasePart::Kind::Orientation && !kept.positions.empty())
                s << "    the table keeps " << kept.describe(p) << ": " << kept.size
                  << " values (the least moves over the other orientations; exact up to the depth the build reports)\n";
        if (!ph.symmetries.empty())
            s << "    " << ph.symmetries.size() << " symmetries; classes and entries: pzc check\n";
        // note [moves in the subgroup]
        for (size_t l = 0; l < ph.lookupMovesInSubgroup.size(); ++l) {
            if (ph.lookupMovesInSubgroup[l].empty()) continue;
            s << "    moves skipped after a tight inverse read";
            if (ph.lookups.size() > 1) s << " (at " << m.symmetryNames[ph.lookups[l]] << ")";
            s << ":";
            for (int i : ph.lookupMovesInSubgroup[l]) s << " " << p.moves[m.canon.searchMoves[i]].name;
            s << "\n";
        }
    }
    return s.str();
}

}  // namespace pz::codegen
