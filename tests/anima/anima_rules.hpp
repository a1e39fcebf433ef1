// Anima's rules built directly in C++ (directions up/down/left/right, y up;
// red R/r moves with the pressed direction, blue B/b against it), for tests
// that must not depend on the front end. puzzles/anima.pz states the same.
#pragma once

#include "compiler/ir/puzzle.hpp"

namespace pz::test {

inline ir::GridRules animaRules() {
    ir::GridRules r;
    r.directions = {{"up", 0, 1}, {"down", 0, -1}, {"left", -1, 0}, {"right", 1, 0}};
    r.colours = {{"red", 'R', 'r', {0, 1, 2, 3}}, {"blue", 'B', 'b', {1, 0, 3, 2}}};
    return r;
}

}  // namespace pz::test
