#include "compiler/driver/result_protocol.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace pz::driver {

namespace {

class Parser {
public:
    Parser(const std::string& text, std::string& why) : s_(text), why_(why) {}

    std::optional<JsonValue> document() {
        JsonValue v;
        if (!value(v, 0)) return std::nullopt;
        skipSpace();
        if (i_ != s_.size()) return fail("unexpected text after the value");
        return v;
    }

private:
    std::nullopt_t fail(const std::string& what) {
        if (why_.empty()) why_ = what + " at offset " + std::to_string(i_);
        return std::nullopt;
    }
    bool error(const std::string& what) {
        fail(what);
        return false;
    }
    void skipSpace() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    bool literal(const char* word) {
        size_t n = std::char_traits<char>::length(word);
        if (s_.compare(i_, n, word) != 0) return error("bad literal");
        i_ += n;
        return true;
    }
    bool value(JsonValue& v, int depth) {
        if (depth > 64) return error("nesting too deep");
        skipSpace();
        if (i_ >= s_.size()) return error("unexpected end");
        char c = s_[i_];
        if (c == '{') return object(v, depth);
        if (c == '[') return array(v, depth);
        if (c == '"') {
            v.kind = JsonValue::Kind::String;
            return string(v.text);
        }
        if (c == 't' || c == 'f') {
            v.kind = JsonValue::Kind::Bool;
            v.boolean = c == 't';
            return literal(c == 't' ? "true" : "false");
        }
        if (c == 'n') {
            v.kind = JsonValue::Kind::Null;
            return literal("null");
        }
        return number(v);
    }
    bool number(JsonValue& v) {
        size_t start = i_;
        if (i_ < s_.size() && s_[i_] == '-') ++i_;
        auto digits = [&] {
            size_t from = i_;
            while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
            return i_ > from;
        };
        if (!digits()) return error("bad number");
        if (i_ < s_.size() && s_[i_] == '.' && (++i_, !digits())) return error("bad number");
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            ++i_;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            if (!digits()) return error("bad number");
        }
        v.kind = JsonValue::Kind::Number;
        v.text = s_.substr(start, i_ - start);
        return true;
    }
    static void appendUtf8(std::string& out, uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xc0 | cp >> 6);
            out += static_cast<char>(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xe0 | cp >> 12);
            out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
            out += static_cast<char>(0x80 | (cp & 0x3f));
        } else {
            out += static_cast<char>(0xf0 | cp >> 18);
            out += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
            out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
            out += static_cast<char>(0x80 | (cp & 0x3f));
        }
    }
    bool hex4(uint32_t& cp) {
        if (i_ + 4 > s_.size()) return error("bad \\u escape");
        cp = 0;
        for (int k = 0; k < 4; ++k) {
            char h = s_[i_++];
            int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
            if (d < 0) return error("bad \\u escape");
            cp = cp * 16 + d;
        }
        return true;
    }
    bool string(std::string& out) {
        ++i_;  // opening quote
        while (true) {
            if (i_ >= s_.size()) return error("unterminated string");
            unsigned char c = s_[i_++];
            if (c == '"') return true;
            if (c < 0x20) return error("control character in a string");
            if (c != '\\') {
                out += static_cast<char>(c);
                continue;
            }
            if (i_ >= s_.size()) return error("unterminated string");
            char e = s_[i_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    uint32_t cp = 0;
                    if (!hex4(cp)) return false;
                    if (cp >= 0xd800 && cp < 0xdc00) {
                        uint32_t lo = 0;
                        if (s_.compare(i_, 2, "\\u") != 0) return error("unpaired surrogate");
                        i_ += 2;
                        if (!hex4(lo) || lo < 0xdc00 || lo >= 0xe000) return error("unpaired surrogate");
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    } else if (cp >= 0xdc00 && cp < 0xe000) {
                        return error("unpaired surrogate");
                    }
                    appendUtf8(out, cp);
                    break;
                }
                default: return error("bad escape");
            }
        }
    }
    bool array(JsonValue& v, int depth) {
        v.kind = JsonValue::Kind::Array;
        ++i_;
        skipSpace();
        if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
        while (true) {
            v.items.emplace_back();
            if (!value(v.items.back(), depth + 1)) return false;
            skipSpace();
            if (i_ < s_.size() && s_[i_] == ',') {
                ++i_;
                continue;
            }
            if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
            return error("expected ',' or ']'");
        }
    }
    bool object(JsonValue& v, int depth) {
        v.kind = JsonValue::Kind::Object;
        ++i_;
        skipSpace();
        if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
        while (true) {
            skipSpace();
            if (i_ >= s_.size() || s_[i_] != '"') return error("expected a key");
            std::string key;
            if (!string(key)) return false;
            skipSpace();
            if (i_ >= s_.size() || s_[i_] != ':') return error("expected ':'");
            ++i_;
            JsonValue item;
            if (!value(item, depth + 1)) return false;
            if (!v.fields.emplace(key, std::move(item)).second) return error("duplicate key '" + key + "'");
            skipSpace();
            if (i_ < s_.size() && s_[i_] == ',') {
                ++i_;
                continue;
            }
            if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
            return error("expected ',' or '}'");
        }
    }

    const std::string& s_;
    std::string& why_;
    size_t i_ = 0;
};

