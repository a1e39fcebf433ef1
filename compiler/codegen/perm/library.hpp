// A permutation puzzle's solver library (note [library sources] in
// compiler/codegen/library.hpp).
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis/perm/solver_model.hpp"
#include "compiler/codegen/library.hpp"

namespace pz::codegen {

// One solver of the library: its model (an optimal solver's own, or the
// default model), the default model, and a phased solver's plan (else null).
struct PermLibraryPart {
    LibrarySolver solver;
    const analysis::SolverModel* model = nullptr;
    const analysis::SolverModel* defaultModel = nullptr;
    const analysis::SolverPlan* plan = nullptr;
};

// The library's header and source; `parts` the default solver first.
LibrarySources emitPermLibrary(const std::string& name, const std::string& ns, const std::string& source,
                               const std::vector<PermLibraryPart>& parts);

}  // namespace pz::codegen
