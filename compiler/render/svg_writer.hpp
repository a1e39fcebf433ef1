// The SVG writing of pzc draw (note [drawing] in compiler/render/drawing.hpp):
// XML escaping, deterministic number formatting, a tiny element builder, the
// piece palette and the layout of a strip of frames. Everything is a pure
// function of its input, so a drawing is byte-identical across runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pz::render {

// Text and attribute values: & < > " ' escaped.
std::string escapeXml(std::string_view text);
// The body of an XML comment: "--" may not occur in it, nor end it.
std::string escapeComment(std::string_view text);
// At most two decimals, no trailing zeros, never "-0": 12, 12.5, 0.33.
std::string formatNumber(double value);

// An element under construction: Tag("rect").attr("x", 3).attr("fill", "#fff").
class Tag {
public:
    explicit Tag(std::string name) : name_(std::move(name)) {}
    Tag& attr(std::string_view name, std::string_view value);
    Tag& attr(std::string_view name, const char* value) { return attr(name, std::string_view(value)); }
    Tag& attr(std::string_view name, const std::string& value) { return attr(name, std::string_view(value)); }
    Tag& attr(std::string_view name, double value) { return attr(name, std::string_view(formatNumber(value))); }
    Tag& attr(std::string_view name, int value) { return attr(name, std::string_view(std::to_string(value))); }
    Tag& text(std::string_view content);  // escaped

private:
    friend class SvgDocument;
    std::string name_, attrs_, text_;
};

// A standalone SVG document: the XML declaration, a comment naming what
// generated it, the root <svg> with its size, and its <title>.
class SvgDocument {
public:
    SvgDocument(double width, double height, std::string_view title, std::string_view comment);
    void add(const Tag& tag);   // a complete element (self-closing without text)
    void open(const Tag& tag);  // an element whose children follow
    void close();               // ends the innermost open element
    std::string finish();       // closes everything; the document

private:
    void indent();
    std::string out_;
    std::vector<std::string> open_;
};

// The fill of piece `key` among `count`: evenly spread hues (golden-angle
// steps), three lightness bands so neighbours differ; "#rrggbb".
std::string pieceColour(int key, int count);
// Black or white, whichever reads better on `fill` ("#rrggbb").
std::string textColourOn(const std::string& fill);
// A grid colour's fill: its name when it is a common colour name, else a
// palette colour by index.
std::string namedColour(const std::string& name, int index, int count);

// Frames of equal size in rows (a solution's strip): at most `maxWidth`
// wide, each with room for a caption above it when `captions`.
struct Strip {
    int count = 1, columns = 1;
    double frameWidth = 0, frameHeight = 0, caption = 0, gap = 0;
    double width() const;
    double height() const;
    double x(int frame) const;  // the frame's top left, below its caption
    double y(int frame) const;
};
Strip stripFor(int count, double frameWidth, double frameHeight, bool captions, double maxWidth = 1200);

}  // namespace pz::render
