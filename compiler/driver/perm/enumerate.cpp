// pzc enumerate for permutation puzzles (cmd_enumerate.cpp): the space
// becomes a one-pattern solver model (note [enumeration spaces]), its
// enumerator is compiled (with MPI for --mpi) and run in pzc's place.
#include <iostream>

#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/driver/enumerator_run.hpp"
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

// The index of the item called `name` (-1: none); `declared` gets every name.
template <class Named>
int findNamed(const std::vector<Named>& items, const std::string& name, std::string& declared) {
    int found = -1;
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].name == name) found = static_cast<int>(i);
        declared += (i ? ", " : "") + items[i].name;
    }
    return found;
}

}  // namespace

int PermutationBackend::enumerate(pipeline::CompilationUnit& unit, const EnumerateRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    int pattern = -1;
    std::string expect;
    if (request.whole) {
        pattern = unit.addWholePattern();
    } else if (!request.coset.empty()) {
        std::string names;
        const int subgroup = findNamed(puzzle.subgroups, request.coset, names);
        if (subgroup < 0) {
            std::cerr << "pzc enumerate: error: " << puzzle.name << " declares no subgroup '" << request.coset
                      << "' (declared: " << (names.empty() ? "none" : names) << ")\n";
            return 2;
        }
        // note [coset spaces] in runtime/include/pz/enumerate/coset_space.hpp:
        // the coordinate of a coset pattern of H, its cosets counted.
        pattern = unit.addCosetPattern(subgroup);
    } else {
        std::string names;
        pattern = findNamed(puzzle.patterns, request.pattern, names);
        if (pattern < 0) {
            std::cerr << "pzc enumerate: error: " << puzzle.name << " declares no pattern '" << request.pattern
                      << "' (declared: " << (names.empty() ? "none" : names) << ")\n";
            return 2;
        }
        // A coset pattern's space is its subgroup's cosets; a projected one
        // keeps orientations beside them, a space the enumerator does not
        // walk: its table is built as the solver builds it (note [projected
        // tables across ranks] in runtime/include/pz/tables/projected_coset.hpp).
        if (puzzle.patterns[pattern].cosetSubgroup >= 0 && !puzzle.patterns[pattern].parts.empty()) {
            const std::string subgroup = puzzle.subgroups[puzzle.patterns[pattern].cosetSubgroup].name;
            if (!request.table) {
                std::cerr << "pzc enumerate: error: pattern '" << request.pattern
                          << "' is a projected coset pattern (orientations kept beside the coset): its space is not "
                             "walked; build its table with --table, or enumerate the subgroup's cosets with --coset "
                          << subgroup << "\n";
                return 2;
            }
            if (!request.checkpoint.empty() || request.resume || request.farthest || request.maxDepth ||
                request.layout != "auto" || request.exchange != "auto") {
                std::cerr << "pzc enumerate: error: the table of projected coset pattern '" << request.pattern
                          << "' is not built level by level: --checkpoint, --resume, --farthest, --max-depth, "
                             "--layout and --exchange do not apply\n";
                return 2;
            }
        }
    }
    const int solver = unit.addEnumerationSolver(pattern);
    if (!planSolver(unit, solver)) return 1;
    if (request.whole)
        if (auto states = predictedStates(unit)) expect = std::to_string(*states);
    const int subgroup = puzzle.patterns[pattern].cosetSubgroup;
    // (--table enumerates a coset pattern's classes, not its cosets.)
    if (subgroup >= 0 && !request.table && !analysis::hasIdenticalPieces(puzzle)) {
        // Every coset is reached (the moves generate the group): the index.
        const mpz_class index = unit.analysis().subgroup(subgroup).index;
        if (index.fits_ulong_p()) expect = index.get_str();
    }
    const std::string space = request.whole            ? std::string("whole puzzle")
                              : !request.coset.empty() ? "cosets of " + request.coset
                                                       : "pattern " + request.pattern;
    return runEnumerator(unit.enumeratorSource(solver), unit.solverStem(solver), request, space, expect);
}

}  // namespace pz::driver
