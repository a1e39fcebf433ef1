// Entry points into the shared ANTLR grammar for pieces of text that are not
// whole .pz files: the structured string fields of the YAML front end. Only
// AST types cross this header; parse trees stay in pz_reader.cpp.
//
// `origin` is where `text` starts in `file` (1-based); diagnostics and AST
// ranges are shifted by it, so they point into the original file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostics.hpp"

namespace pz {

// "(UFR+1 UBR+2 DBR+1 DFR+2) (UR BR DR FR)"
std::optional<std::vector<ast::Cycle>> parseCyclesText(const std::string& file, const std::string& text,
                                                       SourceRange origin, DiagnosticEngine& diags);
// "U, D, R2, L2"
std::optional<std::vector<ast::Expr>> parseGeneratorsText(const std::string& file, const std::string& text,
                                                          SourceRange origin, DiagnosticEngine& diags);
// "UFR UBL 3 4"
std::optional<std::vector<ast::PositionRef>> parsePositionsText(const std::string& file, const std::string& text,
                                                                SourceRange origin, DiagnosticEngine& diags);

}  // namespace pz
