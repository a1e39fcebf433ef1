#include "compiler/render/svg_writer.hpp"

#include <catch2/catch.hpp>

using namespace pz::render;

TEST_CASE("escapeXml escapes markup and drops control characters") {
    CHECK(escapeXml("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(escapeXml(std::string("x\x01y")) == "x?y");
}

TEST_CASE("escapeComment never lets -- occur or end the comment") {
    CHECK(escapeComment("a--b") == "a- -b");
    CHECK(escapeComment("a---") == "a- - - ");
    CHECK(escapeComment("x-").back() == ' ');
    CHECK(escapeComment("<&>") == "<&>");  // legal inside a comment
}

TEST_CASE("formatNumber: two decimals at most, no trailing zeros, no -0") {
    CHECK(formatNumber(12) == "12");
    CHECK(formatNumber(12.5) == "12.5");
    CHECK(formatNumber(1.0 / 3) == "0.33");
    CHECK(formatNumber(-0.001) == "0");
    CHECK(formatNumber(-3.25) == "-3.25");
}

TEST_CASE("SvgDocument nests, closes and titles") {
    SvgDocument svg(10, 20, "a & b", "from x--y");
    svg.open(Tag("g").attr("id", "f"));
    svg.add(Tag("rect").attr("width", 1.5));
    std::string out = svg.finish();
    CHECK(out.find("<!-- from x- -y -->") != std::string::npos);
    CHECK(out.find("<title>a &amp; b</title>") != std::string::npos);
    CHECK(out.find("    <rect width=\"1.5\"/>\n  </g>\n</svg>\n") != std::string::npos);
}

TEST_CASE("the palette is fixed and readable") {
    CHECK(pieceColour(0, 8) == pieceColour(0, 8));
    CHECK(pieceColour(0, 8) != pieceColour(1, 8));
    CHECK(pieceColour(3, 40).size() == 7);
    CHECK(textColourOn("#ffffff") == "#000000");
    CHECK(textColourOn("#000000") == "#ffffff");
    CHECK(namedColour("Red", 0, 2) == "#d62728");
    CHECK(namedColour("ochre", 1, 2) == pieceColour(1, 2));
}

TEST_CASE("a strip wraps at its width") {
    Strip s = stripFor(13, 400, 100, true, 1200);
    CHECK(s.columns == 2);
    CHECK(s.y(2) > s.y(1));
    CHECK(s.x(1) > s.x(0));
    CHECK(stripFor(1, 400, 100, false).height() == 100);
}
