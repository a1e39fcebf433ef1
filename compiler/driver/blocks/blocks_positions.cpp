#include "compiler/driver/blocks/blocks_positions.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/interp/blocks_interp.hpp"
#include "compiler/ir/blocks_level_reader.hpp"

namespace pz::driver::blocks {

std::optional<ir::BlockLayout> parseTileState(const ir::BlockRules& rules, const std::string& text) {
    DiagnosticEngine diags;
    auto layout = parseBlockState(text, rules, "--state", diags);
    diags.print(std::cerr);
    if (!layout) return std::nullopt;
    if (auto solvable = analysis::tileParitySolvable(rules, *layout); solvable && !*solvable) {
        std::cerr << "pzc solve: error: --state '" << text.substr(0, 200)
                  << "' cannot be solved: its permutation parity differs from the parity of the blank's distance to its "
                     "goal cell (half of all arrangements are unreachable)\n";
        return std::nullopt;
    }
    return layout;
}

std::optional<ir::BlockLayout> scrambledTiles(const ir::BlockRules& rules, const std::string& moves, std::string& why) {
    interp::BlockBoard board(rules, *rules.board);
    std::istringstream in(moves);
    int index = 0;
    for (std::string name; in >> name;) {
        ++index;
        auto move = board.parseMove(name, why);
        if (!move) return std::nullopt;
        if (!board.apply(*move)) {
            why = "move " + std::to_string(index) + " (" + name + ") is not legal there";
            return std::nullopt;
        }
    }
    ir::BlockLayout layout = *rules.board;
    layout.name.clear();
    for (size_t p = 0; p < layout.pieces.size(); ++p) layout.pieces[p].anchor = board.anchors()[p];
    return layout;
}

ir::BlockLayout randomTiles(const ir::BlockRules& rules, std::mt19937_64& rng) {
    // A uniform arrangement of the cells; if its parity is the unreachable
    // one, swapping two tiles (never the blank) fixes it: a bijection
    // between the two halves, so the result is uniform over the reachable half.
    const int n = rules.width * rules.height;
    std::vector<int> order(n);
    for (int c = 0; c < n; ++c) order[c] = c;
    std::shuffle(order.begin(), order.end(), rng);
    ir::BlockLayout layout = *rules.board;
    layout.name.clear();
    for (size_t p = 0; p < layout.pieces.size(); ++p) layout.pieces[p].anchor = {order[p] % rules.width, order[p] / rules.width};
    if (!*analysis::tileParitySolvable(rules, layout)) std::swap(layout.pieces[0].anchor, layout.pieces[1].anchor);
    return layout;
}

std::string tileStateText(const ir::BlockRules& rules, const ir::BlockLayout& layout) {
    std::vector<std::string> cells(static_cast<size_t>(rules.width) * rules.height, "0");
    for (const auto& piece : layout.pieces) cells[piece.anchor.y * rules.width + piece.anchor.x] = piece.name;
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) text += (c ? " " : "") + cells[c];
    return text;
}

}  // namespace pz::driver::blocks
