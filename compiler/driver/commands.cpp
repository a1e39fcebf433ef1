// The table of pzc subcommands (commands.hpp), shared by main.cpp and the
// command-line fuzzer.
#include "compiler/driver/commands.hpp"

namespace pz::driver {

// Defined in cmd_<name>.cpp.
int runCheck(const Args&);
int runConvert(const Args&);
int runRun(const Args&);
int runSolveLevels(const Args&);  // cmd_solve_dir.cpp
int runBuild(const Args&);
int runGenerate(const Args&);
int runSolve(const Args&);
int runInspect(const Args&);
int runCache(const Args&);
int runDraw(const Args&);
int runEnumerate(const Args&);
int runServe(const Args&);

namespace {

const Command kCommands[] = {
    {"check", "parse, validate and analyse a definition; print its summary", runCheck},
    {"convert", "convert a definition between .pz and YAML (--to yaml|pz)", runConvert},
    {"run", "apply a move sequence with the reference interpreter; print the state", runRun},
    {"draw", "draw a position (and a solution's steps) as SVG", runDraw},
    {"solve-dir", "solve every level in a folder (grid puzzles); print a table", runSolveLevels},
    {"build", "generate and compile the specialised solver (-o BIN)", runBuild},
    {"generate", "write a solver library's C++ sources (-o DIR --name NAME), for pzc_generate()", runGenerate},
    {"solve", "solve positions optimally with the generated solver", runSolve},
    {"enumerate", "count the distances of a puzzle's or a pattern's whole space (--mpi: across ranks)", runEnumerate},
    {"inspect", "show the generated layout, kernels, canonical tables, coordinates", runInspect},
    {"cache", "list the cached solvers and tables; prune the stale ones (list|prune|clear)", runCache},
    {"serve", "serve the web page (or --root DIR) over HTTP on localhost (--port N)", runServe},
};

}  // namespace

std::span<const Command> commands() { return kCommands; }

}  // namespace pz::driver
