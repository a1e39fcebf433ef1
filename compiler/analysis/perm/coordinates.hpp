// Coordinates of declared patterns: a dense index for what a pattern tracks.
// The encoding is the one runtime/include/pz/coord.hpp implements (see the
// comment there); this module decides each pattern's parts and sizes, and
// holds a plain reference rank/unrank over IR elements that the generated
// code is tested against.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

// Limits (docs/language.md, Patterns): a pattern has at most 2^35 values
// (16 GiB of 4-bit table entries), and tracks orbits of at most 64
// positions (the tracked pieces are a 64-bit mask; orbits past 16 positions
// are read from byte lanes, runtime/include/pz/lane_coord.hpp).
inline constexpr unsigned long kMaxPatternValues = 1ul << 35;
inline constexpr int kMaxPatternOrbit = 64;
// Patterns over identical pieces (positions tracked) read 4-bit lanes or
// byte lanes: at most 64 positions (as any pattern), orientation modulus at
// most 128 (byte lanes; a larger modulus takes 16-bit lanes).
inline constexpr int kMaxLabelledPatternOrbit = kMaxPatternOrbit;
inline constexpr int kMaxLabelledPatternOrient = 128;

struct CoordinatePart {
    int orbit = 0;
    int n = 0;                 // positions of the orbit
    uint64_t tracked = 0;      // bitmask of tracked solved labels
    int k = 0;                 // popcount(tracked)
    bool positions = true;
    bool ordered = true;
    int oriMod = 1;            // > 1: orientations tracked
    uint64_t positionSize = 1; // C(n,k) * (ordered ? k! : 1), or 1
    uint64_t orientSize = 1;   // oriMod^k (oriMod^(k-1) when oriSumFixed), or 1
    // Every piece's orientation tracked and every move keeps the orbit's
    // orientation sum at 0: the last position's is implied, not stored.
    bool oriSumFixed = false;
    // note [orientation residues]: > 1 when every state fixes each piece's
    // orientation modulo oriStep by the piece and where it is; an ordered
    // positions part then stores orientation / oriStep per piece, and
    // unrank adds back oriOffset[piece * n + position] (mod oriStep).
    int oriStep = 1;
    std::vector<uint8_t> oriOffset;
    int oriDigits() const { return oriMod / oriStep; }  // values of one stored orientation
    // An orbit with identical pieces, positions tracked (note [labelled
    // lanes]): the part tracks whole label classes, `trackedLabels` (a mask
    // of labels; `tracked` still names the pieces), ranked as
    // pz::LabelCoordinate (4-bit lanes) or pz::ByteLabelCoordinate:
    // C(n,k) * (ordered ? k! / prod c_l! : 1) * M^k.
    bool labelled = false;
    uint64_t trackedLabels = 0;
    std::vector<int> pieceLabel;  // labelled: the orbit's solved label of each piece
    uint64_t solvedLanes() const; // labelled, n <= 16: 4-bit lane p = label solved at p
    std::vector<int> labelCounts() const;  // labelled: pieces of each label 0..n-1
    uint64_t size() const { return positionSize * orientSize; }
    std::string kind() const;  // "partial permutation 8 of 16", ...
};

struct Coordinate {
    std::string pattern;
    std::vector<CoordinatePart> parts;  // mixed radix, first part most significant
    uint64_t size = 1;
    // False when two parts track positions of one orbit (note [parts on one
    // orbit]): a value whose parts put pieces at one position is no state.
    bool everyValueIsState = true;
};

// Whether value `rank` of `c` is a state: no two parts that track positions
// of one orbit put their pieces at the same position.
bool isStateValue(const Coordinate& c, uint64_t rank);

// Builds the coordinate of each pattern; reports patterns that cannot be
// encoded (two parts tracking one orbit's positions or its orientations,
// too many values: sizes are computed exactly, never wrapped; some but not
// all of a label's identical pieces).
//
// note [parts on one orbit]: a pattern may track an orbit's orientations
// (without positions) in one part and its positions in others, e.g. where
// the slice edges are x every edge's flip, or where two sets of pieces are
// (one ordered, one not). Each part is a coordinate of its own, so the
// tuple is one:
//  * a positions part and an orientations part read disjoint fields of the
//    state (piece lanes, orientation lanes): every pair of values is a
//    state; unrank writes each part's field only (the generated unrank and
//    referenceUnrank send the other field to scratch);
//  * parts tracking positions of disjoint sets of distinct pieces: a tuple
//    of values whose positions overlap is no state (Coordinate::
//    everyValueIsState is false, isStateValue says which are); the table
//    build never reads those (they stay unreached); unrank writes the
//    first part and swaps each later part's pieces into place
//    (unrankMerged), which moves no piece of an earlier part when the
//    value is a state.
// Refused: one piece (or identical pieces' labels) in two positions parts,
// and two parts tracking one orbit's orientations (the same lanes twice).
bool computeCoordinates(const ir::Puzzle& puzzle, std::vector<Coordinate>& out, DiagnosticEngine& diags);

// Whether every move keeps orbit `orbit`'s orientation sum at 0 (mod its
// modulus), so every state does.
bool orientationSumFixed(const ir::Puzzle& puzzle, int orbit);
// note [orientation residues]: the moves may tie a piece's orientation to
// where it is. rotate4o's quarter turn moves a piece to a cell of the other
// checkerboard colour and turns it a quarter, so a piece's orientation mod 2
// is its colour now plus its colour when solved: half of the 4^k orientation
// values of a pattern are no state. For each piece the orientations it can
// have at each position are a coset o + sZ_M (the twists of the loops back
// to a position form a subgroup of Z_M); `step` is the gcd of those s over
// the orbit's pieces, offset[piece * n + position] the residue there mod
// step (0 where the piece never goes). step 1: no residue (the cube). Only
// orbits of distinct pieces with at most kMaxPatternOrbit positions.
struct OrientationResidues {
    int step = 1;
    std::vector<uint8_t> offset;
};
OrientationResidues orientationResidues(const ir::Puzzle& puzzle, int orbit);
// The step a pattern part stores its orientations in: the orbit's for an
// ordered positions part of distinct pieces (it knows which piece is
// where), else 1.
int storedOrientationStep(const ir::Puzzle& puzzle, const ir::PatternPart& part);

// Whether a pattern part stores only n-1 orientations (CoordinatePart::
// oriSumFixed): it tracks every piece's orientation, not as labels, on an
// orbit whose orientation sum every move keeps at 0.
bool lastOrientationImplied(const ir::Puzzle& puzzle, const ir::PatternPart& part);

// Whether a pattern tracks positions of identical pieces (a labelled part).
bool tracksLabels(const ir::Puzzle& puzzle, const ir::Pattern& pattern);

// Reference implementations over IR elements (slow, obviously correct).
uint64_t referenceRank(const Coordinate& c, const ir::Element& e);
ir::Element referenceUnrank(const Coordinate& c, uint64_t rank, const std::vector<ir::Orbit>& orbits);

}  // namespace pz::analysis
