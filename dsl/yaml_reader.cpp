// The YAML front end: yaml-cpp node tree -> ast::Puzzle (schema in
// docs/language.md). Structured string fields -- cycles, move expressions,
// generator lists, position sets -- are parsed with the shared ANTLR grammar
// (dsl/text_parsers.hpp), so .pz and YAML accept the same notation.
//
// yaml-cpp marks are 0-based; they become 1-based SourceRanges here, and a
// quoted scalar's origin skips its opening quote so that errors inside the
// string point at the right column.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

#include "dsl/frontend.hpp"
#include "dsl/text_parsers.hpp"

namespace pz {
namespace {

struct Field {
    YAML::Node key, value;
};

class YamlReader {
public:
    YamlReader(const std::string& file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

    std::optional<ast::Puzzle> read(const std::string& text) {
        YAML::Node root;
        try {
            root = YAML::Load(text);
        } catch (const YAML::Exception& e) {
            diags_.error(file_, SourceRange::fromZeroBased(e.mark.line, e.mark.column), "invalid YAML: " + e.msg);
            return std::nullopt;
        }
        ast::Puzzle p;
        p.file = file_;
        if (!root.IsMap()) {
            error(root, "expected a mapping with a 'puzzle', 'grid' or 'blocks' key at the top level");
            return std::nullopt;
        }
        p.range = range(root);
        auto top = fields(root, "the top level",
                          {"puzzle", "grid", "blocks", "orbits", "solved", "illegal", "powers", "moves", "symmetries",
                           "subgroups", "patterns", "solvers", "layout", "directions", "colours", "levels", "board", "size",
                           "exit", "metric", "axes", "start", "identical", "goal"});
        if (top.count("puzzle") + top.count("grid") + top.count("blocks") > 1)
            error(top.count("blocks") ? top["blocks"].key : top["grid"].key,
                  "a definition is either a 'puzzle', a 'grid' or a 'blocks'");
        const auto blocksOnly = {"board", "size", "exit", "metric", "axes", "start", "identical", "goal"};
        if (top.count("blocks")) {
            p.kind = ast::Puzzle::Kind::Blocks;
            p.name = name(top["blocks"].value, "blocks name");
            for (auto key : {"orbits", "solved", "illegal", "powers", "subgroups", "directions", "colours", "layout"})
                if (top.count(key)) error(top[key].key, std::string("'") + key + "' does not belong in a blocks puzzle");
            readBlocks(top, p.blocks);
            p.blocks.range = p.range;
        } else if (top.count("grid")) {
            p.kind = ast::Puzzle::Kind::Grid;
            p.name = name(top["grid"].value, "grid name");
            for (auto key : {"orbits", "solved", "illegal", "powers", "moves", "symmetries", "subgroups", "patterns", "solvers",
                             "layout"})
                if (top.count(key)) error(top[key].key, std::string("'") + key + "' does not belong in a grid puzzle");
            for (auto key : blocksOnly)
                if (top.count(key)) error(top[key].key, std::string("'") + key + "' belongs in a blocks puzzle (use 'blocks: NAME')");
            readGrid(top, p.grid);
            p.grid.range = p.range;
        } else if (top.count("puzzle")) {
            p.name = name(top["puzzle"].value, "puzzle name");
            for (auto key : {"directions", "colours", "levels"})
                if (top.count(key))
                    error(top[key].key, std::string("'") + key + "' belongs in a grid puzzle (use 'grid: NAME')");
            for (auto key : blocksOnly)
                if (top.count(key)) error(top[key].key, std::string("'") + key + "' belongs in a blocks puzzle (use 'blocks: NAME')");
            readPermutation(top, p);
        } else {
            error(root, "expected a 'puzzle', 'grid' or 'blocks' key naming the definition");
        }
        if (diags_.errorCount() > errorsBefore_) return std::nullopt;
        return p;
    }

private:
    // ---- node helpers

    SourceRange range(const YAML::Node& node) const {
        auto mark = node.Mark();
        if (mark.line < 0) return {};
        int length = node.IsScalar() ? (int)node.Scalar().size() + (quoted(node) ? 2 : 0) : 1;
        if (node.IsScalar() && node.Scalar().find('\n') != std::string::npos) length = 1;
        return SourceRange::fromZeroBased(mark.line, mark.column, length);
    }
    static bool quoted(const YAML::Node& node) { return node.Tag() == "!"; }

    // Where a scalar's text starts in the file (after an opening quote).
    SourceRange origin(const YAML::Node& node) const {
        SourceRange r = range(node);
        if (r.known() && quoted(node)) r.col += 1;
        return r;
    }

    void error(const YAML::Node& node, std::string message) { diags_.error(file_, range(node), std::move(message)); }

    static const char* shapeName(const YAML::Node& node) {
        if (node.IsMap()) return "a mapping";
        if (node.IsSequence()) return "a sequence";
        if (node.IsScalar()) return "a scalar";
        return "nothing";
    }
    bool expect(const YAML::Node& node, YAML::NodeType::value type, const std::string& what) {
        if (node.Type() == type) return true;
        const char* want = type == YAML::NodeType::Map ? "a mapping" : type == YAML::NodeType::Sequence ? "a sequence" : "a scalar";
        error(node, what + ": expected " + want + ", found " + shapeName(node));
        return false;
    }

    // The keys of a mapping; reports unknown and repeated keys.
    std::map<std::string, Field> fields(const YAML::Node& map, const std::string& what,
                                        std::initializer_list<const char*> allowed) {
        std::map<std::string, Field> out;
        for (auto it = map.begin(); it != map.end(); ++it) {
            YAML::Node key = it->first;  // a copy: it-> yields a temporary proxy
            if (!key.IsScalar()) {
                error(key, what + ": keys must be plain names");
                continue;
            }
            std::string k = key.Scalar();
            bool known = false;
            for (auto* a : allowed) known = known || k == a;
            if (!known) {
                std::string list;
                for (auto* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
                error(key, "unknown key '" + k + "' in " + what + " (expected one of: " + list + ")");
                continue;
            }
            if (!out.emplace(k, Field{key, it->second}).second) error(key, "key '" + k + "' is given twice");
        }
        return out;
    }
    bool require(std::map<std::string, Field>& f, const char* key, const YAML::Node& map, const std::string& what) {
        if (f.count(key)) return true;
        error(map, what + ": missing key '" + key + "'");
        return false;
    }

    std::string scalar(const YAML::Node& node, const std::string& what) {
        if (!expect(node, YAML::NodeType::Scalar, what)) return {};
        return node.Scalar();
    }

    // The .pz IDENT token: the same names are valid in both syntaxes.
    static bool validName(const std::string& s) {
        bool ok = !s.empty() && (std::isalpha((unsigned char)s[0]) || s[0] == '_');
        for (char c : s) ok = ok && (std::isalnum((unsigned char)c) || c == '_');
        return ok;
    }

    ast::Name name(const YAML::Node& node, const std::string& what) {
        std::string s = scalar(node, what);
        if (node.IsScalar() && !validName(s)) error(node, what + ": '" + s + "' is not a valid name");
        return {s, range(node)};
    }

    std::optional<int> integer(const YAML::Node& node, const std::string& what) {
        std::string s = scalar(node, what);
        if (!node.IsScalar()) return std::nullopt;
        size_t i = (s.size() > 1 && s[0] == '-') ? 1 : 0;
        bool ok = i < s.size() && s.size() - i <= 9;
        for (size_t j = i; j < s.size(); ++j) ok = ok && std::isdigit((unsigned char)s[j]);
        if (!ok) {
            error(node, what + ": expected an integer, found '" + s + "'");
            return std::nullopt;
        }
        return std::stoi(s);
    }

    std::optional<bool> boolean(const YAML::Node& node, const std::string& what) {
        std::string s = scalar(node, what);
        if (!node.IsScalar()) return std::nullopt;
        if (s == "true") return true;
        if (s == "false") return false;
        error(node, what + ": expected true or false, found '" + s + "'");
        return std::nullopt;
    }

    std::vector<ast::Name> nameList(const YAML::Node& node, const std::string& what) {
        std::vector<ast::Name> out;
        if (!expect(node, YAML::NodeType::Sequence, what)) return out;
        for (const auto& n : node) out.push_back(name(n, what));
        return out;
    }

    std::vector<ast::PositionRef> positions(const YAML::Node& node, const std::string& what) {
        std::string s = scalar(node, what);
        if (!node.IsScalar()) return {};
        auto parsed = parsePositionsText(file_, s, origin(node), diags_);
        return parsed ? *parsed : std::vector<ast::PositionRef>{};
    }

    // ---- permutation puzzles

    void readPermutation(std::map<std::string, Field>& top, ast::Puzzle& p) {
        if (top.count("orbits") && expect(top["orbits"].value, YAML::NodeType::Sequence, "orbits"))
            for (const auto& o : top["orbits"].value) readOrbit(o, p);
        if (top.count("solved") && expect(top["solved"].value, YAML::NodeType::Map, "solved"))
            for (auto it = top["solved"].value.begin(); it != top["solved"].value.end(); ++it) {
                ast::SolvedLabels s;
                s.orbit = name(it->first, "solved orbit");
                s.range = range(it->first);
                YAML::Node labels = it->second;  // a copy: it-> yields a temporary proxy
                if (expect(labels, YAML::NodeType::Sequence, "solved labels"))
                    for (const auto& l : labels) {
                        std::string label = scalar(l, "solved label");
                        bool number = !label.empty() && label.size() <= 9 &&
                                      std::all_of(label.begin(), label.end(), [](char c) { return std::isdigit((unsigned char)c); });
                        if (l.IsScalar() && !number && !validName(label))
                            error(l, "solved label: '" + label + "' is neither a number nor a name");
                        s.labels.push_back({label, range(l)});
                    }
                p.solved.push_back(std::move(s));
            }
        // illegal: [{orbit: slice, position: 3, holds: 17}, ...]
        if (top.count("illegal") && expect(top["illegal"].value, YAML::NodeType::Sequence, "illegal"))
            for (const auto& il : top["illegal"].value) {
                if (!expect(il, YAML::NodeType::Map, "an illegal placement")) continue;
                auto f = fields(il, "an illegal placement", {"orbit", "position", "holds"});
                ast::IllegalPlacement ip;
                ip.range = range(il);
                if (require(f, "orbit", il, "an illegal placement")) ip.orbit = name(f["orbit"].value, "orbit");
                if (require(f, "position", il, "an illegal placement")) {
                    auto ps = positions(f["position"].value, "position");
                    if (ps.size() == 1) ip.position = ps[0];
                    else if (f["position"].value.IsScalar()) error(f["position"].value, "position: expected one position");
                }
                if (require(f, "holds", il, "an illegal placement")) {
                    std::string label = scalar(f["holds"].value, "holds");
                    ip.label = {label, range(f["holds"].value)};
                }
                p.illegal.push_back(std::move(ip));
            }
        if (top.count("powers") && expect(top["powers"].value, YAML::NodeType::Sequence, "powers")) {
            p.powers.range = range(top["powers"].value);
            for (const auto& pw : top["powers"].value) {
                if (!expect(pw, YAML::NodeType::Map, "a power")) continue;
                auto f = fields(pw, "a power", {"power", "suffix", "counted"});
                ast::PowerName n;
                n.range = range(pw);
                if (require(f, "power", pw, "a power"))
                    if (auto v = integer(f["power"].value, "power")) n.power = *v;
                if (require(f, "suffix", pw, "a power")) n.suffix = scalar(f["suffix"].value, "suffix");
                if (f.count("counted"))
                    if (auto b = boolean(f["counted"].value, "counted")) n.inMetric = *b;
                p.powers.names.push_back(std::move(n));
            }
        }
        if (top.count("moves") && expect(top["moves"].value, YAML::NodeType::Sequence, "moves"))
            for (const auto& m : top["moves"].value) readMove(m, p);
        if (top.count("symmetries") && expect(top["symmetries"].value, YAML::NodeType::Sequence, "symmetries"))
            for (const auto& s : top["symmetries"].value) readSymmetry(s, p);
        if (top.count("subgroups") && expect(top["subgroups"].value, YAML::NodeType::Sequence, "subgroups"))
            for (const auto& s : top["subgroups"].value) readSubgroup(s, p);
        if (top.count("patterns") && expect(top["patterns"].value, YAML::NodeType::Sequence, "patterns"))
            for (const auto& s : top["patterns"].value) readPattern(s, p);
        if (top.count("solvers") && expect(top["solvers"].value, YAML::NodeType::Sequence, "solvers"))
            for (const auto& s : top["solvers"].value) readSolver(s, p);
        if (top.count("layout")) readLayout(top, p);
    }

    // ---- the layout (presentation only; docs/language.md, Layouts)

    void readLayout(std::map<std::string, Field>& top, ast::Puzzle& p) {
        const YAML::Node& node = top["layout"].value;
        if (!expect(node, YAML::NodeType::Map, "layout")) return;
        ast::Layout& out = p.layout.emplace();
        // The section runs from its key to the next top-level key (or the end).
        out.range = range(top["layout"].key);
        out.range.endLine = std::numeric_limits<int>::max();
        out.range.endCol = 1;
        for (auto& [k, f] : top)
            if (f.key.Mark().line + 1 > out.range.line && f.key.Mark().line + 1 < out.range.endLine)
                out.range.endLine = f.key.Mark().line + 1;
        auto f = fields(node, "layout", {"faces", "stickers", "fixed"});
        if (f.count("faces") && expect(f["faces"].value, YAML::NodeType::Sequence, "faces"))
            for (const auto& face : f["faces"].value) {
                if (!expect(face, YAML::NodeType::Map, "a face")) continue;
                auto g = fields(face, "a face", {"face", "colour"});
                ast::LayoutFace lf;
                lf.range = range(face);
                if (require(g, "face", face, "a face")) lf.name = name(g["face"].value, "face name");
                if (require(g, "colour", face, "a face"))
                    lf.colour = {scalar(g["colour"].value, "colour"), range(g["colour"].value)};
                out.faces.push_back(std::move(lf));
            }
        for (const char* key : {"stickers", "fixed"}) {
            const bool fixed = key == std::string("fixed");
            if (!f.count(key) || !expect(f[key].value, YAML::NodeType::Sequence, key)) continue;
            for (const auto& st : f[key].value) {
                if (!expect(st, YAML::NodeType::Map, fixed ? "a fixed sticker" : "a sticker")) continue;
                auto sticker = readSticker(st, fixed);
                (fixed ? out.fixed : out.stickers).push_back(std::move(sticker));
            }
        }
    }

    // {orbit: corners, position: UFR, sticker: 0, at: [5, 2], face: U}; a
    // fixed one has neither orbit, position nor sticker; `polygon: [x, y, ...]`
    // instead of `at`.
    ast::LayoutSticker readSticker(const YAML::Node& node, bool fixed) {
        const std::string what = fixed ? "a fixed sticker" : "a sticker";
        auto g = fixed ? fields(node, what, {"at", "polygon", "face"})
                       : fields(node, what, {"orbit", "position", "sticker", "at", "polygon", "face"});
        ast::LayoutSticker st;
        st.range = range(node);
        if (!fixed) {
            if (require(g, "orbit", node, what)) st.orbit = name(g["orbit"].value, "orbit");
            if (require(g, "position", node, what)) {
                auto ps = positions(g["position"].value, "position");
                if (ps.size() == 1) st.position = ps[0];
                else if (g["position"].value.IsScalar()) error(g["position"].value, "position: expected one position");
            }
            if (require(g, "sticker", node, what)) {
                st.slotRange = range(g["sticker"].value);
                if (auto v = integer(g["sticker"].value, "sticker")) st.slot = *v;
            }
        }
        if (g.count("at") == g.count("polygon")) {
            error(node, what + ": give exactly one of 'at' ([COL, ROW]) and 'polygon' ([x1, y1, x2, y2, ...])");
        } else if (g.count("at")) {
            const YAML::Node& at = g["at"].value;
            st.placeRange = range(g["at"].key);
            if (expect(at, YAML::NodeType::Sequence, "at")) {
                if (at.size() != 2) error(at, "at: expected [COL, ROW]");
                else {
                    st.col = integer(at[0], "column").value_or(0);
                    st.row = integer(at[1], "row").value_or(0);
                }
            }
        } else {
            st.cell = false;
            const YAML::Node& poly = g["polygon"].value;
            st.placeRange = range(g["polygon"].key);
            if (expect(poly, YAML::NodeType::Sequence, "polygon"))
                for (const auto& c : poly) st.polygon.push_back(coordinate(c));
        }
        if (require(g, "face", node, what)) st.face = name(g["face"].value, "face");
        return st;
    }

    // As in .pz: a number 0..1000 with at most 3 decimals.
    double coordinate(const YAML::Node& node) {
        std::string s = scalar(node, "coordinate");
        if (!node.IsScalar()) return 0;
        auto dot = s.find('.');
        bool ok = !s.empty() && s.size() <= 12 && std::isdigit((unsigned char)s[0]) &&
                  (dot == std::string::npos || (dot + 1 < s.size() && s.size() - dot - 1 <= 3));
        for (size_t i = 0; i < s.size(); ++i) ok = ok && (std::isdigit((unsigned char)s[i]) || i == dot);
        if (!ok || std::stod(s) > 1000) {
            error(node, "coordinate " + s + ": expected a number 0..1000 with at most 3 decimals");
            return 0;
        }
        return std::stod(s);
    }

    void readOrbit(const YAML::Node& node, ast::Puzzle& p) {
        if (!expect(node, YAML::NodeType::Map, "an orbit")) return;
        auto f = fields(node, "an orbit", {"name", "size", "orient", "orient_ignored", "positions"});
        ast::Orbit o;
        o.range = range(node);
        if (require(f, "name", node, "an orbit")) o.name = name(f["name"].value, "orbit name");
        if (require(f, "size", node, "an orbit")) {
            o.sizeRange = range(f["size"].value);
            if (auto v = integer(f["size"].value, "orbit size")) o.size = *v;
        }
        if (f.count("orient")) {
            o.orientationRange = range(f["orient"].value);
            if (auto v = integer(f["orient"].value, "orientation modulus")) o.orientation = *v;
        }
        std::optional<ast::IgnoredOrientation> somePieces;
        if (f.count("orient_ignored")) {  // note [ignored orientation] (compiler/ir/lower.cpp)
            const YAML::Node& v = f["orient_ignored"].value;
            const bool flag = v.IsScalar() && (v.Scalar() == "true" || v.Scalar() == "false");
            if (!f.count("orient")) {
                error(f["orient_ignored"].key, "'orient_ignored' needs 'orient'");
            } else if (flag) {
                if (v.Scalar() == "true" && o.orientation > 1) o.orientationIgnored = o.orientation, o.orientation = 1;
            } else {
                // Some pieces only ("L F R B"): note [ignored pieces] (compiler/ir/lower.cpp).
                somePieces.emplace();
                somePieces->orbit = o.name;
                somePieces->pieces = positions(v, "orient_ignored (true, false or the pieces' solved positions)");
                somePieces->range = range(f["orient_ignored"].key);
            }
        }
        if (f.count("positions")) o.positionNames = nameList(f["positions"].value, "position names");
        p.orbits.push_back(std::move(o));
        if (somePieces) p.ignoredOrientations.push_back(std::move(*somePieces));
    }

    // cycles: {corners: "(UFR UFL UBL UBR)", edges: "(UR UF UL UB)"}
    std::vector<ast::OrbitCycles> cycles(const YAML::Node& node) {
        std::vector<ast::OrbitCycles> out;
        if (!expect(node, YAML::NodeType::Map, "cycles")) return out;
        for (auto it = node.begin(); it != node.end(); ++it) {
            ast::OrbitCycles oc;
            oc.orbit = name(it->first, "cycles orbit");
            oc.range = range(it->first);
            std::string text = scalar(it->second, "cycles of orbit '" + oc.orbit.text + "'");
            if (it->second.IsScalar())
                if (auto parsed = parseCyclesText(file_, text, origin(it->second), diags_)) oc.cycles = *parsed;
            out.push_back(std::move(oc));
        }
        return out;
    }

    std::optional<ast::Expr> expression(const YAML::Node& node, const std::string& what) {
        std::string text = scalar(node, what);
        if (!node.IsScalar()) return std::nullopt;
        return parseExpressionText(file_, text, origin(node), diags_);
    }

    // A move or symmetry body: exactly one of `cycles` and `expr`.
    template <typename Def>
    void body(std::map<std::string, Field>& f, const YAML::Node& node, const std::string& what, Def& def) {
        if (f.count("cycles") == f.count("expr")) {
            error(node, what + ": give exactly one of 'cycles' and 'expr'");
            return;
        }
        if (f.count("cycles")) def.cycles = cycles(f["cycles"].value);
        else def.expr = expression(f["expr"].value, what);
    }

    void readMove(const YAML::Node& node, ast::Puzzle& p) {
        if (!expect(node, YAML::NodeType::Map, "a move")) return;
        auto f = fields(node, "a move", {"name", "macro", "cycles", "expr"});
        ast::MoveDef m;
        m.range = range(node);
        if (require(f, "name", node, "a move")) m.name = name(f["name"].value, "move name");
        if (f.count("macro"))
            if (auto b = boolean(f["macro"].value, "macro")) m.isMacro = *b;
        body(f, node, "move '" + m.name.text + "'", m);
        p.moves.push_back(std::move(m));
    }

    void readSymmetry(const YAML::Node& node, ast::Puzzle& p) {
        if (!expect(node, YAML::NodeType::Map, "a symmetry")) return;
        auto f = fields(node, "a symmetry", {"name", "mirror", "cycles", "expr"});
        ast::SymmetryDef s;
        s.range = range(node);
        if (require(f, "name", node, "a symmetry")) s.name = name(f["name"].value, "symmetry name");
        if (f.count("mirror"))
            if (auto b = boolean(f["mirror"].value, "mirror")) s.mirror = *b;
        body(f, node, "symmetry '" + s.name.text + "'", s);
        p.symmetries.push_back(std::move(s));
    }

    void readSubgroup(const YAML::Node& node, ast::Puzzle& p) {
        if (!expect(node, YAML::NodeType::Map, "a subgroup")) return;
        auto f = fields(node, "a subgroup", {"name", "generators", "invariants"});
        ast::SubgroupDef s;
        s.range = range(node);
        if (require(f, "name", node, "a subgroup")) s.name = name(f["name"].value, "subgroup name");
        if (f.count("generators")) {
            const auto& g = f["generators"].value;
            std::string text = scalar(g, "generators");
            if (g.IsScalar())
                if (auto parsed = parseGeneratorsText(file_, text, origin(g), diags_)) s.generators = *parsed;
        }
        if (f.count("invariants") && expect(f["invariants"].value, YAML::NodeType::Sequence, "invariants"))
            for (const auto& inv : f["invariants"].value) {
                if (!expect(inv, YAML::NodeType::Map, "an invariant")) continue;
                auto g = fields(inv, "an invariant", {"keep", "in", "oriented", "positions"});
                ast::Invariant i;
                i.range = range(inv);
                if (g.count("keep") == g.count("oriented")) {
                    error(inv, "an invariant has exactly one of 'keep' (with 'in') and 'oriented'");
                    continue;
                }
                if (g.count("keep")) {
                    i.kind = ast::Invariant::Kind::KeepInSets;
                    i.orbit = name(g["keep"].value, "invariant orbit");
                    if (g.count("positions")) error(g["positions"].key, "'positions' belongs to 'oriented'");
                    if (require(g, "in", inv, "a 'keep' invariant") &&
                        expect(g["in"].value, YAML::NodeType::Sequence, "'in'"))
                        for (const auto& set : g["in"].value) i.sets.push_back(positions(set, "a position set"));
                } else {
                    i.kind = ast::Invariant::Kind::Oriented;
                    i.orbit = name(g["oriented"].value, "invariant orbit");
                    if (g.count("in")) error(g["in"].key, "'in' belongs to 'keep'");
                    if (g.count("positions")) i.positions = positions(g["positions"].value, "positions");
                }
                s.invariants.push_back(std::move(i));
            }
        p.subgroups.push_back(std::move(s));
    }

    void readPattern(const YAML::Node& node, ast::Puzzle& p) {
        if (!expect(node, YAML::NodeType::Map, "a pattern")) return;
        auto f = fields(node, "a pattern", {"name", "coset", "exact", "parts"});
        ast::PatternDef pd;
        pd.range = range(node);
        if (require(f, "name", node, "a pattern")) pd.name = name(f["name"].value, "pattern name");
        if (f.count("coset")) pd.coset = name(f["coset"].value, "coset subgroup");
        if (f.count("exact")) {
            pd.exact = integer(f["exact"].value, "exact depth");
            pd.exactRange = range(f["exact"].value);
        }
        // A coset pattern needs no parts (note [coset patterns]).
        if ((pd.coset ? f.count("parts") > 0 : require(f, "parts", node, "a pattern")) &&
            expect(f["parts"].value, YAML::NodeType::Sequence, "parts"))
            for (const auto& part : f["parts"].value) {
                if (!expect(part, YAML::NodeType::Map, "a pattern part")) continue;
                auto g = fields(part, "a pattern part", {"orbit", "pieces", "track"});
                ast::PatternPart pp;
                pp.range = range(part);
                pp.positions = false;
                if (require(g, "orbit", part, "a pattern part")) pp.orbit = name(g["orbit"].value, "pattern orbit");
                if (g.count("pieces")) pp.pieces = positions(g["pieces"].value, "pieces");
                if (require(g, "track", part, "a pattern part") &&
                    expect(g["track"].value, YAML::NodeType::Sequence, "track"))
                    for (const auto& t : g["track"].value) {
                        std::string s = scalar(t, "track");
                        if (s == "positions") pp.positions = true;
                        else if (s == "orientations") pp.orientations = true;
                        else if (s == "unordered") pp.unordered = true;
                        else if (t.IsScalar())
                            error(t, "track: expected positions, orientations or unordered, found '" + s + "'");
                    }
                pd.parts.push_back(std::move(pp));
            }
        p.patterns.push_back(std::move(pd));
    }

    void readSolver(const YAML::Node& node, ast::Puzzle& p) {
        if (!expect(node, YAML::NodeType::Map, "a solver")) return;
        auto f = fields(node, "a solver", {"name", "optimal", "phased", "sift"});
        ast::SolverDef s;
        s.range = range(node);
        if (require(f, "name", node, "a solver")) s.name = name(f["name"].value, "solver name");
        if (f.count("optimal") + f.count("phased") + f.count("sift") != 1) {
            error(node, "a solver has exactly one of 'optimal' (patterns), 'phased' (subgroups) and 'sift' (true)");
        } else if (f.count("sift")) {
            s.kind = ast::SolverDef::Kind::Sift;
            const YAML::Node& v = f["sift"].value;
            if (!v.IsScalar() || v.Scalar() != "true") error(v, "'sift' takes the value true");
        } else if (f.count("optimal")) {
            s.kind = ast::SolverDef::Kind::Optimal;
            s.patterns = nameList(f["optimal"].value, "optimal");
        } else {
            s.kind = ast::SolverDef::Kind::Phased;
            s.phases = nameList(f["phased"].value, "phased");
        }
        p.solvers.push_back(std::move(s));
    }

    // ---- grid puzzles

    void readGrid(std::map<std::string, Field>& top, ast::GridDef& g) {
        if (top.count("directions") && expect(top["directions"].value, YAML::NodeType::Sequence, "directions"))
            for (const auto& d : top["directions"].value) {
                if (!expect(d, YAML::NodeType::Map, "a direction")) continue;
                auto f = fields(d, "a direction", {"name", "dx", "dy"});
                ast::DirectionDef dir;
                dir.range = range(d);
                if (require(f, "name", d, "a direction")) dir.name = name(f["name"].value, "direction name");
                if (require(f, "dx", d, "a direction"))
                    if (auto v = integer(f["dx"].value, "dx")) dir.dx = *v;
                if (require(f, "dy", d, "a direction"))
                    if (auto v = integer(f["dy"].value, "dy")) dir.dy = *v;
                g.directions.push_back(std::move(dir));
            }
        if (top.count("colours") && expect(top["colours"].value, YAML::NodeType::Sequence, "colours"))
            for (const auto& c : top["colours"].value) {
                if (!expect(c, YAML::NodeType::Map, "a colour")) continue;
                auto f = fields(c, "a colour", {"name", "actor", "goal", "motion", "map"});
                ast::ColourDef col;
                col.range = range(c);
                if (require(f, "name", c, "a colour")) col.name = name(f["name"].value, "colour name");
                if (require(f, "actor", c, "a colour")) col.actorChar = name(f["actor"].value, "actor character").text;
                if (require(f, "goal", c, "a colour")) col.goalChar = name(f["goal"].value, "goal character").text;
                if (f.count("motion") == f.count("map")) {
                    error(c, "a colour has exactly one of 'motion' (with/against) and 'map'");
                } else if (f.count("motion")) {
                    std::string m = scalar(f["motion"].value, "motion");
                    if (m == "with") col.motion = ast::ColourDef::Motion::With;
                    else if (m == "against") col.motion = ast::ColourDef::Motion::Against;
                    else if (f["motion"].value.IsScalar())
                        error(f["motion"].value, "motion: expected 'with' or 'against', found '" + m + "'");
                } else if (expect(f["map"].value, YAML::NodeType::Map, "map")) {
                    col.motion = ast::ColourDef::Motion::Map;
                    for (auto it = f["map"].value.begin(); it != f["map"].value.end(); ++it)
                        col.map.push_back({name(it->first, "pressed direction"), name(it->second, "direction")});
                }
                g.colours.push_back(std::move(col));
            }
        if (top.count("levels") && expect(top["levels"].value, YAML::NodeType::Sequence, "levels"))
            for (const auto& l : top["levels"].value) g.levels.push_back({scalar(l, "level path"), range(l)});
    }

    // ---- sliding-block puzzles

    // A piece: its board token, a name or a number (the .pz `label`).
    ast::Name piece(const YAML::Node& node, const std::string& what) {
        std::string s = scalar(node, what);
        bool number = !s.empty() && s.size() <= 9 &&
                      std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit((unsigned char)c); });
        if (node.IsScalar() && !number && !validName(s)) error(node, what + ": '" + s + "' is neither a name nor a number");
        return {s, range(node)};
    }
    std::vector<ast::Name> pieces(const YAML::Node& node, const std::string& what) {
        std::vector<ast::Name> out;
        if (!expect(node, YAML::NodeType::Sequence, what)) return out;
        for (const auto& n : node) out.push_back(piece(n, what));
        return out;
    }
    int intOr0(const YAML::Node& node, const std::string& what) { return integer(node, what).value_or(0); }

