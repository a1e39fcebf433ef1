// The one option parser of the pzc subcommands. A command declares its
// options (flags, values, repeatable values, whole numbers with a range),
// its positional arguments and the options that exclude each other, then
// parses. Errors are one line on stderr, "pzc CMD: error: ...", then the
// usage, exit code 2; --help prints the usage on stdout, exit code 0.
// Numbers are strict: decimal digits only, inside the declared range
// (no "abc" -> 0, no silent saturation).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/driver/commands.hpp"

namespace pz::driver {

class OptionParser {
public:
    OptionParser(std::string command, std::string usage) : command_(std::move(command)), usage_(std::move(usage)) {}

    OptionParser& flag(const std::string& name, bool& into);
    OptionParser& value(const std::string& name, std::string& into);
    OptionParser& values(const std::string& name, std::vector<std::string>& into);  // repeatable
    OptionParser& number(const std::string& name, unsigned long long& into, unsigned long long lo,
                         unsigned long long hi);
    // Plain words, in order; `min`/`max` of them (max -1: any number).
    OptionParser& positionals(std::vector<std::string>& into, int min, int max, const std::string& what);
    // At most one of `names` may be given.
    OptionParser& exclusive(std::vector<std::string> names);

    // nullopt: parsed, go on. Otherwise the exit code (0 after --help).
    std::optional<int> parse(const Args& args);
    // For the CLI fuzzer (fuzz/fuzz_cli.cpp): when set, a parse that would
    // return nullopt throws ParsedOnly instead, so a command stops before it
    // builds, runs or writes anything.
    struct ParsedOnly {};
    static bool& stopAfterParse();
    bool given(const std::string& name) const;
    int fail(const std::string& message) const;  // prints the error and the usage; returns 2

private:
    struct Option {
        std::string name;
        enum class Kind { Flag, Value, Values, Number } kind;
        bool* flag = nullptr;
        std::string* value = nullptr;
        std::vector<std::string>* values = nullptr;
        unsigned long long* number = nullptr;
        unsigned long long lo = 0, hi = 0;
        bool given = false;
    };
    Option* find(const std::string& name);

    std::string command_, usage_;
    std::vector<Option> options_;
    std::vector<std::string>* positionals_ = nullptr;
    int minPositionals_ = 0, maxPositionals_ = 0;
    std::string positionalWhat_;
    std::vector<std::vector<std::string>> exclusive_;
};

// A whole decimal number in [lo, hi], strictly; nullopt otherwise.
std::optional<unsigned long long> parseWholeNumber(const std::string& text, unsigned long long lo,
                                                   unsigned long long hi);

// Whether two paths name the same file (an output that would overwrite an input).
bool sameFile(const std::string& a, const std::string& b);

}  // namespace pz::driver
