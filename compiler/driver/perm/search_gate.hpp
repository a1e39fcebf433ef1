// The search gate: before an optimal search starts, its work is estimated
// and a hopeless one is refused with what would work instead.
//
// note [search gate]
// `pzc solve` estimates an optimal solver's work (note [search estimates]
// in compiler/analysis/perm/search_estimate.hpp) before it builds or runs it:
//   * random states (--random) whose estimate passes kHopelessSeconds are
//     refused at once (exit 1), naming what would work: the definition's
//     phased and sift solvers, --sift, other optimal solvers, bigger tables;
//     --force searches anyway;
//   * given positions (--scramble, --state, --scrambles), whose distance may
//     be small, are searched with a warning and progress lines;
//   * --progress prints the estimate in every case.
// The estimate needs the solver's model (coordinates, canonical automaton)
// and the group order: it is kept in the solver index under the solver's
// variant (note [solver index]), so a cached solver pays a file read.
#pragma once

#include <optional>
#include <string>

#include "compiler/pipeline/compilation_unit.hpp"

namespace pz::driver {

struct SearchGateRequest {
    int solver = -1;               // the declared optimal solver (-1: the default one)
    std::string variant;           // its solver-index variant (solverFor's)
    bool randomStates = false;     // --random: positions at a random distance
    std::optional<unsigned long long> maxLength;
    unsigned long long threads = 0;  // 0: every online CPU, at most 64 (the solver's default)
    bool force = false;
};

// Nullopt to search (with `progress` set when the search should show its
// iterations), else the exit code after the message.
std::optional<int> searchGate(pipeline::CompilationUnit& unit, const SearchGateRequest& request, bool& progress);

}  // namespace pz::driver
