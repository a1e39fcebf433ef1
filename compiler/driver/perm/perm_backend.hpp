// The permutation-puzzle back end (note [back ends] in
// compiler/driver/backend.hpp): orbits of pieces moved by permutations.
// Its stages are the compilation unit's (note [compilation unit]); the
// emitters are compiler/codegen/perm/, the generated solvers' mains
// runtime/include/pz/solver_main.hpp and phased_main.hpp; sift solvers run
// inside pzc (note [sift solves]).
//   check.cpp    pzc check: the checks solve relies on, the summary (text, JSON)
//   solve.cpp    pzc solve: positions, the solver to run, results replayed
//   inspect.cpp  pzc inspect: the model, a phased plan, a sift table
//   perm_backend.cpp  pzc build, pzc run
//   draw.cpp     pzc draw: the schematic of a position (compiler/render)
//   enumerate.cpp  pzc enumerate: a space's distances (runtime pz/enumerate/)
//   positions.cpp  scrambles and states as the user gives them
#pragma once

#include "compiler/driver/backend.hpp"

namespace pz::driver {

class PermutationBackend : public Backend {
public:
    const char* family() const override { return "permutation puzzle"; }
    const char* solveUsage() const override;
    int check(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const Args& args) const override;
    int solve(pipeline::CompilationUnit& unit, const Args& args) const override;
    int generate(pipeline::CompilationUnit& unit, const GenerateRequest& request) const override;
    int build(pipeline::CompilationUnit& unit, const std::string& output, const std::string& solver) const override;
    int inspect(pipeline::CompilationUnit& unit, const InspectRequest& request) const override;
    int run(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const std::string& sequence) const override;
    int draw(pipeline::CompilationUnit& unit, const DrawRequest& request) const override;
    int enumerate(pipeline::CompilationUnit& unit, const EnumerateRequest& request) const override;
};

}  // namespace pz::driver
