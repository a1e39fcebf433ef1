// The canonical-sequence automaton: which move may follow which.
//
// note [canonical sequences]
// Search only tries move sequences in a canonical form, so that sequences
// equal by obvious relations are tried once. Words are ordered shortlex
// (shorter first, then by search-move index); a word may be skipped when an
// earlier word has the same value, because the shortlex-least optimal
// solution then never contains it (replacing it by the earlier word would
// give a shorter or lex-smaller solution). Only the searched moves (the
// metric) count: an uncounted power or a missing inverse is not a shortcut.
//   - pairwise rules (note [pairwise rules] in the .cpp): a two-move word is
//     forbidden when its value is the identity, a searched move, or the value
//     of an earlier two-move word. With every power searched this is "no two
//     moves of the same family in a row, and of two commuting families the
//     lower comes first"; with U2 uncounted, U U stays allowed (it is the
//     only way to make U2) and U' U' is forbidden (U U is earlier); with
//     only the generator A of an order-3 family, A A is allowed.
//   - look-back: no word of up to 4 moves whose value an earlier word
//     already reached, found by enumerating the words (note [look-back];
//     skipped when they would be too many).
// The automaton state is the last move, or with the look-back the last three
// moves (state 0 = start); it is minimised (states with identical futures are
// merged) and emitted as a table next[state][move] (-1 = not allowed).
// Commutation (PuzzleAnalysis::commutes() on the family generators) is kept
// for reports; the rules themselves compare values.
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis/perm/puzzle_analysis.hpp"
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
