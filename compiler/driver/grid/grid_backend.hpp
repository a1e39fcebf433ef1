// The grid-actor back end (note [back ends] in compiler/driver/backend.hpp):
// Anima-style levels of actors sliding on a board (grid_backend.cpp; pzc draw:
// grid_draw.cpp).
// Emitters: compiler/codegen/grid/; the generated solver's main:
// runtime/include/pz/grid_main.hpp.
#pragma once

#include "compiler/driver/backend.hpp"

namespace pz::driver {

class GridBackend : public Backend {
public:
    const char* family() const override { return "grid-actor puzzle"; }
    const char* solveUsage() const override;
    // pzc check DEF [--level FILE | --levels DIR]: the levels' layouts
    int check(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const Args& args) const override;
    // pzc solve DEF (--level FILE | --levels DIR | nothing: the levels DEF lists)
    int solve(pipeline::CompilationUnit& unit, const Args& args) const override;
    // pzc solve-dir DEF DIR|LEVEL_FILE...: the folder's table
    int solveFolder(pipeline::CompilationUnit& unit, const Args& args) const override;
    int generate(pipeline::CompilationUnit& unit, const GenerateRequest& request) const override;
    int build(pipeline::CompilationUnit& unit, const std::string& output, const std::string& solver) const override;
    int inspect(pipeline::CompilationUnit& unit, const InspectRequest& request) const override;
    // pzc draw DEF --level FILE [--scramble MOVES] [--solution MOVES] (grid_draw.cpp)
    int draw(pipeline::CompilationUnit& unit, const DrawRequest& request) const override;
};

}  // namespace pz::driver
