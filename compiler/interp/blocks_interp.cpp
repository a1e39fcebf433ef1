#include "compiler/interp/blocks_interp.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <unordered_map>

namespace pz::interp {

namespace {

constexpr int kDx[4] = {0, 0, -1, 1};  // U D L R, y down
constexpr int kDy[4] = {-1, 1, 0, 0};
constexpr char kDirLetter[4] = {'U', 'D', 'L', 'R'};

int directionOf(int dx, int dy) {
    for (int d = 0; d < 4; ++d)
        if (kDx[d] == dx && kDy[d] == dy) return d;
    return -1;
}

int pieceIndex(const ir::BlockLayout& layout, const std::string& name) {
    for (size_t i = 0; i < layout.pieces.size(); ++i)
        if (layout.pieces[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace

BlockBoard::BlockBoard(const ir::BlockRules& rules, const ir::BlockLayout& layout)
    : rules_(&rules), layout_(&layout), owner_(rules.width * rules.height, -1) {
    for (size_t p = 0; p < layout.pieces.size(); ++p) {
        anchors_.push_back(layout.pieces[p].anchor);
        for (const auto& c : layout.types[layout.pieces[p].type].shape) {
            const int x = layout.pieces[p].anchor.x + c.x, y = layout.pieces[p].anchor.y + c.y;
            if (x >= 0 && y >= 0 && x < rules.width && y < rules.height) owner_[y * rules.width + x] = static_cast<int>(p);
        }
    }
}

int BlockBoard::pieceAt(int x, int y) const {
    if (x < 0 || y < 0 || x >= rules_->width || y >= rules_->height) return -1;
    return owner_[y * rules_->width + x];
}

bool BlockBoard::fits(int piece, ir::BlockCell anchor) const {
    for (const auto& c : layout_->types[layout_->pieces[piece].type].shape) {
        const int x = anchor.x + c.x, y = anchor.y + c.y;
        if (x < 0 || y < 0 || x >= rules_->width || y >= rules_->height) return false;
        if (isWall(x, y)) return false;
        const int o = owner_[y * rules_->width + x];
        if (o != -1 && o != piece) return false;
    }
    return true;
}

bool BlockBoard::movable(int piece, int dx, int dy) const {
    switch (layout_->types[layout_->pieces[piece].type].axis) {
        case ir::BlockAxis::Horizontal: return dy == 0;
        case ir::BlockAxis::Vertical: return dx == 0;
        case ir::BlockAxis::Any: return true;
    }
    return true;
}

// The anchors a piece reaches by one-cell steps through empty cells, in
// breadth-first order, its own anchor excluded.
std::vector<ir::BlockCell> BlockBoard::pathTargets(int piece) const {
    const int w = rules_->width;
    std::vector<char> seen(w * rules_->height, 0);
    std::deque<ir::BlockCell> queue{anchors_[piece]};
    // Anchors may lie outside the board (an L's bounding box): offset by one board.
    auto index = [&](ir::BlockCell a) { return a.y * w + a.x; };
    seen[index(anchors_[piece])] = 1;
    std::vector<ir::BlockCell> out;
    while (!queue.empty()) {
        const ir::BlockCell a = queue.front();
        queue.pop_front();
        for (int d = 0; d < 4; ++d) {
            if (!movable(piece, kDx[d], kDy[d])) continue;
            const ir::BlockCell b{a.x + kDx[d], a.y + kDy[d]};
            if (b.x < 0 || b.y < 0 || b.x >= w || b.y >= rules_->height || seen[index(b)]) continue;
            if (!fits(piece, b)) continue;
            seen[index(b)] = 1;
            out.push_back(b);
            queue.push_back(b);
        }
    }
    return out;
}

std::vector<BlockMove> BlockBoard::legalMoves() const {
    std::vector<BlockMove> moves;
    for (int p = 0; p < static_cast<int>(anchors_.size()); ++p) {
        if (rules_->metric == ir::BlockMetric::Path) {
            for (const auto& to : pathTargets(p)) moves.push_back({p, 0, 0, 1, to});
            continue;
        }
        for (int d = 0; d < 4; ++d) {
            if (!movable(p, kDx[d], kDy[d])) continue;
            for (int n = 1;; ++n) {
                if (!fits(p, {anchors_[p].x + n * kDx[d], anchors_[p].y + n * kDy[d]})) break;
                moves.push_back({p, kDx[d], kDy[d], n, std::nullopt});
                if (rules_->metric == ir::BlockMetric::Step) break;
            }
        }
    }
    return moves;
}

bool BlockBoard::apply(const BlockMove& move) {
    if (move.piece < 0 || move.piece >= static_cast<int>(anchors_.size())) return false;
    const ir::BlockCell from = anchors_[move.piece];
    ir::BlockCell to;
    if (move.to) {
        if (rules_->metric != ir::BlockMetric::Path) return false;
        const auto targets = pathTargets(move.piece);
        if (std::find(targets.begin(), targets.end(), *move.to) == targets.end()) return false;
        to = *move.to;
    } else {
        if (rules_->metric == ir::BlockMetric::Path || directionOf(move.dx, move.dy) < 0 || move.cells < 1) return false;
        if (rules_->metric == ir::BlockMetric::Step && move.cells != 1) return false;
        if (!movable(move.piece, move.dx, move.dy)) return false;
        for (int n = 1; n <= move.cells; ++n)
            if (!fits(move.piece, {from.x + n * move.dx, from.y + n * move.dy})) return false;
        to = {from.x + move.cells * move.dx, from.y + move.cells * move.dy};
    }
    const auto& shape = layout_->types[layout_->pieces[move.piece].type].shape;
    for (const auto& c : shape) owner_[(from.y + c.y) * rules_->width + from.x + c.x] = -1;
    for (const auto& c : shape) owner_[(to.y + c.y) * rules_->width + to.x + c.x] = move.piece;
    anchors_[move.piece] = to;
    return true;
}

bool BlockBoard::isGoal() const {
    const auto& goal = rules_->goal;
    switch (goal.kind) {
        case ir::BlockGoal::Kind::Full: {
            if (!rules_->board || !rules_->boardIsSolved) return false;
            // Every type's anchors as a multiset equal the solved board's.
            return key() == BlockBoard(*rules_, *rules_->board).key();
        }
        case ir::BlockGoal::Kind::Place:
            for (const auto& place : goal.placements) {
                const int named = pieceIndex(*layout_, place.piece);
                bool met = false;
                for (size_t p = 0; p < anchors_.size() && !met; ++p) {
                    const bool candidate = named >= 0 ? (static_cast<int>(p) == named ||
                                                         layout_->pieces[p].type == layout_->pieces[named].type)
                                                      : false;
                    met = candidate && anchors_[p] == place.anchor;
                }
                if (!met) return false;
            }
            return true;
        case ir::BlockGoal::Kind::Exit: {
            const int p = pieceIndex(*layout_, goal.exitPiece);
            if (p < 0 || !rules_->exit) return false;
            const auto& e = *rules_->exit;
            int x = 0, y = 0;
            switch (e.side) {
                case ir::BlockRules::Exit::Side::Left: x = 0, y = e.offset; break;
                case ir::BlockRules::Exit::Side::Right: x = rules_->width - 1, y = e.offset; break;
                case ir::BlockRules::Exit::Side::Top: x = e.offset, y = 0; break;
                case ir::BlockRules::Exit::Side::Bottom: x = e.offset, y = rules_->height - 1; break;
            }
            return pieceAt(x, y) == p;
        }
    }
    return false;
}

std::string BlockBoard::key() const {
    // Per type, the sorted anchors of its pieces: identical pieces swap freely.
    std::vector<std::vector<int>> byType(layout_->types.size());
    for (size_t p = 0; p < anchors_.size(); ++p)
        byType[layout_->pieces[p].type].push_back((anchors_[p].y + 1) * 256 + anchors_[p].x + 1);
    std::string k;
    for (auto& cells : byType) {
        std::sort(cells.begin(), cells.end());
        for (int c : cells) k += std::to_string(c) + ',';
        k += ';';
    }
    return k;
}

int BlockBoard::blankCell() const {
    for (int c = 0; c < rules_->width * rules_->height; ++c)
        if (owner_[c] == -1 && !layout_->wall[c]) return c;
    return -1;
}

std::string BlockBoard::moveName(const BlockMove& move) const {
    const std::string& piece = layout_->pieces[move.piece].name;
    if (move.to) return piece + "@" + std::to_string(move.to->x) + "," + std::to_string(move.to->y);
    if (rules_->moveNames == ir::BlockRules::MoveNames::Blank)
        return std::string(1, kDirLetter[directionOf(-move.dx, -move.dy)]);
    if (layout_->types[layout_->pieces[move.piece].type].axis != ir::BlockAxis::Any)
        return piece + (move.dx + move.dy > 0 ? "+" : "-") + std::to_string(move.cells);
    return piece + kDirLetter[directionOf(move.dx, move.dy)] + std::to_string(move.cells);
}

std::optional<BlockMove> BlockBoard::parseMove(const std::string& name, std::string& why) const {
    if (rules_->moveNames == ir::BlockRules::MoveNames::Blank) {
        for (int d = 0; d < 4; ++d)
            if (name == std::string(1, kDirLetter[d])) {
                // The tile on the blank's side d moves the other way.
                const int blank = blankCell();
                const int tile = blank < 0 ? -1 : pieceAt(blank % rules_->width + kDx[d], blank / rules_->width + kDy[d]);
                if (tile < 0) {
                    why = "move " + name + " takes the blank off the board";
                    return std::nullopt;
                }
                return BlockMove{tile, -kDx[d], -kDy[d], 1, std::nullopt};
            }
        why = "'" + name + "' is not a move (U, D, L or R: where the blank goes)";
        return std::nullopt;
    }
    if (auto at = name.rfind('@'); at != std::string::npos && at > 0) {
        const int p = pieceIndex(*layout_, name.substr(0, at));
        const std::string rest = name.substr(at + 1);
        const auto comma = rest.find(',');
        auto number = [](const std::string& s) {
            return !s.empty() && s.size() < 4 && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit((unsigned char)c); })
                       ? std::stoi(s)
                       : -1;
        };
        const int x = comma == std::string::npos ? -1 : number(rest.substr(0, comma));
        const int y = comma == std::string::npos ? -1 : number(rest.substr(comma + 1));
        if (p < 0 || x < 0 || y < 0) {
            why = "'" + name + "' is not a move (PIECE@X,Y)";
            return std::nullopt;
        }
        return BlockMove{p, 0, 0, 1, ir::BlockCell{x, y}};
    }
    // Trailing digits: the distance; before them a sign or a direction letter.
    size_t digits = name.size();
    while (digits > 0 && std::isdigit((unsigned char)name[digits - 1])) --digits;
    if (digits == name.size() || digits < 2 || name.size() - digits > 3) {
        why = "'" + name + "' is not a move (PIECE+N, PIECE-N or PIECE then U, D, L or R and N)";
        return std::nullopt;
    }
    const int cells = std::stoi(name.substr(digits));
    const char c = name[digits - 1];
    const int p = pieceIndex(*layout_, name.substr(0, digits - 1));
    if (p < 0) {
        why = "'" + name + "' names no piece '" + name.substr(0, digits - 1) + "'";
        return std::nullopt;
    }
    const ir::BlockAxis axis = layout_->types[layout_->pieces[p].type].axis;
    if (c == '+' || c == '-') {
        if (axis == ir::BlockAxis::Any) {
            why = "'" + name + "': piece " + layout_->pieces[p].name + " moves on both axes: write U, D, L or R";
            return std::nullopt;
        }
        const int s = c == '+' ? 1 : -1;
        return BlockMove{p, axis == ir::BlockAxis::Horizontal ? s : 0, axis == ir::BlockAxis::Vertical ? s : 0, cells,
                         std::nullopt};
    }
    for (int d = 0; d < 4; ++d)
        if (c == kDirLetter[d]) return BlockMove{p, kDx[d], kDy[d], cells, std::nullopt};
    why = "'" + name + "' is not a move (PIECE+N, PIECE-N or PIECE then U, D, L or R and N)";
    return std::nullopt;
}

std::string BlockBoard::picture() const {
    std::string out;
    for (int y = 0; y < rules_->height; ++y) {
        for (int x = 0; x < rules_->width; ++x) {
            const int p = pieceAt(x, y);
            out += x ? " " : "";
            out += isWall(x, y) ? "#" : p < 0 ? "." : layout_->pieces[p].name;
        }
        out += '\n';
    }
    return out;
}

bool replayBlocks(const ir::BlockRules& rules, const ir::BlockLayout& layout, const std::vector<std::string>& moves,
                  std::string& why) {
    BlockBoard board(rules, layout);
    for (size_t i = 0; i < moves.size(); ++i) {
        auto move = board.parseMove(moves[i], why);
        if (!move) return false;
        if (!board.apply(*move)) {
            why = "move " + std::to_string(i + 1) + " (" + moves[i] + ") is not legal there";
            return false;
        }
    }
    if (!board.isGoal()) {
        why = "the moves do not reach the goal";
        return false;
    }
    return true;
}

BlockBfs blockBfs(const ir::BlockRules& rules, const ir::BlockLayout& layout, uint64_t maxStates, bool stopAtGoal) {
    BlockBfs out;
    struct Node {
        BlockBoard board;
        int parent;
        BlockMove move;
    };
    std::vector<Node> nodes{{BlockBoard(rules, layout), -1, {}}};
    std::unordered_map<std::string, int> seen{{nodes[0].board.key(), 0}};
    size_t levelStart = 0;
    int goalNode = nodes[0].board.isGoal() ? 0 : -1;
    for (int depth = 0; levelStart < nodes.size(); ++depth) {
        const size_t levelEnd = nodes.size();
        out.perDepth.push_back(levelEnd - levelStart);
        if (goalNode >= 0 && stopAtGoal) break;
        for (size_t i = levelStart; i < levelEnd; ++i) {
            for (const auto& move : nodes[i].board.legalMoves()) {
                BlockBoard next = nodes[i].board;
                next.apply(move);
                auto [it, fresh] = seen.emplace(next.key(), static_cast<int>(nodes.size()));
                if (!fresh) continue;
                if (goalNode < 0 && next.isGoal()) goalNode = static_cast<int>(nodes.size());
                nodes.push_back({std::move(next), static_cast<int>(i), move});
                if (nodes.size() >= maxStates) {
                    out.limited = true;
                    break;
                }
            }
            if (out.limited) break;
        }
        if (out.limited) break;
        levelStart = levelEnd;
    }
    out.states = nodes.size();
    if (goalNode >= 0) {
        std::vector<std::string> names;
        for (int n = goalNode; nodes[n].parent >= 0; n = nodes[n].parent)
            names.push_back(nodes[nodes[n].parent].board.moveName(nodes[n].move));
        out.solution.assign(names.rbegin(), names.rend());
        out.goalDepth = static_cast<int>(out.solution.size());
    }
    return out;
}

}  // namespace pz::interp
