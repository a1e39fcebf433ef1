#include "compiler/codegen/solver_model.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/default_patterns.hpp"
#include "compiler/codegen/code_writer.hpp"
#include "compiler/codegen/content_hash.hpp"
#include "compiler/ir/element.hpp"

namespace pz::codegen {

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

std::string shiftExpr(const std::string& x, const ShiftTerm& t) {
    std::string shifted = t.shift == 0 ? x
                          : t.shift > 0 ? "(" + x + " << " + std::to_string(t.shift) + ")"
                                        : "(" + x + " >> " + std::to_string(-t.shift) + ")";
    return "(" + shifted + " & " + hex64(t.mask) + ")";
}

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

// ---- orbits in byte or 16-bit lanes (state_layout.hpp, pz/lanes.hpp) ----

// The words of lane fields (their WordKernels are empty: a lane kernel moves them).
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

// "uint8_t, 32" (lane type, lanes) of a lane orbit, for the pz::*Lanes templates.
std::string laneArgs(const analysis::OrbitLayout& l) { return l.laneType() + ", " + std::to_string(l.lanes()); }

// The placeholders every lane-orbit statement uses: lane type and count,
// permutation and orientation word offsets, orientation modulus.
void setLaneOrbit(CodeWriter& w, const analysis::OrbitLayout& l) {
    w.set("ARGS", laneArgs(l));
    w.set("PW", std::to_string(l.permWord));
    w.set("OW", std::to_string(l.oriWord));
    w.set("M", std::to_string(l.orient));
}

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
        w.line("pz::permuteLanes<{{ARGS}}>(&s.w[{{PW}}], kLaneSrc{{K}}[{{ROWX}}], &r.w[{{PW}}]);");
        if (l.oriWord >= 0) {
            w.line("pz::permuteLanes<{{ARGS}}>(&s.w[{{OW}}], kLaneSrc{{K}}[{{ROWX}}], &r.w[{{OW}}]);");
            if (!lk || lk->twists()) w.line("pz::addModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}], kLaneTwist{{K}}[{{ROWX}}]);");
        }
    }
}

// r = a * b (mirrored: b reverses the orientations a carries) on the lane orbits.
void emitLaneCompose(CodeWriter& w, const analysis::StateLayout& layout, bool mirrored) {
    for (const auto& l : layout.orbits) {
        if (l.nibble()) continue;
        setLaneOrbit(w, l);
        w.line("pz::permuteLanes<{{ARGS}}>(&a.w[{{PW}}], &b.w[{{PW}}], &r.w[{{PW}}]);");
        if (l.oriWord >= 0) {
            w.line("pz::permuteLanes<{{ARGS}}>(&a.w[{{OW}}], &b.w[{{PW}}], &r.w[{{OW}}]);");
            if (mirrored) w.line("pz::negModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}]);");
            w.line("pz::addModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}], &b.w[{{OW}}]);");
        }
    }
}

// r = a^-1 on the lane orbits.
void emitLaneInverse(CodeWriter& w, const analysis::StateLayout& layout) {
    for (const auto& l : layout.orbits) {
        if (l.nibble()) continue;
        setLaneOrbit(w, l);
        w.line("pz::invertLanes<{{ARGS}}>(&a.w[{{PW}}], &r.w[{{PW}}]);");
        if (l.oriWord >= 0) {
            w.line("pz::permuteLanes<{{ARGS}}>(&a.w[{{OW}}], &r.w[{{PW}}], &r.w[{{OW}}]);");
            w.line("pz::negModLanes<{{ARGS}}, {{M}}>(&r.w[{{OW}}]);");
        }
    }
}

// A lane kernel for `pzc inspect`: the cycles of the lanes and the deltas.
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

std::string stateLiteral(const std::vector<uint64_t>& w) {
    std::string s = "State{{";
    for (size_t i = 0; i < w.size(); ++i) s += (i ? ", " : "") + hex64(w[i]);
    return s + "}}";
}

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

