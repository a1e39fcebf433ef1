// Front-end entry points: text (.pz) and YAML (.yaml/.yml) to one AST, and
// back. Errors go to the DiagnosticEngine; a nullopt result means at least
// one error was reported.
#pragma once

#include <optional>
#include <string>

#include "dsl/ast.hpp"
#include "dsl/diagnostics.hpp"

namespace pz {

// Chooses the front end by extension (.yaml/.yml = YAML, .tws = ksolve/twsearch
// (dsl/tws_reader.hpp), anything else = .pz).
// Files are bounded (note [input bounds] in dsl/diagnostics.hpp) and so is
// the number of moves: checkMoveCount.
std::optional<ast::Puzzle> parsePuzzleFile(const std::string& path, DiagnosticEngine& diags);

// At most kMaxMoves moves: move declarations times the names in `powers`
// (the analyses compare every pair of moves). Reports the first move past
// the limit.
constexpr int kMaxMoves = 4096;
bool checkMoveCount(const ast::Puzzle& puzzle, DiagnosticEngine& diags);

std::optional<ast::Puzzle> parsePzText(const std::string& file, const std::string& text,
                                       DiagnosticEngine& diags);
std::optional<ast::Puzzle> parseYamlText(const std::string& file, const std::string& text,
                                         DiagnosticEngine& diags);

// Parses a move expression ("R U R' [R, U]") with the shared ANTLR expression
// grammar. `origin` is where `text` starts in `file` (YAML scalars), so
// diagnostics point into the original file.
std::optional<ast::Expr> parseExpressionText(const std::string& file, const std::string& text,
                                             SourceRange origin, DiagnosticEngine& diags);

// Printers (pzc convert). Deterministic; parse(print(x)) equals x up to ranges.
std::string printPz(const ast::Puzzle& puzzle);
std::string printYaml(const ast::Puzzle& puzzle);

}  // namespace pz
