// The canonical-sequence automaton: which move may follow which.
//
// note [canonical sequences]
// Search only tries move sequences in a canonical form, so that sequences
// equal by obvious relations are tried once:
//   - no two moves of the same family in a row (X X' = X2, a shorter move);
//   - of two adjacent moves whose families commute, the lower family index
//     comes first (A B = B A: only A B is tried).
//   - no 4-move sequence whose value an earlier sequence (shortlex: shorter,
//     or same length and smaller move indices) already reached, found by
//     enumerating the sequences (note [look-back] in the .cpp; skipped when
//     they would be too many).
// The automaton state is the family of the last move, or with the look-back
// the last three moves (state 0 = start); it is minimised (states with
// identical futures are merged) and emitted as a table next[state][move]
// (-1 = not allowed). Every sequence has a canonical
// equivalent of the same or shorter length: repeatedly merge same-family
// neighbours and swap commuting neighbours that are out of order (each swap
// removes an inversion), so optimal search over canonical sequences is exact.
// Commutation comes from PuzzleAnalysis::commutes(), taken on the family
// generators (if the generators commute, all their powers do).
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis/puzzle_analysis.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

struct CanonicalAutomaton {
    std::vector<int> searchMoves;            // indices into puzzle.moves (the metric)
    std::vector<std::vector<bool>> commute;  // [family][family]
    std::vector<std::vector<int>> next;      // [state][search move] -> state or -1
    int start = 0;
    // Number of canonical sequences of each length 0..maxLength.
    std::vector<unsigned long long> sequenceCounts(int maxLength) const;
    std::string describe(const ir::Puzzle& puzzle) const;
};

CanonicalAutomaton buildCanonicalAutomaton(const ir::Puzzle& puzzle, PuzzleAnalysis& analysis);

}  // namespace pz::analysis
