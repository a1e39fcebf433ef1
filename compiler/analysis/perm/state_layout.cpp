#include "compiler/analysis/perm/state_layout.hpp"

#include <set>
#include <sstream>

namespace pz::analysis {

namespace {

// Lanes of a byte-lane field: a whole vector register up to 64, else whole words.
int byteLanes(int size) {
    if (size <= 16) return 16;
    if (size <= 32) return 32;
    if (size <= 64) return 64;
    return (size + 7) / 8 * 8;
}

}  // namespace

bool StateLayout::allNibble() const {
    for (const auto& l : orbits)
        if (!l.nibble()) return false;
    return true;
}

bool computeStateLayout(const ir::Puzzle& puzzle, StateLayout& out, DiagnosticEngine& diags) {
    out = {};
    bool ok = true;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        const auto& orbit = puzzle.orbits[o];
        OrbitLayout l;
        l.orbit = static_cast<int>(o);
        l.size = orbit.size;
        l.orient = orbit.orient;
        const std::string modulus = orbit.orient > 1 ? ", orientation modulus " + std::to_string(orbit.orient) : "";
        if (orbit.size <= kNibbleLaneMaxPositions && orbit.orient <= kNibbleLaneMaxModulus) {
            l.laneBits = 4;
            l.fieldWords = 1;
            l.why = "4-bit lanes: " + std::to_string(orbit.size) + " positions" + modulus +
                    " fit one word (<= 16 positions, modulus <= 8); shift-and-mask kernels";
        } else if (orbit.size <= kByteLaneMaxPositions && orbit.orient <= kByteLaneMaxModulus) {
            l.laneBits = 8;
            int lanes = byteLanes(orbit.size);
            l.fieldWords = lanes / 8;
            std::string reason = orbit.size > kNibbleLaneMaxPositions
                                     ? "more than 16 positions"
                                     : "orientation modulus " + std::to_string(orbit.orient) + " over 8";
            l.why = "byte lanes (" + reason + "): " + std::to_string(lanes) + " lanes in " + std::to_string(l.fieldWords) +
                    " words per field; " +
                    (orbit.size <= kShuffleMaxPositions ? "one byte shuffle per move (vpermb, pshufb or a portable loop)"
                                                        : "a loop over a constant index table per move (over 64 positions)");
        } else if (orbit.size <= kHalfLaneMaxPositions && orbit.orient <= kHalfLaneMaxModulus) {
            l.laneBits = 16;
            int lanes = (orbit.size + 3) / 4 * 4;
            l.fieldWords = lanes / 4;
            l.why = "16-bit lanes (more than 256 positions or modulus over 128): " + std::to_string(lanes) + " lanes in " +
                    std::to_string(l.fieldWords) + " words per field; a loop over a constant index table per move";
        } else {
            diags.error(puzzle.file, orbit.where,
                        "orbit '" + orbit.name + "' has " + std::to_string(orbit.size) + " positions" + modulus +
                            "; the generated state holds at most 1024 positions and modulus 256 per orbit");
            ok = false;
        }
        // Identical pieces: the lanes hold labels (note [labelled lanes]).
        l.labelled = std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size() != orbit.solvedLabel.size();
        l.permWord = out.words;
        out.words += l.fieldWords;
        out.orbits.push_back(l);
    }
    for (auto& l : out.orbits)
        if (l.orient > 1) {
            l.oriWord = out.words;
            out.words += l.fieldWords;
        }
    return ok;
}

std::string StateLayout::describe(const ir::Puzzle& puzzle) const {
    std::ostringstream s;
    s << "state: " << words << " x u64\n";
    for (const auto& l : orbits) {
        auto range = [&](int first) {
            return l.fieldWords == 1 ? "word " + std::to_string(first)
                                     : "words " + std::to_string(first) + ".." + std::to_string(first + l.fieldWords - 1);
        };
        s << "  orbit " << puzzle.orbits[l.orbit].name << ": " << l.size << " positions, "
          << (l.labelled ? "identical pieces' labels" : "labels") << " in " << range(l.permWord);
        if (l.nibble())
            s << " (4-bit lane p = bits 4p..4p+3)";
        else
            s << " (" << l.laneBits << "-bit lane p = bits " << l.laneBits << "p.." << l.laneBits << "p+" << l.laneBits - 1
              << " of the field)";
        if (l.oriWord >= 0) s << ", orientations mod " << l.orient << " in " << range(l.oriWord);
        s << "\n    layout: " << l.why << "\n";
    }
    return s.str();
}

}  // namespace pz::analysis
