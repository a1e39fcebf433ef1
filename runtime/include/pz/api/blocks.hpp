// pz/api/blocks.hpp — the library Solvers (pz/api/solver.hpp) of
// sliding-block puzzles (docs/library.md, "Sliding-block puzzles"):
//
//   TilePuzzleSolver<T>   n-puzzles (eight, fifteen, twentyfour): IDA* on
//                         Manhattan distance or additive pattern databases
//                         (pz/blocks/tiles.hpp). A position is the cells row
//                         by row, 0 the blank (Position::numbers, as
//                         `--state` takes them); moves U D L R name where
//                         the blank goes.
//   BoardLevelsSolver<T>  any other board (Rush Hour, Klotski): breadth-first
//                         search over the level's cluster (pz/blocks/
//                         small_space.hpp), the levels compiled in. A position
//                         is a level's name and the anchors of its pieces
//                         (Position::numbers, in the level's order: cell
//                         y * width + x of each piece's top-left cell); moves
//                         are named as the command line writes them
//                         (note [blocks move names]: `A+2`, `7D1`, `K@1,3`)
//                         and numbered piece * 64 + destination anchor.
//
// T is the generated traits struct (compiler/codegen/blocks/); a board
// solver's Lib adds kLevelText (note [blocks level text]).
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pz/api/prepare.hpp"
#include "pz/api/solver.hpp"
#include "pz/blocks/board.hpp"
#include "pz/blocks/small_space.hpp"
#include "pz/blocks/tiles.hpp"

namespace pz::api {

namespace blocks_detail {
inline std::optional<Error> wrongPuzzle(const Position& p, const std::string& name) {
    if (!p.puzzle.empty() && p.puzzle != name)
        return makeError(ErrorCode::WrongPuzzle, "the position is of puzzle '" + p.puzzle + "', not " + name);
    return std::nullopt;
}
inline std::string numbersText(const std::vector<int>& numbers) {
    std::string out;
    for (size_t i = 0; i < numbers.size(); ++i) out += (i ? " " : "") + std::to_string(numbers[i]);
    return out;
}
}  // namespace blocks_detail

// ------------------------------------------------------------- n-puzzles ---

template <class T>
class TilePuzzleSolver : public Solver {
public:
    using Cells = blocks::Cells<T>;
    static constexpr int kCells = T::kWidth * T::kHeight;
    // IDA*'s default depth limit: above every n-puzzle's diameter pzc ships
    // (the 24-puzzle's is at most 208).
    static constexpr int kDepthLimit = 1000;

    explicit TilePuzzleSolver(SolverOptions options = {}, SolverInfo solver = {"", "optimal"}, std::vector<SolverInfo> all = {})
        : options_(std::move(options)) {
        info_.name = T::kName;
        info_.family = "sliding-block";
        info_.orbits.push_back({"tiles", kCells, 1});
        for (const char* d : blocks::kDirNames) info_.moves.push_back(d);
        info_.solver = std::move(solver);
        info_.solvers = std::move(all);
        if (info_.solvers.empty()) info_.solvers.push_back(info_.solver);
    }
    const PuzzleInfo& info() const override { return info_; }

    // Loads or builds the pattern databases (none for Manhattan distance).
    Status prepare() override {
        if (ready_) return {};
        if constexpr (T::kPatterns > 0) {
            if (Status dir = checkTablesDirectory(options_); !dir) return dir;
            PrepareScope scope(options_);
            Status st = preparing("pattern databases", [&] { tables_.loadOrBuild(tablesDirectory(options_), options_.threads); });
            if (!st) return st;
        }
        ready_ = true;
        return {};
    }
    bool prepared() const override { return ready_; }

