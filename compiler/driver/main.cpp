// pzc — the puzzle compiler driver. Dispatches to one subcommand; every
// subcommand is a pipeline over: parse (dsl/) -> lower (compiler/ir) ->
// analyse (compiler/analysis) -> interpret or generate (interp/, codegen/).
#include <algorithm>
#include <cstring>
#include <iostream>

#include "compiler/driver/commands.hpp"

namespace pz::driver {
// Defined in cmd_<name>.cpp.
int runCheck(const Args&);
int runConvert(const Args&);
int runRun(const Args&);
int runSolveLevels(const Args&);  // cmd_grid.cpp
int runBuild(const Args&);
int runSolve(const Args&);
int runInspect(const Args&);
}  // namespace pz::driver

namespace {

using namespace pz::driver;

const Command kCommands[] = {
    {"check", "parse, validate and analyse a definition; print its summary", runCheck},
    {"convert", "convert a definition between .pz and YAML (--to yaml|pz)", runConvert},
    {"run", "apply a move sequence with the reference interpreter; print the state", runRun},
    {"solve-dir", "solve every level in a folder (grid puzzles); print a table", runSolveLevels},
    {"build", "generate and compile the specialised solver (-o BIN)", runBuild},
    {"solve", "solve positions optimally with the generated solver", runSolve},
    {"inspect", "show the generated layout, kernels, canonical tables, coordinates", runInspect},
};

void usage(std::ostream& out) {
    out << "usage: pzc <command> [args]\n\ncommands:\n";
    size_t width = 0;
    for (const auto& c : kCommands) width = std::max(width, std::strlen(c.name));
    for (const auto& c : kCommands)
        out << "  " << c.name << std::string(width + 2 - std::strlen(c.name), ' ') << c.summary << '\n';
    out << "\nRun 'pzc <command> --help' for the options of one command.\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        usage(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? 2 : 0;
    }
    Args args(argv + 2, argv + argc);
    for (const auto& c : kCommands)
        if (!std::strcmp(argv[1], c.name)) return c.run(args);
    std::cerr << "pzc: error: unknown command '" << argv[1] << "'\n";
    usage(std::cerr);
    return 2;
}
