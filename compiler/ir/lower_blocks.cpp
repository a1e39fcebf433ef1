// Lowering of sliding-block puzzles (docs/language.md, "Sliding-block
// puzzles"): board rows -> walls and pieces, pieces -> types, then the
// rules that name them (axes, identical groups, moves, exit, goal,
// symmetries, patterns, solvers, levels). Every check reports where the
// definition says the offending thing and lowering goes on, so one run
// reports every error.
#include "compiler/ir/lower_blocks.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "compiler/ir/blocks_shapes.hpp"

namespace pz::ir {
namespace {

using Def = ast::BlocksDef;

bool validToken(const std::string& t) {
    if (t.empty()) return false;
    bool digits = std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit((unsigned char)c); });
    bool ident = std::isalpha((unsigned char)t[0]) || t[0] == '_';
    for (char c : t) ident = ident && (std::isalnum((unsigned char)c) || c == '_');
    return digits || ident;
}

std::string cellText(BlockCell c) { return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")"; }

class BlocksLowerer {
public:
    BlocksLowerer(const ast::Puzzle& src, BlockRules& out, DiagnosticEngine& diags)
        : src_(src), def_(src.blocks), file_(src.file), out_(out), diags_(diags) {}

    bool run() {
        if (lowerBoardShape()) {
            lowerPieces();
            lowerAxes();
            lowerTypes();
        }
        lowerMetricAndMoves();
        lowerExit();
        lowerGoal();
        lowerSymmetries();
        lowerPatterns();
        lowerSolvers();
        lowerLevels();
        if (out_.board) {
            out_.board->types = out_.types;
            out_.board->wall = out_.wall;
        }
        return diags_.errorCount() == errorsBefore_;
    }

private:
    void error(SourceRange where, std::string message) { diags_.error(file_, where, std::move(message)); }

    // Symmetries, patterns and solvers share one namespace.
    bool declare(const ast::Name& name, const std::string& kind) {
        auto [it, fresh] = declared_.emplace(name.text, std::make_pair(kind, name.range));
        if (fresh) return true;
        std::string article = std::string("aeiou").find(it->second.first[0]) != std::string::npos ? "an " : "a ";
        error(name.range, "duplicate name '" + name.text + "': already declared as " + article + it->second.first +
                              " (first declared at line " + std::to_string(it->second.second.line) + ")");
        return false;
    }

    // The board piece of a name, or -1 after an error.
    int piece(const ast::Name& n) {
        auto it = pieceIndex_.find(n.text);
        if (it != pieceIndex_.end()) return it->second;
        error(n.range, "unknown piece '" + n.text + "': the board has no such token");
        return -1;
    }
    bool hasBoard() const { return out_.board.has_value(); }
    const std::vector<BlockCell>& shapeOf(int p) const { return cells_[p].second; }
    bool onBoard(BlockCell c) const { return c.x >= 0 && c.y >= 0 && c.x < out_.width && c.y < out_.height; }
    bool isWall(BlockCell c) const { return out_.wall[(size_t)c.y * out_.width + c.x]; }

    // ---- the board: its size, walls and tokens

    bool lowerBoardShape() {
        if (def_.board && def_.size) {
            error(def_.size->range, "'size' is for definitions without a board; the board gives the size");
            return false;
        }
        if (!def_.board && !def_.size) {
            error(src_.name.range, "blocks puzzle '" + src_.name.text + "' gives neither a board nor a size");
            return false;
        }
        if (def_.size) {
            out_.width = def_.size->width;
            out_.height = def_.size->height;
        } else {
            if (def_.board->empty()) {
                error(def_.boardRange, "the board has no rows");
                return false;
            }
            tokens_ = tokenRows();
            out_.height = (int)tokens_.size();
            out_.width = (int)tokens_[0].size();
            for (size_t r = 1; r < tokens_.size(); ++r)
                if ((int)tokens_[r].size() != out_.width) {
                    error((*def_.board)[r].range, "board row " + std::to_string(r) + " has " +
                                                      std::to_string(tokens_[r].size()) + " cells but row 0 has " +
                                                      std::to_string(out_.width) + "; rows must be equally wide");
                    return false;
                }
        }
        SourceRange where = def_.size ? def_.size->range : def_.boardRange;
        if (out_.width < 1 || out_.height < 1) {
            error(where, "a board is at least 1 x 1");
            return false;
        }
        const long cells = (long)out_.width * out_.height;
        if (cells > kMaxBlockCells) {
            error(where, "the board has " + std::to_string(out_.width) + " x " + std::to_string(out_.height) + " = " +
                             std::to_string(cells) + " cells; a sliding-block board has at most " +
                             std::to_string(kMaxBlockCells) + " cells (walls included)");
            return false;
        }
        out_.wall.assign(cells, false);
        return true;
    }

