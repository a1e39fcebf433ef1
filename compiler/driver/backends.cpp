// The registry of back ends (note [back ends] in backend.hpp): one row per
// family, and what a back end answers for a command its family lacks.
#include <cstdlib>
#include <iostream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/grid/grid_backend.hpp"
#include "compiler/driver/perm/perm_backend.hpp"
#include "compiler/ir/blocks_level_reader.hpp"

namespace pz::driver {

namespace {

struct Registration {
    ir::Puzzle::Kind kind;
    const Backend* backend;
};

// Sliding-block puzzles (compiler/ir/blocks.hpp) are read and checked by
// the front end, but have no back end yet: every command refuses them with
// one error (Backend's defaults). `pzc check` first reads the declared
// levels, so their errors are reported (compiler/ir/blocks_level_reader.hpp).
class BlocksFrontEndOnly : public Backend {
public:
    const char* family() const override { return "sliding-block puzzle"; }
    int check(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const Args&) const override {
        bool ok = true;
        for (const auto& path : unit.puzzle().blocks.levelPaths)
            ok = readBlockLevelFile(path, unit.puzzle().blocks, diags).has_value() && ok;
        diags.print(std::cerr);
        if (!ok) return 1;
        return refuse("check", unit, "the definition is valid, but sliding-block puzzles have no back end yet");
    }
    const char* solveUsage() const override {
        return "  (sliding-block puzzles are read and checked, but have no solver back end yet)\n";
    }
};

const PermutationBackend kPermutation;
const GridBackend kGrid;
const BlocksFrontEndOnly kBlocks;
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

}  // namespace pz::driver
