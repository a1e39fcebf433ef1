#include "compiler/codegen/grid_emit.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "compiler/codegen/code_writer.hpp"
#include "compiler/interp/grid_distances.hpp"

// note [grid kernels]
// Cell (x, y) is bit y * width + x, so the press that moves a colour by
// (dx, dy) is shifted<dy * width + dx> on that colour's board. A kernel only
// shifts the actors whose target is floor (a constant mask per direction and
// colour, which is where the walls live), so rows never wrap. The rules'
// fixpoint (note [grid rules] in compiler/interp/grid_interp.hpp) becomes:
//   go_c   = actors of c that still move;  stay = all other actors
//   to_c   = shifted(go_c)                  (their targets)
//   twice  = cells claimed by two of stay, to_0, to_1, ...
//   stop_c = go_c & shifted back(twice)     (movers whose target is claimed twice)
// repeated until no stop_c is set; each round only removes movers, so it ends
// after at most as many rounds as there are actors (usually one or two).

namespace pz::codegen {

namespace {

using Words = std::vector<uint64_t>;

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llxULL", (unsigned long long)v);
    return buf;
}

std::string boardLiteral(const Words& w) {
    std::string r = "Board{";
    for (size_t i = 0; i < w.size(); ++i) r += (i ? ", " : "") + hex(w[i]);
    return r + "}";
}

void setBit(Words& w, int cell) { w[cell >> 6] |= uint64_t(1) << (cell & 63); }

// Bits that number `count` things (at least 1).
int indexBits(int count) {
    int bits = 1;
    while ((1 << bits) < count) ++bits;
    return bits;
}

uint64_t binomialSaturating(int n, int k) {
    if (k < 0 || k > n) return 0;
    unsigned __int128 r = 1;
    for (int i = 1; i <= k; ++i) {
        r = r * (unsigned)(n - k + i) / (unsigned)i;
        if (r > ~uint64_t(0)) return ~uint64_t(0);
    }
    return (uint64_t)r;
}

// Mixed radix of the colex ranks: radix[c] = product of C(F, k_j), j < c.
// Returns false if the product does not fit a u64.
bool colexRadices(const ir::Level& level, const GridLayout& layout, std::vector<uint64_t>& radix,
                  std::vector<uint64_t>& sizes) {
    unsigned __int128 product = 1;
    for (int c : layout.colours) {
        int k = 0;
        for (const auto& a : level.actors) k += a.colour == c;
        uint64_t size = binomialSaturating(layout.floorCells, k);
        radix.push_back((uint64_t)product);
        sizes.push_back(size);
        product *= size;
        if (size == ~uint64_t(0) || product > ~uint64_t(0)) return false;
    }
    return true;
}

std::string directionComment(const ir::GridRules& rules, const GridLayout& layout, int pressed) {
    std::string r = "pressed " + rules.directions[pressed].name + ":";
    for (int c : layout.colours)
        r += " " + rules.colours[c].name + " " + rules.directions[rules.colours[c].motion[pressed]].name;
    return r;
}

class LevelEmitter {
public:
    LevelEmitter(CodeWriter& w, const ir::GridRules& rules, const ir::Level& level, bool hallBound)
        : w_(w), rules_(rules), level_(level), hallBound_(hallBound), layout_(gridLayout(rules, level)),
          distances_(interp::goalDistances(rules, level)) {}

    void emit() {
        w_.set("NS", gridLevelNamespace(level_));
        w_.set("NAME", level_.name);
        w_.set("WORDS", std::to_string(layout_.words));
        w_.set("COLOURS", std::to_string(layout_.colours.size()));
        w_.section("grid_emit: level");
        w_.line("// level " + level_.name + ": " + layout_.describe());
        w_.line("namespace {{NS}} {");
        w_.line();
        w_.line("using Board = pz::grid::Bits<{{WORDS}}>;");
        w_.line("struct State {");
        w_.indent();
        w_.line("Board colour[{{COLOURS}}];  // " + colourList());
        w_.line("bool operator==(const State&) const = default;");
        w_.dedent();
        w_.line("};");
        w_.line();
        emitConstants();
        for (int p = 0; p < (int)rules_.directions.size(); ++p) emitKernel(p);
        emitSolved();
        emitHeuristic();
        emitKey();
        emitSpace();
        w_.line("}  // namespace {{NS}}");
        w_.line();
    }

private:
    std::string colourList() const {
        std::string r;
        for (size_t i = 0; i < layout_.colours.size(); ++i)
            r += (i ? ", " : "") + rules_.colours[layout_.colours[i]].name;
        return r;
    }
    Words emptyWords() const { return Words(layout_.words, 0); }
    int cellOf(int x, int y) const { return y * level_.width + x; }
    int cellCount() const { return level_.width * level_.height; }
    int distance(int goal, int cell) const { return distances_[goal][cell]; }

