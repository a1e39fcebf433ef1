// The move kernels: one function per search move (shift-and-mask terms on
// 4-bit lanes, a permute on byte and 16-bit lanes), and the same kernels as
// data for dispatch on a move index (Traits::applyMove).
#include <algorithm>
#include <set>

#include "compiler/codegen/perm/sections.hpp"

namespace pz::codegen::perm {

namespace {

// The kernel function of each search move: move_ + the name as an
// identifier, made unique ("R'" and "Rp" both map to move_Rp).
std::vector<std::string> moveFunctionNames(const ir::Puzzle& p, const std::vector<int>& searchMoves) {
    std::vector<std::string> fns;
    std::set<std::string> used;
    for (size_t i = 0; i < searchMoves.size(); ++i) {
        std::string fn = "move_" + identifierPart(p.moves[searchMoves[i]].name);
        if (!used.insert(fn).second) {
            fn += "_" + std::to_string(i);
            while (!used.insert(fn).second) fn += "_";
        }
        fns.push_back(fn);
    }
    return fns;
}

// The moves rounded up to whole vectors of 8 words (note [all moves at once]).
int paddedMoves(int moves) { return (moves + 7) / 8 * 8; }
// Word j's orientation modulus in the move kernels (1: none, a permutation word).
int wordModulus(const SolverModel& m, int j) { return m.kernels.empty() ? 1 : std::max(m.kernels[0].words[static_cast<size_t>(j)].modulus, 1); }
// Whether the traits apply every move at once: states of 4-bit lanes only
// (lane words move by permutes), and some move to apply.
bool hasAllMoves(const SolverModel& m) { return m.layout.allNibble() && !m.canon.searchMoves.empty(); }

std::string shiftExpr(const std::string& x, const ShiftTerm& t) {
    std::string shifted = t.shift == 0 ? x
                          : t.shift > 0 ? "(" + x + " << " + std::to_string(t.shift) + ")"
                                        : "(" + x + " >> " + std::to_string(-t.shift) + ")";
    return "(" + shifted + " & " + hex64(t.mask) + ")";
}
// ---- orbits in byte or 16-bit lanes (state_layout.hpp, pz/lanes.hpp) ----

// "uint8_t, 32" (lane type, lanes) of a lane orbit, for the pz::*Lanes templates.
std::string laneArgs(const analysis::OrbitLayout& l) { return l.laneType() + ", " + std::to_string(l.lanes()); }

// Per lane orbit k, the table of every search move's source lanes
// kLaneSrc<k>[move][lane], and of orientation deltas kLaneTwist<k>.
void emitLaneTables(CodeWriter& w, const SolverModel& m) {
    const ir::Puzzle& p = *m.puzzle;
    const int moves = static_cast<int>(m.kernels.size());
    for (size_t k = 0; k < m.layout.orbits.size(); ++k) {
        const auto& l = m.layout.orbits[k];
        if (l.nibble()) continue;
        int laneIndex = 0;
        for (size_t j = 0; j < k; ++j) laneIndex += m.layout.orbits[j].nibble() ? 0 : 1;
        auto table = [&](const std::string& name, bool twist) {
            w.set("NAME", name + std::to_string(k));
            w.set("LT", l.laneType());
            w.set("NL", std::to_string(l.lanes()));
            w.set("MOVES", std::to_string(std::max(moves, 1)));
            w.line("alignas(64) inline constexpr {{LT}} {{NAME}}[{{MOVES}}][{{NL}}] = {");
            w.indent();
            for (int i = 0; i < moves; ++i) {
                const auto& lk = m.kernels[i].lanes[laneIndex];
                std::string row;
                for (int q = 0; q < l.lanes(); ++q) row += (q ? ", " : "") + std::to_string(twist ? lk.twist[q] : lk.src[q]);
                w.set("ROW", "{" + row + "}");
                w.set("MOVE", commentText(p.moves[m.canon.searchMoves[i]].name));
                w.line("{{ROW}},  // {{MOVE}}");
            }
            if (moves == 0) w.line("{},");
            w.dedent();
            w.line("};");
        };
        w.set("ORBIT", commentText(p.orbits[l.orbit].name));
        w.line("// orbit {{ORBIT}}: each move's source lanes (new[p] = old[src[p]])" +
               std::string(l.oriWord >= 0 ? " and orientation deltas" : ""));
        table("kLaneSrc", false);
        if (l.oriWord >= 0) table("kLaneTwist", true);
    }
}

// The statements applying row `row` (a C++ expression) of the lane tables to
// s, writing r; `identity[k]` skips the permutes of a lane orbit a named
// kernel does not move (a copy of its words).
void emitLaneKernel(CodeWriter& w, const SolverModel& m, const std::string& row, const MoveKernel* named) {
    int laneIndex = 0;
    for (size_t k = 0; k < m.layout.orbits.size(); ++k) {
        const auto& l = m.layout.orbits[k];
        if (l.nibble()) continue;
        const LaneKernel* lk = named ? &named->lanes[laneIndex] : nullptr;
        ++laneIndex;
        w.set("K", std::to_string(k));
        setLaneOrbit(w, l);
        w.set("ROWX", row);
        w.set("FW", std::to_string(l.fieldWords));
        if (lk && !lk->moves()) {
            w.line("for (int j = 0; j < {{FW}}; ++j) r.w[{{PW}} + j] = s.w[{{PW}} + j];");
            if (l.oriWord >= 0) w.line("for (int j = 0; j < {{FW}}; ++j) r.w[{{OW}} + j] = s.w[{{OW}} + j];");
            continue;
        }
        // A named kernel whose byte lanes stay in their 16-byte blocks (a
        // row of a 5x5 board in one block) is one in-block pshufb
        // (pz::permuteLanesInBlocks): a third of vpermb's latency.
        bool inBlocks = lk && l.laneType() == "uint8_t" && l.lanes() > 16;
        for (int q = 0; inBlocks && q < l.lanes(); ++q) inBlocks = lk->src[q] / 16 == q / 16;
        w.set("PERMUTE", inBlocks ? "permuteLanesInBlocks" : "permuteLanes");
        w.line("pz::{{PERMUTE}}<{{ARGS}}>(&s.w[{{PW}}], kLaneSrc{{K}}[{{ROWX}}], &r.w[{{PW}}]);");
        if (l.oriWord >= 0) {
            w.line("pz::{{PERMUTE}}<{{ARGS}}>(&s.w[{{OW}}], kLaneSrc{{K}}[{{ROWX}}], &r.w[{{OW}}]);");
            if (!lk || lk->twists()) w.line("pz::addModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}], kLaneTwist{{K}}[{{ROWX}}]);");
        }
    }
}

size_t maxWordTerms(const SolverModel& m) {
    size_t maxTerms = 1;
    for (const auto& k : m.kernels)
        for (const auto& wk : k.words) maxTerms = std::max(maxTerms, wk.terms.size());
    return maxTerms;
}

}  // namespace

std::string wordKernelExpr(const std::string& x, const WordKernel& k) {
    std::string e;
    if (k.fieldBit >= 0) {
        e = "pz::rotlField16<" + std::to_string(k.fieldBit) + ", " + std::to_string(k.fieldRotate) + ">(" + x + ")";
    } else {
        // One term per rotation; a lone shift keeps its shift form.
        for (const auto& [rotation, mask] : k.rotations()) {
            std::vector<ShiftTerm> parts;
            for (const auto& t : k.terms)
                if (((t.shift % 64) + 64) % 64 == rotation) parts.push_back(t);
            std::string term = parts.size() == 1 ? shiftExpr(x, parts[0])
                                                 : "(pz::rotl(" + x + ", " + std::to_string(rotation) + ") & " + hex64(mask) + ")";
            e += (e.empty() ? "" : " | ") + term;
        }
    }
    if (e.empty()) e = "0";
    if (k.modulus > 1 && k.add != 0) e = "pz::addModLanes<" + std::to_string(k.modulus) + ">(" + e + ", " + hex64(k.add) + ")";
    return e;
}

std::vector<bool> laneFieldWords(const analysis::StateLayout& layout) {
    std::vector<bool> lane(layout.words, false);
    for (const auto& l : layout.orbits)
        if (!l.nibble())
            for (int j = 0; j < l.fieldWords; ++j) {
                lane[l.permWord + j] = true;
                if (l.oriWord >= 0) lane[l.oriWord + j] = true;
            }
    return lane;
}

void setLaneOrbit(CodeWriter& w, const analysis::OrbitLayout& l) {
    w.set("ARGS", laneArgs(l));
    w.set("PW", std::to_string(l.permWord));
    w.set("OW", std::to_string(l.oriWord));
    w.set("M", std::to_string(l.orient));
}

std::string describeLaneKernel(const LaneKernel& k, const analysis::OrbitLayout& l) {
    std::string s = "permute " + std::to_string(l.lanes()) + " " + std::to_string(l.laneBits) + "-bit lanes:";
    std::vector<bool> seen(k.src.size(), false);
    bool any = false;
    for (size_t p = 0; p < k.src.size(); ++p) {
        if (seen[p] || k.src[p] == static_cast<int>(p)) continue;
        // new[p] = old[src[p]]: the piece at src[p] goes to p.
        std::vector<int> cycle;
        for (int q = static_cast<int>(p); !seen[q]; q = k.src[q]) {
            seen[q] = true;
            cycle.push_back(q);
        }
        // cycle = p, src[p], ...: the piece goes from each to the one before.
        s += " (" + std::to_string(cycle[0]);
        for (size_t i = cycle.size(); i-- > 1;) s += " " + std::to_string(cycle[i]);
        s += ")";
        any = true;
    }
    if (!any) s += " identity";
    if (k.twists()) {
        s += "; orientations + {";
        for (int p = 0; p < l.size; ++p) s += (p ? " " : "") + std::to_string(k.twist[p]);
        s += "} mod " + std::to_string(l.orient);
    }
    return s;
}

void emitMoveKernels(CodeWriter& w, const SolverModel& m) {
    const ir::Puzzle& p = *m.puzzle;
    const int W = m.layout.words;
    const int moves = static_cast<int>(m.canon.searchMoves.size());
    w.section("move kernels");
    w.line("// ---- move kernels: one shift-and-mask term per lane rotation, or a field rotation ----");
    size_t maxTerms = 1;
    for (const auto& k : m.kernels)
        for (const auto& wk : k.words) maxTerms = std::max(maxTerms, wk.terms.size());
    const std::vector<std::string> moveFns = moveFunctionNames(p, m.canon.searchMoves);
    const std::vector<bool> laneWords = laneFieldWords(m.layout);
    // Lane kernels are not constexpr (they use vector intrinsics).
    w.set("CONSTEXPR", m.layout.allNibble() ? "constexpr " : "");
    if (!m.layout.allNibble()) emitLaneTables(w, m);
    for (int i = 0; i < moves; ++i) {
        const auto& mv = p.moves[m.canon.searchMoves[i]];
        const auto& k = m.kernels[i];
        w.set("MOVE", commentText(mv.name));
        w.set("FN", moveFns[i]);
        w.set("OPS", std::to_string(k.operations()));
        w.line("// {{MOVE}}: {{OPS}} operations");
        w.line("inline {{CONSTEXPR}}State {{FN}}(const State& s) {");
        w.indent();
        w.line("State r;");
        for (int j = 0; j < W; ++j) {
            if (laneWords[j]) continue;
            w.set("J", std::to_string(j));
            w.set("EXPR", wordKernelExpr("s.w[" + std::to_string(j) + "]", k.words[j]));
            w.line("r.w[{{J}}] = {{EXPR}};");
        }
        if (!m.layout.allNibble()) emitLaneKernel(w, m, std::to_string(i), &k);
        w.line("return r;");
        w.dedent();
        w.line("}");
    }
    std::string fns;
    for (int i = 0; i < moves; ++i) fns += (i ? ", " : "") + moveFns[i];
    w.set("FNS", "{" + fns + "}");
    w.line("inline constexpr State (*kMoveKernels[{{MOVES}}])(const State&) = {{FNS}};");
    w.line();
    w.line("// The same kernels as data, for dispatch on a move index without a branch:");
    w.line("// word j of move m = OR over t of rotl(w[j], rot[j][t]) & mask[j][t].");
    w.set("T", std::to_string(maxTerms));
    w.line("struct MoveTerms {");
    w.indent();
    w.line("uint8_t rot[{{W}}][{{T}}];");
    w.line("uint64_t mask[{{W}}][{{T}}];");
    w.line("uint64_t add[{{W}}];");
    w.dedent();
    w.line("};");
    w.line("inline constexpr MoveTerms kMoveTerms[{{MOVES}}] = {");
    w.indent();
    for (int i = 0; i < moves; ++i) {
        std::string rot = "{", mask = "{", add = "{";
        for (int j = 0; j < W; ++j) {
            const auto& wk = m.kernels[i].words[j];
            rot += j ? ", {" : "{";
            mask += j ? ", {" : "{";
            for (size_t t = 0; t < maxTerms; ++t) {
                int r = t < wk.terms.size() ? ((wk.terms[t].shift % 64) + 64) % 64 : 0;
                uint64_t mk = t < wk.terms.size() ? wk.terms[t].mask : 0;
                rot += (t ? ", " : "") + std::to_string(r);
                mask += (t ? ", " : "") + hex64(mk);
            }
            rot += "}";
            mask += "}";
            add += (j ? ", " : "") + hex64(wk.add);
        }
        w.set("ROW", "{" + rot + "}, " + mask + "}, " + add + "}}");
        w.set("MOVE", commentText(p.moves[m.canon.searchMoves[i]].name));
        w.line("{{ROW}},  // {{MOVE}}");
    }
    w.dedent();
    w.line("};");
    if (hasAllMoves(m)) {
        w.set("MP", std::to_string(paddedMoves(moves)));
        w.line("// The same by word, term and move: every move at once (note [all moves at once] in pz/state.hpp).");
        w.line("inline constexpr auto kMoveTermsByMove = pz::termsByMove<{{W}}, {{T}}, {{MP}}>(kMoveTerms);");
    }
    w.line();
}

void emitApplyMove(CodeWriter& w, const SolverModel& m) {
    const int W = m.layout.words;
    const size_t maxTerms = maxWordTerms(m);
    const std::vector<bool> laneWords = laneFieldWords(m.layout);
    w.line("static inline State applyMove(const State& s, int m) {");
    w.indent();
    w.line("const MoveTerms& k = kMoveTerms[m];");
    w.line("State r;");
    for (int j = 0; j < W; ++j) {
        if (laneWords[j]) continue;
        std::string e;
        for (size_t t = 0; t < maxTerms; ++t) {
            std::string tj = "[" + std::to_string(j) + "][" + std::to_string(t) + "]";
            e += (t ? " | " : "") + std::string("(pz::rotl(s.w[") + std::to_string(j) + "], k.rot" + tj + ") & k.mask" + tj + ")";
        }
        const int modulus = wordModulus(m, j);
        if (modulus > 1) e = "pz::addModLanes<" + std::to_string(modulus) + ">(" + e + ", k.add[" + std::to_string(j) + "])";
        w.set("J", std::to_string(j));
        w.set("EXPR", e);
        w.line("r.w[{{J}}] = {{EXPR}};");
    }
    if (!m.layout.allNibble()) emitLaneKernel(w, m, "m", nullptr);
    w.line("return r;");
    w.dedent();
    w.line("}");
    w.line("static inline State applyNamedKernel(const State& s, int m) { return kMoveKernels[m](s); }");
    if (!hasAllMoves(m)) return;
    // note [all moves at once] in pz/state.hpp: the search's children in one pass.
    w.set("W", std::to_string(W));
    w.set("MP", std::to_string(paddedMoves(static_cast<int>(m.canon.searchMoves.size()))));
    w.line("// Every search move applied to s: out.w[j][m] is word j of s * m (note [all moves at once]).");
    w.line("using AllMoves = pz::AllMoves<{{W}}, {{MP}}>;");
    w.line("static inline void applyAllMoves(const State& s, AllMoves& out) {");
    w.indent();
    w.line("pz::applyTermsToAll(s.w.data(), kMoveTermsByMove, out);");
    for (int j = 0; j < W; ++j) {
        const int modulus = wordModulus(m, j);
        if (modulus <= 1) continue;
        w.set("J", std::to_string(j));
        w.set("MOD", std::to_string(modulus));
        w.line("for (int m = 0; m < {{MP}}; ++m) out.w[{{J}}][m] = pz::addModLanes<{{MOD}}>(out.w[{{J}}][m], kMoveTermsByMove.add[{{J}}][m]);");
    }
    w.dedent();
    w.line("}");
    // note [byte-lane moves] in pz/state.hpp: one byte permute a child.
    if (W > 4) return;
    std::string moduli;
    for (int j = 0; j < W; ++j) {
        const int modulus = wordModulus(m, j);
        moduli += (j ? ", " : "") + std::to_string(modulus);
    }
    w.set("MODULI", "{" + moduli + "}");
    w.line("// The same as byte permutes, computed for the allowed children only (note [byte-lane");
    w.line("// moves]); the words' orientation moduli {{MODULI}} (1: a permutation word).");
    w.line("static constexpr auto kByteLaneMoves = pz::byteLaneMoves(kMoveTermsByMove, std::array<int, {{W}}>{{MODULI}});");
}

}  // namespace pz::codegen::perm
