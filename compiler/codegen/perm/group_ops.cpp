// The group operations on states: compose, inverse and, when orbits carry
// orientations, composeMirrored (b a mirror: it reverses the orientations a
// carries). One emitter writes all three from a table of statements per
// operation: byte/16-bit lane orbits first (pz/lanes.hpp), then 4-bit lane
// orbits (pshufb where available).
#include "compiler/codegen/perm/sections.hpp"

namespace pz::codegen::perm {

namespace {

// The statements of one operation: for lane orbits (placeholders of
// setLaneOrbit) and for 4-bit lane orbits (PW, N; OW, M when oriented),
// first for the permutation word, then for the orientation word.
struct GroupOperation {
    const char* signature;
    std::vector<const char*> lanePerm, laneOri, nibblePerm, nibbleOri;
};

const GroupOperation kCompose{
    "inline State compose(const State& a, const State& b) {",
    {"pz::permuteLanes<{{ARGS}}>(&a.w[{{PW}}], &b.w[{{PW}}], &r.w[{{PW}}]);"},
    {"pz::permuteLanes<{{ARGS}}>(&a.w[{{OW}}], &b.w[{{PW}}], &r.w[{{OW}}]);",
     "pz::addModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}], &b.w[{{OW}}]);"},
    {"r.w[{{PW}}] = pz::gatherLanes(a.w[{{PW}}], b.w[{{PW}}], {{N}});"},
    {"r.w[{{OW}}] = pz::addModLanes<{{M}}>(pz::gatherLanes(a.w[{{OW}}], b.w[{{PW}}], {{N}}), b.w[{{OW}}]);"},
};

const GroupOperation kInverse{
    "inline State inverse(const State& a) {",
    {"pz::invertLanes<{{ARGS}}>(&a.w[{{PW}}], &r.w[{{PW}}]);"},
    {"pz::permuteLanes<{{ARGS}}>(&a.w[{{OW}}], &r.w[{{PW}}], &r.w[{{OW}}]);",
     "pz::negModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}]);"},
    {"r.w[{{PW}}] = pz::inverseLanes(a.w[{{PW}}], {{N}});"},
    {"r.w[{{OW}}] = pz::negModLanes<{{M}}>(pz::gatherLanes(a.w[{{OW}}], r.w[{{PW}}], {{N}}));"},
};

const GroupOperation kComposeMirrored{
    "inline State composeMirrored(const State& a, const State& b) {",
    {"pz::permuteLanes<{{ARGS}}>(&a.w[{{PW}}], &b.w[{{PW}}], &r.w[{{PW}}]);"},
    {"pz::permuteLanes<{{ARGS}}>(&a.w[{{OW}}], &b.w[{{PW}}], &r.w[{{OW}}]);",
     "pz::negModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}]);",
     "pz::addModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}], &b.w[{{OW}}]);"},
    {"r.w[{{PW}}] = pz::gatherLanes(a.w[{{PW}}], b.w[{{PW}}], {{N}});"},
    {"r.w[{{OW}}] = pz::addModLanes<{{M}}>(pz::negModLanes<{{M}}>(pz::gatherLanes(a.w[{{OW}}], b.w[{{PW}}], {{N}})), b.w[{{OW}}]);"},
};

void emitGroupOperation(CodeWriter& w, const analysis::StateLayout& layout, const GroupOperation& op) {
    w.line(op.signature);
    w.indent();
    w.line("State r;");
    for (const auto& l : layout.orbits) {
        if (l.nibble()) continue;
        setLaneOrbit(w, l);
        for (const char* s : op.lanePerm) w.line(s);
        if (l.oriWord >= 0)
            for (const char* s : op.laneOri) w.line(s);
    }
    for (const auto& l : layout.orbits) {
        if (!l.nibble()) continue;
        w.set("PW", std::to_string(l.permWord));
        w.set("N", std::to_string(l.size));
        for (const char* s : op.nibblePerm) w.line(s);
        if (l.oriWord >= 0) {
            w.set("OW", std::to_string(l.oriWord));
            w.set("M", std::to_string(l.orient));
            for (const char* s : op.nibbleOri) w.line(s);
        }
    }
    w.line("return r;");
    w.dedent();
    w.line("}");
}

}  // namespace

bool hasOrientations(const analysis::StateLayout& layout) {
    bool oriented = false;
    for (const auto& l : layout.orbits) oriented = oriented || l.oriWord >= 0;
    return oriented;
}

void emitConjugateOrbits(CodeWriter& w, const analysis::StateLayout& layout) {
    w.line("// S^-1 * s * S on the orbits in the mask Orbits only; the other words keep s's.");
    w.line("template <unsigned Orbits>");
    w.line("static inline State conjugateOrbits(const State& s, int sym) {");
    w.indent();
    bool nibbles = true;
    for (const auto& l : layout.orbits) nibbles = nibbles && l.nibble();
    if (!nibbles) {
        // Byte-lane orbits conjugate through the whole-state operations.
        w.line("return conjugate(s, sym);");
    } else {
        w.line("const State& a = kSymmetryInverseStates[sym];");
        w.line("const State& b = kSymmetryStates[sym];");
        w.line("State r = s;");
        for (size_t k = 0; k < layout.orbits.size(); ++k) {
            const auto& l = layout.orbits[k];
            w.set("K", std::to_string(k));
            w.set("PW", std::to_string(l.permWord));
            w.set("N", std::to_string(l.size));
            w.line("if constexpr ((Orbits >> {{K}} & 1u) != 0) {");
            w.indent();
            if (l.oriWord >= 0) {
                w.set("OW", std::to_string(l.oriWord));
                w.set("M", std::to_string(l.orient));
                w.line("const uint64_t o = pz::addModLanes<{{M}}>(pz::gatherLanes(a.w[{{OW}}], s.w[{{PW}}], {{N}}), s.w[{{OW}}]);");
                w.line("const uint64_t g = pz::gatherLanes(o, b.w[{{PW}}], {{N}});");
                w.line("r.w[{{OW}}] = pz::addModLanes<{{M}}>(kSymmetryMirror[sym] ? pz::negModLanes<{{M}}>(g) : g, b.w[{{OW}}]);");
            }
            w.line("r.w[{{PW}}] = pz::gatherLanes(pz::gatherLanes(a.w[{{PW}}], s.w[{{PW}}], {{N}}), b.w[{{PW}}], {{N}});");
            w.dedent();
            w.line("}");
        }
        w.line("return r;");
    }
    w.dedent();
    w.line("}");
}

void emitGroupOperations(CodeWriter& w, const SolverModel& m) {
    w.section("group operations");
    w.line("// ---- group operations, lane-parallel (pshufb where available) ----");
    emitGroupOperation(w, m.layout, kCompose);
    emitGroupOperation(w, m.layout, kInverse);
    w.line();

    if (hasOrientations(m.layout)) {
        w.line("// a then b for a mirror b: b reverses the orientations a carries.");
        emitGroupOperation(w, m.layout, kComposeMirrored);
        std::string flags;
        for (size_t k = 0; k < m.symmetries.size(); ++k) flags += (k ? ", " : "") + std::string(m.symmetries[k].mirror ? "true" : "false");
        w.set("FLAGS", "{" + flags + "}");
        w.set("NSYM", std::to_string(m.symmetries.size()));
        w.line("inline constexpr bool kSymmetryMirror[{{NSYM}}] = {{FLAGS}};");
        w.line();
    }
}

}  // namespace pz::codegen::perm
