// Running a sliding-block puzzle's generated engine (blocks_backend.hpp):
// emit its traits (compiler/codegen/blocks/), compile them (cached by
// content, native_build), hand it the positions, read its JSON lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/puzzle.hpp"
#include "compiler/pipeline/compilation_unit.hpp"

namespace pz::driver {

// One position's answer, from whichever search.
struct BlockAnswer {
    std::string outcome = "missing";  // solved | unsolvable | limit
    std::vector<std::string> moves;   // move names (note [blocks move names])
    uint64_t nodes = 0;               // nodes generated (IDA*) or states stored (BFS)
    std::optional<uint64_t> reachable;  // BFS over the whole cluster: its size
    int bound = 0;                      // IDA* stopped by --max-nodes: no solution is shorter
    double seconds = 0;
};

struct EngineRun {
    const ir::Puzzle& puzzle;
    const ir::BlockSolver& solver;
    const std::vector<ir::BlockLayout>& positions;
    unsigned long long threads = 0, maxStates = 0;
    bool count = false;  // board engine: count the whole cluster
    unsigned long long maxNodes = 0;  // n-puzzle engine: give up beyond about this many nodes
};

// nullopt after printing the error (a failed compile, a solver that died).
std::optional<std::vector<BlockAnswer>> solveWithEngine(const EngineRun& run);

// The generated source of a solver (pzc inspect --header, pzc build).
std::optional<std::string> engineSource(const ir::Puzzle& puzzle, const ir::BlockSolver& solver,
                                        const std::vector<ir::BlockLayout>& levels, std::string& why);

// Web packages (compiler/driver/web/web_package.cpp): the bytes of a
// declared solver's pattern databases at 4 bits an entry (0: none), and the
// tables it reads built (or loaded) natively into `tablesDir` by its engine
// (--tables); false after printing why.
uint64_t blocksTableBytes(const ir::Puzzle& puzzle, const std::string& solver);
bool blocksNativeTables(pipeline::CompilationUnit& unit, const std::string& solver, const std::string& tablesDir);

}  // namespace pz::driver