    void readBlocks(std::map<std::string, Field>& top, ast::BlocksDef& b) {
        if (top.count("board") && expect(top["board"].value, YAML::NodeType::Sequence, "board")) {
            b.board.emplace();
            b.boardRange = range(top["board"].key);
            for (const auto& row : top["board"].value) {
                std::string text = scalar(row, "a board row");
                SourceRange r = origin(row);
                r.endCol = r.col + (text.empty() ? 1 : (int)text.size());
                b.board->push_back({text, r});
            }
        }
        if (top.count("size") && expect(top["size"].value, YAML::NodeType::Map, "size")) {
            const YAML::Node& node = top["size"].value;
            auto f = fields(node, "size", {"width", "height"});
            ast::BlocksDef::Size size;
            size.range = range(top["size"].key);
            if (require(f, "width", node, "size")) size.width = intOr0(f["width"].value, "width");
            if (require(f, "height", node, "size")) size.height = intOr0(f["height"].value, "height");
            b.size = size;
        }
        if (top.count("exit") && expect(top["exit"].value, YAML::NodeType::Map, "exit")) {
            const YAML::Node& node = top["exit"].value;
            auto f = fields(node, "exit", {"side", "offset"});
            ast::BlocksDef::Exit exit;
            exit.range = range(top["exit"].key);
            if (require(f, "side", node, "exit")) exit.side = name(f["side"].value, "exit side");
            if (require(f, "offset", node, "exit")) exit.offset = intOr0(f["offset"].value, "exit offset");
            b.exit = exit;
        }
        if (top.count("metric")) b.metric = name(top["metric"].value, "metric");
        if (top.count("moves")) b.moves = name(top["moves"].value, "moves");
        if (top.count("start"))
            if (auto v = boolean(top["start"].value, "start"); v && *v) b.start = range(top["start"].key);
        // axes: [{axis: long}, {piece: A, axis: horizontal}]
        if (top.count("axes") && expect(top["axes"].value, YAML::NodeType::Sequence, "axes"))
            for (const auto& a : top["axes"].value) {
                if (!expect(a, YAML::NodeType::Map, "an axis")) continue;
                auto f = fields(a, "an axis", {"piece", "axis"});
                ast::BlocksDef::Axis axis;
                axis.range = range(a);
                if (f.count("piece")) axis.piece = piece(f["piece"].value, "axis piece");
                if (require(f, "axis", a, "an axis")) axis.axis = name(f["axis"].value, "axis");
                b.axes.push_back(std::move(axis));
            }
        if (top.count("identical") && expect(top["identical"].value, YAML::NodeType::Sequence, "identical"))
            for (const auto& group : top["identical"].value)
                b.identical.push_back({pieces(group, "identical pieces"), range(group)});
        if (top.count("goal")) readBlocksGoal(top["goal"], b);
        readBlocksNamed(top, b);
        if (top.count("levels") && expect(top["levels"].value, YAML::NodeType::Sequence, "levels"))
            for (const auto& l : top["levels"].value) b.levels.push_back({scalar(l, "level path"), range(l)});
    }

