// parsePuzzleFile: reads a file and picks the front end by its extension.
#include "dsl/frontend.hpp"
#include "dsl/tws_reader.hpp"

namespace pz {

static bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::optional<ast::Puzzle> parsePuzzleFile(const std::string& path, DiagnosticEngine& diags) {
    std::string text;
    if (!readFile(path, text, diags)) return std::nullopt;
    if (endsWith(path, ".yaml") || endsWith(path, ".yml")) return parseYamlText(path, text, diags);
    if (endsWith(path, ".tws")) return parseTwsText(path, text, diags);  // ksolve/twsearch format
    return parsePzText(path, text, diags);
}

}  // namespace pz
