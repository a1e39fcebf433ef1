// The result protocol: what the runtime's writer prints, the driver's reader
// reads back; escaping survives hostile strings; bad lines are refused with a
// reason, never thrown.
#include "compiler/driver/result_protocol.hpp"

#include <catch2/catch.hpp>

#include "pz/support/result_json.hpp"

using namespace pz::driver;

TEST_CASE("the writer escapes quotes, backslashes, control characters and bad UTF-8") {
    CHECK(pz::json::quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(pz::json::quote("x\ny\tz\x01") == "\"x\\ny\\tz\\u0001\"");
    CHECK(pz::json::quote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");             // valid UTF-8 kept
    CHECK(pz::json::quote("a\xff" "b") == "\"a\\ufffdb\"");                 // invalid byte replaced
    CHECK(pz::json::quote("\xc0\xaf") == "\"\\ufffd\\ufffd\"");             // overlong form
    CHECK(pz::json::quote("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate
    CHECK(pz::json::quote("\xe2\x82") == "\"\\ufffd\\ufffd\"");             // truncated sequence
}

TEST_CASE("a Line is one JSON object on one line") {
    std::string line = pz::json::Line()
                           .field("solution", "R1 \"x\"\n")
                           .field("length", size_t{1})
                           .field("optimal", true)
                           .field("moves", std::vector<int>{3, 0})
                           .field("seconds", 0.5)
                           .str();
    CHECK(line == "{\"solution\": \"R1 \\\"x\\\"\\n\", \"length\": 1, \"optimal\": true, \"moves\": [3, 0], "
                  "\"seconds\": 0.500000}");
    std::string why;
    auto v = parseJson(line, why);
    REQUIRE(v);
    CHECK(v->get("solution")->text == "R1 \"x\"\n");
    CHECK(v->get("moves")->items.size() == 2);
    CHECK(pz::json::Line().field("x", 1.0 / 0.0).str() == "{\"x\": null}");
}

TEST_CASE("every string the writer produces reads back as itself") {
    std::string all;
    for (int c = 1; c < 128; ++c) all += static_cast<char>(c);
    all += "\xc3\xa9\xf0\x9f\x98\x80";
    std::string why;
    auto v = parseJson(pz::json::Line().field("name", all).str(), why);
    REQUIRE(v);
    CHECK(v->get("name")->text == all);
}

TEST_CASE("position results: solution, no solution, error") {
    std::string why;
    auto r = parsePositionResult(pz::json::Line()
                                     .field("type", "solution")
                                     .field("index", 4)
                                     .field("moves", std::vector<int>{1, 2})
                                     .field("nodes", 17ULL)
                                     .field("seconds", 0.25)
                                     .str(),
                                 why);
    REQUIRE(r);
    CHECK(r->kind == PositionResult::Kind::Solution);
    CHECK(r->index == 4);
    CHECK(r->moves == std::vector<int>{1, 2});
    CHECK(r->nodes == 17);
    r = parsePositionResult(R"({"type": "no-solution", "index": 0, "depth-limit": 40, "nodes": 5, "seconds": 1.0})", why);
    REQUIRE(r);
    CHECK(r->kind == PositionResult::Kind::NoSolution);
    CHECK(!r->unreachable);
    CHECK(r->depthLimit == 40);
    r = parsePositionResult(R"({"type": "no-solution", "index": 0, "unreachable": true, "nodes": 5, "seconds": 1.0})", why);
    REQUIRE(r);
    CHECK(r->unreachable);
    // A solver's own reason stands in for the depth limit; it must be a string.
    r = parsePositionResult(R"({"type": "no-solution", "index": 0, "reason": "gave up", "nodes": 5, "seconds": 1.0})", why);
    REQUIRE(r);
    CHECK(r->reason == "gave up");
    CHECK(!parsePositionResult(R"({"type": "no-solution", "index": 0, "reason": 3, "nodes": 5, "seconds": 1.0})", why));
    CHECK(!parsePositionResult(R"({"type": "no-solution", "index": 0, "nodes": 5, "seconds": 1.0})", why));
    r = parsePositionResult(R"({"type": "error", "index": 2, "message": "bad state"})", why);
    REQUIRE(r);
    CHECK(r->message == "bad state");
}

TEST_CASE("malformed result lines are refused with a reason") {
    const char* bad[] = {
        "",
        "P 0 1 2 ; M 1 ; N 3 ; S 0.1",  // the old text format
        "{\"type\": \"solution\"}",
        "{\"type\": \"solution\", \"index\": 0, \"moves\": [1, \"x\"], \"nodes\": 1, \"seconds\": 0}",
        "{\"type\": \"solution\", \"index\": 0, \"moves\": [-1], \"nodes\": 1, \"seconds\": 0}",
        "{\"type\": \"solution\", \"index\": 0, \"moves\": [99999999999999999999], \"nodes\": 1, \"seconds\": 0}",
        "{\"type\": \"solution\", \"index\": 0, \"moves\": [], \"nodes\": -1, \"seconds\": 0}",
        "{\"type\": \"solution\", \"index\": 0, \"moves\": [], \"nodes\": 1.5, \"seconds\": 0}",
        "{\"type\": \"solution\", \"index\": 0, \"moves\": [], \"nodes\": 1, \"seconds\": 0} trailing",
        "{\"type\": \"solution\", \"index\": 0, \"index\": 1, \"moves\": [], \"nodes\": 1, \"seconds\": 0}",
        "{\"type\": \"surprise\", \"index\": 0}",
        "{\"type\": \"solution\", \"index\": 0, \"moves\": [1,",
        "[1, 2]",
        "{\"a\": \"\\ud800\"}",
    };
    for (const char* line : bad) {
        std::string why;
        INFO(line);
        CHECK(!parsePositionResult(line, why));
        CHECK(!why.empty());
    }
    std::string deep(100, '[');
    std::string why;
    CHECK(!parseJson(deep, why));
}

TEST_CASE("level results") {
    std::string why;
    auto r = parseLevelResult(pz::json::Line()
                                  .field("type", "level")
                                  .field("name", "a \"b\"")
                                  .field("outcome", "solved")
                                  .field("moves", std::vector<int>{0, 3})
                                  .field("expanded", 10ULL)
                                  .field("stored", 12ULL)
                                  .field("bytes", size_t{4096})
                                  .field("seconds", 0.001, 9)
                                  .str(),
                              why);
    REQUIRE(r);
    CHECK(r->name == "a \"b\"");
    CHECK(r->moves == std::vector<int>{0, 3});
    CHECK(r->bytes == 4096);
    CHECK(!parseLevelResult(R"({"type": "level", "name": "x", "outcome": "won", "moves": [], "expanded": 0, "stored": 0, "bytes": 0, "seconds": 0})", why));
    CHECK(!parseLevelResult("level x solved length 0 expanded 0 stored 0 bytes 0 seconds 0 moves", why));
}
