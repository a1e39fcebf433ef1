// The .tws (ksolve / twsearch) reader: definitions and scramble files to the
// AST. See tws_reader.hpp for the format and its semantics.
#include "dsl/tws_reader.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

namespace pz {

namespace {

constexpr long kMaxOrder = 1000000;  // docs/language.md: move order <= 10^6

struct Tok {
    std::string text;
    int line = 0, col = 0;
    SourceRange range() const { return SourceRange::at(line, col, (int)text.size()); }
};

// Blank-separated tokens; a token starting with '#' comments out the rest
// of its line (ksolve: "# at the beginning of the line"; twsearch the same).
std::vector<Tok> tokenize(const std::string& text, SourceRange origin = SourceRange::at(1, 1)) {
    std::vector<Tok> toks;
    int line = origin.line, col = origin.col;
    size_t i = 0;
    while (i < text.size()) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            ++line, col = 1, ++i;
            continue;
        }
        if (c <= ' ') {
            ++col, ++i;
            continue;
        }
        if (c == '#') {
            while (i < text.size() && text[i] != '\n') ++i;
            continue;
        }
        Tok t;
        t.line = line, t.col = col;
        while (i < text.size() && (unsigned char)text[i] > ' ') t.text += text[i++], ++col;
        toks.push_back(std::move(t));
    }
    return toks;
}

