// pzc build and pzc inspect for sliding-block puzzles (blocks_backend.hpp;
// check and run: blocks_check.cpp; solve: blocks_solve.cpp).
#include "compiler/driver/blocks/blocks_backend.hpp"

#include <iostream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/driver/blocks/blocks_common.hpp"
#include "compiler/driver/blocks/blocks_engines.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/codegen/blocks/blocks_emit.hpp"
#include "pz/support/memory.hpp"

namespace pz::driver {

int BlocksBackend::build(pipeline::CompilationUnit& unit, const std::string& output, const std::string& solverName) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    auto solver = chooseBlockSolver(puzzle.blocks, solverName, "build");
    if (!solver) return 2;
    if (auto why = analysis::solverProblem(puzzle.blocks, *solver); !why.empty()) {
        std::cerr << "pzc build: error: solver " << solver->name << ": " << why << "\n";
        return 1;
    }
    DiagnosticEngine diags;
    std::vector<ir::BlockLayout> levels;
    selectBlockLevels(puzzle.blocks, {}, levels, diags);
    diags.print(std::cerr);
    if (diags.hasErrors()) return 1;
    std::string why;
    auto source = engineSource(puzzle, *solver, levels, why);
    if (!source) {
        std::cerr << "pzc build: error: " << why << "\n";
        return 1;
    }
    NativeBuild build;
    build.source = *source;
    build.stem = "blocks-" + puzzle.name;
    DiagnosticEngine buildDiags;
    auto binary = buildNative(build, buildDiags, output);
    buildDiags.print(std::cerr);
    if (!binary) return 1;
    std::cout << "wrote " << output << " (run '" << output << " --help' for its options)\n";
    return 0;
}

int BlocksBackend::inspect(pipeline::CompilationUnit& unit, const InspectRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    const ir::BlockRules& rules = puzzle.blocks;
    auto solver = chooseBlockSolver(rules, request.solver, "inspect");
    if (!solver) return 2;
    if (auto why = analysis::solverProblem(rules, *solver); !why.empty()) {
        std::cerr << "pzc inspect: error: solver " << solver->name << ": " << why << "\n";
        return 1;
    }
    DiagnosticEngine diags;
    std::vector<ir::BlockLayout> levels;
    selectBlockLevels(rules, {}, levels, diags);
    diags.print(std::cerr);
    if (diags.hasErrors()) return 1;
    std::string why;
    auto source = engineSource(puzzle, *solver, levels, why);
    if (!source) {
        std::cerr << "pzc inspect: error: " << why << "\n";
        return 1;
    }
    if (request.header) {
        std::cout << *source;
        return 0;
    }
    const bool tiles = analysis::isTilePuzzle(rules) && solver->heuristic != ir::BlockSolver::Heuristic::Bfs;
    std::cout << "sliding-block puzzle " << puzzle.name << ", solver "
              << (solver->name.empty() ? std::string("(default)") : solver->name) << ": "
              << describeBlockSolver(rules, *solver) << "\n";
    if (tiles) {
        std::cout << "engine: pz/blocks/tiles.hpp (IDA*), tiles 1.." << rules.board->pieces.size()
                  << " in the board's order, blank 0; moves U D L R name where the blank goes\n"
                  << "kernels: the blank's neighbour table (a move is a swap of two cells), the Manhattan "
                     "distance per tile and cell (its change per move is one table difference)";
        if (solver->heuristic == ir::BlockSolver::Heuristic::Additive)
            std::cout << ", one pattern rank per pattern (a move changes the rank of the moved tile's pattern only)";
        std::cout << "\nnever undoes its previous move (the blank never steps straight back)\n";
        if (solver->heuristic == ir::BlockSolver::Heuristic::Additive) {
            // The layout of pz/blocks/tiles_pdb.hpp (note [tiles pattern databases]).
            const uint64_t bytes = analysis::tileTableBytes(rules, *solver);
            std::cout << "tables: 4-bit differences over Manhattan where they fit: an entry is (the pattern's value - "
                         "its tiles' Manhattan sum) / 2, two a byte ("
                      << bytes << " bytes, " << formatBytes(bytes)
                      << "); a pattern with an entry over 15 keeps a byte per entry; h = the Manhattan distance of "
                         "every tile (kept per move) + 2 x the entries\n";
        }
    } else {
        auto types = codegen::boardTypes(rules, levels);
        std::cout << "engine: pz/blocks/board.hpp (breadth-first), " << types.types.size()
                  << " piece types for the definition's " << levels.size() << " levels; a move's legality is one "
                     "placement bitboard tested against the occupied cells\n";
        for (size_t t = 0; t < types.types.size(); ++t) {
            const auto& type = types.types[t];
            const size_t cells = type.shape.size();
            std::cout << "  type " << types.names[t] << ": " << cells << (cells == 1 ? " cell" : " cells")
                      << (types.fixed[t]                             ? ", fixed (a level's wall)"
                          : type.axis == ir::BlockAxis::Horizontal ? ", moves horizontally"
                          : type.axis == ir::BlockAxis::Vertical   ? ", moves vertically"
                                                                   : "")
                      << "\n";
        }
    }
    std::cout << "(pzc inspect --header prints the generated code)\n";
    return 0;
}

}  // namespace pz::driver
