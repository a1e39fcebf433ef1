// pzc solve FILE [options]: solve positions (permutation puzzles) or levels
// (grid-actor puzzles). The definition is loaded here; the options and the
// solving are the back end's (note [back ends]): PermutationBackend::solve,
// GridBackend::solve.
#include <iostream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/timeline.hpp"

namespace pz::driver {

int runSolve(const Args& args) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::ostream& out = args.empty() ? std::cerr : std::cout;
        const auto all = allBackends();
        for (size_t i = 0; i < all.size(); ++i)
            out << (i ? "\n" : "") << (all.size() > 1 ? std::string(all[i]->family()) + "s:\n" : "")
                << all[i]->solveUsage();
        return args.empty() ? 2 : 0;
    }
    pipeline::CompilationUnit unit(args[0]);
    if (!loadUnit(unit)) return 1;
    timeline::mark("definition");
    return backendFor(unit).solve(unit, args);
}

}  // namespace pz::driver
