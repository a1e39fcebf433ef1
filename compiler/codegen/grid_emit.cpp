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

std::string directionComment(const ir::GridRules& rules, const GridLayout& layout, int pressed) {
    std::string r = "pressed " + rules.directions[pressed].name + ":";
    for (int c : layout.colours)
        r += " " + rules.colours[c].name + " " + rules.directions[rules.colours[c].motion[pressed]].name;
    return commentText(r);
}

class LevelEmitter {
public:
    LevelEmitter(CodeWriter& w, const ir::GridRules& rules, const ir::Level& level, bool hallBound)
        : w_(w), rules_(rules), level_(level), hallBound_(hallBound), layout_(gridLayout(rules, level)),
          distances_(interp::goalDistances(rules, level)) {}

    void emit() {
        w_.set("NS", gridLevelNamespace(level_));
        w_.set("NAME", stringLiteral(level_.name));
        w_.set("LEVEL", commentText(level_.name + ": " + layout_.describe()));
        w_.set("WORDS", std::to_string(layout_.words));
        w_.set("COLOURS", std::to_string(layout_.colours.size()));
        w_.section("grid_emit: level");
        w_.line("// level {{LEVEL}}");
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
        if (compactFloorSets()) emitFloorSets();
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
        return commentText(r);
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
        w_.line("constexpr Board kFloor = " + boardLiteral(floorWords()) + ";");
        for (size_t i = 0; i < layout_.colours.size(); ++i) {
            Words goals = emptyWords(), start = emptyWords();
            for (const auto& g : level_.goals)
                if (g.colour == layout_.colours[i]) setBit(goals, cellOf(g.x, g.y));
            for (const auto& a : level_.actors)
                if (a.colour == layout_.colours[i]) setBit(start, cellOf(a.x, a.y));
            w_.line("constexpr Board kGoals" + std::to_string(i) + " = " + boardLiteral(goals) + ";  // " +
                    commentText(rules_.colours[layout_.colours[i]].name));
            w_.line("constexpr Board kStart" + std::to_string(i) + " = " + boardLiteral(start) + ";");
        }
        w_.line();
    }

