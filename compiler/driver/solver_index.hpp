// The solver index: from a definition's bytes straight to its cached solver,
// so that a one-shot `pzc solve` on a cached solver skips the analyses.
//
// note [solver index]
// Building the solver model (Schreier–Sims, the canonical automaton, the
// coordinates, the emitted C++) costs far more than a short search, and it
// is only needed to find the cached binary (native_build keys binaries by
// their source). The index keys the binary instead by what determines that
// source and its compilation, all cheap to read:
//   pzc's own build id (a new pzc may emit other code), the definition's
//   path (named in the generated banner) and bytes, the solver variant
//   (default or a phased solver), the C++ compiler ($CXX), its flags
//   (PZC_MARCH) and the digest of the runtime headers (PZC_RUNTIME_INCLUDE
//   may point elsewhere).
// CACHE/index/KEY holds "pzc-solver-index 1", the binary's name under
// CACHE/bin and the searched moves (the metric's moves, in the solver's
// order), which is all that replay needs beyond the lowered puzzle.
// A hit is used only when the binary still matches its build stamp (note
// [build stamps]); anything else (no entry, a damaged entry or binary) takes
// the full path, which rebuilds what is missing and rewrites the entry.
// Validation is never skipped: --state inputs are still checked for
// membership (the analysis is built for them), and every solution is
// replayed against pzc's own position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pz::driver {

struct IndexedSolver {
    std::string binary;             // absolute path of the cached, stamped binary
    std::vector<int> searchMoves;   // solver move number -> puzzle move index
};

// The key of a definition (its path and exact bytes) and solver variant.
std::string solverIndexKey(const std::string& file, const std::string& definitionBytes, const std::string& variant);

// The solver recorded under `key`, if its entry reads back and its binary is intact.
std::optional<IndexedSolver> lookupIndexedSolver(const std::string& key);

// Records `solver` under `key` (atomically; failures are ignored: the index
// is only a shortcut).
void recordIndexedSolver(const std::string& key, const IndexedSolver& solver);

// Numbers derived from a definition that cost an analysis (the bytes of its
// optimal solvers' tables, note [memory choice]), kept under `key` like a
// solver: "pzc-solver-index 1", "numbers N n1 ... nN", "end".
std::optional<std::vector<uint64_t>> lookupIndexedNumbers(const std::string& key);
void recordIndexedNumbers(const std::string& key, const std::vector<uint64_t>& numbers);

// This pzc's identity: its GNU build id, else a digest of its executable.
const std::string& pzcBuildId();

}  // namespace pz::driver
