#include "compiler/analysis/blocks/blocks_analysis.hpp"

#include <algorithm>
#include <set>


namespace pz::analysis {

bool isTilePuzzle(const ir::BlockRules& rules) {
    if (rules.moveNames != ir::BlockRules::MoveNames::Blank || rules.exit || !rules.board || !rules.boardIsSolved)
        return false;
    if (std::find(rules.wall.begin(), rules.wall.end(), true) != rules.wall.end()) return false;
    for (const auto& t : rules.board->types)
        if (t.shape.size() != 1) return false;
    return rules.board->empties == 1 && rules.board->types.size() == rules.board->pieces.size();
}

namespace {

// cell -> piece index + 1 (0: empty) of a layout.
std::vector<int> cellContents(const ir::BlockRules& rules, const ir::BlockLayout& layout) {
    std::vector<int> cells(rules.width * rules.height, 0);
    for (size_t p = 0; p < layout.pieces.size(); ++p)
        cells[layout.pieces[p].anchor.y * rules.width + layout.pieces[p].anchor.x] = static_cast<int>(p) + 1;
    return cells;
}

// The solved board's piece index of each type (tile puzzles: one piece per type).
int solvedPieceOfType(const ir::BlockRules& rules, int type) {
    for (size_t p = 0; p < rules.board->pieces.size(); ++p)
        if (rules.board->pieces[p].type == type) return static_cast<int>(p);
    return -1;
}

}  // namespace

std::optional<bool> tileParitySolvable(const ir::BlockRules& rules, const ir::BlockLayout& layout) {
    if (!isTilePuzzle(rules)) return std::nullopt;
    const int n = rules.width * rules.height;
    // goalCell[id]: where the solved board has the piece of that type (id 0: the blank).
    std::vector<int> goalCell(n, -1), now(n, -1);
    const auto solved = cellContents(rules, *rules.board);
    for (int c = 0; c < n; ++c) goalCell[solved[c]] = c;
    std::vector<int> perm(n);  // perm[c] = goal cell of what stands at c
    for (int c = 0; c < n; ++c) perm[c] = -1;
    int blank = -1;
    std::vector<char> filled(n, 0);
    for (const auto& piece : layout.pieces) {
        const int c = piece.anchor.y * rules.width + piece.anchor.x;
        perm[c] = goalCell[solvedPieceOfType(rules, piece.type) + 1];
        filled[c] = 1;
    }
    for (int c = 0; c < n; ++c)
        if (!filled[c]) blank = c, perm[c] = goalCell[0];
    int transpositions = 0;
    std::vector<char> seen(n, 0);
    for (int c = 0; c < n; ++c) {
        if (seen[c]) continue;
        int length = 0;
        for (int d = c; !seen[d]; d = perm[d]) seen[d] = 1, ++length;
        transpositions += length - 1;
    }
    const int distance = std::abs(blank % rules.width - goalCell[0] % rules.width) +
                         std::abs(blank / rules.width - goalCell[0] / rules.width);
    return (transpositions % 2) == (distance % 2);
}

std::string tileReachableFormula(const ir::BlockRules& rules) {
    // n!/2 in decimal, by schoolbook multiplication (25! overflows 64 bits).
    std::vector<int> digits{1};  // little-endian
    auto multiply = [&](int k) {
        int carry = 0;
        for (int& d : digits) {
            const int v = d * k + carry;
            d = v % 10, carry = v / 10;
        }
        for (; carry; carry /= 10) digits.push_back(carry % 10);
    };
    const int n = rules.width * rules.height;
    for (int k = 3; k <= n; ++k) multiply(k);  // n!/2 = 3 * 4 * ... * n
    std::string text;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) text += static_cast<char>('0' + *it);
    return text;
}

std::optional<ir::BlockCell> mapCell(const ir::BlockRules& rules, ir::BlockSymmetryKind kind, ir::BlockCell c) {
    const int w = rules.width, h = rules.height;
    switch (kind) {
        case ir::BlockSymmetryKind::Transpose:
            if (w != h) return std::nullopt;
            return ir::BlockCell{c.y, c.x};
        case ir::BlockSymmetryKind::AntiTranspose:
            if (w != h) return std::nullopt;
            return ir::BlockCell{w - 1 - c.y, h - 1 - c.x};
        case ir::BlockSymmetryKind::MirrorX: return ir::BlockCell{w - 1 - c.x, c.y};
        case ir::BlockSymmetryKind::MirrorY: return ir::BlockCell{c.x, h - 1 - c.y};
        case ir::BlockSymmetryKind::Rotate180: return ir::BlockCell{w - 1 - c.x, h - 1 - c.y};
    }
    return std::nullopt;
}

