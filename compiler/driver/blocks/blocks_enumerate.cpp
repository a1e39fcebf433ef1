// pzc enumerate for sliding-block puzzles: an n-puzzle's whole board
// (pz/blocks/tiles_space.hpp over the tile engine's traits) enumerated by
// the generated enumerator of pz/enumerate/, on one process or across MPI
// ranks, as for permutation puzzles (compiler/driver/perm/enumerate.cpp).
#include <filesystem>
#include <iostream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/codegen/blocks/blocks_emit.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/enumerator_run.hpp"

namespace pz::driver {

int BlocksBackend::enumerate(pipeline::CompilationUnit& unit, const EnumerateRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    const ir::BlockRules& rules = puzzle.blocks;
    if (!analysis::isTilePuzzle(rules))
        return refuse("enumerate", unit, "'pzc enumerate' counts n-puzzles (one blank, 1x1 tiles); "
                                         "'pzc check --level' counts another board's reachable states");
    if (!request.whole) {
        std::cerr << "pzc enumerate: error: " << puzzle.name << " is an n-puzzle: enumerate its whole board (--whole)\n";
        return 2;
    }
    const int cells = rules.width * rules.height;
    if (cells > 20) {
        std::cerr << "pzc enumerate: error: " << puzzle.name << "'s " << cells
                  << "! board values do not fit 64 bits (the enumeration handles up to 20 cells)\n";
        return 2;
    }
    ir::BlockSolver traitsOnly;  // Manhattan: no tables, only the board's traits
    traitsOnly.name = "enumerate";
    codegen::BlocksEmitOptions emit;
    emit.source = std::filesystem::path(puzzle.file).filename().string();
    emit.withMain = false;
    std::string source = codegen::emitTilesSolver(puzzle, traitsOnly, emit);
    source += "\n#include \"pz/blocks/tiles_space.hpp\"\n#include \"pz/enumerate/enumerate_main.hpp\"\n\n"
              "// pzc enumerate: the distance distribution of the whole board (docs/distributed.md).\n"
              "int main(int argc, char** argv) {\n"
              "    return pz::enumerate::enumerateMain<pz::blocks::TilesSpace<pzgen::Traits>,\n"
              "                                        pz::blocks::TilesWhole<pzgen::Traits>>(argc, argv);\n"
              "}\n";
    // (w*h)!/2: the parity analysis's count.
    const std::string expect = analysis::tileReachableFormula(rules);
    return runEnumerator(source, "tiles-" + puzzle.name + "_enumerate", request, "whole board", expect);
}

}  // namespace pz::driver
