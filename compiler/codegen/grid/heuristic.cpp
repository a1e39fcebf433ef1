// The heuristic: rings of cells per goal, byte distance rows, Hall's bound.
#include "compiler/codegen/grid/level_emitter.hpp"

namespace pz::codegen::grid {

// For goal g, kNear<g>[d] = cells within d presses of the goal (alone on
// the board). The nearest actor of the goal's colour is at the first d
// whose ring it touches; scanning from the current maximum keeps the
// total work to a few mask tests.
void LevelEmitter::emitHeuristic() {
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
            if (distance((int)g, cell) != analysis::kUnreachableDistance)
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

bool LevelEmitter::useDistanceRows() const {
    if (!compactFloorSets() || level_.goals.empty() || (int)level_.goals.size() > kMaxRowGoals) return false;
    for (size_t i = 0; i < layout_.colours.size(); ++i)
        if (boardHasDistanceRows(i) && !listed(i)) return false;
    return true;
}

bool LevelEmitter::boardHasDistanceRows(size_t i) const {
    if (actorsOf(i) == 0) return false;
    for (const auto& goal : level_.goals)
        if (goal.colour == layout_.colours[i]) return true;
    return false;
}

void LevelEmitter::emitRowHeuristic() {
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
                    // 255 marks "unreachable"; a reachable goal 255 or more presses
                    // away is stored as 254, still a lower bound (never a false dead end).
                    if (d == analysis::kUnreachableDistance) d = 255;
                    else if (d >= 255) d = 254;
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

void LevelEmitter::emitHall(std::vector<std::string>& checks) {
    for (size_t i = 0; i < layout_.colours.size(); ++i) {
        std::vector<int> goals;
        for (size_t g = 0; g < level_.goals.size(); ++g)
            if (level_.goals[g].colour == layout_.colours[i]) goals.push_back((int)g);
        const int m = (int)goals.size();
        if (m < 2 || m > kMaxHallGoals) continue;
        int maxd = 0;
        for (int g : goals)
            for (int cell = 0; cell < cellCount(); ++cell)
                if (distance(g, cell) != analysis::kUnreachableDistance)
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

}  // namespace pz::codegen::grid
