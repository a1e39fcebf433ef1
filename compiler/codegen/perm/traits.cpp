// The generated traits header: banner and includes, then the sections in
// order (state.cpp, kernels.cpp, group_ops.cpp, coords.cpp), then the Traits
// struct the runtime is instantiated with (its canonical table: canon.cpp);
// and the solver's main translation unit.
#include "compiler/codegen/perm/sections.hpp"

#include "compiler/codegen/perm/perm_emit.hpp"

namespace pz::codegen {

namespace {

using namespace perm;

// "traits": struct Traits (pz::Search, pz::PruneTable, pz::solverMain).
void emitTraitsStruct(CodeWriter& w, const SolverModel& m, const std::vector<std::string>& patternTypes) {
    const ir::Puzzle& p = *m.puzzle;
    const int moves = static_cast<int>(m.canon.searchMoves.size());
    w.section("traits");
    w.set("NAME", stringLiteral(p.name));
    w.line("// ---- the traits the runtime (pz::Search, pz::PruneTable) is instantiated with ----");
    w.line("struct Traits {");
    w.indent();
    w.line("using State = pzgen::{{NS}}::State;");
    w.line("static constexpr const char* kName = {{NAME}};");
    w.line("static constexpr int kMoves = {{MOVES}};");
    std::string names, inverses;
    for (int i = 0; i < moves; ++i) {
        names += (i ? ", " : "") + stringLiteral(p.moves[m.canon.searchMoves[i]].name);
        inverses += (i ? ", " : "") + std::to_string(m.moveInverse[i]);
    }
    w.set("NAMES", "{" + names + "}");
    w.set("INVERSES", "{" + inverses + "}");
    w.line("static constexpr std::array<const char*, {{MOVES}}> kMoveNames = {{NAMES}};");
    w.line("static constexpr std::array<int, {{MOVES}}> kMoveInverse = {{INVERSES}};");
    std::string shapes;
    for (size_t i = 0; i < m.layout.orbits.size(); ++i) {
        const auto& l = m.layout.orbits[i];
        shapes += (i ? ", " : "") + std::string("pz::OrbitShape{") + std::to_string(l.size) + ", " + std::to_string(l.orient) + ", " +
                  std::to_string(l.permWord) + ", " + std::to_string(l.oriWord) +
                  (l.nibble() ? "" : ", " + std::to_string(l.laneBits)) + "}";
    }
    w.set("NO", std::to_string(m.layout.orbits.size()));
    w.set("SHAPES", "{" + shapes + "}");
    w.line("static constexpr std::array<pz::OrbitShape, {{NO}}> kOrbitShapes = {{SHAPES}};");
    std::string orbitNames;  // the library's PuzzleInfo::orbits (pz/api/perm.hpp)
    for (size_t i = 0; i < m.layout.orbits.size(); ++i)
        orbitNames += (i ? ", " : "") + stringLiteral(m.puzzle->orbits.at(i).name);
    w.line("static constexpr std::array<const char*, {{NO}}> kOrbitNames = {" + orbitNames + "};");
    w.set("INVLOOK", m.inverseLookups ? "true" : "false");
    w.set("ALLPERM", m.allPermutationsReachable ? "true" : "false");
    w.line("// Every metric move's inverse is a metric move: dist(s^-1) = dist(s).");
    w.line("static constexpr bool kInverseLookups = {{INVLOOK}};");
    w.line("static constexpr bool kAllPermutationsReachable = {{ALLPERM}};");
    w.set("NSYM", std::to_string(m.symmetries.size()));
    w.line("static constexpr int kSymmetries = {{NSYM}};");
    w.set("STATESYM", m.stateSymmetries ? "true" : "false");
    w.line("// A state fixed by a symmetry has children of equal distance (false with identical pieces or illegal placements).");
    w.line("static constexpr bool kStateSymmetries = {{STATESYM}};");
    bool laneBytes = m.layout.words == 1 && m.layout.orbits.size() == 1 && m.layout.orbits[0].oriWord < 0;
    w.set("LANEBYTES", laneBytes ? "true" : "false");
    w.line("// One unoriented orbit in one word: lookups conjugate with byte shuffles.");
    w.line("static constexpr bool kLaneBytes = {{LANEBYTES}};");
    if (laneBytes) {
        auto bytesTable = [&](const std::string& name, bool inverseLabels) {
            w.set("NAME", name);
            w.set("OPEN", "{{");
            w.line("static constexpr std::array<std::array<uint8_t, 16>, {{NSYM}}> {{NAME}} = {{OPEN}}");
            w.indent();
            for (size_t k = 0; k < m.symmetries.size(); ++k) {
                const auto& perm = m.symmetries[k].perm[m.layout.orbits[0].orbit];
                std::vector<int> v(perm.begin(), perm.end());
                if (inverseLabels)
                    for (size_t i = 0; i < perm.size(); ++i) v[perm[i]] = static_cast<int>(i);
                std::string row;
                for (int i = 0; i < 16; ++i) row += (i ? ", " : "") + std::to_string(i < static_cast<int>(v.size()) ? v[i] : 0x80);
                w.set("ROW", "{" + row + "}");
                w.line("{{ROW}},");
            }
            w.dedent();
            w.line("}};");
        };
        w.line("// Conjugate S^-1 s S: lane p takes the label at S[p] (positions), relabelled by S^-1.");
        bytesTable("kSymmetryPositionBytes", false);
        bytesTable("kSymmetryInverseLabelBytes", true);
    }
    if (!p.illegal.empty()) {
        // note [illegal placements]: the search never enters such a state.
        w.line("// Illegal placements: a state with one of these is never entered.");
        w.line("static inline bool legal(const State& s) {");
        w.indent();
        for (const auto& il : p.illegal) {
            const analysis::OrbitLayout* l = nullptr;
            for (const auto& o : m.layout.orbits)
                if (o.orbit == il.orbit) l = &o;
            if (!l) throw std::logic_error("illegal placement on an orbit without lanes");
            const ir::Orbit& orbit = p.orbits[il.orbit];
            int value = il.label;  // a labelled lane holds the label, else the piece
            if (!l->labelled) {
                value = 0;
                while (orbit.solvedLabel[value] != il.label) ++value;
            }
            w.set("WORD", std::to_string(l->permWord));
            w.set("BITS", std::to_string(l->laneBits));
            w.set("POS", std::to_string(il.position));
            w.set("VALUE", std::to_string(value));
            w.set("WHAT", orbit.name + " " + (orbit.positionNames.empty() ? std::to_string(il.position) : orbit.positionNames[il.position]));
            w.line("if (pz::fieldLane(&s.w[{{WORD}}], {{BITS}}, {{POS}}) == {{VALUE}}) return false;  // {{WHAT}}");
        }
        w.line("return true;");
        w.dedent();
        w.line("}");
    }
    w.line();
    emitCanonTable(w, m);
    std::string tuple;
    for (size_t i = 0; i < patternTypes.size(); ++i) tuple += (i ? ", " : "") + patternTypes[i];
    w.set("TUPLE", tuple);
    w.line("using Patterns = std::tuple<{{TUPLE}}>;");
    if (!m.cosetPatterns.empty()) {
        w.set("NCOSET", std::to_string(m.cosetPatterns.size()));
        w.line("// Coset patterns (note [coset patterns]): defined after the struct.");
        w.line("static constexpr int kCosetPatterns = {{NCOSET}};");
        size_t lookups = 0;
        for (const auto& ph : m.cosetPatterns) lookups += ph.lookups.size();
        w.set("NCOSETLOOKUPS", std::to_string(lookups));
        w.line("// Their lookups per state, over every pattern (note [coset pattern lookups]).");
        w.line("static constexpr int kCosetLookups = {{NCOSETLOOKUPS}};");
        w.line("static std::vector<pz::CosetPatternSpec> cosetPatterns();");
        if (hasProjectedCosetPattern(m)) {
            w.line("// A projected coset pattern's parts ranked with every field a constant (note [fixed ranks]).");
            w.line("static uint64_t cosetRank(int pattern, pz::CosetRanks which, const State& s);");
            w.line("// Its kept parts' rank at the conjugate by traits symmetry sym (note [fixed ranks]).");
            w.line("static uint64_t cosetKeptRankAt(int pattern, const State& s, int sym);");
        }
    }
    w.line();
    w.line("static constexpr State solved() { return kSolved; }");
    emitApplyMove(w, m);
    w.line("static inline State compose(const State& a, const State& b) { return pzgen::{{NS}}::compose(a, b); }");
    w.line("static inline State inverse(const State& a) { return pzgen::{{NS}}::inverse(a); }");
    w.line("// s * m^-1 (by the inverse move's kernel when it is a metric move).");
    w.line("static inline State applyInverseMove(const State& s, int m) {");
    w.line("    return kMoveInverse[m] >= 0 ? applyMove(s, kMoveInverse[m]) : pzgen::{{NS}}::compose(s, kMoveInverseStates[m]);");
    w.line("}");
    w.line("// m^-1 * inv: the inverse of (s * m) given inv = s^-1.");
    w.line("static inline State premultiplyInverseMove(const State& inv, int m) {");
    w.line("    return pzgen::{{NS}}::compose(kMoveInverseStates[m], inv);");
    w.line("}");
    w.line("// S^-1 * s * S for symmetry S.");
    w.line("static inline State conjugate(const State& s, int sym) {");
    if (hasOrientations(m.layout)) {
        w.line("    State t = pzgen::{{NS}}::compose(kSymmetryInverseStates[sym], s);");
        w.line("    return kSymmetryMirror[sym] ? composeMirrored(t, kSymmetryStates[sym]) : pzgen::{{NS}}::compose(t, kSymmetryStates[sym]);");
    } else {
        w.line("    return pzgen::{{NS}}::compose(pzgen::{{NS}}::compose(kSymmetryInverseStates[sym], s), kSymmetryStates[sym]);");
    }
    w.line("}");
    if (hasProjectedCosetPattern(m)) emitConjugateOrbits(w, m.layout);
    w.dedent();
    w.line("};");
    w.line();
}

}  // namespace

std::string emitTraitsHeader(const SolverModel& m, const std::string& source, const std::string& ns) {
    const int W = m.layout.words;
    const int moves = static_cast<int>(m.canon.searchMoves.size());
    const std::string scope = scopeIdentifier(m.puzzle->name);
    CodeWriter w;
    w.set("SOURCE", commentText(source));
    w.set("NS", ns.empty() ? scope : ns);
    w.set("W", std::to_string(W));
    w.set("MOVES", std::to_string(moves));
    w.line("// generated by pzc from {{SOURCE}} — do not edit");
    w.line("// Regenerate with scripts/regenerate.sh; inspect with `pzc inspect {{SOURCE}}`.");
    // What table keys hash starts here: not the path the definition was read
    // from (./puzzles/cube3.pz and puzzles/cube3.pz share their tables).
    const size_t afterSource = w.str().size();
    w.line("#pragma once");
    w.line();
    w.line("#include <array>");
    w.line("#include <cstdint>");
    w.line("#include <tuple>");
    if (!m.cosetPatterns.empty()) w.line("#include <vector>");
    w.line();
    w.line("#include \"pz/coord.hpp\"");
    if (!m.puzzle->illegal.empty() && m.layout.allNibble()) w.line("#include \"pz/lanes.hpp\"");  // legal()
    if (!m.layout.allNibble()) {
        w.line("#include \"pz/lane_coord.hpp\"");
        w.line("#include \"pz/lanes.hpp\"");
    }
    if (!m.cosetPatterns.empty()) w.line("#include \"pz/coset_pattern.hpp\"");
    w.line("#include \"pz/solver_main.hpp\"");
    w.line("#include \"pz/state.hpp\"");
    w.line();
    w.line("namespace pzgen::{{NS}} {");
    w.line();
    w.line("static_assert(pz::kRuntimeAbi == 1, \"generated for runtime ABI 1: run scripts/regenerate.sh\");");
    w.line();
    perm::emitLayout(w, m);
    perm::emitMoveKernels(w, m);
    perm::emitElementTables(w, m);
    perm::emitGroupOperations(w, m);
    // note [coset table keys]: each coset table is keyed by what its bytes
    // depend on (this much of the traits: state, moves, symmetries) and its
    // own plan, not by the solver's other patterns, so solvers share tables.
    std::string core = w.str().substr(afterSource);
    if (!ns.empty() && ns != scope) {  // the key of pzgen::<puzzle>'s text (emitTraitsHeader's comment)
        const std::string from = "pzgen::" + ns, to = "pzgen::" + scope;
        for (size_t at = core.find(from); at != std::string::npos; at = core.find(from, at + to.size()))
            core.replace(at, from.size(), to);
    }
    const std::vector<std::string> patternTypes = perm::emitCoordinates(w, m);
    emitTraitsStruct(w, m, patternTypes);
    if (!m.cosetPatterns.empty()) {
        w.raw(emitCosetPatterns(m, core));
        w.line();
    }
    w.line("}  // namespace pzgen::{{NS}}");
    return w.str();
}

std::string emitSolverMain(const SolverModel& m, const std::string& include, const std::string& source) {
    CodeWriter w;
    w.set("SOURCE", commentText(source));
    w.set("NS", scopeIdentifier(m.puzzle->name));
    if (include.empty()) {
        w.raw(emitTraitsHeader(m, source));
    } else {
        w.line("// generated by pzc from {{SOURCE}} — do not edit");
        w.set("INC", stringLiteral(include));
        w.line("#include {{INC}}");
    }
    w.line("#include \"pz/solver_main.hpp\"");
    w.line();
    w.line("int main(int argc, char** argv) { return pz::solverMain<pzgen::{{NS}}::Traits>(argc, argv); }");
    return w.str();
}

std::string emitEnumeratorMain(const SolverModel& m, const std::string& source) {
    CodeWriter w;
    w.set("NS", scopeIdentifier(m.puzzle->name));
    w.raw(emitTraitsHeader(m, source));
    w.line("#include \"pz/enumerate/enumerate_main.hpp\"");
    w.line();
    w.line("// pzc enumerate: the distance distribution of the model's one pattern (docs/distributed.md).");
    w.line("int main(int argc, char** argv) {");
    w.line("    using Traits = pzgen::{{NS}}::Traits;");
    if (m.cosetPatterns.empty())
        w.line("    return pz::enumerate::enumerateMain<Traits, std::tuple_element_t<0, Traits::Patterns>>(argc, argv);");
    else  // note [coset spaces] in runtime/include/pz/enumerate/coset_space.hpp
        w.line("    return pz::enumerate::enumerateCosetMain<Traits>(argc, argv);");
    w.line("}");
    return w.str();
}

}  // namespace pz::codegen
