// Diagnostics: one format for every error pzc reports.
//
//   file:line:col: error: message
//     <the source line>
//         ^~~~
//
// Errors are collected, not thrown, so one run reports every error of a file.
// Lines and columns are 1-based everywhere in pzc; ANTLR (0-based columns)
// and yaml-cpp (0-based marks) are normalised where they enter (see
// SourceRange::fromZeroBased).
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace pz {

// A 1-based, inclusive-start range in one source file. line == 0 means
// "no location" (e.g. an error about the file as a whole).
struct SourceRange {
    int line = 0, col = 0;        // first character
    int endLine = 0, endCol = 0;  // one past the last character (same line as a rule)

    bool known() const { return line > 0; }
    static SourceRange at(int line, int col, int length = 1) {
        return SourceRange{line, col, line, col + (length > 0 ? length : 1)};
    }
    static SourceRange fromZeroBased(int line0, int col0, int length = 1) {
        return at(line0 + 1, col0 + 1, length);
    }
    bool operator==(const SourceRange&) const = default;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;  // path as the user gave it
    SourceRange range;
    std::string message;
};

// Collects diagnostics and prints them with the offending source line and a
// caret. Source texts are registered by the readers so that diagnostics can
// quote them; a diagnostic for an unregistered file prints without a quote.
class DiagnosticEngine {
public:
    void addSource(const std::string& file, std::string text);
    const std::string* sourceText(const std::string& file) const;

    void error(const std::string& file, SourceRange range, std::string message);
    void warning(const std::string& file, SourceRange range, std::string message);
    void note(const std::string& file, SourceRange range, std::string message);

    bool hasErrors() const { return errorCount_ > 0; }
    int errorCount() const { return errorCount_; }
    const std::vector<Diagnostic>& all() const { return diags_; }

    // Errors kept (and printed) per file; further ones are only counted
    // (note [diagnostic output bounds] in diagnostics.cpp).
    static constexpr int kMaxErrorsPerFile = 50;

    // Prints every diagnostic in the order reported, then "and N more
    // errors" for each file that had more than kMaxErrorsPerFile.
    void print(std::ostream& out) const;
    static void print(std::ostream& out, const Diagnostic& d, const std::string* source);

private:
    std::map<std::string, std::string> sources_;
    std::vector<Diagnostic> diags_;
    int errorCount_ = 0;
    std::map<std::string, int> errorsPerFile_, warningsPerFile_, dropped_;
};

// note [input bounds]
// Definitions (.pz, YAML, .tws) and level files are at most kMaxInputBytes
// bytes and kMaxInputLines lines, checked before anything is parsed: the
// ANTLR parse of the densest definition (a move expression of one-letter
// names) peaks near 460 bytes of memory per byte of input, so 512 KiB stays
// under about 250 MB. docs/language.md, Limits.
constexpr long kMaxInputBytes = 512 * 1024;
constexpr long kMaxInputLines = 65536;

// Reads a whole file; on failure reports "cannot read file: <reason>" and
// returns false. With `bounded`, a file over kMaxInputBytes bytes or
// kMaxInputLines lines is an error naming its size and the limit.
bool readFile(const std::string& path, std::string& text, DiagnosticEngine& diags, bool bounded = false);

}  // namespace pz
