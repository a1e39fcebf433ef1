// note [search gate] (search_gate.hpp).
#include "compiler/driver/perm/search_gate.hpp"

#include <algorithm>
#include <bit>
#include <iostream>
#include <thread>

#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/analysis/perm/search_estimate.hpp"
#include "compiler/analysis/perm/sift_words.hpp"
#include "compiler/driver/perm/perm_build.hpp"
#include "compiler/driver/solver_index.hpp"

namespace pz::driver {

namespace {

// The estimate from the index (random depth, then each bound's nodes as
// the bits of a double), else computed from the solver's model and kept.
std::optional<analysis::SearchEstimate> estimateFor(pipeline::CompilationUnit& unit, const SearchGateRequest& r) {
    const std::string key = solverIndexKey(unit.file(), definitionBytes(unit), "search estimate " + r.variant);
    if (auto numbers = lookupIndexedNumbers(key); numbers && numbers->size() >= 2) {
        analysis::SearchEstimate e;
        e.randomDepth = static_cast<int>(numbers->front());
        for (size_t i = 1; i < numbers->size(); ++i) e.nodes.push_back(std::bit_cast<double>((*numbers)[i]));
        return e;
    }
    const analysis::SolverModel* model = planSolver(unit, r.solver);
    if (!model) return std::nullopt;  // the build reports it
    analysis::PuzzleAnalysis& analysis = unit.analysis();
    mpz_class states = analysis.groupOrder();
    // Identical pieces: states up to the colouring (a rough count is enough).
    if (analysis::hasIdenticalPieces(unit.puzzle())) states /= analysis::colouringStabiliserOrder(unit.puzzle());
    analysis::SearchEstimate e = analysis::estimateSolverSearch(*model, states.get_d());
    std::vector<uint64_t> numbers{static_cast<uint64_t>(e.randomDepth)};
    for (double n : e.nodes) numbers.push_back(std::bit_cast<uint64_t>(n));
    recordIndexedNumbers(key, numbers);
    return e;
}

// What would answer a random state instead: the definition's other solvers,
// a sift solver, bigger tables.
std::string advice(pipeline::CompilationUnit& unit, int solver) {
    const ir::Puzzle& puzzle = unit.puzzle();
    std::string lines;
    bool sift = false;
    for (size_t i = 0; i < puzzle.solvers.size(); ++i) {
        const auto& s = puzzle.solvers[i];
        if (s.kind == ir::Solver::Kind::Phased)
            lines += "  --solver " + s.name + ": phased, solves any state in few moves (not proved optimal)\n";
        else if (s.kind == ir::Solver::Kind::Sift) {
            lines += "  --solver " + s.name + ": sift, solves any state at once (bounded length, not optimal)\n";
            sift = true;
        } else if (static_cast<int>(i) != (solver < 0 ? unit.defaultOptimalSolver() : solver))
            lines += "  --solver " + s.name + ": another optimal solver (other tables)\n";
    }
    if (!sift && !analysis::siftRefusal(puzzle, unit.metricMoves()))
        lines += "  --sift: a sift solver, solves any state at once (bounded length, not optimal)\n";
    if (puzzle.patterns.empty())
        lines += "  bigger tables: declare patterns (docs/language.md, \"Patterns\") or give a larger --memory\n"
                 "    (the default patterns grow with it)\n";
    else
        lines += "  bigger tables: patterns that track more pieces (docs/language.md, \"Patterns\")\n";
    lines += "  --scramble or --state: positions near solved are searched (with progress lines)\n"
             "  --force: search the random states anyway\n";
    return lines;
}

}  // namespace

std::optional<int> searchGate(pipeline::CompilationUnit& unit, const SearchGateRequest& r, bool& progress) {
    auto estimate = estimateFor(unit, r);
    if (!estimate) return std::nullopt;
    const unsigned threads = r.threads ? static_cast<unsigned>(r.threads)
                                       : std::clamp(std::thread::hardware_concurrency(), 1u, 64u);
    int depth = estimate->randomDepth;
    if (r.maxLength) depth = std::min<int>(depth, static_cast<int>(*r.maxLength));
    const double nodes = estimate->nodesUpTo(depth);
    const double seconds = nodes / (analysis::kNodesPerSecondPerThread * threads);
    const std::string work = "a random state lies about " + std::to_string(estimate->randomDepth) +
                             " moves away (counting bound)" +
                             (depth < estimate->randomDepth ? "; to --max-length " + std::to_string(depth) : "") +
                             ": IDA* would take " + analysis::workText(nodes, static_cast<int>(threads));
    if (seconds <= analysis::kHopelessSeconds) {
        if (progress) std::cerr << "pzc solve: estimate: " << work << " (note [search estimates])\n";
        return std::nullopt;
    }
    if (r.randomStates && !r.force) {
        std::cerr << "pzc solve: error: random states are out of reach of this optimal search: " << work
                  << " (an estimate; note [search estimates])\nwhat would work:\n"
                  << advice(unit, r.solver);
        return 1;
    }
    std::cerr << "pzc solve: warning: a random state would be out of reach (" << work
              << "); searching, since a given position may lie much closer (progress on stderr)\n";
    progress = true;
    return std::nullopt;
}

}  // namespace pz::driver
