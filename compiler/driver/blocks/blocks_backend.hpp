// The sliding-block back end (note [back ends] in compiler/driver/backend.hpp;
// the model: note [blocks model] in compiler/ir/blocks.hpp):
//   n-puzzles (`moves blank`)  pzc solve DEF (--state S | --scramble M | --random N)...
//                              IDA* on the generated tile engine (pz/blocks/tiles.hpp):
//                              Manhattan distance, linear conflicts, additive
//                              pattern databases, the reflected lookup;
//   other boards               pzc solve DEF [--level FILE]...: breadth-first
//                              search over the level's reachable states on the
//                              generated board engine (pz/blocks/small_space.hpp).
// Positions: blocks_positions.cpp; solving: blocks_solve.cpp; the traits the
// engines are specialised with: compiler/codegen/blocks/.
#pragma once

#include <filesystem>

#include "compiler/driver/backend.hpp"

namespace pz::driver {

class BlocksBackend : public Backend {
public:
    const char* family() const override { return "sliding-block puzzle"; }
    const char* solveUsage() const override;
    // pzc check DEF [--level FILE]... [--json]: the rules, each solver, the
    // reachable states (a formula, or counted for each level).
    int check(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const Args& args) const override;
    int solve(pipeline::CompilationUnit& unit, const Args& args) const override;
    int build(pipeline::CompilationUnit& unit, const std::string& output, const std::string& solver) const override;
    int inspect(pipeline::CompilationUnit& unit, const InspectRequest& request) const override;
    // pzc run DEF MOVES: the moves applied to the start (or solved) board, as a picture.
    int run(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const std::string& sequence) const override;
    // pzc draw DEF [--state S | --level FILE] [--scramble M] [--solution M] (blocks_draw.cpp)
    int draw(pipeline::CompilationUnit& unit, const DrawRequest& request) const override;
    // pzc enumerate DEF --whole: an n-puzzle's distances (blocks_enumerate.cpp)
    int enumerate(pipeline::CompilationUnit& unit, const EnumerateRequest& request) const override;
    // pzc generate DEF -o DIR --name NAME [--solver S]... [--level FILE]... (blocks_generate.cpp)
    int generate(pipeline::CompilationUnit& unit, const GenerateRequest& request) const override;
};

// The pictures of a web package (pzc build --target wasm; blocks_web.cpp):
// solved.svg (n-puzzles) or levels/NAME.svg (other boards: the levels of
// `levelFiles`, else the definition's) in `dir`; `picture` gets the
// manifest's "picture" entry. Returns an exit code.
int writeBlocksWebPictures(pipeline::CompilationUnit& unit, const std::string& file, const std::vector<std::string>& levelFiles,
                           const std::filesystem::path& dir, std::string& picture);

}  // namespace pz::driver
