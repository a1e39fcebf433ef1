#include "compiler/driver/blocks/blocks_engines.hpp"

#include <cctype>
#include <filesystem>
#include <iostream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/codegen/blocks/blocks_emit.hpp"
#include "compiler/driver/blocks/blocks_common.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/result_protocol.hpp"
#include "compiler/driver/subprocess.hpp"
#include "compiler/driver/web/web_package.hpp"
#include "compiler/interp/blocks_interp.hpp"
#include "pz/support/memory.hpp"

namespace pz::driver {

namespace {

bool useTiles(const ir::Puzzle& puzzle, const ir::BlockSolver& solver) {
    return analysis::isTilePuzzle(puzzle.blocks) && solver.heuristic != ir::BlockSolver::Heuristic::Bfs;
}

std::string sourceName(const ir::Puzzle& puzzle) { return std::filesystem::path(puzzle.file).filename().string(); }

// The tile engine's numbers of a layout: tile t is solved-board piece t-1.
std::string tileNumbers(const ir::BlockRules& rules, const ir::BlockLayout& layout) {
    // A layout lists its pieces in its own order (a --state in reading order).
    std::vector<int> cells(static_cast<size_t>(rules.width) * rules.height, 0);
    const auto& solved = rules.board->pieces;
    for (const auto& piece : layout.pieces)
        for (size_t t = 0; t < solved.size(); ++t)
            if (solved[t].name == piece.name) cells[piece.anchor.y * rules.width + piece.anchor.x] = static_cast<int>(t) + 1;
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) text += (c ? " " : "") + std::to_string(cells[c]);
    return text;
}

// The board engine names a tile's move ("7D1": tile 7 down one cell); an
// n-puzzle's moves are named by where the blank goes ("U"), the other way.
std::string blankMoveName(const std::string& engineName) {
    size_t end = engineName.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(engineName[end - 1]))) --end;
    switch (end > 0 ? engineName[end - 1] : '?') {
        case 'U': return "D";
        case 'D': return "U";
        case 'L': return "R";
        case 'R': return "L";
    }
    return engineName;  // the replay reports it
}

// Runs the binary, each stdout line to `onLine`; false after printing why.
bool runEngine(const std::string& binary, ChildRun run, const std::string& what) {
    run.argv.insert(run.argv.begin(), binary);
    ChildStatus child = runChildOrDie(run);
    if (!child.started) {
        std::cerr << "pzc solve: internal error: cannot run the generated " << what << ": " << child.startError << "\n";
        return false;
    }
    if (!child.exited() || child.exitCode() != 0) {
        std::cerr << "pzc solve: " << (child.exited() && child.exitCode() == 4 ? "error" : "internal error")
                  << ": the generated " << what << " " << describeSolverStatus(child) << "\n";
        return false;
    }
    return true;
}

std::optional<std::vector<BlockAnswer>> solveTiles(const EngineRun& r, const std::string& binary) {
    const ir::BlockRules& rules = r.puzzle.blocks;
    ChildRun run;
    run.argv = {"--machine", "--table-dir", cacheDirectory() + "/tables", "--memory", std::to_string(pz::memoryBudget())};
    if (r.threads) run.argv.insert(run.argv.end(), {"--threads", std::to_string(r.threads)});
    if (r.maxNodes) run.argv.insert(run.argv.end(), {"--max-nodes", std::to_string(r.maxNodes)});
    for (const auto& p : r.positions) run.input += tileNumbers(rules, p) + "\n";
    std::vector<BlockAnswer> answers(r.positions.size());
    std::string protocolError;
    run.onLine = [&](const std::string& line) {
        if (!protocolError.empty()) return;
        auto result = parsePositionResult(line, protocolError);
        if (!result || result->index < 0 || result->index >= static_cast<int64_t>(answers.size())) {
            protocolError = "unreadable result line: " + line.substr(0, 200);
            return;
        }
        BlockAnswer& a = answers[result->index];
        if (result->kind == PositionResult::Kind::Error) {
            protocolError = "position " + std::to_string(result->index + 1) + ": " + result->message;
            return;
        }
        a.outcome = result->kind == PositionResult::Kind::Solution ? "solved" : "limit";
        if (result->kind == PositionResult::Kind::NoSolution) a.bound = result->depthLimit;
        a.nodes = result->nodes;
        a.seconds = result->seconds;
        // Blank moves U D L R: the engine's 0..3.
        static const char* kNames[4] = {"U", "D", "L", "R"};
        for (int m : result->moves) a.moves.push_back(m >= 0 && m < 4 ? kNames[m] : "?");
    };
    if (!runEngine(binary, run, "n-puzzle solver")) return std::nullopt;
    if (!protocolError.empty()) {
        std::cerr << "pzc solve: internal error: the generated n-puzzle solver: " << protocolError << "\n";
        return std::nullopt;
    }
    return answers;
}

