// The parts of `pzc serve` (cmd_serve.cpp) that decide what a request asks
// for, apart from any socket: parsing a request's head, mapping its target
// to a file under the served root (refusing traversal), and a file's MIME
// type. Pure functions, unit-tested in http_request_test.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pz::driver::http {

struct RequestHead {
    std::string method, target, version;  // "GET", "/a%20b?x=1", "HTTP/1.1"
    std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
    const std::string* header(std::string_view name) const;   // nullptr when absent
};

// The head of one request: everything before the blank line, without it
// (the lines end in CRLF, or LF alone). nullopt when malformed.
std::optional<RequestHead> parseHead(std::string_view head);

// %XX decoding of a URL path. nullopt on a bad escape (%zz, a % at the end)
// or a decoded NUL byte. '+' stays '+' (it means space only in a query).
std::optional<std::string> percentDecode(std::string_view text);

// The path under the root that a request target names: "/a/b.js?v=2" ->
// "a/b.js", "/" -> "". Targets that are not a path from the root (absolute
// URLs "http://host/x", "*", anything not starting with '/') and any "."
// or ".." segment, after decoding (so %2e%2e and %2f are no way out), are
// refused: nullopt. Empty segments ("a//b") are dropped.
std::optional<std::string> targetPath(std::string_view target);

// The Content-Type for a file name, from its extension (case-insensitive);
// application/octet-stream for anything unknown.
std::string_view mimeType(std::string_view fileName);

}  // namespace pz::driver::http
