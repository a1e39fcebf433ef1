// pzc solve for sliding-block puzzles (blocks_backend.hpp): read the
// positions, run the chosen solver (the generated engine, or --interp: the
// reference interpreter's breadth-first search), replay every solution
// through the interpreter, print.
#include <chrono>
#include <fstream>
#include <iostream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/blocks/blocks_common.hpp"
#include "compiler/driver/blocks/blocks_engines.hpp"
#include "compiler/driver/blocks/blocks_positions.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/interp/blocks_interp.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/result_json.hpp"

namespace pz::driver {

namespace {

const char* kBlocksUsage =
    "usage: pzc solve DEF (--state \"CELLS\" | --scramble \"MOVES\")... [options]     (n-puzzles)\n"
    "       pzc solve DEF --random N [--seed S] [options]                        (n-puzzles)\n"
    "       pzc solve DEF --states FILE [options]     (n-puzzles: one state a line; # comments)\n"
    "       pzc solve DEF [--level FILE]... [options]  (other boards: the levels, else DEF's own)\n"
    "  --solver NAME   a declared solver (default: the first declared)\n"
    "  --json          one JSON line per position\n"
    "  --interp        search with the reference interpreter (breadth-first; no compile)\n"
    "  --memory SIZE   budget for tables and searches (512M, 2G, ...)\n"
    "  --threads N     threads for table builds\n"
    "  --max-states N  give up a breadth-first search beyond N states\n"
    "  --max-nodes N   give up an n-puzzle's IDA* beyond about N nodes (its answer: the bound it proved)\n";

struct BlocksSolveOptions {
    std::vector<std::string> states, scrambles, levelFiles;
    unsigned long long random = 0, seed = 1, threads = 0, maxStates = 0, maxNodes = 0;
    std::string solver, memoryText, statesFile;
    bool json = false, interp = false;
};

std::optional<int> parseSolveOptions(const Args& args, BlocksSolveOptions& o) {
    std::vector<std::string> definition;
    OptionParser parser("solve", kBlocksUsage);
    parser.positionals(definition, 1, 1, "DEF")
        .values("--state", o.states)
        .values("--scramble", o.scrambles)
        .values("--level", o.levelFiles)
        .value("--states", o.statesFile)
        .number("--random", o.random, 1, 1000000)
        .number("--seed", o.seed, 0, UINT64_MAX)
        .number("--threads", o.threads, 0, 1024)
        .number("--max-states", o.maxStates, 1, UINT64_MAX)
        .number("--max-nodes", o.maxNodes, 1, UINT64_MAX)
        .value("--solver", o.solver)
        .value("--memory", o.memoryText)
        .flag("--json", o.json)
        .flag("--interp", o.interp);
    if (auto rc = parser.parse(args)) return rc;
    if (parser.given("--memory")) {
        auto bytes = pz::parseMemorySize(o.memoryText);
        if (!bytes || *bytes == 0) return parser.fail("bad --memory '" + o.memoryText + "': expected a size such as 512M or 2G");
        pz::memoryBudget() = *bytes;
    }
    return std::nullopt;
}

// The positions to solve, each with a label for messages; false after an error.
bool collectPositions(const ir::Puzzle& puzzle, const BlocksSolveOptions& o, std::vector<ir::BlockLayout>& positions) {
    const ir::BlockRules& rules = puzzle.blocks;
    const bool tiles = analysis::isTilePuzzle(rules);
    std::vector<std::string> states = o.states;
    if (!o.statesFile.empty()) {
        std::ifstream in(o.statesFile);
        if (!in) {
            std::cerr << "pzc solve: error: cannot read " << o.statesFile << "\n";
            return false;
        }
        for (std::string line; std::getline(in, line);)
            if (line.find_first_not_of(" \t\r") != std::string::npos && line[line.find_first_not_of(" \t")] != '#')
                states.push_back(line);
    }
    if (!tiles && (!states.empty() || !o.scrambles.empty() || o.random)) {
        std::cerr << "pzc solve: error: --state, --scramble and --random are for n-puzzles (`moves blank`); "
                  << puzzle.name << " takes --level FILE\n";
        return false;
    }
    for (const auto& text : states) {
        auto layout = blocks::parseTileState(rules, text);
        if (!layout) return false;
        layout->name = text;
        positions.push_back(*layout);
    }
    for (const auto& text : o.scrambles) {
        std::string why;
        auto layout = blocks::scrambledTiles(rules, text, why);
        if (!layout) {
            std::cerr << "pzc solve: error: bad --scramble '" << text.substr(0, 200) << "': " << why << "\n";
            return false;
        }
        layout->name = text;
        positions.push_back(*layout);
    }
    std::mt19937_64 rng(o.seed);
    for (unsigned long long i = 0; i < o.random; ++i) {
        positions.push_back(blocks::randomTiles(rules, rng));
        positions.back().name = blocks::tileStateText(rules, positions.back());
    }
    if (tiles) {
        if (positions.empty()) std::cerr << "pzc solve: error: give --state, --scramble or --random N\n" << kBlocksUsage;
        return !positions.empty();
    }
    DiagnosticEngine diags;
    const bool ok = selectBlockLevels(rules, o.levelFiles, positions, diags);
    diags.print(std::cerr);
    if (!ok) return false;
    if (positions.empty()) std::cerr << "pzc solve: error: " << puzzle.name << " has no start board: give --level FILE\n";
    return !positions.empty();
}

// The reference interpreter's breadth-first search (--interp).
std::vector<BlockAnswer> solveInterpreted(const ir::BlockRules& rules, const std::vector<ir::BlockLayout>& positions,
                                          uint64_t maxStates) {
    std::vector<BlockAnswer> answers;
    for (const auto& position : positions) {
        const auto start = std::chrono::steady_clock::now();
        auto bfs = interp::blockBfs(rules, position, maxStates ? maxStates : UINT64_MAX, true);
        BlockAnswer a;
        a.outcome = bfs.goalDepth ? "solved" : bfs.limited ? "limit" : "unsolvable";
        a.moves = bfs.solution;
        a.nodes = bfs.states;
        a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        answers.push_back(std::move(a));
    }
    return answers;
}

}  // namespace

const char* BlocksBackend::solveUsage() const { return kBlocksUsage; }

int BlocksBackend::solve(pipeline::CompilationUnit& unit, const Args& args) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    const ir::BlockRules& rules = puzzle.blocks;
    BlocksSolveOptions o;
    if (auto rc = parseSolveOptions(args, o)) return *rc;
    auto solver = chooseBlockSolver(rules, o.solver, "solve");
    if (!solver) return 2;
    if (auto why = analysis::solverProblem(rules, *solver); !why.empty()) {
        std::cerr << "pzc solve: error: solver " << solver->name << ": " << why << "\n";
        return 1;
    }
    std::vector<ir::BlockLayout> positions;
    if (!collectPositions(puzzle, o, positions)) return 1;