namespace {

// The cells of every piece of a layout, as one set per piece (sorted).
std::vector<std::vector<int>> pieceCells(const ir::BlockRules& rules, const ir::BlockLayout& layout) {
    std::vector<std::vector<int>> out;
    for (const auto& piece : layout.pieces) {
        std::vector<int> cells;
        for (const auto& c : layout.types[piece.type].shape)
            cells.push_back((piece.anchor.y + c.y) * rules.width + piece.anchor.x + c.x);
        std::sort(cells.begin(), cells.end());
        out.push_back(cells);
    }
    return out;
}

}  // namespace

std::string symmetryProblem(const ir::BlockRules& rules, const ir::BlockSymmetry& symmetry) {
    const int w = rules.width, h = rules.height;
    if (!mapCell(rules, symmetry.kind, {0, 0})) return "the board is not square";
    auto image = [&](int cell) {
        auto m = *mapCell(rules, symmetry.kind, {cell % w, cell / w});
        return m.y * w + m.x;
    };
    for (int c = 0; c < w * h; ++c)
        if (rules.wall[c] != rules.wall[image(c)]) return "it maps a wall onto a free cell";
    if (rules.exit) return "a board with an exit has no symmetry pzc uses";
    switch (rules.goal.kind) {
        case ir::BlockGoal::Kind::Full: {
            // The solved board's pieces map onto pieces of the same shape; empties onto empties.
            const auto cells = pieceCells(rules, *rules.board);
            std::set<std::vector<int>> pieces(cells.begin(), cells.end());
            for (const auto& piece : cells) {
                std::vector<int> mapped;
                for (int c : piece) mapped.push_back(image(c));
                std::sort(mapped.begin(), mapped.end());
                if (!pieces.count(mapped)) return "the solved board's pieces do not map onto pieces";
            }
            return "";
        }
        case ir::BlockGoal::Kind::Place:
        case ir::BlockGoal::Kind::Exit:
            return "symmetries are used with full goals (the solved board) only";
    }
    return "";
}

std::optional<TileReflection> tileReflection(const ir::BlockRules& rules, const ir::BlockSymmetry& symmetry) {
    if (!isTilePuzzle(rules) || !symmetryProblem(rules, symmetry).empty()) return std::nullopt;
    const int w = rules.width, n = w * rules.height;
    TileReflection r;
    const auto solved = cellContents(rules, *rules.board);  // cell -> tile (piece index + 1)
    r.cellMap.resize(n);
    r.tileMap.assign(n, 0);
    for (int c = 0; c < n; ++c) {
        auto m = *mapCell(rules, symmetry.kind, {c % w, c / w});
        r.cellMap[c] = m.y * w + m.x;
    }
    for (int c = 0; c < n; ++c) r.tileMap[solved[c]] = solved[r.cellMap[c]];
    if (r.tileMap[0] != 0) return std::nullopt;  // the blank's goal must lie on the symmetry's axis
    return r;
}

uint64_t tilePatternEntries(const ir::BlockRules& rules, const ir::BlockPattern& pattern) {
    const uint64_t cells = static_cast<uint64_t>(rules.width) * rules.height;
    uint64_t entries = 1;
    for (size_t k = 0; k < pattern.pieces.size(); ++k) entries *= cells - k;
    return entries;
}

uint64_t tileTableBytes(const ir::BlockRules& rules, const ir::BlockSolver& solver) {
    if (solver.heuristic != ir::BlockSolver::Heuristic::Additive) return 0;
    uint64_t bytes = 64;
    for (int p : solver.patterns) bytes += ((tilePatternEntries(rules, rules.patterns[p]) + 1) / 2 + 63) / 64 * 64;
    return bytes;
}

std::string solverProblem(const ir::BlockRules& rules, const ir::BlockSolver& solver) {
    using H = ir::BlockSolver::Heuristic;
    if (solver.heuristic == H::Bfs) return "";
    if (!isTilePuzzle(rules))
        return std::string(solver.heuristic == H::Additive ? "additive pattern databases" : "the Manhattan distance") +
               " needs an n-puzzle (`moves blank`, no walls or exit, a solved board): every move moves one 1x1 tile one "
               "cell at cost 1; use `bfs` for other boards";
    if (solver.reflection) {
        const auto& sym = rules.symmetries[*solver.reflection];
        const std::string why = symmetryProblem(rules, sym);
        if (!why.empty()) return "symmetry " + sym.name + " cannot reflect lookups: " + why;
        if (!tileReflection(rules, sym)) return "symmetry " + sym.name + " moves the blank's goal cell";
    }
    if (solver.heuristic == H::Additive) {
        if (solver.patterns.empty()) return "an additive solver needs at least one pattern";
        std::set<int> seen;
        for (int p : solver.patterns)
            for (int piece : rules.patterns[p].pieces)
                if (!seen.insert(piece).second)
                    return "patterns of an additive solver must be disjoint: piece " + rules.board->pieces[piece].name +
                           " is in two";
    }
    return "";
}

}  // namespace pz::analysis