    // Actors of colour c whose target under `pressed` is floor.
    Words movable(int c, int pressed) const {
        Words w = emptyWords();
        const auto& d = rules_.directions[rules_.colours[c].motion[pressed]];
        if (d.dx == 0 && d.dy == 0) return w;
        for (int y = 0; y < level_.height; ++y)
            for (int x = 0; x < level_.width; ++x)
                if (level_.isFloor(x, y) && level_.isFloor(x + d.dx, y + d.dy)) setBit(w, cellOf(x, y));
        return w;
    }
    int shiftOf(int c, int pressed) const {
        const auto& d = rules_.directions[rules_.colours[c].motion[pressed]];
        return d.dy * level_.width + d.dx;
    }

    void emitConstants() {
        w_.section("grid_emit: constants");
        Words floor = emptyWords();
        for (int y = 0; y < level_.height; ++y)
            for (int x = 0; x < level_.width; ++x)
                if (level_.isFloor(x, y)) setBit(floor, cellOf(x, y));
        w_.line("constexpr Board kFloor = " + boardLiteral(floor) + ";");
        for (size_t i = 0; i < layout_.colours.size(); ++i) {
            Words goals = emptyWords(), start = emptyWords();
            for (const auto& g : level_.goals)
                if (g.colour == layout_.colours[i]) setBit(goals, cellOf(g.x, g.y));
            for (const auto& a : level_.actors)
                if (a.colour == layout_.colours[i]) setBit(start, cellOf(a.x, a.y));
            w_.line("constexpr Board kGoals" + std::to_string(i) + " = " + boardLiteral(goals) + ";  // " +
                    rules_.colours[layout_.colours[i]].name);
            w_.line("constexpr Board kStart" + std::to_string(i) + " = " + boardLiteral(start) + ";");
        }
        w_.line();
    }

    void emitKernel(int pressed) {
        w_.section("grid_emit: move kernel");
        w_.set("DIR", rules_.directions[pressed].name);
        w_.line("// " + directionComment(rules_, layout_, pressed) + "; see note [grid kernels]");
        w_.line("[[gnu::always_inline]] inline State move_{{DIR}}(const State& s) {");
        w_.indent();
        const size_t n = layout_.colours.size();
        for (size_t i = 0; i < n; ++i)
            w_.line("Board go" + std::to_string(i) + " = s.colour[" + std::to_string(i) + "] & " +
                    boardLiteral(movable(layout_.colours[i], pressed)) + ";");
        w_.line("for (;;) {");
        w_.indent();
        std::string stay, twice, seen;
        for (size_t i = 0; i < n; ++i) {
            std::string k = std::to_string(i);
            stay += (i ? " | " : "") + std::string("(s.colour[") + k + "] ^ go" + k + ")";
        }
        w_.line("const Board stay = " + stay + ";");
        for (size_t i = 0; i < n; ++i) {
            std::string k = std::to_string(i);
            w_.line("const Board to" + k + " = pz::grid::shifted<" +
                    std::to_string(shiftOf(layout_.colours[i], pressed)) + ">(go" + k + ");");
        }
        seen = "stay";
        for (size_t i = 0; i < n; ++i) {
            std::string k = std::to_string(i);
            twice += (i ? " | " : "") + std::string("(") + (i ? "(" + seen + ")" : seen) + " & to" + k + ")";
            seen += " | to" + k;
        }
        w_.line("const Board twice = " + twice + ";");
        std::string anyStop;
        for (size_t i = 0; i < n; ++i) {
            std::string k = std::to_string(i);
            w_.line("const Board stop" + k + " = go" + k + " & pz::grid::shifted<" +
                    std::to_string(-shiftOf(layout_.colours[i], pressed)) + ">(twice);");
            anyStop += (i ? " | " : "") + std::string("stop") + k;
        }
        std::string result;
        for (size_t i = 0; i < n; ++i) {
            std::string k = std::to_string(i);
            result += (i ? ", " : "") + std::string("(s.colour[") + k + "] ^ go" + k + ") | to" + k;
        }
        w_.line("if (!(" + anyStop + ").any()) return State{" + result + "};");
        for (size_t i = 0; i < n; ++i) {
            std::string k = std::to_string(i);
            w_.line("go" + k + " ^= stop" + k + ";");
        }
        w_.dedent();
        w_.line("}");
        w_.dedent();
        w_.line("}");
        w_.line();
    }

