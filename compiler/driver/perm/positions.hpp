// Positions of a permutation puzzle as the user gives them: a scramble (a
// move expression) or a state (the element's numbers). Shared by pzc solve
// (--scramble, --state, batches) and pzc draw, so both accept and refuse
// the same texts with the same messages.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/puzzle.hpp"
#include "compiler/pipeline/compilation_unit.hpp"

namespace pz::driver {

// The element's numbers: each orbit's permutation, then each oriented
// orbit's orientations (the form --state reads and solvers are sent).
std::vector<long> elementNumbers(const ir::Puzzle& p, const ir::Element& e);

// Whether some pieces of the orbit share a label.
bool identicalPieces(const ir::Orbit& orbit);

// The inverse of elementNumbers, validated (identical pieces may be given
// by their labels); error text in `why`.
std::optional<ir::Element> elementFromNumbers(const ir::Puzzle& p, const std::vector<long>& v, std::string& why);

// The element of one scramble, or nullopt with the reason in `why` (the
// evaluator's located diagnostics, already formatted).
std::optional<ir::Element> scrambleElement(const ir::Puzzle& puzzle, const std::string& text, std::string& why);

// The element of one state (the element's numbers), checked against the
// group; "bad state: ..." in `why` otherwise.
std::optional<ir::Element> stateElement(pipeline::CompilationUnit& unit, const std::string& text, std::string& why);

}  // namespace pz::driver
