// One struct per searched pattern: its parts (pz/coord.hpp,
// pz/lane_coord.hpp), its symmetry lookups, rank and unrank.
#include <cstdio>
#include <map>
#include <set>

#include "compiler/codegen/perm/sections.hpp"

namespace pz::codegen::perm {

namespace {

// The generated type of one pattern part (coord.hpp, lane_coord.hpp):
// labelled parts on 4-bit or byte lanes (computeCoordinates refuses others).
std::string residuesType(const std::string& orbitName) { return "OrientationResidues_" + identifierPart(orbitName); }

// note [orientation residues]: the orbit's step and each piece's residue at
// each position, one row per piece (pz::NoOrientationResidues's members).
void emitResidues(CodeWriter& w, const analysis::CoordinatePart& part, const std::string& orbitName) {
    w.set("RTYPE", residuesType(orbitName));
    w.set("ORBIT", commentText(orbitName));
    w.set("STEP", std::to_string(part.oriStep));
    w.set("N2", std::to_string(part.n * part.n));
    w.line("// Orbit {{ORBIT}}: every state has each piece's orientation fixed mod {{STEP}} by where");
    w.line("// it is; kOffset[piece * n + position] is that residue.");
    w.line("struct {{RTYPE}} {");
    w.indent();
    w.line("static constexpr unsigned kStep = {{STEP}};");
    w.line("static constexpr std::array<uint8_t, {{N2}}> kOffset = {");
    w.indent();
    for (int piece = 0; piece < part.n; ++piece) {
        std::string row;
        for (int pos = 0; pos < part.n; ++pos)
            row += std::to_string(part.oriOffset[static_cast<size_t>(piece * part.n + pos)]) + ",";
        w.set("ROW", row);
        w.set("PIECE", std::to_string(piece));
        w.line("{{ROW}}  // piece {{PIECE}}");
    }
    w.dedent();
    w.line("};");
    w.dedent();
    w.line("};");
}

std::string partType(const analysis::CoordinatePart& part, const analysis::OrbitLayout& pl, const std::string& orbitName) {
    char tracked[24];
    if (part.labelled && pl.nibble()) {
        std::snprintf(tracked, sizeof tracked, "0x%04X", static_cast<unsigned>(part.trackedLabels));
        return "pz::LabelCoordinate<" + std::to_string(part.n) + ", " + hex64(part.solvedLanes()) + "ULL, " + tracked +
               ", " + (part.ordered ? "true" : "false") + ", " + std::to_string(part.oriMod) + ">";
    }
    if (part.labelled) {
        // Counts of the labels 0..L-1 (the rest are 0).
        std::vector<int> counts = part.labelCounts();
        while (!counts.empty() && counts.back() == 0) counts.pop_back();
        std::string list;
        for (size_t l = 0; l < counts.size(); ++l) list += (l ? ", " : "") + std::to_string(counts[l]);
        std::snprintf(tracked, sizeof tracked, "0x%llXULL", static_cast<unsigned long long>(part.trackedLabels));
        return "pz::ByteLabelCoordinate<" + std::to_string(pl.lanes()) + ", " + std::to_string(part.n) +
               ", pz::LabelCounts{{" + list + "}}, " + tracked + ", " + (part.ordered ? "true" : "false") + ", " +
               std::to_string(part.oriMod) + ">";
    }
    if (pl.nibble())
        std::snprintf(tracked, sizeof tracked, "0x%04X", static_cast<unsigned>(part.tracked));
    else
        std::snprintf(tracked, sizeof tracked, "0x%llXULL", static_cast<unsigned long long>(part.tracked));
    const std::string residues = part.oriStep > 1 ? std::string(part.oriSumFixed ? ", true" : ", false") + ", " +
                                                        residuesType(orbitName)
                                                  : std::string(part.oriSumFixed ? ", true" : "");
    const std::string args = std::to_string(part.n) + ", " + tracked + ", " + (part.ordered ? "true" : "false") + ", " +
                             (part.positions ? "true" : "false") + ", " + std::to_string(part.oriMod) + residues;
    if (pl.nibble()) return "pz::PieceCoordinate<" + args + ">";
    return "pz::BytePieceCoordinate<" + std::to_string(pl.lanes()) + ", " + args + ">";
}

// Sets {{PERM}} and {{ORI}} to the arguments a part's rank/unrank takes from
// state `s`: 4-bit parts take the words, byte-lane parts pointers to them;
// an orbit without orientation passes `noOri` (nibble) or nullptr.
void setPartArguments(CodeWriter& w, const analysis::OrbitLayout& l, const std::string& noOri) {
    const std::string perm = "s.w[" + std::to_string(l.permWord) + "]";
    const std::string ori = l.oriWord >= 0 ? "s.w[" + std::to_string(l.oriWord) + "]" : "";
    if (l.nibble()) {
        w.set("PERM", perm);
        w.set("ORI", ori.empty() ? noOri : ori);
    } else {
        w.set("PERM", "&" + perm);
        w.set("ORI", ori.empty() ? "nullptr" : "&" + ori);
    }
}

}  // namespace

std::vector<std::string> emitCoordinates(CodeWriter& w, const SolverModel& m) {
    const ir::Puzzle& p = *m.puzzle;
    w.section("coordinates");
    w.line("// ---- pattern coordinates (see runtime/include/pz/coord.hpp) ----");
    std::vector<std::string> patternTypes;
    std::set<int> residuesEmitted;  // orbits
    for (const auto& c : m.coordinates)
        for (const auto& part : c.parts)
            if (part.oriStep > 1 && residuesEmitted.insert(part.orbit).second)
                emitResidues(w, part, p.orbits[part.orbit].name);
    for (size_t ci = 0; ci < m.coordinates.size(); ++ci) {
        const auto& c = m.coordinates[ci];
        std::string type = "Pattern_" + identifierPart(c.pattern);
        patternTypes.push_back(type);
        w.set("TYPE", type);
        w.set("PNAME", commentText(c.pattern));
        w.set("PSTRING", stringLiteral(c.pattern));
        w.set("HASH", stringLiteral(m.patternHashes[ci]));
        w.set("SIZE", std::to_string(c.size));
        w.line("// pattern {{PNAME}}: {{SIZE}} values");
        w.line("struct {{TYPE}} {");
        w.indent();
        w.line("static constexpr const char* kName = {{PSTRING}};");
        w.line("static constexpr const char* kHash = {{HASH}};");
        for (size_t pi = 0; pi < c.parts.size(); ++pi) {
            const auto& part = c.parts[pi];
            w.set("I", std::to_string(pi));
            w.set("PART", partType(part, m.layout.orbits[part.orbit], p.orbits[part.orbit].name));
            w.set("KIND", commentText(part.kind() + " of orbit " + p.orbits[part.orbit].name));
            w.line(m.layout.orbits[part.orbit].nibble() ? "using Part{{I}} = {{PART}};  // {{KIND}}"
                                                        : "using Part{{I}} = {{PART}};  // {{KIND}}, byte lanes");
        }
        w.line("static constexpr uint64_t kSize = {{SIZE}}ULL;");
        std::string lookups;
        for (size_t i = 0; i < m.lookups[ci].size(); ++i) lookups += (i ? ", " : "") + std::to_string(m.lookups[ci][i]);
        w.set("NL", std::to_string(m.lookups[ci].size()));
        w.set("LOOKUPS", "{" + lookups + "}");
        w.line("// Symmetries whose conjugates track distinct pieces (-1 = the state itself).");
        w.line("static constexpr std::array<int, {{NL}}> kSymmetryLookups = {{LOOKUPS}};");
        w.line("static inline uint64_t rank(const State& s) {");
        w.indent();
        w.line("uint64_t r = 0;");
        for (size_t pi = 0; pi < c.parts.size(); ++pi) {
            const auto& l = m.layout.orbits[c.parts[pi].orbit];
            w.set("I", std::to_string(pi));
            setPartArguments(w, l, "0");
            w.line("r = r * Part{{I}}::kSize + Part{{I}}::rank({{PERM}}, {{ORI}});");
        }
        w.line("return r;");
        w.dedent();
        w.line("}");
        if (c.parts.size() == 1 && c.parts[0].positions && c.parts[0].oriMod == 1 && !c.parts[0].labelled &&
            m.layout.orbits[c.parts[0].orbit].nibble()) {
            w.directive("#if defined(__SSSE3__)");
            w.line("static inline uint64_t rankBytes(__m128i lanes) { return Part0::rankBytes(lanes); }");
            w.directive("#endif");
        }
        w.line("static inline State unrank(uint64_t r) {");
        w.indent();
        w.line("State s = kSolved;");
        w.line("uint64_t unusedOri = 0;");
        // A part writes only the fields it tracks (note [parts on one orbit]
        // in compiler/analysis/perm/coordinates.hpp): an orientations-only part
        // writes its lanes of piece labels to scratch, a part without
        // orientations its orientation lanes.
        bool orientationsOnly = false;
        for (const auto& part : c.parts) orientationsOnly = orientationsOnly || !part.positions;
        if (orientationsOnly) w.line("uint64_t unusedPerm[8] = {};  // 64 byte lanes at most (pattern orbits)");
        std::set<int> piecesWritten;  // orbits whose piece lanes a part wrote
        for (size_t pi = c.parts.size(); pi-- > 0;) {
            const auto& part = c.parts[pi];
            const auto& l = m.layout.orbits[part.orbit];
            w.set("I", std::to_string(pi));
            setPartArguments(w, l, "unusedOri");
            if (!part.positions) w.set("PERM", l.nibble() ? "unusedPerm[0]" : "unusedPerm");
            if (part.oriMod == 1 && l.oriWord >= 0) w.set("ORI", l.nibble() ? "unusedOri" : "nullptr");
            const bool merge = part.positions && !piecesWritten.insert(part.orbit).second;
            w.line(merge ? "Part{{I}}::unrankMerged(r % Part{{I}}::kSize, {{PERM}}, {{ORI}});"
                         : "Part{{I}}::unrank(r % Part{{I}}::kSize, {{PERM}}, {{ORI}});");
            w.line("r /= Part{{I}}::kSize;");
        }
        w.line("(void)unusedOri;");
        w.line("return s;");
        w.dedent();
        w.line("}");
        if (!c.everyValueIsState) {
            // note [parts on one orbit]: the table build skips the others.
            w.line("// Whether value r is a state: parts tracking positions of one orbit");
            w.line("// put their pieces at different positions.");
            w.line("static inline bool isState(uint64_t r) {");
            w.indent();
            std::map<int, int> positionParts;     // orbit -> parts tracking its positions
            std::map<int, std::string> occupied;  // orbit -> its mask variable, if shared
            for (const auto& part : c.parts) positionParts[part.orbit] += part.positions;
            for (const auto& part : c.parts)
                if (positionParts[part.orbit] > 1 && !occupied.count(part.orbit)) {
                    occupied[part.orbit] = "occupied" + std::to_string(occupied.size());
                    w.line("uint64_t " + occupied[part.orbit] + " = 0;");
                }
            for (size_t pi = c.parts.size(); pi-- > 0;) {
                const auto& part = c.parts[pi];
                w.set("I", std::to_string(pi));
                if (part.positions && occupied.count(part.orbit)) {
                    w.set("OCC", occupied[part.orbit]);
                    w.line("if (const uint64_t m = Part{{I}}::occupiedPositions(r % Part{{I}}::kSize); ({{OCC}} & m) != 0) return false;");
                    w.line("else {{OCC}} |= m;");
                }
                w.line("r /= Part{{I}}::kSize;");
            }
            w.line("return true;");
            w.dedent();
            w.line("}");
        }
        w.dedent();
        w.line("};");
    }
    w.line();
    return patternTypes;
}

}  // namespace pz::codegen::perm