    void emitSolved() {
        w_.section("grid_emit: solved");
        std::string test;
        for (size_t i = 0; i < layout_.colours.size(); ++i) {
            std::string k = std::to_string(i);
            test += (i ? " && " : "") + std::string("(s.colour[") + k + "] & kGoals" + k + ") == kGoals" + k;
        }
        if (test.empty()) test = "true";
        // Goals of a colour with no actors can never be covered.
        for (const auto& g : level_.goals)
            if (std::find(layout_.colours.begin(), layout_.colours.end(), g.colour) == layout_.colours.end())
                test = "false";
        w_.line("inline bool solved(const State& s) { return " + test + "; }");
        w_.line();
    }

    // For goal g, kNear<g>[d] = cells within d presses of the goal (alone on
    // the board). The nearest actor of the goal's colour is at the first d
    // whose ring it touches; scanning from the current maximum keeps the
    // total work to a few mask tests.
    void emitHeuristic() {
        w_.section("grid_emit: heuristic");
        w_.line("constexpr int kDead = 1 << 20;");
        std::vector<std::string> checks;
        for (size_t g = 0; g < level_.goals.size(); ++g) {
            const auto& goal = level_.goals[g];
            auto it = std::find(layout_.colours.begin(), layout_.colours.end(), goal.colour);
            if (it == layout_.colours.end()) {
                checks.push_back("return kDead;  // no actor of this goal's colour");
                continue;
            }
            int maxd = 0;
            for (int cell = 0; cell < cellCount(); ++cell)
                if (distance((int)g, cell) != interp::kUnreachableDistance)
                    maxd = std::max(maxd, distance((int)g, cell));
            std::string name = "kNear" + std::to_string(g);
            w_.line("// goal " + std::to_string(g) + " (" + rules_.colours[goal.colour].name + " at " +
                    std::to_string(goal.x) + "," + std::to_string(goal.y) + "): farthest cell " +
                    std::to_string(maxd) + " presses away");
            w_.line("constexpr Board " + name + "[" + std::to_string(maxd + 1) + "] = {");
            w_.indent();
            for (int d = 0; d <= maxd; ++d) {
                Words ring = emptyWords();
                for (int cell = 0; cell < cellCount(); ++cell)
                    if (distance((int)g, cell) <= d) setBit(ring, cell);
                w_.line(boardLiteral(ring) + ",");
            }
            w_.dedent();
            w_.line("};");
            std::string c = std::to_string(it - layout_.colours.begin());
            const std::string ring = name + "[h < " + std::to_string(maxd) + " ? h : " + std::to_string(maxd) + "]";
            checks.push_back("if (!(s.colour[" + c + "] & " + ring + ").any()) {");
            checks.push_back("    if (h >= " + std::to_string(maxd) + ") return kDead;");
            checks.push_back("    do ++h; while (h < " + std::to_string(maxd) + " && !(s.colour[" + c + "] & " + name +
                             "[h]).any());");
            checks.push_back("    if (!(s.colour[" + c + "] & " + name + "[h]).any()) return kDead;");
            checks.push_back("}");
        }
        if (hallBound_) emitHall(checks);
        // The search knows a lower bound (the parent's h - 1, the heuristic
        // being consistent), so the rings are scanned from there.
        w_.line("inline int heuristic(const State& s, int atLeast = 0) {");
        w_.indent();
        w_.line("int h = atLeast;");
        for (const auto& line : checks) w_.line(line);
        w_.line("return h;");
        w_.dedent();
        w_.line("}");
        w_.line();
    }

