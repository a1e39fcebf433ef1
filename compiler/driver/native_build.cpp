#include "compiler/driver/native_build.hpp"

#include "compiler/driver/subprocess.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace fs = std::filesystem;

namespace pz::driver {

std::string cacheDirectory() {
    if (const char* d = std::getenv("PZC_CACHE_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/pzc";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/pzc";
    return "/tmp/pzc-cache";
}

std::string runtimeIncludeDir() {
    if (const char* d = std::getenv("PZC_RUNTIME_INCLUDE"); d && *d) return d;
    return std::string(PZ_SOURCE_DIR) + "/runtime/include";
}

// A digest of every file under the runtime include directory (sorted by path).
static std::string runtimeHeadersDigest() {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(runtimeIncludeDir(), ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file()) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    std::string all;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        all += f.filename().string() + "\n";
        all.append(std::istreambuf_iterator<char>(in), {});
    }
    return contentHash(all);
}

std::optional<std::string> buildNative(const NativeBuild& build, DiagnosticEngine& diags,
                                       const std::string& outputPath) {
    const char* cxxEnv = std::getenv("CXX");
    std::string cxx = cxxEnv && *cxxEnv ? cxxEnv : "c++";
    std::vector<std::string> flags = {"-std=c++20", "-O3", "-march=native", "-DNDEBUG",
                                      "-I" + runtimeIncludeDir(), "-pthread"};
    for (const auto& f : build.extraFlags) flags.push_back(f);

    // The key covers the compiler, the flags, the source and every runtime
    // header the source may include, so a changed runtime is a new binary.
    std::string keyText = cxx + "\n" + runtimeHeadersDigest() + "\n";
    for (const auto& f : flags) keyText += f + "\n";
    keyText += build.source;
    std::string key = build.stem + "-" + contentHash(keyText);

    std::error_code ec;
    fs::path dir = fs::path(cacheDirectory()) / "bin";
    fs::create_directories(dir, ec);
    if (ec) {
        diags.error(dir.string(), {}, "cannot create cache directory: " + ec.message());
        return std::nullopt;
    }
    fs::path bin = dir / key;
    if (!fs::exists(bin)) {
        std::string tag = std::to_string(::getpid());
        fs::path src = dir / (key + "." + tag + ".cpp");
        fs::path tmp = dir / (key + "." + tag + ".tmp");
        fs::path log = dir / (key + "." + tag + ".log");
        {
            std::ofstream out(src, std::ios::binary);
            out << build.source;
            if (!out) {
                diags.error(src.string(), {}, "cannot write generated source");
                return std::nullopt;
            }
        }
        // The compiler runs without a shell: an argument vector, output to the log.
        ChildRun run;
        run.argv.push_back(cxx);
        run.argv.insert(run.argv.end(), flags.begin(), flags.end());
        run.argv.insert(run.argv.end(), {src.string(), "-o", tmp.string()});
        run.searchPath = true;
        run.outputFile = log.string();
        ChildStatus rc = runChild(run);
        if (!rc.exited() || rc.exitCode() != 0 || !fs::exists(tmp)) {
            std::ifstream in(log);
            std::stringstream ss;
            ss << in.rdbuf();
            diags.error(src.string(), {}, "the C++ compiler failed on generated code:\n" + ss.str());
            fs::remove(tmp, ec);
            fs::remove(log, ec);
            return std::nullopt;
        }
        fs::remove(log, ec);
        fs::rename(tmp, bin, ec);  // atomic publish
        fs::rename(src, dir / (key + ".cpp"), ec);
        if (ec) fs::remove(src, ec);
    }
    if (!outputPath.empty()) {
        fs::copy_file(bin, outputPath, fs::copy_options::overwrite_existing, ec);
        if (ec) {
            diags.error(outputPath, {}, "cannot write output: " + ec.message());
            return std::nullopt;
        }
    }
    return bin.string();
}

}  // namespace pz::driver