    struct Token {
        std::string text;
        SourceRange where;
    };
    std::vector<std::vector<Token>> tokenRows() {
        std::vector<std::vector<Token>> rows;
        for (const auto& row : *def_.board) {
            std::vector<Token> tokens;
            const std::string& s = row.text;
            for (size_t i = 0; i < s.size();) {
                if (s[i] == ' ' || s[i] == '\t') {
                    ++i;
                    continue;
                }
                size_t start = i;
                while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
                SourceRange r = SourceRange::at(row.range.line, row.range.col + (int)start, (int)(i - start));
                tokens.push_back({s.substr(start, i - start), r});
            }
            rows.push_back(std::move(tokens));
        }
        return rows;
    }

    void lowerPieces() {
        if (!def_.board) return;
        BlockLayout layout;
        layout.file = file_;
        std::map<std::string, std::vector<std::pair<BlockCell, SourceRange>>> cellsOf;
        std::vector<std::string> order;
        for (int y = 0; y < out_.height; ++y)
            for (int x = 0; x < out_.width; ++x) {
                const Token& t = tokens_[y][x];
                if (t.text == ".") {
                    ++layout.empties;
                } else if (t.text == "#") {
                    out_.wall[(size_t)y * out_.width + x] = true;
                } else if (!validToken(t.text)) {
                    error(t.where, "board token '" + t.text + "' is not '.' (empty), '#' (wall), a name or a number");
                } else {
                    if (!cellsOf.count(t.text)) order.push_back(t.text);
                    cellsOf[t.text].push_back({{x, y}, t.where});
                }
            }
        for (const auto& name : order) {
            const auto& placed = cellsOf[name];
            std::vector<BlockCell> cells;
            for (const auto& [c, where] : placed) cells.push_back(c);
            auto parts = blockComponents(cells);
            if (parts.size() > 1) {
                BlockCell stray = parts[1][0];
                SourceRange where;
                for (const auto& [c, w] : placed)
                    if (c == stray) where = w;
                error(where, "piece '" + name + "' is not connected: its cell " + cellText(stray) +
                                 " does not touch its cell " + cellText(parts[0][0]) +
                                 " side by side (each token names one piece)");
            }
            auto [anchor, shape] = normaliseBlock(cells);
            pieceIndex_[name] = (int)layout.pieces.size();
            cells_.push_back({anchor, shape});
            layout.pieces.push_back({name, 0, anchor});
        }
        out_.board = std::move(layout);
    }

    // ---- axes

    // `axis long;` resolved for one piece; false (and an error) when it has none.
    bool longAxis(int p, SourceRange where, BlockAxis& axis) {
        const auto& shape = shapeOf(p);
        if (!isLineShape(shape)) {
            error(where, "'axis long': piece '" + out_.board->pieces[p].name + "' is " + extentText(shape) +
                             "; with 'axis long' every piece is 1 x k or k x 1 (k >= 2)");
            return false;
        }
        axis = blockExtent(shape).first > 1 ? BlockAxis::Horizontal : BlockAxis::Vertical;
        return true;
    }

