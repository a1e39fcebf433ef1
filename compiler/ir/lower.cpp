// Lowering: AST -> IR (see lower.hpp).
//
// One pass per declaration kind, in declaration order, so an expression may
// only use names defined above it. Every check reports and carries on; a
// definition that failed is remembered as "broken" so that later uses of its
// name do not pile up follow-on errors.
#include "compiler/ir/lower.hpp"
#include "compiler/ir/lower_blocks.hpp"
#include "compiler/ir/lower_layout.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>

#include "compiler/ir/element.hpp"
#include "dsl/frontend.hpp"
#include "dsl/tws_reader.hpp"

namespace pz::ir {
namespace {

// Bounds that keep hostile input cheap; real puzzles are far below them.
constexpr int kMaxOrbitSize = 1024;
constexpr int kMaxOrientation = 256;
constexpr long kMaxMoveOrder = 1000000;

int mod(long v, int m) { return (int)(((v % m) + m) % m); }

long gcd(long a, long b) { return b == 0 ? a : gcd(b, a % b); }

// Order of a non-mirror element from its cycles: each cycle of length L whose
// orientation deltas sum to t (mod m) has order L * m / gcd(t, m). Returns -1
// when the order exceeds `limit`. Equals ir::order (tested) but costs O(n).
long cycleOrder(const Element& e, const std::vector<Orbit>& orbits, long limit) {
    long result = 1;
    for (size_t o = 0; o < orbits.size(); ++o) {
        int n = orbits[o].size, m = orbits[o].orient;
        std::vector<bool> seen(n, false);
        for (int start = 0; start < n; ++start) {
            if (seen[start]) continue;
            long length = 0, twist = 0;
            for (int p = start; !seen[p]; p = e.perm[o][p]) {
                seen[p] = true;
                ++length;
                twist += e.ori[o][p];
            }
            long t = mod(twist, m);
            long cycle = length * (m / gcd(t, m));
            result = result / gcd(result, cycle) * cycle;
            if (result > limit) return -1;
        }
    }
    return result;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
    return out;
}

// Renders an expression back to text (for subgroup reports).
std::string exprText(const ast::Expr& e) {
    using K = ast::Expr::Kind;
    auto operand = [](const ast::Expr& x) {
        bool plain = x.kind == K::Ref || x.kind == K::Commutator || x.kind == K::Conjugate || x.kind == K::Power;
        return plain ? exprText(x) : "(" + exprText(x) + ")";
    };
    switch (e.kind) {
        case K::Identity: return "()";
        case K::Ref: return e.ref.text;
        case K::Sequence: {
            std::vector<std::string> parts;
            for (const auto& i : e.items) parts.push_back(i.kind == K::Sequence ? "(" + exprText(i) + ")" : exprText(i));
            return join(parts, " ");
        }
        case K::Inverse:
            return (e.items[0].kind == K::Ref ? "(" + exprText(e.items[0]) + ")" : operand(e.items[0])) + "'";
        case K::Power: return operand(e.items[0]) + "^" + e.power.get_str();
        case K::Commutator: return "[" + exprText(e.items[0]) + ", " + exprText(e.items[1]) + "]";
        case K::Conjugate: return "[" + exprText(e.items[0]) + ": " + exprText(e.items[1]) + "]";
    }
    return {};
}

// Names an expression may refer to, with their elements.
struct Scope {
    std::map<std::string, Element> elements;
    std::set<std::string> broken;  // defined, but their definition had errors
    std::string what = "move";     // for "unknown move 'X'"
};

class ExprEvaluator {
public:
    ExprEvaluator(const std::vector<Orbit>& orbits, const Scope& scope, const std::string& file,
                  DiagnosticEngine& diags)
        : orbits_(orbits), scope_(scope), file_(file), diags_(diags) {}

    std::optional<Element> eval(const ast::Expr& e) {
        using K = ast::Expr::Kind;
        switch (e.kind) {
            case K::Identity: return identity(orbits_);
            case K::Ref: return lookup(e.ref.text, e.ref.range, e.ref.text);
            case K::Sequence: {
                Element acc = identity(orbits_);
                bool ok = true;
                for (const auto& item : e.items) {
                    auto x = eval(item);
                    if (x) acc = compose(acc, *x, orbits_);
                    else ok = false;
                }
                if (!ok) return std::nullopt;
                return acc;
            }
            case K::Inverse: {
                auto x = eval(e.items.at(0));
                if (!x) return std::nullopt;
                return inverse(*x, orbits_);
            }
            case K::Power: {
                auto x = eval(e.items.at(0));
                if (!x) return std::nullopt;
                return power(*x, e.power, orbits_);
            }
            case K::Commutator:
            case K::Conjugate: {
                auto a = eval(e.items.at(0));
                auto b = eval(e.items.at(1));
                if (!a || !b) return std::nullopt;
                Element r = compose(compose(*a, *b, orbits_), inverse(*a, orbits_), orbits_);
                if (e.kind == K::Commutator) r = compose(r, inverse(*b, orbits_), orbits_);
                return r;
            }
        }
        return std::nullopt;
    }

private:
    // The whole name first ("R'"), then a trailing ' as an inverse of the rest.
    std::optional<Element> lookup(const std::string& name, SourceRange where, const std::string& written) {
        auto it = scope_.elements.find(name);
        if (it != scope_.elements.end()) return it->second;
        if (scope_.broken.count(name)) return std::nullopt;
        if (name.size() > 1 && name.back() == '\'') {
            auto base = lookup(name.substr(0, name.size() - 1), where, written);
            if (!base) return std::nullopt;
            return inverse(*base, orbits_);
        }
        diags_.error(file_, where, "unknown " + scope_.what + " '" + written + "'");
        return std::nullopt;
    }

