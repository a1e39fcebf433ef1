// Printers for `pzc convert`: ast::Puzzle -> .pz text and -> YAML text.
// Deterministic (declaration order, fixed layout); parsing the output gives
// back the same AST up to source ranges (tests/roundtrip checks this for
// every shipped puzzle). Comments of the input are not kept.
#include <cctype>
#include <cstdio>
#include <sstream>

#include "dsl/frontend.hpp"

namespace pz {
namespace {

using K = ast::Expr::Kind;

std::string exprText(const ast::Expr& e);

// An operand of a postfix operator (' or ^n).
std::string operandText(const ast::Expr& e, bool underPrime) {
    switch (e.kind) {
        // "R'" would be read back as one name, so an inverted name gets parentheses.
        case K::Ref: return underPrime ? "(" + e.ref.text + ")" : e.ref.text;
        case K::Inverse:
        case K::Power:
        case K::Commutator:
        case K::Conjugate:
        case K::Identity: return exprText(e);
        case K::Sequence: return "(" + exprText(e) + ")";
    }
    return {};
}

std::string exprText(const ast::Expr& e) {
    switch (e.kind) {
        case K::Identity: return "()";
        case K::Ref: return e.ref.text;
        case K::Sequence: {
            std::string out;
            for (size_t i = 0; i < e.items.size(); ++i) {
                const auto& item = e.items[i];
                out += (i ? " " : "") + (item.kind == K::Sequence ? "(" + exprText(item) + ")" : exprText(item));
            }
            return out;
        }
        case K::Inverse: return operandText(e.items.at(0), true) + "'";
        case K::Power: return operandText(e.items.at(0), false) + "^" + e.power.get_str();
        case K::Commutator: return "[" + exprText(e.items.at(0)) + ", " + exprText(e.items.at(1)) + "]";
        case K::Conjugate: return "[" + exprText(e.items.at(0)) + ": " + exprText(e.items.at(1)) + "]";
    }
    return {};
}

std::string positionText(const ast::PositionRef& p) { return p.index ? std::to_string(*p.index) : p.name; }

std::string positionsText(const std::vector<ast::PositionRef>& list) {
    std::string out;
    for (size_t i = 0; i < list.size(); ++i) out += (i ? " " : "") + positionText(list[i]);
    return out;
}

std::string cycleText(const ast::Cycle& c) {
    std::string out = "(";
    for (size_t i = 0; i < c.elements.size(); ++i) {
        const auto& el = c.elements[i];
        out += (i ? " " : "") + positionText(el.position);
        if (el.twist > 0) out += "+" + std::to_string(el.twist);
        if (el.twist < 0) out += std::to_string(el.twist);
    }
    return out + ")";
}

std::string cyclesText(const std::vector<ast::Cycle>& cycles) {
    std::string out;
    for (size_t i = 0; i < cycles.size(); ++i) out += (i ? " " : "") + cycleText(cycles[i]);
    return out;
}

std::string namesText(const std::vector<ast::Name>& names, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) out += (i ? sep : "") + names[i].text;
    return out;
}

// A double-quoted string in both syntaxes (the .pz STRING token and YAML
// accept \" and \\).
std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string bodyPz(const std::vector<ast::OrbitCycles>& cycles, const std::optional<ast::Expr>& expr) {
    if (expr) {
        // A body starting with "name (" reads as cycles; keep expressions expressions.
        std::string text = exprText(*expr);
        if (expr->kind == K::Sequence && expr->items.size() > 1 && expr->items[0].kind == K::Ref &&
            expr->items[1].kind == K::Sequence)
            text = "(" + text + ")";
        return text;
    }
    std::string out;
    for (size_t i = 0; i < cycles.size(); ++i)
        out += (i ? " " : "") + cycles[i].orbit.text + " " + cyclesText(cycles[i].cycles);
    return out;
}

// yaml-cpp reads a plain null/~ as a null node, not a string.
std::string yamlName(const std::string& s) {
    return (s == "null" || s == "Null" || s == "NULL") ? quote(s) : s;
}
std::string yamlNames(const std::vector<ast::Name>& names) {
    std::string out = "[";
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + yamlName(names[i].text);
    return out + "]";
}

const char* motionName(ast::ColourDef::Motion m) {
    return m == ast::ColourDef::Motion::With ? "with" : m == ast::ColourDef::Motion::Against ? "against" : "map";
}

// ---- the layout

// A coordinate as the readers take it: at most 3 decimals, no trailing zeros.
std::string coordinateText(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", v);
    std::string s = buffer;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

bool plainName(const std::string& s) {
    bool ok = !s.empty() && (std::isalpha((unsigned char)s[0]) || s[0] == '_');
    for (char c : s) ok = ok && (std::isalnum((unsigned char)c) || c == '_');
    return ok;
}

std::string placePz(const ast::LayoutSticker& st) {
    if (st.cell) return "at " + std::to_string(st.col) + " " + std::to_string(st.row);
    std::string out = "polygon";
    for (double v : st.polygon) out += " " + coordinateText(v);
    return out;
}

void layoutPz(std::ostream& out, const ast::Layout& l) {
    out << "  layout {\n";
    for (const auto& f : l.faces)
        out << "    face " << f.name.text << ' ' << (plainName(f.colour.text) ? f.colour.text : quote(f.colour.text)) << ";\n";
    for (const auto& st : l.stickers)
        out << "    " << st.orbit->text << ' ' << positionText(st.position) << ' ' << st.slot << ' ' << placePz(st) << ' '
            << st.face.text << ";\n";
    for (const auto& st : l.fixed) out << "    fixed " << placePz(st) << ' ' << st.face.text << ";\n";
    out << "  }\n";
}

std::string placeYaml(const ast::LayoutSticker& st) {
    if (st.cell) return "at: [" + std::to_string(st.col) + ", " + std::to_string(st.row) + "]";
    std::string out = "polygon: [";
    for (size_t i = 0; i < st.polygon.size(); ++i) out += (i ? ", " : "") + coordinateText(st.polygon[i]);
    return out + "]";
}

void layoutYaml(std::ostream& out, const ast::Layout& l) {
    out << "layout:\n";
    if (!l.faces.empty()) out << "  faces:\n";
    for (const auto& f : l.faces)
        out << "    - {face: " << yamlName(f.name.text) << ", colour: " << quote(f.colour.text) << "}\n";
    if (!l.stickers.empty()) out << "  stickers:\n";
    for (const auto& st : l.stickers)
        out << "    - {orbit: " << yamlName(st.orbit->text) << ", position: " << quote(positionText(st.position))
            << ", sticker: " << st.slot << ", " << placeYaml(st) << ", face: " << yamlName(st.face.text) << "}\n";
    if (!l.fixed.empty()) out << "  fixed:\n";
    for (const auto& st : l.fixed) out << "    - {" << placeYaml(st) << ", face: " << yamlName(st.face.text) << "}\n";
}

// ---- sliding-block puzzles

std::string blocksPz(const ast::Puzzle& p) {
    const auto& b = p.blocks;
    std::ostringstream out;
    out << "blocks " << p.name.text << " {\n";
    if (b.board) {
        out << "  board {\n";
        for (const auto& row : *b.board) out << "    " << quote(row.text) << '\n';
        out << "  }\n";
    }
    if (b.size) out << "  size " << b.size->width << " x " << b.size->height << ";\n";
    if (b.exit) out << "  exit " << b.exit->side.text << ' ' << b.exit->offset << ";\n";
    if (b.metric) out << "  metric " << b.metric->text << ";\n";
    if (b.moves) out << "  moves " << b.moves->text << ";\n";
    for (const auto& a : b.axes) out << "  axis " << (a.piece ? a.piece->text + " " : "") << a.axis.text << ";\n";
    if (b.start) out << "  start;\n";
    for (const auto& id : b.identical) out << "  identical " << namesText(id.pieces, " ") << ";\n";
    if (b.goal) {
        out << "  goal ";
        using GK = ast::BlocksDef::Goal::Kind;
        if (b.goal->kind == GK::Board) out << "board";
        if (b.goal->kind == GK::Exit) out << b.goal->exitPiece.text << " exits";
        for (size_t i = 0; i < b.goal->placements.size(); ++i) {
            const auto& pl = b.goal->placements[i];
            out << (i ? ", " : "") << pl.piece.text << " at " << pl.x << ' ' << pl.y;
        }
        out << ";\n";
    }
    for (const auto& s : b.symmetries) out << "  symmetry " << s.name.text << ' ' << s.map.text << ";\n";
    for (const auto& pt : b.patterns) out << "  pattern " << pt.name.text << " { " << namesText(pt.pieces, " ") << "; }\n";
    for (const auto& s : b.solvers) {
        out << "  solver " << s.name.text << " {";
        if (!s.heuristic.text.empty()) {
            out << ' ' << s.heuristic.text;
            if (s.conflicts) out << " conflicts";
            if (!s.patterns.empty()) out << ' ' << namesText(s.patterns, ", ");
            out << ';';
        }
        if (s.reflect) out << " reflect " << s.reflect->text << ';';
        out << " }\n";
    }
    if (!b.levels.empty()) {
        out << "  levels {\n";
        for (const auto& l : b.levels) out << "    " << quote(l.text) << '\n';
        out << "  }\n";
    }
    out << "}\n";
    return out.str();
}

// Piece names are quoted: "1" stays a string, "null" stays a name.
std::string yamlPieces(const std::vector<ast::Name>& names) {
    std::string out = "[";
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + quote(names[i].text);
    return out + "]";
}

std::string blocksYaml(const ast::Puzzle& p) {
    const auto& b = p.blocks;
    std::ostringstream out;
    out << "blocks: " << yamlName(p.name.text) << '\n';
    if (b.board) {
        out << (b.board->empty() ? "board: []\n" : "board:\n");
        for (const auto& row : *b.board) out << "  - " << quote(row.text) << '\n';
    }
    if (b.size) out << "size: {width: " << b.size->width << ", height: " << b.size->height << "}\n";
    if (b.exit) out << "exit: {side: " << yamlName(b.exit->side.text) << ", offset: " << b.exit->offset << "}\n";
    if (b.metric) out << "metric: " << yamlName(b.metric->text) << '\n';
    if (b.moves) out << "moves: " << yamlName(b.moves->text) << '\n';
    if (!b.axes.empty()) out << "axes:\n";
    for (const auto& a : b.axes) {
        out << "  - {";
        if (a.piece) out << "piece: " << quote(a.piece->text) << ", ";
        out << "axis: " << yamlName(a.axis.text) << "}\n";
    }
    if (b.start) out << "start: true\n";
    if (!b.identical.empty()) out << "identical:\n";
    for (const auto& id : b.identical) out << "  - " << yamlPieces(id.pieces) << '\n';
    if (b.goal) {
        using GK = ast::BlocksDef::Goal::Kind;
        if (b.goal->kind == GK::Board) out << "goal: board\n";
        if (b.goal->kind == GK::Exit) out << "goal: {exits: " << quote(b.goal->exitPiece.text) << "}\n";
        if (b.goal->kind == GK::Place) out << (b.goal->placements.empty() ? "goal: []\n" : "goal:\n");
        for (const auto& pl : b.goal->placements)
            out << "  - {piece: " << quote(pl.piece.text) << ", x: " << pl.x << ", y: " << pl.y << "}\n";
    }
    if (!b.symmetries.empty()) out << "symmetries:\n";
    for (const auto& s : b.symmetries) out << "  - {name: " << yamlName(s.name.text) << ", map: " << yamlName(s.map.text) << "}\n";
    if (!b.patterns.empty()) out << "patterns:\n";
    for (const auto& pt : b.patterns) out << "  - {name: " << yamlName(pt.name.text) << ", pieces: " << yamlPieces(pt.pieces) << "}\n";
    if (!b.solvers.empty()) out << "solvers:\n";
    for (const auto& s : b.solvers) {
        out << "  - {name: " << yamlName(s.name.text) << ", heuristic: " << yamlName(s.heuristic.text);
        if (s.conflicts) out << ", conflicts: true";
        if (!s.patterns.empty()) out << ", patterns: " << yamlNames(s.patterns);
        if (s.reflect) out << ", reflect: " << yamlName(s.reflect->text);
        out << "}\n";
    }
    if (!b.levels.empty()) out << "levels:\n";
    for (const auto& l : b.levels) out << "  - " << quote(l.text) << '\n';
    return out.str();
}

}  // namespace

std::string printPz(const ast::Puzzle& p) {
    std::ostringstream out;
    out << "// generated by pzc convert from " << p.file << "\n";
    if (p.kind == ast::Puzzle::Kind::Blocks) return out.str() + blocksPz(p);
    if (p.kind == ast::Puzzle::Kind::Grid) {
        out << "grid " << p.name.text << " {\n";
        for (const auto& d : p.grid.directions)
            out << "  direction " << d.name.text << " (" << d.dx << ", " << d.dy << ");\n";
        for (const auto& c : p.grid.colours) {
            out << "  colour " << c.name.text << ' ' << c.actorChar << ' ' << c.goalChar << ' ' << motionName(c.motion);
            if (c.motion == ast::ColourDef::Motion::Map) {
                out << " {";
                for (const auto& [from, to] : c.map) out << ' ' << from.text << " -> " << to.text << ';';
                out << " }";
            }
            out << ";\n";
        }
        out << "  levels {\n";
        for (const auto& l : p.grid.levels) out << "    " << quote(l.text) << '\n';
        out << "  }\n}\n";
        return out.str();
    }
    out << "puzzle " << p.name.text << " {\n";
    for (const auto& o : p.orbits) {
        out << "  orbit " << o.name.text << ' ' << o.size;
        if (o.orientationIgnored > 1) out << " orient " << o.orientationIgnored << " ignored";
        else if (o.orientation != 1) out << " orient " << o.orientation;
        if (!o.positionNames.empty()) out << " { " << namesText(o.positionNames, " ") << " }";
        out << ";\n";
    }
    for (const auto& s : p.solved) out << "  solved " << s.orbit.text << " { " << namesText(s.labels, " ") << " }\n";
    for (const auto& ig : p.ignoredOrientations) {
        out << "  orient " << ig.orbit.text << " ignored {";
        for (const auto& pos : ig.pieces) out << ' ' << positionText(pos);
        out << " };\n";
    }
    for (const auto& il : p.illegal)
        out << "  illegal " << il.orbit.text << ' ' << positionText(il.position) << " holds " << il.label.text << ";\n";
    if (!p.powers.names.empty()) {
        out << "  powers {";
        for (const auto& n : p.powers.names)
            out << ' ' << n.power << ": " << quote(n.suffix) << (n.inMetric ? "" : " uncounted") << ';';
        out << " }\n";
    }
    for (const auto& m : p.moves)
        out << "  " << (m.isMacro ? "macro " : "move ") << m.name.text << " = " << bodyPz(m.cycles, m.expr) << ";\n";
    for (const auto& s : p.symmetries)
        out << "  symmetry " << s.name.text << (s.mirror ? " mirror" : "") << " = " << bodyPz(s.cycles, s.expr) << ";\n";
    for (const auto& s : p.subgroups) {
        out << "  subgroup " << s.name.text;
        if (!s.generators.empty()) {
            out << " = <";
            for (size_t i = 0; i < s.generators.size(); ++i) out << (i ? ", " : "") << exprText(s.generators[i]);
            out << ">";
        }
        if (s.invariants.empty() && !s.generators.empty()) {
            out << ";\n";
            continue;
        }
        out << " {\n";
        for (const auto& inv : s.invariants) {
            out << "    " << inv.orbit.text;
            if (inv.kind == ast::Invariant::Kind::KeepInSets) {
                out << " in";
                for (const auto& set : inv.sets) out << " {" << positionsText(set) << '}';
            } else {
                out << " oriented";
                if (!inv.positions.empty()) out << " {" << positionsText(inv.positions) << '}';
            }
            out << ";\n";
        }
        out << "  }\n";
    }
    for (const auto& pt : p.patterns) {
        out << "  pattern " << pt.name.text << " {";
        if (pt.coset) out << " coset " << pt.coset->text << (pt.exact ? " exact " + std::to_string(*pt.exact) : "") << ';';
        for (const auto& part : pt.parts) {
            out << ' ' << part.orbit.text;
            if (!part.pieces.empty()) out << " {" << positionsText(part.pieces) << '}';
            out << ':';
            if (part.positions) out << " positions";
            if (part.orientations) out << " orientations";
            if (part.unordered) out << " unordered";
            out << ';';
        }
        out << " }\n";
    }
    for (const auto& s : p.solvers) {
        if (s.kind == ast::SolverDef::Kind::Sift) {
            out << "  solver " << s.name.text << " { sift; }\n";
            continue;
        }
        bool optimal = s.kind == ast::SolverDef::Kind::Optimal;
        const auto& names = optimal ? s.patterns : s.phases;
        out << "  solver " << s.name.text << " { " << (optimal ? "optimal" : "phased");
        if (!names.empty()) out << ' ' << namesText(names, ", ");
        out << "; }\n";
    }
    if (p.layout) layoutPz(out, *p.layout);
    out << "}\n";
    return out.str();
}

std::string printYaml(const ast::Puzzle& p) {
    std::ostringstream out;
    out << "# generated by pzc convert from " << p.file << "\n";
    if (p.kind == ast::Puzzle::Kind::Blocks) return out.str() + blocksYaml(p);
    if (p.kind == ast::Puzzle::Kind::Grid) {
        out << "grid: " << yamlName(p.name.text) << '\n';
        out << (p.grid.directions.empty() ? "directions: []\n" : "directions:\n");
        for (const auto& d : p.grid.directions)
            out << "  - {name: " << yamlName(d.name.text) << ", dx: " << d.dx << ", dy: " << d.dy << "}\n";
        out << (p.grid.colours.empty() ? "colours: []\n" : "colours:\n");
        for (const auto& c : p.grid.colours) {
            out << "  - {name: " << yamlName(c.name.text) << ", actor: " << c.actorChar << ", goal: " << c.goalChar;
            if (c.motion == ast::ColourDef::Motion::Map) {
                out << ", map: {";
                for (size_t i = 0; i < c.map.size(); ++i)
                    out << (i ? ", " : "") << yamlName(c.map[i].first.text) << ": " << yamlName(c.map[i].second.text);
                out << "}";
            } else {
                out << ", motion: " << motionName(c.motion);
            }
            out << "}\n";
        }
        out << (p.grid.levels.empty() ? "levels: []\n" : "levels:\n");
        for (const auto& l : p.grid.levels) out << "  - " << quote(l.text) << '\n';
        return out.str();
    }
    out << "puzzle: " << yamlName(p.name.text) << '\n';
    if (!p.orbits.empty()) out << "orbits:\n";
    for (const auto& o : p.orbits) {
        out << "  - {name: " << yamlName(o.name.text) << ", size: " << o.size;
        if (o.orientationIgnored > 1) out << ", orient: " << o.orientationIgnored << ", orient_ignored: true";
        else if (o.orientation != 1) out << ", orient: " << o.orientation;
        for (const auto& ig : p.ignoredOrientations) {
            if (ig.orbit.text != o.name.text) continue;
            std::string pieces;
            for (const auto& pos : ig.pieces) pieces += (pieces.empty() ? "" : " ") + positionText(pos);
            out << ", orient_ignored: " << quote(pieces);
        }
        if (!o.positionNames.empty()) out << ", positions: " << yamlNames(o.positionNames);
        out << "}\n";
    }
    if (!p.solved.empty()) out << "solved:\n";
    for (const auto& s : p.solved) {
        out << "  " << yamlName(s.orbit.text) << ": [";
        for (size_t i = 0; i < s.labels.size(); ++i) out << (i ? ", " : "") << quote(s.labels[i].text);
        out << "]\n";
    }
    if (!p.illegal.empty()) out << "illegal:\n";
    for (const auto& il : p.illegal)
        out << "  - {orbit: " << yamlName(il.orbit.text) << ", position: " << quote(positionText(il.position))
            << ", holds: " << quote(il.label.text) << "}\n";
    if (!p.powers.names.empty()) out << "powers:\n";
    for (const auto& n : p.powers.names) {
        out << "  - {power: " << n.power << ", suffix: " << quote(n.suffix);
        if (!n.inMetric) out << ", counted: false";
        out << "}\n";
    }
    auto body = [&](const std::vector<ast::OrbitCycles>& cycles, const std::optional<ast::Expr>& expr) {
        if (expr) {
            out << "    expr: " << quote(exprText(*expr)) << '\n';
            return;
        }
        out << "    cycles:\n";
        for (const auto& oc : cycles) out << "      " << yamlName(oc.orbit.text) << ": " << quote(cyclesText(oc.cycles)) << '\n';
    };
    if (!p.moves.empty()) out << "moves:\n";
    for (const auto& m : p.moves) {
        out << "  - name: " << yamlName(m.name.text) << '\n';
        if (m.isMacro) out << "    macro: true\n";
        body(m.cycles, m.expr);
    }
    if (!p.symmetries.empty()) out << "symmetries:\n";
    for (const auto& s : p.symmetries) {
        out << "  - name: " << yamlName(s.name.text) << '\n';
        if (s.mirror) out << "    mirror: true\n";
        body(s.cycles, s.expr);
    }
    if (!p.subgroups.empty()) out << "subgroups:\n";
    for (const auto& s : p.subgroups) {
        out << "  - name: " << yamlName(s.name.text) << '\n';
        if (!s.generators.empty()) {
            std::string gens;
            for (size_t i = 0; i < s.generators.size(); ++i) gens += (i ? ", " : "") + exprText(s.generators[i]);
            out << "    generators: " << quote(gens) << '\n';
        }
        if (!s.invariants.empty()) out << "    invariants:\n";
        for (const auto& inv : s.invariants) {
            if (inv.kind == ast::Invariant::Kind::KeepInSets) {
                out << "      - {keep: " << yamlName(inv.orbit.text) << ", in: [";
                for (size_t i = 0; i < inv.sets.size(); ++i) out << (i ? ", " : "") << quote(positionsText(inv.sets[i]));
                out << "]}\n";
            } else {
                out << "      - {oriented: " << yamlName(inv.orbit.text);
                if (!inv.positions.empty()) out << ", positions: " << quote(positionsText(inv.positions));
                out << "}\n";
            }
        }
    }
    if (!p.patterns.empty()) out << "patterns:\n";
    for (const auto& pt : p.patterns) {
        out << "  - name: " << yamlName(pt.name.text) << "\n";
        if (pt.coset) out << "    coset: " << yamlName(pt.coset->text) << "\n";
        if (pt.exact) out << "    exact: " << *pt.exact << "\n";
        if (!pt.parts.empty()) out << "    parts:\n";
        for (const auto& part : pt.parts) {
            out << "      - {orbit: " << yamlName(part.orbit.text);
            if (!part.pieces.empty()) out << ", pieces: " << quote(positionsText(part.pieces));
            std::vector<std::string> track;
            if (part.positions) track.push_back("positions");
            if (part.orientations) track.push_back("orientations");
            if (part.unordered) track.push_back("unordered");
            out << ", track: [";
            for (size_t i = 0; i < track.size(); ++i) out << (i ? ", " : "") << track[i];
            out << "]}\n";
        }
    }
    if (!p.solvers.empty()) out << "solvers:\n";
    for (const auto& s : p.solvers) {
        if (s.kind == ast::SolverDef::Kind::Sift) {
            out << "  - {name: " << yamlName(s.name.text) << ", sift: true}\n";
            continue;
        }
        bool optimal = s.kind == ast::SolverDef::Kind::Optimal;
        out << "  - {name: " << yamlName(s.name.text) << ", " << (optimal ? "optimal: " : "phased: ")
            << yamlNames(optimal ? s.patterns : s.phases) << "}\n";
    }
    if (p.layout) layoutYaml(out, *p.layout);
    return out.str();
}

}  // namespace pz