    void emitKernel(int pressed) {
        w_.section("grid_emit: move kernel");
        w_.set("DIR", identifierPart(rules_.directions[pressed].name));
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
        if (useDistanceRows()) return emitRowHeuristic();
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
            w_.line("// goal " + std::to_string(g) + " (" + commentText(rules_.colours[goal.colour].name) + " at " +
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
        w_.line("// rings of the max-min distance (more than " + std::to_string(kMaxRowGoals) +
                " goals or " + std::to_string(kMaxCompactFloor) + " floor cells: no distance rows)");
        w_.line("inline int heuristic(const State& s, int atLeast = 0) {");
        w_.indent();
        w_.line("int h = atLeast;");
        for (const auto& line : checks) w_.line(line);
        w_.line("return h;");
        w_.dedent();
        w_.line("}");
        w_.line();
    }

    // The max-min distance from byte rows, see note [grid distance rows] in
    // runtime/include/pz/grid_bits.hpp: kDist<i>[f] holds floor cell f's
    // distance to every goal of board i's colour.
    static constexpr int kMaxRowGoals = 16;
    bool useDistanceRows() const {
        if (!compactFloorSets() || level_.goals.empty() || (int)level_.goals.size() > kMaxRowGoals) return false;
        for (size_t i = 0; i < layout_.colours.size(); ++i)
            if (boardHasDistanceRows(i) && !listed(i)) return false;
        return true;
    }
    bool boardHasDistanceRows(size_t i) const {
        if (actorsOf(i) == 0) return false;
        for (const auto& goal : level_.goals)
            if (goal.colour == layout_.colours[i]) return true;
        return false;
    }
    void emitRowHeuristic() {
        std::vector<std::string> lines;
        if (goalWithoutActors()) lines.push_back("return kDead;  // a goal of a colour without actors");
        lines.push_back("pz::grid::DistanceRow far{};");
        std::vector<int> floorCell;
        for (int cell = 0; cell < cellCount(); ++cell)
            if (level_.floor[cell]) floorCell.push_back(cell);
        for (size_t i = 0; i < layout_.colours.size(); ++i) {
            if (!boardHasDistanceRows(i)) continue;
            const int c = layout_.colours[i];
            std::string goalsOfColour;
            for (size_t g = 0; g < level_.goals.size(); ++g)
                if (level_.goals[g].colour == c) goalsOfColour += (goalsOfColour.empty() ? "" : ", ") + std::to_string(g);
            const std::string k_ = std::to_string(i), table = "kDist" + k_;
            w_.line("// " + table + "[f]: presses from floor cell f to goal g (byte g; goals " + goalsOfColour + " are " +
                    commentText(rules_.colours[c].name) + ", 255 = unreachable, 0 = another colour's goal)");
            w_.line("alignas(16) constexpr pz::grid::DistanceRow " + table + "[" + std::to_string(layout_.floorCells) +
                    "] = {");
            w_.indent();
            for (int cell : floorCell) {
                std::string row;
                for (int g = 0; g < 16; ++g) {
                    int d = 0;
                    if (g < (int)level_.goals.size() && level_.goals[g].colour == c) {
                        d = distance(g, cell);
                        if (d == interp::kUnreachableDistance || d >= 255) d = 255;
                    }
                    row += (g ? ", " : "") + std::to_string(d);
                }
                w_.line("{" + row + "},");
            }
            w_.dedent();
            w_.line("};");
            lines.push_back("{");
            for (const auto& line : boardLines(i, false, true)) lines.push_back("    " + line);
            lines.push_back("}");
        }
        lines.push_back("int h = pz::grid::largestByte<" + std::to_string(level_.goals.size()) + ">(far);");
        lines.push_back("if (h == pz::grid::kUnreachableByte) return kDead;");
        if (hallBound_) emitHall(lines);
        w_.line("// exact in a few loads and byte minima, so the lower bound is not needed");
        w_.line("inline int heuristic(const State& s, int /*atLeast*/ = 0) {");
        w_.indent();
        for (const auto& line : lines) w_.line(line);
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
            w_.line("// " + commentText(rules_.colours[layout_.colours[i]].name) + ": " + std::to_string(m) + " goals; " + table +
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
    static constexpr int kMaxCompactFloor = 128;
    bool compactFloorSets() const { return layout_.floorCells <= kMaxCompactFloor; }
    int actorsOf(size_t board) const { return actorsOfColour(layout_.colours[board]); }
    int actorsOfColour(int colour) const {
        int k = 0;
        for (const auto& a : level_.actors) k += a.colour == colour;
        return k;
    }
    Words floorWords() const {
        Words floor = emptyWords();
        for (int y = 0; y < level_.height; ++y)
            for (int x = 0; x < level_.width; ++x)
                if (level_.isFloor(x, y)) setBit(floor, cellOf(x, y));
        return floor;
    }
    // FloorSet, floorSet(board) and boardOf(set): a board in floor numbering and back.
    void emitFloorSets() {
        w_.section("grid_emit: floor sets");
        const Words floor = floorWords();
        const bool wide = layout_.floorCells > 64;
        w_.line(std::string("using FloorSet = ") + (wide ? "unsigned __int128" : "uint64_t") +
                ";  // one bit per floor cell, in cell order");
        std::string set;
        std::vector<std::string> back;
        int offset = 0;
        for (int wi = 0; wi < layout_.words; ++wi) {
            const int count = __builtin_popcountll(floor[wi]);
            if (!count) continue;
            std::string part = "pz::grid::extractBits(b.w[" + std::to_string(wi) + "], " + hex(floor[wi]) + ")";
            if (wide) part = "(FloorSet)" + part;
            if (offset) part = "(" + part + " << " + std::to_string(offset) + ")";
            set += (set.empty() ? "" : " | ") + part;
            const std::string bits = offset ? "(uint64_t)(f >> " + std::to_string(offset) + ")" : "(uint64_t)f";
            back.push_back("b.w[" + std::to_string(wi) + "] = pz::grid::depositBits(" + bits + ", " + hex(floor[wi]) + ");");
            offset += count;
        }
        w_.line("inline FloorSet floorSet(const Board& b) { return " + (set.empty() ? "0" : set) + "; }");
        w_.line("inline Board boardOf(FloorSet f) {");
        w_.indent();
        w_.line("Board b{};");
        for (const auto& line : back) w_.line(line);
        w_.line("return b;");
        w_.dedent();
        w_.line("}");
        bool lists = false;
        for (size_t i = 0; i < layout_.colours.size(); ++i) lists |= listed(i);
        if (lists) {
            std::string at;
            int f = 0;
            for (int cell = 0; cell < 64 * layout_.words; ++cell)
                at += (cell ? ", " : "") + std::to_string(cell < cellCount() && level_.floor[cell] ? f++ : 0);
            w_.line("// the floor index of each cell (0 for walls), see note [grid actor lists]");
            w_.line("constexpr pz::grid::FloorIndexBytes<{{WORDS}}> kFloorIndexBytes{ {" + at + "} };");
        }
        w_.line();
    }
    // note [grid actor lists] (runtime/include/pz/grid_bits.hpp): with at
    // most 128 floor cells and 16 actors, a board's actors are read as a byte
    // list of floor indices, the form both the key fields and the distance
    // rows take.
    static constexpr int kMaxListActors = 16;
    bool listed(size_t i) const {
        return compactFloorSets() && actorsOf(i) >= 1 && actorsOf(i) <= kMaxListActors;
    }
    // Actor a of the list declared by boardLines(): byte a of `lo` or `hi`.
    static std::string actorByte(int a) {
        const std::string word = a < 8 ? "lo" : "hi";
        const int shift = 8 * (a % 8);
        return shift ? word + " >> " + std::to_string(shift) + " & 0xff" : word + " & 0xff";
    }
    // A mask of the low `width` bits of each of the first `count` bytes.
    static std::string byteFieldMask(int count, int width) {
        uint64_t m = 0;
        for (int j = 0; j < count; ++j) m |= ((uint64_t(1) << width) - 1) << (8 * j);
        return hex(m);
    }
    // The lines pack(), packEstimate() and heuristic() run for board i: its
    // key field into `key` (withKey) and its nearest-actor distances into
    // `far` (withRows, needs listed(i)), from one read of its actors.
    std::vector<std::string> boardLines(size_t i, bool withKey, bool withRows) const {
        using Kind = GridLayout::Part::Kind;
        const auto& part = layout_.parts[i];
        const int k = actorsOf(i), width = indexBits(layout_.floorCells);
        const std::string i_ = std::to_string(i), board = "s.colour[" + i_ + "]", table = "kDist" + i_;
        const std::string offset = std::to_string(part.offset);
        const bool keyField = withKey && part.bits > 0;
        const bool list = listed(i) && (withRows || (keyField && part.kind != Kind::FloorBits));
        std::vector<std::string> out;
        if (list) {
            out.push_back("const pz::grid::ActorList list = pz::grid::actorList<" + std::to_string(k) + ">(" + board +
                          ", kFloorIndexBytes);  // " + commentText(rules_.colours[layout_.colours[i]].name));
            out.push_back("const uint64_t lo = pz::grid::lowBytes(list);");
            if (k > 8) out.push_back("const uint64_t hi = pz::grid::highBytes(list);");
        }
        if (keyField) {
            switch (part.kind) {
                case Kind::FloorBits:  // a field of at most 64 bits: at most 64 floor cells, so compact
                    out.push_back("key |= (Key)floorSet(" + board + ") << " + offset + ";");
                    break;
                case Kind::IndexList:
                    if (list) {
                        out.push_back("key |= pz::grid::extractBits(lo, " + byteFieldMask(std::min(k, 8), width) +
                                      ") << " + offset + ";");
                        if (k > 8)
                            out.push_back("key |= pz::grid::extractBits(hi, " + byteFieldMask(k - 8, width) + ") << " +
                                          std::to_string(part.offset + 8 * width) + ";");
                    } else {
                        out.push_back("int shift = " + offset + ";");
                        out.push_back("for (int wi = 0; wi < {{WORDS}}; ++wi)");
                        out.push_back("    for (uint64_t b = " + board + ".w[wi]; b; b &= b - 1, shift += " +
                                      std::to_string(width) + ")");
                        out.push_back("        key |= (Key)kFloorIndex[wi * 64 + __builtin_ctzll(b)] << shift;");
                    }
                    break;
                case Kind::Colex:
                    out.push_back("uint64_t rank = 0;");
                    if (list) {
                        for (int a = 0; a < k; ++a)
                            out.push_back("rank += kChoose(" + actorByte(a) + ", " + std::to_string(a + 1) + ");");
                    } else {
                        out.push_back("int i = 0;");
                        out.push_back("for (int wi = 0; wi < {{WORDS}}; ++wi)");
                        out.push_back("    for (uint64_t b = " + board + ".w[wi]; b; b &= b - 1)");
                        out.push_back("        rank += kChoose(kFloorIndex[wi * 64 + __builtin_ctzll(b)], ++i);");
                    }
                    out.push_back("key |= rank << " + offset + ";");
                    break;
            }
        }
        if (withRows) {
            out.push_back("pz::grid::DistanceRow near = " + table + "[" + actorByte(0) + "];");
            for (int a = 1; a < k; ++a)
                out.push_back("near = pz::grid::minRow(near, " + table + "[" + actorByte(a) + "]);");
            out.push_back("far = pz::grid::maxRow(far, near);");
        }
        return out;
    }
    static std::string lowMask(int bits) { return hex(bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1); }
    // The binomial table colex ranks need (note [grid colex tables]), rows
    // up to a power of two above F.
    void emitChooseTable(int maxK) {
        int rows = 2;
        while (rows <= layout_.floorCells) rows *= 2;
        w_.line("constexpr pz::grid::ColexTable<" + std::to_string(rows) + ", " + std::to_string(maxK) + "> kChoose{};");
    }
    // Lines that unrank `rank` (k actors) into floor indices: `each` gets f.
    void emitColexUnrank(int k, const std::string& each) {
        w_.line("for (int i = " + std::to_string(k) + "; i > 0; --i) {");
        w_.line("    const int f = kChoose.largest(i, rank);  // below the previous f: C(n, i) > rank for n >= F");
        w_.line("    rank -= kChoose(f, i);");
        w_.line("    " + each);
        w_.line("}");
    }

    bool goalWithoutActors() const {
        for (const auto& goal : level_.goals)
            if (actorsOfColour(goal.colour) == 0) return true;
        return false;
    }
    // One braced block per board: its key field and, with `rows`, its
    // nearest-actor distances (the bodies of pack() and packEstimate()).
    void emitKeyBlocks(bool rows) {
        for (size_t i = 0; i < layout_.parts.size(); ++i) {
            const auto lines = boardLines(i, true, rows && boardHasDistanceRows(i));
            if (lines.empty()) continue;
            w_.line("{");
            w_.indent();
            for (const auto& line : lines) w_.line(line);
            w_.dedent();
            w_.line("}");
        }
    }

    // pack() and heuristic() in one pass over each colour's actors: the
    // search needs both for nearly every child (most children are new), and
    // finding the actors costs more than either use of them.
    void emitPackEstimate() {
        w_.line("// pack(s) and heuristic(s) at once (the search's per-child work)");
        // Inlined into the search's child loop, so its long dependency chain
        // (extraction, row loads, maxima) overlaps the next child's kernel
        // and no vzeroupper/call frame is paid per child (12x12 levels: 2-6%).
        w_.line("[[gnu::always_inline]] inline Key packEstimate(const State& s, int& h) {");
        w_.indent();
        w_.line("Key key = 0;");
        w_.line("pz::grid::DistanceRow far{};");
        emitKeyBlocks(true);
        if (goalWithoutActors()) {
            w_.line("h = kDead;  // a goal of a colour without actors");
        } else {
            w_.line("h = pz::grid::largestByte<" + std::to_string(level_.goals.size()) + ">(far);");
            w_.line("if (h == pz::grid::kUnreachableByte) h = kDead;");
        }
        w_.line("return key;");
        w_.dedent();
        w_.line("}");
    }

    // note [grid key parts] in gridLayout(): one bit field per colour.
    void emitPackedKey() {
        using Kind = GridLayout::Part::Kind;
        const bool compact = compactFloorSets();
        int maxColexK = 0;
        bool needFloorTables = false;
        std::string fields;
        static const char* partNames[] = {"floor bits", "floor indices", "colex rank"};
        for (size_t i = 0; i < layout_.parts.size(); ++i) {
            const auto& part = layout_.parts[i];
            if (part.kind == Kind::Colex) maxColexK = std::max(maxColexK, part.actors);
            if (part.kind != Kind::FloorBits && !listed(i)) needFloorTables = true;
            fields += (i ? ", " : "") + commentText(rules_.colours[layout_.colours[i]].name) + " " + partNames[(int)part.kind] +
                      " [" + std::to_string(part.offset) + ", " + std::to_string(part.offset + part.bits) + ")";
        }
        w_.line("using Key = uint64_t;  // bit fields: " + fields + "; see note [grid key parts]");
        if (needFloorTables) emitFloorTables();
        if (maxColexK) emitChooseTable(maxColexK);
        const int indexWidth = indexBits(layout_.floorCells);
        // pack
        w_.line("inline Key pack(const State& s) {");
        w_.indent();
        w_.line("Key key = 0;");
        emitKeyBlocks(false);
        w_.line("return key;");
        w_.dedent();
        w_.line("}");
        // Not with --hall: its checks cost more than the rows, and apart they
        // run only for new children, from the parent's h - 1 (measured with
        // them in packEstimate: antiparticle 7.4 -> 11.3 ms).
        if (useDistanceRows() && !hallBound_) emitPackEstimate();
        // unpack
        w_.line("inline State unpack(Key key) {");
        w_.indent();
        w_.line("State s{};");
        for (size_t i = 0; i < layout_.parts.size(); ++i) {
            const auto& part = layout_.parts[i];
            const std::string board = "s.colour[" + std::to_string(i) + "]";
            if (part.bits == 0) continue;
            const std::string field = "(key >> " + std::to_string(part.offset) + ") & " + lowMask(part.bits);
            w_.line("{");
            w_.indent();
            switch (part.kind) {
                case Kind::FloorBits:
                    w_.line(board + " = boardOf((FloorSet)(" + field + "));");
                    break;
                case Kind::IndexList:
                    if (compact) {
                        w_.line("FloorSet f = 0;");
                        for (int a = 0; a < part.actors; ++a)
                            w_.line("f |= FloorSet(1) << ((key >> " + std::to_string(part.offset + a * indexWidth) +
                                    ") & " + std::to_string((1 << indexWidth) - 1) + ");");
                        w_.line(board + " = boardOf(f);");
                    } else {
                        for (int a = 0; a < part.actors; ++a)
                            w_.line(board + ".set(kFloorCell[(key >> " + std::to_string(part.offset + a * indexWidth) +
                                    ") & " + std::to_string((1 << indexWidth) - 1) + "]);");
                    }
                    break;
                case Kind::Colex:
                    w_.line("uint64_t rank = " + field + ";");
                    if (compact) {
                        w_.line("FloorSet set = 0;");
                        emitColexUnrank(part.actors, "set |= FloorSet(1) << f;");
                        w_.line(board + " = boardOf(set);");
                    } else {
                        emitColexUnrank(part.actors, board + ".set(kFloorCell[f]);");
                    }
                    break;
            }
            w_.dedent();
            w_.line("}");
        }
        w_.line("return s;");
        w_.dedent();
        w_.line("}");
        w_.line("struct Hasher {");
        w_.line("    uint64_t operator()(Key k) const { return pz::grid::mixHash(k); }");
        w_.line("};");
    }

    void emitKey() {
        w_.section("grid_emit: key");
        switch (layout_.key) {
            case GridLayout::KeyKind::Packed:
                emitPackedKey();
                break;
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
        w_.line("static constexpr const char* kName = {{NAME}};");
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
            w_.line("    case " + std::to_string(p) + ": return move_" + identifierPart(rules_.directions[p].name) + "(s);");
        w_.line("}");
        w_.line("return s;");
        w_.dedent();
        w_.line("}");
        w_.line("bool solved(const State& s) const { return {{NS}}::solved(s); }");
        w_.line("int heuristic(const State& s) const { return {{NS}}::heuristic(s); }");
        w_.line("// atLeast must not exceed the true value (for a child: its parent's h - 1)");
        w_.line("int heuristicAtLeast(const State& s, int atLeast) const { return {{NS}}::heuristic(s, atLeast); }");
        w_.line("Key pack(const State& s) const { return {{NS}}::pack(s); }");
        if (layout_.key == GridLayout::KeyKind::Packed && useDistanceRows() && !hallBound_)
            w_.line("[[gnu::always_inline]] Key packEstimate(const State& s, int& h) const { return {{NS}}::packEstimate(s, h); }");
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
    std::string key;
    switch (this->key) {
        case KeyKind::Packed: {
            static const char* partNames[] = {"floor bits", "floor indices", "colex rank"};
            key = "u64 of";
            for (size_t i = 0; i < parts.size(); ++i)
                key += std::string(i ? " +" : "") + " " + partNames[(int)parts[i].kind] + " (" +
                       std::to_string(parts[i].bits) + " bits)";
            break;
        }
        case KeyKind::Words: key = "bitboards"; break;
    }
    return std::to_string(cells) + " cells, " + std::to_string(floorCells) + " floor, " +
           std::to_string(colours.size()) + " colour board(s) of " + std::to_string(words) + " word(s), key: " + key;
}

namespace {
// Bits that hold the values 0 .. count - 1.
int bitsFor(uint64_t count) {
    int bits = 0;
    while (bits < 64 && (uint64_t(1) << bits) < count) ++bits;
    return bits;
}

// note [grid key parts]
// Each colour's actor set becomes one bit field of a u64 key, in the
// cheapest form that lets all fields fit: its floor bits (pext/pdep only),
// its actors' floor indices (a few bits per actor, unpacked without search),
// or its colex rank (fewest bits, but unranking searches a binomial table per
// actor). Costs are relative instruction counts per pack + unpack.
bool choosePackedParts(const ir::Level& level, GridLayout& layout) {
    using Kind = GridLayout::Part::Kind;
    const size_t n = layout.colours.size();
    std::vector<std::vector<GridLayout::Part>> options(n);
    std::vector<std::vector<int>> costs(n);
    for (size_t i = 0; i < n; ++i) {
        int k = 0;
        for (const auto& a : level.actors) k += a.colour == layout.colours[i];
        const int f = layout.floorCells;
        options[i].push_back({Kind::FloorBits, k, f, 0});
        costs[i].push_back(2);
        options[i].push_back({Kind::IndexList, k, k * indexBits(f), 0});
        costs[i].push_back(2 + 2 * k);
        const uint64_t ranks = binomialSaturating(f, k);
        if (ranks != ~uint64_t(0)) {
            options[i].push_back({Kind::Colex, k, bitsFor(ranks), 0});
            costs[i].push_back(2 + 12 * k);
        }
    }
    // Exhaustive over the (few) colours: least cost, then fewest bits.
    std::vector<size_t> pick(n, 0), best;
    int bestCost = 1 << 30, bestBits = 65;
    for (;;) {
        int cost = 0, bits = 0;
        for (size_t i = 0; i < n; ++i) cost += costs[i][pick[i]], bits += options[i][pick[i]].bits;
        if (bits <= 64 && (cost < bestCost || (cost == bestCost && bits < bestBits)))
            best = pick, bestCost = cost, bestBits = bits;
        size_t i = 0;
        while (i < n && ++pick[i] == options[i].size()) pick[i++] = 0;
        if (i == n) break;
    }
    if (best.empty()) return false;
    int offset = 0;
    for (size_t i = 0; i < n; ++i) {
        GridLayout::Part part = options[i][best[i]];
        part.offset = offset;
        offset += part.bits;
        layout.parts.push_back(part);
    }
    return true;
}
}  // namespace

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
    layout.key = choosePackedParts(level, layout) ? GridLayout::KeyKind::Packed : GridLayout::KeyKind::Words;
    return layout;
}

std::string gridLevelNamespace(const ir::Level& level) {
    std::string r = "level_";
    for (char c : level.name) r += (unsigned char)c < 0x80 && std::isalnum((unsigned char)c) ? c : '_';
    return r;
}

std::string emitGridSolver(const ir::GridRules& rules, const std::vector<ir::Level>& levels,
                           const GridEmitOptions& options) {
    CodeWriter w;
    w.annotate(options.annotate);
    // The namespace comes from the command line: each component as an identifier.
    std::string top;
    for (size_t at = 0;;) {
        size_t next = options.topNamespace.find("::", at);
        std::string part = options.topNamespace.substr(at, next == std::string::npos ? std::string::npos : next - at);
        part = part.empty() ? std::string("pzgen") : identifierPart(part);
        if (std::isdigit((unsigned char)part[0])) part = "n" + part;
        top += (top.empty() ? "" : "::") + part;
        if (next == std::string::npos) break;
        at = next + 2;
    }
    w.set("SOURCE", commentText(options.source));
    w.line("// generated by pzc from {{SOURCE}} — do not edit");
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
    w.line("namespace " + top + " {");
    w.line();
    std::set<std::string> used;
    std::string list;
    std::set<std::string> names;
    int renamed = 0;
    for (const auto& level : levels) {
        if (!names.insert(level.name).second) continue;  // same name twice: the first one wins
        // Names equal after sanitising (a-b, a_b): the later level's
        // namespace goes inside namespace dupN, so both are kept.
        std::string ns = gridLevelNamespace(level), wrap;
        if (!used.insert(ns).second) {
            wrap = "dup" + std::to_string(++renamed);
            w.line("namespace " + wrap + " {");
        }
        LevelEmitter(w, rules, level, options.hallBound).emit();
        if (!wrap.empty()) w.line("}  // namespace " + wrap);
        list += (list.empty() ? "" : ", ") + (wrap.empty() ? "" : wrap + "::") + ns + "::Space";
    }
    w.line("using AllLevels = pz::grid::LevelList<" + list + ">;");
    w.line();
    w.line("}  // namespace " + top);
    if (options.withMain) {
        w.line();
        w.line("int main(int argc, char** argv) { return pz::grid::levelsMain<" + top + "::AllLevels>(argc, argv); }");
    }
    return w.str();
}

}  // namespace pz::codegen
