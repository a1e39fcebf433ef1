// pzc convert FILE --to yaml|pz|tws [-o OUT]: converts a definition between the
// textual syntax, YAML and the ksolve/twsearch .tws format. The definition is validated (lowered) first, so
// only definitions pzc accepts are converted.
#include <fstream>
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/perm/tws_support.hpp"
#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"
#include "dsl/tws_reader.hpp"

namespace pz::driver {

int runConvert(const Args& args) {
    std::vector<std::string> inputs;
    std::string to, output;
    OptionParser options("convert", "usage: pzc convert FILE --to yaml|pz|tws [-o OUT]\n");
    options.positionals(inputs, 1, 1, "FILE").value("--to", to).value("-o", output);
    if (auto rc = options.parse(args)) return *rc;
    if (to != "yaml" && to != "pz" && to != "tws") return options.fail("--to needs yaml, pz or tws");
    const std::string& input = inputs[0];
    if (!output.empty() && sameFile(input, output))
        return options.fail("-o " + output + " would overwrite the definition " + input);
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
