// pzc generate FILE -o DIR --name NAME [--namespace NS] [--solver NAME]...:
// the sources of a solver library other programs link (note [library
// sources] in compiler/codegen/library.hpp; cmake's pzc_generate() runs it).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

namespace {

bool isIdentifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// A C++ namespace: identifiers joined by "::".
bool isNamespace(const std::string& s) {
    size_t at = 0;
    for (;;) {
        size_t next = s.find("::", at);
        if (!isIdentifier(s.substr(at, next == std::string::npos ? std::string::npos : next - at))) return false;
        if (next == std::string::npos) return true;
        at = next + 2;
    }
}

// Writes `bytes` to `path` unless the file already holds them; false after an error on stderr.
bool writeIfChanged(const std::filesystem::path& path, const std::string& bytes) {
    {
        std::ifstream in(path, std::ios::binary);
        if (in && std::string(std::istreambuf_iterator<char>(in), {}) == bytes) return true;
    }
    const std::filesystem::path tmp = path.string() + ".tmp";
    std::ofstream out(tmp, std::ios::binary);
    out << bytes;
    out.close();
    std::error_code ec;
    if (out) std::filesystem::rename(tmp, path, ec);
    if (!out || ec) {
        std::filesystem::remove(tmp, ec);
        std::cerr << "pzc generate: error: cannot write " << path.string() << "\n";
        return false;
    }
    return true;
}

// A make-style depfile: `target: input...` (spaces escaped), for build
// systems to regenerate when a level file changes, not only the definition.
int writeDepfile(const std::string& path, const std::string& target, const std::vector<std::string>& inputs) {
    auto escape = [](const std::string& f) {
        std::string r;
        for (char c : std::filesystem::absolute(f).lexically_normal().string()) {
            if (c == ' ' || c == '#') r += '\\';
            if (c == '$') r += '$';
            r += c;
        }
        return r;
    };
    std::string text = escape(target) + ":";
    for (const auto& f : inputs) text += " " + escape(f);
    return writeIfChanged(path, text + "\n") ? 0 : 1;
}

}  // namespace

int writeLibrarySources(const GenerateRequest& request, const codegen::LibrarySources& sources) {
    if (request.capture) {
        *request.capture = sources;
        return 0;
    }
    std::error_code ec;
    std::filesystem::create_directories(request.outputDir, ec);
    if (ec) {
        std::cerr << "pzc generate: error: cannot create " << request.outputDir << ": " << ec.message() << "\n";
        return 1;
    }
    const std::filesystem::path dir(request.outputDir);
    if (!writeIfChanged(dir / (request.name + ".hpp"), sources.header)) return 1;
    if (!writeIfChanged(dir / (request.name + ".cpp"), sources.source + sources.cEntry)) return 1;
    if (!writeIfChanged(dir / (request.name + "_c.h"), sources.cHeader)) return 1;
    return 0;
}

int runGenerate(const Args& args) {
    std::vector<std::string> files;
    std::string depfile;
    GenerateRequest request;
    OptionParser options("generate",
                         "usage: pzc generate FILE -o DIR --name NAME [--namespace NS] [--solver NAME]...\n"
                         "                    [--level FILE | --levels DIR]...   (grid-actor puzzles; sliding-block boards: --level)\n"
                         "                    [--depfile FILE]   (make-style dependencies: the files read)\n"
                         "Writes DIR/NAME.hpp (the library's API: NS::makeSolver, docs/library.md), DIR/NAME.cpp and DIR/NAME_c.h (its C entry).\n");
    options.positionals(files, 1, 1, "FILE")
        .value("-o", request.outputDir)
        .value("--output", request.outputDir)
        .value("--name", request.name)
        .value("--namespace", request.ns)
        .values("--solver", request.solvers)
        .values("--level", request.levelFiles)
        .values("--levels", request.levelDirs)
        .value("--depfile", depfile);
    options.exclusive({"-o", "--output"});
    if (auto rc = options.parse(args)) return *rc;
    if (request.outputDir.empty()) return options.fail("-o DIR is required");
    if (!isIdentifier(request.name)) return options.fail("--name needs a C++ identifier (the library's files and namespace), not '" + request.name + "'");
    if (request.ns.empty()) request.ns = request.name;
    if (!isNamespace(request.ns)) return options.fail("--namespace needs a C++ namespace (a or a::b), not '" + request.ns + "'");
    pipeline::CompilationUnit unit(files[0]);
    if (!loadUnit(unit)) return 1;
    std::vector<std::string> inputs{files[0]};
    request.inputs = &inputs;
    const int rc = backendFor(unit).generate(unit, request);
    if (rc != 0 || depfile.empty()) return rc;
    return writeDepfile(depfile, (std::filesystem::path(request.outputDir) / (request.name + ".hpp")).string(), inputs);
}

}  // namespace pz::driver