    const std::vector<Orbit>& orbits_;
    const Scope& scope_;
    const std::string& file_;
    DiagnosticEngine& diags_;
};

class Lowerer {
public:
    Lowerer(const ast::Puzzle& src, DiagnosticEngine& diags) : src_(src), file_(src.file), diags_(diags) {}

    std::optional<Puzzle> run() {
        out_.name = src_.name.text;
        out_.file = src_.file;
        if (src_.kind == ast::Puzzle::Kind::Blocks) {
            out_.kind = Puzzle::Kind::Blocks;
            if (!lowerBlocks(src_, out_.blocks, diags_)) return std::nullopt;
            return std::move(out_);
        }
        if (src_.kind == ast::Puzzle::Kind::Grid) {
            out_.kind = Puzzle::Kind::Grid;
            lowerGrid();
        } else {
            out_.kind = Puzzle::Kind::Permutation;
            lowerOrbits();
            lowerSolved();
            lowerIgnoredOrientations();
            lowerIllegal();
            lowerPowerScheme();
            lowerMoves();
            lowerSymmetries();
            lowerSubgroups();
            lowerPatterns();
            lowerSolvers();
            // After everything else: a layout names the orbits, and its
            // checks would only echo an orbit's own errors.
            if (src_.layout && diags_.errorCount() == errorsBefore_)
                out_.layout = lowerLayout(*src_.layout, out_.orbits, file_, diags_);
        }
        if (diags_.errorCount() > errorsBefore_) return std::nullopt;
        expandStickerOrbits();
        return std::move(out_);
    }

private:
    // "; its orientation is ignored (orient 3 ignored)" for such an orbit
    // (note [ignored orientation]), else "".
    std::string ignoredNote(int orbit) const {
        const int m = out_.orbits[orbit].ignoredOrient;
        return m > 1 ? "; its orientation is declared ignored ('orient " + std::to_string(m) + " ignored')" : "";
    }

    void error(SourceRange where, std::string message) { diags_.error(file_, where, std::move(message)); }

    // Every declared name (orbits, moves and their powers, macros,
    // symmetries, subgroups, patterns, solvers) lives in one namespace.
    bool declare(const std::string& name, SourceRange where, const std::string& kind) {
        auto [it, fresh] = declared_.emplace(name, Declared{kind, where});
        if (fresh) return true;
        std::string at = it->second.where.known()
                             ? " (first declared at line " + std::to_string(it->second.where.line) + ")"
                             : "";
        std::string article = std::string("aeiou").find(it->second.kind[0]) != std::string::npos ? "an " : "a ";
        error(where, "duplicate name '" + name + "': already declared as " + article + it->second.kind + at);
        return false;
    }

    // ---- orbits and the solved state

    void lowerOrbits() {
        for (const auto& o : src_.orbits) {
            bool ok = declare(o.name.text, o.name.range, "orbit");
            Orbit orbit;
            orbit.name = o.name.text;
            orbit.where = o.range;
            orbit.size = o.size;
            orbit.orient = o.orientation;
            orbit.ignoredOrient = o.orientationIgnored > 1 ? o.orientationIgnored : 0;
            if (o.size < 1 || o.size > kMaxOrbitSize) {
                error(o.sizeRange.known() ? o.sizeRange : o.range,
                      "orbit '" + o.name.text + "' has " + std::to_string(o.size) + " pieces; expected 1.." +
                          std::to_string(kMaxOrbitSize));
                ok = false;
            }
            if (o.orientation < 1 || o.orientation > kMaxOrientation) {
                error(o.orientationRange.known() ? o.orientationRange : o.range,
                      "orientation modulus " + std::to_string(o.orientation) + " of orbit '" + o.name.text +
                          "' is out of range; expected 1.." + std::to_string(kMaxOrientation));
                ok = false;
            }
            std::map<std::string, int> names;
            if (!o.positionNames.empty() && (int)o.positionNames.size() != o.size) {
                error(o.positionNames.front().range, "orbit '" + o.name.text + "' names " +
                                                         std::to_string(o.positionNames.size()) +
                                                         " positions but has " + std::to_string(o.size));
                ok = false;
            }
            for (size_t i = 0; i < o.positionNames.size(); ++i) {
                const auto& n = o.positionNames[i];
                if (!names.emplace(n.text, (int)i).second) {
                    error(n.range, "duplicate position name '" + n.text + "' in orbit '" + o.name.text + "'");
                    ok = false;
                }
                orbit.positionNames.push_back(n.text);
            }
            orbit.solvedLabel.resize(ok ? o.size : 0);
            std::iota(orbit.solvedLabel.begin(), orbit.solvedLabel.end(), 0);
            if (!ok) {
                brokenOrbits_.insert(o.name.text);
                continue;
            }
            orbitIndex_[o.name.text] = (int)out_.orbits.size();
            positionIndex_.push_back(std::move(names));
            out_.orbits.push_back(std::move(orbit));
        }
    }

    // Returns the orbit index, or -1 (reported unless the orbit is broken).
    std::map<int, std::map<std::string, int>> labelIds_;  // orbit -> solved label text -> id (orbits with `solved`)

    int findOrbit(const ast::Name& name) {
        auto it = orbitIndex_.find(name.text);
        if (it != orbitIndex_.end()) return it->second;
        if (!brokenOrbits_.count(name.text)) error(name.range, "unknown orbit '" + name.text + "'");
        return -1;
    }

