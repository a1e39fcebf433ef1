// The canonical automaton (note [canonical sequences]) as a table in Traits.
#include "compiler/codegen/perm/sections.hpp"

namespace pz::codegen::perm {

void emitCanonTable(CodeWriter& w, const SolverModel& m) {
    const int moves = static_cast<int>(m.canon.searchMoves.size());
    w.line("// Canonical automaton (note [canonical sequences]): next state, -1 = pruned.");
    w.set("NC", std::to_string(m.canon.next.size()));
    w.set("CANON_TYPE", m.canon.next.size() <= 127 ? "int8_t" : m.canon.next.size() <= 32767 ? "int16_t" : "int32_t");
    w.line("static constexpr int kCanonStates = {{NC}};");
    w.line("static constexpr {{CANON_TYPE}} kCanonNext[{{NC}}][{{MOVES}}] = {");
    w.indent();
    for (size_t s = 0; s < m.canon.next.size(); ++s) {
        std::string row;
        for (int i = 0; i < moves; ++i) row += (i ? ", " : "") + std::to_string(m.canon.next[s][i]);
        w.set("ROW", "{" + row + "}");
        w.set("S", std::to_string(s));
        w.line("{{ROW}},  // state {{S}}");
    }
    w.dedent();
    w.line("};");
}

}  // namespace pz::codegen::perm
