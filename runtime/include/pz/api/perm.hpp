// pz/api/perm.hpp — the library Solver (pz/api/solver.hpp) of permutation
// puzzles: what every permutation solver shares (positions, moves, the
// description, prepare()'s scope and errors). The solvers are
// OptimalSolver<T> (pz/api/optimal.hpp, over pz::Search: IDA* on pattern
// tables) and PhasedSolver<T> (pz/api/phased.hpp, over pz::PhasedSearch).
// T is a generated puzzle's Traits. The command-line solvers
// (pz/solver_main.hpp, pz/phased_main.hpp) are thin mains over these
// classes: one code path.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pz/api/prepare.hpp"
#include "pz/api/solver.hpp"
#include "pz/search/search.hpp"
#include "pz/state_text.hpp"

namespace pz::api {

// Positions, moves and the description: what both permutation solvers share.
template <class T>
class PermSolverBase : public Solver {
public:
    using State = typename T::State;

    const PuzzleInfo& info() const override { return info_; }

    Result<Position> parseScramble(std::string_view moves) const override {
        std::string why;
        auto s = stateFromMoveNames<T>(std::string(moves), why);
        if (!s) return makeError(ErrorCode::BadInput, "bad scramble: " + why);
        return toPosition(*s);
    }
    Result<Position> parseState(std::string_view text) const override {
        std::vector<long> nums;
        std::string why;
        std::optional<State> s;
        if (parseStateNumbers(std::string(text), nums, why)) s = stateFromNumbers<T>(nums, why);
        if (!s) return makeError(ErrorCode::BadInput, "bad state: " + why);
        return toPosition(*s);
    }
    Result<Position> parseLevel(std::string_view) const override {
        return makeError(ErrorCode::Unsupported, info_.name + " is a permutation puzzle: it has no levels (give a scramble or a state)");
    }
    Position solved() const override { return toPosition(T::solved()); }
    Result<bool> isSolved(const Position& p) const override {
        auto s = toState(p);
        if (!s) return s.error();
        return *s == T::solved();
    }
    Result<Position> apply(const Position& p, std::string_view moves) const override {
        auto seq = parseMoves(moves);  // applyMoves checks the position
        if (!seq) return seq.error();
        return applyMoves(p, *seq);
    }
    Result<Position> applyMoves(const Position& p, const std::vector<int>& moves) const override {
        auto s = toState(p);
        if (!s) return s.error();
        State x = *s;
        for (int m : moves) {
            if (m < 0 || m >= T::kMoves)
                return makeError(ErrorCode::BadInput, "move index " + std::to_string(m) + " out of range (the puzzle has " +
                                                          std::to_string(T::kMoves) + " moves)");
            x = T::applyMove(x, m);
        }
        return toPosition(x);
    }
    Result<Position> randomState(uint64_t seed) const override {
        std::mt19937_64 rng(seed);
        return toPosition(pz::randomState<T>(rng));
    }
    Result<Position> inverse(const Position& p) const override {
        auto s = toState(p);
        if (!s) return s.error();
        return toPosition(T::inverse(*s));
    }
    std::string format(const Position& p) const override {
        std::string out;
        for (size_t i = 0; i < p.numbers.size(); ++i) out += (i ? " " : "") + std::to_string(p.numbers[i]);
        return out;
    }

    // The generated state of a position; BadInput / WrongPuzzle otherwise.
    Result<State> toState(const Position& p) const {
        if (!p.puzzle.empty() && p.puzzle != T::kName)
            return makeError(ErrorCode::WrongPuzzle, "the position is of puzzle '" + p.puzzle + "', not " + T::kName);
        if (!p.level.empty()) return makeError(ErrorCode::BadInput, "a permutation puzzle's position has no level");
        std::vector<long> nums(p.numbers.begin(), p.numbers.end());
        std::string why;
        auto s = stateFromNumbers<T>(nums, why);
        if (!s) return makeError(ErrorCode::BadInput, "bad state: " + why);
        return *s;
    }
    Position toPosition(const State& s) const {
        Position p;
        p.puzzle = T::kName;
        for (long v : stateNumbers<T>(s)) p.numbers.push_back(static_cast<int>(v));
        return p;
    }
    // Move names (a scramble's words) to indices.
    Result<std::vector<int>> parseMoves(std::string_view text) const {
        std::vector<int> out;
        std::istringstream in{std::string(text)};
        for (std::string tok; in >> tok;) {
            int found = -1;
            for (int m = 0; m < T::kMoves && found < 0; ++m)
                if (tok == T::kMoveNames[m]) found = m;
            if (found < 0) return makeError(ErrorCode::BadInput, "bad scramble: unknown move '" + tok + "'");
            out.push_back(found);
        }
        return out;
    }
    // A solution's moves, replayed through the generated kernels: an
    // Internal error if they do not reach solved (never a wrong answer).
    Result<Solution> finish(const State& start, std::vector<int> moves, bool optimal, uint64_t nodes, double seconds) const {
        State replay = start;
        for (int m : moves) replay = T::applyMove(replay, m);
        if (!(replay == T::solved()))
            return makeError(ErrorCode::Internal, "internal error: the solution does not replay to solved");
        Solution s;
        for (int m : moves) s.names.push_back(T::kMoveNames[m]);
        s.length = static_cast<int>(moves.size());
        s.moves = std::move(moves);
        s.optimal = optimal;
        s.nodes = nodes;
        s.seconds = seconds;
        return s;
    }
    const SolverOptions& options() const { return options_; }
    // The cache directory; "" when the options build tables in memory only.
    std::string tableDir() const { return tablesDirectory(options_); }
    // The cache directory exists and is writable (pz/api/prepare.hpp).
    Status checkTableDir() const { return checkTablesDirectory(options_); }

protected:
    PermSolverBase(SolverOptions options, SolverInfo solver, std::vector<SolverInfo> all) : options_(std::move(options)) {
        info_.name = T::kName;
        info_.family = "permutation";
        for (size_t o = 0; o < T::kOrbitShapes.size(); ++o) {
            OrbitInfo orbit;
            if constexpr (requires { T::kOrbitNames; }) orbit.name = T::kOrbitNames[o];
            orbit.size = T::kOrbitShapes[o].size;
            orbit.orientations = T::kOrbitShapes[o].orient;
            info_.orbits.push_back(orbit);
        }
        for (int m = 0; m < T::kMoves; ++m) info_.moves.push_back(T::kMoveNames[m]);
        info_.solver = std::move(solver);
        info_.solvers = std::move(all);
    }
    // A stop before the search (cancelled, or a solve before prepare).
    std::optional<Error> refuseSolve(bool ready) const {
        if (!ready) return makeError(ErrorCode::NotPrepared, "solve() before a successful prepare()");
        if (options_.cancel && options_.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "cancelled");
        return std::nullopt;
    }
    Error stopped(uint64_t nodes, double seconds) const {
        const bool cancelled = options_.cancel && options_.cancel->cancelled();
        return makeError(cancelled ? ErrorCode::Cancelled : ErrorCode::NoSolution,
                         cancelled ? std::string("cancelled")
                                   : "stopped by the node or time limit after " + std::to_string(nodes) + " nodes (" +
                                         std::to_string(seconds) + " s)");
    }

    PuzzleInfo info_;
    SolverOptions options_;
};

}  // namespace pz::api
