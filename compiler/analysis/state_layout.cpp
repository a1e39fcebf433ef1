#include "compiler/analysis/state_layout.hpp"

#include <set>
#include <sstream>

namespace pz::analysis {

bool computeStateLayout(const ir::Puzzle& puzzle, StateLayout& out, DiagnosticEngine& diags) {
    out = {};
    bool ok = true;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        const auto& orbit = puzzle.orbits[o];
        if (orbit.size > 16) {
            diags.error(puzzle.file, orbit.where,
                        "orbit '" + orbit.name + "' has " + std::to_string(orbit.size) +
                            " positions; the generated state holds at most 16 per orbit");
            ok = false;
        }
        if (orbit.orient > 8) {
            diags.error(puzzle.file, orbit.where,
                        "orbit '" + orbit.name + "' has orientation modulus " + std::to_string(orbit.orient) +
                            "; the generated state supports at most 8");
            ok = false;
        }
        OrbitLayout l;
        // Identical pieces: the lanes hold labels (note [labelled lanes]).
        l.labelled = std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size() != orbit.solvedLabel.size();
        l.orbit = static_cast<int>(o);
        l.size = orbit.size;
        l.orient = orbit.orient;
        l.permWord = out.words++;
        out.orbits.push_back(l);
    }
    for (auto& l : out.orbits)
        if (l.orient > 1) l.oriWord = out.words++;
    return ok;
}

std::string StateLayout::describe(const ir::Puzzle& puzzle) const {
    std::ostringstream s;
    s << "state: " << words << " x u64\n";
    for (const auto& l : orbits) {
        s << "  orbit " << puzzle.orbits[l.orbit].name << ": " << l.size << " positions, "
          << (l.labelled ? "identical pieces' labels" : "labels") << " in word " << l.permWord
          << " (4-bit lane p = bits 4p..4p+3)";
        if (l.oriWord >= 0) s << ", orientations mod " << l.orient << " in word " << l.oriWord;
        s << "\n";
    }
    return s.str();
}

}  // namespace pz::analysis
