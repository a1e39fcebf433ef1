// The plan of a permutation puzzle's optimal solver: everything the emitters
// (compiler/codegen/perm/) need, computed once: layout, kernels, canonical
// automaton, coordinates, the symmetry group and which symmetry conjugates
// each pattern is looked up under. Phased solvers' plans are
// analysis::SolverPlan (coset_coordinates.hpp), over the same model.
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis/perm/canonical_automaton.hpp"
#include "compiler/analysis/perm/coordinates.hpp"
#include "compiler/analysis/perm/coset_coordinates.hpp"
#include "compiler/analysis/perm/default_patterns.hpp"
#include "compiler/analysis/perm/state_layout.hpp"
#include "compiler/analysis/perm/move_kernels.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

struct SolverModel {
    const ir::Puzzle* puzzle = nullptr;
    analysis::StateLayout layout;
    analysis::CanonicalAutomaton canon;
    std::vector<analysis::Coordinate> coordinates;  // of the searched patterns
    bool defaultPatterns = false;                   // none declared: analysis::defaultPatterns
    std::vector<MoveKernel> kernels;                // per search move
    std::vector<int> moveInverse;                   // per search move: search index or -1
    std::vector<ir::Element> symmetries;            // the closure; [0] = identity
    std::vector<std::string> symmetryNames;
    std::vector<std::vector<int>> symmetryMoveMap;  // [symmetry][puzzle move] = S m S^-1, -1 = none
    std::vector<std::vector<int>> lookups;          // per coordinate: symmetry index, -1 = none
    bool inverseLookups = false;
    bool allPermutationsReachable = false;
    // A state fixed by a symmetry has children of equal distance by
    // conjugate moves (note [symmetric states] in pz/search/search.hpp): not with
    // identical pieces (a symmetry need not keep the colouring) nor illegal
    // placements (a conjugate path could pass through one).
    bool stateSymmetries = false;
    std::vector<std::string> patternHashes;         // per coordinate
    // The searched coset patterns (note [coset patterns]): name and plan.
    std::vector<std::string> cosetPatternNames;
    std::vector<analysis::PhasePlan> cosetPatterns;
};

bool buildSolverModel(const ir::Puzzle& puzzle, SolverModel& model, DiagnosticEngine& diags);
// The same with the puzzle's analysis supplied (and reused) by the caller:
// a compilation unit builds PuzzleAnalysis once (compiler/pipeline).
// `solver`: the declared optimal solver whose patterns are searched; -1 for
// the default (the first optimal solver's, else every declared pattern, else
// default patterns, within `defaultPatternValues` values: analysis/perm/default_patterns.hpp).
bool buildSolverModel(const ir::Puzzle& puzzle, analysis::PuzzleAnalysis& groups, SolverModel& model,
                      DiagnosticEngine& diags, int solver = -1,
                      uint64_t defaultPatternValues = kDefaultPatternValues);

// What the generated state holds for element e: e itself, except that an
// orbit with identical pieces holds each piece's solved label (note
// [labelled lanes]); pack it with packElement.
ir::Element labelledView(const ir::Puzzle& puzzle, const ir::Element& e, const analysis::StateLayout& layout);

}  // namespace pz::analysis
