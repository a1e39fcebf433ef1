// The state type, the layout of the orbits in its words, and tables of
// elements as states (move inverses, symmetries).
#include "compiler/codegen/perm/sections.hpp"
#include "compiler/ir/element.hpp"

namespace pz::codegen::perm {

std::string stateLiteral(const std::vector<uint64_t>& w) {
    std::string s = "State{{";
    for (size_t i = 0; i < w.size(); ++i) s += (i ? ", " : "") + hex64(w[i]);
    return s + "}}";
}

void emitLayout(CodeWriter& w, const SolverModel& m) {
    const ir::Puzzle& p = *m.puzzle;
    w.section("layout");
    w.line("using State = pz::State<{{W}}>;");
    for (const auto& l : m.layout.orbits) {
        w.set("ORBIT", commentText(p.orbits[l.orbit].name));
        w.set("N", std::to_string(l.size));
        w.set("PW", std::to_string(l.permWord));
        if (!l.nibble()) {
            w.set("LAST", std::to_string(l.permWord + l.fieldWords - 1));
            w.set("LB", std::to_string(l.laneBits));
            w.set("NL", std::to_string(l.lanes()));
            w.line("// orbit {{ORBIT}}: {{N}} positions; labels in w[{{PW}}..{{LAST}}], {{NL}} {{LB}}-bit lanes (padding lanes fixed)");
        } else {
            w.line("// orbit {{ORBIT}}: {{N}} positions; labels in w[{{PW}}], 4-bit lane p = bits 4p..4p+3");
        }
        if (l.oriWord >= 0) {
            w.set("OW", std::to_string(l.oriWord));
            if (!l.nibble()) w.set("OW", std::to_string(l.oriWord) + ".." + std::to_string(l.oriWord + l.fieldWords - 1));
            w.set("M", std::to_string(l.orient));
            w.line("//   orientations mod {{M}} in w[{{OW}}]");
        }
    }
    w.set("SOLVED", stateLiteral(packElement(labelledView(p, ir::identity(p.orbits), m.layout), m.layout)));
    w.line("inline constexpr State kSolved = {{SOLVED}};");
    w.line();
}

void emitElementTables(CodeWriter& w, const SolverModel& m) {
    const ir::Puzzle& p = *m.puzzle;
    w.section("element tables");
    auto stateTable = [&](const std::string& name, const std::vector<ir::Element>& elems, const std::vector<std::string>& labels) {
        w.set("NAME", name);
        w.set("COUNT", std::to_string(elems.size()));
        w.line("inline constexpr State {{NAME}}[{{COUNT}}] = {");
        w.indent();
        for (size_t i = 0; i < elems.size(); ++i) {
            w.set("LIT", stateLiteral(packElement(elems[i], m.layout)));
            w.set("LABEL", commentText(labels[i]));
            w.line("{{LIT}},  // {{LABEL}}");
        }
        w.dedent();
        w.line("};");
    };
    std::vector<ir::Element> moveInverses;
    std::vector<std::string> moveNames;
    for (int mi : m.canon.searchMoves) {
        moveInverses.push_back(ir::inverse(p.moves[mi].effect, p.orbits));
        moveNames.push_back(p.moves[mi].name + "^-1");
    }
    w.line("// Each move's inverse as a state (for tracking the inverse position).");
    stateTable("kMoveInverseStates", moveInverses, moveNames);
    std::vector<ir::Element> symInverses;
    std::vector<std::string> symInvNames;
    for (size_t s = 0; s < m.symmetries.size(); ++s) {
        symInverses.push_back(ir::inverse(m.symmetries[s], p.orbits));
        symInvNames.push_back(m.symmetryNames[s] + " ^-1");
    }
    w.line("// The symmetry group (closure of the declared symmetries) and inverses.");
    stateTable("kSymmetryStates", m.symmetries, m.symmetryNames);
    stateTable("kSymmetryInverseStates", symInverses, symInvNames);
    w.line();
}

}  // namespace pz::codegen::perm
