// State layout: where each orbit's labels and orientations live in the
// generated state, a sequence of machine words. Each orbit has a label field
// and, when oriented, an orientation field of the same shape; a field is a
// run of words holding one lane per position. The lane width is chosen per
// orbit (shown by `pzc inspect`, with the reason):
//
//   4-bit lanes  (<= 16 positions, orientation modulus <= 8): one word per
//                field, SWAR shift-and-mask move kernels (state.hpp);
//   byte lanes   (<= 256 positions, modulus <= 128): 16, 32 or 64 lanes in
//                2, 4 or 8 words for orbits of up to 64 positions (one byte
//                shuffle per move: vpermb, pshufb, or a portable loop, see
//                runtime/include/pz/lanes.hpp), else a multiple of 8 lanes
//                permuted by a loop over a constant index table;
//   16-bit lanes (<= 1024 positions, modulus <= 256): a multiple of 4 lanes,
//                loop kernels.
//
// Lanes past the orbit's size (padding) hold their own index as label and 0
// as orientation in every state and every move: they are fixed points of
// every operation, so equality and hashing over whole words stay exact.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

// The largest orbit each lane width holds (and the largest modulus: two
// orientations must add without overflowing a lane).
inline constexpr int kNibbleLaneMaxPositions = 16, kNibbleLaneMaxModulus = 8;
inline constexpr int kByteLaneMaxPositions = 256, kByteLaneMaxModulus = 128;
inline constexpr int kHalfLaneMaxPositions = 1024, kHalfLaneMaxModulus = 256;
// Byte-lane orbits up to this size get one vector shuffle per move.
inline constexpr int kShuffleMaxPositions = 64;

struct OrbitLayout {
    int orbit = 0;
    int size = 0;
    int orient = 1;
    int permWord = 0;    // first word of the labels
    int oriWord = -1;    // first word of the orientations, -1 when unoriented
    int laneBits = 4;    // 4, 8 or 16
    int fieldWords = 1;  // words per field
    int lanes() const { return fieldWords * 64 / laneBits; }  // including padding
    bool nibble() const { return laneBits == 4; }
    std::string laneType() const { return laneBits == 8 ? "uint8_t" : "uint16_t"; }  // byte / 16-bit lanes
    std::string why;     // the reason for the lane width, for `pzc inspect`
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
    bool allNibble() const;
    std::string describe(const ir::Puzzle& puzzle) const;
};

// Chooses the layout, or reports why the puzzle does not fit (orbits past
// 1024 positions or moduli past 256, which the language already refuses).
bool computeStateLayout(const ir::Puzzle& puzzle, StateLayout& out, DiagnosticEngine& diags);

}  // namespace pz::analysis
