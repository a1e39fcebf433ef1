// pzc build FILE -o BIN: generate the specialised solver for FILE, compile it
// with the system compiler against the runtime headers, and write BIN (the
// back end's build, note [back ends]). With --shared: a solver plugin
// (note [solver plugins]).
#include <iostream>

#include "compiler/codegen/code_writer.hpp"
#include "compiler/driver/backend.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

namespace {

// note [solver plugins]
// `pzc build FILE --shared [-o LIB]` compiles the library `pzc generate`
// would write (every declared solver, or --solver's) into a shared object
// with the entry points of pz/plugin.hpp, for programs that load solvers at
// run time (the Python module). It goes through the same binary cache as
// the solvers, keyed by its source: a second build of an unchanged
// definition is a cache hit. Without -o the cached path is printed, and the
// loader maps that file (the cache only ever replaces a file by renaming a
// new one over it, so a mapped plugin is never written).
constexpr const char* kLibraryName = "pzplugin";

constexpr const char* kPluginEntry = R"(
// The plugin's entry points (pz/plugin.hpp; note [solver plugins] in pzc).
#include <algorithm>
#include <cstring>
#include <exception>

#include "pz/plugin.hpp"

namespace {
void pzPluginError(const std::string& message, char* error, size_t size) {
    if (!error || size == 0) return;
    const size_t n = std::min(message.size(), size - 1);
    std::memcpy(error, message.data(), n);
    error[n] = '\0';
}
}  // namespace

#define PZ_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

PZ_PLUGIN_EXPORT uint64_t pz_plugin_abi() { return pz::plugin::abiFingerprint(); }

PZ_PLUGIN_EXPORT const char* pz_plugin_solvers() {
    static const std::string list = [] {
        std::string s = std::string(pzplugin::kPuzzle) + "\n";
        for (const char* name : pzplugin::kSolvers) s += std::string(name) + "\n";
        return s;
    }();
    return list.c_str();
}

PZ_PLUGIN_EXPORT pz::api::Solver* pz_plugin_make_solver(const char* solver, const pz::api::SolverOptions* options,
                                                        char* error, size_t errorSize) {
    try {
        auto made = pzplugin::makeSolver(options ? *options : pz::api::SolverOptions{}, solver ? solver : "");
        if (!made) {
            pzPluginError(made.error().message, error, errorSize);
            return nullptr;
        }
        return made.value().release();
    } catch (const std::exception& e) {  // nothing may unwind into the loader
        pzPluginError(std::string("internal error: ") + e.what(), error, errorSize);
        return nullptr;
    }
}
)";

// The library's two files as one translation unit: the header in place of
// its #include (without its #pragma once), then the plugin's entry points.
std::string pluginSource(const codegen::LibrarySources& sources) {
    std::string header = sources.header, source = sources.source;
    const std::string pragma = "#pragma once\n";
    if (auto at = header.find(pragma); at != std::string::npos) header.erase(at, pragma.size());
    const std::string include = "#include " + codegen::stringLiteral(std::string(kLibraryName) + ".hpp") + "\n";
    if (auto at = source.find(include); at != std::string::npos) source.replace(at, include.size(), header);
    else source = header + source;
    return source + kPluginEntry;
}

int buildShared(pipeline::CompilationUnit& unit, const std::string& output, GenerateRequest request) {
    codegen::LibrarySources sources;
    request.name = request.ns = kLibraryName;
    request.capture = &sources;
    if (int rc = backendFor(unit).generate(unit, request)) return rc;
    NativeBuild build;
    build.source = pluginSource(sources);
    build.stem = "plugin-" + unit.puzzle().name;
    build.shared = true;
    DiagnosticEngine diags;
    auto lib = buildNative(build, diags, output);
    diags.print(std::cerr);
    if (!lib) return 1;
    if (output.empty()) std::cout << *lib << "\n";
    return 0;
}

}  // namespace

int runBuild(const Args& args) {
    std::vector<std::string> files;
    std::string output, solver;
    bool shared = false;
    GenerateRequest request;
    OptionParser options("build",
                         "usage: pzc build FILE -o BIN [--solver NAME]\n"
                         "       pzc build FILE --shared [-o LIB] [--solver NAME]... [--level FILE | --levels DIR]...\n"
                         "--shared: a solver plugin (pz/plugin.hpp) holding every declared solver, or those named;\n"
                         "          without -o, prints the cached plugin's path\n");
    options.positionals(files, 1, 1, "FILE")
        .value("-o", output)
        .value("--output", output)
        .values("--solver", request.solvers)
        .flag("--shared", shared)
        .values("--level", request.levelFiles)
        .values("--levels", request.levelDirs);
    options.exclusive({"-o", "--output"});
    if (auto rc = options.parse(args)) return *rc;
    if (!shared) {
        if (output.empty()) return options.fail("-o BIN is required");
        if (request.solvers.size() > 1) return options.fail("--solver is given once (a binary holds one solver)");
        if (!request.levelFiles.empty() || !request.levelDirs.empty()) return options.fail("--level and --levels need --shared");
        if (!request.solvers.empty()) solver = request.solvers[0];
    }
    const std::string& file = files[0];
    if (!output.empty() && sameFile(file, output)) return options.fail("-o " + output + " would overwrite the definition " + file);
    pipeline::CompilationUnit unit(file);
    if (!loadUnit(unit)) return 1;
    if (shared) return buildShared(unit, output, request);
    return backendFor(unit).build(unit, output, solver);
}

}  // namespace pz::driver
