// The permutation back end's build and run (perm_backend.hpp).
#include "compiler/driver/perm/perm_backend.hpp"

#include <iostream>

#include "compiler/driver/perm/perm_build.hpp"
#include "compiler/interp/interpreter.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

namespace pz::driver {

int PermutationBackend::build(pipeline::CompilationUnit& unit, const std::string& output,
                              const std::string& named) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    const std::string solver = named.empty() ? defaultSolverName(puzzle) : named;  // note [default solver]
    const auto declared = declaredSolver(puzzle, solver, "build");
    if (!declared) return 2;
    const int index = *declared;
    if (index >= 0 && puzzle.solvers[index].kind == ir::Solver::Kind::Sift) {
        // note [sift solves]
        std::cerr << "pzc build: error: sift solver '" << solver << "' has no binary (it runs inside pzc solve)\n";
        return 2;
    }
    // Plan, emit C++ and compile it with the runtime in one step.
    if (!compileSolver(unit, index, output)) return 1;
    std::cout << "wrote " << output << " (run '" << output << " --help' for its options)\n";
    return 0;
}

int PermutationBackend::run(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const std::string& text) const {
    const ir::Puzzle* puzzle = &unit.puzzle();
    // Evaluate the sequence over the puzzle's names (moves, powers, macros).
    auto element = ir::evaluateText(*puzzle, text, "<sequence>", diags);
    diags.print(std::cerr);
    if (!element) return 1;
    if (element->mirror) {
        std::cerr << "pzc run: error: the sequence is a mirror symmetry, not a state\n";
        return 1;
    }
    // Interpret: apply it to the solved state.
    interp::Interpreter interpreter(*puzzle);
    const interp::State state = interpreter.apply(interpreter.solved(), *element);
    std::cout << interpreter.format(state);
    std::cout << "solved: " << (interpreter.isSolved(state) ? "yes" : "no") << '\n';
    std::cout << "order: " << ir::order(*element, puzzle->orbits) << '\n';
    return 0;
}

}  // namespace pz::driver
