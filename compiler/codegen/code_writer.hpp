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

#include <map>
#include <stdexcept>
#include <string>

namespace pz::codegen {

class CodeWriter {
public:
    void set(const std::string& key, const std::string& value) { vars_[key] = value; }
    void annotate(bool on) { annotate_ = on; }

    // Writes one line (placeholders substituted) at the current indentation.
    void line(const std::string& text = "") {
        std::string s = substitute(text);
        if (!s.empty()) out_.append(depth_ * 4, ' ');
        out_ += s;
        out_ += '\n';
    }
    // A preprocessor line: substituted, never indented.
    void directive(const std::string& text) {
        out_ += substitute(text);
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
