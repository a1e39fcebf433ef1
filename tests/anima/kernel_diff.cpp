// The generated kernels against the interpreter on every transition reachable
// in each level (capped for levels whose reachable set is huge): the same
// successor for every direction, the same solvedness, pack/unpack round
// trips, and a heuristic that is consistent (changes by at most one per move)
// and zero on solved states, hence admissible. Then A* over the generated
// space: its solution replays through the interpreter, and its length is
// the breadth-first depth of the nearest solved state (when the traversal
// reached one before its cap).
//
// Built twice: for this machine (-march=native) and as anima_kernel_diff_portable
// for baseline x86-64-v2 (no BMI2, AVX2 or AVX-512), so the portable branches
// of the runtime (actor lists, pext, lowest-bit, closed-set probes) are
// checked too; that build skips the --hall kernels.
#include <cstdio>
#include <iostream>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "anima_kernels.hpp"
#if !defined(PZ_KERNEL_DIFF_PORTABLE)
#include "anima_kernels_hall.hpp"
#endif
#include "compiler/interp/grid_interp.hpp"
#include "compiler/ir/lower.hpp"
#include "compiler/ir/level_reader.hpp"

using namespace pz;

namespace {

constexpr size_t kMaxStatesPerLevel = 400'000;

struct Checker {
    const ir::Puzzle& puzzle;
    std::map<std::string, ir::Level> levels;
    int failures = 0;
    size_t transitions = 0;

    template <class Space>
    typename Space::State toBoards(const interp::GridState& s) const {
        typename Space::State b{};
        for (int i = 0; i < Space::kColours; ++i)
            for (int cell : s.cells[Space::kColourOf[i]]) b.colour[i].set(cell);
        return b;
    }

    template <class Space>
    interp::GridState fromBoards(const typename Space::State& b) const {
        interp::GridState s;
        s.cells.resize(puzzle.grid.colours.size());
        for (int i = 0; i < Space::kColours; ++i)
            for (int cell = 0; cell < Space::kWidth * Space::kHeight; ++cell)
                if (b.colour[i].test(cell)) s.cells[Space::kColourOf[i]].push_back(cell);
        return s;
    }

    void fail(const std::string& level, const std::string& what) {
        if (++failures <= 20) std::fprintf(stderr, "FAIL %s: %s\n", level.c_str(), what.c_str());
    }

    template <class Space, bool kHall>
    void check() {
        const std::string name = Space::kName;
        auto it = levels.find(name);
        if (it == levels.end()) return fail(name, "no level file of this name");
        interp::GridBoard board(puzzle.grid, it->second);
        Space space;
        std::vector<interp::GridState> queue{board.initialState()};
        std::unordered_map<interp::GridState, int, interp::GridStateHash> seen{{queue[0], 0}};  // state -> depth
        int nearestSolved = -1;  // breadth-first depth of the first solved state
        if (!(toBoards<Space>(queue[0]) == space.initial())) fail(name, "initial state differs");
        size_t levelTransitions = 0;
        for (size_t i = 0; i < queue.size(); ++i) {
            const interp::GridState s = queue[i];
            const auto bs = toBoards<Space>(s);
            const std::string at = " at " + board.describe(s);
            if (space.solved(bs) != board.isSolved(s)) fail(name, "solvedness differs" + at);
            const int depth = seen.at(s);
            if (board.isSolved(s) && nearestSolved < 0) nearestSolved = depth;
            const int h = space.heuristic(bs);
            if (board.isSolved(s) && h != 0) fail(name, "heuristic not zero on a solved state" + at);
            if (h < Space::kDead && h < board.heuristic(s))
                fail(name, "heuristic weaker than max-min distance" + at);
            if (!(space.unpack(space.pack(bs)) == bs)) fail(name, "pack/unpack does not round-trip" + at);
            if constexpr (pz::grid::detail::PacksEstimates<Space>) {
                int estimate = -1;
                if (space.packEstimate(bs, estimate) != space.pack(bs)) fail(name, "packEstimate's key differs" + at);
                if (estimate != h) fail(name, "packEstimate's heuristic differs" + at);
            }
            // The row heuristic is exactly the max-min distance (Hall's only adds).
            if (!kHall && h < Space::kDead && h != board.heuristic(s)) fail(name, "heuristic is not the max-min distance" + at);
            if (!kHall && (h >= Space::kDead) != (board.heuristic(s) >= interp::GridBoard::kUnreachable))
                fail(name, "dead-state verdict differs" + at);
            for (int p = 0; p < board.directionCount(); ++p) {
                const interp::GridState expected = board.step(s, p);
                const auto got = space.move(bs, p);
                ++levelTransitions;
                if (!(fromBoards<Space>(got) == expected)) {
                    fail(name, "press " + puzzle.grid.directions[p].name + at + ": kernel gives " +
                                   board.describe(fromBoards<Space>(got)) + ", interpreter " + board.describe(expected));
                    continue;
                }
                const int ht = space.heuristic(got);
                if (h < Space::kDead && (ht > h + 1 || (ht < h - 1)))
                    fail(name, "heuristic not consistent: " + std::to_string(h) + " -> " + std::to_string(ht) + at);
                // The search scans a child's heuristic from its parent's h - 1.
                if (h < Space::kDead && space.heuristicAtLeast(got, h > 0 ? h - 1 : 0) != ht)
                    fail(name, "heuristic from a lower bound differs: " + std::to_string(ht) + at);
                if (queue.size() < kMaxStatesPerLevel && seen.emplace(expected, depth + 1).second) queue.push_back(expected);
            }
        }
        transitions += levelTransitions;
        checkSearch<Space>(name, board, nearestSolved);
        std::printf("%-24s %-6s %9zu states %10zu transitions%s\n", name.c_str(), kHall ? "--hall" : "", queue.size(), levelTransitions,
                    queue.size() >= kMaxStatesPerLevel ? " (capped)" : "");
    }

