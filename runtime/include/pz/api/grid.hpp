// pz/api/grid.hpp — the library Solver (pz/api/solver.hpp) of grid-actor
// puzzles (Anima): the levels compiled into the generated code, each solved
// by A* (pz/grid_search.hpp). A position is a level, named as in its file,
// and the directions pressed since its start (Position::numbers, indices
// into PuzzleInfo::moves): apply() presses more, solve() searches from
// where they lead.
//
// Lib is the generated `Library` struct: kName, kDirectionNames and Levels
// (a pz::grid::LevelList of the levels' Spaces).
#pragma once

#include <algorithm>
#include <array>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "pz/api/solver.hpp"
#include "pz/grid_bits.hpp"
#include "pz/grid_search.hpp"

namespace pz::api {

using grid::LevelList;
using grid::SearchLimits;
using grid::SearchResult;

// A cell an actor stands on: its colour (the definition's colour index) and
// the cell, x from the left and y up from the bottom row as in level files.
struct ActorCell {
    int colour = 0, x = 0, y = 0;
};

// What a grid-actor position shows beyond the Solver interface (pictures:
// pz/web/wasm_api.hpp).
class GridPositions {
public:
    virtual ~GridPositions() = default;
    // The actors after the position's moves, by colour, then by cell (y * width + x).
    virtual Result<std::vector<ActorCell>> actors(const Position& p) const = 0;
};

template <class Lib>
class GridLevelsSolver : public Solver, public GridPositions {
public:
    explicit GridLevelsSolver(SolverOptions options = {}) : options_(std::move(options)) {
        info_.name = Lib::kName;
        info_.family = "grid-actor";
        for (const char* d : Lib::kDirectionNames) info_.moves.push_back(d);
        names(typename Lib::Levels{});
        info_.solver = {"", "levels"};
        info_.solvers = {info_.solver};
    }
    const PuzzleInfo& info() const override { return info_; }
    // Grid searches need no tables.
    Status prepare() override { return {}; }
    bool prepared() const override { return true; }

    Result<Position> parseScramble(std::string_view) const override { return noStates(); }
    Result<Position> parseState(std::string_view) const override { return noStates(); }
    Result<Position> parseLevel(std::string_view name) const override {
        for (const auto& l : info_.levels)
            if (l == name) return Position{info_.name, {}, l};
        std::string known;
        for (const auto& l : info_.levels) known += (known.empty() ? "" : ", ") + l;
        return makeError(ErrorCode::BadInput, "no level named '" + std::string(name) + "' (compiled in: " + known + ")");
    }
    Position solved() const override { return Position{info_.name, {}, {}}; }
    Result<bool> isSolved(const Position& p) const override {
        int found = -1;
        if (auto e = check(p)) return *e;
        visit(typename Lib::Levels{}, p.level, [&](const auto& space) { found = space.solved(replay(space, p.numbers)) ? 1 : 0; });
        return found == 1;
    }
    Result<Position> apply(const Position& p, std::string_view moves) const override {
        std::vector<int> pressed;
        std::string text(moves);
        for (size_t at = 0; (at = text.find_first_not_of(" \t\r\n", at)) != std::string::npos;) {
            const size_t end = std::min(text.find_first_of(" \t\r\n", at), text.size());
            const std::string word = text.substr(at, end - at);
            at = end;
            auto found = std::find(info_.moves.begin(), info_.moves.end(), word);
            if (found == info_.moves.end()) {
                std::string known;
                for (const auto& m : info_.moves) known += (known.empty() ? "" : ", ") + m;
                return makeError(ErrorCode::BadInput, "bad moves: unknown direction '" + word + "' (" + known + ")");
            }
            pressed.push_back(static_cast<int>(found - info_.moves.begin()));
        }
        return applyMoves(p, pressed);
    }
    Result<Position> applyMoves(const Position& p, const std::vector<int>& moves) const override {
        if (auto e = check(p)) return *e;
        Position out = p;
        for (int m : moves) {
            if (m < 0 || static_cast<size_t>(m) >= info_.moves.size())
                return makeError(ErrorCode::BadInput, "bad moves: no direction " + std::to_string(m));
            out.numbers.push_back(m);
        }
        return out;
    }
    Result<std::vector<ActorCell>> actors(const Position& p) const override {
        if (auto e = check(p)) return *e;
        std::vector<ActorCell> out;
        visit(typename Lib::Levels{}, p.level, [&](const auto& space) {
            using S = std::decay_t<decltype(space)>;
            const auto s = replay(space, p.numbers);
            for (int b = 0; b < S::kColours; ++b)
                for (int cell = 0; cell < S::kWidth * S::kHeight; ++cell)
                    if (s.colour[b].w[cell / 64] >> (cell % 64) & 1)
                        out.push_back({S::kColourOf[b], cell % S::kWidth, cell / S::kWidth});
        });
        std::stable_sort(out.begin(), out.end(), [](const ActorCell& a, const ActorCell& b) { return a.colour < b.colour; });
        return out;
    }
    Result<Position> randomState(uint64_t) const override { return noStates(); }
    Result<Position> inverse(const Position&) const override { return noStates(); }
    // The level's name, then the directions pressed ("3.10-box_step: up left").
    std::string format(const Position& p) const override {
        std::string out = p.level;
        for (size_t i = 0; i < p.numbers.size(); ++i)
            if (p.numbers[i] >= 0 && static_cast<size_t>(p.numbers[i]) < info_.moves.size())
                out += (i ? " " : ": ") + info_.moves[static_cast<size_t>(p.numbers[i])];
        return out;
    }

