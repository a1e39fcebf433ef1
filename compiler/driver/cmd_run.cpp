// pzc run FILE [SEQUENCE]: apply a move sequence to the solved state with the
// reference interpreter and print the resulting state, whether it is solved
// and its order as a group element (the back end's run, note [back ends]).
#include <iostream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

int runRun(const Args& args) {
    std::vector<std::string> words;
    OptionParser options("run", "usage: pzc run FILE [\"SEQUENCE\"]   e.g. pzc run puzzles/cube3.pz \"R U R' U'\"\n");
    options.positionals(words, 1, 2, "FILE");
    if (auto rc = options.parse(args)) return *rc;
    // Parse and lower the definition; its warnings are printed with the sequence's.
    DiagnosticEngine diags;
    pipeline::CompilationUnit unit(words[0]);
    if (!unit.load(diags)) {
        diags.print(std::cerr);
        return 1;
    }
    return backendFor(unit).run(unit, diags, words.size() > 1 ? words[1] : "");
}

}  // namespace pz::driver
