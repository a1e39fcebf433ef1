// parsePuzzleFile: reads a file and picks the front end by its extension.
#include "dsl/frontend.hpp"
#include "dsl/tws_reader.hpp"

#include <algorithm>

namespace pz {

static bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool checkMoveCount(const ast::Puzzle& puzzle, DiagnosticEngine& diags) {
    const size_t perFamily = std::max<size_t>(1, puzzle.powers.names.size());
    if (puzzle.moves.size() * perFamily <= (size_t)kMaxMoves) return true;
    const auto& first = puzzle.moves[kMaxMoves / perFamily];
    diags.error(puzzle.file, first.name.range,
                "too many moves: " + std::to_string(puzzle.moves.size()) + " declarations" +
                    (perFamily > 1 ? " of " + std::to_string(perFamily) + " powers each" : std::string()) +
                    "; the limit is " + std::to_string(kMaxMoves) + " moves per definition");
    return false;
}

std::optional<ast::Puzzle> parsePuzzleFile(const std::string& path, DiagnosticEngine& diags) {
    std::string text;
    if (!readFile(path, text, diags, /*bounded=*/true)) return std::nullopt;  // note [input bounds]
    std::optional<ast::Puzzle> puzzle;
    if (endsWith(path, ".yaml") || endsWith(path, ".yml")) puzzle = parseYamlText(path, text, diags);
    else if (endsWith(path, ".tws")) puzzle = parseTwsText(path, text, diags);  // ksolve/twsearch format
    else puzzle = parsePzText(path, text, diags);
    if (puzzle && !checkMoveCount(*puzzle, diags)) return std::nullopt;
    return puzzle;
}

}  // namespace pz
