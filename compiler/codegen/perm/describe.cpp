// The `pzc inspect` report of a permutation solver's model (perm_emit.hpp):
// layout, each move's kernel as the emitters write it, the canonical
// automaton, symmetries, coordinates and coset patterns.
#include <algorithm>
#include <sstream>

#include "compiler/analysis/perm/table_estimates.hpp"
#include "compiler/codegen/perm/sections.hpp"

namespace pz::codegen {

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
    // note [table estimates] (compiler/analysis/perm/table_estimates.hpp).
    const auto sequences = analysis::canonicalSequenceCounts(m.canon, analysis::kEstimateLengths);
    const int moves = static_cast<int>(m.canon.searchMoves.size());
    for (size_t c = 0; c < m.coordinates.size(); ++c) {
        const auto& co = m.coordinates[c];
        s << "  " << co.pattern << ": " << co.size << " values, table " << (co.size + 1) / 2 << " bytes (4-bit entries), "
          << m.lookups[c].size() * (m.inverseLookups ? 2 : 1) << " lookups per node\n";
        for (const auto& part : co.parts)
            s << "    " << part.kind() << " of orbit " << p.orbits[part.orbit].name << ": " << part.size() << "\n";
        const double values = static_cast<double>(co.size);
        bool labelled = false;
        for (const auto& part : co.parts) labelled = labelled || part.labelled;
        const auto kind = labelled ? analysis::TableKind::LabelledPattern : analysis::TableKind::Pattern;
        s << "    " << analysis::estimateText(analysis::estimateTable(kind, values, values, moves, sequences)) << "\n";
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
                  << " values (the least moves over the other orientations; exact up to the depth the build reports"
                  << (ph.exactDepth > 0 ? ", declared at least " + std::to_string(ph.exactDepth) : std::string()) << ")\n";
        if (!ph.symmetries.empty())
            s << "    " << ph.symmetries.size() << " symmetries; classes and entries: pzc check\n";
        // Entries taken as the raw values over the symmetries (pzc check counts the classes).
        const double entries = static_cast<double>(ph.reducedSize) * static_cast<double>(ph.restSize) /
                               static_cast<double>(std::max<size_t>(1, ph.symmetries.size()));
        s << "    " << analysis::estimateText(analysis::estimateCosetTable(ph, entries, moves, sequences)) << "\n";
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
