// pzc draw for sliding-block puzzles (note [drawing] in
// compiler/render/drawing.hpp): the definition's board, a --state, or a
// --level file's board, after --scramble's moves, and one frame per move
// of --solution, all through the reference interpreter.
#include <iostream>
#include <sstream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/blocks/blocks_common.hpp"
#include "compiler/driver/blocks/blocks_positions.hpp"
#include "compiler/render/drawing.hpp"

namespace pz::driver {

namespace {

// Applies the named moves to `board`; with `frames`, one frame after each.
bool applyNamed(interp::BlockBoard& board, const std::string& option, const std::string& text,
                std::vector<render::BlocksFrame>* frames) {
    std::istringstream in(text);
    int index = 0;
    for (std::string name; in >> name;) {
        ++index;
        std::string why;
        auto move = board.parseMove(name, why);
        if (!move) {
            std::cerr << "pzc draw: error: " << option << ": " << why << "\n";
            return false;
        }
        if (!board.apply(*move)) {
            std::cerr << "pzc draw: error: " << option << ": move " << index << " (" << name << ") is not legal there\n";
            return false;
        }
        if (frames) frames->push_back({board, name});
    }
    return true;
}

}  // namespace

int BlocksBackend::draw(pipeline::CompilationUnit& unit, const DrawRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    const ir::BlockRules& rules = puzzle.blocks;
    ir::BlockLayout layout;
    std::string where;
    if (request.state) {
        if (!analysis::isTilePuzzle(rules)) {
            std::cerr << "pzc draw: error: --state is for n-puzzles (`moves blank`); " << puzzle.name << " takes --level FILE\n";
            return 2;
        }
        auto parsed = blocks::parseTileState(rules, *request.state);
        if (!parsed) return 1;
        layout = *parsed;
        where = "state " + *request.state;
    } else if (request.level) {
        DiagnosticEngine diags;
        std::vector<ir::BlockLayout> levels;
        readBlockLevels(rules, *request.level, levels, diags);
        diags.print(std::cerr);
        if (diags.hasErrors() || levels.empty()) return 1;
        if (levels.size() > 1)
            std::cerr << "pzc draw: note: " << *request.level << " holds " << levels.size() << " levels; drawing the first, "
                      << levels.front().name << "\n";
        layout = levels.front();
        where = "level " + layout.name;
    } else if (rules.board) {
        layout = *rules.board;
        where = rules.boardIsSolved ? "solved" : "start";
    } else {
        std::cerr << "pzc draw: error: " << puzzle.name << " has no board of its own; give --level FILE\n";
        return 2;
    }
    interp::BlockBoard board(rules, layout);
    if (request.scramble && !applyNamed(board, "--scramble", *request.scramble, nullptr)) return 1;
    std::vector<render::BlocksFrame> frames{{board, request.solution ? "start" : ""}};
    if (request.solution && !applyNamed(board, "--solution", *request.solution, &frames)) return 1;
    std::string title = puzzle.name + " " + where;
    if (request.scramble) title += " after " + *request.scramble;
    if (request.solution) title += ", then " + *request.solution;
    *request.svg = render::drawBlocks(rules, layout, frames, {title, request.file});
    return 0;
}

}  // namespace pz::driver