// Splits tokens at commas (twsearch separates moves by blanks or commas).
std::vector<Tok> splitCommas(const std::vector<Tok>& in) {
    std::vector<Tok> out;
    for (const auto& t : in) {
        size_t start = 0;
        while (start <= t.text.size()) {
            size_t comma = t.text.find(',', start);
            size_t end = comma == std::string::npos ? t.text.size() : comma;
            if (end > start) out.push_back({t.text.substr(start, end - start), t.line, t.col + (int)start});
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    return out;
}

bool isNumber(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// twsearch's isrotation(): x, y, z (optionally 2 or '), or capitals then `v`.
bool isRotationName(const std::string& mv) {
    if (mv.empty()) return false;
    if ((mv[0] == 'x' || mv[0] == 'y' || mv[0] == 'z') &&
        (mv.size() == 1 || (mv.size() == 2 && (mv[1] == '2' || mv[1] == '\''))))
        return true;
    size_t i = 0;
    while (i < mv.size() && (mv[i] == '_' || (mv[i] >= 'A' && mv[i] <= 'Z'))) ++i;
    return i > 0 && i + 1 == mv.size() && mv[i] == 'v';
}

// twsearch's name for power j of a move of order n: R, R2, R3', R'.
std::string powerName(const std::string& base, long j, long n) {
    long tw = j;
    if (n - tw < tw) tw -= n;
    std::string s = base;
    if (tw != 1 && tw != -1) s += std::to_string(tw < 0 ? -tw : tw);
    if (tw < 0) s += "'";
    return s;
}

struct SetDef {
    std::string name;
    int size = 0, omod = 1;
    SourceRange range;
};

// An element in the IR convention (note [element convention]):
// perm[s][p] = position whose piece lands at p, ori[s][p] = twist it gains.
struct Elem {
    std::vector<std::vector<int>> perm, ori;
};

Elem identityOf(const std::vector<SetDef>& sets) {
    Elem e;
    for (const auto& s : sets) {
        e.perm.emplace_back(s.size);
        std::iota(e.perm.back().begin(), e.perm.back().end(), 0);
        e.ori.emplace_back(s.size, 0);
    }
    return e;
}

Elem compose(const Elem& a, const Elem& b, const std::vector<SetDef>& sets) {
    Elem c = b;
    for (size_t s = 0; s < sets.size(); ++s)
        for (int p = 0; p < sets[s].size; ++p) {
            c.perm[s][p] = a.perm[s][b.perm[s][p]];
            c.ori[s][p] = (a.ori[s][b.perm[s][p]] + b.ori[s][p]) % sets[s].omod;
        }
    return c;
}

Elem inverse(const Elem& a, const std::vector<SetDef>& sets) {
    Elem c = a;
    for (size_t s = 0; s < sets.size(); ++s)
        for (int p = 0; p < sets[s].size; ++p) {
            c.perm[s][a.perm[s][p]] = p;
            c.ori[s][a.perm[s][p]] = (sets[s].omod - a.ori[s][p]) % sets[s].omod;
        }
    return c;
}

bool isIdentity(const Elem& e) {
    for (size_t s = 0; s < e.perm.size(); ++s)
        for (size_t p = 0; p < e.perm[s].size(); ++p)
            if (e.perm[s][p] != (int)p || e.ori[s][p] != 0) return false;
    return true;
}

// Order from the cycle structure; -1 above kMaxOrder.
long orderOf(const Elem& e, const std::vector<SetDef>& sets) {
    long order = 1;
    for (size_t s = 0; s < sets.size(); ++s) {
        std::vector<bool> seen(sets[s].size, false);
        for (int p = 0; p < sets[s].size; ++p) {
            if (seen[p]) continue;
            long len = 0, twist = 0;
            for (int q = p; !seen[q]; q = e.perm[s][q]) seen[q] = true, ++len, twist += e.ori[s][q];
            long m = sets[s].omod;
            long cyc = len * (m / std::gcd(twist % m, m));
            order = std::lcm(order, cyc);
            if (order > kMaxOrder) return -1;
        }
    }
    return order;
}

// The AST cycles of an element: (a b c) moves a's piece to b; the twist on
// a is what the piece leaving a gains (= ori at its destination).
std::vector<ast::OrbitCycles> cyclesOf(const Elem& e, const std::vector<SetDef>& sets, SourceRange where) {
    std::vector<ast::OrbitCycles> result;
    for (size_t s = 0; s < sets.size(); ++s) {
        const int n = sets[s].size;
        std::vector<int> dest(n);
        for (int p = 0; p < n; ++p) dest[e.perm[s][p]] = p;
        std::vector<bool> seen(n, false);
        ast::OrbitCycles oc;
        oc.orbit = {sets[s].name, where};
        oc.range = where;
        for (int start = 0; start < n; ++start) {
            if (seen[start]) continue;
            ast::Cycle c;
            c.range = where;
            for (int q = start; !seen[q]; q = dest[q]) {
                seen[q] = true;
                ast::CycleElement el;
                el.position.index = q;
                el.position.range = where;
                el.twist = e.ori[s][dest[q]];
                el.range = where;
                c.elements.push_back(el);
            }
            if (c.elements.size() == 1 && c.elements[0].twist == 0) continue;
            oc.cycles.push_back(std::move(c));
        }
        if (!oc.cycles.empty()) result.push_back(std::move(oc));
    }
    return result;
}

ast::Expr refExpr(const std::string& name, SourceRange where) {
    ast::Expr e;
    e.kind = ast::Expr::Kind::Ref;
    e.ref = {name, where};
    e.range = where;
    return e;
}

// Note [sticker sets]. A set of n pieces with m orientations whose Solved
// block gives `?` on some pieces only (maltese, puck) is read as n x m
// stickers: the reader writes it as declared with `orient SET ignored
// { the '?' pieces }`, and lowering reads it as stickers (note [ignored
// pieces] in compiler/ir/lower.cpp): a piece at position p with orientation
// o has its sticker k at slot p*m + (k + o) mod m; sticker k of a piece
// labelled L is (L, k), every sticker of a `?` piece (L, *). The states are
// exactly the puzzle's with the `?` pieces' orientation forgotten. A
// scramble file gives such a set per piece, as any other; its lift becomes
// a slot permutation where the position is loaded (tws_support.cpp).

// One set's entry in a position block, as written.
struct SetEntry {
    int set = -1;
    Tok head;
    std::vector<Tok> perm, ori;
};

// A position block (Solved, Move, Scramble, ...): entries until End.
struct Block {
    Tok head;
    std::vector<SetEntry> entries;
    bool ok = true;
};

class Reader {
public:
    Reader(const std::string& file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

    void error(SourceRange r, const std::string& m) { diags_.error(file_, r, m); }
    void warning(SourceRange r, const std::string& m) { diags_.warning(file_, r, m); }

    std::vector<Tok> toks_;
    size_t i_ = 0;
    std::vector<SetDef> sets_;
    // Per set (note [solved orientations]): orientation does not matter
    // (`?` on every piece of the Solved block), and the solved state's
    // orientations when not all 0 (empty otherwise).
    std::vector<char> ignoredOri_;
    std::vector<std::vector<int>> solvedOri_;
    std::vector<char> stickerSet_;  // note [sticker sets]: read as stickers

    bool atEnd() const { return i_ >= toks_.size(); }
    const Tok& peek() const { return toks_[i_]; }

    // The remaining tokens on the line of `head`.
    std::vector<Tok> restOfLine(const Tok& head) {
        std::vector<Tok> r;
        while (!atEnd() && peek().line == head.line) r.push_back(toks_[i_++]);
        return r;
    }

    // Skips a block up to and including its End.
    void skipBlock(const Tok& head) {
        while (!atEnd() && peek().text != "End") ++i_;
        if (atEnd()) error(head.range(), "'" + head.text + "' has no matching End");
        else ++i_;
    }

    int findSet(const std::string& name) const {
        for (size_t s = 0; s < sets_.size(); ++s)
            if (sets_[s].name == name) return (int)s;
        return -1;
    }

    static bool numeric(const Tok& t) { return isNumber(t.text) || t.text == "?" || (t.text[0] == '?' && isNumber(t.text.substr(1))); }

    // Reads set entries until End. Each entry: a set name, SIZE numbers (the
    // permutation or labels), optionally SIZE more (the orientations).
    Block readBlock(const Tok& head) {
        Block b;
        b.head = head;
        std::set<int> seen;
        while (true) {
            if (atEnd()) {
                error(head.range(), "'" + head.text + "' has no matching End");
                b.ok = false;
                return b;
            }
            Tok t = toks_[i_++];
            if (t.text == "End") return b;
            if (numeric(t)) {
                error(t.range(), "expected a set name or End, found the number '" + t.text + "'");
                b.ok = false;
                while (!atEnd() && numeric(peek())) ++i_;
                continue;
            }
            SetEntry e;
            e.head = t;
            e.set = findSet(t.text);
            bool entryOk = true;
            if (e.set < 0) {
                error(t.range(), "unknown set '" + t.text + "'");
                entryOk = false;
            } else if (!seen.insert(e.set).second) {
                error(t.range(), "set '" + t.text + "' is given twice in this block");
                entryOk = false;
            }
            std::vector<Tok> nums;
            while (!atEnd() && numeric(peek())) nums.push_back(toks_[i_++]);
            if (!entryOk) {
                b.ok = false;
                continue;
            }
            const int n = sets_[e.set].size;
            if ((int)nums.size() != n && (int)nums.size() != 2 * n) {
                SourceRange where = nums.empty() ? t.range() : nums.back().range();
                error(where, "set '" + t.text + "' has " + std::to_string(n) + " pieces: expected " +
                                 std::to_string(n) + " numbers (the permutation), optionally followed by " +
                                 std::to_string(n) + " (the orientations); found " + std::to_string(nums.size()));
                b.ok = false;
                continue;
            }
            e.perm.assign(nums.begin(), nums.begin() + n);
            e.ori.assign(nums.begin() + n, nums.end());
            b.entries.push_back(std::move(e));
        }
    }

    // A number token in [lo, hi]; reports and returns -1 otherwise. `?`
    // wildcards are reported as not supported.
    int number(const Tok& t, long lo, long hi, const std::string& what) {
        if (t.text[0] == '?') {
            error(t.range(), "'?' (" + what + " wildcard) is not supported by pzc's .tws import");
            return -1;
        }
        const bool digits = !t.text.empty() && std::all_of(t.text.begin(), t.text.end(),
                                                           [](char c) { return c >= '0' && c <= '9'; });
        if (!digits) {
            error(t.range(), "expected a " + what + " (a number), found '" + t.text + "'");
            return -1;
        }
        long v = t.text.size() > 9 ? -1 : std::stol(t.text);
        if (v < lo || v > hi) {
            error(t.range(), what + " " + t.text + " is out of range (" + std::to_string(lo) + ".." +
                                 std::to_string(hi) + ")");
            return -1;
        }
        return (int)v;
    }

    // Orientations of an entry (zeros when not given), each in 0..omod-1.
    // With `wild`, a `?` (orientation that does not matter) is accepted:
    // wild[p] is set and out[p] is 0.
    bool orientations(const SetEntry& e, std::vector<int>& out, std::vector<char>* wild = nullptr) {
        const SetDef& sd = sets_[e.set];
        out.assign(sd.size, 0);
        if (wild) wild->assign(sd.size, 0);
        bool ok = true;
        for (size_t p = 0; p < e.ori.size(); ++p) {
            if (wild && e.ori[p].text == "?") {
                (*wild)[p] = 1;
                continue;
            }
            int v = number(e.ori[p], 0, sd.omod - 1, "orientation");
            if (v < 0) ok = false;
            else out[p] = v;
        }
        return ok;
    }

    // A Move / MoveTransformation block to an element.
    std::optional<Elem> moveElement(const Block& b, bool newStyle) {
        Elem m = identityOf(sets_);
        bool ok = b.ok;
        for (const auto& e : b.entries) {
            const SetDef& sd = sets_[e.set];
            std::vector<int> perm(sd.size), ori;
            std::vector<int> usedAt(sd.size, -1);
            bool entryOk = true;
            for (int p = 0; p < sd.size; ++p) {
                int v = number(e.perm[p], newStyle ? 0 : 1, newStyle ? sd.size - 1 : sd.size, "position");
                if (v < 0) {
                    entryOk = false;
                    continue;
                }
                v -= newStyle ? 0 : 1;
                if (usedAt[v] >= 0) {
                    error(e.perm[p].range(), "position " + e.perm[p].text + " appears twice in the permutation of set '" +
                                                 sd.name + "'; a move must be a permutation");
                    entryOk = false;
                }
                usedAt[v] = p;
                perm[p] = v;
            }
            if (!orientations(e, ori)) entryOk = false;
            if (!entryOk) {
                ok = false;
                continue;
            }
            for (int p = 0; p < sd.size; ++p) {
                m.perm[e.set][p] = perm[p];
                // ksolve style: the twist is listed at the position the piece leaves.
                m.ori[e.set][p] = newStyle ? ori[p] : ori[perm[p]];
            }
            // Note [solved orientations]: a set whose orientation does not
            // matter loses its twists; one whose solved state has non-zero
            // orientations is read in the frame where they are 0.
            if (e.set < (int)ignoredOri_.size() && ignoredOri_[e.set]) {
                std::fill(m.ori[e.set].begin(), m.ori[e.set].end(), 0);
            } else if (e.set < (int)solvedOri_.size() && !solvedOri_[e.set].empty()) {
                const auto& os = solvedOri_[e.set];
                for (int p = 0; p < sd.size; ++p)
                    m.ori[e.set][p] = ((m.ori[e.set][p] + os[perm[p]] - os[p]) % sd.omod + sd.omod) % sd.omod;
            }
        }
        if (!ok) return std::nullopt;
        return m;
    }

    // A position (Solved, StartState, Scramble): per set, labels (1-based)
    // and orientations; sets not given are empty. wild[s][p]: the
    // orientation at p was given as `?` (twsearch's orientation wildcard).
    bool positionOf(const Block& b, bool newStyle, std::vector<std::vector<int>>& labels,
                    std::vector<std::vector<int>>& ori, std::vector<std::vector<char>>& wild) {
        labels.assign(sets_.size(), {});
        ori.assign(sets_.size(), {});
        wild.assign(sets_.size(), {});
        bool ok = b.ok;
        for (const auto& e : b.entries) {
            const SetDef& sd = sets_[e.set];
            std::vector<int> lab(sd.size), o;
            std::vector<char> w;
            bool entryOk = true;
            for (int p = 0; p < sd.size; ++p) {
                int v = number(e.perm[p], newStyle ? 0 : 1, 100000, "piece label");
                if (v < 0) entryOk = false;
                lab[p] = v + (newStyle ? 1 : 0);
            }
            if (!orientations(e, o, &w)) entryOk = false;
            if (!entryOk) {
                ok = false;
                continue;
            }
            labels[e.set] = lab;
            ori[e.set] = o;
            wild[e.set] = w;
        }
        return ok;
    }

    const std::string file_;
    DiagnosticEngine& diags_;
};

// Unsupported ksolve commands: blocks up to End, and one-line commands.
const std::set<std::string> kUnsupportedBlocks = {"Block", "ForbiddenPairs", "ForbiddenGroups", "MoveLimits"};
const std::set<std::string> kDeprecatedBlocks = {"Multiplicators", "ParallelMoves"};
// A twsearch fork's rewriting of printed solutions (one line each): refused,
// since ignoring it would print other solutions than that program does.
const std::set<std::string> kUnsupportedLines = {"ReplaceMoves"};

class DefinitionReader : public Reader {
public:
    using Reader::Reader;

    std::optional<ast::Puzzle> read(const std::string& text) {
        toks_ = tokenize(text);
        ast::Puzzle out;
        out.file = file_;
        out.kind = ast::Puzzle::Kind::Permutation;
        out.range = SourceRange::at(1, 1);
        while (!atEnd()) readCommand(toks_[i_++], out);
        resolveSequences(out);

        if (sets_.empty() && !diags_.hasErrors()) error(SourceRange{}, "the definition has no Set");
        if (families_.empty() && !diags_.hasErrors()) error(SourceRange{}, "the definition has no moves");
        if (diags_.hasErrors()) return std::nullopt;

        if (!haveName_) {
            std::string stem = std::filesystem::path(file_).stem().string();
            out.name = {stem.empty() ? std::string("Unnamed") : stem, SourceRange::at(1, 1)};
        }
        addSolvedLabels(out);
        addIllegalPlacements(out);
        addPowerNames(out);
        return out;
    }

private:
    // A MoveAlias or MoveSequence, defined once every move it names is.
    struct Seq {
        Tok head, name;
        std::vector<Tok> moves;
        bool alias;
    };
    // What the commands read so far tell the later ones.
    bool haveSolved_ = false, haveName_ = false;
    std::vector<Seq> seqs_;
    std::vector<std::vector<int>> solvedLabels_;

    // One command of the definition (its first token read): dispatched to
    // the reader of that command.
    void readCommand(Tok t, ast::Puzzle& out) {
        const std::string& c = t.text;
        if (c == "Name") {
            readName(t, out);
        } else if (c == "Set") {
            readSet(t, out);
        } else if (c == "Solved" || c == "StartState") {
            readSolved(t, out);
        } else if (c == "Move" || c == "MoveTransformation") {
            readMove(t, out);
        } else if (c == "MoveAlias" || c == "MoveSequence") {
            auto rest = splitCommas(restOfLine(t));
            if (rest.size() < 2 || (c == "MoveAlias" && rest.size() != 2)) {
                error(t.range(), c == "MoveAlias" ? "expected 'MoveAlias NAME MOVE'" : "expected 'MoveSequence NAME MOVES...'");
                return;
            }
            seqs_.push_back({t, rest[0], std::vector<Tok>(rest.begin() + 1, rest.end()), c == "MoveAlias"});
        } else if (c == "Illegal") {
            readIllegal(t);
        } else if (c == "Ignore") {
            readIgnore(t);
        } else if (kUnsupportedBlocks.count(c)) {
            error(t.range(), "'" + c + "' is not supported by pzc's .tws import");
            skipBlock(t);
        } else if (kDeprecatedBlocks.count(c)) {
            warning(t.range(), "'" + c + "' is deprecated in ksolve and ignored");
            skipBlock(t);
        } else if (kUnsupportedLines.count(c)) {
            error(t.range(), "'" + c + "' is not supported by pzc's .tws import");
            restOfLine(t);
        } else if (c == "Scramble" || c == "ScrambleAlg" || c == "ScrambleState") {
            // A scramble file given as the definition: say where it goes.
            error(t.range(), "'" + c + "' belongs in a scramble file, not a puzzle definition: give the file with "
                             "`pzc solve DEFINITION.tws --tws-scrambles FILE`");
            skipBlock(t);
        } else {
            error(t.range(), "unexpected '" + c + "': expected Name, Set, Solved, Move, MoveAlias or MoveSequence");
            restOfLine(t);
        }
    }

    // Name NAME...: the puzzle's name (words joined by _).
    void readName(const Tok& t, ast::Puzzle& out) {
        auto rest = restOfLine(t);
        if (haveName_ || !sets_.empty()) error(t.range(), "Name must come first, once");
        if (rest.empty()) {
            error(t.range(), "Name needs a name");
            return;
        }
        haveName_ = true;
        std::string name;
        for (const auto& r : rest) name += (name.empty() ? "" : "_") + r.text;
        out.name = {name, rest[0].range()};
    }

    // Set NAME SIZE ORIENTATIONS: an orbit.
    void readSet(const Tok& t, ast::Puzzle& out) {
        auto rest = restOfLine(t);
        // Any move read so far (rotations and macros too) holds one
        // permutation per set declared before it.
        if (haveSolved_ || !known_.empty()) {
            error(t.range(), "Set must come before Solved and the moves");
            return;
        }
        if (rest.size() != 3) {
            error(t.range(), "expected 'Set NAME SIZE ORIENTATIONS'");
            return;
        }
        SetDef sd;
        sd.name = rest[0].text;
        sd.range = rest[0].range();
        int size = isNumber(rest[1].text) ? number(rest[1], 1, 1024, "set size") : -1;
        int omod = isNumber(rest[2].text) ? number(rest[2], 1, 256, "orientation count") : -1;
        if (!isNumber(rest[1].text)) error(rest[1].range(), "set size must be a number");
        if (!isNumber(rest[2].text)) error(rest[2].range(), "orientation count must be a number");
        if (size < 0 || omod < 0) return;
        if (findSet(sd.name) >= 0) {
            error(sd.range, "set '" + sd.name + "' is defined twice");
            return;
        }
        sd.size = size, sd.omod = omod;
        sets_.push_back(sd);
        ast::Orbit o;
        o.name = {sd.name, sd.range};
        o.size = size;
        o.sizeRange = rest[1].range();
        o.orientation = omod;
        o.orientationRange = rest[2].range();
        o.range = t.range();
        out.orbits.push_back(o);
    }

    // Solved / StartState: the solved labels and orientations (note [solved
    // orientations]).
    void readSolved(const Tok& t, ast::Puzzle& out) {
        const std::string& c = t.text;
        restOfLine(t);
        if (haveSolved_) error(t.range(), "the solved state is given twice");
        if (!families_.empty() || !seqs_.empty())
            error(t.range(), "'" + c + "' must come before the moves");
        Block b = readBlock(t);
        std::vector<std::vector<int>> labels, ori;
        std::vector<std::vector<char>> wild;
        if (positionOf(b, c == "StartState", labels, ori, wild) && !haveSolved_) {
            solvedLabels_ = labels;
            solvedOrientation(b, labels, ori, wild, out);
        }
        haveSolved_ = true;
        solvedAt_ = t.range();
    }

    // Move / MoveTransformation NAME and its block: a move.
    void readMove(const Tok& t, ast::Puzzle& out) {
        const std::string& c = t.text;
        auto rest = restOfLine(t);
        if (rest.size() != 1) {
            error(t.range(), "expected '" + c + " NAME' on one line");
            if (rest.empty()) return;
        }
        Tok name = rest[0];
        Block b = readBlock(t);
        auto e = moveElement(b, c == "MoveTransformation");
        if (!e) {
            broken_.insert(name.text);  // no follow-on errors where it is used
            return;
        }
        addMove(name, *e, isRotationName(name.text), out);
    }

    // Illegal SET POSITION PIECE... (1-based position; pieces by their Solved
    // label): no state with one there is entered.
    void readIllegal(const Tok& t) {
        auto rest = restOfLine(t);
        if (rest.size() < 3) {
            error(t.range(), "expected 'Illegal SET POSITION PIECE...' on one line");
            return;
        }
        if (!haveSolved_) {
            error(t.range(), "'Illegal' must come after the solved state");
            return;
        }
        const int s = findSet(rest[0].text);
        if (s < 0) {
            error(rest[0].range(), "unknown set '" + rest[0].text + "'");
            return;
        }
        const int pos = number(rest[1], 1, sets_[s].size, "position");
        if (pos < 0) return;
        if (stickered(s)) {
            error(t.range(), "'Illegal' on set '" + sets_[s].name +
                                 "', whose '?' orientations on some pieces make it a sticker set, is not "
                                 "supported by pzc's .tws import");
            return;
        }
        for (size_t k = 2; k < rest.size(); ++k) {
            const int piece = number(rest[k], 1, 100000, "piece label");
            if (piece < 0) continue;
            const auto& sl = solvedLabels_.size() > (size_t)s ? solvedLabels_[s] : std::vector<int>{};
            if (sl.empty() ? piece > sets_[s].size : std::find(sl.begin(), sl.end(), piece) == sl.end()) {
                error(rest[k].range(), "set '" + sets_[s].name + "' has no piece labelled " + rest[k].text +
                                           " in the solved state");
                continue;
            }
            illegal_.push_back({s, pos - 1, piece, rest[k].range()});
        }
    }

    // Ignore and its block: checked, no further effect.
    void readIgnore(const Tok& t) {
        // ksolve's Ignore lists what scrambles may leave out (a `?`
        // in a Scramble block); it changes neither the puzzle nor a
        // scramble that leaves nothing out, so it is checked (a set,
        // 0 or 1 per piece, for the permutation and optionally the
        // orientations) and has no further effect. Scrambles that do
        // leave a permutation out are refused where they say so.
        Block b = readBlock(t);
        for (const auto& e : b.entries) {
            for (const Tok& f : e.perm) number(f, 0, 1, "Ignore flag");
            for (const Tok& f : e.ori) number(f, 0, 1, "Ignore flag");
        }
    }

    // Move sequences and aliases, in dependency order (twsearch expands them
    // after every Move, retrying until all are defined); then an error for
    // each one left that names an unknown move.
    void resolveSequences(ast::Puzzle& out) {
        std::vector<bool> done(seqs_.size(), false);
        for (bool progress = true; progress;) {
            progress = false;
            for (size_t s = 0; s < seqs_.size(); ++s) {
                if (done[s]) continue;
                bool ready = true;
                for (const auto& m : seqs_[s].moves) ready = ready && lookup(m.text);
                if (!ready) continue;
                Elem e = identityOf(sets_);
                ast::Expr expr;
                expr.kind = ast::Expr::Kind::Sequence;
                expr.range = seqs_[s].name.range();
                for (const auto& m : seqs_[s].moves) {
                    e = compose(e, *lookup(m.text), sets_);
                    expr.items.push_back(refExpr(m.text, m.range()));
                }
                if (expr.items.size() == 1) expr = expr.items[0];
                addDerived(seqs_[s].name, e, std::move(expr), seqs_[s].alias || isRotationName(seqs_[s].name.text), out);
                done[s] = progress = true;
            }
        }
        for (bool grew = true; grew;) {
            grew = false;
            for (size_t s = 0; s < seqs_.size(); ++s)
                if (!done[s] && !broken_.count(seqs_[s].name.text))
                    for (const auto& m : seqs_[s].moves)
                        if (!lookup(m.text) && isBroken(m.text)) {
                            broken_.insert(seqs_[s].name.text);
                            grew = true;
                            break;
                        }
        }
        for (size_t s = 0; s < seqs_.size(); ++s) {
            if (done[s]) continue;
            for (const auto& m : seqs_[s].moves)
                if (!lookup(m.text) && !isBroken(m.text))
                    error(m.range(), "unknown move '" + m.text + "' in " + seqs_[s].head.text + " " + seqs_[s].name.text);
        }
    }

    // Solved labels, when not the identity.
    void addSolvedLabels(ast::Puzzle& out) {
        for (size_t s = 0; s < sets_.size(); ++s) {
            if (solvedLabels_.size() <= s || solvedLabels_[s].empty()) continue;
            bool identity = true;
            for (size_t p = 0; p < solvedLabels_[s].size(); ++p) identity = identity && solvedLabels_[s][p] == (int)p + 1;
            if (identity) continue;
            ast::SolvedLabels sl;
            sl.orbit = {sets_[s].name, solvedAt_};
            sl.range = solvedAt_;
            for (int v : solvedLabels_[s]) sl.labels.push_back({std::to_string(v), solvedAt_});
            out.solved.push_back(std::move(sl));
        }
    }

    // Illegal placements: the label as written in `solved`, or the
    // piece's solved position when the set's labels were left out.
    void addIllegalPlacements(ast::Puzzle& out) {
        for (const auto& il : illegal_) {
            bool labelled = false;
            for (const auto& sl : out.solved) labelled = labelled || sl.orbit.text == sets_[il.set].name;
            int piece = il.piece;
            if (!labelled) {
                const auto& sl = solvedLabels_[il.set];
                piece = sl.empty() ? il.piece - 1 : (int)(std::find(sl.begin(), sl.end(), il.piece) - sl.begin());
            }
            ast::IllegalPlacement ip;
            ip.orbit = {sets_[il.set].name, il.range};
            ip.position.index = il.position;
            ip.position.range = il.range;
            ip.label = {std::to_string(piece), il.range};
            ip.range = il.range;
            out.illegal.push_back(std::move(ip));
        }
    }

    // Powers: every power of every move, named as twsearch names them,
    // all in the metric.
    void addPowerNames(ast::Puzzle& out) {
        // Scheme 1, -1, 2, -2, ...: for a move of order n
        // power k <= n/2 is named "k", k > n/2 "(n-k)'" (R, R2, R').
        for (long m = 1; 2 * m <= maxOrder_; ++m)
            for (int sign : {1, -1}) {
                ast::PowerName pn;
                pn.power = (int)(sign * m);
                pn.suffix = (m == 1 ? "" : std::to_string(m)) + (sign < 0 ? "'" : "");
                pn.range = out.name.range;
                out.powers.names.push_back(pn);
            }
        if (out.powers.names.empty()) out.powers.names.push_back({1, "", true, out.name.range});
        out.powers.range = out.name.range;
    }

    // Note [solved orientations]. twsearch's Solved block may give each
    // piece an orientation: a number, or `?` (the orientation of that piece
    // does not matter). pzc reads both exactly:
    //   * `?` on every piece of a set: the set's orientation does not
    //     matter at all, so the set is read as unoriented (its twists are
    //     dropped); the states are the orbit of the solved state with those
    //     orientations erased, which is the image of the group with the
    //     orientation forgotten. `?` on some pieces only is refused (a
    //     located error naming the limit): pzc cannot yet erase orientation
    //     per piece. A set without orientation (1) ignores `?` as twsearch does.
    //   * non-zero solved orientations o_s: the set is read in the frame
    //     o' = o - o_s (per position), in which the solved state has
    //     orientation 0. A move's twist at p becomes t[p] + o_s[src(p)] -
    //     o_s[p]: conjugation by the element (identity, o_s), so orders,
    //     the group order and optimal lengths are unchanged. Scramble
    //     positions are shifted the same way (ast::Orbit::solvedOrientation).
    void solvedOrientation(const Block& b, const std::vector<std::vector<int>>& labels,
                           const std::vector<std::vector<int>>& ori, const std::vector<std::vector<char>>& wild,
                           ast::Puzzle& out) {
        ignoredOri_.assign(sets_.size(), 0);
        stickerSet_.assign(sets_.size(), 0);
        solvedOri_.assign(sets_.size(), {});
        for (const auto& e : b.entries) {
            const int s = e.set;
            const SetDef& sd = sets_[s];
            if (wild[s].empty() || sd.omod == 1) continue;
            int nWild = 0;
            for (char w : wild[s]) nWild += w;
            if (nWild == sd.size) {
                ignoredOri_[s] = 1;
                out.orbits[s].orientation = 1;
                out.orbits[s].orientationIgnored = sd.omod;
                continue;
            }
            if (nWild > 0) {
                // Note [sticker sets]. Identical pieces must agree on `?`.
                std::map<int, int> wildOf;
                bool agree = true;
                for (int p = 0; p < sd.size && agree; ++p) {
                    auto [it, fresh] = wildOf.emplace(labels[s][p], wild[s][p]);
                    if (!fresh && it->second != wild[s][p]) {
                        error(e.perm[p].range(), "set '" + sd.name + "': the pieces labelled " + e.perm[p].text +
                                                     " are identical but only some have '?' orientations");
                        agree = false;
                    }
                }
                if (!agree) continue;
                // The orbit stays as declared; lowering reads it as stickers
                // (note [ignored pieces] in compiler/ir/lower.cpp), as for a
                // .pz `orient SET ignored { ... }`.
                ast::IgnoredOrientation ig;
                ig.orbit = {sd.name, e.head.range()};
                ig.range = e.head.range();
                for (int p = 0; p < sd.size; ++p)
                    if (wild[s][p]) ig.pieces.push_back({p, "", e.ori[p].range()});
                out.ignoredOrientations.push_back(std::move(ig));
                ast::Orbit& o = out.orbits[s];
                o.stickers = {sd.size, sd.omod, labels[s], wild[s]};
                stickerSet_[s] = 1;
                // Solved orientations of the other pieces: read in their frame
                // (below); a '?' piece's is 0.
                std::vector<int> o0 = ori[s];
                bool zero = true;
                for (int p = 0; p < sd.size; ++p) {
                    if (wild[s][p]) o0[p] = 0;
                    zero = zero && o0[p] == 0;
                }
                if (!zero) {
                    solvedOri_[s] = o0;
                    o.solvedOrientation = o0;
                }
                continue;
            }
            bool zero = true;
            for (int v : ori[s]) zero = zero && v == 0;
            if (!zero) {
                solvedOri_[s] = ori[s];
                out.orbits[s].solvedOrientation = ori[s];
            }
        }
    }

    // A name usable in sequences: moves and their powers, macros.
    const Elem* lookup(const std::string& name) const {
        auto it = known_.find(name);
        if (it != known_.end()) return &it->second;
        if (name.size() > 1 && name.back() == '\'') {
            auto base = known_.find(name.substr(0, name.size() - 1));
            if (base != known_.end()) {
                cache_[name] = inverse(base->second, sets_);
                return &cache_[name];
            }
        }
        return nullptr;
    }

    // Registers `name` and its twsearch-named powers. False on error.
    long registerPowers(const Tok& name, const Elem& e) {
        if (isIdentity(e)) {
            error(name.range(), "move '" + name.text + "' is the identity");
            return -1;
        }
        long order = orderOf(e, sets_);
        if (order < 0) {
            error(name.range(), "move '" + name.text + "' has an order above " + std::to_string(kMaxOrder));
            return -1;
        }
        Elem p = e;
        for (long j = 1; j < order; ++j) {
            known_.emplace(powerName(name.text, j, order), p);
            p = compose(p, e, sets_);
        }
        return order;
    }

    void addMove(const Tok& name, const Elem& e, bool macro, ast::Puzzle& out) {
        ast::MoveDef def;
        def.name = {name.text, name.range()};
        def.isMacro = macro;
        def.cycles = cyclesOf(e, sets_, name.range());
        def.range = name.range();
        finish(name, e, std::move(def), out);
    }

    void addDerived(const Tok& name, const Elem& e, ast::Expr expr, bool macro, ast::Puzzle& out) {
        ast::MoveDef def;
        def.name = {name.text, name.range()};
        def.isMacro = macro;
        def.expr = std::move(expr);
        def.range = name.range();
        finish(name, e, std::move(def), out);
    }

    void finish(const Tok& name, const Elem& e, ast::MoveDef def, ast::Puzzle& out) {
        if (known_.count(name.text)) {
            error(name.range(), "move '" + name.text + "' is defined twice (or is a power of another move)");
            return;
        }
        long order = registerPowers(name, e);
        if (order < 0) return;
        const bool macro = def.isMacro;
        out.moves.push_back(std::move(def));
        if (!macro) {
            families_.push_back(name.text);
            maxOrder_ = std::max(maxOrder_, order);
            return;
        }
        // Macros have no powers of their own: name them as twsearch does.
        // Names ending in ' (X', X2') need no macro: the evaluator reads them
        // as the inverse of X, X2, which is what twsearch means by them.
        for (long j = 2; j < order; ++j) {
            if (2 * j > order) continue;
            ast::MoveDef pw;
            pw.name = {powerName(name.text, j, order), name.range()};
            pw.isMacro = true;
            ast::Expr x;
            x.kind = ast::Expr::Kind::Power;
            x.items.push_back(refExpr(name.text, name.range()));
            x.power = (int)j;
            x.range = name.range();
            pw.expr = std::move(x);
            pw.range = name.range();
            out.moves.push_back(std::move(pw));
        }
    }

    // A move whose definition was rejected, or a power or sequence of one.
    bool isBroken(const std::string& name) const {
        for (const auto& b : broken_)
            if (name.compare(0, b.size(), b) == 0) return true;
        return false;
    }

    bool stickered(size_t s) const { return s < stickerSet_.size() && stickerSet_[s]; }

    struct Illegal {
        int set, position, piece;  // position 0-based, piece its Solved label
        SourceRange range;
    };
    std::vector<Illegal> illegal_;

    std::set<std::string> broken_;
    std::map<std::string, Elem> known_;
    mutable std::map<std::string, Elem> cache_;
    std::vector<std::string> families_;
    long maxOrder_ = 1;
    SourceRange solvedAt_;
};

class ScrambleReader : public Reader {
public:
    ScrambleReader(const std::string& file, DiagnosticEngine& diags, const ast::Puzzle& def) : Reader(file, diags) {
        for (const auto& o : def.orbits) {
            stickers_.push_back(o.stickers);
            sets_.push_back({o.name.text, o.size, o.orientationIgnored ? o.orientationIgnored : o.orientation, o.range});
            ignored_.push_back(o.orientationIgnored > 1);
            solvedOri_.push_back(o.solvedOrientation);
        }
        solved_ = twsSolvedLabels(def);
    }

    std::vector<TwsScramble> read(const std::string& text) {
        toks_ = tokenize(text);
        std::vector<TwsScramble> out;
        while (!atEnd()) {
            Tok t = toks_[i_++];
            const std::string& c = t.text;
            if (c == "ScrambleAlg" || c == "Scramble" || c == "ScrambleState" || c == "StartState") {
                auto rest = restOfLine(t);
                TwsScramble s;
                s.name = rest.empty() ? std::to_string(out.size() + 1) : rest[0].text;
                s.range = t.range();
                if (rest.size() > 1) error(rest[1].range(), "expected '" + c + " NAME' on one line");
                if (c == "ScrambleAlg") {
                    s.isAlg = true;
                    s.alg.kind = ast::Expr::Kind::Sequence;
                    s.alg.range = t.range();
                    std::vector<Tok> moves;
                    while (!atEnd() && peek().text != "End") moves.push_back(toks_[i_++]);
                    if (atEnd()) {
                        error(t.range(), "'" + c + "' has no matching End");
                        break;
                    }
                    ++i_;
                    for (const auto& m : splitCommas(moves)) s.alg.items.push_back(refExpr(m.text, m.range()));
                    out.push_back(std::move(s));
                    continue;
                }
                Block b = readBlock(t);
                std::vector<std::vector<char>> wild;
                if (!positionOf(b, c != "Scramble", s.labels, s.ori, wild)) continue;
                bool ok = true;
                for (const auto& e : b.entries) {
                    const int k = e.set;
                    int nWild = 0;
                    for (char w : wild[k]) nWild += w;
                    if (stickers_[k].pieces > 0) {
                        // Note [sticker sets]: `?` only on pieces whose orientation does not matter.
                        const auto& st = stickers_[k];
                        for (int p = 0; p < sets_[k].size && nWild > 0; ++p) {
                            if (!wild[k][p]) continue;
                            const auto at = std::find(st.labels.begin(), st.labels.end(), s.labels[k][p]);
                            if (at != st.labels.end() && !st.wild[at - st.labels.begin()]) {
                                error(e.ori[p].range(), "'?' (orientation does not matter) on a piece of set '" +
                                                            sets_[k].name + "' whose orientation matters in the solved state");
                                ok = false;
                                break;
                            }
                        }
                        // In the frame of the solved orientations, as below
                        // (a `?` piece's orientation is not read).
                        if (!solvedOri_[k].empty())
                            for (int p = 0; p < sets_[k].size; ++p)
                                s.ori[k][p] = ((s.ori[k][p] - solvedOri_[k][p]) % sets_[k].omod + sets_[k].omod) % sets_[k].omod;
                        continue;
                    }
                    // `?` exactly where the definition ignores orientation
                    // (twsearch's rule), or on a set without orientation.
                    if (ignored_[k]) {
                        if (nWild != sets_[k].size && sets_[k].omod > 1) {
                            error(e.head.range(), "set '" + sets_[k].name +
                                                      "' has '?' orientations in the solved state: give '?' for every piece here too");
                            ok = false;
                        }
                        s.ori[k].assign(sets_[k].size, 0);
                        continue;
                    }
                    if (nWild > 0 && sets_[k].omod > 1) {
                        for (size_t p = 0; p < e.ori.size(); ++p)
                            if (wild[k][p]) {
                                error(e.ori[p].range(), "'?' (orientation does not matter) in set '" + sets_[k].name +
                                                            "', whose orientation matters in the solved state");
                                break;
                            }
                        ok = false;
                        continue;
                    }
                    if (!solvedOri_[k].empty())
                        for (int p = 0; p < sets_[k].size; ++p)
                            s.ori[k][p] = ((s.ori[k][p] - solvedOri_[k][p]) % sets_[k].omod + sets_[k].omod) % sets_[k].omod;
                }
                for (size_t k = 0; k < sets_.size(); ++k) {
                    if (s.labels[k].empty()) continue;
                    std::vector<int> a = s.labels[k], w = solved_[k];
                    std::sort(a.begin(), a.end());
                    std::sort(w.begin(), w.end());
                    if (a != w) {
                        for (const auto& e : b.entries)
                            if (e.set == (int)k)
                                error(e.head.range(), "the pieces of set '" + sets_[k].name +
                                                          "' are not those of the solved state (each label as often as there)");
                        ok = false;
                    }
                }
                if (ok) out.push_back(std::move(s));
            } else if (c == "RandomScramble" || c == "MoveLimits") {
                error(t.range(), "'" + c + "' is not supported by pzc's .tws import (use pzc solve --random N)");
                skipBlock(t);
            } else if (c == "MaxDepth" || c == "Slack" || c == "QTM" || c == "HTM") {
                restOfLine(t);
                error(t.range(), "'" + c + "' is not supported by pzc's .tws import");
            } else {
                error(t.range(), "unexpected '" + c + "': expected ScrambleAlg, Scramble, ScrambleState or StartState");
                restOfLine(t);
            }
        }
        return out;
    }

private:
    std::vector<std::vector<int>> solved_;
    std::vector<char> ignored_;
    std::vector<ast::Orbit::Stickers> stickers_;
};

// A .pz name: an identifier, optionally followed by primes (R').
bool isIdentifier(const std::string& s) {
    if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    size_t i = 1;
    while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_')) ++i;
    while (i < s.size() && s[i] == '\'') ++i;
    return i == s.size();
}

}  // namespace

std::optional<ast::Puzzle> parseTwsText(const std::string& file, const std::string& text, DiagnosticEngine& diags) {
    if (!diags.sourceText(file)) diags.addSource(file, text);
    const int before = diags.errorCount();
    DefinitionReader reader(file, diags);
    auto result = reader.read(text);
    if (diags.errorCount() != before) return std::nullopt;
    return result;
}

std::optional<ast::Expr> parseTwsAlgText(const std::string& file, const std::string& text, SourceRange origin,
                                         DiagnosticEngine& diags) {
    (void)file;
    (void)diags;
    ast::Expr e;
    e.kind = ast::Expr::Kind::Sequence;
    e.range = origin;
    for (const auto& t : splitCommas(tokenize(text, origin))) e.items.push_back(refExpr(t.text, t.range()));
    return e;
}

std::vector<TwsScramble> parseTwsScrambleText(const std::string& file, const std::string& text,
                                              const ast::Puzzle& definition, DiagnosticEngine& diags) {
    if (!diags.sourceText(file)) diags.addSource(file, text);
    ScrambleReader reader(file, diags, definition);
    return reader.read(text);
}

std::vector<std::vector<int>> twsSolvedLabels(const ast::Puzzle& definition) {
    std::vector<std::vector<int>> labels;
    for (const auto& o : definition.orbits) {
        labels.emplace_back(o.size);
        std::iota(labels.back().begin(), labels.back().end(), 1);
        for (const auto& s : definition.solved)
            if (s.orbit.text == o.name.text && (int)s.labels.size() == o.size)
                for (int p = 0; p < o.size; ++p) labels.back()[p] = std::stoi(s.labels[p].text);
    }
    return labels;
}

void makeTwsNamesIdentifiers(ast::Puzzle& puzzle) {
    std::map<std::string, std::string> renamed;
    std::set<std::string> taken;
    for (const auto& o : puzzle.orbits) taken.insert(o.name.text);
    for (const auto& m : puzzle.moves) taken.insert(m.name.text);
    auto fix = [&](std::string name) {
        if (isIdentifier(name)) return name;
        std::string r;
        for (char c : name) r += std::isalnum((unsigned char)c) || c == '_' ? c : (c == '\'' ? 'p' : '_');
        if (r.empty() || std::isdigit((unsigned char)r[0])) r = "_" + r;
        while (taken.count(r)) r += "_";
        taken.insert(r);
        return r;
    };
    if (!isIdentifier(puzzle.name.text)) puzzle.name.text = fix(puzzle.name.text);
    for (auto& o : puzzle.orbits) {
        std::string n = fix(o.name.text);
        if (n != o.name.text) renamed[o.name.text] = n, o.name.text = n;
    }
    for (auto& s : puzzle.solved)
        if (renamed.count(s.orbit.text)) s.orbit.text = renamed[s.orbit.text];
    std::map<std::string, std::string> moves;
    for (auto& m : puzzle.moves) {
        for (auto& oc : m.cycles)
            if (renamed.count(oc.orbit.text)) oc.orbit.text = renamed[oc.orbit.text];
        std::string n = fix(m.name.text);
        if (n != m.name.text) moves[m.name.text] = n, m.name.text = n;
    }
    // References: whole names first, then a renamed family + power suffix.
    std::function<void(ast::Expr&)> fixRefs = [&](ast::Expr& e) {
        if (e.kind == ast::Expr::Kind::Ref) {
            const std::string& r = e.ref.text;
            if (moves.count(r)) {
                e.ref.text = moves[r];
            } else if (!isIdentifier(r)) {
                for (const auto& [from, to] : moves)
                    if (r.compare(0, from.size(), from) == 0) {
                        std::string suffix = r.substr(from.size());
                        if (!suffix.empty() && (std::isdigit((unsigned char)suffix[0]) || suffix[0] == '\''))
                            e.ref.text = to + suffix;
                    }
            }
        }
        for (auto& x : e.items) fixRefs(x);
    };
    for (auto& m : puzzle.moves)
        if (m.expr) fixRefs(*m.expr);
}

}  // namespace pz