    // goal: board | {exits: A} | [{piece: A, x: 1, y: 3}, ...]
    void readBlocksGoal(const Field& field, ast::BlocksDef& b) {
        const YAML::Node& node = field.value;
        ast::BlocksDef::Goal g;
        g.range = range(field.key);
        if (node.IsScalar() && node.Scalar() == "board") {
            g.kind = ast::BlocksDef::Goal::Kind::Board;
        } else if (node.IsMap()) {
            auto f = fields(node, "a goal", {"exits"});
            g.kind = ast::BlocksDef::Goal::Kind::Exit;
            if (require(f, "exits", node, "a goal")) g.exitPiece = piece(f["exits"].value, "goal piece");
        } else if (node.IsSequence()) {
            g.kind = ast::BlocksDef::Goal::Kind::Place;
            for (const auto& pl : node) {
                if (!expect(pl, YAML::NodeType::Map, "a goal placement")) continue;
                auto f = fields(pl, "a goal placement", {"piece", "x", "y"});
                ast::BlocksDef::Goal::Placement placement;
                placement.range = range(pl);
                if (require(f, "piece", pl, "a goal placement")) placement.piece = piece(f["piece"].value, "goal piece");
                if (require(f, "x", pl, "a goal placement")) placement.x = intOr0(f["x"].value, "x");
                if (require(f, "y", pl, "a goal placement")) placement.y = intOr0(f["y"].value, "y");
                g.placements.push_back(std::move(placement));
            }
        } else {
            error(node, "goal: expected 'board', {exits: PIECE} or a list of {piece, x, y}");
            return;
        }
        b.goal = std::move(g);
    }