    // A* over the level (Limits::maxNodes bounds the states it stores; the
    // memory budget is SolverOptions::memoryBytes, note [grid memory budget]).
    Result<Solution> solve(const Position& p, const Limits& limits = {}) override {
        if (auto e = check(p)) return *e;
        if (limits.maxSeconds > 0)
            return makeError(ErrorCode::Unsupported, "grid-actor searches take no time limit (bound them with maxNodes)");
        SearchLimits l;
        if (limits.maxNodes) l.maxStates = limits.maxNodes;
        l.memoryBytes = options_.memoryBytes ? options_.memoryBytes : defaultMemoryBudget();
        std::optional<Result<Solution>> out;
        visit(typename Lib::Levels{}, p.level, [&](const auto& space) {
            StartedAt<std::decay_t<decltype(space)>> from;
            from.start = replay(space, p.numbers);
            out.emplace(solveLevel(from, l, limits));
        });
        return std::move(*out);
    }

    // The search's raw result for level `name` by A* (or breadth first) under
    // `l`, replayed as solve() does (false in `replayed` when a solution does
    // not reach solved); nullopt for an unknown level. The command line's
    // path (pz/grid_main.hpp), which prints every outcome as it is.
    std::optional<SearchResult> search(const std::string& name, const SearchLimits& l, bool breadthFirst,
                                       bool& replayed) const {
        std::optional<SearchResult> out;
        replayed = true;
        visit(typename Lib::Levels{}, name, [&](const auto& space) {
            out = breadthFirst ? grid::bfs(space, l) : grid::astar(space, l);
            if (out->outcome == SearchResult::Outcome::Solved) replayed = replays(space, out->moves);
        });
        return out;
    }

private:
    // The level's space searched from another state than its start.
    template <class Space>
    struct StartedAt : Space {
        typename Space::State start;
        typename Space::State initial() const { return start; }
    };
    template <class Space>
    static typename Space::State replay(const Space& space, const std::vector<int>& moves) {
        auto s = space.initial();
        for (int m : moves) s = space.move(s, m);
        return s;
    }
    template <class Space>
    static bool replays(const Space& space, const std::vector<int>& moves) {
        return space.solved(replay(space, moves));
    }
    template <class Space>
    Result<Solution> solveLevel(const Space& space, const SearchLimits& l, const Limits& limits) const {
        SearchResult r;
        try {
            r = grid::astar(space, l);
        } catch (const std::bad_alloc&) {
            return makeError(ErrorCode::OutOfMemory, "out of memory");
        }
        using O = SearchResult::Outcome;
        if (r.outcome == O::Unsolvable)
            return makeError(ErrorCode::NoSolution, "level " + std::string(Space::kName) + " is unsolvable (" +
                                                        std::to_string(r.stored) + " states searched)");
        if (r.outcome == O::MemoryLimit)
            return makeError(ErrorCode::OutOfMemory, "level " + std::string(Space::kName) + " needs about " +
                                                         formatBytes(r.neededBytes) + ", more than the memory budget");
        if (r.outcome == O::LimitReached)
            return makeError(ErrorCode::NoSolution, "level " + std::string(Space::kName) + ": stopped after " +
                                                        std::to_string(r.stored) + " states (the state limit)");
        if (limits.maxLength >= 0 && static_cast<int>(r.moves.size()) > limits.maxLength)
            return makeError(ErrorCode::NoSolution, "level " + std::string(Space::kName) + ": no solution of " +
                                                        std::to_string(limits.maxLength) + " moves or fewer");
        // Replayed through the generated kernels before it is returned.
        if (!replays(space, r.moves)) return makeError(ErrorCode::Internal, "internal error: the solution does not replay to solved");
        Solution out;
        for (int m : r.moves) out.names.push_back(info_.moves.at(static_cast<size_t>(m)));
        out.moves = r.moves;
        out.length = static_cast<int>(r.moves.size());
        out.optimal = true;  // A* with a consistent heuristic (note [grid heuristics])
        out.nodes = r.expanded;
        out.seconds = r.seconds;
        return out;
    }
    std::optional<Error> check(const Position& p) const {
        if (!p.puzzle.empty() && p.puzzle != info_.name)
            return makeError(ErrorCode::WrongPuzzle, "the position is of puzzle '" + p.puzzle + "', not " + info_.name);
        if (auto found = parseLevel(p.level); !found) return found.error();
        return std::nullopt;
    }
    Error noStates() const {
        return makeError(ErrorCode::Unsupported,
                         info_.name + " is a grid-actor puzzle: its positions are its levels (parseLevel)");
    }
    template <class... Spaces>
    void names(LevelList<Spaces...>) {
        (info_.levels.push_back(Spaces::kName), ...);
    }
    template <class... Spaces, class F>
    static void visit(LevelList<Spaces...>, const std::string& name, F&& f) {
        bool done = false;  // the first level of that name (pzc keeps the first of duplicates)
        ((!done && name == Spaces::kName ? (f(Spaces{}), done = true) : false), ...);
    }

    SolverOptions options_;
    PuzzleInfo info_;
};

}  // namespace pz::api
