// pzc generate for permutation puzzles: every requested solver planned, then
// the library's sources emitted (note [library sources] in compiler/codegen/library.hpp).
#include <filesystem>
#include <iostream>

#include "compiler/codegen/perm/library.hpp"
#include "compiler/driver/perm/perm_backend.hpp"
#include "compiler/driver/perm/perm_build.hpp"

namespace pz::driver {

int PermutationBackend::generate(pipeline::CompilationUnit& unit, const GenerateRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    // The solvers: those asked for, else every declared one but sift solvers
    // (they run inside pzc: note [sift solves]), else the default optimal search.
    std::vector<int> indices;
    for (const auto& name : request.solvers) {
        const auto index = declaredSolver(puzzle, name, "generate");
        if (!index) return 2;
        if (*index >= 0 && puzzle.solvers[*index].kind == ir::Solver::Kind::Sift) {
            std::cerr << "pzc generate: error: sift solver '" << name << "' runs inside pzc solve; a library cannot hold it\n";
            return 2;
        }
        indices.push_back(*index);
    }
    if (request.solvers.empty()) {
        for (size_t i = 0; i < puzzle.solvers.size(); ++i)
            if (puzzle.solvers[i].kind != ir::Solver::Kind::Sift) indices.push_back(static_cast<int>(i));
        if (indices.empty()) indices.push_back(-1);
    }
    const analysis::SolverModel* base = planSolver(unit, -1);
    if (!base) return 1;
    std::vector<codegen::PermLibraryPart> parts;
    for (int index : indices) {
        codegen::PermLibraryPart part;
        part.defaultModel = base;
        if (index < 0) {
            part.solver = {"", "optimal"};
            part.model = base;
        } else if (puzzle.solvers[index].kind == ir::Solver::Kind::Phased) {
            part.solver = {puzzle.solvers[index].name, "phased"};
            part.model = base;
            DiagnosticEngine diags;
            part.plan = unit.phasedPlan(index, diags);
            diags.print(std::cerr);
            if (!part.plan) return 1;
        } else {
            part.solver = {puzzle.solvers[index].name, "optimal"};
            part.model = planSolver(unit, index);
            if (!part.model) return 1;
        }
        parts.push_back(part);
    }
    const std::string source = std::filesystem::path(unit.file()).filename().string();
    const auto sources = codegen::emitPermLibrary(request.name, request.ns, source, parts);
    return writeLibrarySources(request, sources);
}

}  // namespace pz::driver