std::optional<std::vector<BlockAnswer>> solveBoards(const EngineRun& r, const std::string& binary,
                                                    const codegen::BoardTypes& types) {
    ChildRun run;
    run.argv = {"--machine"};
    if (r.count) run.argv.push_back("--count");
    if (r.maxStates) run.argv.insert(run.argv.end(), {"--max-states", std::to_string(r.maxStates)});
    run.input = codegen::boardLevelText(r.puzzle.blocks, types, r.positions);
    std::vector<BlockAnswer> answers;
    std::string protocolError;
    const bool blankNames = r.puzzle.blocks.moveNames == ir::BlockRules::MoveNames::Blank;
    run.onLine = [&](const std::string& line) {
        if (!protocolError.empty()) return;
        std::string why;
        auto json = parseJson(line, why);
        const JsonValue* outcome = json ? json->get("outcome") : nullptr;
        if (!outcome || outcome->kind != JsonValue::Kind::String) {
            protocolError = "unreadable result line (" + why + "): " + line.substr(0, 200);
            return;
        }
        BlockAnswer a;
        a.outcome = outcome->text;
        if (const JsonValue* moves = json->get("moves"))
            for (const auto& m : moves->items) a.moves.push_back(blankNames ? blankMoveName(m.text) : m.text);
        if (const JsonValue* states = json->get("states"); states && states->integer()) a.nodes = *states->integer();
        if (const JsonValue* reach = json->get("reachable"); reach && reach->integer()) a.reachable = *reach->integer();
        if (const JsonValue* s = json->get("seconds"); s && s->number()) a.seconds = *s->number();
        answers.push_back(std::move(a));
    };
    if (!runEngine(binary, run, "board solver")) return std::nullopt;
    if (protocolError.empty() && answers.size() != r.positions.size())
        protocolError = std::to_string(answers.size()) + " results for " + std::to_string(r.positions.size()) + " levels";
    if (!protocolError.empty()) {
        std::cerr << "pzc solve: internal error: the generated board solver: " << protocolError << "\n";
        return std::nullopt;
    }
    return answers;
}

}  // namespace

std::optional<std::string> engineSource(const ir::Puzzle& puzzle, const ir::BlockSolver& solver,
                                        const std::vector<ir::BlockLayout>& levels, std::string& why) {
    codegen::BlocksEmitOptions emit;
    emit.source = sourceName(puzzle);
    if (useTiles(puzzle, solver)) return codegen::emitTilesSolver(puzzle, solver, emit);
    auto types = codegen::boardTypes(puzzle.blocks, levels);
    if (!types.error.empty()) {
        why = types.error;
        return std::nullopt;
    }
    return codegen::emitBoardSolver(puzzle, types, emit);
}

namespace {

std::optional<std::string> buildEngine(const std::string& source, const std::string& stem) {
    NativeBuild build;
    build.source = source;
    build.stem = stem;
    DiagnosticEngine diags;
    auto binary = buildNative(build, diags);
    diags.print(std::cerr);
    return binary;
}

}  // namespace

std::optional<std::vector<BlockAnswer>> solveWithEngine(const EngineRun& r) {
    codegen::BlocksEmitOptions emit;
    emit.source = sourceName(r.puzzle);
    if (useTiles(r.puzzle, r.solver)) {
        auto binary = buildEngine(codegen::emitTilesSolver(r.puzzle, r.solver, emit), "tiles-" + r.puzzle.name);
        if (!binary) return std::nullopt;
        return solveTiles(r, *binary);
    }
    // One compile for as many consecutive levels as share at most 64 piece
    // types (the engine's limit; note [engine types]).
    std::vector<BlockAnswer> answers;
    for (size_t first = 0; first < r.positions.size();) {
        size_t end = first + 1;
        auto types = codegen::boardTypes(r.puzzle.blocks, {r.positions.begin() + first, r.positions.begin() + end});
        if (!types.error.empty()) {
            std::cerr << "pzc solve: error: level " << r.positions[first].name << ": " << types.error << "\n";
            return std::nullopt;
        }
        for (; end < r.positions.size(); ++end) {
            auto more = codegen::boardTypes(r.puzzle.blocks, {r.positions.begin() + first, r.positions.begin() + end + 1});
            if (!more.error.empty()) break;
            types = std::move(more);
        }
        const std::vector<ir::BlockLayout> group(r.positions.begin() + first, r.positions.begin() + end);
        auto binary = buildEngine(codegen::emitBoardSolver(r.puzzle, types, emit), "blocks-" + r.puzzle.name);
        if (!binary) return std::nullopt;
        EngineRun part{r.puzzle, r.solver, group, r.threads, r.maxStates, r.count, r.maxNodes};
        auto groupAnswers = solveBoards(part, *binary, types);
        if (!groupAnswers) return std::nullopt;
        answers.insert(answers.end(), groupAnswers->begin(), groupAnswers->end());
        first = end;
    }
    return answers;
}

uint64_t blocksTableBytes(const ir::Puzzle& puzzle, const std::string& solverName) {
    for (const auto& solver : puzzle.blocks.solvers)
        if (solver.name == solverName) return analysis::tileTableBytes(puzzle.blocks, solver);
    return 0;  // the built-in default: Manhattan distance
}

bool blocksNativeTables(pipeline::CompilationUnit& unit, const std::string& solverName, const std::string& tablesDir) {
    const ir::Puzzle& puzzle = unit.puzzle();
    auto solver = chooseBlockSolver(puzzle.blocks, solverName, "build");
    if (!solver) return false;
    if (solver->heuristic != ir::BlockSolver::Heuristic::Additive) return true;  // no tables
    codegen::BlocksEmitOptions emit;
    emit.source = sourceName(puzzle);
    auto binary = buildEngine(codegen::emitTilesSolver(puzzle, *solver, emit), "tiles-" + puzzle.name);
    if (!binary) return false;
    // Solving the goal loads (or builds) every table the solver reads.
    return runTablePreparer({*binary, "--state", tileNumbers(puzzle.blocks, *puzzle.blocks.board), "--table-dir",
                             tablesDir, "--memory", std::to_string(pz::memoryBudget())},
                            solverName);
}

}  // namespace pz::driver