    // symmetries, patterns and solvers, each a sequence of mappings.
    void readBlocksNamed(std::map<std::string, Field>& top, ast::BlocksDef& b) {
        if (top.count("symmetries") && expect(top["symmetries"].value, YAML::NodeType::Sequence, "symmetries"))
            for (const auto& s : top["symmetries"].value) {
                if (!expect(s, YAML::NodeType::Map, "a symmetry")) continue;
                auto f = fields(s, "a symmetry", {"name", "map"});
                ast::BlocksDef::Symmetry sym;
                sym.range = range(s);
                if (require(f, "name", s, "a symmetry")) sym.name = name(f["name"].value, "symmetry name");
                if (require(f, "map", s, "a symmetry")) sym.map = name(f["map"].value, "symmetry map");
                b.symmetries.push_back(std::move(sym));
            }
        if (top.count("patterns") && expect(top["patterns"].value, YAML::NodeType::Sequence, "patterns"))
            for (const auto& s : top["patterns"].value) {
                if (!expect(s, YAML::NodeType::Map, "a pattern")) continue;
                auto f = fields(s, "a pattern", {"name", "pieces"});
                ast::BlocksDef::Pattern pt;
                pt.range = range(s);
                if (require(f, "name", s, "a pattern")) pt.name = name(f["name"].value, "pattern name");
                if (require(f, "pieces", s, "a pattern")) pt.pieces = pieces(f["pieces"].value, "pattern pieces");
                b.patterns.push_back(std::move(pt));
            }
        if (top.count("solvers") && expect(top["solvers"].value, YAML::NodeType::Sequence, "solvers"))
            for (const auto& s : top["solvers"].value) {
                if (!expect(s, YAML::NodeType::Map, "a solver")) continue;
                auto f = fields(s, "a solver", {"name", "heuristic", "conflicts", "patterns", "reflect"});
                ast::BlocksDef::Solver sv;
                sv.range = range(s);
                if (require(f, "name", s, "a solver")) sv.name = name(f["name"].value, "solver name");
                if (require(f, "heuristic", s, "a solver")) sv.heuristic = name(f["heuristic"].value, "heuristic");
                if (f.count("conflicts")) sv.conflicts = boolean(f["conflicts"].value, "conflicts").value_or(false);
                if (f.count("patterns")) sv.patterns = nameList(f["patterns"].value, "additive patterns");
                if (f.count("reflect")) sv.reflect = name(f["reflect"].value, "reflect symmetry");
                b.solvers.push_back(std::move(sv));
            }
    }

    std::string file_;
    DiagnosticEngine& diags_;
    int errorsBefore_ = diags_.errorCount();
};

}  // namespace

std::optional<ast::Puzzle> parseYamlText(const std::string& file, const std::string& text, DiagnosticEngine& diags) {
    if (!diags.sourceText(file)) diags.addSource(file, text);
    if (!checkUtf8(file, text, SourceRange::at(1, 1), diags)) return std::nullopt;
    return YamlReader(file, diags).read(text);
}

}  // namespace pz
