// pz/api/grid.hpp — the library Solver (pz/api/solver.hpp) of grid-actor
// puzzles (Anima): the levels compiled into the generated code, each solved
// by A* (pz/grid_search.hpp). A position is a level, named as in its file.
//
// Lib is the generated `Library` struct: kName, kDirectionNames and Levels
// (a pz::grid::LevelList of the levels' Spaces).
#pragma once

#include <array>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "pz/api/solver.hpp"
#include "pz/grid_bits.hpp"
#include "pz/grid_search.hpp"

namespace pz::api {

using grid::LevelList;
using grid::SearchLimits;
using grid::SearchResult;

template <class Lib>
class GridLevelsSolver : public Solver {
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
        visit(typename Lib::Levels{}, p.level, [&](const auto& space) { found = space.solved(space.initial()) ? 1 : 0; });
        return found == 1;
    }
    Result<Position> apply(const Position&, std::string_view) const override { return noStates(); }
    Result<Position> applyMoves(const Position&, const std::vector<int>&) const override { return noStates(); }
    Result<Position> randomState(uint64_t) const override { return noStates(); }
    Result<Position> inverse(const Position&) const override { return noStates(); }
    std::string format(const Position& p) const override { return p.level; }

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
        visit(typename Lib::Levels{}, p.level, [&](const auto& space) { out.emplace(solveLevel(space, l, limits)); });
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
    template <class Space>
    static bool replays(const Space& space, const std::vector<int>& moves) {
        auto s = space.initial();
        for (int m : moves) s = space.move(s, m);
        return space.solved(s);
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
