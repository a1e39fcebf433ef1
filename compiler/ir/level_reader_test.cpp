#include "compiler/ir/level_reader.hpp"

#include <catch2/catch.hpp>
#include <sstream>

using namespace pz;

namespace {

ir::GridRules animaRules() {
    ir::GridRules r;
    r.directions = {{"up", 0, 1}, {"down", 0, -1}, {"left", -1, 0}, {"right", 1, 0}};
    r.colours = {{"red", 'R', 'r', {0, 1, 2, 3}}, {"blue", 'B', 'b', {1, 0, 3, 2}}};
    return r;
}

std::string errorsOf(const std::string& text) {
    DiagnosticEngine diags;
    diags.addSource("l.txt", text);
    auto level = parseLevelText("l.txt", text, animaRules(), diags);
    CHECK(!level);
    std::ostringstream out;
    for (const auto& d : diags.all())
        out << d.range.line << ":" << d.range.col << ": " << d.message << "\n";
    return out.str();
}

}  // namespace

TEST_CASE("a level reads grid, goals and actors with y up") {
    DiagnosticEngine diags;
    auto level = parseLevelText("dir/3.11-inversion.txt", ".r.\n. .\n.b.\n\nB 1 0 \nR 1 2", animaRules(), diags);
    REQUIRE(level);
    CHECK(level->name == "3.11-inversion");
    CHECK(level->width == 3);
    CHECK(level->height == 3);
    CHECK(level->isFloor(0, 0));
    CHECK(!level->isFloor(1, 1));
    CHECK(!level->isFloor(3, 0));
    REQUIRE(level->goals.size() == 2);
    CHECK(level->goals[0].colour == 0);
    CHECK(level->goals[0].x == 1);
    CHECK(level->goals[0].y == 2);
    CHECK(level->goals[1].colour == 1);
    CHECK(level->goals[1].y == 0);
    REQUIRE(level->actors.size() == 2);
    CHECK(level->actors[0].colour == 1);
    CHECK(level->actors[1].y == 2);
}

TEST_CASE("every error of a level is reported in one run") {
    CHECK(errorsOf("...\n..\n\nR 0 0") ==
          "2:1: row has 2 columns but the first row has 3; rows must be equally long\n");
    CHECK(errorsOf(".x.\n\nR 0 0").find("1:2: unknown character 'x'") == 0);
    CHECK(errorsOf("...\nR 0 0") == "2:1: expected an empty line between the grid and the actors\n");
    CHECK(errorsOf("...") == "1:4: expected an empty line and the actors after the grid\n");
    CHECK(errorsOf("...\n\nG 0 0\nR a 0\nR 0") ==
          "3:1: unknown actor colour 'G'; expected R or B\n"
          "4:3: bad x coordinate 'a'; expected a whole number\n"
          "5:4: expected the actor's y coordinate\n");
    CHECK(errorsOf(". .\n\nR 3 0\nR 1 0\nR 0 0\nB 0 0") ==
          "3:3: actor at (3, 0) is off the board (3 x 1, x 0..2, y 0..0 from the bottom row)\n"
          "4:3: actor at (1, 0) is on a wall\n"
          "6:3: two actors on cell (0, 0)\n"
          "5:3: the first actor on (0, 0) is here\n");
}
