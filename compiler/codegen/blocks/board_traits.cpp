// The board engine's traits (blocks_emit.hpp; the contract: note [blocks
// traits] in runtime/include/pz/blocks/board.hpp).
//
// note [engine types]
// The engine canonicalises a state by sorting the anchors of the pieces of
// one type, so its types must be exactly the interchangeable pieces: pieces
// the definition declares identical share a type, every other piece has its
// own, keyed by its name, shape and axis (two levels' car `B` of one shape
// and axis share one). Sharing a type between distinct pieces would be
// sound for counting states where they can never swap places (same-shape
// cars in one row), but the engine then names a move by the piece at that
// rank, which is not always the piece that moved. A level's own walls
// (Rush Hour's `x`) are pieces of one fixed 1x1 type.
#include <algorithm>
#include <map>
#include <sstream>

#include "compiler/codegen/blocks/blocks_emit.hpp"
#include "compiler/codegen/code_writer.hpp"

namespace pz::codegen {

namespace {

std::string shapeKey(const ir::BlockType& t) {
    std::string k;
    for (const auto& c : t.shape) k += std::to_string(c.x) + "," + std::to_string(c.y) + ";";
    return k;
}

const char* axisName(ir::BlockAxis a) {
    switch (a) {
        case ir::BlockAxis::Any: return "Any";
        case ir::BlockAxis::Horizontal: return "Horizontal";
        case ir::BlockAxis::Vertical: return "Vertical";
    }
    return "Any";
}

std::string hex64(uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v << "ull";
    return s.str();
}

}  // namespace

BoardTypes boardTypes(const ir::BlockRules& rules, const std::vector<ir::BlockLayout>& levels) {
    BoardTypes out;
    std::map<std::string, int> byKey;
    auto typeFor = [&](const ir::BlockLayout& layout, const ir::BlockPiece& piece) {
        const ir::BlockType& t = layout.types[piece.type];
        const std::string key = t.name + " " + std::string(axisName(t.axis)) + " " + shapeKey(t);
        auto [it, fresh] = byKey.emplace(key, static_cast<int>(out.types.size()));
        if (fresh) {
            out.types.push_back(t);
            // Level text names types by a token: the type's name, or for a
            // second shape of one name, that name and its number.
            const bool named = std::find(out.names.begin(), out.names.end(), t.name) != out.names.end();
            out.names.push_back(named ? t.name + "=" + std::to_string(out.types.size() - 1) : t.name);
            out.fixed.push_back(false);
        }
        return it->second;
    };
    const int cells = rules.width * rules.height;
    for (const auto& level : levels) {
        std::vector<int> types;
        for (const auto& piece : level.pieces) types.push_back(typeFor(level, piece));
        for (int c = 0; c < cells; ++c) {
            if (!level.wall[c] || rules.wall[c]) continue;
            auto [it, fresh] = byKey.emplace("fixed", static_cast<int>(out.types.size()));
            if (fresh) {
                out.types.push_back(ir::BlockType{"wall", {{0, 0}}, ir::BlockAxis::Any});
                out.names.push_back("=wall");
                out.fixed.push_back(true);
            }
            types.push_back(it->second);
        }
        out.pieceType.push_back(std::move(types));
    }
    // Full goal: the solved board's pieces, typed like the levels' (a level
    // of a definition with a board shares its types); typed first, since
    // that may add a type no level uses.
    std::vector<std::pair<int, int>> solvedAnchors;  // (type, cell)
    if (rules.goal.kind == ir::BlockGoal::Kind::Full)
        for (const auto& piece : rules.board->pieces)
            solvedAnchors.push_back({typeFor(*rules.board, piece), piece.anchor.y * rules.width + piece.anchor.x});
    out.goalAnchors.assign(out.types.size(), 0);
    switch (rules.goal.kind) {
        case ir::BlockGoal::Kind::Full:
            for (auto [t, cell] : solvedAnchors) out.goalAnchors[t] |= uint64_t(1) << cell;
            break;
        case ir::BlockGoal::Kind::Place:
            for (const auto& place : rules.goal.placements)
                for (size_t l = 0; l < levels.size(); ++l)
                    for (size_t p = 0; p < levels[l].pieces.size(); ++p)
                        if (levels[l].pieces[p].name == place.piece)
                            out.goalAnchors[out.pieceType[l][p]] |= uint64_t(1) << (place.anchor.y * rules.width + place.anchor.x);
            break;
        case ir::BlockGoal::Kind::Exit:
            for (size_t l = 0; l < levels.size(); ++l)
                for (size_t p = 0; p < levels[l].pieces.size(); ++p)
                    if (levels[l].pieces[p].name == rules.goal.exitPiece) out.exitType = out.pieceType[l][p];
            break;
    }
    if (out.types.size() > 64)
        out.error = std::to_string(out.types.size()) + " piece types in these levels; the board engine takes at most 64 "
                    "(solve fewer levels at once)";
    return out;
}

std::string emitBoardSolver(const ir::Puzzle& puzzle, const BoardTypes& types, const BlocksEmitOptions& options) {
    const ir::BlockRules& rules = puzzle.blocks;
    const int cells = rules.width * rules.height;
    CodeWriter w;
    w.line("// generated by pzc from " + commentText(options.source) + " — do not edit");
    w.line("// The board engine's traits (note [blocks traits] in pz/blocks/board.hpp): placement");
    w.line("// bitboards per piece type and anchor, the goal as anchor masks.");
    w.line("#include <cstdint>");
    w.line("");
    w.line(options.withMain ? "#include \"pz/blocks/blocks_main.hpp\"" : "#include \"pz/blocks/board.hpp\"");
    w.line("");
    w.line("namespace " + options.topNamespace + " {");
    w.line("");
    w.line("struct Traits {");
    w.indent();
    w.line("static constexpr const char* kName = " + stringLiteral(puzzle.name) + ";");
    w.line("static constexpr int kWidth = " + std::to_string(rules.width) + ", kHeight = " + std::to_string(rules.height) + ";");
    uint64_t walls = 0;
    for (int c = 0; c < cells; ++c)
        if (rules.wall[c]) walls |= uint64_t(1) << c;
    w.line("static constexpr uint64_t kWalls = " + hex64(walls) + ";");
    std::string side = "None";
    if (rules.exit) {
        using S = ir::BlockRules::Exit::Side;
        side = rules.exit->side == S::Left ? "Left" : rules.exit->side == S::Right ? "Right" : rules.exit->side == S::Top ? "Top" : "Bottom";
    }
    w.line("static constexpr pz::blocks::ExitSide kExitSide = pz::blocks::ExitSide::" + side + ";");
    w.line("static constexpr int kExitOffset = " + std::to_string(rules.exit ? rules.exit->offset : 0) + ";");
    const char* metric = rules.metric == ir::BlockMetric::Step ? "Step" : rules.metric == ir::BlockMetric::Slide ? "Slide" : "Path";
    w.line("static constexpr pz::blocks::Metric kMetric = pz::blocks::Metric::" + std::string(metric) + ";");
    const size_t n = types.types.size();
    w.line("static constexpr int kTypes = " + std::to_string(n) + ";");
    std::string names, axes, goals;
    for (size_t t = 0; t < n; ++t) {
        names += (t ? ", " : "") + stringLiteral(types.names[t]);
        axes += std::string(t ? ", " : "") + "pz::blocks::Axis::" + (types.fixed[t] ? "Fixed" : axisName(types.types[t].axis));
        goals += (t ? ", " : "") + hex64(types.goalAnchors[t]);
    }
    w.line("static constexpr const char* kTypeNames[kTypes] = {" + names + "};");
    w.line("static constexpr pz::blocks::Axis kAxis[kTypes] = {" + axes + "};");
    w.line("// [type][anchor cell]: the cells covered, 0 where the piece does not fit.");
    w.line("static constexpr uint64_t kPlacement[kTypes][64] = {");
    w.indent();
    for (size_t t = 0; t < n; ++t) {
        std::string shape;
        for (const auto& c : types.types[t].shape) shape += "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
        w.line("// " + commentText(types.names[t]) + ": cells " + shape);
        w.line("{");
        w.indent();
        std::string row;
        for (int a = 0; a < 64; ++a) {
            uint64_t mask = 0;
            bool fits = a < cells;
            for (const auto& c : types.types[t].shape) {
                const int x = a % rules.width + c.x, y = a / rules.width + c.y;
                if (!fits || x >= rules.width || y >= rules.height || rules.wall[y * rules.width + x]) {
                    fits = false;
                    break;
                }
                mask |= uint64_t(1) << (y * rules.width + x);
            }
            row += hex64(fits ? mask : 0) + ",";
            if (a % 4 == 3) {
                w.line(row);
                row.clear();
            } else {
                row += " ";
            }
        }
        w.dedent();
        w.line("},");
    }
    w.dedent();
    w.line("};");
    const char* goalKind = rules.goal.kind == ir::BlockGoal::Kind::Full ? "Full" : rules.goal.kind == ir::BlockGoal::Kind::Place ? "Place" : "Exit";
    w.line("static constexpr pz::blocks::GoalKind kGoalKind = pz::blocks::GoalKind::" + std::string(goalKind) + ";");
    w.line("static constexpr uint64_t kGoalAnchors[kTypes] = {" + goals + "};");
    w.line("static constexpr int kExitType = " + std::to_string(types.exitType) + ";");
    w.dedent();
    w.line("};");
    w.line("");
    w.line("}  // namespace " + options.topNamespace);
    if (options.withMain) {
        w.line("");
        w.line("int main(int argc, char** argv) { return pz::blocks::blocksMain<" + options.topNamespace + "::Traits>(argc, argv); }");
    }
    return w.str();
}

std::string boardLevelText(const ir::BlockRules& rules, const BoardTypes& types, const std::vector<ir::BlockLayout>& levels) {
    std::string text;
    for (size_t l = 0; l < levels.size(); ++l) {
        const auto& level = levels[l];
        std::string name = level.name;  // the rest of its line: no line breaks
        for (char& c : name)
            if (static_cast<unsigned char>(c) < 0x20) c = '_';
        text += "level " + std::to_string(rules.width) + " " + std::to_string(rules.height) + " " + name + "\n";
        size_t k = 0;
        for (; k < level.pieces.size(); ++k) {
            const auto& p = level.pieces[k];
            text += p.name + " " + types.names[types.pieceType[l][k]] + " " + std::to_string(p.anchor.x) + " " +
                    std::to_string(p.anchor.y) + "\n";
        }
        for (int c = 0, wall = 0; c < rules.width * rules.height; ++c)
            if (level.wall[c] && !rules.wall[c])
                text += "=" + std::to_string(wall++) + " " + types.names[types.pieceType[l][k++]] + " " +
                        std::to_string(c % rules.width) + " " + std::to_string(c / rules.width) + "\n";
        text += "end\n";
    }
    return text;
}

}  // namespace pz::codegen