    // note [grid heuristic]
    // Every goal needs its own actor, and each press moves an actor at most
    // one step along its distance table, so the bottleneck assignment (the
    // least d such that goals can be given distinct actors within d presses)
    // is admissible and consistent. By Hall's theorem that is the least d such
    // that every set S of a colour's goals sees at least |S| of its actors
    // within d presses: one popcount per subset, from constant tables, for
    // colours with at most kMaxHallGoals goals (others keep the max-min bound
    // that the rings above give).
    static constexpr int kMaxHallGoals = 6;
    void emitHall(std::vector<std::string>& checks) {
        for (size_t i = 0; i < layout_.colours.size(); ++i) {
            std::vector<int> goals;
            for (size_t g = 0; g < level_.goals.size(); ++g)
                if (level_.goals[g].colour == layout_.colours[i]) goals.push_back((int)g);
            const int m = (int)goals.size();
            if (m < 2 || m > kMaxHallGoals) continue;
            int maxd = 0;
            for (int g : goals)
                for (int cell = 0; cell < cellCount(); ++cell)
                    if (distance(g, cell) != interp::kUnreachableDistance)
                        maxd = std::max(maxd, distance(g, cell));
            const int subsets = (1 << m) - 1;
            std::string k = std::to_string(i), table = "kHall" + k;
            std::string sizes;
            for (int sub = 1; sub <= subsets; ++sub)
                sizes += (sub > 1 ? ", " : "") + std::to_string(__builtin_popcount(sub));
            w_.line("// " + rules_.colours[layout_.colours[i]].name + ": " + std::to_string(m) + " goals; " + table +
                    "[d][s] = cells within d presses of a goal in subset s + 1; see note [grid heuristic]");
            w_.line("constexpr int " + table + "Size[" + std::to_string(subsets) + "] = {" + sizes + "};");
            w_.line("constexpr Board " + table + "[" + std::to_string(maxd + 1) + "][" + std::to_string(subsets) + "] = {");
            w_.indent();
            for (int d = 0; d <= maxd; ++d) {
                std::string row = "{";
                for (int sub = 1; sub <= subsets; ++sub) {
                    Words ring = emptyWords();
                    for (int bit = 0; bit < m; ++bit)
                        if (sub >> bit & 1)
                            for (int cell = 0; cell < cellCount(); ++cell)
                                if (distance(goals[bit], cell) <= d) setBit(ring, cell);
                    row += (sub > 1 ? ", " : "") + boardLiteral(ring);
                }
                w_.line(row + "},");
            }
            w_.dedent();
            w_.line("};");
            w_.line("inline bool hallHolds" + k + "(const Board& actors, int d) {");
            w_.line("    for (int s = 0; s < " + std::to_string(subsets) + "; ++s)");
            w_.line("        if ((actors & " + table + "[d][s]).count() < " + table + "Size[s]) return false;");
            w_.line("    return true;");
            w_.line("}");
            std::string md = std::to_string(maxd);
            checks.push_back("while (h < " + md + " && !hallHolds" + k + "(s.colour[" + k + "], h)) ++h;");
            checks.push_back("if (!hallHolds" + k + "(s.colour[" + k + "], h < " + md + " ? h : " + md + ")) return kDead;");
        }
    }

    // kFloorIndex[cell]: the cell's number among floor cells; kFloorCell: back.
    void emitFloorTables() {
        std::string floorIndex, floorCell;
        int f = 0;
        std::vector<int> indexOf(cellCount(), 0);
        for (int cell = 0; cell < cellCount(); ++cell)
            if (level_.floor[cell]) {
                indexOf[cell] = f++;
                floorCell += (floorCell.empty() ? "" : ", ") + std::to_string(cell);
            }
        for (int cell = 0; cell < cellCount(); ++cell) floorIndex += (cell ? ", " : "") + std::to_string(indexOf[cell]);
        w_.line("constexpr uint16_t kFloorIndex[" + std::to_string(cellCount()) + "] = {" + floorIndex + "};");
        w_.line("constexpr uint16_t kFloorCell[" + std::to_string(layout_.floorCells) + "] = {" + floorCell + "};");
    }