    // A* as the solver runs it, and with batched expansion from the first
    // node (note [batched expansion]; by default it starts at index sizes
    // none of these levels reach); then with a state limit it must hit.
    template <class Space>
    void checkSearch(const std::string& name, const interp::GridBoard& board, int nearestSolved) {
        using Outcome = pz::grid::SearchResult::Outcome;
        pz::grid::SearchLimits batched;
        batched.batchFromSlots = 0;
        for (const auto& [limits, how] : {std::pair{pz::grid::SearchLimits{}, ""}, std::pair{batched, " (batched)"}}) {
            const auto result = pz::grid::astar(Space{}, limits);
            if (result.outcome != Outcome::Solved) {
                if (nearestSolved >= 0) fail(name, std::string("A* found no solution; breadth-first search did") + how);
                continue;
            }
            interp::GridState s = board.initialState();
            for (int move : result.moves) s = board.step(s, move);
            if (!board.isSolved(s)) fail(name, std::string("A*'s solution does not solve the level when replayed") + how);
            if (nearestSolved >= 0 && (int)result.moves.size() != nearestSolved)
                fail(name, "A* length " + std::to_string(result.moves.size()) + ", breadth-first depth " +
                               std::to_string(nearestSolved) + how);
            if (result.stored > 2) {
                pz::grid::SearchLimits tight = limits;
                tight.maxStates = result.stored / 2;
                if (pz::grid::astar(Space{}, tight).outcome != Outcome::LimitReached)
                    fail(name, std::string("A* limited to half its stored states did not report the limit") + how);
            }
        }
    }

    template <bool kHall, class... Spaces>
    void checkAll(pz::grid::LevelList<Spaces...>) {
        (check<Spaces, kHall>(), ...);
    }
};

}  // namespace

int main() {
    DiagnosticEngine diags;
    auto puzzle = ir::loadPuzzle("puzzles/anima.pz", diags);
    diags.print(std::cerr);
    if (!puzzle) return 1;
    Checker checker{*puzzle, {}};
    for (const char* dir : {"puzzles/anima/levels", "tests/anima/levels"})
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            if (auto level = readLevelFile(entry.path().string(), puzzle->grid, diags))
                checker.levels.emplace(level->name, std::move(*level));
    diags.print(std::cerr);
    if (diags.hasErrors()) return 1;
    checker.checkAll<false>(pzgen::AllLevels{});
#if !defined(PZ_KERNEL_DIFF_PORTABLE)
    checker.checkAll<true>(pzgen_hall::AllLevels{});
#endif
    std::printf("%zu transitions compared, %d failure(s)\n", checker.transitions, checker.failures);
    return checker.failures ? 1 : 0;
}
