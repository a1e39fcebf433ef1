// The registry of back ends (note [back ends] in backend.hpp): one row per
// family, and what a back end answers for a command its family lacks.
#include <cstdlib>
#include <iostream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/grid/grid_backend.hpp"
#include "compiler/driver/perm/perm_backend.hpp"

namespace pz::driver {

namespace {

struct Registration {
    ir::Puzzle::Kind kind;
    const Backend* backend;
};

const PermutationBackend kPermutation;
const GridBackend kGrid;
const BlocksBackend kBlocks;
const Registration kBackends[] = {
    {ir::Puzzle::Kind::Permutation, &kPermutation},
    {ir::Puzzle::Kind::Grid, &kGrid},
    {ir::Puzzle::Kind::Blocks, &kBlocks},
};

}  // namespace

const Backend& backendFor(ir::Puzzle::Kind kind) {
    for (const auto& r : kBackends)
        if (r.kind == kind) return *r.backend;
    std::cerr << "pzc: internal error: no back end for this kind of puzzle\n";
    std::abort();
}

std::vector<const Backend*> allBackends() {
    std::vector<const Backend*> all;
    for (const auto& r : kBackends) all.push_back(r.backend);
    return all;
}

bool loadUnit(pipeline::CompilationUnit& unit) {
    DiagnosticEngine diags;
    bool ok = unit.load(diags);
    diags.print(std::cerr);
    return ok;
}

int Backend::refuse(const char* command, const pipeline::CompilationUnit& unit, const std::string& hint) const {
    std::cerr << "pzc " << command << ": error: " << unit.puzzle().name << " is a " << family() << "; " << hint << "\n";
    return 1;
}

int Backend::check(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const Args&) const {
    diags.print(std::cerr);
    return refuse("check", unit, "'pzc check' has no back end for it");
}

int Backend::solve(pipeline::CompilationUnit& unit, const Args&) const {
    return refuse("solve", unit, "'pzc solve' has no back end for it");
}

int Backend::solveFolder(pipeline::CompilationUnit& unit, const Args&) const {
    return refuse("solve-dir", unit, "'pzc solve-dir' solves grid-actor level folders");
}

int Backend::generate(pipeline::CompilationUnit& unit, const GenerateRequest&) const {
    return refuse("generate", unit, "'pzc generate' has no back end for it");
}

int Backend::build(pipeline::CompilationUnit& unit, const std::string&, const std::string&) const {
    return refuse("build", unit, "'pzc build' has no back end for it");
}

int Backend::inspect(pipeline::CompilationUnit& unit, const InspectRequest&) const {
    return refuse("inspect", unit, "'pzc inspect' has no back end for it");
}

int Backend::run(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const std::string&) const {
    diags.print(std::cerr);
    return refuse("run", unit, "'pzc run' interprets permutation puzzles");
}

int Backend::draw(pipeline::CompilationUnit& unit, const DrawRequest&) const {
    return refuse("draw", unit, "'pzc draw' has no back end for it");
}

int Backend::enumerate(pipeline::CompilationUnit& unit, const EnumerateRequest&) const {
    return refuse("enumerate", unit, "'pzc enumerate' enumerates permutation puzzles");
}

}  // namespace pz::driver