    void lowerAxes() {
        using R = BlockRules::AxisRule;
        std::optional<SourceRange> global;
        std::set<std::string> given;
        for (const auto& a : def_.axes) {
            const std::string& n = a.axis.text;
            R rule = n == "horizontal" ? R::Horizontal : n == "vertical" ? R::Vertical : n == "long" ? R::Long : R::None;
            if (rule == R::None) {
                error(a.axis.range, "unknown axis '" + n + "'; expected horizontal, vertical or long");
                continue;
            }
            if (!a.piece) {
                if (global) error(a.range, "'axis' for every piece is given twice");
                global = a.range;
                out_.axisRule = rule;
                continue;
            }
            if (!given.insert(a.piece->text).second) {
                error(a.range, "the axis of piece '" + a.piece->text + "' is given twice");
                continue;
            }
            if (rule == R::Long && !hasBoard()) {
                error(a.axis.range, "'axis " + a.piece->text + " long': give the piece's axis, horizontal or vertical");
                continue;
            }
            BlockAxis axis = rule == R::Horizontal ? BlockAxis::Horizontal : BlockAxis::Vertical;
            if (!hasBoard()) {
                out_.pieceAxes.push_back({a.piece->text, axis});
                continue;
            }
            int p = piece(*a.piece);
            if (p < 0) continue;
            auto [w, h] = blockExtent(shapeOf(p));
            if (w == h) {
                error(a.range, "'axis' on piece '" + a.piece->text + "' of a square shape (" + extentText(shapeOf(p)) +
                                   "): it has no long side to move along");
                continue;
            }
            if (rule == R::Long && !longAxis(p, a.range, axis)) continue;
            pieceAxis_[p] = axis;
            out_.pieceAxes.push_back({a.piece->text, axis});
        }
        if (!hasBoard() || out_.axisRule == R::None) return;
        for (int p = 0; p < (int)out_.board->pieces.size(); ++p) {
            if (pieceAxis_.count(p)) continue;
            BlockAxis axis = out_.axisRule == R::Horizontal ? BlockAxis::Horizontal : BlockAxis::Vertical;
            if (out_.axisRule == R::Long && !longAxis(p, *global, axis)) continue;
            pieceAxis_[p] = axis;
        }
    }

    BlockAxis axisOf(int p) const {
        auto it = pieceAxis_.find(p);
        return it == pieceAxis_.end() ? BlockAxis::Any : it->second;
    }

    // ---- types: one per piece, one per `identical` group

    void lowerTypes() {
        if (!hasBoard()) {
            for (const auto& id : def_.identical)
                error(id.range, "'identical' names pieces of the board; this definition has none (give a board)");
            return;
        }
        auto& pieces = out_.board->pieces;
        std::vector<int> group(pieces.size(), -1);
        std::vector<std::string> groupName;
        for (const auto& id : def_.identical) {
            if (id.pieces.size() < 2) error(id.range, "'identical' needs at least two pieces");
            int first = -1;
            for (const auto& n : id.pieces) {
                int p = piece(n);
                if (p < 0) continue;
                if (group[p] >= 0) {
                    error(n.range, "piece '" + n.text + "' is already named in an 'identical' group");
                    continue;
                }
                if (first < 0) {
                    first = p;
                    groupName.push_back(n.text);
                } else if (shapeOf(p) != shapeOf(first)) {
                    error(n.range, "identical pieces '" + pieces[first].name + "' (" + extentText(shapeOf(first)) +
                                       ") and '" + n.text + "' (" + extentText(shapeOf(p)) +
                                       ") have different shapes; identical pieces have the same shape");
                    continue;
                } else if (axisOf(p) != axisOf(first)) {
                    error(n.range, "identical pieces '" + pieces[first].name + "' and '" + n.text +
                                       "' have different axes");
                    continue;
                }
                group[p] = (int)groupName.size() - 1;
            }
        }
        std::map<int, int> typeOfGroup;
        for (size_t p = 0; p < pieces.size(); ++p) {
            if (group[p] >= 0 && typeOfGroup.count(group[p])) {
                pieces[p].type = typeOfGroup[group[p]];
                continue;
            }
            pieces[p].type = (int)out_.types.size();
            if (group[p] >= 0) typeOfGroup[group[p]] = pieces[p].type;
            out_.types.push_back({group[p] >= 0 ? groupName[group[p]] : pieces[p].name, shapeOf((int)p), axisOf((int)p)});
        }
    }

    // ---- metric, move names, exit

    void lowerMetricAndMoves() {
        if (def_.metric) {
            const std::string& m = def_.metric->text;
            if (m == "step") out_.metric = BlockMetric::Step;
            else if (m == "slide") out_.metric = BlockMetric::Slide;
            else if (m == "path") out_.metric = BlockMetric::Path;
            else error(def_.metric->range, "unknown metric '" + m + "'; expected step, slide or path");
        }
        if (!def_.moves) return;
        const std::string& m = def_.moves->text;
        if (m == "pieces") {
            out_.moveNames = BlockRules::MoveNames::Piece;
            return;
        }
        if (m != "blank") {
            error(def_.moves->range, "unknown move naming '" + m + "'; expected blank or pieces");
            return;
        }
        out_.moveNames = BlockRules::MoveNames::Blank;
        if (!hasBoard()) return;  // the level reader checks each level
        if (out_.board->empties != 1)
            error(def_.moves->range, "'moves blank' needs exactly one empty cell; the board has " +
                                         std::to_string(out_.board->empties));
        for (const auto& p : out_.board->pieces)
            if (shapeOf(pieceIndex_[p.name]).size() != 1) {
                error(def_.moves->range, "'moves blank' needs every piece 1 x 1; piece '" + p.name + "' is " +
                                             extentText(shapeOf(pieceIndex_[p.name])));
                break;
            }
    }

