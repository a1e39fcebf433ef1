// libFuzzer target over both front ends and the lowering pass.
//
// The first byte picks the syntax (even: .pz, odd: YAML); the rest is the
// definition. Any input must be handled with diagnostics, never a crash,
// hang or sanitizer report. For inputs that lower cleanly the printers are
// checked too: print -> parse -> lower must succeed in both syntaxes and give
// the same .pz text again.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"

namespace {

// printPz without its first line (which names the source file).
std::string body(const std::string& printed) { return printed.substr(printed.find('\n') + 1); }

[[noreturn]] void fail(const char* what, const std::string& text, const pz::DiagnosticEngine& diags) {
    std::cerr << "fuzz_frontend: " << what << "\n--- text\n" << text << "\n--- diagnostics\n";
    diags.print(std::cerr);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    bool yaml = data[0] & 1;
    std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
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
