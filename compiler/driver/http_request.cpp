#include "compiler/driver/http_request.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace pz::driver::http {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// A method is a token (RFC 9110): visible characters, no separators.
bool isToken(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
        return c > 32 && c < 127 && !std::strchr("()<>@,;:\\\"/[]?={}", c);
    });
}

}  // namespace

const std::string* RequestHead::header(std::string_view name) const {
    for (const auto& [key, value] : headers)
        if (key == name) return &value;
    return nullptr;
}

std::optional<RequestHead> parseHead(std::string_view head) {
    RequestHead r;
    bool first = true;
    while (!head.empty()) {
        const size_t end = head.find('\n');
        std::string_view line = head.substr(0, end);
        head.remove_prefix(end == std::string_view::npos ? head.size() : end + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (first) {  // METHOD SP TARGET SP VERSION, single spaces
            first = false;
            const size_t a = line.find(' '), b = line.rfind(' ');
            if (a == std::string_view::npos || a == b) return std::nullopt;
            r.method = line.substr(0, a);
            r.target = line.substr(a + 1, b - a - 1);
            r.version = line.substr(b + 1);
            if (!isToken(r.method) || r.target.empty() || r.target.find(' ') != std::string::npos) return std::nullopt;
            if (r.version != "HTTP/1.1" && r.version != "HTTP/1.0") return std::nullopt;
            continue;
        }
        if (line.empty()) continue;
        if (line.front() == ' ' || line.front() == '\t') return std::nullopt;  // obsolete line folding
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0 || !isToken(line.substr(0, colon))) return std::nullopt;
        r.headers.emplace_back(lower(line.substr(0, colon)), std::string(trim(line.substr(colon + 1))));
    }
    if (first) return std::nullopt;
    return r;
}

std::optional<std::string> percentDecode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int hi = hexDigit(text[i + 1]), lo = hexDigit(text[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
        }
        if (c == '\0') return std::nullopt;
        out += c;
    }
    return out;
}

std::optional<std::string> targetPath(std::string_view target) {
    target = target.substr(0, target.find_first_of("?#"));
    if (target.empty() || target.front() != '/') return std::nullopt;
    // Decode first, then split: an encoded '/' or '.' is still a separator
    // or a dot once it reaches the file system.
    auto decoded = percentDecode(target);
    if (!decoded) return std::nullopt;
    std::string path;
    std::string_view rest = *decoded;
    while (!rest.empty()) {
        const size_t slash = rest.find('/');
        const std::string_view segment = rest.substr(0, slash);
        rest.remove_prefix(slash == std::string_view::npos ? rest.size() : slash + 1);
        if (segment.empty()) continue;
        if (segment == "." || segment == "..") return std::nullopt;
        if (!path.empty()) path += '/';
        path += segment;
    }
    return path;
}

std::string_view mimeType(std::string_view fileName) {
    static const std::pair<std::string_view, std::string_view> kTypes[] = {
        {"html", "text/html; charset=utf-8"},
        {"htm", "text/html; charset=utf-8"},
        {"js", "text/javascript; charset=utf-8"},
        {"mjs", "text/javascript; charset=utf-8"},
        {"css", "text/css; charset=utf-8"},
        {"json", "application/json"},
        {"map", "application/json"},
        {"svg", "image/svg+xml"},
        {"png", "image/png"},
        {"jpg", "image/jpeg"},
        {"jpeg", "image/jpeg"},
        {"gif", "image/gif"},
        {"ico", "image/x-icon"},
        {"webp", "image/webp"},
        {"woff2", "font/woff2"},
        // WebAssembly.instantiateStreaming refuses any other type.
        {"wasm", "application/wasm"},
        {"txt", "text/plain; charset=utf-8"},
        {"md", "text/plain; charset=utf-8"},
        {"pz", "text/plain; charset=utf-8"},  // definitions and level files are text
        {"yaml", "text/plain; charset=utf-8"},
        {"pzt", "application/octet-stream"},  // pruning tables
    };
    const size_t dot = fileName.rfind('.');
    if (dot == std::string_view::npos || fileName.find('/', dot) != std::string_view::npos)
        return "application/octet-stream";
    const std::string ext = lower(fileName.substr(dot + 1));
    for (const auto& [e, type] : kTypes)
        if (e == ext) return type;
    return "application/octet-stream";
}

}  // namespace pz::driver::http