    // Returns the position index, or -1 (reported).
    int findPosition(int orbit, const ast::PositionRef& p) {
        const Orbit& o = out_.orbits[orbit];
        if (p.index) {
            if (*p.index >= 0 && *p.index < o.size) return *p.index;
            error(p.range, "position " + std::to_string(*p.index) + " is out of range for orbit '" + o.name +
                               "' (0.." + std::to_string(o.size - 1) + ")");
            return -1;
        }
        auto it = positionIndex_[orbit].find(p.name);
        if (it != positionIndex_[orbit].end()) return it->second;
        error(p.range, "unknown position '" + p.name + "' in orbit '" + o.name + "'");
        return -1;
    }

    void lowerSolved() {
        std::set<int> seen;
        for (const auto& s : src_.solved) {
            int o = findOrbit(s.orbit);
            if (o < 0) continue;
            if (!seen.insert(o).second) {
                error(s.orbit.range, "solved labels of orbit '" + s.orbit.text + "' are given twice");
                continue;
            }
            Orbit& orbit = out_.orbits[o];
            if ((int)s.labels.size() != orbit.size) {
                error(s.range, "orbit '" + orbit.name + "' has " + std::to_string(orbit.size) + " pieces but " +
                                   std::to_string(s.labels.size()) + " solved labels are given");
                continue;
            }
            // Labels are numbered by first appearance.
            std::map<std::string, int>& ids = labelIds_[o];
            for (int i = 0; i < orbit.size; ++i) {
                auto [it, fresh] = ids.emplace(s.labels[i].text, (int)ids.size());
                orbit.solvedLabel[i] = it->second;
            }
        }
    }

    // note [ignored pieces]
    // `orient centres ignored { L F R B };`: the orientation of some pieces
    // of an oriented orbit does not matter (a .tws Solved block's `?` on
    // some pieces, note [sticker sets] in dsl/tws_reader.cpp). The orbit is
    // lowered as declared, then read as its stickers (expandStickerOrbits):
    // n pieces of m orientations become n x m unoriented positions, a piece
    // at p with orientation o showing its sticker k at slot p*m + (k+o) mod m,
    // so every element is a plain permutation of slots. Sticker k of a piece
    // labelled L is labelled (L, k), every sticker of an ignored piece
    // (L, *): the states, the orbit of that colouring, are the puzzle's with
    // those orientations forgotten, and the identical-pieces machinery
    // (labelled lanes, distinct-state counts) does the rest. Everything that
    // names positions or orientations of the declared orbit (subgroup
    // invariants, illegal placements) and mirror symmetries (they would
    // reverse the stickers' order) are refused, located; a pattern part
    // tracks the stickers of the pieces it names. Listing
    // every piece is `orient M ignored` (note [ignored orientation]).
    void lowerIgnoredOrientations() {
        for (const auto& ig : src_.ignoredOrientations) {
            const int o = findOrbit(ig.orbit);
            if (o < 0) continue;
            Orbit& orbit = out_.orbits[o];
            if (!ignoredAt_.emplace(o, ig.range).second) {
                error(ig.range, "the ignored orientations of orbit '" + orbit.name + "' are given twice");
                continue;
            }
            if (orbit.orient == 1) {
                error(ig.orbit.range, "orbit '" + orbit.name + "' has no orientation to ignore" + ignoredNote(o));
                continue;
            }
            if (ig.pieces.empty()) {
                error(ig.range, "no pieces are listed; name the pieces (by their solved positions) whose orientation "
                                "does not matter");
                continue;
            }
            if ((long)orbit.size * orbit.orient > kMaxOrbitSize) {
                error(ig.range, "orbit '" + orbit.name + "' read as stickers would have " +
                                    std::to_string((long)orbit.size * orbit.orient) + " positions (" +
                                    std::to_string(orbit.size) + " pieces x " + std::to_string(orbit.orient) +
                                    " orientations); an orbit has at most " + std::to_string(kMaxOrbitSize));
                continue;
            }
            std::vector<char> wild(orbit.size, 0);
            bool ok = true;
            for (const auto& p : ig.pieces) {
                const int i = findPosition(o, p);
                if (i < 0) ok = false;
                else if (wild[i]) {
                    error(p.range, "piece '" + positionText(orbit, i) + "' is listed twice");
                    ok = false;
                } else {
                    wild[i] = 1;
                }
            }
            // Identical pieces are one label: all or none of them ignored.
            std::map<int, int> firstOfLabel;
            for (int i = 0; i < orbit.size && ok; ++i) {
                auto [it, fresh] = firstOfLabel.emplace(orbit.solvedLabel[i], i);
                if (!fresh && wild[it->second] != wild[i]) {
                    error(ig.range, "pieces '" + positionText(orbit, it->second) + "' and '" + positionText(orbit, i) +
                                        "' are identical (one solved label) but only one's orientation is ignored");
                    ok = false;
                }
            }
            if (!ok) continue;
            if (std::all_of(wild.begin(), wild.end(), [](char w) { return w != 0; })) {
                // Every piece: the whole orbit, as `orient M ignored`.
                orbit.ignoredOrient = orbit.orient;
                orbit.orient = 1;
                continue;
            }
            ignoredPieces_[o] = std::move(wild);
        }
    }

    // Why an orbit of note [ignored pieces] refuses something.
    std::string stickerNote(int orbit) const {
        auto it = ignoredAt_.find(orbit);
        return "the orientation of some pieces of orbit '" + out_.orbits[orbit].name + "' is ignored" +
               (it != ignoredAt_.end() && it->second.known() ? " (line " + std::to_string(it->second.line) + ")"
                                                             : std::string()) +
               ", so the orbit is read as stickers";
    }