// Field readers that explain what is wrong.
struct Fields {
    const JsonValue& object;
    std::string& why;

    const JsonValue* need(const std::string& key, JsonValue::Kind kind) {
        const JsonValue* v = object.get(key);
        if (!v || v->kind != kind) {
            if (why.empty()) why = "field \"" + key + "\" is missing or of the wrong type";
            return nullptr;
        }
        return v;
    }
    bool integer(const std::string& key, int64_t lo, int64_t hi, int64_t& out) {
        const JsonValue* v = need(key, JsonValue::Kind::Number);
        auto n = v ? v->integer() : std::nullopt;
        if (!n || *n < lo || *n > hi) {
            if (why.empty()) why = "field \"" + key + "\" is not a whole number in range";
            return false;
        }
        out = *n;
        return true;
    }
    bool unsignedInteger(const std::string& key, uint64_t& out) {
        int64_t n = 0;
        if (!integer(key, 0, INT64_MAX, n)) return false;
        out = static_cast<uint64_t>(n);
        return true;
    }
    bool seconds(const std::string& key, double& out) {
        const JsonValue* v = need(key, JsonValue::Kind::Number);
        auto d = v ? v->number() : std::nullopt;
        if (!d || *d < 0) {
            if (why.empty()) why = "field \"" + key + "\" is not a duration";
            return false;
        }
        out = *d;
        return true;
    }
    bool moves(const std::string& key, std::vector<int>& out) {
        const JsonValue* v = need(key, JsonValue::Kind::Array);
        if (!v) return false;
        for (const auto& item : v->items) {
            auto n = item.integer();
            if (!n || *n < 0 || *n > 1 << 20) {
                if (why.empty()) why = "field \"" + key + "\" holds something other than move numbers";
                return false;
            }
            out.push_back(static_cast<int>(*n));
        }
        return true;
    }
};

std::optional<JsonValue> parseObjectLine(const std::string& line, std::string& why) {
    auto v = parseJson(line, why);
    if (v && v->kind != JsonValue::Kind::Object) {
        why = "not a JSON object";
        return std::nullopt;
    }
    return v;
}

}  // namespace

const JsonValue* JsonValue::get(const std::string& key) const {
    auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
}

std::optional<int64_t> JsonValue::integer() const {
    if (kind != Kind::Number || text.empty() || text.find_first_of(".eE") != std::string::npos) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno == ERANGE || *end) return std::nullopt;
    return v;
}

