// libFuzzer target over the command line: the shared option parser
// (compiler/driver/options.*) and every subcommand's use of it.
//
// The input is an argv, its words separated by NUL bytes; the first word
// picks the command (a command's name, else its first byte modulo the
// command count). The definition a command reads first is one of a few
// fixed test definitions (picked by the second word's first byte), so the
// fuzzer exercises options, not file contents (fuzz_frontend does those).
// OptionParser::stopAfterParse makes a successful parse throw ParsedOnly:
// nothing is built, run or written. Any argv must end in an error message
// with exit code 2 (or 0/1), never a crash, hang, uncaught exception or
// sanitizer report.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/options.hpp"

namespace {

using namespace pz::driver;

const char* const kDefinitions[] = {PZ_SOURCE_DIR "/tests/puzzles/loopover3.pz",
                                    PZ_SOURCE_DIR "/tests/puzzles/three_cycle.pz",
                                    PZ_SOURCE_DIR "/tests/puzzles/cube2_phased.pz",
                                    PZ_SOURCE_DIR "/puzzles/anima.pz"};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    OptionParser::stopAfterParse() = true;
    // Commands print; the fuzzer's output stays readable. Nothing reads stdin.
    static std::ostringstream sink;
    std::cout.rdbuf(sink.rdbuf());
    std::cerr.rdbuf(sink.rdbuf());
    if (!std::freopen("/dev/null", "r", stdin)) std::abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::string> words(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0) words.emplace_back();
        else words.back() += (char)data[i];
    }
    if (words.size() > 64) words.resize(64);
    const auto all = commands();
    const Command* command = nullptr;
    for (const auto& c : all)
        if (words[0] == c.name) command = &c;
    if (!command) command = &all[(words[0].empty() ? 0 : (uint8_t)words[0][0]) % all.size()];
    Args args(words.begin() + 1, words.end());
    // The definition: a fixed one, unless the word is an option or --help.
    if (!args.empty() && args[0].rfind("-", 0) != 0)
        args[0] = kDefinitions[(args[0].empty() ? 0 : (uint8_t)args[0][0]) % std::size(kDefinitions)];
    // Words that name files after the options (levels, outputs, scramble
    // files) are never opened: the parse stops first.
    try {
        const int rc = command->run(args);
        if (rc < 0 || rc > 2) {
            std::fprintf(stdout, "fuzz_cli: exit code %d from pzc %s\n", rc, command->name);
            std::abort();
        }
    } catch (const OptionParser::ParsedOnly&) {
        // Parsed: the command would go on to work.
    }
    // Anything else thrown escapes: libFuzzer reports it as a crash.
    std::cout.clear();
    std::cerr.clear();
    return 0;
}
