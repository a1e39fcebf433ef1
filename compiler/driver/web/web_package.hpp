// `pzc build FILE --target wasm -o DIR`: a folder a web page loads a solver
// from (note [web package] in web_package.cpp; docs/web.md).
#pragma once
#include <string>
#include <vector>

#include "compiler/pipeline/compilation_unit.hpp"

namespace pz::driver {

struct WebPackageRequest {
    std::string file;                  // the definition as given
    std::string outputDir;             // -o DIR
    std::vector<std::string> solvers;  // --solver; none: the default solver
    bool tables = false;               // --tables: ship the table files (built natively) for the page to fetch
    std::vector<std::string> levelFiles, levelDirs;  // grid-actor puzzles: the levels compiled in
};

// Runs a solver binary (argv[0]) that prepares solver `solverName`'s tables
// for a web package, its output discarded; false after an error on stderr.
bool runTablePreparer(std::vector<std::string> argv, const std::string& solverName);

// Writes the folder; 0, or the exit code after an error on stderr.
int buildWebPackage(pipeline::CompilationUnit& unit, const WebPackageRequest& request);

}  // namespace pz::driver
