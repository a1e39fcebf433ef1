// The ksolve / twsearch definition format (.tws, also ksolve's .def) and
// its scramble files (.scr), read into the same AST as .pz and YAML.
//
// Format (see docs/language.md, "Importing .tws"): `Name`, `Set NAME SIZE
// ORIENTATIONS`, `Solved`/`StartState ... End`, `Move NAME ... End`,
// `MoveTransformation NAME ... End`, `MoveAlias NAME MOVE`, `MoveSequence
// NAME MOVES...`, `# comments`. A position block lists, per set, a
// permutation line and an optional orientation line.
//
// Semantics (twsearch's, which reads ksolve's files):
//   * Move (ksolve style, 1-based): the permutation gives, for each position
//     p, the position whose piece moves to p; the orientation list gives,
//     for each position q, the twist added to the piece that *leaves* q.
//     That is exactly the AST's cycle twist (`q+k` twists the piece leaving
//     q), so a Move becomes cycles directly.
//   * MoveTransformation / StartState (new style, 0-based): the orientation
//     is the twist gained by the piece that *lands* at p.
//   * Solved: for each position, the label of the piece there; repeated
//     labels are identical pieces (the AST's `solved` labels).
//   * Every power of a move is a move of the metric, named as twsearch
//     names them (R, R2, R' for order 4; R, R2, R2', R' for order 5), so
//     optimal lengths match twsearch's default (half-turn-like) metric.
//   * Moves named like rotations (x, y, z, x2, x', or capitals followed by
//     `v`), and MoveAlias names, are macros: usable in sequences, not searched.
//
//   * Illegal SET POSITION PIECE: the AST's `illegal` placements.
// Not supported (located errors naming the limit): Ignore, Block,
// ForbiddenPairs, ForbiddenGroups, MoveLimits, `?` as a piece label.
// `?` orientations in the Solved block: on every piece of a set, the set is
// read unoriented; on some pieces only, as stickers (tws_reader.cpp, note
// [sticker sets]).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostics.hpp"

namespace pz {

// A definition file (.tws) to the AST.
std::optional<ast::Puzzle> parseTwsText(const std::string& file, const std::string& text, DiagnosticEngine& diags);

// A twsearch move sequence: names separated by blanks or commas ("R U2 R'",
// "2R, U"). Names are looked up by the evaluator (whole name first).
std::optional<ast::Expr> parseTwsAlgText(const std::string& file, const std::string& text, SourceRange origin,
                                         DiagnosticEngine& diags);

// One scramble of a scramble file: a move sequence (ScrambleAlg) or a
// position (Scramble / ScrambleState / StartState).
struct TwsScramble {
    std::string name;
    SourceRange range;
    bool isAlg = false;
    ast::Expr alg;  // isAlg
    // Per orbit of the definition: the label of the piece at each position
    // (1-based, as in the definition's solved labels) and its orientation.
    // Empty: that set is as in the solved state.
    std::vector<std::vector<int>> labels, ori;
};

// A scramble file for `definition` (which must come from parseTwsText).
// Returns the scrambles that were read; errors (all of them) go to `diags`.
std::vector<TwsScramble> parseTwsScrambleText(const std::string& file, const std::string& text,
                                              const ast::Puzzle& definition, DiagnosticEngine& diags);

// The solved labels of each orbit of a definition read by parseTwsText
// (1-based numbers; 1..n when the file gives none).
std::vector<std::vector<int>> twsSolvedLabels(const ast::Puzzle& definition);

// Renames the puzzle, orbits, moves and macros of an AST read from .tws into
// .pz identifiers (`2R` -> `_2R`, `R-1` -> `R_1`), keeping names distinct and
// rewriting every reference, so that `pzc convert FILE.tws --to pz|yaml`
// writes a definition the .pz reader accepts.
void makeTwsNamesIdentifiers(ast::Puzzle& puzzle);

}  // namespace pz
