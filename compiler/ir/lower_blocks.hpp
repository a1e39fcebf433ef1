// Lowering of sliding-block puzzles: the `blocks` part of an ast::Puzzle ->
// ir::BlockRules (compiler/ir/blocks.hpp, note [blocks model]). Called by
// lower() for Kind::Blocks; every error is reported with its location.
#pragma once

#include "compiler/ir/blocks.hpp"
#include "dsl/ast.hpp"

namespace pz::ir {

// Fills `out`; false when an error was reported.
bool lowerBlocks(const ast::Puzzle& src, BlockRules& out, DiagnosticEngine& diags);

}  // namespace pz::ir
