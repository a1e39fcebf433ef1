// The solver model: default patterns when none is declared (the optimal
// search gets a heuristic instead of none), declared patterns otherwise.
#include <catch2/catch.hpp>

#include "compiler/codegen/perm/perm_emit.hpp"
#include "compiler/codegen/test_puzzles.hpp"

using namespace pz;

TEST_CASE("a definition without patterns is searched with the default patterns", "[default-patterns]") {
    DiagnosticEngine diags;
    analysis::SolverModel m;
    auto l5 = codegen::testing::loopover(5, {});
    REQUIRE(analysis::buildSolverModel(l5, m, diags));
    REQUIRE(m.defaultPatterns);
    REQUIRE(m.coordinates.size() == 1);
    REQUIRE(m.coordinates[0].pattern == "default_tiles");
    REQUIRE(m.coordinates[0].size == 303600);  // 4 of 25 tiles, ordered
    REQUIRE(codegen::describeModel(m).find("coordinates: (default patterns: the definition declares none)") != std::string::npos);

    analysis::SolverModel declared;
    REQUIRE(analysis::buildSolverModel(codegen::testing::loopover(5, {{0, 1}}), declared, diags));
    REQUIRE(!declared.defaultPatterns);
    REQUIRE(declared.coordinates.size() == 1);
    REQUIRE(declared.coordinates[0].pattern == "pieces2");
}