    // With at most 128 floor cells a colour's actors, pext-ed to floor
    // numbering, fit one (or two) words; its k actors (k is known) are then
    // read lowest first with a fixed number of ctz steps: no data-dependent
    // branches, no table lookups, and the same order as a loop over cells.
    bool compactFloorSets() const { return layout_.floorCells <= 128; }
    int actorsOf(size_t board) const {
        int k = 0;
        for (const auto& a : level_.actors) k += a.colour == layout_.colours[board];
        return k;
    }
    // Declares `b`, board i's actors in floor numbering (needs compactFloorSets()).
    void emitCompactFloorSet(size_t i) {
        Words floor = emptyWords();
        for (int y = 0; y < level_.height; ++y)
            for (int x = 0; x < level_.width; ++x)
                if (level_.isFloor(x, y)) setBit(floor, cellOf(x, y));
        const bool wide = layout_.floorCells > 64;
        const std::string type = wide ? "unsigned __int128" : "uint64_t";
        std::string set;
        int offset = 0;
        for (int wi = 0; wi < layout_.words; ++wi) {
            const int count = __builtin_popcountll(floor[wi]);
            if (!count) continue;
            std::string part = "pz::grid::extractBits(s.colour[" + std::to_string(i) + "].w[" + std::to_string(wi) +
                               "], " + hex(floor[wi]) + ")";
            if (wide) part = "(" + type + ")" + part;
            if (offset) part = "(" + part + " << " + std::to_string(offset) + ")";
            set += (set.empty() ? "" : " | ") + part;
            offset += count;
        }
        w_.line(type + " b = " + (set.empty() ? "0" : set) + ";  // " + rules_.colours[layout_.colours[i]].name +
                " in floor numbering");
    }
    void emitCompactIndexPack(int bits) {
        for (size_t i = 0; i < layout_.colours.size(); ++i) {
            const int k = actorsOf(i);
            if (k == 0) continue;
            w_.line("{");
            w_.indent();
            emitCompactFloorSet(i);
            for (int a = 0; a < k; ++a)
                w_.line("key = key << " + std::to_string(bits) + " | pz::grid::lowestBit(b);" +
                        (a + 1 < k ? " b &= b - 1;" : ""));
            w_.dedent();
            w_.line("}");
        }
    }