    void lowerExit() {
        if (!def_.exit) return;
        using S = BlockRules::Exit::Side;
        const auto& e = *def_.exit;
        BlockRules::Exit exit;
        const std::string& side = e.side.text;
        if (side == "left") exit.side = S::Left;
        else if (side == "right") exit.side = S::Right;
        else if (side == "top") exit.side = S::Top;
        else if (side == "bottom") exit.side = S::Bottom;
        else {
            error(e.side.range, "unknown side '" + side + "'; expected left, right, top or bottom");
            return;
        }
        exit.offset = e.offset;
        if (out_.wall.empty()) return;  // no board shape: reported
        const bool rows = exit.side == S::Left || exit.side == S::Right;
        const int limit = rows ? out_.height : out_.width;
        if (exit.offset < 0 || exit.offset >= limit) {
            error(e.range, "exit " + side + " " + std::to_string(exit.offset) + " is not on the border: the " + side +
                               " side has " + (rows ? "rows" : "columns") + " 0.." + std::to_string(limit - 1));
            return;
        }
        BlockCell outside = exitCell(exit, out_.width, out_.height);
        BlockCell inside = outside;
        if (exit.side == S::Left) inside.x = 0;
        if (exit.side == S::Right) inside.x = out_.width - 1;
        if (exit.side == S::Top) inside.y = 0;
        if (exit.side == S::Bottom) inside.y = out_.height - 1;
        if (isWall(inside)) {
            error(e.range, "exit " + side + " " + std::to_string(exit.offset) + " is blocked: its border cell " +
                               cellText(inside) + " is a wall");
            return;
        }
        out_.exit = exit;
    }

    // ---- goal

    void lowerGoal() {
        using GK = Def::Goal::Kind;
        out_.boardIsSolved = !def_.start;
        const bool boardGoal = !def_.goal || def_.goal->kind == GK::Board;
        if (def_.start && boardGoal) {
            error(*def_.start, "'start' makes the board a start position: give a goal other than 'board' "
                               "('goal PIECE exits;' or 'goal PIECE at X Y;')");
            return;
        }
        if (boardGoal) {
            if (!def_.board)
                error(def_.goal ? def_.goal->range : src_.name.range,
                      "a blocks puzzle without a board needs a goal ('goal PIECE exits;' or 'goal PIECE at X Y;')");
            out_.goal.kind = BlockGoal::Kind::Full;
            return;
        }
        const auto& g = *def_.goal;
        if (g.kind == GK::Exit) {
            out_.goal.kind = BlockGoal::Kind::Exit;
            out_.goal.exitPiece = g.exitPiece.text;
            if (!def_.exit) {
                error(g.range, "goal '" + g.exitPiece.text + " exits' needs an exit ('exit right 2;')");
                return;
            }
            if (!hasBoard()) return;  // the level reader checks the piece
            int p = piece(g.exitPiece);
            if (p >= 0 && out_.exit) checkReachesExit(p, g.range);
            return;
        }
        out_.goal.kind = BlockGoal::Kind::Place;
        if (g.placements.empty()) error(g.range, "the goal places no pieces");
        std::set<std::string> placed;
        for (const auto& pl : g.placements) {
            if (!placed.insert(pl.piece.text).second) {
                error(pl.range, "piece '" + pl.piece.text + "' is placed twice in the goal");
                continue;
            }
            BlockCell anchor{pl.x, pl.y};
            if (!out_.wall.empty() && !onBoard(anchor)) {
                error(pl.range, "goal anchor " + cellText(anchor) + " is off the board (x 0.." +
                                    std::to_string(out_.width - 1) + ", y 0.." + std::to_string(out_.height - 1) +
                                    ", y from the top)");
                continue;
            }
            if (hasBoard()) {
                int p = piece(pl.piece);
                if (p < 0) continue;
                if (!fits(shapeOf(p), anchor, pl.range, "the goal's piece '" + pl.piece.text + "'")) continue;
            }
            out_.goal.placements.push_back({pl.piece.text, anchor});
        }
    }

