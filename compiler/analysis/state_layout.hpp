// State layout: where each orbit's labels and orientations live in the
// generated state. One field per machine word, one 4-bit lane per position:
// a 4-bit lane holds any label of an orbit of <= 16 pieces and any
// orientation sum of a modulus <= 8 without carrying into the next lane,
// which is what the SWAR kernels in runtime/include/pz/state.hpp need. The
// choice is per orbit and shown by `pzc inspect`.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

struct OrbitLayout {
    int orbit = 0;
    int size = 0;
    int orient = 1;
    int permWord = 0;    // word of the labels
    int oriWord = -1;    // word of the orientations, -1 when unoriented
    int laneBits = 4;
    // note [labelled lanes]
    // An orbit with identical pieces (repeated solved labels) holds in each
    // lane the label of the piece there (the solved label, numbered by first
    // appearance), not a piece: move kernels permute lanes and are the same;
    // the solved state is the colouring; states are compared by labels.
    // compose(a, b) with b a move or symmetry element still gathers a's
    // lanes; inverse() of a labelled state has no meaning (the generated
    // solver does no inverse or symmetry lookups for such puzzles).
    bool labelled = false;
};

struct StateLayout {
    std::vector<OrbitLayout> orbits;
    int words = 0;
    std::string describe(const ir::Puzzle& puzzle) const;
};

// Chooses the layout, or reports why the puzzle does not fit (orbits over 16
// pieces, orientation moduli over 8).
bool computeStateLayout(const ir::Puzzle& puzzle, StateLayout& out, DiagnosticEngine& diags);

}  // namespace pz::analysis
