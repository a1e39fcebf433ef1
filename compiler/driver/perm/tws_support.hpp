// .tws (ksolve / twsearch) support in the driver: export (`pzc convert
// --to tws`) and scramble files (`pzc solve FILE.tws --tws-scrambles F`).
// The reader itself is dsl/tws_reader.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/ir/puzzle.hpp"
#include "dsl/diagnostics.hpp"

namespace pz::driver {

// The puzzle as a .tws definition: Name, Set, Solved and one Move per move
// family (twsearch derives the powers). Nullopt with the reason in `why`
// when the format cannot express it: grid puzzles, and move sets other than
// "every power of every family, each counted as one move" (twsearch's
// metric). Macros, symmetries, subgroups, patterns and solvers have no .tws
// form; they are listed in a comment.
std::optional<std::string> printTws(const ir::Puzzle& puzzle, std::string& why);

// Reads a scramble file for a puzzle read from .tws: ScrambleAlg (move
// sequences) and Scramble / ScrambleState / StartState (positions, checked
// to be reachable). Appends the positions to `out`; errors are located.
bool loadTwsScrambleFile(const ir::Puzzle& puzzle, analysis::PuzzleAnalysis& groups, const std::string& path,
                         std::vector<ir::Element>& out, DiagnosticEngine& diags);

}  // namespace pz::driver