    // Whether a shape at an anchor lies on the board and on no wall.
    bool fits(const std::vector<BlockCell>& shape, BlockCell anchor, SourceRange where, const std::string& what) {
        for (const auto& c : shape) {
            BlockCell at{anchor.x + c.x, anchor.y + c.y};
            if (!onBoard(at)) {
                auto [w, h] = blockExtent(shape);
                error(where, what + " (" + std::to_string(w) + " x " + std::to_string(h) + ") at " + cellText(anchor) +
                                 " is off the board: its anchor must be within x 0.." + std::to_string(out_.width - w) +
                                 ", y 0.." + std::to_string(out_.height - h));
                return false;
            }
            if (isWall(at)) {
                error(where, what + " at " + cellText(anchor) + " covers the wall at " + cellText(at));
                return false;
            }
        }
        return true;
    }

    // The goal piece must span the exit's row (or column) to leave through it.
    void checkReachesExit(int p, SourceRange where) {
        using S = BlockRules::Exit::Side;
        const auto& exit = *out_.exit;
        const bool rows = exit.side == S::Left || exit.side == S::Right;
        BlockCell anchor = out_.board->pieces[p].anchor;
        bool spans = false;
        for (const auto& c : shapeOf(p)) spans = spans || (rows ? anchor.y + c.y : anchor.x + c.x) == exit.offset;
        if (!spans)
            error(where, "goal piece '" + out_.board->pieces[p].name + "' is not in " + (rows ? "row " : "column ") +
                             std::to_string(exit.offset) + ", so it can never reach the exit on the " +
                             sideName(exit.side));
    }

    // ---- symmetries, patterns, solvers

    void lowerSymmetries() {
        for (const auto& s : def_.symmetries) {
            bool ok = declare(s.name, "symmetry");
            std::optional<BlockSymmetryKind> kind;
            for (auto k : {BlockSymmetryKind::Transpose, BlockSymmetryKind::AntiTranspose, BlockSymmetryKind::MirrorX,
                           BlockSymmetryKind::MirrorY, BlockSymmetryKind::Rotate180})
                if (s.map.text == symmetryName(k)) kind = k;
            if (!kind) {
                error(s.map.range, "unknown symmetry map '" + s.map.text +
                                       "'; expected transpose, antitranspose, mirror_x, mirror_y or rotate180");
                continue;
            }
            if (ok && !out_.wall.empty()) ok = symmetryFits(s, *kind);
            symmetryIndex_[s.name.text] = (int)out_.symmetries.size();
            if (ok) out_.symmetries.push_back({s.name.text, *kind, s.range});
            else brokenSymmetries_.insert(s.name.text);
        }
    }

    bool symmetryFits(const Def::Symmetry& s, BlockSymmetryKind kind) {
        const std::string what = "symmetry '" + s.name.text + "' (" + s.map.text + ")";
        const bool diagonal = kind == BlockSymmetryKind::Transpose || kind == BlockSymmetryKind::AntiTranspose;
        if (diagonal && out_.width != out_.height) {
            error(s.range, what + " needs a square board; this one is " + std::to_string(out_.width) + " x " +
                               std::to_string(out_.height));
            return false;
        }
        for (int y = 0; y < out_.height; ++y)
            for (int x = 0; x < out_.width; ++x) {
                BlockCell to = mapBlockCell(kind, {x, y}, out_.width, out_.height);
                if (isWall({x, y}) && !isWall(to)) {
                    error(s.range, what + " does not map the walls onto themselves: the wall at " + cellText({x, y}) +
                                       " goes to " + cellText(to) + ", which is not a wall");
                    return false;
                }
            }
        if (!goalFits(s, kind, what)) return false;
        if (out_.exit) {
            BlockRules::Exit to;
            exitOfCell(mapBlockCell(kind, exitCell(*out_.exit, out_.width, out_.height), out_.width, out_.height),
                       out_.width, out_.height, to);
            if (to.side != out_.exit->side || to.offset != out_.exit->offset) {
                error(s.range, what + " moves the exit (" + sideName(out_.exit->side) + " " +
                                   std::to_string(out_.exit->offset) + ") to " + sideName(to.side) + " " +
                                   std::to_string(to.offset));
                return false;
            }
        }
        return true;
    }

