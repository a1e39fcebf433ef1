// Lowering of a permutation puzzle's `layout` section (pzc draw's geometry,
// note [sticker slots] in compiler/ir/puzzle.hpp): names resolved against
// the lowered orbits, every check reported with its location.
#pragma once

#include "compiler/ir/puzzle.hpp"
#include "dsl/ast.hpp"

namespace pz::ir {

// The layout of `src` over `orbits` (already lowered); nullopt after an error.
std::optional<Layout> lowerLayout(const ast::Layout& src, const std::vector<Orbit>& orbits, const std::string& file,
                                  DiagnosticEngine& diags);

}  // namespace pz::ir
