// CodeWriter: the one way emitters write C++. Indentation is tracked, and
// "{{NAME}}" placeholders are substituted from a dictionary, so an emitter
// reads like the code it produces:
//
//   CodeWriter w;
//   w.set("NAME", "R1");
//   w.line("inline State move_{{NAME}}(State s) {");
//   w.indent(); ... w.dedent(); w.line("}");
//
// With annotate(true), each block opened by section() is marked with the
// emitter that wrote it (pzc --annotate), for reviewing generated code.
#pragma once

#include <cctype>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pz::codegen {

// note [text in generated code]
// Names and paths come from users (file names, level names, puzzle names)
// and must never change the meaning of the generated C++. Every emitter puts
// such text into generated code through one of these three helpers:
//
// * commentText: for `// ...` comments. Printable ASCII stays (so shipped
//   definitions emit unchanged); every other byte (line breaks, control
//   bytes, non-ASCII) becomes the text \xNN, a backslash is written \x5c
//   (a trailing one would splice the next line into the comment), "*/"
//   becomes "* /" and "??" becomes "?\x3f" (no trigraph).
// * stringLiteral: a complete "..." literal whose value is exactly the
//   input bytes (octal escapes for anything but printable ASCII).
// * identifierPart / scopeIdentifier: a name as (part of) a C++ identifier.
//   identifierPart maps every other character to '_' (a prime to 'p') and is
//   for names behind a fixed prefix (move_R, Pattern_all, level_1_1);
//   scopeIdentifier is for a name that stands alone (the puzzle's namespace)
//   and prefixes "p_" to anything a keyword, a reserved identifier, a macro
//   of the standard headers, or a name the generated code uses unqualified.
//
// CodeWriter::line also refuses a line break in a substituted line, so a
// name that bypassed these helpers fails loudly instead of escaping its line.
inline std::string commentText(std::string_view s) {
    static const char* hex = "0123456789abcdef";
    std::string r;
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        bool escape = c < 0x20 || c > 0x7e || c == '\\' || (c == '?' && i > 0 && s[i - 1] == '?');
        if (escape) {
            r += "\\x";
            r += hex[c >> 4];
            r += hex[c & 15];
        } else if (c == '/' && i > 0 && s[i - 1] == '*') {
            r += " /";
        } else {
            r += static_cast<char>(c);
        }
    }
    return r;
}

inline std::string stringLiteral(std::string_view s) {
    std::string r = "\"";
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            r += '\\';
            r += static_cast<char>(c);
        } else if (c == '?' && i > 0 && s[i - 1] == '?') {
            r += "\\?";
        } else if (c < 0x20 || c > 0x7e) {
            r += '\\';
            r += static_cast<char>('0' + (c >> 6));
            r += static_cast<char>('0' + ((c >> 3) & 7));
            r += static_cast<char>('0' + (c & 7));
        } else {
            r += static_cast<char>(c);
        }
    }
    return r + "\"";
}

inline std::string identifierPart(std::string_view name) {
    std::string r;
    for (char c : name) {
        unsigned char u = static_cast<unsigned char>(c);
        r += (u < 0x80 && std::isalnum(u)) ? c : (c == '\'' ? 'p' : '_');
    }
    return r;
}

// True for names that must not stand alone as a C++ identifier in generated
// code (see note [text in generated code]).
bool reservedIdentifier(std::string_view name);

inline std::string scopeIdentifier(std::string_view name) {
    std::string r = identifierPart(name);
    if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0])) || reservedIdentifier(r))
        r = (r.size() && r[0] == '_' ? "p" : "p_") + r;
    return r;
}

class CodeWriter {
public:
    void set(const std::string& key, const std::string& value) { vars_[key] = value; }
    void annotate(bool on) { annotate_ = on; }

    // Writes one line (placeholders substituted) at the current indentation.
    void line(const std::string& text = "") {
        std::string s = substitute(text);
        if (s.find_first_of("\r\n") != std::string::npos) throw std::logic_error("CodeWriter: a line break inside a line");
        if (!s.empty()) out_.append(depth_ * 4, ' ');
        out_ += s;
        out_ += '\n';
    }
    // A preprocessor line: substituted, never indented.
    void directive(const std::string& text) {
        std::string s = substitute(text);
        if (s.find_first_of("\r\n") != std::string::npos) throw std::logic_error("CodeWriter: a line break inside a line");
        out_ += s;
        out_ += '\n';
    }
    // Appends already-formatted text verbatim (no substitution, no indentation).
    void raw(const std::string& text) { out_ += text; }
    void indent() { ++depth_; }
    void dedent() {
        if (depth_ == 0) throw std::logic_error("CodeWriter: dedent below zero");
        --depth_;
    }
    // Marks the start of an emitter's block when annotating.
    void section(const std::string& emitter) {
        if (annotate_) line("// [pzc emitter: " + emitter + "]");
    }
    const std::string& str() const { return out_; }

private:
    std::string substitute(const std::string& text) const {
        std::string r;
        for (size_t i = 0; i < text.size();) {
            if (text.compare(i, 2, "{{") == 0) {
                size_t end = text.find("}}", i + 2);
                if (end == std::string::npos) throw std::logic_error("CodeWriter: unclosed {{");
                std::string key = text.substr(i + 2, end - i - 2);
                auto it = vars_.find(key);
                if (it == vars_.end()) throw std::logic_error("CodeWriter: unset {{" + key + "}}");
                r += it->second;
                i = end + 2;
            } else {
                r += text[i++];
            }
        }
        return r;
    }
    std::map<std::string, std::string> vars_;
    std::string out_;
    int depth_ = 0;
    bool annotate_ = false;
};

}  // namespace pz::codegen
