// pzc draw for permutation puzzles (note [drawing] in
// compiler/render/drawing.hpp): the position from --scramble or --state
// (read as pzc solve reads them, positions.hpp), then one frame per word of
// --solution, all through the reference interpreter.
#include <iostream>
#include <sstream>

#include "compiler/driver/perm/perm_backend.hpp"
#include "compiler/driver/perm/positions.hpp"
#include "compiler/interp/interpreter.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"
#include "compiler/render/drawing.hpp"

namespace pz::driver {

namespace {

// The solution's words, each the element of one step; nullopt after an error.
// The whole text is evaluated first so that its errors carry their columns.
std::optional<std::vector<std::pair<std::string, ir::Element>>> solutionSteps(const ir::Puzzle& puzzle,
                                                                              const std::string& text) {
    DiagnosticEngine diags;
    auto whole = ir::evaluateText(puzzle, text, "<solution>", diags);
    diags.print(std::cerr);
    if (!whole) return std::nullopt;
    std::vector<std::pair<std::string, ir::Element>> steps;
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        DiagnosticEngine quiet;
        auto e = ir::evaluateText(puzzle, word, "<solution>", quiet);
        if (!e) {
            std::cerr << "pzc draw: error: --solution: '" << word
                      << "' is not a step on its own; write one move or macro a word\n";
            return std::nullopt;
        }
        if (e->mirror) {
            std::cerr << "pzc draw: error: --solution: '" << word << "' is a mirror symmetry, not a move\n";
            return std::nullopt;
        }
        steps.emplace_back(word, std::move(*e));
    }
    return steps;
}

}  // namespace

int PermutationBackend::draw(pipeline::CompilationUnit& unit, const DrawRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    if (request.level) {
        std::cerr << "pzc draw: error: --level is for grid-actor puzzles; " << puzzle.name << " is a " << family()
                  << " (use --scramble or --state)\n";
        return 2;
    }
    std::string why, title = puzzle.name;
    std::optional<ir::Element> start = ir::identity(puzzle.orbits);
    if (request.scramble) {
        start = scrambleElement(puzzle, *request.scramble, why);
        title += " after " + *request.scramble;
    } else if (request.state) {
        start = stateElement(unit, *request.state, why);
        title += ", state " + *request.state;
    } else {
        title += ", solved";
    }
    if (!start) {
        std::cerr << (why.find("error:") != std::string::npos ? "" : "pzc draw: error: ") << why << "\n";
        return 1;
    }
    std::vector<std::pair<std::string, ir::Element>> steps;
    if (request.solution) {
        auto parsed = solutionSteps(puzzle, *request.solution);
        if (!parsed) return 1;
        steps = std::move(*parsed);
        if (!steps.empty()) title += ", then " + *request.solution;
    }
    interp::Interpreter interpreter(puzzle);
    std::vector<render::PermFrame> frames;
    frames.push_back({interpreter.apply(interpreter.solved(), *start), steps.empty() && !request.solution ? "" : "start"});
    for (const auto& [word, element] : steps) frames.push_back({interpreter.apply(frames.back().state, element), word});
    // A layout gives geometry; without one the schematic (note [drawing]).
    *request.svg = puzzle.layout ? render::drawNet(interpreter, *puzzle.layout, frames, {title, request.file})
                                 : render::drawSchematic(interpreter, frames, {title, request.file});
    return 0;
}

}  // namespace pz::driver
