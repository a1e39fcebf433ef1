// pzc convert FILE --to yaml|pz [-o OUT]: converts a definition between the
// textual syntax and YAML. The definition is validated (lowered) first, so
// only definitions pzc accepts are converted.
#include <fstream>
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"

namespace pz::driver {

int runConvert(const Args& args) {
    std::vector<std::string> inputs;
    std::string to, output;
    OptionParser options("convert", "usage: pzc convert FILE --to yaml|pz [-o OUT]\n");
    options.positionals(inputs, 1, 1, "FILE").value("--to", to).value("-o", output);
    if (auto rc = options.parse(args)) return *rc;
    if (to != "yaml" && to != "pz") return options.fail("--to needs yaml or pz");
    const std::string& input = inputs[0];
    if (!output.empty() && sameFile(input, output))
        return options.fail("-o " + output + " would overwrite the definition " + input);
    DiagnosticEngine diags;
    auto puzzle = parsePuzzleFile(input, diags);
    if (puzzle) ir::lower(*puzzle, diags);
    diags.print(std::cerr);
    if (!puzzle || diags.hasErrors()) return 1;

    std::string text = to == "yaml" ? printYaml(*puzzle) : printPz(*puzzle);
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
