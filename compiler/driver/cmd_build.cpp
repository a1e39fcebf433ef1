// pzc build FILE -o BIN: generate the specialised solver for FILE, compile it
// with the system compiler against the runtime headers, and write BIN.
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/perm_build.hpp"

namespace pz::driver {

int runBuild(const Args& args) {
    std::vector<std::string> files;
    std::string output;
    OptionParser options("build", "usage: pzc build FILE -o BIN\n");
    options.positionals(files, 1, 1, "FILE").value("-o", output).value("--output", output).exclusive({"-o", "--output"});
    if (auto rc = options.parse(args)) return *rc;
    if (output.empty()) return options.fail("-o BIN is required");
    const std::string& file = files[0];
    if (sameFile(file, output)) return options.fail("-o " + output + " would overwrite the definition " + file);
    pipeline::CompilationUnit unit(file);
    if (!loadUnit(unit)) return 1;
    if (unit.isGrid()) {
        std::cerr << "pzc build: error: " << unit.puzzle().name
                  << " is a grid-actor puzzle; use 'pzc solve FILE --level LEVEL'\n";
        return 1;
    }
    // Plan, emit C++ and compile it with the runtime in one step.
    if (!compileSolver(unit, -1, output)) return 1;
    std::cout << "wrote " << output << " (run '" << output << " --help' for its options)\n";
    return 0;
}

}  // namespace pz::driver