// The generated type of one pattern part (coord.hpp): labelled parts are on
// 4-bit lanes (computeCoordinates refuses the others).
std::string partType(const analysis::CoordinatePart& part, const analysis::OrbitLayout& pl) {
    char tracked[24];
    if (part.labelled) {
        std::snprintf(tracked, sizeof tracked, "0x%04X", part.trackedLabels);
        return "pz::LabelCoordinate<" + std::to_string(part.n) + ", " + hex64(part.solvedLanes()) + "ULL, " + tracked +
               ", " + (part.ordered ? "true" : "false") + ", " + std::to_string(part.oriMod) + ">";
    }
    if (pl.nibble())
        std::snprintf(tracked, sizeof tracked, "0x%04X", static_cast<unsigned>(part.tracked));
    else
        std::snprintf(tracked, sizeof tracked, "0x%llXULL", static_cast<unsigned long long>(part.tracked));
    const std::string args = std::to_string(part.n) + ", " + tracked + ", " + (part.ordered ? "true" : "false") + ", " +
                             (part.positions ? "true" : "false") + ", " + std::to_string(part.oriMod);
    if (pl.nibble()) return "pz::PieceCoordinate<" + args + ">";
    return "pz::BytePieceCoordinate<" + std::to_string(pl.lanes()) + ", " + args + ">";
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
    if (m.canon.searchMoves.size() > 64) {
        diags.error(puzzle.file, {}, "more than 64 moves in the metric are not supported");
        return false;
    }

    // The searched patterns: those of the first optimal solver, else all.
    ir::Puzzle searched = puzzle;
    for (const auto& s : puzzle.solvers)
        if (s.kind == ir::Solver::Kind::Optimal) {
            searched.patterns.clear();
            for (int i : s.patterns) searched.patterns.push_back(puzzle.patterns[i]);
            break;
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
        m.allPermutationsReachable = unoriented && groups.groupOrder() == all;
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
            def << "\n";
        }
        m.patternHashes.push_back(contentHash(def.str() + kernelText));
    }
    limitForIdenticalPieces(m);
    return true;
}

