// The puzzle IR: a validated, name-resolved model. Everything after the
// front end (analysis, interpreter, code generation) reads only this.
//
// note [element convention]
// An Element is a state of the puzzle read as "what is where":
//   perm[o][p] = the position whose piece lands at p     (0-based)
//   ori[o][p]  = orientation added to the piece landing at p (mod orbit.orient)
// The solved state is the identity. Applying move m to state s (s then m):
//   (s*m).perm[p] = s.perm[m.perm[p]]
//   (s*m).ori[p]  = (eps(m) * s.ori[m.perm[p]] + m.ori[p]) mod orient
// where eps = -1 for mirror elements, +1 otherwise. A state is the element
// that takes solved to it, so a state is the product of its move sequence.
// The piece at position p in state s is the piece solved at s.perm[p]; its
// label is orbit.solvedLabel[s.perm[p]].
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/blocks.hpp"
#include "dsl/diagnostics.hpp"

namespace pz::ir {

struct Orbit {
    std::string name;
    int size = 0;
    int orient = 1;                          // modulus, 1 = unoriented
    std::vector<std::string> positionNames;  // empty or `size` names
    std::vector<int> solvedLabel;            // size entries; equal = indistinguishable
    SourceRange where;
    int ignoredOrient = 0;                   // > 1: declared `orient N ignored` (note [ignored orientation])
    // Read as stickers (note [ignored pieces] in compiler/ir/lower.cpp): the
    // declared orbit had `stickerPieces` pieces of `stickerModulus`
    // orientations, those in `ignoredPieces` (solved positions) with their
    // orientation ignored; `size` is pieces x modulus. 0 otherwise.
    int stickerPieces = 0, stickerModulus = 0;
    std::vector<int> ignoredPieces;
};

// ksolve's Illegal: no state with a piece of solved label `label` at
// `position` of `orbit` is entered (by search, scramble or replay).
struct IllegalPlacement {
    int orbit = 0, position = 0, label = 0;  // label: a solvedLabel value
    SourceRange where;
};

struct Element {
    std::vector<std::vector<int>> perm;  // [orbit][position]
    std::vector<std::vector<int>> ori;   // [orbit][position]
    bool mirror = false;                 // reverses orientation (symmetries only)
    bool operator==(const Element&) const = default;
};

// A declared generator, e.g. R. Its powers are Moves.
struct MoveFamily {
    std::string name;
    Element base;
    int order = 1;  // smallest k > 0 with base^k = identity
    SourceRange where;
};

// A named power of a family: R, R2, R'. Search uses those with inMetric.
struct Move {
    std::string name;
    int family = 0;
    int power = 1;  // 1 .. order-1
    bool inMetric = true;
    Element effect;
};

// A named sequence (macro): usable in scrambles, not searched.
struct Macro {
    std::string name;
    Element effect;
    SourceRange where;
};

struct Symmetry {
    std::string name;
    Element effect;  // effect.mirror set for reflections
    SourceRange where;
};

struct KeepInSets {
    int orbit = 0;
    std::vector<std::vector<int>> sets;  // positions; each piece stays in its set
};

struct Subgroup {
    std::string name;
    std::vector<Element> generators;
    std::vector<std::string> generatorText;  // as written, for reports
    std::vector<KeepInSets> keepIn;
    std::vector<std::pair<int, std::vector<int>>> oriented;  // orbit, positions (empty = all)
    SourceRange where;
};

struct PatternPart {
    int orbit = 0;
    std::vector<int> pieces;  // solved positions of the tracked pieces, sorted
    bool positions = true;
    bool orientations = false;
    bool unordered = false;
    SourceRange where;  // the part in the definition (diagnostics)
};

struct Pattern {
    std::string name;
    std::vector<PatternPart> parts;
    SourceRange where;
    // A coset pattern (note [coset patterns] in compiler/analysis/
    // coset_coordinates.hpp): the coset coordinate of this subgroup; its
    // parts, orientations only, are the positions whose orientation the
    // table keeps (note [projected coset patterns]).
    int cosetSubgroup = -1;
    // `coset H exact D;`: a projected table exact up to at least D (note
    // [declared exact depth] in runtime/include/pz/tables/projected_coset.hpp);
    // 0 = the build's default depth.
    int exactDepth = 0;
};

// The deepest declared exact depth: the build keeps 4-bit entries, 15 for
// "not reached", and reads farther entries as exact + 1.
inline constexpr int kMaxProjectedExactDepth = 14;

struct Solver {
    enum class Kind { Optimal, Phased, Sift };
    std::string name;
    Kind kind = Kind::Optimal;
    std::vector<int> patterns;  // indices into Puzzle::patterns
    std::vector<int> phases;    // indices into Puzzle::subgroups
    SourceRange where;
};

// ---- the layout of a permutation puzzle (pzc draw) ----
//
// note [sticker slots]
// Presentation only: no analysis, solver or generated code reads it. Each
// position p of an orbit with n orientations (n = 1 unoriented, also for
// `orient N ignored`) has n sticker slots k = 0..n-1 on the drawing. The
// piece there, solved at q with orientation o (note [element convention]),
// shows in slot k its own sticker (k - o) mod n, that is the sticker drawn in
// slot (k - o) mod n of position q when solved, in that sticker's face
// colour: orientation o moves each of a piece's stickers o slots on. So a
// layout numbers each position's slots in the direction its twists turn.
struct LayoutSticker {
    int orbit = -1;  // -1: fixed (no orbit)
    int position = 0, slot = 0;
    int face = 0;    // index into Layout::faces
    bool cell = true;
    int col = 0, row = 0;         // cell: column and row of the net
    std::vector<double> polygon;  // else x1 y1 x2 y2 ..., in cells
    SourceRange where;
};

struct LayoutFace {
    std::string name, colour;  // colour: an SVG colour name or #rgb / #rrggbb
};

struct Layout {
    std::vector<LayoutFace> faces;
    std::vector<LayoutSticker> stickers;  // orbit stickers, in declaration order
    std::vector<LayoutSticker> fixed;
    // slotSticker[o][p * n + k]: the index into `stickers` of slot k of
    // position p of orbit o (n its orientations); every slot has one.
    std::vector<std::vector<int>> slotSticker;
};

// ---- grid-actor puzzles ----

struct Direction {
    std::string name;
    int dx = 0, dy = 0;  // y up
};

struct Colour {
    std::string name;
    char actorChar = 'R';
    char goalChar = 'r';
    std::vector<int> motion;  // motion[pressed direction] = direction its actors move
};

struct GridRules {
    std::vector<Direction> directions;
    std::vector<Colour> colours;
    std::vector<std::string> levelPaths;  // resolved relative to the definition
};

// One level of a grid-actor puzzle (read from an original level file).
struct Level {
    std::string name;   // file stem, e.g. 3.14-antiparticle
    std::string file;
    int width = 0, height = 0;
    std::vector<bool> floor;  // [y * width + x], y = 0 is the bottom row
    struct Cell { int colour; int x, y; };
    std::vector<Cell> goals;
    std::vector<Cell> actors;
    bool isFloor(int x, int y) const {
        return x >= 0 && y >= 0 && x < width && y < height && floor[y * width + x];
    }
};

// ---- the whole puzzle ----

struct Puzzle {
    enum class Kind { Permutation, Grid, Blocks };
    std::string name;
    std::string file;
    Kind kind = Kind::Permutation;

    std::vector<Orbit> orbits;
    std::vector<IllegalPlacement> illegal;
    std::vector<MoveFamily> families;
    std::vector<Move> moves;  // every named power, families in declaration order
    std::vector<Macro> macros;
    std::vector<Symmetry> symmetries;  // as declared (generators of the symmetry group)
    std::vector<Subgroup> subgroups;
    std::vector<Pattern> patterns;
    std::vector<Solver> solvers;
    std::optional<Layout> layout;  // presentation only (note [sticker slots])

    GridRules grid;

    BlockRules blocks;  // Kind::Blocks (compiler/ir/blocks.hpp)
};

}  // namespace pz::ir
