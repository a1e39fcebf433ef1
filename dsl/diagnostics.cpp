#include "dsl/diagnostics.hpp"

#include <algorithm>
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
    ++errorCount_;
    if (++errorsPerFile_[file] > kMaxErrorsPerFile) {
        ++dropped_[file];
        return;
    }
    diags_.push_back({Severity::Error, file, range, std::move(message)});
}

void DiagnosticEngine::warning(const std::string& file, SourceRange range, std::string message) {
    if (++warningsPerFile_[file] > kMaxErrorsPerFile) return;
    diags_.push_back({Severity::Warning, file, range, std::move(message)});
}

void DiagnosticEngine::note(const std::string& file, SourceRange range, std::string message) {
    // A note belongs to the error before it: dropped with it.
    auto it = errorsPerFile_.find(file);
    if (it != errorsPerFile_.end() && it->second > kMaxErrorsPerFile) return;
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

// note [diagnostic output bounds]
// Bad input must cost little: a message is printed with control bytes
// escaped and at most kMaxMessage bytes; the quoted source line is a window
// of at most kWindow columns around the caret ("..." marks the cut, as
// clang does); and at most kMaxErrorsPerFile errors of one file are kept
// and printed, followed by "and N more errors".
namespace {
constexpr size_t kMaxMessage = 400;
constexpr int kWindow = 120;

bool continuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

// Control bytes (other than tab) and DEL as \xNN; long text cut at a
// character boundary.
std::string printable(const std::string& text, size_t limit) {
    std::string r;
    for (size_t i = 0; i < text.size(); ++i) {
        if (r.size() >= limit) {
            while (!r.empty() && continuationByte((unsigned char)r.back())) r.pop_back();
            if (!r.empty() && (unsigned char)r.back() >= 0xC0) r.pop_back();
            return r + "... (" + std::to_string(text.size()) + " bytes)";
        }
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            static const char* hex = "0123456789abcdef";
            r += "\\x";
            r += hex[c >> 4];
            r += hex[c & 15];
        } else {
            r += (char)c;
        }
    }
    return r;
}
}  // namespace

void DiagnosticEngine::print(std::ostream& out, const Diagnostic& d, const std::string* source) {
    out << d.file;
    if (d.range.known()) out << ':' << d.range.line << ':' << d.range.col;
    out << ": " << severityName(d.severity) << ": " << printable(d.message, kMaxMessage) << '\n';
    if (!source || !d.range.known()) return;
    std::string line;
    if (!sourceLine(*source, d.range.line, line)) return;
    int col = d.range.col;
    int width = (d.range.endLine == d.range.line) ? d.range.endCol - d.range.col : 1;
    int maxWidth = (int)line.size() - (col - 1);
    if (width > maxWidth) width = maxWidth;
    if (width < 1) width = 1;
    // The window [begin, end) of the line: the whole line when short, else
    // kWindow bytes starting a third of a window before the caret.
    size_t begin = 0, end = line.size();
    if ((int)line.size() > kWindow) {
        size_t caretAt = std::min<size_t>(col > 0 ? col - 1 : 0, line.size());
        begin = caretAt > kWindow / 3 ? caretAt - kWindow / 3 : 0;
        while (begin > 0 && continuationByte((unsigned char)line[begin])) --begin;
        end = std::min(line.size(), begin + kWindow);
        while (end < line.size() && continuationByte((unsigned char)line[end])) ++end;
    }
    const std::string prefix = begin > 0 ? "..." : "", suffix = end < line.size() ? "..." : "";
    // Control bytes become '?' (one column each) so the caret stays aligned;
    // tabs are kept in the caret line for the same reason.
    // Bytes that are not valid UTF-8 become '?' as well.
    std::string shown = prefix, caret(prefix.size(), ' ');
    for (size_t i = begin; i < end;) {
        unsigned char c = (unsigned char)line[i];
        if (c < 0x80) {
            shown += (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
            ++i;
            continue;
        }
        size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
        bool ok = n > 0 && i + n <= end;
        for (size_t k = 1; ok && k < n; ++k) ok = continuationByte((unsigned char)line[i + k]);
        if (ok && n == 3) {  // no overlong forms, no surrogates
            unsigned char d = (unsigned char)line[i + 1];
            ok = !(c == 0xE0 && d < 0xA0) && !(c == 0xED && d >= 0xA0);
        }
        if (ok && n == 4) {
            unsigned char d = (unsigned char)line[i + 1];
            ok = !(c == 0xF0 && d < 0x90) && !(c == 0xF4 && d >= 0x90);
        }
        if (ok) {
            shown.append(line, i, n);
            i += n;
        } else {
            shown += '?';
            ++i;
        }
    }
    shown += suffix;
    for (int i = 1; i < col && i - 1 < (int)end; ++i)
        if (i - 1 >= (int)begin) caret += line[i - 1] == '\t' ? '\t' : ' ';
    caret += '^';
    const int room = (int)end - (col - 1);  // columns of the window right of the caret
    for (int i = 1; i < width && i < room; ++i) caret += '~';
    out << "  " << shown << '\n' << "  " << caret << '\n';
}

void DiagnosticEngine::print(std::ostream& out) const {
    for (const auto& d : diags_) print(out, d, sourceText(d.file));
    for (const auto& [file, count] : dropped_)
        out << file << ": note: and " << count << " more error" << (count == 1 ? "" : "s") << " (at most "
            << kMaxErrorsPerFile << " are shown per file)\n";
}

bool readFile(const std::string& path, std::string& text, DiagnosticEngine& diags, bool bounded) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        diags.error(path, {}, "cannot read file: Is a directory");
        return false;
    }
    // Regular files: refuse a big one before reading it (note [input bounds]);
    // others (pipes) are cut while reading.
    if (bounded) {
        const auto size = std::filesystem::file_size(path, ec);
        if (!ec && size > (uintmax_t)kMaxInputBytes) {
            diags.error(path, {}, "file is " + std::to_string(size) + " bytes; the limit is " +
                                      std::to_string(kMaxInputBytes) + " bytes (512 KiB) per definition or level file");
            return false;
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diags.error(path, {}, std::string("cannot read file: ") + std::strerror(errno));
        return false;
    }
    // Bounded: read at most one byte past the limit (a pipe may not end).
    text.clear();
    char buffer[1 << 16];
    while (in) {
        const size_t want = bounded ? std::min(sizeof buffer, (size_t)kMaxInputBytes + 1 - text.size()) : sizeof buffer;
        in.read(buffer, (std::streamsize)want);
        text.append(buffer, (size_t)in.gcount());
        if (bounded && (long)text.size() > kMaxInputBytes) break;
    }
    if (in.bad()) {
        diags.error(path, {}, "cannot read file: read failed");
        return false;
    }
    if (bounded) {
        if ((long)text.size() > kMaxInputBytes) {
            diags.error(path, {}, "file is over " + std::to_string(kMaxInputBytes) +
                                      " bytes, the limit (512 KiB) per definition or level file");
            return false;
        }
        const long lines = (long)std::count(text.begin(), text.end(), '\n');
        if (lines > kMaxInputLines) {
            diags.error(path, {}, "file has " + std::to_string(lines) + " lines; the limit is " +
                                      std::to_string(kMaxInputLines) + " lines per definition or level file");
            return false;
        }
    }
    diags.addSource(path, text);
    return true;
}

}  // namespace pz
