// pzc convert FILE --to yaml|pz|tws [-o OUT]: converts a definition between the
// textual syntax, YAML and the ksolve/twsearch .tws format. The definition is validated (lowered) first, so
// only definitions pzc accepts are converted.
#include <fstream>
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/tws_support.hpp"
#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"
#include "dsl/tws_reader.hpp"

namespace pz::driver {

int runConvert(const Args& args) {
    const char* usage = "usage: pzc convert FILE --to yaml|pz|tws [-o OUT]\n";
    std::string input, to, output;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--help" || args[i] == "-h") {
            std::cout << usage;
            return 0;
        }
        if (args[i] == "--to" && i + 1 < args.size()) to = args[++i];
        else if (args[i] == "-o" && i + 1 < args.size()) output = args[++i];
        else if (input.empty() && !args[i].empty() && args[i][0] != '-') input = args[i];
        else {
            std::cerr << "pzc convert: error: unexpected argument '" << args[i] << "'\n" << usage;
            return 2;
        }
    }
    if (input.empty() || (to != "yaml" && to != "pz" && to != "tws")) {
        std::cerr << usage;
        return 2;
    }
    DiagnosticEngine diags;
    auto puzzle = parsePuzzleFile(input, diags);
    std::optional<ir::Puzzle> lowered;
    if (puzzle) lowered = ir::lower(*puzzle, diags);
    diags.print(std::cerr);
    if (!puzzle || !lowered || diags.hasErrors()) return 1;

    std::string text;
    if (to == "tws") {
        std::string why;
        auto tws = printTws(*lowered, why);
        if (!tws) {
            std::cerr << "pzc convert: error: cannot write " << input << " as .tws: " << why << "\n";
            return 1;
        }
        text = *tws;
    } else {
        // .tws names ("2R") become .pz identifiers ("_2R").
        if (input.size() >= 4 && input.compare(input.size() - 4, 4, ".tws") == 0) makeTwsNamesIdentifiers(*puzzle);
        text = to == "yaml" ? printYaml(*puzzle) : printPz(*puzzle);
    }
    if (output.empty()) {
        std::cout << text;
        return 0;
    }
    std::ofstream out(output, std::ios::binary);
    out << text;
    if (!out.flush()) {
        std::cerr << "pzc convert: error: cannot write '" << output << "'\n";
        return 1;
    }
    return 0;
}

}  // namespace pz::driver
