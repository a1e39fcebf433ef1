// The pictures of a sliding-block puzzle's web package (note [web package]
// in compiler/driver/web/web_package.cpp): what pzc-draw.mjs moves the
// pieces of. An n-puzzle: the solved board, and the piece name of each tile
// number (tile t is the solved board's piece t - 1, as the library numbers
// them). Any other board: each compiled-in level's start, and its pieces'
// names in the order of the library's anchors (pz/api/blocks.hpp).
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/blocks/blocks_common.hpp"
#include "compiler/render/drawing.hpp"
#include "pz/support/result_json.hpp"

namespace pz::driver {

namespace {

bool writeSvg(const std::filesystem::path& path, const std::string& svg) {
    std::ofstream out(path, std::ios::binary);
    out << svg;
    if (!out.flush()) {
        std::cerr << "pzc build: error: cannot write '" << path.string() << "'\n";
        return false;
    }
    return true;
}

std::string namesJson(const ir::BlockLayout& layout) {
    std::string out = "[";
    for (size_t i = 0; i < layout.pieces.size(); ++i) out += (i ? ", " : "") + json::quote(layout.pieces[i].name);
    return out + "]";
}

// A level's name as a file name: what is not a letter, digit, '-' or '.' becomes '_'.
std::string fileStem(const std::string& name) {
    std::string s = name;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
    return s;
}

}  // namespace

int writeBlocksWebPictures(pipeline::CompilationUnit& unit, const std::string& file, const std::vector<std::string>& levelFiles,
                           const std::filesystem::path& dir, std::string& picture) {
    const ir::Puzzle& puzzle = unit.puzzle();
    const ir::BlockRules& rules = puzzle.blocks;
    auto draw = [&](const ir::BlockLayout& layout, const std::string& where) {
        interp::BlockBoard board(rules, layout);
        return render::drawBlocks(rules, layout, {{board, ""}}, {puzzle.name + " " + where, file});
    };
    if (analysis::isTilePuzzle(rules)) {
        if (!writeSvg(dir / "solved.svg", draw(*rules.board, "solved"))) return 1;
        picture = json::Line().field("kind", "blocks").field("file", "solved.svg").raw("tiles", namesJson(*rules.board)).str();
        return 0;
    }
    DiagnosticEngine diags;
    std::vector<ir::BlockLayout> levels;
    selectBlockLevels(rules, levelFiles, levels, diags);
    diags.print(std::cerr);
    if (diags.hasErrors()) return 1;
    std::error_code ec;
    std::filesystem::create_directories(dir / "levels", ec);
    std::string entries = "{";
    for (size_t i = 0; i < levels.size(); ++i) {
        const std::string path = "levels/" + fileStem(levels[i].name) + ".svg";
        if (!writeSvg(dir / path, draw(levels[i], "level " + levels[i].name))) return 1;
        entries += (i ? ", " : "") + json::quote(levels[i].name) + ": " +
                   json::Line().field("file", path).raw("pieces", namesJson(levels[i])).str();
    }
    picture = json::Line().field("kind", "blocks").raw("levels", entries + "}").str();
    return 0;
}

}  // namespace pz::driver
