// pz/api/c_handle.hpp — how a generated library hands a C++ solver to the
// C ABI (pz/pz_c.h). Link the pz_c library (CMake: pzc::c).
//
// A generated library's C factory is one call:
//
//   extern "C" int cube_solver_new(const char* name, const pz_options* o,
//                                  pz_solver** out, pz_error* err) {
//       return pz::api::newSolverC(o, out, err, [&](pz::api::SolverOptions so) {
//           return cube::makeSolver(std::move(so), name ? name : "");
//       });
//   }
#pragma once

#include <functional>
#include <memory>

#include "pz/api/solver.hpp"
#include "pz/pz_c.h"

namespace pz::api {

// A handle to `solver`, registered as live. pz_solver_cancel sets `cancel`,
// which should be the token of the solver's options (none: pz_solver_cancel
// answers PZ_UNSUPPORTED). Never null; throws std::bad_alloc.
pz_solver* wrapSolver(std::unique_ptr<Solver> solver, std::shared_ptr<CancelToken> cancel = nullptr);

using SolverFactory = std::function<Result<std::unique_ptr<Solver>>(SolverOptions)>;

// The body of a C factory: checks `out` and the options (NULL: the
// defaults), gives `make` the C++ options with a fresh cancel token, and
// wraps what it returns. Catches everything; returns a pz_code.
int newSolverC(const pz_options* options, pz_solver** out, pz_error* err, const SolverFactory& make) noexcept;

}  // namespace pz::api