    // The cells of each goal piece (the solved board's pieces for a `board`
    // goal, the placed pieces for a placement goal); a symmetry must map
    // each onto the cells of one of them (relabelling pieces is allowed).
    bool goalFits(const Def::Symmetry& s, BlockSymmetryKind kind, const std::string& what) {
        if (!hasBoard()) return true;  // the goal's shapes come with the levels
        std::vector<std::pair<std::string, std::vector<BlockCell>>> goal;
        auto cellsAt = [&](int p, BlockCell anchor) {
            std::vector<BlockCell> cells;
            for (const auto& c : shapeOf(p)) cells.push_back({anchor.x + c.x, anchor.y + c.y});
            return cells;
        };
        if (out_.goal.kind == BlockGoal::Kind::Full && out_.boardIsSolved)
            for (size_t p = 0; p < out_.board->pieces.size(); ++p)
                goal.push_back({out_.board->pieces[p].name, cellsAt((int)p, out_.board->pieces[p].anchor)});
        if (out_.goal.kind == BlockGoal::Kind::Place)
            for (const auto& pl : out_.goal.placements)
                if (auto it = pieceIndex_.find(pl.piece); it != pieceIndex_.end())
                    goal.push_back({pl.piece, cellsAt(it->second, pl.anchor)});
        auto sorted = [](std::vector<BlockCell> cells) {
            std::sort(cells.begin(), cells.end(), [](BlockCell a, BlockCell b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
            return cells;
        };
        std::set<std::vector<std::pair<int, int>>> images;
        auto key = [&](const std::vector<BlockCell>& cells) {
            std::vector<std::pair<int, int>> k;
            for (const auto& c : sorted(cells)) k.push_back({c.x, c.y});
            return k;
        };
        for (const auto& [name, cells] : goal) images.insert(key(cells));
        for (const auto& [name, cells] : goal) {
            std::vector<BlockCell> mapped;
            for (const auto& c : cells) mapped.push_back(mapBlockCell(kind, c, out_.width, out_.height));
            if (!images.count(key(mapped))) {
                error(s.range, what + " does not map the goal onto itself: piece '" + name + "' at " +
                                   cellText(sorted(cells)[0]) + " goes where no goal piece is");
                return false;
            }
        }
        return true;
    }

    void lowerPatterns() {
        for (const auto& pt : def_.patterns) {
            bool ok = declare(pt.name, "pattern");
            patternIndex_[pt.name.text] = (int)out_.patterns.size();
            if (!hasBoard()) {
                error(pt.range, "pattern '" + pt.name.text + "' names pieces of the board; this definition has none");
                brokenPatterns_.insert(pt.name.text);
                continue;
            }
            if (pt.pieces.empty()) {
                error(pt.range, "pattern '" + pt.name.text + "' names no pieces");
                ok = false;
            }
            BlockPattern pattern{pt.name.text, {}, pt.range};
            std::set<int> seen;
            for (const auto& n : pt.pieces) {
                int p = piece(n);
                if (p < 0) {
                    ok = false;
                } else if (!seen.insert(p).second) {
                    error(n.range, "piece '" + n.text + "' is named twice in pattern '" + pt.name.text + "'");
                    ok = false;
                }
                pattern.pieces.push_back(p);
            }
            std::sort(pattern.pieces.begin(), pattern.pieces.end());
            if (ok) out_.patterns.push_back(std::move(pattern));
            else brokenPatterns_.insert(pt.name.text);
        }
    }

    void lowerSolvers() {
        for (const auto& s : def_.solvers) {
            bool ok = declare(s.name, "solver");
            BlockSolver solver;
            solver.name = s.name.text;
            solver.where = s.range;
            solver.conflicts = s.conflicts;
            const std::string& h = s.heuristic.text;
            using H = BlockSolver::Heuristic;
            if (h == "bfs") solver.heuristic = H::Bfs;
            else if (h == "manhattan") solver.heuristic = H::Manhattan;
            else if (h == "additive") solver.heuristic = H::Additive;
            else {
                error(h.empty() ? s.range : s.heuristic.range,
                      h.empty() ? "solver '" + s.name.text + "' gives no heuristic; expected bfs, manhattan or additive"
                                : "unknown heuristic '" + h + "'; expected bfs, manhattan or additive");
                continue;
            }
            if (s.conflicts && solver.heuristic != H::Manhattan) {
                error(s.range, "'conflicts' belongs to 'manhattan' (solver '" + s.name.text + "')");
                ok = false;
            }
            if (!s.patterns.empty() && solver.heuristic != H::Additive) {
                error(s.patterns[0].range, "patterns belong to 'additive' (solver '" + s.name.text + "')");
                ok = false;
            }
            if (solver.heuristic == H::Additive) ok = additivePatterns(s, solver) && ok;
            if (s.reflect) ok = reflection(s, solver) && ok;
            if (ok) out_.solvers.push_back(std::move(solver));
        }
    }

    bool additivePatterns(const Def::Solver& s, BlockSolver& solver) {
        if (s.patterns.empty()) {
            error(s.heuristic.range, "'additive' needs patterns ('additive a, b;')");
            return false;
        }
        if (def_.start || (def_.goal && def_.goal->kind != Def::Goal::Kind::Board)) {
            error(s.heuristic.range, "'additive' tables the distance to the solved board; this puzzle's goal is not "
                                     "'board'");
            return false;
        }
        bool ok = true;
        std::map<int, std::string> owner;  // piece -> the pattern that holds it
        for (const auto& n : s.patterns) {
            auto it = patternIndex_.find(n.text);
            if (it == patternIndex_.end()) {
                error(n.range, "unknown pattern '" + n.text + "'");
                ok = false;
                continue;
            }
            if (brokenPatterns_.count(n.text)) {
                ok = false;
                continue;
            }
            const auto& pattern = out_.patterns[it->second];
            for (int p : pattern.pieces) {
                auto [o, fresh] = owner.emplace(p, n.text);
                if (!fresh) {
                    error(n.range, "patterns '" + o->second + "' and '" + n.text + "' of solver '" + s.name.text +
                                       "' share piece '" + out_.board->pieces[p].name +
                                       "'; additive patterns must be disjoint");
                    ok = false;
                    break;
                }
            }
            solver.patterns.push_back(it->second);
        }
        return ok;
    }

    bool reflection(const Def::Solver& s, BlockSolver& solver) {
        const auto& n = *s.reflect;
        if (solver.heuristic == BlockSolver::Heuristic::Bfs) {
            error(n.range, "'reflect' needs a heuristic to reflect; 'bfs' has none");
            return false;
        }
        auto it = symmetryIndex_.find(n.text);
        if (it == symmetryIndex_.end()) {
            error(n.range, "unknown symmetry '" + n.text + "'");
            return false;
        }
        if (brokenSymmetries_.count(n.text)) return false;
        solver.reflection = it->second;
        return true;
    }

    void lowerLevels() {
        std::string dir;
        if (auto slash = file_.find_last_of('/'); slash != std::string::npos) dir = file_.substr(0, slash + 1);
        for (const auto& level : def_.levels) {
            if (level.text.empty()) {
                error(level.range, "empty level path");
                continue;
            }
            if (std::any_of(level.text.begin(), level.text.end(),
                            [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; })) {
                error(level.range, "level path contains a control character");
                continue;
            }
            out_.levelPaths.push_back(level.text[0] == '/' ? level.text : dir + level.text);
        }
    }

    const ast::Puzzle& src_;
    const Def& def_;
    std::string file_;
    BlockRules& out_;
    DiagnosticEngine& diags_;
    int errorsBefore_ = diags_.errorCount();
    std::vector<std::vector<Token>> tokens_;
    std::map<std::string, int> pieceIndex_;
    std::vector<std::pair<BlockCell, std::vector<BlockCell>>> cells_;  // per board piece: anchor, shape
    std::map<int, BlockAxis> pieceAxis_;
    std::map<std::string, std::pair<std::string, SourceRange>> declared_;
    std::map<std::string, int> symmetryIndex_, patternIndex_;
    std::set<std::string> brokenSymmetries_, brokenPatterns_;
};

}  // namespace

bool lowerBlocks(const ast::Puzzle& src, BlockRules& out, DiagnosticEngine& diags) {
    return BlocksLowerer(src, out, diags).run();
}

}  // namespace pz::ir
