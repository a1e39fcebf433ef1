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
