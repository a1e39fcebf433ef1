#include "compiler/codegen/code_writer.hpp"

#include <catch2/catch.hpp>

using namespace pz::codegen;

TEST_CASE("code_writer: comment text cannot end the comment or the line") {
    CHECK(commentText("puzzles/cube3.pz") == "puzzles/cube3.pz");
    std::string hostile = "dir\n#ifndef X\nstatic int pwned = 0;\n#endif\r/* a */ b\\";
    std::string c = commentText(hostile);
    CHECK(c.find_first_of("\r\n") == std::string::npos);
    CHECK(c.find("*/") == std::string::npos);
    CHECK(c.back() != '\\');
    CHECK(commentText("a??/") == "a?\\x3f/");
    CHECK(commentText("\xe2\x80\xae") == "\\xe2\\x80\\xae");  // no bidi override in generated code
}

TEST_CASE("code_writer: string literals hold exactly the bytes") {
    CHECK(stringLiteral("1.1-line_dance") == "\"1.1-line_dance\"");
    CHECK(stringLiteral("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(stringLiteral("x\n\"; puts(\"pwned\"); //") == "\"x\\012\\\"; puts(\\\"pwned\\\"); //\"");
    CHECK(stringLiteral("\x01" "7") == "\"\\0017\"");  // octal escapes never swallow a following digit
    CHECK(stringLiteral("??=") == "\"?\\?=\"");
}

TEST_CASE("code_writer: identifiers of user names") {
    CHECK(identifierPart("R'") == "Rp");
    CHECK(identifierPart("a-b\xc3\xa9") == "a_b__");
    CHECK(scopeIdentifier("cube3") == "cube3");
    CHECK(scopeIdentifier("slide4") == "slide4");
    for (const char* name : {"int", "class", "std", "pz", "main", "NDEBUG", "uint64_t", "errno", "EOF", "pzgen",
                             "and", "linux", "assert", "State", "co_await", "X"})
        CHECK(scopeIdentifier(name) == std::string("p_") + name);
    CHECK(scopeIdentifier("_x") == "p_x");
    CHECK(scopeIdentifier("a__b") == "p_a__b");
    CHECK(scopeIdentifier("3d") == "p_3d");
}

TEST_CASE("code_writer: a line break in a line is refused") {
    CodeWriter w;
    w.set("NAME", "a\nb");
    CHECK_THROWS_AS(w.line("// {{NAME}}"), std::logic_error);
    w.set("NAME", commentText("a\nb"));
    w.line("// {{NAME}}");
    CHECK(w.str() == "// a\\x0ab\n");
}
