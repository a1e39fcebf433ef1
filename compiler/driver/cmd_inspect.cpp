// pzc inspect FILE [--header] [--solver NAME]: what the code generator
// decided for FILE (the back end's inspect, note [back ends]).
#include "compiler/driver/backend.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

int runInspect(const Args& args) {
    std::vector<std::string> files;
    InspectRequest request;
    OptionParser options("inspect", "usage: pzc inspect FILE [--header] [--solver NAME]\n");
    options.positionals(files, 1, 1, "FILE").flag("--header", request.header).value("--solver", request.solver);
    if (auto rc = options.parse(args)) return *rc;
    pipeline::CompilationUnit unit(files[0]);
    if (!loadUnit(unit)) return 1;
    return backendFor(unit).inspect(unit, request);
}

}  // namespace pz::driver