std::string emitTraitsHeader(const SolverModel& m, const std::string& source) {
    const ir::Puzzle& p = *m.puzzle;
    const int W = m.layout.words;
    const int moves = static_cast<int>(m.canon.searchMoves.size());
    CodeWriter w;
    w.set("SOURCE", commentText(source));
    w.set("NS", m.identifier);
    w.set("W", std::to_string(W));
    w.set("MOVES", std::to_string(moves));
    w.line("// generated by pzc from {{SOURCE}} — do not edit");
    w.line("// Regenerate with scripts/regenerate.sh; inspect with `pzc inspect {{SOURCE}}`.");
    w.line("#pragma once");
    w.line();
    w.line("#include <array>");
    w.line("#include <cstdint>");
    w.line("#include <tuple>");
    w.line();
    w.line("#include \"pz/coord.hpp\"");
    if (!m.layout.allNibble()) {
        w.line("#include \"pz/lane_coord.hpp\"");
        w.line("#include \"pz/lanes.hpp\"");
    }
    w.line("#include \"pz/solver_main.hpp\"");
    w.line("#include \"pz/state.hpp\"");
    w.line();
    w.line("namespace pzgen::{{NS}} {");
    w.line();
    w.line("static_assert(pz::kRuntimeAbi == 1, \"generated for runtime ABI 1: run scripts/regenerate.sh\");");
    w.line();
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
    w.line();

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

    w.section("group operations");
    w.line("// ---- group operations, lane-parallel (pshufb where available) ----");
    w.line("inline State compose(const State& a, const State& b) {");
    w.indent();
    w.line("State r;");
    emitLaneCompose(w, m.layout, false);
    for (const auto& l : m.layout.orbits) {
        if (!l.nibble()) continue;
        w.set("PW", std::to_string(l.permWord));
        w.set("N", std::to_string(l.size));
        w.line("r.w[{{PW}}] = pz::gatherLanes(a.w[{{PW}}], b.w[{{PW}}], {{N}});");
        if (l.oriWord >= 0) {
            w.set("OW", std::to_string(l.oriWord));
            w.set("M", std::to_string(l.orient));
            w.line("r.w[{{OW}}] = pz::addModLanes<{{M}}>(pz::gatherLanes(a.w[{{OW}}], b.w[{{PW}}], {{N}}), b.w[{{OW}}]);");
        }
    }
    w.line("return r;");
    w.dedent();
    w.line("}");
    w.line("inline State inverse(const State& a) {");
    w.indent();
    w.line("State r;");
    emitLaneInverse(w, m.layout);
    for (const auto& l : m.layout.orbits) {
        if (!l.nibble()) continue;
        w.set("PW", std::to_string(l.permWord));
        w.set("N", std::to_string(l.size));
        w.line("r.w[{{PW}}] = pz::inverseLanes(a.w[{{PW}}], {{N}});");
        if (l.oriWord >= 0) {
            w.set("OW", std::to_string(l.oriWord));
            w.set("M", std::to_string(l.orient));
            w.line("r.w[{{OW}}] = pz::negModLanes<{{M}}>(pz::gatherLanes(a.w[{{OW}}], r.w[{{PW}}], {{N}}));");
        }
    }
    w.line("return r;");
    w.dedent();
    w.line("}");
    w.line();

    bool oriented = false;
    for (const auto& l : m.layout.orbits) oriented = oriented || l.oriWord >= 0;
    if (oriented) {
        w.line("// a then b for a mirror b: b reverses the orientations a carries.");
        w.line("inline State composeMirrored(const State& a, const State& b) {");
        w.indent();
        w.line("State r;");
        emitLaneCompose(w, m.layout, true);
        for (const auto& l : m.layout.orbits) {
            if (!l.nibble()) continue;
            w.set("PW", std::to_string(l.permWord));
            w.set("N", std::to_string(l.size));
            w.line("r.w[{{PW}}] = pz::gatherLanes(a.w[{{PW}}], b.w[{{PW}}], {{N}});");
            if (l.oriWord >= 0) {
                w.set("OW", std::to_string(l.oriWord));
                w.set("M", std::to_string(l.orient));
                w.line("r.w[{{OW}}] = pz::addModLanes<{{M}}>(pz::negModLanes<{{M}}>(pz::gatherLanes(a.w[{{OW}}], b.w[{{PW}}], {{N}})), b.w[{{OW}}]);");
            }
        }
        w.line("return r;");
        w.dedent();
        w.line("}");
        std::string flags;
        for (size_t k = 0; k < m.symmetries.size(); ++k) flags += (k ? ", " : "") + std::string(m.symmetries[k].mirror ? "true" : "false");
        w.set("FLAGS", "{" + flags + "}");
        w.set("NSYM", std::to_string(m.symmetries.size()));
        w.line("inline constexpr bool kSymmetryMirror[{{NSYM}}] = {{FLAGS}};");
        w.line();
    }

    w.section("coordinates");
    w.line("// ---- pattern coordinates (see runtime/include/pz/coord.hpp) ----");
    std::vector<std::string> patternTypes;
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
            w.set("PART", partType(part, m.layout.orbits[part.orbit]));
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
            w.set("PW", std::to_string(l.permWord));
            if (!l.nibble()) {
                w.set("ORI", l.oriWord >= 0 ? "&s.w[" + std::to_string(l.oriWord) + "]" : "nullptr");
                w.line("r = r * Part{{I}}::kSize + Part{{I}}::rank(&s.w[{{PW}}], {{ORI}});");
                continue;
            }
            w.set("ORI", l.oriWord >= 0 ? "s.w[" + std::to_string(l.oriWord) + "]" : "0");
            w.line("r = r * Part{{I}}::kSize + Part{{I}}::rank(s.w[{{PW}}], {{ORI}});");
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
        for (size_t pi = c.parts.size(); pi-- > 0;) {
            const auto& l = m.layout.orbits[c.parts[pi].orbit];
            w.set("I", std::to_string(pi));
            w.set("PW", std::to_string(l.permWord));
            if (!l.nibble()) {
                w.set("ORI", l.oriWord >= 0 ? "&s.w[" + std::to_string(l.oriWord) + "]" : "nullptr");
                w.line("Part{{I}}::unrank(r % Part{{I}}::kSize, &s.w[{{PW}}], {{ORI}});");
            } else {
                w.set("ORI", l.oriWord >= 0 ? "s.w[" + std::to_string(l.oriWord) + "]" : "unusedOri");
                w.line("Part{{I}}::unrank(r % Part{{I}}::kSize, s.w[{{PW}}], {{ORI}});");
            }
            w.line("r /= Part{{I}}::kSize;");
        }
        w.line("(void)unusedOri;");
        w.line("return s;");
        w.dedent();
        w.line("}");
        w.dedent();
        w.line("};");
    }
    w.line();

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
    w.set("INVLOOK", m.inverseLookups ? "true" : "false");
    w.set("ALLPERM", m.allPermutationsReachable ? "true" : "false");
    w.line("// Every metric move's inverse is a metric move: dist(s^-1) = dist(s).");
    w.line("static constexpr bool kInverseLookups = {{INVLOOK}};");
    w.line("static constexpr bool kAllPermutationsReachable = {{ALLPERM}};");
    w.set("NSYM", std::to_string(m.symmetries.size()));
    w.line("static constexpr int kSymmetries = {{NSYM}};");
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
    w.line();
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
    std::string tuple;
    for (size_t i = 0; i < patternTypes.size(); ++i) tuple += (i ? ", " : "") + patternTypes[i];
    w.set("TUPLE", tuple);
    w.line("using Patterns = std::tuple<{{TUPLE}}>;");
    w.line();
    w.line("static constexpr State solved() { return kSolved; }");
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
        int modulus = m.kernels.empty() ? 1 : m.kernels[0].words[j].modulus;
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
    if (oriented) {
        w.line("    State t = pzgen::{{NS}}::compose(kSymmetryInverseStates[sym], s);");
        w.line("    return kSymmetryMirror[sym] ? composeMirrored(t, kSymmetryStates[sym]) : pzgen::{{NS}}::compose(t, kSymmetryStates[sym]);");
    } else {
        w.line("    return pzgen::{{NS}}::compose(pzgen::{{NS}}::compose(kSymmetryInverseStates[sym], s), kSymmetryStates[sym]);");
    }
    w.line("}");
    w.dedent();
    w.line("};");
    w.line();
    w.line("}  // namespace pzgen::{{NS}}");
    return w.str();
}

std::string emitSolverMain(const SolverModel& m, const std::string& include, const std::string& source) {
    CodeWriter w;
    w.set("SOURCE", commentText(source));
    w.set("NS", m.identifier);
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

std::string describeModel(const SolverModel& m) {
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
    return s.str();
}

}  // namespace pz::codegen
