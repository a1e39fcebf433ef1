// pzc inspect FILE [--header] for permutation puzzles: what the code
// generator decided for FILE: the state layout, each move's kernel with its
// constants, the canonical tables, the symmetries and the coordinate sizes. --header prints the
// generated traits header instead (scripts/regenerate.sh uses it).
// --solver NAME (an optimal solver): its model and traits header, as for
// the default one; (a phased solver): its search plan, or with --header the
// generated phase plan (pz::PhaseSpec data); (a sift solver): its table,
// level by level.
#include <iostream>

#include "compiler/analysis/perm/coset_coordinates.hpp"
#include "compiler/analysis/perm/sift_words.hpp"
#include "compiler/codegen/perm/perm_emit.hpp"
#include "compiler/driver/perm/perm_backend.hpp"
#include "compiler/driver/perm/perm_build.hpp"

namespace pz::driver {

int PermutationBackend::inspect(pipeline::CompilationUnit& unit, const InspectRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    // note [default solver]
    const std::string solver = request.solver.empty() ? defaultSolverName(puzzle) : request.solver;
    const bool header = request.header;
    for (size_t i = 0; i < puzzle.solvers.size() && !solver.empty(); ++i) {
        if (puzzle.solvers[i].name != solver || puzzle.solvers[i].kind != ir::Solver::Kind::Sift) continue;
        // note [sift solves]: no generated code; the table, built as pzc solve builds it.
        if (header) {
            std::cerr << "pzc inspect: error: sift solver '" << solver << "' has no generated code (it runs inside pzc solve)\n";
            return 2;
        }
        std::string why;
        const analysis::SiftWords* table = unit.siftWords(why);
        if (!table) {
            std::cerr << "pzc inspect: error: sift solver cannot be built: " << why << "\n";
            return 1;
        }
        std::cout << analysis::describeSiftWords(puzzle, *table,
                                                 analysis::siftDirections(unit.analysis(), table->metric, analysis::kSiftDirections).size());
        return 0;
    }
    // The declared solver named: an optimal one is its own model (note
    // [search plans]); a phased one a plan over the default model.
    const auto declared = declaredSolver(puzzle, solver, "inspect");
    if (!declared) return 2;
    const int index = *declared;
    const bool phased = index >= 0 && puzzle.solvers[index].kind == ir::Solver::Kind::Phased;
    const analysis::SolverModel* model = planSolver(unit, phased ? -1 : index);
    if (!model) return 1;
    if (phased) {
        DiagnosticEngine diags;
        const analysis::SolverPlan* plan = unit.phasedPlan(index, diags);
        if (!plan) {
            diags.print(std::cerr);
            return 1;
        }
        if (header) {
            std::cout << codegen::emitPhasePlan(*model, *plan);
            return 0;
        }
        // note [class counts] in compiler/analysis/perm/coset_coordinates.hpp
        std::vector<analysis::PhaseClassCount> classes;
        for (const auto& phase : plan->phases) classes.push_back(analysis::countPhaseClasses(unit.analysis(), phase));
        std::cout << codegen::describePlan(puzzle, *plan, &classes, &unit.analysis().symmetries().names);
        return 0;
    }
    std::cout << (header ? codegen::emitTraitsHeader(*model, unit.file()) : codegen::describeModel(*model));
    return 0;
}

}  // namespace pz::driver