    std::optional<std::vector<BlockAnswer>> answers;
    if (o.interp) {
        answers = solveInterpreted(rules, positions, o.maxStates);
    } else {
        EngineRun run{puzzle, *solver, positions, o.threads, o.maxStates};
        run.maxNodes = o.maxNodes;
        answers = solveWithEngine(run);
        if (!answers) return 1;
    }

    // Every solution replayed by the interpreter before it is printed.
    int failures = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
        BlockAnswer& a = (*answers)[i];
        const std::string& label = positions[i].name;
        if (a.outcome == "solved") {
            std::string why;
            if (!interp::replayBlocks(rules, positions[i], a.moves, why)) {
                std::cerr << "pzc solve: error: " << label << ": internal error: the solution found does not replay: "
                          << why << "\n";
                a.outcome = "wrong";
            }
        }
        // A database line's move count is a fact the answer must meet.
        if (a.outcome == "solved" && positions[i].expectedMoves &&
            static_cast<long>(a.moves.size()) != *positions[i].expectedMoves) {
            std::cerr << "pzc solve: error: " << label << ": " << a.moves.size() << " moves, but its level file says "
                      << *positions[i].expectedMoves << "\n";
            a.outcome = "wrong";
        }
        if (a.outcome == "unsolvable")
            std::cerr << "pzc solve: error: " << label << ": no solution: every one of the " << a.nodes
                      << " reachable states was searched\n";
        else if (a.outcome == "limit" && a.bound)
            std::cerr << "pzc solve: error: " << label << ": gave up after " << a.nodes << " nodes: no solution shorter than "
                      << a.bound << " moves (raise --max-nodes)\n";
        else if (a.outcome == "limit")
            std::cerr << "pzc solve: error: " << label << ": gave up after " << a.nodes
                      << " states (raise --max-states or --memory)\n";
        if (a.outcome != "solved") ++failures;
        std::string text;
        for (const auto& m : a.moves) text += (text.empty() ? "" : " ") + m;
        if (o.json) {
            pz::json::Line line;
            line.field(analysis::isTilePuzzle(rules) ? "position" : "level", label).field("outcome", a.outcome);
            if (a.outcome == "solved")
                line.field("solution", text).field("length", a.moves.size()).field("optimal", true);
            if (a.outcome == "limit" && a.bound) line.field("lower-bound", a.bound);
            if (!solver->name.empty()) line.field("solver", solver->name);
            line.field("nodes", a.nodes).field("seconds", a.seconds, 9);
            std::cout << line.str() << "\n";
        } else if (a.outcome == "solved") {
            if (positions.size() > 1) std::cout << label << ": ";
            std::cout << (text.empty() ? "(already solved)" : text) << "  (" << a.moves.size() << (a.moves.size() == 1 ? " move" : " moves")
                      << ", optimal)\n";
        }
    }
    return failures ? 1 : 0;
}

}  // namespace pz::driver