    void emitKey() {
        w_.section("grid_emit: key");
        const size_t n = layout_.colours.size();
        switch (layout_.key) {
            case GridLayout::KeyKind::FloorBits: {
                w_.line("using Key = uint64_t;  // the floor cells of each colour, side by side (pext)");
                std::vector<std::string> pack, unpack;
                int offset = 0;
                Words floor = emptyWords();
                for (int y = 0; y < level_.height; ++y)
                    for (int x = 0; x < level_.width; ++x)
                        if (level_.isFloor(x, y)) setBit(floor, cellOf(x, y));
                for (size_t i = 0; i < n; ++i)
                    for (int wi = 0; wi < layout_.words; ++wi) {
                        int count = __builtin_popcountll(floor[wi]);
                        if (!count) continue;
                        std::string part = "pz::grid::extractBits(s.colour[" + std::to_string(i) + "].w[" +
                                           std::to_string(wi) + "], " + hex(floor[wi]) + ")";
                        pack.push_back(offset ? "(" + part + " << " + std::to_string(offset) + ")" : part);
                        std::string bits = offset ? "(k >> " + std::to_string(offset) + ")" : "k";
                        if (offset + count < 64) bits += " & " + hex((uint64_t(1) << count) - 1);
                        unpack.push_back("s.colour[" + std::to_string(i) + "].w[" + std::to_string(wi) +
                                         "] = pz::grid::depositBits(" + bits + ", " + hex(floor[wi]) + ");");
                        offset += count;
                    }
                std::string packExpr;
                for (size_t i = 0; i < pack.size(); ++i) packExpr += (i ? " | " : "") + pack[i];
                w_.line("inline Key pack(const State& s) { return " + (packExpr.empty() ? "0" : packExpr) + "; }");
                w_.line("inline State unpack(Key k) {");
                w_.indent();
                w_.line("State s{};");
                for (const auto& u : unpack) w_.line(u);
                w_.line("return s;");
                w_.dedent();
                w_.line("}");
                w_.line("struct Hasher {");
                w_.line("    uint64_t operator()(Key k) const { return pz::grid::mixHash(k); }");
                w_.line("};");
                break;
            }
            case GridLayout::KeyKind::ColexRank: {
                std::vector<uint64_t> radix, sizes;
                colexRadices(level_, layout_, radix, sizes);
                int maxK = 0;
                std::vector<int> counts;
                for (int c : layout_.colours) {
                    int k = 0;
                    for (const auto& a : level_.actors) k += a.colour == c;
                    counts.push_back(k);
                    maxK = std::max(maxK, k);
                }
                w_.line("using Key = uint64_t;  // colex rank of each colour's actor set, mixed radix");
                emitFloorTables();
                // Rows up to 2^b - 1 >= F, so unranking can take fixed power-of-two steps.
                int tableSize = 1;
                while (tableSize <= layout_.floorCells) tableSize *= 2;
                tableSize -= 1;
                w_.line("constexpr pz::grid::Binomials<" + std::to_string(tableSize) + ", " + std::to_string(maxK) +
                        "> kChoose{};");
                w_.line("inline Key pack(const State& s) {");
                w_.indent();
                w_.line("Key key = 0;");
                for (size_t i = 0; i < n; ++i) {
                    w_.line("{");
                    w_.indent();
                    w_.line("uint64_t rank = 0;");
                    if (compactFloorSets()) {
                        emitCompactFloorSet(i);
                        for (int a = 0; a < counts[i]; ++a)
                            w_.line("rank += kChoose(pz::grid::lowestBit(b), " + std::to_string(a + 1) + ");" +
                                    (a + 1 < counts[i] ? " b &= b - 1;" : ""));
                    } else {
                        w_.line("int i = 0;");
                        w_.line("for (int wi = 0; wi < " + std::to_string(layout_.words) + "; ++wi)");
                        w_.line("    for (uint64_t b = s.colour[" + std::to_string(i) + "].w[wi]; b; b &= b - 1)");
                        w_.line("        rank += kChoose(kFloorIndex[wi * 64 + __builtin_ctzll(b)], ++i);");
                    }
                    w_.line("key += rank * " + hex(radix[i]) + ";");
                    w_.dedent();
                    w_.line("}");
                }
                w_.line("return key;");
                w_.dedent();
                w_.line("}");
                w_.line("inline State unpack(Key key) {");
                w_.indent();
                w_.line("State s{};");
                for (size_t i = 0; i < n; ++i) {
                    w_.line("{");
                    w_.indent();
                    std::string rank = "key / " + hex(radix[i]);
                    if (i + 1 < n) rank = "(" + rank + ") % " + hex(sizes[i]);
                    w_.line("uint64_t rank = " + rank + ";");
                    w_.line("for (int i = " + std::to_string(counts[i]) + "; i > 0; --i) {");
                    w_.line("    // the largest f with C(f, i) <= rank (it is below the previous one): a");
                    w_.line("    // fixed number of halving steps, branch-free; C(n, i) > rank for n >= F");
                    w_.line("    int f = 0;");
                    w_.line("    for (int step = " + std::to_string((tableSize + 1) / 2) +
                            "; step; step >>= 1) f = kChoose(f + step, i) <= rank ? f + step : f;");
                    w_.line("    rank -= kChoose(f, i);");
                    w_.line("    s.colour[" + std::to_string(i) + "].set(kFloorCell[f]);");
                    w_.line("}");
                    w_.dedent();
                    w_.line("}");
                }
                w_.line("return s;");
                w_.dedent();
                w_.line("}");
                w_.line("struct Hasher {");
                w_.line("    uint64_t operator()(Key k) const { return pz::grid::mixHash(k); }");
                w_.line("};");
                break;
            }
            case GridLayout::KeyKind::IndexList: {
                const int bits = indexBits(layout_.floorCells);
                w_.line("using Key = uint64_t;  // each actor's floor index (" + std::to_string(bits) +
                        " bits), colour by colour, in cell order");
                emitFloorTables();
                w_.line("inline Key pack(const State& s) {");
                w_.indent();
                w_.line("Key key = 0;");
                if (compactFloorSets()) {
                    emitCompactIndexPack(bits);
                } else {
                    for (size_t i = 0; i < n; ++i) {
                        w_.line("for (int wi = 0; wi < " + std::to_string(layout_.words) + "; ++wi)");
                        w_.line("    for (uint64_t b = s.colour[" + std::to_string(i) + "].w[wi]; b; b &= b - 1)");
                        w_.line("        key = key << " + std::to_string(bits) +
                                " | kFloorIndex[wi * 64 + __builtin_ctzll(b)];");
                    }
                }
                w_.line("return key;");
                w_.dedent();
                w_.line("}");
                w_.line("inline State unpack(Key key) {");
                w_.indent();
                w_.line("State s{};");
                for (size_t i = n; i-- > 0;) {
                    int k = 0;
                    for (const auto& a : level_.actors) k += a.colour == layout_.colours[i];
                    w_.line("for (int i = 0; i < " + std::to_string(k) + "; ++i, key >>= " + std::to_string(bits) + ")");
                    w_.line("    s.colour[" + std::to_string(i) + "].set(kFloorCell[key & " +
                            std::to_string((1 << bits) - 1) + "]);");
                }
                w_.line("return s;");
                w_.dedent();
                w_.line("}");
                w_.line("struct Hasher {");
                w_.line("    uint64_t operator()(Key k) const { return pz::grid::mixHash(k); }");
                w_.line("};");
                break;
            }
            case GridLayout::KeyKind::Words: {
                w_.line("using Key = State;  // too many cells and actors for one word: the bitboards themselves");
                w_.line("inline Key pack(const State& s) { return s; }");
                w_.line("inline State unpack(const Key& k) { return k; }");
                w_.line("struct Hasher {");
                w_.line("    uint64_t operator()(const Key& k) const {");
                w_.line("        uint64_t h = 0;");
                w_.line("        for (const auto& b : k.colour)");
                w_.line("            for (int i = 0; i < {{WORDS}}; ++i) h = pz::grid::mixHash(h ^ b.w[i]);");
                w_.line("        return h;");
                w_.line("    }");
                w_.line("};");
                break;
            }
        }
        w_.line();
    }