    // The orbits of note [ignored pieces] read as stickers: every element
    // (moves, macros, symmetries, subgroup generators) and the orbit itself.
    void expandStickerOrbits() {
        if (ignoredPieces_.empty()) return;
        const std::vector<Orbit> declared = out_.orbits;
        auto toStickers = [&](Element& e) {
            for (const auto& ignored : ignoredPieces_) {
                const int o = ignored.first;
                e.perm[o] = stickerSlots(e.perm[o], e.ori[o], declared[o].orient);
                e.ori[o].assign(e.perm[o].size(), 0);
            }
        };
        for (auto& f : out_.families) toStickers(f.base);
        for (auto& mv : out_.moves) toStickers(mv.effect);
        for (auto& mc : out_.macros) toStickers(mc.effect);
        for (auto& sy : out_.symmetries) toStickers(sy.effect);
        for (auto& sg : out_.subgroups)
            for (auto& g : sg.generators) toStickers(g);
        // A pattern part over the declared pieces tracks their stickers: a
        // piece whose orientation matters by its sticker 0 (its slot gives
        // position and orientation, so `positions` alone tracks both: a
        // finer, still admissible table), an ignored piece by all of its
        // stickers (one label class: its position).
        for (auto& pattern : out_.patterns)
            for (auto& part : pattern.parts) {
                auto it = ignoredPieces_.find(part.orbit);
                if (it == ignoredPieces_.end()) continue;
                const int m = declared[part.orbit].orient;
                std::vector<int> stickers;
                for (int q : part.pieces)
                    for (int k = 0; k < (it->second[q] ? m : 1); ++k) stickers.push_back(q * m + k);
                part.pieces = std::move(stickers);
                part.orientations = false;
            }
        for (const auto& [o, wild] : ignoredPieces_) {
            Orbit& orbit = out_.orbits[o];
            const int n = orbit.size, m = orbit.orient;
            // Labels (L, k), or (L, *) for an ignored piece, numbered by first appearance.
            std::map<std::pair<int, int>, int> ids;
            std::vector<int> labels(n * m);
            for (int q = 0; q < n; ++q)
                for (int k = 0; k < m; ++k)
                    labels[q * m + k] = ids.emplace(std::make_pair(orbit.solvedLabel[q], wild[q] ? -1 : k), (int)ids.size())
                                            .first->second;
            std::vector<std::string> names;
            for (int q = 0; q < n && !orbit.positionNames.empty(); ++q)
                for (int k = 0; k < m; ++k) names.push_back(orbit.positionNames[q] + "_" + std::to_string(k));
            for (int q = 0; q < n; ++q)
                if (wild[q]) orbit.ignoredPieces.push_back(q);
            orbit.stickerPieces = n;
            orbit.stickerModulus = m;
            orbit.size = n * m;
            orbit.orient = 1;
            orbit.solvedLabel = std::move(labels);
            orbit.positionNames = std::move(names);
        }
    }

