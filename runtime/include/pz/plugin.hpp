// pz/plugin.hpp — the entry points of a solver plugin: a shared object that
// `pzc build FILE --shared` makes from a solver library (docs/library.md,
// Python), and that a program loads with dlopen (the Python module _pzc).
//
// The plugin exports three C functions; everything else it holds is hidden.
// C++ objects (pz::api::Solver and what it returns) cross the boundary, so
// loader and plugin must be built by the same compiler against the same
// pz/api headers: pz_plugin_abi() returns abiFingerprint() as the plugin
// saw it, and a loader that computes another refuses the plugin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "pz/api/solver.hpp"

namespace pz::plugin {

// Raised by hand when the entry points' meaning changes.
inline constexpr uint64_t kAbiVersion = 1;

// The version and the layout of every type that crosses the boundary: a
// plugin built against other pz/api headers (a type grew a field) differs.
constexpr uint64_t abiFingerprint() {
    uint64_t h = kAbiVersion;
    for (uint64_t s : {sizeof(api::Solver), sizeof(api::SolverOptions), sizeof(api::Position), sizeof(api::Limits),
                       sizeof(api::Solution), sizeof(api::PuzzleInfo), sizeof(api::SolverInfo), sizeof(api::OrbitInfo),
                       sizeof(api::Error), sizeof(api::Result<api::Position>), sizeof(api::Result<api::Solution>),
                       sizeof(api::Status), sizeof(std::string), sizeof(std::vector<int>)})
        h = h * 1000003u + s;
    return h;
}

// uint64_t pz_plugin_abi(void): abiFingerprint() of the plugin.
using AbiFn = uint64_t (*)();
// const char* pz_plugin_solvers(void): the puzzle's name, then its solvers
// (the default first), one a line.
using SolversFn = const char* (*)();
// pz::api::Solver* pz_plugin_make_solver(solver, options, error, errorSize):
// a new solver (delete it), or null with the message in `error` (the
// factory's, as the command line prints it: an unknown solver name).
using MakeSolverFn = api::Solver* (*)(const char* solver, const api::SolverOptions* options, char* error,
                                      size_t errorSize);

inline constexpr const char* kAbiSymbol = "pz_plugin_abi";
inline constexpr const char* kSolversSymbol = "pz_plugin_solvers";
inline constexpr const char* kMakeSolverSymbol = "pz_plugin_make_solver";

}  // namespace pz::plugin
