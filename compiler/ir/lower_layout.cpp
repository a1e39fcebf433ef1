// Lowering of the layout section (lower_layout.hpp): every sticker of every
// (orbit, position, slot) placed exactly once, known names, slots in range,
// no two stickers on one cell, faces declared with a valid colour, and
// identical pieces coloured alike.
#include "compiler/ir/lower_layout.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace pz::ir {
namespace {

// Bounds that keep a hostile layout cheap; a megaminx needs 132 stickers.
constexpr int kMaxCell = 1000;
constexpr size_t kMaxPolygonPoints = 64;
constexpr int kMaxMissingReported = 8;

// The SVG colour keywords a face may name (CSS's basic and common extended
// names); anything else is written "#rgb" or "#rrggbb".
const std::set<std::string>& colourNames() {
    static const std::set<std::string> names = {
        "aqua",  "beige",  "black",   "blue",   "brown",     "coral",      "crimson",  "cyan",   "darkblue",
        "darkgreen", "darkorange", "darkred", "fuchsia", "gold", "gray", "green", "grey", "indigo", "khaki",
        "lavender", "lightblue", "lightgray", "lightgreen", "lightgrey", "lime", "magenta", "maroon", "navy",
        "olive", "orange", "orchid", "pink", "purple", "red", "salmon", "silver", "skyblue", "tan", "teal",
        "turquoise", "violet", "white", "yellow", "yellowgreen"};
    return names;
}

bool validColour(const std::string& c) {
    if (!c.empty() && c[0] == '#')
        return (c.size() == 4 || c.size() == 7) &&
               std::all_of(c.begin() + 1, c.end(), [](char x) { return std::isxdigit((unsigned char)x); });
    return colourNames().count(c) > 0;
}

class LayoutLowerer {
public:
    LayoutLowerer(const ast::Layout& src, const std::vector<Orbit>& orbits, const std::string& file,
                  DiagnosticEngine& diags)
        : src_(src), orbits_(orbits), file_(file), diags_(diags) {}

    std::optional<Layout> run() {
        faces();
        out_.slotSticker.resize(orbits_.size());
        for (size_t o = 0; o < orbits_.size(); ++o) out_.slotSticker[o].assign(orbits_[o].size * orbits_[o].orient, -1);
        for (const auto& st : src_.stickers) sticker(st);
        for (const auto& st : src_.fixed) {
            auto lowered = placed(st);
            if (lowered) out_.fixed.push_back(std::move(*lowered));
        }
        if (errors_ == 0) missing();
        if (errors_ == 0) identicalPieces();
        if (errors_) return std::nullopt;
        return std::move(out_);
    }

private:
    void error(SourceRange where, std::string message) {
        diags_.error(file_, where, std::move(message));
        ++errors_;
    }

    void faces() {
        for (const auto& f : src_.faces) {
            if (faceIndex_.count(f.name.text)) {
                error(f.name.range, "face '" + f.name.text + "' is declared twice in the layout");
                continue;
            }
            if (!validColour(f.colour.text))
                error(f.colour.range, "'" + f.colour.text +
                                          "' is not a colour: write an SVG colour name (white, red, orange, ...) "
                                          "or \"#rrggbb\"");
            faceIndex_[f.name.text] = (int)out_.faces.size();
            out_.faces.push_back({f.name.text, f.colour.text});
        }
    }

    // The sticker's place and face, checked; nullopt after an error.
    std::optional<LayoutSticker> placed(const ast::LayoutSticker& st) {
        LayoutSticker out;
        out.where = st.range;
        out.cell = st.cell;
        bool ok = true;
        if (st.cell) {
            out.col = st.col;
            out.row = st.row;
            if (st.col > kMaxCell || st.row > kMaxCell) {
                error(st.placeRange, "cell " + std::to_string(st.col) + " " + std::to_string(st.row) +
                                         " is off the net (columns and rows are 0.." + std::to_string(kMaxCell) + ")");
                ok = false;
            } else if (auto [it, fresh] = cells_.emplace(std::pair{st.col, st.row}, st.range.line); !fresh) {
                error(st.placeRange, "two stickers on cell " + std::to_string(st.col) + " " + std::to_string(st.row) +
                                         " (the other is on line " + std::to_string(it->second) + ")");
                ok = false;
            }
        } else {
            out.polygon = st.polygon;
            if (st.polygon.size() % 2 != 0 || st.polygon.size() < 6 || st.polygon.size() > 2 * kMaxPolygonPoints) {
                error(st.placeRange, "a polygon takes 3.." + std::to_string(kMaxPolygonPoints) +
                                         " points as x y pairs; got " + std::to_string(st.polygon.size()) + " numbers");
                ok = false;
            }
        }
        auto face = faceIndex_.find(st.face.text);
        if (face == faceIndex_.end()) {
            std::string declared;
            for (const auto& f : out_.faces) declared += (declared.empty() ? "" : ", ") + f.name;
            error(st.face.range, "unknown face '" + st.face.text + "' (declared faces: " +
                                     (declared.empty() ? "none; declare one with 'face NAME COLOUR;'" : declared) + ")");
            ok = false;
        } else {
            out.face = face->second;
        }
        if (!ok) return std::nullopt;
        return out;
    }

