// pzc check FILE [--json] [--level LEVEL]: validate and analyse a definition.
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/grid_commands.hpp"
#include "compiler/ir/lower.hpp"

namespace pz::driver {

int runCheck(const Args& args) {
    if (args.empty() || args[0] == "--help") {
        std::cerr << "usage: pzc check FILE [--json]\n";
        return args.empty() ? 2 : 0;
    }
    DiagnosticEngine diags;
    auto puzzle = ir::loadPuzzle(args[0], diags);
    diags.print(std::cerr);
    if (!puzzle) return 1;
    if (puzzle->kind == ir::Puzzle::Kind::Grid) return checkGridPuzzle(*puzzle, Args(args.begin() + 1, args.end()));
    std::cout << "puzzle " << puzzle->name << ": " << puzzle->orbits.size() << " orbits, "
              << puzzle->moves.size() << " moves\n";
    return 0;
}

}  // namespace pz::driver