    Result<Position> parseScramble(std::string_view moves) const override {
        Cells c;
        std::string why;
        if (!blocks::scrambleCells<T>(std::string(moves), c, why)) return makeError(ErrorCode::BadInput, "bad scramble: " + why);
        return toPosition(c);
    }
    Result<Position> parseState(std::string_view text) const override {
        Cells c;
        std::string why;
        if (!blocks::parseCells<T>(std::string(text), c, why)) return makeError(ErrorCode::BadInput, "bad state: " + why);
        return toPosition(c);
    }
    Result<Position> parseLevel(std::string_view) const override {
        return makeError(ErrorCode::Unsupported, info_.name + " is an n-puzzle: it has no levels (give a scramble or a state)");
    }
    Position solved() const override { return toPosition(blocks::goalCells<T>()); }
    Result<bool> isSolved(const Position& p) const override {
        auto c = toCells(p);
        if (!c) return c.error();
        return *c == blocks::goalCells<T>();
    }
    Result<Position> apply(const Position& p, std::string_view moves) const override {
        std::vector<int> dirs;
        std::string why;
        if (!blocks::parseDirections(std::string(moves), dirs, why)) return makeError(ErrorCode::BadInput, "bad moves: " + why);
        return applyMoves(p, dirs);
    }
    Result<Position> applyMoves(const Position& p, const std::vector<int>& moves) const override {
        auto c = toCells(p);
        if (!c) return c.error();
        for (size_t i = 0; i < moves.size(); ++i) {
            const int d = moves[i];
            if (d < 0 || d > 3) return makeError(ErrorCode::BadInput, "move index " + std::to_string(d) + " out of range (0..3 = U D L R)");
            if (!blocks::moveBlank<T>(*c, d))
                return makeError(ErrorCode::BadInput, "bad moves: move " + std::to_string(i + 1) + " (" + blocks::kDirNames[d] +
                                                          ") takes the blank off the board");
        }
        return toPosition(*c);
    }
    // A uniformly random solvable position: `--random 1 --seed SEED`'s.
    Result<Position> randomState(uint64_t seed) const override {
        std::mt19937_64 rng(seed);
        return toPosition(blocks::randomCells<T>(rng));
    }
    Result<Position> inverse(const Position&) const override {
        return makeError(ErrorCode::Unsupported,
                         info_.name + " is an n-puzzle: its positions have no inverse (a scramble is a solution read backwards)");
    }
    std::string format(const Position& p) const override { return blocks_detail::numbersText(p.numbers); }

    // Optimal (IDA* with an admissible heuristic) whatever the goal asks.
    Result<Solution> solve(const Position& p, const Limits& limits = {}) override {
        if (!ready_) return makeError(ErrorCode::NotPrepared, "solve() before a successful prepare()");
        if (options_.cancel && options_.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "cancelled");
        auto c = toCells(p);
        if (!c) return c.error();
        typename blocks::TileSolver<T>::Stop stop;
        if (options_.cancel) stop.cancel = options_.cancel->flag();
        if (limits.maxSeconds > 0)
            stop.deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                                     std::chrono::duration<double>(limits.maxSeconds));
        const int depth = limits.maxLength >= 0 ? limits.maxLength : kDepthLimit;
        stop.maxLength = depth;
        blocks::TileSolver<T> search(T::kPatterns > 0 ? &tables_ : nullptr);
        const auto r = search.solve(*c, limits.maxNodes ? limits.maxNodes : UINT64_MAX, stop);
        if (!r.solved) {
            if (options_.cancel && options_.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "cancelled");
            if (r.bound > depth)
                return makeError(ErrorCode::NoSolution, "no solution of " + std::to_string(depth) + " moves or fewer" +
                                                            (depth == kDepthLimit ? " (the search's depth limit)" : ""));
            return makeError(ErrorCode::NoSolution, "stopped by the node or time limit after " + std::to_string(r.nodes) +
                                                        " nodes (" + std::to_string(r.seconds) + " s; searched below " +
                                                        std::to_string(r.bound) + " moves)");
        }
        // Replayed before it is returned: never a wrong answer.
        if (!blocks::replaySolves<T>(*c, r.moves))
            return makeError(ErrorCode::Internal, "internal error: the solution does not replay to solved");
        Solution s;
        for (int m : r.moves) s.names.push_back(blocks::kDirNames[m]);
        s.moves = r.moves;
        s.length = static_cast<int>(r.moves.size());
        s.optimal = true;
        s.nodes = r.nodes;
        s.seconds = r.seconds;
        return s;
    }

    // The pattern databases (after prepare(); the command line's figures).
    const blocks::TileTables<T>& tables() const { return tables_; }

private:
    Result<Cells> toCells(const Position& p) const {
        if (auto e = blocks_detail::wrongPuzzle(p, info_.name)) return *e;
        if (!p.level.empty()) return makeError(ErrorCode::BadInput, "an n-puzzle's position has no level");
        Cells c;
        std::string why;
        if (!blocks::parseCells<T>(blocks_detail::numbersText(p.numbers), c, why)) return makeError(ErrorCode::BadInput, "bad state: " + why);
        return c;
    }
    Position toPosition(const Cells& c) const {
        Position p;
        p.puzzle = info_.name;
        for (uint8_t v : c) p.numbers.push_back(v);
        return p;
    }

    PuzzleInfo info_;
    SolverOptions options_;
    blocks::TileTables<T> tables_;
    bool ready_ = false;
};

// ---------------------------------------------------------- other boards ---

// Lib: the generated struct holding `using Traits` (note [blocks traits])
// and kLevelText, the compiled-in levels (note [blocks level text]).
template <class Lib>
class BoardLevelsSolver : public Solver {
public:
    using T = typename Lib::Traits;
    static constexpr int kCells = T::kWidth * T::kHeight;

