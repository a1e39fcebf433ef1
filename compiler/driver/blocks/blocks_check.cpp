// pzc check and pzc run for sliding-block puzzles (blocks_backend.hpp).
#include <iostream>
#include <sstream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/blocks/blocks_common.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/interp/blocks_interp.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/result_json.hpp"

namespace pz::driver {

namespace {

const char* metricName(ir::BlockMetric m) {
    switch (m) {
        case ir::BlockMetric::Step: return "step";
        case ir::BlockMetric::Slide: return "slide";
        case ir::BlockMetric::Path: return "path";
    }
    return "?";
}

std::string goalText(const ir::BlockRules& rules) {
    switch (rules.goal.kind) {
        case ir::BlockGoal::Kind::Full: return "the solved board";
        case ir::BlockGoal::Kind::Exit: return rules.goal.exitPiece + " at the exit";
        case ir::BlockGoal::Kind::Place: {
            std::string text;
            for (const auto& p : rules.goal.placements)
                text += (text.empty() ? "" : ", ") + p.piece + " at " + std::to_string(p.anchor.x) + " " +
                        std::to_string(p.anchor.y);
            return text;
        }
    }
    return "";
}

}  // namespace

std::string describeBlockSolver(const ir::BlockRules& rules, const ir::BlockSolver& solver) {
    using H = ir::BlockSolver::Heuristic;
    std::string text;
    switch (solver.heuristic) {
        case H::Bfs: text = "breadth-first search over the reachable states"; break;
        case H::Manhattan:
            text = std::string("IDA*, Manhattan distance") + (solver.conflicts ? " with linear conflicts" : "");
            break;
        case H::Additive: {
            text = "IDA*, additive pattern databases";
            for (int p : solver.patterns) {
                const auto& pattern = rules.patterns[p];
                text += " " + pattern.name + " (" + std::to_string(pattern.pieces.size()) + " tiles, " +
                        std::to_string(analysis::tilePatternEntries(rules, pattern)) + " entries)";
            }
            break;
        }
    }
    if (solver.reflection) text += ", max with the lookup reflected by " + rules.symmetries[*solver.reflection].name;
    return text;
}

int BlocksBackend::check(pipeline::CompilationUnit& unit, DiagnosticEngine& loaded, const Args& args) const {
    loaded.print(std::cerr);
    const ir::Puzzle& puzzle = unit.puzzle();
    const ir::BlockRules& rules = puzzle.blocks;
    std::vector<std::string> definition, levelFiles;
    bool json = false;
    OptionParser parser("check", "usage: pzc check DEF [--level FILE]... [--json]\n");
    parser.positionals(definition, 0, 1, "DEF").values("--level", levelFiles).flag("--json", json);
    if (auto rc = parser.parse(args)) return *rc;

    DiagnosticEngine diags;
    for (const auto& solver : rules.solvers)
        if (auto why = analysis::solverProblem(rules, solver); !why.empty()) diags.error(puzzle.file, solver.where, why);
    for (const auto& symmetry : rules.symmetries)
        if (auto why = analysis::symmetryProblem(rules, symmetry); !why.empty())
            diags.error(puzzle.file, symmetry.where, "symmetry " + symmetry.name + " does not hold: " + why);
    std::vector<ir::BlockLayout> levels;
    // The levels named, else the definition's (their errors are the definition's).
    selectBlockLevels(rules, levelFiles, levels, diags);
    diags.print(std::cerr);
    if (diags.hasErrors()) return 1;

    const bool tiles = analysis::isTilePuzzle(rules);
    int pieces = 0;
    if (rules.board) pieces = static_cast<int>(rules.board->pieces.size());
    pz::json::Line line;
    line.field("puzzle", puzzle.name).field("family", "sliding-block").field("width", rules.width)
        .field("height", rules.height).field("metric", metricName(rules.metric)).field("goal", goalText(rules));
    if (!json) {
        std::cout << "sliding-block puzzle " << puzzle.name << ": " << rules.width << " x " << rules.height
                  << " board, metric " << metricName(rules.metric)
                  << (rules.moveNames == ir::BlockRules::MoveNames::Blank ? ", moves named by the blank (U D L R)" : "")
                  << "\n";
        if (rules.board)
            std::cout << "  " << (rules.boardIsSolved ? "solved board: " : "start board: ") << pieces << " pieces of "
                      << rules.board->types.size() << " types, " << rules.board->empties
                      << (rules.board->empties == 1 ? " empty cell\n" : " empty cells\n");
        std::cout << "  goal: " << goalText(rules) << "\n";
    }
    if (tiles) {
        // Counted breadth-first from the solved board where the space is
        // small (the 8-puzzle), which also gives its farthest positions;
        // otherwise the formula.
        const std::string count = analysis::tileReachableFormula(rules);
        const bool small = count.size() < 7;  // under 10^6 states: a second or two for the interpreter
        auto bfs = small ? interp::blockBfs(rules, *rules.board, UINT64_MAX, false) : interp::BlockBfs{};
        const int farthest = small ? static_cast<int>(bfs.perDepth.size()) - 1 : -1;
        line.field("reachable", count).field("reachable-by", small ? "breadth-first" : "formula");
        if (small) line.field("farthest", farthest).field("farthest-count", bfs.perDepth.back());
        if (!json) {
            std::cout << "  reachable states: " << count << " (" << rules.width * rules.height
                      << "!/2 from any position; solvable by parity)\n";
            if (small)
                std::cout << "  breadth-first from the solved board: " << bfs.states << " states, the farthest "
                          << farthest << " moves away (" << bfs.perDepth.back() << " positions)\n";
        }
        if (small && std::to_string(bfs.states) != count) {
            std::cerr << "pzc check: internal error: breadth-first search reached " << bfs.states << " states, not " << count
                      << "\n";
            return 1;
        }
    }
    for (const auto& symmetry : rules.symmetries)
        if (!json) std::cout << "  symmetry " << symmetry.name << ": maps the walls and the goal to themselves\n";
    for (const auto& solver : rules.solvers)
        if (!json) std::cout << "  solver " << solver.name << ": " << describeBlockSolver(rules, solver) << "\n";
    std::cout << (json ? line.str() + "\n" : "");

    // Each level's reachable states, counted breadth-first within the budget
    // (a state of the reference interpreter takes a few hundred bytes).
    const uint64_t maxStates = std::max<uint64_t>(1000, pz::memoryBudget() / 512);
    int failures = 0;
    for (const auto& level : levels) {
        auto bfs = interp::blockBfs(rules, level, maxStates, false);
        pz::json::Line out;
        out.field("level", level.name);
        if (bfs.limited) {
            out.field("reachable-at-least", bfs.states);
            if (!json)
                std::cout << "level " << level.name << ": more than " << bfs.states
                          << " reachable states (stopped at the memory budget)\n";
        } else {
            out.field("reachable", bfs.states).field("depth", bfs.perDepth.size() - 1);
            if (bfs.goalDepth) out.field("solution-length", *bfs.goalDepth);
            if (!json) {
                std::cout << "level " << level.name << ": " << level.pieces.size() << " pieces, " << bfs.states
                          << " reachable states, " << (bfs.goalDepth ? "solvable in " + std::to_string(*bfs.goalDepth) + " moves"
                                                                     : std::string("no goal reachable"))
                          << "\n";
            }
            if (level.expectedStates && *level.expectedStates != bfs.states) {
                std::cerr << "pzc check: error: level " << level.name << ": " << bfs.states
                          << " reachable states, but its file says " << *level.expectedStates << "\n";
                ++failures;
            }
        }
        if (json) std::cout << out.str() << "\n";
    }
    return failures ? 1 : 0;
}

int BlocksBackend::run(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const std::string& sequence) const {
    diags.print(std::cerr);
    const ir::BlockRules& rules = unit.puzzle().blocks;
    if (!rules.board) {
        std::cerr << "pzc run: error: " << unit.puzzle().name
                  << " has no board of its own (its levels give the boards); use 'pzc solve DEF --level FILE'\n";
        return 1;
    }
    interp::BlockBoard board(rules, *rules.board);
    std::istringstream in(sequence);
    int index = 0;
    for (std::string name; in >> name;) {
        ++index;
        std::string why;
        auto move = board.parseMove(name, why);
        if (!move) {
            std::cerr << "pzc run: error: " << why << "\n";
            return 1;
        }
        if (!board.apply(*move)) {
            std::cerr << "pzc run: error: move " << index << " (" << name << ") is not legal here:\n" << board.picture();
            return 1;
        }
    }
    std::cout << board.picture() << (board.isGoal() ? "solved\n" : "");
    return 0;
}

}  // namespace pz::driver
