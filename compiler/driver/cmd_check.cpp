// pzc check FILE [options]: parse, validate and analyse a definition and
// print its summary. The definition is loaded here; what is checked and
// printed is the back end's (note [back ends]): PermutationBackend::check,
// GridBackend::check.
#include <iostream>

#include "compiler/driver/backend.hpp"

namespace pz::driver {

int runCheck(const Args& args) {
    if (args.empty() || args[0] == "--help") {
        std::cerr << "usage: pzc check FILE [--json]\n";
        return args.empty() ? 2 : 0;
    }
    // The file is the first argument that is not an option (nor the value
    // of --level); the rest go to the back end unchanged.
    std::string file;
    Args rest;
    for (size_t i = 0; i < args.size(); ++i) {
        if (file.empty() && args[i].rfind("--", 0) != 0 && (i == 0 || args[i - 1] != "--level")) {
            file = args[i];
            continue;
        }
        rest.push_back(args[i]);
    }
    if (file.empty()) {
        std::cerr << "usage: pzc check FILE [--json]\n";
        return 2;
    }
    // Parse and lower (all front-end errors reported at once); the warnings
    // are printed with the back end's diagnostics.
    DiagnosticEngine diags;
    pipeline::CompilationUnit unit(file);
    if (!unit.load(diags)) {
        diags.print(std::cerr);
        return 1;
    }
    return backendFor(unit).check(unit, diags, rest);
}

}  // namespace pz::driver
