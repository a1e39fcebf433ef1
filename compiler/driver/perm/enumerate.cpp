// pzc enumerate for permutation puzzles (cmd_enumerate.cpp): the space
// becomes a one-pattern solver model (note [enumeration spaces]), its
// enumerator is compiled (with MPI for --mpi) and run in pzc's place.
#include <unistd.h>

#include <cstring>
#include <iostream>

#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/driver/mpi_batch.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/perm/perm_backend.hpp"
#include "compiler/driver/perm/perm_build.hpp"

namespace pz::driver {

namespace {

// The states of the whole puzzle the analysis predicts, when it knows them
// exactly: the group order, or with identical pieces the distinct states.
// Puzzles with illegal placements have none (their BFS never enters one).
std::optional<uint64_t> predictedStates(pipeline::CompilationUnit& unit) {
    const ir::Puzzle& puzzle = unit.puzzle();
    if (!puzzle.illegal.empty()) return std::nullopt;
    mpz_class count = unit.analysis().groupOrder();
    if (analysis::hasIdenticalPieces(puzzle)) {
        const auto d = analysis::countDistinctStates(unit.analysis());
        if (!d.known) return std::nullopt;
        count = d.count;
    }
    if (!count.fits_ulong_p()) return std::nullopt;
    return count.get_ui();
}

}  // namespace

int PermutationBackend::enumerate(pipeline::CompilationUnit& unit, const EnumerateRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    if (request.mpi && !mpi::available()) {
        std::cerr << "pzc enumerate: error: pzc was built without MPI (install Open MPI and rebuild); "
                     "run without --mpi for one process\n";
        return 2;
    }
    int pattern = -1;
    if (request.whole) {
        pattern = unit.addWholePattern();
    } else {
        std::string names;
        for (size_t p = 0; p < puzzle.patterns.size(); ++p) {
            if (puzzle.patterns[p].name == request.pattern) pattern = static_cast<int>(p);
            names += (p ? ", " : "") + puzzle.patterns[p].name;
        }
        if (pattern < 0) {
            std::cerr << "pzc enumerate: error: " << puzzle.name << " declares no pattern '" << request.pattern
                      << "' (declared: " << (names.empty() ? "none" : names) << ")\n";
            return 2;
        }
        if (puzzle.patterns[pattern].cosetSubgroup >= 0) {
            std::cerr << "pzc enumerate: error: pattern '" << request.pattern
                      << "' is a coset pattern; enumerating coset spaces is not built yet\n";
            return 2;
        }
    }
    const int solver = unit.addEnumerationSolver(pattern);
    if (!planSolver(unit, solver)) return 1;
    DiagnosticEngine diags;
    NativeBuild build;
    build.source = unit.enumeratorSource(solver);
    build.stem = unit.solverStem(solver) + (request.mpi ? "_mpi" : "");
    if (request.mpi) {
        const auto flags = mpi::buildFlags();
        build.extraFlags.push_back("-DPZ_WITH_MPI");
        for (const auto& dir : flags.includeDirs) build.extraFlags.push_back("-I" + dir);
        build.libraries = flags.libraries;
    }
    const auto bin = buildNative(build, diags);
    diags.print(std::cerr);
    if (!bin) return 1;

    std::vector<std::string> argv = {"pzc enumerate", "--space",
                                     request.whole ? std::string("whole puzzle") : "pattern " + request.pattern};
    if (request.whole)
        if (auto states = predictedStates(unit)) argv.insert(argv.end(), {"--expect", std::to_string(*states)});
    argv.insert(argv.end(), {"--threads", std::to_string(request.threads)});
    if (request.farthest) argv.insert(argv.end(), {"--farthest", std::to_string(request.farthest)});
    if (request.maxDepth) argv.insert(argv.end(), {"--max-depth", std::to_string(*request.maxDepth)});
    if (!request.memory.empty()) argv.insert(argv.end(), {"--memory", request.memory});
    if (!request.checkpoint.empty()) argv.insert(argv.end(), {"--checkpoint", request.checkpoint});
    if (!request.tableDir.empty()) argv.insert(argv.end(), {"--table-dir", request.tableDir});
    for (auto [on, flag] : {std::pair{request.resume, "--resume"}, {request.table, "--table"},
                            {request.json, "--json"}, {request.progress, "--progress"}})
        if (on) argv.push_back(flag);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    std::cout.flush();
    ::execv(bin->c_str(), args.data());
    std::cerr << "pzc enumerate: error: cannot run " << *bin << ": " << std::strerror(errno) << "\n";
    return 1;
}

}  // namespace pz::driver
