// pzc generate for sliding-block puzzles (note [library sources] in
// compiler/codegen/library.hpp; the solvers: pz/api/blocks.hpp). An
// n-puzzle's library holds its IDA* solvers; any other board's solves the
// levels given with --level (or the definition's) breadth first.
#include <filesystem>
#include <iostream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/codegen/blocks/blocks_emit.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/blocks/blocks_common.hpp"

namespace pz::driver {

namespace {

// Why a declared solver cannot be in the library (empty: it can).
std::string notInLibrary(const ir::BlockRules& rules, const ir::BlockSolver& solver) {
    if (auto why = analysis::solverProblem(rules, solver); !why.empty()) return why;
    if (analysis::isTilePuzzle(rules) && solver.heuristic == ir::BlockSolver::Heuristic::Bfs)
        return "a breadth-first solver of an n-puzzle solves levels with pzc solve; the library's n-puzzle solvers are IDA*";
    return "";
}

}  // namespace

int BlocksBackend::generate(pipeline::CompilationUnit& unit, const GenerateRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    const ir::BlockRules& rules = puzzle.blocks;
    const std::string source = std::filesystem::path(puzzle.file).filename().string();
    const bool tiles = analysis::isTilePuzzle(rules);
    if (!request.levelDirs.empty()) {
        std::cerr << "pzc " << request.command << ": error: --levels is for grid-actor puzzles; give a sliding-block puzzle's level files with --level\n";
        return 2;
    }
    // The solvers: those asked for, else every declared one the library can
    // hold, else the built-in default.
    std::vector<ir::BlockSolver> chosen;
    for (const auto& name : request.solvers) {
        auto solver = chooseBlockSolver(rules, name, request.command);
        if (!solver) return 2;
        if (auto why = notInLibrary(rules, *solver); !why.empty()) {
            std::cerr << "pzc " << request.command << ": error: solver " << name << ": " << why << "\n";
            return 2;
        }
        chosen.push_back(*solver);
    }
    if (request.solvers.empty()) {
        for (const auto& s : rules.solvers)
            if (notInLibrary(rules, s).empty()) chosen.push_back(s);
        if (chosen.empty()) {
            auto fallback = chooseBlockSolver(rules, "", request.command);
            fallback->name.clear();
            if (tiles && fallback->heuristic == ir::BlockSolver::Heuristic::Bfs) {
                fallback->heuristic = ir::BlockSolver::Heuristic::Manhattan;
                fallback->conflicts = true;
            }
            chosen.push_back(*fallback);
        }
    }
    if (request.held)
        for (const auto& s : chosen) request.held->push_back(s.name);
    if (tiles) {
        if (!request.levelFiles.empty()) {
            std::cerr << "pzc " << request.command << ": error: " << puzzle.name
                      << " is an n-puzzle: its library takes any position (parseState, parseScramble), no --level\n";
            return 2;
        }
        return writeLibrarySources(request, codegen::emitTilesLibrary(request.name, request.ns, source, puzzle, chosen));
    }
    DiagnosticEngine diags;
    std::vector<ir::BlockLayout> levels;
    selectBlockLevels(rules, request.levelFiles, levels, diags);
    diags.print(std::cerr);
    if (diags.hasErrors()) return 1;
    if (levels.empty()) {
        std::cerr << "pzc " << request.command << ": error: " << puzzle.name << " lists no levels: give --level FILE\n";
        return 2;
    }
    if (request.inputs)
        for (const auto& f : request.levelFiles.empty() ? rules.levelPaths : request.levelFiles) request.inputs->push_back(f);
    auto types = codegen::boardTypes(rules, levels);
    if (!types.error.empty()) {
        std::cerr << "pzc " << request.command << ": error: " << types.error << "\n";
        return 1;
    }
    std::vector<std::string> names;
    for (const auto& s : chosen) names.push_back(s.name);
    return writeLibrarySources(request, codegen::emitBoardLibrary(request.name, request.ns, source, puzzle, names, types, levels));
}

}  // namespace pz::driver
