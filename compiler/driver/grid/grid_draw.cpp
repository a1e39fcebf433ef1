// pzc draw for grid-actor puzzles (note [drawing] in
// compiler/render/drawing.hpp): the level file's board, its actors after
// --scramble's presses from the start, and one frame per press of
// --solution, all through the reference grid interpreter.
#include <iostream>
#include <sstream>

#include "compiler/driver/grid/grid_backend.hpp"
#include "compiler/interp/grid_interp.hpp"
#include "compiler/ir/level_reader.hpp"
#include "compiler/render/drawing.hpp"

namespace pz::driver {

namespace {

// The presses named by `text` (direction names, one a word); nullopt after
// an error naming the option and the directions there are.
std::optional<std::vector<int>> presses(const ir::GridRules& rules, const std::string& option, const std::string& text) {
    std::vector<int> out;
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        int found = -1;
        for (size_t d = 0; d < rules.directions.size(); ++d)
            if (rules.directions[d].name == word) found = (int)d;
        if (found < 0) {
            std::cerr << "pzc draw: error: " << option << ": unknown direction '" << word << "' (directions:";
            for (const auto& d : rules.directions) std::cerr << ' ' << d.name;
            std::cerr << ")\n";
            return std::nullopt;
        }
        out.push_back(found);
    }
    return out;
}

}  // namespace

int GridBackend::draw(pipeline::CompilationUnit& unit, const DrawRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    if (request.state) {
        std::cerr << "pzc draw: error: --state is for permutation puzzles; " << puzzle.name << " is a " << family()
                  << " (use --level FILE, and --scramble for presses from its start)\n";
        return 2;
    }
    if (!request.level) {
        std::cerr << "pzc draw: error: " << puzzle.name << " is a " << family() << "; give --level FILE\n";
        return 2;
    }
    DiagnosticEngine diags;
    auto level = readLevelFile(*request.level, puzzle.grid, diags);
    diags.print(std::cerr);
    if (!level || diags.hasErrors()) return 1;
    std::vector<int> before, steps;
    if (request.scramble) {
        auto parsed = presses(puzzle.grid, "--scramble", *request.scramble);
        if (!parsed) return 1;
        before = std::move(*parsed);
    }
    if (request.solution) {
        auto parsed = presses(puzzle.grid, "--solution", *request.solution);
        if (!parsed) return 1;
        steps = std::move(*parsed);
    }
    interp::GridBoard board(puzzle.grid, *level);
    interp::GridState start = board.initialState();
    for (int p : before) start = board.step(start, p);
    std::string title = puzzle.name + " level " + level->name;
    if (request.scramble) title += " after " + *request.scramble;
    if (!steps.empty()) title += ", then " + *request.solution;
    std::vector<render::GridFrame> frames;
    frames.push_back({start, request.solution ? "start" : ""});
    for (int p : steps) frames.push_back({board.step(frames.back().state, p), puzzle.grid.directions[p].name});
    *request.svg = render::drawGridLevel(board, frames, {title, request.file});
    return 0;
}

}  // namespace pz::driver
