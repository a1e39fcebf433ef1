// pzc draw FILE [--scramble "MOVES" | --state "NUMBERS" | --level LEVEL]
//               [--solution "MOVES"] [-o OUT.svg]
// A picture of a position as standalone SVG (note [drawing] in
// compiler/render/drawing.hpp). The back end works out the states and
// renders them; this command owns the options and the output, which is
// written only once the whole document exists (a bad input writes nothing).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

namespace {

const char* kDrawUsage =
    "usage: pzc draw FILE [--scramble \"MOVES\" | --state \"NUMBERS\" | --level LEVEL] [--solution \"MOVES\"]\n"
    "                [-o OUT.svg]\n"
    "  writes the position as a standalone SVG (stdout without -o); none given: the solved state\n"
    "  --scramble: a move sequence from the solved state (grid puzzles: from the level's start)\n"
    "  --state: the numbers 'pzc solve --state' takes (permutation puzzles)\n"
    "  --level: a level file (grid-actor puzzles; required for them)\n"
    "  --solution: moves, one a word: a strip of frames, the start and the state after each move\n";

// Writes next to `path` and renames, so a failed write leaves no half file.
int writeOutput(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".pzc-tmp";
    {
        std::ofstream out(temporary, std::ios::binary);
        out << text;
        if (!out.flush()) {
            std::cerr << "pzc draw: error: cannot write '" << path << "'\n";
            std::remove(temporary.c_str());
            return 1;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::cerr << "pzc draw: error: cannot write '" << path << "': " << ec.message() << "\n";
        std::remove(temporary.c_str());
        return 1;
    }
    return 0;
}

}  // namespace

int runDraw(const Args& args) {
    std::vector<std::string> words;
    std::string scramble, state, level, solution, output;
    OptionParser options("draw", kDrawUsage);
    options.positionals(words, 1, 1, "FILE")
        .value("--scramble", scramble)
        .value("--state", state)
        .value("--level", level)
        .value("--solution", solution)
        .value("-o", output)
        .exclusive({"--scramble", "--state"})
        .exclusive({"--state", "--level"});
    if (auto rc = options.parse(args)) return *rc;
    if (!output.empty() && sameFile(words[0], output))
        return options.fail("-o " + output + " would overwrite the definition " + words[0]);
    if (!output.empty() && !level.empty() && sameFile(level, output))
        return options.fail("-o " + output + " would overwrite the level " + level);

    DrawRequest request;
    request.file = words[0];
    if (options.given("--scramble")) request.scramble = scramble;
    if (options.given("--state")) request.state = state;
    if (options.given("--level")) request.level = level;
    if (options.given("--solution")) request.solution = solution;
    std::string svg;
    request.svg = &svg;

    pipeline::CompilationUnit unit(words[0]);
    if (!loadUnit(unit)) return 1;
    if (int rc = backendFor(unit).draw(unit, request)) return rc;
    if (output.empty()) {
        std::cout << svg;
        return std::cout.flush() ? 0 : 1;
    }
    return writeOutput(output, svg);
}

}  // namespace pz::driver
