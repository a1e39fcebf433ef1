// Compiling generated C++ into a native solver, with a content-addressed
// cache: the same source and flags are compiled once per machine.
//
// Cache directory: $PZC_CACHE_DIR, else $XDG_CACHE_HOME/pzc, else ~/.cache/pzc.
// A binary is published by an atomic rename, so a concurrent or interrupted
// build never leaves a half-written file under the final name.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/content_hash.hpp"
#include "dsl/diagnostics.hpp"

namespace pz::driver {

std::string cacheDirectory();

// Feeds a file's bytes to `h` in chunks (false when it cannot be read);
// `size` gets its length. The cached binary's stamp check and the runtime
// digest hash hundreds of KiB on every one-shot solve: a string of them
// cost several ms of page faults.
bool hashFileInto(const std::string& path, ContentHasher& h, uintmax_t& size);

struct NativeBuild {
    std::string source;                   // the translation unit
    std::vector<std::string> extraFlags;  // appended to the compiler flags
    std::string stem = "solver";          // readable part of the file name
    // A shared object (-shared -fPIC, libstdc++ linked dynamically) instead
    // of an executable: note [solver plugins] in cmd_build.cpp.
    bool shared = false;
    // Linked after the source. A build with libraries links dynamically (no
    // -static): the MPI of pzc enumerate --mpi ships shared libraries only.
    std::vector<std::string> libraries;
};

// Compiles `build` to an executable (or reuses the cached one) and returns its
// path. On failure reports the compiler's output as an error and returns
// nullopt. `outputPath`, when given, receives a copy of the binary.
std::optional<std::string> buildNative(const NativeBuild& build, DiagnosticEngine& diags,
                                       const std::string& outputPath = "");

// The runtime's include directory (the folder holding pz/), for generated
// code: $PZC_RUNTIME_INCLUDE, else found from pzc's own location (note
// [finding the runtime] in native_build.cpp). nullopt when none is found;
// `searched`, when given, then receives what was searched, for an error.
std::optional<std::string> runtimeIncludeDir(std::string* searched = nullptr);

// A digest of every file under runtimeIncludeDir(): part of every cache key.
std::string runtimeHeadersDigest();

// The first line of a compiler's log that says "error", shortened (for a
// one-line internal error; the log keeps the rest).
std::string firstCompilerError(const std::filesystem::path& log);

// The C++ compiler generated code is built with ($CXX, else c++).
std::string nativeCompiler();

// The compiler flags of generated code (-march from $PZC_MARCH, default
// native); nullopt with an error in `diags` when PZC_MARCH is not a -march=
// value or the runtime headers cannot be found.
// `shared`: the flags of a shared object (NativeBuild::shared).
std::optional<std::vector<std::string>> nativeFlags(DiagnosticEngine& diags, bool shared = false);

// Whether the cached binary `bin` matches its build stamp (note [build
// stamps]); the reason in `why` when it does not.
bool cachedBinaryIntact(const std::string& bin, std::string& why);

}  // namespace pz::driver