    int findOrbit(const ast::Name& name) {
        for (size_t o = 0; o < orbits_.size(); ++o)
            if (orbits_[o].name == name.text) return (int)o;
        error(name.range, "unknown orbit '" + name.text + "'");
        return -1;
    }

    int findPosition(const Orbit& orbit, const ast::PositionRef& p) {
        if (p.index) {
            if (*p.index < orbit.size) return *p.index;
            error(p.range, "position " + std::to_string(*p.index) + " is out of range for orbit '" + orbit.name +
                               "' (0.." + std::to_string(orbit.size - 1) + ")");
            return -1;
        }
        auto it = std::find(orbit.positionNames.begin(), orbit.positionNames.end(), p.name);
        if (it != orbit.positionNames.end()) return (int)(it - orbit.positionNames.begin());
        error(p.range, "unknown position '" + p.name + "' in orbit '" + orbit.name + "'");
        return -1;
    }

    std::string positionName(const Orbit& orbit, int p) const {
        return orbit.positionNames.empty() ? std::to_string(p) : orbit.positionNames[p];
    }

    void sticker(const ast::LayoutSticker& st) {
        auto lowered = placed(st);
        const int o = findOrbit(*st.orbit);
        if (o < 0) return;
        const Orbit& orbit = orbits_[o];
        if (orbit.stickerPieces > 0) {  // note [ignored pieces]: its positions are no longer the declared ones
            error(st.orbit->range, "orbit '" + orbit.name +
                                       "' has pieces whose orientation is ignored ('orient ... ignored { ... }'); "
                                       "a layout cannot draw it");
            return;
        }
        const int p = findPosition(orbit, st.position);
        if (st.slot >= orbit.orient) {
            error(st.slotRange, "sticker " + std::to_string(st.slot) + " is out of range for orbit '" + orbit.name +
                                    "' (" + (orbit.orient == 1 ? std::string("0 only: it is unoriented")
                                                               : "0.." + std::to_string(orbit.orient - 1)) +
                                    ")");
            return;
        }
        if (p < 0 || !lowered) return;
        int& slot = out_.slotSticker[o][p * orbit.orient + st.slot];
        if (slot >= 0) {
            error(st.range, "sticker " + std::to_string(st.slot) + " of " + orbit.name + " " + positionName(orbit, p) +
                                " is placed twice (first on line " + std::to_string(out_.stickers[slot].where.line) + ")");
            return;
        }
        lowered->orbit = o;
        lowered->position = p;
        lowered->slot = st.slot;
        slot = (int)out_.stickers.size();
        out_.stickers.push_back(std::move(*lowered));
    }

    // Every slot of every orbit is placed: an orbit cannot be left out.
    void missing() {
        for (size_t o = 0; o < orbits_.size(); ++o) {
            const Orbit& orbit = orbits_[o];
            std::vector<std::string> absent;
            for (int i = 0; i < (int)out_.slotSticker[o].size(); ++i)
                if (out_.slotSticker[o][i] < 0)
                    absent.push_back(positionName(orbit, i / orbit.orient) + " " + std::to_string(i % orbit.orient));
            if (absent.empty()) continue;
            std::string list;
            for (int i = 0; i < (int)absent.size() && i < kMaxMissingReported; ++i) list += (i ? ", " : "") + absent[i];
            if ((int)absent.size() > kMaxMissingReported) list += " and " + std::to_string(absent.size() - kMaxMissingReported) + " more";
            error(src_.range, "the layout does not place " + std::to_string(absent.size()) + " sticker" +
                                  (absent.size() == 1 ? "" : "s") + " of orbit '" + orbit.name + "' (" + list +
                                  "); every sticker of every orbit is placed exactly once");
        }
    }

    // Pieces with equal solved labels are interchangeable: a picture that
    // told them apart would depend on which one the interpreter moved.
    void identicalPieces() {
        for (size_t o = 0; o < orbits_.size(); ++o) {
            const Orbit& orbit = orbits_[o];
            std::map<int, int> first;  // label -> first position with it
            for (int p = 0; p < orbit.size; ++p) {
                auto [it, fresh] = first.emplace(orbit.solvedLabel[p], p);
                if (fresh) continue;
                for (int k = 0; k < orbit.orient; ++k) {
                    const auto& a = out_.stickers[out_.slotSticker[o][it->second * orbit.orient + k]];
                    const auto& b = out_.stickers[out_.slotSticker[o][p * orbit.orient + k]];
                    if (a.face == b.face) continue;
                    error(b.where, "pieces " + positionName(orbit, it->second) + " and " + positionName(orbit, p) +
                                       " of orbit '" + orbit.name + "' are identical (equal solved labels), but their "
                                       "sticker " + std::to_string(k) + " has face " + out_.faces[a.face].name +
                                       " and " + out_.faces[b.face].name);
                    break;
                }
            }
        }
    }

    const ast::Layout& src_;
    const std::vector<Orbit>& orbits_;
    const std::string& file_;
    DiagnosticEngine& diags_;
    int errors_ = 0;
    Layout out_;
    std::map<std::string, int> faceIndex_;
    std::map<std::pair<int, int>, int> cells_;  // (col, row) -> line of the sticker there
};

}  // namespace

std::optional<Layout> lowerLayout(const ast::Layout& src, const std::vector<Orbit>& orbits, const std::string& file,
                                  DiagnosticEngine& diags) {
    return LayoutLowerer(src, orbits, file, diags).run();
}

}  // namespace pz::ir
