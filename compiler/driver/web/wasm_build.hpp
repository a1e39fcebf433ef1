// Compiling a generated library to WebAssembly with Emscripten (note
// [webassembly target] in wasm_build.cpp).
#pragma once
#include <optional>
#include <string>

#include "dsl/diagnostics.hpp"

namespace pz::driver {

// Emscripten's C++ compiler: $PZC_EMXX, else em++ from $PATH; nullopt when
// there is none.
std::optional<std::string> emscriptenCompiler();

// Compiles the translation unit `source` (a generated library followed by
// pz/web/wasm_api.hpp) into `dir`/solver.mjs and `dir`/solver.wasm, or
// copies them from the cache of earlier builds of the same source. False
// (with an error in `diags`) when the compiler is missing or fails.
bool buildWasm(const std::string& source, const std::string& dir, DiagnosticEngine& diags);

}  // namespace pz::driver
