// Lowering: AST -> IR. Resolves names, expands cycles and move expressions
// into Elements, generates powers by the power scheme, validates everything
// (duplicate/unknown names, repeated positions in a cycle, out-of-range
// positions or orientations, symmetries that do not preserve the move set,
// subgroup generators that are not moves, ...). Reports all errors found.
#pragma once

#include <optional>

#include "compiler/ir/puzzle.hpp"
#include "dsl/ast.hpp"

namespace pz::ir {

std::optional<Puzzle> lower(const ast::Puzzle& puzzle, DiagnosticEngine& diags);

// parsePuzzleFile + lower.
std::optional<Puzzle> loadPuzzle(const std::string& path, DiagnosticEngine& diags);

}  // namespace pz::ir

namespace pz::ir {
// Evaluates a move expression (e.g. from `pzc run FILE "R U R'"` or a
// scramble) over the puzzle's names: moves, their powers, macros. `file` and
// the expression's ranges are used for diagnostics.
std::optional<Element> evaluate(const Puzzle& puzzle, const ast::Expr& expr,
                                const std::string& file, DiagnosticEngine& diags);
// parseExpressionText + evaluate; `what` names the source in diagnostics
// (e.g. "<scramble>").
std::optional<Element> evaluateText(const Puzzle& puzzle, const std::string& text,
                                    const std::string& what, DiagnosticEngine& diags);
}  // namespace pz::ir