std::optional<double> JsonValue::number() const {
    if (kind != Kind::Number) return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (*end || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::string describeSolverStatus(const ChildStatus& status) {
    std::string text = status.describe();
    if (status.exited()) {
        switch (status.exitCode()) {
            case 1: text += " (it rejected its input)"; break;
            case 2: text += " (usage error)"; break;
            case 3: text += " (internal error)"; break;
            case 4: text = "ran out of memory"; break;
            case 127: text += " (it could not be run)"; break;
        }
    }
    return text;
}

std::optional<JsonValue> parseJson(const std::string& text, std::string& why) {
    why.clear();
    return Parser(text, why).document();
}

std::optional<PositionResult> parsePositionResult(const std::string& line, std::string& why) {
    auto v = parseObjectLine(line, why);
    if (!v) return std::nullopt;
    Fields f{*v, why};
    const JsonValue* type = f.need("type", JsonValue::Kind::String);
    if (!type) return std::nullopt;
    PositionResult r;
    if (!f.integer("index", 0, INT64_MAX, r.index)) return std::nullopt;
    if (type->text == "solution") {
        r.kind = PositionResult::Kind::Solution;
        if (!f.moves("moves", r.moves) || !f.unsignedInteger("nodes", r.nodes) || !f.seconds("seconds", r.seconds))
            return std::nullopt;
    } else if (type->text == "no-solution") {
        r.kind = PositionResult::Kind::NoSolution;
        if (!f.unsignedInteger("nodes", r.nodes) || !f.seconds("seconds", r.seconds)) return std::nullopt;
        if (const JsonValue* u = v->get("unreachable")) {
            if (u->kind != JsonValue::Kind::Bool) return why = "field \"unreachable\" is not a boolean", std::nullopt;
            r.unreachable = u->boolean;
        }
        if (const JsonValue* reason = v->get("reason")) {  // a solver that gives up for its own reason
            if (reason->kind != JsonValue::Kind::String) return why = "field \"reason\" is not a string", std::nullopt;
            r.reason = reason->text;
        }
        if (!r.unreachable && r.reason.empty()) {
            int64_t d = 0;
            if (!f.integer("depth-limit", 0, 1 << 20, d)) return std::nullopt;
            r.depthLimit = static_cast<int>(d);
        }
    } else if (type->text == "error") {
        r.kind = PositionResult::Kind::Error;
        const JsonValue* m = f.need("message", JsonValue::Kind::String);
        if (!m) return std::nullopt;
        r.message = m->text;
    } else {
        why = "unknown result type \"" + type->text + "\"";
        return std::nullopt;
    }
    return r;
}

std::optional<LevelResult> parseLevelResult(const std::string& line, std::string& why) {
    auto v = parseObjectLine(line, why);
    if (!v) return std::nullopt;
    Fields f{*v, why};
    const JsonValue* type = f.need("type", JsonValue::Kind::String);
    if (!type) return std::nullopt;
    if (type->text != "level") {
        why = "unknown result type \"" + type->text + "\"";
        return std::nullopt;
    }
    LevelResult r;
    const JsonValue* name = f.need("name", JsonValue::Kind::String);
    const JsonValue* outcome = name ? f.need("outcome", JsonValue::Kind::String) : nullptr;
    if (!outcome) return std::nullopt;
    r.name = name->text;
    r.outcome = outcome->text;
    if (r.outcome != "solved" && r.outcome != "unsolvable" && r.outcome != "limit" && r.outcome != "memory") {
        why = "unknown outcome \"" + r.outcome + "\"";
        return std::nullopt;
    }
    if (!f.moves("moves", r.moves) || !f.unsignedInteger("expanded", r.expanded) ||
        !f.unsignedInteger("stored", r.stored) || !f.unsignedInteger("bytes", r.bytes) ||
        !f.seconds("seconds", r.seconds))
        return std::nullopt;
    return r;
}

}  // namespace pz::driver
