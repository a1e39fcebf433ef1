// Round-trip test of the two front ends and the printers.
//
// For every definition under puzzles/, tests/puzzles/ and tests/roundtrip/:
//   A = parse(file);  B = parseYaml(printYaml(A));  C = parsePz(printPz(B))
// and dump(A) == dump(B) == dump(C), where dump prints every AST field except
// source ranges and the file name. For each puzzles/X.pz the checked-in
// puzzles/X.yaml must equal printYaml(A) (regenerate with
// `pzc convert puzzles/X.pz --to yaml -o puzzles/X.yaml`).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"

using namespace pz;
namespace fs = std::filesystem;

namespace {

void dumpExpr(std::ostream& out, const ast::Expr& e) {
    out << "(k" << (int)e.kind;
    if (e.kind == ast::Expr::Kind::Ref) out << ' ' << e.ref.text;
    if (e.kind == ast::Expr::Kind::Power) out << " ^" << e.power;
    for (const auto& i : e.items) {
        out << ' ';
        dumpExpr(out, i);
    }
    out << ')';
}
void dumpPos(std::ostream& out, const ast::PositionRef& p) {
    if (p.index) out << '#' << *p.index << ' ';
    else out << p.name << ' ';
}
void dumpCycles(std::ostream& out, const std::vector<ast::OrbitCycles>& cs) {
    for (const auto& oc : cs) {
        out << " orbit " << oc.orbit.text;
        for (const auto& c : oc.cycles) {
            out << " (";
            for (const auto& el : c.elements) {
                dumpPos(out, el.position);
                out << '+' << el.twist << ' ';
            }
            out << ')';
        }
    }
}
void dumpNames(std::ostream& out, const std::vector<ast::Name>& names) {
    out << '[';
    for (const auto& n : names) out << n.text << ' ';
    out << ']';
}

void dumpBlocks(std::ostream& out, const ast::BlocksDef& b) {
    if (b.board) {
        out << "board";
        for (const auto& row : *b.board) out << " '" << row.text << "'";
        out << '\n';
    }
    if (b.size) out << "size " << b.size->width << ' ' << b.size->height << '\n';
    if (b.exit) out << "exit " << b.exit->side.text << ' ' << b.exit->offset << '\n';
    if (b.metric) out << "metric " << b.metric->text << '\n';
    if (b.moves) out << "moves " << b.moves->text << '\n';
    for (const auto& a : b.axes) out << "axis " << (a.piece ? a.piece->text : "*") << ' ' << a.axis.text << '\n';
    if (b.start) out << "start\n";
    for (const auto& id : b.identical) dumpNames(out << "identical ", id.pieces), out << '\n';
    if (b.goal) {
        out << "goal " << (int)b.goal->kind << ' ' << b.goal->exitPiece.text;
        for (const auto& pl : b.goal->placements) out << ' ' << pl.piece.text << '@' << pl.x << ',' << pl.y;
        out << '\n';
    }
    for (const auto& s : b.symmetries) out << "bsymmetry " << s.name.text << ' ' << s.map.text << '\n';
    for (const auto& pt : b.patterns) dumpNames(out << "bpattern " << pt.name.text << ' ', pt.pieces), out << '\n';
    for (const auto& s : b.solvers) {
        out << "bsolver " << s.name.text << ' ' << s.heuristic.text << ' ' << s.conflicts << ' ';
        dumpNames(out, s.patterns);
        out << (s.reflect ? " reflect " + s.reflect->text : "") << '\n';
    }
    for (const auto& l : b.levels) out << "blevel " << l.text << '\n';
}

std::string dump(const ast::Puzzle& p) {
    std::ostringstream out;
    out << "kind " << (int)p.kind << " name " << p.name.text << '\n';
    for (const auto& o : p.orbits) {
        out << "orbit " << o.name.text << ' ' << o.size << ' ' << o.orientation << ' ';
        dumpNames(out, o.positionNames);
        out << '\n';
    }
    for (const auto& s : p.solved) {
        out << "solved " << s.orbit.text << ' ';
        dumpNames(out, s.labels);
        out << '\n';
    }
    for (const auto& n : p.powers.names) out << "power " << n.power << " '" << n.suffix << "' " << n.inMetric << '\n';
    for (const auto& m : p.moves) {
        out << "move " << m.name.text << ' ' << m.isMacro;
        dumpCycles(out, m.cycles);
        if (m.expr) dumpExpr(out << " expr ", *m.expr);
        out << '\n';
    }
    for (const auto& s : p.symmetries) {
        out << "symmetry " << s.name.text << ' ' << s.mirror;
        dumpCycles(out, s.cycles);
        if (s.expr) dumpExpr(out << " expr ", *s.expr);
        out << '\n';
    }
    for (const auto& s : p.subgroups) {
        out << "subgroup " << s.name.text;
        for (const auto& g : s.generators) dumpExpr(out << " gen ", g);
        for (const auto& inv : s.invariants) {
            out << " inv " << (int)inv.kind << ' ' << inv.orbit.text << " sets";
            for (const auto& set : inv.sets) {
                out << " {";
                for (const auto& pos : set) dumpPos(out, pos);
                out << '}';
            }
            out << " positions ";
            for (const auto& pos : inv.positions) dumpPos(out, pos);
        }
        out << '\n';
    }
    for (const auto& pt : p.patterns) {
        out << "pattern " << pt.name.text;
        for (const auto& part : pt.parts) {
            out << " part " << part.orbit.text << ' ' << part.positions << part.orientations << part.unordered << ' ';
            for (const auto& pos : part.pieces) dumpPos(out, pos);
        }
        out << '\n';
    }
    for (const auto& s : p.solvers) {
        out << "solver " << s.name.text << ' ' << (int)s.kind << ' ';
        dumpNames(out, s.patterns);
        dumpNames(out, s.phases);
        out << '\n';
    }
    for (const auto& d : p.grid.directions) out << "direction " << d.name.text << ' ' << d.dx << ' ' << d.dy << '\n';
    for (const auto& c : p.grid.colours) {
        out << "colour " << c.name.text << ' ' << c.actorChar << ' ' << c.goalChar << ' ' << (int)c.motion;
        for (const auto& [a, b] : c.map) out << ' ' << a.text << "->" << b.text;
        out << '\n';
    }
    for (const auto& l : p.grid.levels) out << "level " << l.text << '\n';
    dumpBlocks(out, p.blocks);
    if (p.layout) {
        for (const auto& f : p.layout->faces) out << "face " << f.name.text << ' ' << f.colour.text << '\n';
        for (const auto* list : {&p.layout->stickers, &p.layout->fixed})
            for (const auto& st : *list) {
                out << "sticker " << (st.orbit ? st.orbit->text : "-") << ' ';
                if (st.orbit) dumpPos(out, st.position);
                out << st.slot << ' ' << st.cell << ' ' << st.col << ' ' << st.row << " [";
                for (double v : st.polygon) out << v << ' ';
                out << "] " << st.face.text << '\n';
            }
    }
    return out.str();
}

int failures = 0;

void fail(const std::string& file, const std::string& what, const std::string& a, const std::string& b) {
    ++failures;
    std::cerr << "FAIL " << file << ": " << what << "\n--- expected\n" << a << "--- actual\n" << b;
}

void check(const std::string& path) {
    DiagnosticEngine diags;
    auto a = parsePuzzleFile(path, diags);
    if (!a || !ir::lower(*a, diags)) {
        diags.print(std::cerr);
        fail(path, "does not load", "", "");
        return;
    }
    std::string yaml = printYaml(*a);
    auto b = parseYamlText(path + " (as yaml)", yaml, diags);
    if (!b) {
        diags.print(std::cerr);
        fail(path, "printed YAML does not parse", yaml, "");
        return;
    }
    if (dump(*a) != dump(*b)) fail(path, "pz -> yaml changes the AST", dump(*a), dump(*b));
    std::string pz = printPz(*b);
    auto c = parsePzText(path + " (as pz)", pz, diags);
    if (!c) {
        diags.print(std::cerr);
        fail(path, "printed .pz does not parse", pz, "");
        return;
    }
    if (dump(*a) != dump(*c)) fail(path, "yaml -> pz changes the AST", dump(*a), dump(*c));
    // The checked-in YAML twin of a shipped .pz must be fresh.
    fs::path twin = fs::path(path).replace_extension(".yaml");
    if (fs::path(path).extension() == ".pz" && fs::exists(twin)) {
        std::string text;
        readFile(twin.string(), text, diags);
        if (text != yaml)
            fail(path, "stale YAML twin " + twin.string() + " (run pzc convert " + path + " --to yaml -o " +
                           twin.string() + ")",
                 yaml, text);
    }
    std::cout << "ok " << path << '\n';
}

}  // namespace

int main() {
    std::vector<std::string> files;
    for (auto dir : {"puzzles", "tests/puzzles", "tests/roundtrip"})
        for (const auto& entry : fs::directory_iterator(dir)) {
            auto ext = entry.path().extension();
            if (ext == ".pz" || ext == ".yaml") files.push_back(entry.path().string());
        }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) check(f);
    int shipped = (int)std::count_if(files.begin(), files.end(), [](const std::string& f) {
        return f.rfind("puzzles/", 0) == 0 && f.size() > 3 && f.compare(f.size() - 3, 3, ".pz") == 0;
    });
    if (shipped < 4) fail("puzzles/", "expected at least 4 shipped .pz definitions", "4", std::to_string(shipped));
    std::cout << files.size() << " definitions, " << failures << " failures\n";
    return failures ? 1 : 0;
}
