// SVG writing (svg_writer.hpp).
#include "compiler/render/svg_writer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace pz::render {

std::string escapeXml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // Control characters other than tab and newline are not XML.
                if ((unsigned char)c < 0x20 && c != '\t' && c != '\n') out += '?';
                else out += c;
        }
    }
    return out;
}

std::string escapeComment(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '-' && !out.empty() && out.back() == '-') out += ' ';
        out += ((unsigned char)c < 0x20 && c != '\t') ? '?' : c;
    }
    if (!out.empty() && out.back() == '-') out += ' ';
    return out;
}

std::string formatNumber(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    std::string s = buffer;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

Tag& Tag::attr(std::string_view name, std::string_view value) {
    attrs_ += ' ';
    attrs_ += name;
    attrs_ += "=\"";
    attrs_ += escapeXml(value);
    attrs_ += '"';
    return *this;
}

Tag& Tag::text(std::string_view content) {
    text_ += escapeXml(content);
    return *this;
}

SvgDocument::SvgDocument(double width, double height, std::string_view title, std::string_view comment) {
    out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out_ += "<!-- " + escapeComment(comment) + " -->\n";
    open(Tag("svg")
             .attr("xmlns", "http://www.w3.org/2000/svg")
             .attr("width", width)
             .attr("height", height)
             .attr("viewBox", "0 0 " + formatNumber(width) + " " + formatNumber(height))
             .attr("font-family", "sans-serif"));
    add(Tag("title").text(title));
}

void SvgDocument::indent() { out_.append(2 * open_.size(), ' '); }

void SvgDocument::add(const Tag& tag) {
    indent();
    out_ += '<' + tag.name_ + tag.attrs_;
    out_ += tag.text_.empty() ? "/>\n" : '>' + tag.text_ + "</" + tag.name_ + ">\n";
}

void SvgDocument::open(const Tag& tag) {
    indent();
    out_ += '<' + tag.name_ + tag.attrs_ + ">\n";
    if (!tag.text_.empty()) {
        indent();
        out_ += "  " + tag.text_ + '\n';
    }
    open_.push_back(tag.name_);
}

void SvgDocument::close() {
    if (open_.empty()) return;
    const std::string name = open_.back();
    open_.pop_back();
    indent();
    out_ += "</" + name + ">\n";
}

std::string SvgDocument::finish() {
    while (!open_.empty()) close();
    return out_;
}

namespace {

std::string hex(int r, int g, int b) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", r, g, b);
    return buffer;
}

// HSL (degrees, 0..1, 0..1) to "#rrggbb"; rounding only at the end.
std::string fromHsl(double h, double s, double l) {
    const double c = (1 - std::fabs(2 * l - 1)) * s;
    const double hp = std::fmod(h, 360.0) / 60.0;
    const double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1));
    double r = 0, g = 0, b = 0;
    if (hp < 1) r = c, g = x;
    else if (hp < 2) r = x, g = c;
    else if (hp < 3) g = c, b = x;
    else if (hp < 4) g = x, b = c;
    else if (hp < 5) r = x, b = c;
    else r = c, b = x;
    const double m = l - c / 2;
    auto byte = [&](double v) { return std::clamp((int)std::lround((v + m) * 255), 0, 255); };
    return hex(byte(r), byte(g), byte(b));
}

}  // namespace

std::string pieceColour(int key, int count) {
    // Few pieces: evenly spaced hues; many: golden-angle steps, which keep
    // consecutive pieces far apart on the wheel.
    const double hue = count <= 12 ? 360.0 * key / std::max(count, 1) : std::fmod(key * 137.508, 360.0);
    const double lightness[] = {0.62, 0.48, 0.76};
    return fromHsl(hue, 0.70, lightness[(key / 12) % 3]);
}

std::string textColourOn(const std::string& fill) {
    if (fill.size() != 7 || fill[0] != '#') return "#000000";
    const int r = std::stoi(fill.substr(1, 2), nullptr, 16), g = std::stoi(fill.substr(3, 2), nullptr, 16),
              b = std::stoi(fill.substr(5, 2), nullptr, 16);
    return 299 * r + 587 * g + 114 * b > 140000 ? "#000000" : "#ffffff";  // perceived brightness
}

std::string namedColour(const std::string& name, int index, int count) {
    static const std::pair<const char*, const char*> kNames[] = {
        {"red", "#d62728"},    {"blue", "#1f5fd6"},   {"green", "#2ca02c"},  {"yellow", "#f2c400"},
        {"orange", "#ff7f0e"}, {"purple", "#8e44ad"}, {"pink", "#e377c2"},   {"cyan", "#17becf"},
        {"magenta", "#d62ad6"}, {"brown", "#8c564b"}, {"grey", "#7f7f7f"},   {"gray", "#7f7f7f"},
        {"white", "#f4f4f4"},  {"black", "#222222"},
    };
    std::string lower;
    for (char c : name) lower += (char)std::tolower((unsigned char)c);
    for (const auto& [n, value] : kNames)
        if (lower == n) return value;
    return pieceColour(index, count);
}

double Strip::width() const { return columns * frameWidth + (columns - 1) * gap; }

double Strip::height() const {
    const int rows = (count + columns - 1) / columns;
    return rows * (caption + frameHeight) + (rows - 1) * gap;
}

double Strip::x(int frame) const { return (frame % columns) * (frameWidth + gap); }

double Strip::y(int frame) const { return (frame / columns) * (caption + frameHeight + gap) + caption; }

Strip stripFor(int count, double frameWidth, double frameHeight, bool captions, double maxWidth) {
    Strip s;
    s.count = std::max(count, 1);
    s.frameWidth = frameWidth;
    s.frameHeight = frameHeight;
    s.caption = captions ? 20 : 0;
    s.gap = count > 1 ? 16 : 0;
    s.columns = std::clamp((int)((maxWidth + s.gap) / (frameWidth + s.gap)), 1, s.count);
    return s;
}

}  // namespace pz::render