    void emitSpace() {
        w_.section("grid_emit: space");
        std::string start;
        for (size_t i = 0; i < layout_.colours.size(); ++i) start += (i ? ", " : "") + std::string("kStart") + std::to_string(i);
        std::string colourOf;
        for (size_t i = 0; i < layout_.colours.size(); ++i) colourOf += (i ? ", " : "") + std::to_string(layout_.colours[i]);
        w_.line("struct Space {");
        w_.indent();
        w_.line("using State = {{NS}}::State;");
        w_.line("using Key = {{NS}}::Key;");
        w_.line("using Hasher = {{NS}}::Hasher;");
        w_.line("static constexpr const char* kName = \"{{NAME}}\";");
        w_.line("static constexpr int kDead = {{NS}}::kDead;");
        w_.line("static constexpr int kWidth = " + std::to_string(level_.width) + ", kHeight = " +
                std::to_string(level_.height) + ";");
        w_.line("static constexpr int kColours = {{COLOURS}};");
        w_.line("static constexpr int kColourOf[" + std::to_string(std::max<size_t>(1, layout_.colours.size())) + "] = {" +
                (colourOf.empty() ? "-1" : colourOf) + "};  // IR colour of each board");
        w_.line("static constexpr int kDirections = " + std::to_string(rules_.directions.size()) + ";");
        w_.line("int directions() const { return kDirections; }");
        w_.line("State initial() const { return State{" + start + "}; }");
        w_.line("[[gnu::always_inline]] State move(const State& s, int pressed) const {");
        w_.indent();
        w_.line("switch (pressed) {");
        for (size_t p = 0; p < rules_.directions.size(); ++p)
            w_.line("    case " + std::to_string(p) + ": return move_" + rules_.directions[p].name + "(s);");
        w_.line("}");
        w_.line("return s;");
        w_.dedent();
        w_.line("}");
        w_.line("bool solved(const State& s) const { return {{NS}}::solved(s); }");
        w_.line("int heuristic(const State& s) const { return {{NS}}::heuristic(s); }");
        w_.line("// atLeast must not exceed the true value (for a child: its parent's h - 1)");
        w_.line("int heuristicAtLeast(const State& s, int atLeast) const { return {{NS}}::heuristic(s, atLeast); }");
        w_.line("Key pack(const State& s) const { return {{NS}}::pack(s); }");
        w_.line("State unpack(const Key& k) const { return {{NS}}::unpack(k); }");
        w_.line("Hasher hasher() const { return {}; }");
        w_.dedent();
        w_.line("};");
        w_.line();
    }