    // `illegal ORBIT POSITION holds LABEL;`: LABEL as in the orbit's solved
    // labels, or without them the position (index or name) the piece is
    // solved at.
    void lowerIllegal() {
        std::set<std::tuple<int, int, int>> seen;
        for (const auto& il : src_.illegal) {
            const int o = findOrbit(il.orbit);
            if (o < 0) continue;
            const int p = findPosition(o, il.position);
            int label = -1;
            auto ids = labelIds_.find(o);
            if (ids != labelIds_.end()) {
                auto it = ids->second.find(il.label.text);
                if (it != ids->second.end()) label = it->second;
                else
                    error(il.label.range, "'" + il.label.text + "' is not a solved label of orbit '" + il.orbit.text + "'");
            } else {
                ast::PositionRef piece;
                piece.range = il.label.range;
                const std::string& t = il.label.text;
                if (!t.empty() && t.size() <= 9 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
                    piece.index = std::stoi(t);
                else
                    piece.name = t;
                label = findPosition(o, piece);
            }
            if (p < 0 || label < 0) continue;
            if (ignoredPieces_.count(o)) {
                error(il.range, "illegal placements on orbit '" + il.orbit.text + "' are not built: " + stickerNote(o));
                continue;
            }
            if (!seen.emplace(o, p, label).second) {
                error(il.range, "this illegal placement is given twice");
                continue;
            }
            if (out_.orbits[o].solvedLabel[p] == label) {
                error(il.range, "the solved state has a piece labelled " + il.label.text + " at that position: it "
                                "cannot be illegal");
                continue;
            }
            out_.illegal.push_back({o, p, label, il.range});
        }
    }

    // ---- moves

    void lowerPowerScheme() {
        if (src_.powers.names.empty()) {
            scheme_.push_back({1, "", true, {}});
            return;
        }
        std::set<std::string> suffixes;
        std::set<int> powers;
        for (const auto& p : src_.powers.names) {
            bool ok = true;
            if (p.power == 0) {
                error(p.range, "power 0 cannot be named (it is the identity)");
                ok = false;
            }
            if (!powers.insert(p.power).second) {
                error(p.range, "power " + std::to_string(p.power) + " is named twice");
                ok = false;
            }
            if (!validSuffix(p.suffix)) {
                error(p.range, "power suffix \"" + p.suffix +
                                   "\" must be letters, digits or _ followed by primes, so that names like R2 or R' can be written");
                ok = false;
            } else if (!suffixes.insert(p.suffix).second) {
                error(p.range, "power suffix \"" + p.suffix + "\" is used twice");
                ok = false;
            }
            if (ok) scheme_.push_back(p);
        }
    }

    static bool validSuffix(const std::string& suffix) {
        size_t i = 0;
        while (i < suffix.size() && (std::isalnum((unsigned char)suffix[i]) || suffix[i] == '_')) ++i;
        while (i < suffix.size() && suffix[i] == '\'') ++i;
        return i == suffix.size();
    }

    std::optional<Element> elementFromCycles(const std::vector<ast::OrbitCycles>& cycles, bool mirror) {
        Element e = identity(out_.orbits);
        e.mirror = mirror;
        bool ok = true;
        std::map<int, std::set<int>> used;  // orbit -> positions already in a cycle
        for (const auto& oc : cycles) {
            if (!orbitIndex_.count(oc.orbit.text) && moveScope_.elements.count(oc.orbit.text)) {
                // `A (B C)` reads as cycles; the user most likely meant a sequence.
                error(oc.orbit.range, "'" + oc.orbit.text + "' is a move, not an orbit; a body starting with `name (` "
                                      "is read as cycles, so write a sequence as `(" + oc.orbit.text + " (...))`");
                ok = false;
                continue;
            }
            int o = findOrbit(oc.orbit);
            if (o < 0) {
                ok = false;
                continue;
            }
            const Orbit& orbit = out_.orbits[o];
            for (const auto& c : oc.cycles) {
                std::vector<int> pos;
                std::vector<int> twist;
                bool cycleOk = true;
                for (const auto& el : c.elements) {
                    int p = findPosition(o, el.position);
                    if (p < 0) {
                        cycleOk = false;
                        continue;
                    }
                    if (!used[o].insert(p).second) {
                        error(el.position.range, "position '" + positionText(orbit, p) +
                                                     "' appears more than once in this definition");
                        cycleOk = false;
                        continue;
                    }
                    // note [ignored orientation]
                    // `orbit corners 8 orient 3 ignored`: the moves give
                    // twists modulo 3 (checked), the orbit is unoriented, so
                    // the twists are dropped (mod 1): the states are the
                    // orbit of the solved state with the orientation erased,
                    // the image of the group under forgetting it (as a .tws
                    // Solved block's `?` on every piece).
                    const int modulus = std::max(orbit.orient, orbit.ignoredOrient);
                    if (el.twist <= -modulus || el.twist >= modulus) {
                        error(el.range, "orientation change " + std::to_string(el.twist) + " is out of range for orbit '" +
                                            orbit.name + "' (orientation modulus " + std::to_string(modulus) +
                                            ")");
                        cycleOk = false;
                        continue;
                    }
                    pos.push_back(p);
                    twist.push_back(el.twist);
                }
                if (!cycleOk) {
                    ok = false;
                    continue;
                }
                // (a b c): the piece at a moves to b and gains a's twist.
                for (size_t i = 0; i < pos.size(); ++i) {
                    int to = pos[(i + 1) % pos.size()];
                    e.perm[o][to] = pos[i];
                    e.ori[o][to] = mod(twist[i], orbit.orient);
                }
            }
        }
        if (!ok) return std::nullopt;
        return e;
    }

    static std::string positionText(const Orbit& o, int p) {
        return o.positionNames.empty() ? std::to_string(p) : o.positionNames[p];
    }

    void lowerMoves() {
        moveScope_.what = "move";
        for (const auto& m : src_.moves) {
            bool fresh = declare(m.name.text, m.name.range, m.isMacro ? "macro" : "move");
            std::optional<Element> e;
            if (m.expr) e = ExprEvaluator(out_.orbits, moveScope_, file_, diags_).eval(*m.expr);
            else e = elementFromCycles(m.cycles, false);
            // A rejected duplicate is checked for errors of its own but takes
            // no part in anything else (no follow-on errors, e.g. symmetries).
            if (!fresh) continue;
            if (!e) {
                moveScope_.broken.insert(m.name.text);
                for (const auto& p : scheme_) moveScope_.broken.insert(m.name.text + p.suffix);
                continue;
            }
            if (m.isMacro) {
                out_.macros.push_back({m.name.text, *e, m.range});
                moveScope_.elements.emplace(m.name.text, *e);
                continue;
            }
            addFamily(m, *e);
        }
    }

    void addFamily(const ast::MoveDef& m, const Element& base) {
        long order = cycleOrder(base, out_.orbits, kMaxMoveOrder);
        if (order < 0) {
            error(m.name.range, "move '" + m.name.text + "' has an order above " + std::to_string(kMaxMoveOrder));
            moveScope_.broken.insert(m.name.text);
            return;
        }
        if (order == 1) {
            error(m.name.range, "move '" + m.name.text + "' is the identity");
            moveScope_.broken.insert(m.name.text);
            return;
        }
        int family = (int)out_.families.size();
        out_.families.push_back({m.name.text, base, (int)order, m.range});
        std::set<long> powersSeen;
        for (const auto& p : scheme_) {
            long k = mod(p.power, (int)order);
            if (k == 0 || !powersSeen.insert(k).second) continue;  // identity or an alias of a named power
            std::string name = m.name.text + p.suffix;
            if (!p.suffix.empty() && !declare(name, m.name.range, "move")) continue;
            Move move;
            move.name = name;
            move.family = family;
            move.power = (int)k;
            move.inMetric = p.inMetric;
            move.effect = power(base, k, out_.orbits);
            moveScope_.elements.emplace(name, move.effect);
            out_.moves.push_back(std::move(move));
        }
        // The family name always denotes the generator itself.
        moveScope_.elements.emplace(m.name.text, base);
    }

    // ---- symmetries

    void lowerSymmetries() {
        Scope scope;
        scope.what = "symmetry";
        for (const auto& s : src_.symmetries) {
            bool fresh = declare(s.name.text, s.name.range, "symmetry");
            std::optional<Element> e;
            if (s.expr) {
                e = ExprEvaluator(out_.orbits, scope, file_, diags_).eval(*s.expr);
                if (e && e->mirror != s.mirror)
                    error(s.name.range, std::string("symmetry '") + s.name.text + "' is " +
                                            (e->mirror ? "a mirror; declare it `mirror`" : "not a mirror"));
            } else {
                e = elementFromCycles(s.cycles, s.mirror);
            }
            if (!fresh) continue;
            if (!e) {
                scope.broken.insert(s.name.text);
                continue;
            }
            if (s.mirror && !ignoredPieces_.empty()) {
                error(s.name.range, "mirror symmetry '" + s.name.text + "' is not built: " +
                                        stickerNote(ignoredPieces_.begin()->first));
                scope.broken.insert(s.name.text);
                continue;
            }
            checkSymmetryPreservesMoves(s, *e);
            scope.elements.emplace(s.name.text, *e);
            out_.symmetries.push_back({s.name.text, *e, s.range});
        }
    }

    // S maps the move set onto itself iff S m S^-1 is a move for every move m
    // (the set is finite, so "into" is "onto"). See note [element convention].
    void checkSymmetryPreservesMoves(const ast::SymmetryDef& s, const Element& sym) {
        if (moveEffects_.size() != out_.moves.size()) {
            moveEffects_.clear();
            for (const auto& m : out_.moves) moveEffects_.insert({m.effect.perm, m.effect.ori});
        }
        Element symInverse = inverse(sym, out_.orbits);
        for (const auto& m : out_.moves) {
            Element image = compose(compose(sym, m.effect, out_.orbits), symInverse, out_.orbits);
            if (!moveEffects_.count({image.perm, image.ori})) {
                error(s.name.range, "symmetry '" + s.name.text + "' does not map move '" + m.name +
                                        "' onto a move (its conjugate is not in the move set)");
                return;  // one report per symmetry is enough
            }
        }
    }

    // ---- subgroups, patterns, solvers

    void lowerSubgroups() {
        for (const auto& sg : src_.subgroups) {
            bool ok = declare(sg.name.text, sg.name.range, "subgroup");
            Subgroup sub;
            sub.name = sg.name.text;
            sub.where = sg.range;
            for (const auto& g : sg.generators) {
                auto e = ExprEvaluator(out_.orbits, moveScope_, file_, diags_).eval(g);
                if (!e) {
                    ok = false;
                    continue;
                }
                sub.generators.push_back(*e);
                sub.generatorText.push_back(exprText(g));
            }
            for (const auto& inv : sg.invariants) {
                int o = findOrbit(inv.orbit);
                if (o < 0) {
                    ok = false;
                    continue;
                }
                if (ignoredPieces_.count(o)) {
                    error(inv.range, "subgroup invariants on orbit '" + inv.orbit.text + "' are not built: " + stickerNote(o));
                    ok = false;
                    continue;
                }
                if (inv.kind == ast::Invariant::Kind::KeepInSets) {
                    KeepInSets keep;
                    keep.orbit = o;
                    std::set<int> seen;
                    for (const auto& set : inv.sets) {
                        std::vector<int> positions;
                        for (const auto& p : set) {
                            int i = findPosition(o, p);
                            if (i < 0) {
                                ok = false;
                            } else if (!seen.insert(i).second) {
                                error(p.range, "position '" + positionText(out_.orbits[o], i) +
                                                   "' is in more than one set");
                                ok = false;
                            } else {
                                positions.push_back(i);
                            }
                        }
                        keep.sets.push_back(std::move(positions));
                    }
                    sub.keepIn.push_back(std::move(keep));
                } else {
                    if (out_.orbits[o].orient == 1) {
                        error(inv.orbit.range, "orbit '" + inv.orbit.text + "' has no orientation" + ignoredNote(o));
                        ok = false;
                    }
                    std::vector<int> positions;
                    for (const auto& p : inv.positions) {
                        int i = findPosition(o, p);
                        if (i < 0) ok = false;
                        else positions.push_back(i);
                    }
                    std::sort(positions.begin(), positions.end());
                    sub.oriented.push_back({o, std::move(positions)});
                }
            }
            if (sg.generators.empty() && sg.invariants.empty()) {
                error(sg.name.range, "subgroup '" + sg.name.text + "' has neither generators nor invariants");
                ok = false;
            }
            if (!ok) {
                brokenRefs_.insert(sg.name.text);
                continue;
            }
            subgroupIndex_[sub.name] = (int)out_.subgroups.size();
            out_.subgroups.push_back(std::move(sub));
        }
    }

    void lowerPatterns() {
        for (const auto& pd : src_.patterns) {
            bool ok = declare(pd.name.text, pd.name.range, "pattern");
            Pattern pattern;
            pattern.name = pd.name.text;
            pattern.where = pd.range;
            if (pd.coset) {
                auto it = subgroupIndex_.find(pd.coset->text);
                if (it != subgroupIndex_.end()) {
                    pattern.cosetSubgroup = it->second;
                } else {
                    if (!brokenRefs_.count(pd.coset->text)) error(pd.coset->range, "unknown subgroup '" + pd.coset->text + "'");
                    ok = false;
                }
                // note [projected coset patterns]: parts beside the coset name
                // the orientations its table keeps; tracking more pieces is not
                // built.
                for (const auto& part : pd.parts)
                    if (part.positions || !part.orientations || part.unordered) {
                        error(part.range,
                              "beside 'coset', a pattern part names the orientations the table keeps "
                              "('ORBIT {POSITIONS}: orientations;'); tracking positions beside a coset coordinate "
                              "is not built yet");
                        ok = false;
                    }
            }
            for (const auto& part : pd.parts) {
                int o = findOrbit(part.orbit);
                if (o < 0) {
                    ok = false;
                    continue;
                }
                if (ignoredPieces_.count(o) && !part.positions) {
                    // note [ignored pieces]: the stickers' slots carry
                    // positions and orientations together.
                    error(part.range, "a part tracking only orientations of orbit '" + part.orbit.text +
                                          "' is not built: " + stickerNote(o) +
                                          "; track positions (they include the orientations)");
                    ok = false;
                    continue;
                }
                PatternPart pp;
                pp.orbit = o;
                pp.positions = part.positions;
                pp.orientations = part.orientations;
                pp.unordered = part.unordered;
                pp.where = part.range;
                if (!part.positions && !part.orientations) {
                    error(part.range, "a pattern part must track positions, orientations or both");
                    ok = false;
                }
                if (part.orientations && out_.orbits[o].orient == 1) {
                    error(part.range, "orbit '" + part.orbit.text + "' has no orientation to track" + ignoredNote(o));
                    ok = false;
                }
                std::set<int> pieces;
                for (const auto& p : part.pieces) {
                    int i = findPosition(o, p);
                    if (i < 0) ok = false;
                    else if (!pieces.insert(i).second) {
                        error(p.range, "piece '" + positionText(out_.orbits[o], i) + "' is listed twice");
                        ok = false;
                    }
                }
                if (part.pieces.empty())
                    for (int i = 0; i < out_.orbits[o].size; ++i) pieces.insert(i);
                pp.pieces.assign(pieces.begin(), pieces.end());
                pattern.parts.push_back(std::move(pp));
            }
            // note [declared exact depth] in runtime/include/pz/tables/projected_coset.hpp.
            if (pd.exact) {
                if (!pd.coset) {
                    error(pd.exactRange, "'exact' belongs to a coset pattern: it sets how deep a projected coset "
                                         "table is exact");
                    ok = false;
                } else if (pd.parts.empty()) {
                    error(pd.exactRange, "a whole coset table is exact at every depth; 'exact' applies to a "
                                         "projected coset pattern (orientations kept beside the coset)");
                    ok = false;
                } else if (*pd.exact < 1 || *pd.exact > kMaxProjectedExactDepth) {
                    error(pd.exactRange, "exact depth " + std::to_string(*pd.exact) + " is out of range 1.." +
                                             std::to_string(kMaxProjectedExactDepth) +
                                             " (the build's entries hold 4 bits)");
                    ok = false;
                } else {
                    pattern.exactDepth = *pd.exact;
                }
            }
            if (pd.parts.empty() && !pd.coset) {
                error(pd.name.range, "pattern '" + pd.name.text + "' tracks nothing");
                ok = false;
            }
            if (!ok) {
                brokenRefs_.insert(pd.name.text);
                continue;
            }
            patternIndex_[pattern.name] = (int)out_.patterns.size();
            out_.patterns.push_back(std::move(pattern));
        }
    }

    void lowerSolvers() {
        for (const auto& sd : src_.solvers) {
            bool ok = declare(sd.name.text, sd.name.range, "solver");
            Solver solver;
            solver.name = sd.name.text;
            solver.kind = sd.kind == ast::SolverDef::Kind::Optimal  ? Solver::Kind::Optimal
                          : sd.kind == ast::SolverDef::Kind::Phased ? Solver::Kind::Phased
                                                                    : Solver::Kind::Sift;
            solver.where = sd.range;
            auto resolve = [&](const std::vector<ast::Name>& names, const std::map<std::string, int>& index,
                               const std::string& kind, std::vector<int>& out) {
                for (const auto& n : names) {
                    auto it = index.find(n.text);
                    if (it != index.end()) out.push_back(it->second);
                    else {
                        if (!brokenRefs_.count(n.text)) error(n.range, "unknown " + kind + " '" + n.text + "'");
                        ok = false;
                    }
                }
            };
            if (solver.kind == Solver::Kind::Optimal) {
                resolve(sd.patterns, patternIndex_, "pattern", solver.patterns);
                if (sd.patterns.empty()) {
                    error(sd.name.range, "optimal solver '" + sd.name.text + "' needs at least one pattern");
                    ok = false;
                }
            } else if (solver.kind == Solver::Kind::Phased) {
                resolve(sd.phases, subgroupIndex_, "subgroup", solver.phases);
                if (sd.phases.empty()) {
                    error(sd.name.range, "phased solver '" + sd.name.text + "' needs at least one subgroup");
                    ok = false;
                }
            }
            if (ok) out_.solvers.push_back(std::move(solver));
        }
    }

    // ---- grid-actor puzzles

    void lowerGrid() {
        const auto& g = src_.grid;
        std::map<std::string, int> directionIndex;
        for (const auto& d : g.directions) {
            if (!declare(d.name.text, d.name.range, "direction")) continue;
            if (d.dx == 0 && d.dy == 0) error(d.range, "direction '" + d.name.text + "' does not move");
            if (d.dx < -1 || d.dx > 1 || d.dy < -1 || d.dy > 1)
                error(d.range, "direction '" + d.name.text + "' must move by at most one cell per axis");
            // The grid solver's limit (kMaxDirections in runtime/include/pz/grid_search.hpp).
            constexpr int kMaxGridDirections = 16;
            if ((int)out_.grid.directions.size() == kMaxGridDirections)
                error(d.name.range, "direction '" + d.name.text + "' is one too many: a grid puzzle has at most " +
                                        std::to_string(kMaxGridDirections) + " directions");
            directionIndex[d.name.text] = (int)out_.grid.directions.size();
            out_.grid.directions.push_back({d.name.text, d.dx, d.dy});
        }
        if (g.directions.empty()) error(src_.name.range, "grid puzzle '" + src_.name.text + "' declares no directions");
        std::set<char> chars;
        for (const auto& c : g.colours) {
            bool ok = declare(c.name.text, c.name.range, "colour");
            Colour colour;
            colour.name = c.name.text;
            for (auto [text, slot] : {std::pair{&c.actorChar, &colour.actorChar}, std::pair{&c.goalChar, &colour.goalChar}}) {
                if (text->size() != 1) {
                    error(c.range, "colour '" + c.name.text + "': level characters must be single letters, got '" +
                                       *text + "'");
                    ok = false;
                } else if (!chars.insert((*text)[0]).second || (*text)[0] == '.') {
                    error(c.range, "colour '" + c.name.text + "': character '" + *text + "' is already in use");
                    ok = false;
                } else {
                    *slot = (*text)[0];
                }
            }
            int n = (int)out_.grid.directions.size();
            colour.motion.assign(n, -1);
            for (int d = 0; d < n; ++d) {
                const auto& dir = out_.grid.directions[d];
                if (c.motion == ast::ColourDef::Motion::With) colour.motion[d] = d;
                if (c.motion == ast::ColourDef::Motion::Against)
                    for (int e = 0; e < n; ++e)
                        if (out_.grid.directions[e].dx == -dir.dx && out_.grid.directions[e].dy == -dir.dy)
                            colour.motion[d] = e;
            }
            for (const auto& [pressed, moves] : c.map) {
                auto p = directionIndex.find(pressed.text);
                auto m = directionIndex.find(moves.text);
                if (p == directionIndex.end()) error(pressed.range, "unknown direction '" + pressed.text + "'");
                if (m == directionIndex.end()) error(moves.range, "unknown direction '" + moves.text + "'");
                if (p == directionIndex.end() || m == directionIndex.end()) {
                    ok = false;
                    continue;
                }
                if (colour.motion[p->second] >= 0) {
                    error(pressed.range, "direction '" + pressed.text + "' is mapped twice");
                    ok = false;
                }
                colour.motion[p->second] = m->second;
            }
            for (int d = 0; d < n && ok; ++d)
                if (colour.motion[d] < 0) {
                    error(c.range, "colour '" + c.name.text + "' does not say where it moves when '" +
                                       out_.grid.directions[d].name + "' is pressed" +
                                       (c.motion == ast::ColourDef::Motion::Against ? " (no opposite direction)" : ""));
                    ok = false;
                }
            if (ok) out_.grid.colours.push_back(std::move(colour));
        }
        if (g.colours.empty()) error(src_.name.range, "grid puzzle '" + src_.name.text + "' declares no colours");
        std::string dir;
        if (auto slash = file_.find_last_of('/'); slash != std::string::npos) dir = file_.substr(0, slash + 1);
        for (const auto& level : g.levels) {
            if (level.text.empty()) {
                error(level.range, "empty level path");
                continue;
            }
            if (std::any_of(level.text.begin(), level.text.end(), [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; })) {
                error(level.range, "level path contains a control character");
                continue;
            }
            out_.grid.levelPaths.push_back(level.text[0] == '/' ? level.text : dir + level.text);
        }
    }

    struct Declared {
        std::string kind;
        SourceRange where;
    };

    const ast::Puzzle& src_;
    std::string file_;
    DiagnosticEngine& diags_;
    int errorsBefore_ = diags_.errorCount();
    Puzzle out_;
    std::map<std::string, Declared> declared_;
    std::map<std::string, int> orbitIndex_;
    std::set<std::string> brokenOrbits_;
    std::vector<std::map<std::string, int>> positionIndex_;
    std::vector<ast::PowerName> scheme_;
    Scope moveScope_;
    // The moves' (perm, ori), for the symmetry check.
    std::set<std::pair<std::vector<std::vector<int>>, std::vector<std::vector<int>>>> moveEffects_;
    std::map<std::string, int> subgroupIndex_, patternIndex_;
    std::set<std::string> brokenRefs_;
    // note [ignored pieces]: orbit -> per piece, whether its orientation is
    // ignored (orbits read as stickers); where each orbit's statement is.
    std::map<int, std::vector<char>> ignoredPieces_;
    std::map<int, SourceRange> ignoredAt_;
};

// Moves and macros by name, for evaluate().
Scope moveScopeOf(const Puzzle& puzzle) {
    Scope scope;
    for (const auto& f : puzzle.families) scope.elements.emplace(f.name, f.base);
    for (const auto& m : puzzle.moves) scope.elements.emplace(m.name, m.effect);
    for (const auto& m : puzzle.macros) scope.elements.emplace(m.name, m.effect);
    return scope;
}

}  // namespace

std::optional<Puzzle> lower(const ast::Puzzle& puzzle, DiagnosticEngine& diags) {
    return Lowerer(puzzle, diags).run();
}

std::optional<Puzzle> loadPuzzle(const std::string& path, DiagnosticEngine& diags) {
    auto ast = parsePuzzleFile(path, diags);
    if (!ast) return std::nullopt;
    return lower(*ast, diags);
}

std::optional<Element> evaluate(const Puzzle& puzzle, const ast::Expr& expr, const std::string& file,
                                DiagnosticEngine& diags) {
    Scope scope = moveScopeOf(puzzle);
    return ExprEvaluator(puzzle.orbits, scope, file, diags).eval(expr);
}

std::optional<Element> evaluateText(const Puzzle& puzzle, const std::string& text, const std::string& what,
                                    DiagnosticEngine& diags) {
    if (!diags.sourceText(what)) diags.addSource(what, text);
    // Puzzles read from .tws take twsearch's move sequences ("2R U2, R'").
    const bool tws = puzzle.file.size() >= 4 && puzzle.file.compare(puzzle.file.size() - 4, 4, ".tws") == 0;
    auto expr = tws ? parseTwsAlgText(what, text, SourceRange::at(1, 1), diags)
                    : parseExpressionText(what, text, SourceRange::at(1, 1), diags);
    if (!expr) return std::nullopt;
    return evaluate(puzzle, *expr, what, diags);
}

}  // namespace pz::ir