    explicit BoardLevelsSolver(SolverOptions options = {}, SolverInfo solver = {"", "levels"}, std::vector<SolverInfo> all = {})
        : options_(std::move(options)) {
        std::istringstream in{std::string(Lib::kLevelText)};
        levels_ = blocks::parseLevels<T>(in);  // pzc wrote and checked them: cannot fail
        info_.name = T::kName;
        info_.family = "sliding-block";
        for (const auto& l : levels_) info_.levels.push_back(l.name);
        info_.solver = std::move(solver);
        info_.solvers = std::move(all);
        if (info_.solvers.empty()) info_.solvers.push_back(info_.solver);
    }
    const PuzzleInfo& info() const override { return info_; }
    // Breadth-first searches need no tables.
    Status prepare() override { return {}; }
    bool prepared() const override { return true; }

    Result<Position> parseScramble(std::string_view) const override { return noStates(); }
    Result<Position> parseState(std::string_view) const override { return noStates(); }
    Result<Position> parseLevel(std::string_view name) const override {
        for (size_t i = 0; i < levels_.size(); ++i)
            if (levels_[i].name == name) return toPosition(i, levels_[i].pieces);
        std::string known;
        for (const auto& l : levels_) known += (known.empty() ? "" : ", ") + l.name;
        return makeError(ErrorCode::BadInput, "no level named '" + std::string(name) + "' (compiled in: " + known + ")");
    }
    // The first level's start (a board puzzle's solved state is a goal, not a position).
    Position solved() const override { return levels_.empty() ? Position{info_.name, {}, {}} : toPosition(0, levels_[0].pieces); }
    Result<bool> isSolved(const Position& p) const override {
        auto at = toPieces(p);
        if (!at) return at.error();
        return blocks::isGoal<T>(at->second);
    }
    // Moves by name, as solutions print them ("A+2 K-1", "7D1", "K@1,3").
    Result<Position> apply(const Position& p, std::string_view moves) const override {
        auto at = toPieces(p);
        if (!at) return at.error();
        Level board{"", at->second};
        std::istringstream in{std::string(moves)};
        int index = 0;
        for (std::string word; in >> word;) {
            ++index;
            std::optional<blocks::Move> found;
            forEachMove(board.pieces, [&](const blocks::Move& m) {
                if (!found && blocks::moveName<T>(board, m) == word) found = m;
            });
            if (!found)
                return makeError(ErrorCode::BadInput, "bad moves: '" + word + "' is not a legal move here (move " +
                                                          std::to_string(index) + ")");
            board.pieces[found->piece].anchor = found->to;
        }
        return toPosition(at->first, board.pieces);
    }
    // Move codes: piece * 64 + destination anchor; each checked legal.
    Result<Position> applyMoves(const Position& p, const std::vector<int>& moves) const override {
        auto at = toPieces(p);
        if (!at) return at.error();
        auto pieces = at->second;
        for (size_t i = 0; i < moves.size(); ++i) {
            const int code = moves[i];
            bool legal = false;
            forEachMove(pieces, [&](const blocks::Move& m) { legal |= moveCode(m) == code; });
            if (!legal)
                return makeError(ErrorCode::BadInput, "bad moves: move " + std::to_string(i + 1) + " (code " + std::to_string(code) +
                                                          ") is not a legal move there");
            pieces[code / 64].anchor = code % 64;
        }
        return toPosition(at->first, pieces);
    }
    Result<Position> randomState(uint64_t) const override { return noStates(); }
    Result<Position> inverse(const Position&) const override { return noStates(); }
    // The level's name, then its pieces' anchors as x,y ("hardest: A 1,2 B 3,0 ...").
    std::string format(const Position& p) const override {
        auto at = toPieces(p);
        if (!at) return p.level;
        std::string out = p.level + ":";
        for (const auto& piece : at->second)
            out += " " + piece.name + " " + std::to_string(piece.anchor % T::kWidth) + "," + std::to_string(piece.anchor / T::kWidth);
        return out;
    }

