// pzc serve's request handling apart from sockets: a request's head, the
// file a target names (traversal refused however it is spelled), MIME types.
#include "compiler/driver/http_request.hpp"

#include <catch2/catch.hpp>

using namespace pz::driver::http;

TEST_CASE("a request head: request line and headers") {
    auto head = parseHead("GET /a%20b?x=1 HTTP/1.1\r\nHost: localhost\r\nConnection:  close \r\n");
    REQUIRE(head);
    CHECK(head->method == "GET");
    CHECK(head->target == "/a%20b?x=1");
    CHECK(head->version == "HTTP/1.1");
    REQUIRE(head->header("connection"));
    CHECK(*head->header("connection") == "close");
    CHECK(*head->header("host") == "localhost");
    CHECK(!head->header("range"));
    CHECK(parseHead("HEAD / HTTP/1.0\n"));  // bare LF line ends are accepted
}

TEST_CASE("malformed request heads are refused") {
    CHECK(!parseHead(""));
    CHECK(!parseHead("GET /\r\n"));
    CHECK(!parseHead("GET / HTTP/2.0\r\n"));
    CHECK(!parseHead("GET /a b HTTP/1.1\r\n"));
    CHECK(!parseHead("G(T / HTTP/1.1\r\n"));
    CHECK(!parseHead("GET / HTTP/1.1\r\nno colon\r\n"));
    CHECK(!parseHead("GET / HTTP/1.1\r\nA: b\r\n folded\r\n"));
}

TEST_CASE("percent-decoding") {
    CHECK(percentDecode("a%20b%2Fc%2f") == "a b/c/");
    CHECK(percentDecode("a+b") == "a+b");
    CHECK(!percentDecode("%"));
    CHECK(!percentDecode("%2"));
    CHECK(!percentDecode("%zz"));
    CHECK(!percentDecode("a%00b"));  // a NUL would cut the file name short
}

TEST_CASE("a target names a path under the root") {
    CHECK(targetPath("/") == "");
    CHECK(targetPath("/index.html") == "index.html");
    CHECK(targetPath("/a/b.js?v=../../x#frag") == "a/b.js");
    CHECK(targetPath("//a///b/") == "a/b");
    CHECK(targetPath("/my%20file.txt") == "my file.txt");
    CHECK(targetPath("/.well-known/x") == ".well-known/x");
    CHECK(targetPath("/a..b") == "a..b");
}

TEST_CASE("traversal and absolute targets are refused") {
    for (const char* bad : {"/../etc/passwd", "/a/../../x", "/..", "/.", "/a/./b", "/%2e%2e/etc/passwd",
                            "/%2E%2E%2Fetc", "/a%2f..%2f..%2fx", "/.%2e/x", "http://host/x", "*", "etc/passwd",
                            "", "?/x", "/%", "/a%00.html"})
        CHECK(!targetPath(bad));
}

TEST_CASE("MIME types by extension") {
    CHECK(mimeType("index.html") == "text/html; charset=utf-8");
    CHECK(mimeType("a/main.MJS") == "text/javascript; charset=utf-8");
    CHECK(mimeType("solver.wasm") == "application/wasm");
    CHECK(mimeType("t/cube3.pzt") == "application/octet-stream");
    CHECK(mimeType("x.json") == "application/json");
    CHECK(mimeType("x.svg") == "image/svg+xml");
    CHECK(mimeType("README") == "application/octet-stream");
    CHECK(mimeType("a.d/README") == "application/octet-stream");
}
