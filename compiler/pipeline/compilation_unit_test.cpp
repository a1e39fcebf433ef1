// The compilation unit builds each analysis at most once, whatever stages
// ask for it, and only when asked (note [compilation unit]).
#include "compiler/pipeline/compilation_unit.hpp"

#include <catch2/catch.hpp>

using pz::analysis::PuzzleAnalysis;
using pz::pipeline::CompilationUnit;

TEST_CASE("loading a definition builds no analysis") {
    const long before = PuzzleAnalysis::constructed();
    CompilationUnit unit("tests/puzzles/loopover3.pz");
    pz::DiagnosticEngine diags;
    REQUIRE(unit.load(diags));
    CHECK(unit.puzzle().name == "loopover3");
    CHECK(PuzzleAnalysis::constructed() == before);
}

TEST_CASE("every stage of a solve shares one PuzzleAnalysis") {
    const long before = PuzzleAnalysis::constructed();
    CompilationUnit unit("tests/puzzles/cube2_phased.pz");
    pz::DiagnosticEngine diags;
    REQUIRE(unit.load(diags));
    REQUIRE(unit.check(diags));
    const pz::analysis::SolverModel* model = unit.solverModel(diags);
    REQUIRE(model != nullptr);
    CHECK(!unit.solverSource().empty());
    CHECK(unit.analysis().contains(unit.puzzle().moves[0].effect));
    // Asked again: the same objects, nothing rebuilt.
    CHECK(unit.solverModel(diags) == model);
    CHECK(unit.check(diags));
    CHECK(PuzzleAnalysis::constructed() == before + 1);

    // A phased plan is built once too (its phases analyse their own,
    // restricted puzzles: those are other puzzles, not counted here).
    int phased = -1;
    for (size_t i = 0; i < unit.puzzle().solvers.size() && phased < 0; ++i)
        if (unit.puzzle().solvers[i].kind == pz::ir::Solver::Kind::Phased) phased = static_cast<int>(i);
    REQUIRE(phased >= 0);
    const pz::analysis::SolverPlan* plan = unit.phasedPlan(phased, diags);
    REQUIRE(plan != nullptr);
    const long afterPlan = PuzzleAnalysis::constructed();
    CHECK(unit.phasedPlan(phased, diags) == plan);
    CHECK(!unit.solverSource(phased).empty());
    CHECK(PuzzleAnalysis::constructed() == afterPlan);
    CHECK(!diags.hasErrors());
}

TEST_CASE("each declared optimal solver is its own plan; the first is the default one") {
    // note [search plans]
    CompilationUnit unit("tests/puzzles/loopover3_solvers.pz");
    pz::DiagnosticEngine diags;
    REQUIRE(unit.load(diags));
    REQUIRE(unit.defaultOptimalSolver() == 0);  // weak
    const long before = PuzzleAnalysis::constructed();
    const pz::analysis::SolverModel* byDefault = unit.solverModel(diags);
    const pz::analysis::SolverModel* weak = unit.solverModel(diags, 0);
    const pz::analysis::SolverModel* exact = unit.solverModel(diags, 1);
    REQUIRE(byDefault != nullptr);
    REQUIRE(exact != nullptr);
    CHECK(weak == byDefault);
    CHECK(exact != byDefault);
    REQUIRE(byDefault->coordinates.size() == 1);
    REQUIRE(exact->coordinates.size() == 1);
    CHECK(byDefault->coordinates[0].pattern == "top_row");
    CHECK(exact->coordinates[0].pattern == "all");
    CHECK(unit.solverModel(diags, 1) == exact);
    CHECK(PuzzleAnalysis::constructed() == before + 1);  // one analysis serves both plans
    // Two binaries: the default keeps the puzzle's name, the other is named after its solver.
    CHECK(unit.solverStem(-1) == "loopover3_solvers");
    CHECK(unit.solverStem(0) == "loopover3_solvers");
    CHECK(unit.solverStem(1) == "loopover3_solvers_exact");
    CHECK(unit.solverSource(0) == unit.solverSource(-1));
    CHECK(unit.solverSource(1) != unit.solverSource(-1));
    CHECK(!diags.hasErrors());
}
