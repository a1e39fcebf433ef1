// The reading side of the solver protocol (note [result protocol] in
// runtime/include/pz/support/result_json.hpp): a small strict JSON parser and the
// typed result lines a generated solver sends to pzc. Anything that does not
// parse is reported with a reason, never thrown.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/driver/subprocess.hpp"

namespace pz::driver {

struct JsonValue {
    enum class Kind { Null, Bool, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    std::string text;  // a String's value, or a Number's source text
    std::vector<JsonValue> items;
    std::map<std::string, JsonValue> fields;

    const JsonValue* get(const std::string& key) const;
    // A Number that is a whole number in range.
    std::optional<int64_t> integer() const;
    std::optional<double> number() const;
};

// Parses one JSON text (trailing whitespace allowed); nullopt and `why` on error.
std::optional<JsonValue> parseJson(const std::string& text, std::string& why);

// One result line of a permutation solver.
struct PositionResult {
    enum class Kind { Solution, NoSolution, Error };
    Kind kind = Kind::Error;
    int64_t index = 0;
    std::vector<int> moves;
    uint64_t nodes = 0;
    double seconds = 0;
    bool unreachable = false;  // NoSolution: a pattern proves it; else the depth limit
    int depthLimit = 0;
    std::string reason;        // NoSolution: why, when neither of the above
    std::string message;       // Error
};
std::optional<PositionResult> parsePositionResult(const std::string& line, std::string& why);

// One result line of a grid solver.
struct LevelResult {
    std::string name;
    std::string outcome;  // solved | unsolvable | limit
    std::vector<int> moves;
    uint64_t expanded = 0, stored = 0, bytes = 0;
    double seconds = 0;
};
std::optional<LevelResult> parseLevelResult(const std::string& line, std::string& why);

// A solver's exit in words, with the meaning of the runtime's exit codes
// (1 rejected input, 2 usage, 3 internal error, 4 out of memory).
std::string describeSolverStatus(const ChildStatus& status);

}  // namespace pz::driver