    // Breadth first from the position: optimal in the puzzle's metric.
    Result<Solution> solve(const Position& p, const Limits& limits = {}) override {
        if (options_.cancel && options_.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "cancelled");
        auto at = toPieces(p);
        if (!at) return at.error();
        const blocks::Level start{levels_[at->first].name, at->second};
        blocks::SearchOptions search;
        search.maxStates = limits.maxNodes;
        const blocks::SearchResult r = blocks::search<T>(start, search);
        if (r.outcome == blocks::SearchResult::Outcome::Unsolvable)
            return makeError(ErrorCode::NoSolution, "unsolvable: no sequence of moves reaches the goal (" + std::to_string(r.states) +
                                                        " states searched, the whole cluster)");
        if (r.outcome == blocks::SearchResult::Outcome::Limit)
            return makeError(ErrorCode::NoSolution, "stopped by the node limit after " + std::to_string(r.states) + " states");
        std::string why;
        if (!blocks::replay<T>(start, r.moves, &why))
            return makeError(ErrorCode::Internal, "internal error: the solution does not replay: " + why);
        if (limits.maxLength >= 0 && static_cast<int>(r.moves.size()) > limits.maxLength)
            return makeError(ErrorCode::NoSolution, "no solution of " + std::to_string(limits.maxLength) + " moves or fewer (the shortest has " +
                                                        std::to_string(r.moves.size()) + ")");
        Solution s;
        for (const auto& m : r.moves) {
            s.moves.push_back(moveCode(m));
            s.names.push_back(blocks::moveName<T>(start, m));
        }
        s.length = static_cast<int>(r.moves.size());
        s.optimal = true;
        s.nodes = r.states;
        s.seconds = r.seconds;
        return s;
    }

private:
    using Level = blocks::Level;
    static int moveCode(const blocks::Move& m) { return m.piece * 64 + m.to; }
    Error noStates() const {
        return makeError(ErrorCode::Unsupported, info_.name + " is solved from its levels: give a level's name (compiled in: " +
                                                     std::to_string(levels_.size()) + ")");
    }
    Position toPosition(size_t level, const std::vector<blocks::Piece>& pieces) const {
        Position p{info_.name, {}, levels_[level].name};
        for (const auto& piece : pieces) p.numbers.push_back(piece.anchor);
        return p;
    }
    // The level and its pieces at the position's anchors, checked (fit, no overlap).
    Result<std::pair<size_t, std::vector<blocks::Piece>>> toPieces(const Position& p) const {
        if (auto e = blocks_detail::wrongPuzzle(p, info_.name)) return *e;
        size_t level = levels_.size();
        for (size_t i = 0; i < levels_.size(); ++i)
            if (levels_[i].name == p.level) level = i;
        if (level == levels_.size()) return makeError(ErrorCode::BadInput, "no level named '" + p.level + "'");
        auto pieces = levels_[level].pieces;
        if (p.numbers.size() != pieces.size())
            return makeError(ErrorCode::BadInput, "bad position: " + std::to_string(p.numbers.size()) + " anchors for level " +
                                                      p.level + "'s " + std::to_string(pieces.size()) + " pieces");
        for (size_t j = 0; j < pieces.size(); ++j) {
            const int a = p.numbers[j];
            if (a < 0 || a >= kCells || T::kPlacement[pieces[j].type][a] == 0)
                return makeError(ErrorCode::BadInput, "bad position: piece " + pieces[j].name + " does not fit at anchor " + std::to_string(a));
            pieces[j].anchor = a;
        }
        try {
            blocks::occupiedOf<T>(pieces);
        } catch (const std::exception& e) {
            return makeError(ErrorCode::BadInput, std::string("bad position: ") + e.what());
        }
        return std::make_pair(level, std::move(pieces));
    }
    // Every legal move of the pieces (each destination one move, as the metric counts).
    template <class F>
    void forEachMove(const std::vector<blocks::Piece>& pieces, F&& f) const {
        const uint64_t occ = blocks::occupiedOf<T>(pieces);
        const auto& g = blocks::kGeometry<T>;
        for (size_t j = 0; j < pieces.size(); ++j) {
            const auto& piece = pieces[j];
            if (T::kAxis[piece.type] == blocks::Axis::Fixed) continue;
            const uint64_t rest = occ & ~T::kPlacement[piece.type][piece.anchor];
            if constexpr (T::kMetric == blocks::Metric::Path) {
                uint64_t reach = blocks::reachableAnchors<T>(piece.type, piece.anchor, rest) & ~(uint64_t(1) << piece.anchor);
                for (; reach; reach &= reach - 1) f(blocks::Move{static_cast<int>(j), 0, 0, __builtin_ctzll(reach)});
            } else {
                for (int d = 0; d < 4; ++d) {
                    if (!blocks::axisAllows(T::kAxis[piece.type], d)) continue;
                    int a = piece.anchor;
                    for (int dist = 1;; ++dist) {
                        a = g.step[d][a];
                        if (a < 0 || T::kPlacement[piece.type][a] == 0 || (T::kPlacement[piece.type][a] & rest)) break;
                        f(blocks::Move{static_cast<int>(j), d, dist, a});
                        if (T::kMetric == blocks::Metric::Step) break;
                    }
                }
            }
        }
    }

    PuzzleInfo info_;
    SolverOptions options_;
    std::vector<Level> levels_;
};

}  // namespace pz::api
