// libFuzzer target over every reader and the lowering pass.
//
// The first byte picks the input kind (modulo 4: 0 .pz, 1 YAML, 2 .tws
// definition, 3 grid level file read with the rules of a fixed two-colour
// grid puzzle); the rest is the text. Any input must be handled with diagnostics, never a crash,
// hang or sanitizer report. For inputs that lower cleanly the printers are
// checked too: print -> parse -> lower must succeed in both syntaxes and give
// the same .pz text again.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"
#include "compiler/ir/level_reader.hpp"
#include "dsl/tws_reader.hpp"

namespace {

// printPz without its first line (which names the source file).
std::string body(const std::string& printed) { return printed.substr(printed.find('\n') + 1); }

[[noreturn]] void fail(const char* what, const std::string& text, const pz::DiagnosticEngine& diags) {
    std::cerr << "fuzz_frontend: " << what << "\n--- text\n" << text << "\n--- diagnostics\n";
    diags.print(std::cerr);
    std::abort();
}

// The grid rules level files are read with: two colours, one moving with the
// pressed direction and one against it (the shipped Anima rules).
const pz::ir::GridRules& levelRules() {
    static const pz::ir::GridRules rules = [] {
        const std::string text =
            "grid fuzz {\n  direction up (0, 1);\n  direction down (0, -1);\n  direction left (-1, 0);\n"
            "  direction right (1, 0);\n  colour red R r with;\n  colour blue B b against;\n}\n";
        pz::DiagnosticEngine diags;
        auto ast = pz::parsePzText("rules.pz", text, diags);
        auto ir = ast ? pz::ir::lower(*ast, diags) : std::nullopt;
        if (!ir) fail("the fuzzer's own grid rules do not load", text, diags);
        return ir->grid;
    }();
    return rules;
}

// A .tws definition or a level file: diagnostics or a result, never a crash.
int readOther(bool level, const std::string& text) {
    pz::DiagnosticEngine diags;
    std::ostringstream sink;
    if (level) {
        auto parsed = pz::parseLevelText("fuzz.txt", text, levelRules(), diags);
        diags.print(sink);
        if (!parsed && !diags.hasErrors()) fail("level rejected without an error", text, diags);
        return 0;
    }
    auto ast = pz::parseTwsText("fuzz.tws", text, diags);
    diags.print(sink);
    if (!ast) {
        if (!diags.hasErrors()) fail("tws parse failed without an error", text, diags);
        return 0;
    }
    auto ir = pz::ir::lower(*ast, diags);
    diags.print(sink);
    if (!ir && !diags.hasErrors()) fail("tws lowering failed without an error", text, diags);
    return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const int kind = data[0] & 3;
    bool yaml = kind == 1;
    std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (kind >= 2) return readOther(kind == 3, text);
    pz::DiagnosticEngine diags;
    auto ast = yaml ? pz::parseYamlText("fuzz.yaml", text, diags) : pz::parsePzText("fuzz.pz", text, diags);
    std::ostringstream sink;
    diags.print(sink);
    if (!ast) {
        if (!diags.hasErrors()) fail("parse failed without an error", text, diags);
        return 0;
    }
    auto ir = pz::ir::lower(*ast, diags);
    diags.print(sink);
    if (!ir) {
        if (!diags.hasErrors()) fail("lowering failed without an error", text, diags);
        return 0;
    }
    // Round trip through both printers.
    std::string pz = pz::printPz(*ast);
    pz::DiagnosticEngine again;
    auto fromPz = pz::parsePzText("printed.pz", pz, again);
    if (!fromPz || !pz::ir::lower(*fromPz, again)) fail("printed .pz does not load", pz, again);
    std::string yamlText = pz::printYaml(*ast);
    auto fromYaml = pz::parseYamlText("printed.yaml", yamlText, again);
    if (!fromYaml || !pz::ir::lower(*fromYaml, again)) fail("printed YAML does not load", yamlText, again);
    if (body(pz::printPz(*fromPz)) != body(pz)) fail("pz -> pz changes the definition", pz, again);
    if (body(pz::printPz(*fromYaml)) != body(pz)) fail("pz -> yaml changes the definition", yamlText, again);
    return 0;
}
