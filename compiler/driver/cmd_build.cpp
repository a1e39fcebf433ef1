// pzc build FILE -o BIN: generate the specialised solver for FILE, compile it
// with the system compiler against the runtime headers, and write BIN (the
// back end's build, note [back ends]).
#include <iostream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

int runBuild(const Args& args) {
    std::vector<std::string> files;
    std::string output, solver;
    OptionParser options("build", "usage: pzc build FILE -o BIN [--solver NAME]\n");
    options.positionals(files, 1, 1, "FILE").value("-o", output).value("--output", output).value("--solver", solver);
    options.exclusive({"-o", "--output"});
    if (auto rc = options.parse(args)) return *rc;
    if (output.empty()) return options.fail("-o BIN is required");
    const std::string& file = files[0];
    if (sameFile(file, output)) return options.fail("-o " + output + " would overwrite the definition " + file);
    pipeline::CompilationUnit unit(file);
    if (!loadUnit(unit)) return 1;
    return backendFor(unit).build(unit, output, solver);
}

}  // namespace pz::driver
