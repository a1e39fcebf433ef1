// The puzzle AST: what a definition *says*, before names are resolved.
//
// Both front ends produce it: the ANTLR visitor (textual .pz) and the YAML
// reader. Every node carries the 1-based SourceRange it came from, so the
// lowering pass (compiler/ir/lower) can point at the culprit. No ANTLR or
// yaml-cpp type appears here: parse trees stay inside dsl/.
//
// Conventions (the same in the IR):
//   * A cycle (a b c) moves the piece at a to b, b to c, c to a.
//   * A twist on a cycle element, `a+k`, adds k (mod the orbit's orientation
//     modulus) to the piece that leaves a. A 1-cycle with a twist, `(a+1)`,
//     twists a piece in place.
//   * Move names are looked up whole first ("R2", "R'", "R1x3"); only if that
//     fails is a trailing ' read as an inverse of the rest.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include "dsl/diagnostics.hpp"

namespace pz::ast {

struct Name {
    std::string text;
    SourceRange range;
};

// A position given by index (0-based) or by name (e.g. UFR).
struct PositionRef {
    std::optional<int> index;  // set when written as a number
    std::string name;          // set when written as a name
    SourceRange range;
};

struct CycleElement {
    PositionRef position;
    int twist = 0;  // orientation added to the piece leaving this position
    SourceRange range;
};

struct Cycle {
    std::vector<CycleElement> elements;
    SourceRange range;
};

// "corners (UFR UFL UBL UBR) (..)": the cycles of one move on one orbit.
struct OrbitCycles {
    Name orbit;
    std::vector<Cycle> cycles;
    SourceRange range;
};

// A move expression: a word in named elements (moves, macros, symmetries).
struct Expr {
    enum class Kind {
        Identity,     // empty sequence
        Ref,          // a name: R, R2, R', sune
        Sequence,     // items[0] items[1] ...
        Inverse,      // items[0]'
        Power,        // items[0]^power (power may be negative)
        Commutator,   // [items[0], items[1]] = A B A' B'
        Conjugate,    // [items[0]: items[1]] = A B A'
    };
    Kind kind = Kind::Identity;
    Name ref;                 // Kind::Ref
    std::vector<Expr> items;  // operands
    mpz_class power = 1;      // Kind::Power (any size: reduced modulo the element's order)
    SourceRange range;
};

// How a generator's powers are named, and which count as one move.
// Example (cube): {1,"",true}, {2,"2",true}, {-1,"'",true}: R R2 R'.
// Example (slide tiles): {1,"",true}, {2,"x2",true}, {3,"x3",true}.
// A negative power counts from the generator's order (-1 = order-1).
struct PowerName {
    int power = 1;
    std::string suffix;
    bool inMetric = true;  // counts as a single move in search
    SourceRange range;
};

struct PowerScheme {
    std::vector<PowerName> names;  // empty: only power 1, named as the move
    SourceRange range;
};

struct Orbit {
    Name name;
    int size = 0;
    SourceRange sizeRange;
    int orientation = 1;  // modulus; 1 = no orientation
    SourceRange orientationRange;
    std::vector<Name> positionNames;  // empty or exactly `size` names
    SourceRange range;
    // The declared orientation modulus when the orientation does not matter
    // (`orient 3 ignored`; a .tws Solved block's `?` on every piece, note
    // [solved orientations]): the orbit is read unoriented (`orientation`
    // is 1) and the moves' twists, checked against this modulus, are
    // dropped (note [ignored orientation] in compiler/ir/lower.cpp); else 0.
    // .tws import only: the solved state's orientations when not all 0 (the
    // import reads the orbit in the frame where they are 0), else empty.
    // Scramble files use both.
    int orientationIgnored = 0;
    std::vector<int> solvedOrientation;
    // .tws import only (note [sticker sets]): a set whose Solved block gave
    // `?` on some pieces only (written with an IgnoredOrientation, read as
    // stickers by lowering); what the file said of its pieces is kept here
    // for scramble files. Empty (pieces 0) otherwise.
    struct Stickers {
        int pieces = 0, modulus = 1;
        std::vector<int> labels;  // per piece, as in the Solved block
        std::vector<char> wild;   // per piece: `?` (orientation does not matter)
    } stickers;
};

// Solved labels of one orbit; equal labels make pieces indistinguishable.
struct SolvedLabels {
    Name orbit;
    std::vector<Name> labels;  // numbers or identifiers, as written
    SourceRange range;
};

// `illegal ORBIT POSITION holds LABEL;` (ksolve's Illegal): a state with a
// piece of that solved label at that position is never entered.
// `orient centres ignored { L F R B };` (YAML: `orient_ignored: [L, F, R, B]`
// on the orbit): the orientation of these pieces, named by their solved
// positions, does not matter (note [ignored pieces] in compiler/ir/lower.cpp).
struct IgnoredOrientation {
    Name orbit;
    std::vector<PositionRef> pieces;
    SourceRange range;
};

struct IllegalPlacement {
    Name orbit;
    PositionRef position;
    Name label;  // a number or an identifier, as in `solved`
    SourceRange range;
};

// A move generator, defined by cycles or by an expression over earlier names.
// `macro` definitions are named sequences usable in scrambles and generator
// lists but not searched and not expanded into powers.
struct MoveDef {
    Name name;
    bool isMacro = false;
    std::vector<OrbitCycles> cycles;  // when defined by cycles
    std::optional<Expr> expr;         // when defined by an expression
    SourceRange range;
};

// A symmetry: a relabelling of positions that conjugates the puzzle onto
// itself. `mirror` symmetries reverse orientation (o -> -o) and map moves to
// inverses of moves. Defined by cycles or as an expression over earlier
// symmetries. The compiler closes the declared symmetries into a group.
struct SymmetryDef {
    Name name;
    bool mirror = false;
    std::vector<OrbitCycles> cycles;
    std::optional<Expr> expr;
    SourceRange range;
};

// An invariant of a subgroup: pieces stay inside sets of positions, or an
// orbit's orientations stay solved.
struct Invariant {
    enum class Kind { KeepInSets, Oriented };
    Kind kind = Kind::KeepInSets;
    Name orbit;
    std::vector<std::vector<PositionRef>> sets;  // KeepInSets
    std::vector<PositionRef> positions;          // Oriented: empty = whole orbit
    SourceRange range;
};

struct SubgroupDef {
    Name name;
    std::vector<Expr> generators;     // <U, D, R2, ...>; may be empty
    std::vector<Invariant> invariants;  // may be empty
    SourceRange range;
};

// What a pruning table tracks on one orbit.
struct PatternPart {
    Name orbit;
    std::vector<PositionRef> pieces;  // pieces by their solved position; empty = all
    bool positions = true;            // track where those pieces are
    bool orientations = false;        // track their orientation
    bool unordered = false;           // pieces indistinguishable among themselves
    SourceRange range;
};

struct PatternDef {
    Name name;
    std::optional<Name> coset;  // `coset SUBGROUP;`: the subgroup's coset coordinate
    // `coset SUBGROUP exact D;`: a projected table's entries exact up to D
    // (note [declared exact depth] in runtime/include/pz/tables/projected_coset.hpp).
    std::optional<int> exact;
    SourceRange exactRange;
    std::vector<PatternPart> parts;
    SourceRange range;
};

struct SolverDef {
    enum class Kind { Optimal, Phased, Sift };
    Name name;
    Kind kind = Kind::Optimal;
    std::vector<Name> patterns;  // Optimal: heuristic = max over these
    std::vector<Name> phases;    // Phased: subgroup chain, last is implicit solved
    SourceRange range;
};

// ---- the layout of a permutation puzzle (pzc draw; docs/language.md, Layouts) ----
// Presentation only: lowering checks it, the solvers never see it.

// `face U white;`: a solved face and its SVG colour (a name or "#rrggbb").
struct LayoutFace {
    Name name;
    Name colour;  // as written, without quotes
    SourceRange range;
};

// One drawn sticker: of (orbit, position, slot), or a fixed one (no orbit:
// a centre); a cell of the net (`at COL ROW`) or a polygon (x y pairs, in
// cells). `face` is the solved face whose colour it has.
struct LayoutSticker {
    std::optional<Name> orbit;  // none: `fixed`
    PositionRef position;
    int slot = 0;
    SourceRange slotRange;
    bool cell = true;
    int col = 0, row = 0;
    std::vector<double> polygon;  // x1 y1 x2 y2 ...
    SourceRange placeRange;
    Name face;
    SourceRange range;
};

struct Layout {
    std::vector<LayoutFace> faces;
    std::vector<LayoutSticker> stickers;  // orbit stickers, in declaration order
    std::vector<LayoutSticker> fixed;     // fixed stickers, in declaration order
    // The whole section in the file (the `layout` keyword to its `}`; in
    // YAML the `layout` key to the next top-level key): what solver keys
    // leave out (withoutLayout, dsl/frontend.hpp).
    SourceRange range;
};

// ---- grid-actor puzzles (Anima) ----

struct DirectionDef {
    Name name;  // e.g. up
    int dx = 0, dy = 0;  // y grows upwards (level files count y from the bottom row)
    SourceRange range;
};

// An actor colour: the characters it uses in level files, and where its
// actors go when a direction is pressed.
struct ColourDef {
    Name name;
    std::string actorChar;  // in the actor list, e.g. "R"
    std::string goalChar;   // on the grid, e.g. "r"
    enum class Motion { With, Against, Map } motion = Motion::With;
    std::vector<std::pair<Name, Name>> map;  // Motion::Map: pressed -> moves
    SourceRange range;
};

struct GridDef {
    std::vector<DirectionDef> directions;
    std::vector<ColourDef> colours;
    std::vector<Name> levels;  // level file paths, relative to the definition
    SourceRange range;
};

// ---- sliding-block puzzles (docs/language.md, "Sliding-block puzzles") ----
// Values the grammar reads as names (a metric, an axis, a side, a symmetry's
// map, a solver's heuristic) are kept as written and checked by lowering.
// A piece is named by its board token: a name or a number ("A", "15").

struct BlocksDef {
    // The board rows, top first, as written; each range covers the row's
    // text (inside the quotes), so a token's column is range.col + offset.
    std::optional<std::vector<Name>> board;
    SourceRange boardRange;
    struct Size {
        int width = 0, height = 0;
        SourceRange range;
    };
    std::optional<Size> size;
    struct Exit {
        Name side;  // left | right | top | bottom
        int offset = 0;
        SourceRange range;
    };
    std::optional<Exit> exit;
    std::optional<Name> metric;  // step | slide | path
    std::optional<Name> moves;   // blank | pieces
    struct Axis {
        std::optional<Name> piece;  // none: every piece
        Name axis;                  // horizontal | vertical | long
        SourceRange range;
    };
    std::vector<Axis> axes;
    std::optional<SourceRange> start;  // `start;`: the board is a start position
    struct Identical {
        std::vector<Name> pieces;
        SourceRange range;
    };
    std::vector<Identical> identical;
    struct Goal {
        enum class Kind { Board, Exit, Place } kind = Kind::Board;
        Name exitPiece;  // Exit
        struct Placement {
            Name piece;
            int x = 0, y = 0;
            SourceRange range;
        };
        std::vector<Placement> placements;  // Place
        SourceRange range;
    };
    std::optional<Goal> goal;
    struct Symmetry {
        Name name;
        Name map;  // transpose | antitranspose | mirror_x | mirror_y | rotate180
        SourceRange range;
    };
    std::vector<Symmetry> symmetries;
    struct Pattern {
        Name name;
        std::vector<Name> pieces;
        SourceRange range;
    };
    std::vector<Pattern> patterns;
    struct Solver {
        Name name;
        Name heuristic;   // bfs | manhattan | additive; empty text: none given
        bool conflicts = false;       // manhattan conflicts
        std::vector<Name> patterns;   // additive
        std::optional<Name> reflect;  // a symmetry
        SourceRange range;
    };
    std::vector<Solver> solvers;
    std::vector<Name> levels;  // level file paths, relative to the definition
    SourceRange range;
};

// ---- the whole definition ----

struct Puzzle {
    enum class Kind { Permutation, Grid, Blocks };
    std::string file;  // path it was read from
    Kind kind = Kind::Permutation;
    Name name;

    // permutation puzzles
    std::vector<Orbit> orbits;
    std::vector<SolvedLabels> solved;
    std::vector<IgnoredOrientation> ignoredOrientations;
    std::vector<IllegalPlacement> illegal;
    PowerScheme powers;
    std::vector<MoveDef> moves;
    std::vector<SymmetryDef> symmetries;
    std::vector<SubgroupDef> subgroups;
    std::vector<PatternDef> patterns;
    std::vector<SolverDef> solvers;
    std::optional<Layout> layout;

    // grid-actor puzzles
    GridDef grid;

    // sliding-block puzzles
    BlocksDef blocks;

    SourceRange range;
};

}  // namespace pz::ast
