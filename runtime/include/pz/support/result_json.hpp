// pz/support/result_json.hpp — the one JSON writer of results.
//
// Every result that leaves a solver or pzc as JSON is written here: the JSON
// lines a generated solver sends to pzc (--machine, see note [result
// protocol]), the solver binary's own --json output, and `pzc solve --json`.
// One object per line, keys in the order written, `{"key": value, ...}`.
//
// note [result protocol]
// pzc runs a generated solver as a child process (no shell) and reads its
// stdout as JSON lines, one object per line, each with a "type":
//   permutation solver, one line per position read from stdin (in order):
//     {"type": "solution", "index": I, "moves": [m...], "nodes": N, "seconds": S}
//     {"type": "no-solution", "index": I, "depth-limit": D, "nodes": N, "seconds": S}
//     {"type": "error", "index": I, "message": "..."}      (a bad input line)
//   grid solver, one line per level:
//     {"type": "level", "name": "...", "outcome": "solved|unsolvable|limit",
//      "moves": [d...], "expanded": E, "stored": S, "bytes": B, "seconds": T}
//   sliding-block board solver (pz/blocks/blocks_main.hpp), one line per level:
//     {"type": "level", "name": "...", "outcome": "solved|unsolvable|limit",
//      "moves": ["A+2", ...], "length": L, "states": N, "reachable": R, "seconds": S}
//   (moves as names, note [blocks move names]); the n-puzzle solver
//   (pz/blocks/tiles_main.hpp) sends the permutation solver's lines, moves
//   0..3 = U D L R (where the blank goes).
// Move numbers index the solver's searched moves (Traits::kMoveNames) or the
// grid's directions. pzc replays every solution against the positions it
// asked about (never a state echoed back) and treats any line it cannot read
// as an internal error. The writer escapes every string (quotes, backslash,
// control characters, invalid UTF-8 as U+FFFD), so names cannot break a line.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pz::json {

// Appends `s` as a JSON string literal, quotes included. Valid UTF-8 is kept;
// each byte of an invalid sequence becomes \ufffd; control characters are
// escaped, so the result is always one line.
inline void appendString(std::string& out, std::string_view s) {
    out += '"';
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
            ++i;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
                case '\n': out += "\\n"; break;
                case '\t': out += "\\t"; break;
                case '\r': out += "\\r"; break;
                case '\b': out += "\\b"; break;
                case '\f': out += "\\f"; break;
                default: {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                }
            }
            ++i;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else {
            // A UTF-8 sequence: its length from the lead byte, continuation
            // bytes 10xxxxxx, no overlong forms, no surrogates, <= U+10FFFF.
            size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
            bool ok = len != 0 && i + len <= n;
            for (size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xc0) == 0x80;
            if (ok && len == 3) ok = !(c == 0xe0 && p[i + 1] < 0xa0) && !(c == 0xed && p[i + 1] >= 0xa0);
            if (ok && len == 4) ok = !(c == 0xf0 && p[i + 1] < 0x90) && !(c == 0xf4 && p[i + 1] >= 0x90);
            if (ok) {
                out.append(s.substr(i, len));
                i += len;
            } else {
                out += "\\ufffd";
                ++i;
            }
        }
    }
    out += '"';
}

inline std::string quote(std::string_view s) {
    std::string out;
    appendString(out, s);
    return out;
}

// One JSON object written on one line: Line().field("a", 1).field("b", "x").str()
// == "{\"a\": 1, \"b\": \"x\"}". Doubles are written with fixed decimals
// (non-finite ones as null).
class Line {
public:
    Line& field(std::string_view key, std::string_view v) {
        appendString(begin(key), v);
        return *this;
    }
    Line& field(std::string_view key, const char* v) { return field(key, std::string_view(v)); }
    Line& field(std::string_view key, const std::string& v) { return field(key, std::string_view(v)); }
    Line& field(std::string_view key, bool v) {
        begin(key) += v ? "true" : "false";
        return *this;
    }
    template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    Line& field(std::string_view key, I v) {
        begin(key) += std::to_string(v);
        return *this;
    }
    Line& field(std::string_view key, double v, int decimals = 6) {
        std::string& out = begin(key);
        if (!std::isfinite(v)) {
            out += "null";
        } else {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
            out += buf;
        }
        return *this;
    }
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    Line& field(std::string_view key, const std::vector<I>& v) {
        std::string& out = begin(key);
        out += '[';
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            out += std::to_string(v[i]);
        }
        out += ']';
        return *this;
    }
    // A value already written as JSON (a nested object or array).
    Line& raw(std::string_view key, std::string_view json) {
        begin(key) += json;
        return *this;
    }
    // The object, without a newline.
    std::string str() const { return text_.empty() ? "{}" : text_ + "}"; }

private:
    std::string& begin(std::string_view key) {
        text_ += text_.empty() ? "{" : ", ";
        appendString(text_, key);
        text_ += ": ";
        return text_;
    }
    std::string text_;
};

}  // namespace pz::json
