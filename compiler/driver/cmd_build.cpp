// pzc build FILE -o BIN: generate the specialised solver for FILE, compile it
// with the system compiler against the runtime headers, and write BIN (the
// back end's build, note [back ends]). With --shared: a solver plugin
// (note [solver plugins]).
#include <iostream>

#include "compiler/codegen/code_writer.hpp"
#include "compiler/driver/backend.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/web/web_package.hpp"

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

int buildShared(pipeline::CompilationUnit& unit, const std::string& output, GenerateRequest request) {
    codegen::LibrarySources sources;
    request.name = request.ns = kLibraryName;
    request.capture = &sources;
    request.command = "build";
    if (int rc = backendFor(unit).generate(unit, request)) return rc;
    NativeBuild build;
    build.source = codegen::libraryTranslationUnit(sources, kLibraryName) + kPluginEntry;
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
    std::string output, solver, target = "native";
    bool shared = false, tables = false;
    GenerateRequest request;
    OptionParser options("build",
                         "usage: pzc build FILE -o BIN [--solver NAME]\n"
                         "       pzc build FILE --shared [-o LIB] [--solver NAME]... [--level FILE | --levels DIR]...\n"
                         "--shared: a solver plugin (pz/plugin.hpp) holding every declared solver, or those named;\n"
                         "          without -o, prints the cached plugin's path\n"
                         "       pzc build FILE --target wasm -o DIR [--solver NAME]... [--tables] [--level FILE | --levels DIR]...\n"
                         "--target wasm: a WebAssembly module and its JavaScript API for web pages (docs/web.md);\n"
                         "          --tables: ship the solvers' table files (built natively) instead of building them in the page\n");
    options.positionals(files, 1, 1, "FILE")
        .value("-o", output)
        .value("--output", output)
        .values("--solver", request.solvers)
        .flag("--shared", shared)
        .value("--target", target)
        .flag("--tables", tables)
        .values("--level", request.levelFiles)
        .values("--levels", request.levelDirs);
    options.exclusive({"-o", "--output"});
    if (auto rc = options.parse(args)) return *rc;
    if (target != "native" && target != "wasm") return options.fail("--target is native or wasm, not '" + target + "'");
    const bool wasm = target == "wasm";
    if (wasm && shared) return options.fail("--shared is a native plugin; --target wasm writes a web package");
    if (tables && !wasm) return options.fail("--tables needs --target wasm");
    if (wasm && output.empty()) return options.fail("-o DIR is required");
    if (!shared && !wasm) {
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
    if (wasm) {
        WebPackageRequest web;
        web.file = file;
        web.outputDir = output;
        web.solvers = request.solvers;
        web.tables = tables;
        web.levelFiles = request.levelFiles;
        web.levelDirs = request.levelDirs;
        return buildWebPackage(unit, web);
    }
    return backendFor(unit).build(unit, output, solver);
}

}  // namespace pz::driver
