#include "compiler/driver/web/wasm_build.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/analysis/content_hash.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/subprocess.hpp"

namespace pz::driver {

namespace fs = std::filesystem;

// note [webassembly target]
// `pzc build FILE --target wasm -o DIR` compiles the library `pzc generate`
// would write, plus pz/web/wasm_api.hpp (the API as exported C functions
// answering JSON), with Emscripten into an ES module and its .wasm. Choices:
// - no threads (-pthread would need cross-origin isolation on every page
//   that loads it): the solver runs on one thread, in a Web Worker;
// - -fwasm-exceptions: the runtime throws (bad_alloc, bad input deep in a
//   parser) and catches; Emscripten's default turns a throw into an abort,
//   and its JavaScript exceptions cost on every call that may throw;
// - memory grows up to 2 GiB (the 32-bit heap's practical limit in
//   browsers); tables are refused at build time beyond that;
// - -O3 without -march: the portable WebAssembly instruction set (SIMD is
//   left out: not every browser a user has runs it).
// Emscripten 3.1.6's libc++ lacks std::atomic_ref (pz/support/atomic_ref.hpp
// stands in) and <format> (the runtime does not use it).
// The outputs are cached under <cache>/wasm/<key>/ like native binaries,
// keyed by the source, the runtime headers and the compiler's version.

namespace {

std::optional<std::string> findOnPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
        fs::path p = fs::path(d.empty() ? "." : d) / name;
        if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
    return std::nullopt;
}

const std::vector<std::string>& wasmFlags() {
    static const std::vector<std::string> flags = {
        "-std=c++20", "-O3", "-fwasm-exceptions", "-DNDEBUG",
        "-sMODULARIZE=1", "-sEXPORT_ES6=1", "-sEXPORT_NAME=createSolverModule",
        "-sENVIRONMENT=web,worker", "-sALLOW_MEMORY_GROWTH=1", "-sMAXIMUM_MEMORY=2GB",
        "-sINITIAL_MEMORY=32MB", "-sFORCE_FILESYSTEM=1",
        "-sEXPORTED_RUNTIME_METHODS=FS,ccall,UTF8ToString",
    };
    return flags;
}

// The compiler's version line, part of the cache key.
std::string compilerVersion(const std::string& emxx) {
    std::string first;
    ChildRun run;
    run.argv = {emxx, "--version"};
    run.onLine = [&](const std::string& line) {
        if (first.empty()) first = line;
    };
    runChildOrDie(run);
    return first;
}

}  // namespace

std::optional<std::string> emscriptenCompiler() {
    if (const char* e = std::getenv("PZC_EMXX"); e && *e) return std::string(e);
    return findOnPath("em++");
}

bool buildWasm(const std::string& source, const std::string& dir, DiagnosticEngine& diags) {
    auto emxx = emscriptenCompiler();
    if (!emxx) {
        diags.error("em++", {},
                    "pzc build --target wasm needs Emscripten's em++ (Debian: apt install emscripten), or $PZC_EMXX");
        return false;
    }
    auto runtime = runtimeIncludeDir();
    if (!runtime) {
        diags.error("pzc", {}, "cannot find the runtime headers (set PZC_RUNTIME_INCLUDE)");
        return false;
    }
    std::string keyText = compilerVersion(*emxx) + "\n" + runtimeHeadersDigest() + "\n";
    for (const auto& f : wasmFlags()) keyText += f + "\n";
    keyText += source;
    std::error_code ec;
    const fs::path cache = fs::path(cacheDirectory()) / "wasm";
    const fs::path entry = cache / contentHash(keyText);
    const char* kFiles[] = {"solver.mjs", "solver.wasm"};
    auto complete = [&](const fs::path& d) {
        for (const char* f : kFiles)
            if (!fs::is_regular_file(d / f, ec) || fs::file_size(d / f, ec) == 0) return false;
        return true;
    };
    if (!complete(entry)) {
        const fs::path work = cache / (entry.filename().string() + ".tmp." + std::to_string(::getpid()));
        fs::remove_all(work, ec);
        fs::create_directories(work, ec);
        if (ec) {
            diags.error(work.string(), {}, "cannot create cache directory: " + ec.message());
            return false;
        }
        const fs::path src = work / "solver.cpp", log = work / "em++.log";
        {
            std::ofstream out(src, std::ios::binary);
            out << source;
            if (!out.flush()) {
                diags.error(src.string(), {}, "cannot write generated source");
                return false;
            }
        }
        ChildRun run;
        run.argv = {*emxx};
        run.argv.insert(run.argv.end(), wasmFlags().begin(), wasmFlags().end());
        run.argv.insert(run.argv.end(), {"-I" + *runtime, src.string(), "-o", (work / "solver.mjs").string()});
        run.outputFile = log.string();
        // Debian's Emscripten runs its JavaScript tools under the system's
        // node, whose own search path may miss Debian's node modules (acorn).
        std::string nodePath = "/usr/share/nodejs";
        if (const char* np = std::getenv("NODE_PATH"); np && *np) nodePath = std::string(np) + ":" + nodePath;
        ::setenv("NODE_PATH", nodePath.c_str(), 1);
        ChildStatus rc = runChild(run);
        if (rc.interrupted) {
            fs::remove_all(work, ec);
            dieOfSignal(rc.interrupted);
        }
        if (!rc.exited() || rc.exitCode() != 0 || !complete(work)) {
            const std::string first = firstCompilerError(log);
            diags.error(entry.string(), {},
                        "internal error: Emscripten (" + *emxx + ") " +
                            (rc.started ? rc.describe() : "could not be run: " + rc.startError) +
                            " on the generated code" + (first.empty() ? "" : ": " + first) + "; full output in " +
                            log.string());
            return false;
        }
        fs::remove(log, ec);
        fs::rename(work, entry, ec);  // atomic publish; another process may have won
        if (ec) fs::remove_all(work, ec);
        if (!complete(entry)) {
            diags.error(entry.string(), {}, "cannot publish the WebAssembly build in the cache");
            return false;
        }
    }
    fs::create_directories(dir, ec);
    for (const char* f : kFiles) {
        fs::copy_file(entry / f, fs::path(dir) / f, fs::copy_options::overwrite_existing, ec);
        if (ec) {
            diags.error((fs::path(dir) / f).string(), {}, "cannot write output: " + ec.message());
            return false;
        }
    }
    return true;
}

}  // namespace pz::driver