    CodeWriter& w_;
    const ir::GridRules& rules_;
    const ir::Level& level_;
    bool hallBound_;
    GridLayout layout_;
    std::vector<std::vector<int>> distances_;  // [goal][cell]
};

}  // namespace

std::string GridLayout::describe() const {
    static const char* keyNames[] = {"floor bits (pext)", "floor indices", "colex rank", "bitboards"};
    return std::to_string(cells) + " cells, " + std::to_string(floorCells) + " floor, " +
           std::to_string(colours.size()) + " colour board(s) of " + std::to_string(words) +
           " word(s), key: " + keyNames[(int)key];
}

GridLayout gridLayout(const ir::GridRules& rules, const ir::Level& level) {
    GridLayout layout;
    layout.cells = level.width * level.height;
    layout.words = std::max(1, (layout.cells + 63) / 64);
    for (bool f : level.floor) layout.floorCells += f;
    for (size_t c = 0; c < rules.colours.size(); ++c)
        for (const auto& a : level.actors)
            if (a.colour == (int)c) {
                layout.colours.push_back((int)c);
                break;
            }
    // A level without actors still needs one board to be a state.
    if (layout.colours.empty() && !rules.colours.empty()) layout.colours.push_back(0);
    std::vector<uint64_t> radix, sizes;
    if ((int)layout.colours.size() * layout.floorCells <= 64)
        layout.key = GridLayout::KeyKind::FloorBits;
    else if ((int)level.actors.size() * indexBits(layout.floorCells) <= 64)
        layout.key = GridLayout::KeyKind::IndexList;
    else if (colexRadices(level, layout, radix, sizes))
        layout.key = GridLayout::KeyKind::ColexRank;
    else
        layout.key = GridLayout::KeyKind::Words;
    return layout;
}

std::string gridLevelNamespace(const ir::Level& level) {
    std::string r = "level_";
    for (char c : level.name) r += std::isalnum((unsigned char)c) ? c : '_';
    return r;
}

std::string emitGridSolver(const ir::GridRules& rules, const std::vector<ir::Level>& levels,
                           const GridEmitOptions& options) {
    CodeWriter w;
    w.annotate(options.annotate);
    w.line("// generated by pzc from " + options.source + " — do not edit");
    w.line("// grid-actor solver: " + std::to_string(levels.size()) + " level(s), " +
           std::to_string(rules.directions.size()) + " directions, " + std::to_string(rules.colours.size()) +
           " colours");
    w.line("#include <cstdint>");
    w.line();
    w.line("#include \"pz/grid_bits.hpp\"");
    w.line("#include \"pz/grid_search.hpp\"");
    if (options.withMain) w.line("#include \"pz/grid_main.hpp\"");
    w.line();
    w.line("static_assert(pz::grid::kGridAbiVersion == 1, \"regenerate: the grid runtime changed\");");
    w.line();
    w.line("namespace pzgen {");
    w.line();
    std::set<std::string> used;
    std::string list;
    for (const auto& level : levels) {
        std::string ns = gridLevelNamespace(level);
        if (!used.insert(ns).second) continue;  // same name twice: the first one wins
        LevelEmitter(w, rules, level, options.hallBound).emit();
        list += (list.empty() ? "" : ", ") + ns + "::Space";
    }
    w.line("using AllLevels = pz::grid::LevelList<" + list + ">;");
    w.line();
    w.line("}  // namespace pzgen");
    if (options.withMain) {
        w.line();
        w.line("int main(int argc, char** argv) { return pz::grid::levelsMain<pzgen::AllLevels>(argc, argv); }");
    }
    return w.str();
}

}  // namespace pz::codegen
