#include "dsl/diagnostics.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace pz {

void DiagnosticEngine::addSource(const std::string& file, std::string text) {
    sources_[file] = std::move(text);
}

const std::string* DiagnosticEngine::sourceText(const std::string& file) const {
    auto it = sources_.find(file);
    return it == sources_.end() ? nullptr : &it->second;
}

void DiagnosticEngine::error(const std::string& file, SourceRange range, std::string message) {
    diags_.push_back({Severity::Error, file, range, std::move(message)});
    ++errorCount_;
}

void DiagnosticEngine::warning(const std::string& file, SourceRange range, std::string message) {
    diags_.push_back({Severity::Warning, file, range, std::move(message)});
}

void DiagnosticEngine::note(const std::string& file, SourceRange range, std::string message) {
    diags_.push_back({Severity::Note, file, range, std::move(message)});
}

static const char* severityName(Severity s) {
    switch (s) {
        case Severity::Error: return "error";
        case Severity::Warning: return "warning";
        case Severity::Note: return "note";
    }
    return "error";
}

// Returns line `line` (1-based) of `text` without its newline, or nullopt-like
// empty flag when out of range.
static bool sourceLine(const std::string& text, int line, std::string& out) {
    size_t pos = 0;
    for (int l = 1; l < line; ++l) {
        pos = text.find('\n', pos);
        if (pos == std::string::npos) return false;
        ++pos;
    }
    if (pos > text.size()) return false;
    size_t end = text.find('\n', pos);
    out = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return true;
}

void DiagnosticEngine::print(std::ostream& out, const Diagnostic& d, const std::string* source) {
    out << d.file;
    if (d.range.known()) out << ':' << d.range.line << ':' << d.range.col;
    out << ": " << severityName(d.severity) << ": " << d.message << '\n';
    if (!source || !d.range.known()) return;
    std::string line;
    if (!sourceLine(*source, d.range.line, line)) return;
    // Tabs are kept in the caret line so the caret stays aligned.
    std::string caret;
    int col = d.range.col;
    for (int i = 1; i < col && i - 1 < (int)line.size(); ++i)
        caret += line[i - 1] == '\t' ? '\t' : ' ';
    caret += '^';
    int width = (d.range.endLine == d.range.line) ? d.range.endCol - d.range.col : 1;
    int maxWidth = (int)line.size() - (col - 1);
    if (width > maxWidth) width = maxWidth;
    for (int i = 1; i < width; ++i) caret += '~';
    out << "  " << line << '\n' << "  " << caret << '\n';
}

void DiagnosticEngine::print(std::ostream& out) const {
    for (const auto& d : diags_) print(out, d, sourceText(d.file));
}

bool readFile(const std::string& path, std::string& text, DiagnosticEngine& diags) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        diags.error(path, {}, "cannot read file: Is a directory");
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diags.error(path, {}, std::string("cannot read file: ") + std::strerror(errno));
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
        diags.error(path, {}, "cannot read file: read failed");
        return false;
    }
    text = ss.str();
    diags.addSource(path, text);
    return true;
}

}  // namespace pz
