// Puzzles built directly as IR, for unit tests of the analyses and emitters
// that must not depend on the front end: N x N Loopover (rows shift right,
// columns shift down, every power a move), with its 8N^2 symmetries, and a
// small oriented puzzle (two overlapping 4-cycles that twist) to exercise
// orientation lanes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/element.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::codegen::testing {

inline ir::Element positionMap(const std::vector<ir::Orbit>& orbits, const std::vector<int>& perm) {
    ir::Element e = ir::identity(orbits);
    e.perm[0] = perm;
    return e;
}

inline void addFamily(ir::Puzzle& p, const std::string& name, const ir::Element& base, const std::vector<std::string>& powerNames) {
    ir::MoveFamily f;
    f.name = name;
    f.base = base;
    f.order = static_cast<int>(ir::order(base, p.orbits));
    int fi = static_cast<int>(p.families.size());
    p.families.push_back(f);
    for (int k = 1; k < f.order; ++k) {
        ir::Move m;
        m.name = powerNames[k - 1];
        m.family = fi;
        m.power = k;
        m.effect = ir::power(base, k, p.orbits);
        p.moves.push_back(m);
    }
}

// A pattern of one part: the positions of `pieces` of orbit `o` (a set
// when `unordered`), and their orientations when `ori`.
inline void addPattern(ir::Puzzle& p, const std::string& name, int o, std::vector<int> pieces, bool ori,
                       bool unordered = false) {
    ir::Pattern pat;
    pat.name = name;
    ir::PatternPart part;
    part.orbit = o;
    part.pieces = std::move(pieces);
    part.orientations = ori;
    part.unordered = unordered;
    pat.parts.push_back(part);
    p.patterns.push_back(pat);
}

// N x N Loopover; each entry of `patterns` (solved positions) declares a
// pattern, all used by one optimal solver.
inline ir::Puzzle loopover(int n, const std::vector<std::vector<int>>& patterns) {
    ir::Puzzle p;
    p.name = n == 4 ? "slide4" : "loopover" + std::to_string(n);
    p.file = "<test:" + p.name + ">";
    ir::Orbit tiles;
    tiles.name = "tiles";
    tiles.size = n * n;
    for (int i = 0; i < n * n; ++i) tiles.solvedLabel.push_back(i);
    p.orbits.push_back(tiles);
    auto at = [n](int r, int c) { return ((r + n) % n) * n + (c + n) % n; };
    auto powers = [](const std::string& base, int n) {
        std::vector<std::string> v{base};
        for (int k = 2; k < n; ++k) v.push_back(base + "x" + std::to_string(k));
        return v;
    };
    for (int r = 0; r < n; ++r) {
        std::vector<int> perm(n * n);
        for (int i = 0; i < n * n; ++i) perm[i] = i;
        for (int c = 0; c < n; ++c) perm[at(r, c)] = at(r, c - 1);
        addFamily(p, "R" + std::to_string(r + 1), positionMap(p.orbits, perm), powers("R" + std::to_string(r + 1), n));
    }
    for (int c = 0; c < n; ++c) {
        std::vector<int> perm(n * n);
        for (int i = 0; i < n * n; ++i) perm[i] = i;
        for (int r = 0; r < n; ++r) perm[at(r, c)] = at(r - 1, c);
        addFamily(p, "C" + std::to_string(c + 1), positionMap(p.orbits, perm), powers("C" + std::to_string(c + 1), n));
    }
    auto sym = [&](const std::string& name, auto f, bool mirror) {
        std::vector<int> perm(n * n);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) perm[at(r, c)] = f(r, c);
        ir::Symmetry s;
        s.name = name;
        s.effect = positionMap(p.orbits, perm);
        s.effect.mirror = mirror;
        p.symmetries.push_back(s);
    };
    sym("shiftRight", [&](int r, int c) { return at(r, c - 1); }, false);
    sym("shiftDown", [&](int r, int c) { return at(r - 1, c); }, false);
    sym("transpose", [&](int r, int c) { return at(c, r); }, true);
    sym("flip", [&](int r, int c) { return at(r, n - 1 - c); }, true);
    ir::Solver solver;
    solver.name = "optimal";
    for (const auto& pieces : patterns) {
        ir::Pattern pat;
        pat.name = "pieces" + std::to_string(pieces.size());
        ir::PatternPart part;
        part.orbit = 0;
        part.pieces = pieces;
        pat.parts.push_back(part);
        solver.patterns.push_back(static_cast<int>(p.patterns.size()));
        p.patterns.push_back(pat);
    }
    if (!patterns.empty()) p.solvers.push_back(solver);
    return p;
}

// Two overlapping clockwise 4-cycles on 6 positions (a 2x3 grid), each
// adding +1 mod 3 to the pieces it moves; patterns track positions and
// orientations of pieces 0..2 (as one part), orientations only of all, and
// the unordered set of positions of pieces 1, 3, 5 (a combination).
inline ir::Puzzle twister() {
    ir::Puzzle p;
    p.name = "twister";
    p.file = "<test:twister>";
    ir::Orbit o;
    o.name = "blocks";
    o.size = 6;
    o.orient = 3;
    for (int i = 0; i < 6; ++i) o.solvedLabel.push_back(i);
    p.orbits.push_back(o);
    // grid 0 1 2 / 3 4 5; block L = 0 1 4 3, block R = 1 2 5 4 (clockwise).
    auto block = [&](std::vector<int> cyc) {
        ir::Element e = ir::identity(p.orbits);
        for (int i = 0; i < 4; ++i) {
            e.perm[0][cyc[(i + 1) % 4]] = cyc[i];
            e.ori[0][cyc[(i + 1) % 4]] = 1;
        }
        return e;
    };
    addFamily(p, "L", block({0, 1, 4, 3}), {"L", "L2", "L'", "Lx4", "Lx5", "Lx6", "Lx7", "Lx8", "Lx9", "Lx10", "Lx11"});
    addFamily(p, "R", block({1, 2, 5, 4}), {"R", "R2", "R'", "Rx4", "Rx5", "Rx6", "Rx7", "Rx8", "Rx9", "Rx10", "Rx11"});
    ir::Symmetry s;
    s.name = "turn";  // 180-degree rotation of the 2x3 grid: maps L to R
    s.effect = positionMap(p.orbits, {5, 4, 3, 2, 1, 0});
    p.symmetries.push_back(s);
    ir::Symmetry f;
    f.name = "flip";  // left-right mirror: maps L to R^-1 (twists negate)
    f.effect = positionMap(p.orbits, {2, 1, 0, 5, 4, 3});
    f.effect.mirror = true;
    p.symmetries.push_back(f);
    ir::Pattern a;
    a.name = "first3";
    ir::PatternPart pa;
    pa.pieces = {0, 1, 2};
    pa.orientations = true;
    a.parts.push_back(pa);
    ir::Pattern b;
    b.name = "twists";
    ir::PatternPart pb;
    pb.pieces = {0, 1, 2, 3, 4, 5};
    pb.positions = false;
    pb.orientations = true;
    b.parts.push_back(pb);
    ir::Pattern c;
    c.name = "where3";
    ir::PatternPart pc;
    pc.pieces = {1, 3, 5};
    pc.unordered = true;
    c.parts.push_back(pc);
    ir::Pattern d;  // two parts on one orbit: where 1, 3, 5 are x all twists
    d.name = "where3twists";
    d.parts = {pc, pb};
    // Two positions parts on one orbit (note [parts on one orbit]): where
    // pieces 0 and 4 are (ordered) and where 1, 3, 5 are; some values are
    // no state.
    ir::Pattern e;
    e.name = "twosets";
    ir::PatternPart pe;
    pe.pieces = {0, 4};
    e.parts = {pe, pc};
    p.patterns = {a, b, c, d, e};
    return p;
}

// Two orbits (4 plain pieces, 3 pieces oriented mod 2) moved together, with
// one pattern of two parts: a composite coordinate.
inline ir::Puzzle twoOrbits() {
    ir::Puzzle p;
    p.name = "twoorbits";
    p.file = "<test:twoorbits>";
    ir::Orbit a;
    a.name = "plain";
    a.size = 4;
    a.solvedLabel = {0, 1, 2, 3};
    ir::Orbit b;
    b.name = "flips";
    b.size = 3;
    b.orient = 2;
    b.solvedLabel = {0, 1, 2};
    p.orbits = {a, b};
    ir::Element x = ir::identity(p.orbits);
    x.perm[0] = {3, 0, 1, 2};  // plain: 0 -> 1 -> 2 -> 3 -> 0
    x.perm[1] = {2, 0, 1};     // flips: 0 -> 1 -> 2 -> 0, flipping two
    x.ori[1] = {1, 1, 0};
    ir::Element y = ir::identity(p.orbits);
    y.perm[0] = {2, 1, 0, 3};  // plain: swap 0 and 2
    y.perm[1] = {0, 2, 1};     // flips: swap 1 and 2, flipping both
    y.ori[1] = {0, 1, 1};
    addFamily(p, "X", x, {"X", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "X11"});
    addFamily(p, "Y", y, {"Y", "Y2", "Y3", "Y4", "Y5"});
    ir::Pattern mix;
    mix.name = "mix";
    ir::PatternPart pa;
    pa.orbit = 0;
    pa.pieces = {0, 1};
    ir::PatternPart pb;
    pb.orbit = 1;
    pb.pieces = {0, 1, 2};
    pb.orientations = true;
    mix.parts = {pa, pb};
    // Three parts on one orbit (note [parts on one orbit]): where flip 0 is,
    // where flips 1 and 2 are, and every flip (read by position).
    ir::Pattern split;
    split.name = "flipsplit";
    ir::PatternPart s0, s12, sf;
    s0.orbit = s12.orbit = sf.orbit = 1;
    s0.pieces = {0};
    s12.pieces = {1, 2};
    s12.unordered = true;
    sf.pieces = {0, 1, 2};
    sf.positions = false;
    sf.orientations = true;
    split.parts = {s0, s12, sf};
    p.patterns = {mix, split};
    return p;
}


// Identical pieces (note [labelled lanes]): six tiles in three pairs of one
// colour and four flippable pieces in two pairs, moved by a 6-cycle with a
// 4-cycle of flips and by a double swap. Patterns: everything (a table of
// exact distances), one colour, two colours ordered, and four tiles as one
// unordered class.
inline ir::Puzzle labelled() {
    ir::Puzzle p;
    p.name = "labelled";
    p.file = "<test:labelled>";
    ir::Orbit a;
    a.name = "tiles";
    a.size = 6;
    a.solvedLabel = {0, 0, 1, 1, 2, 2};
    ir::Orbit b;
    b.name = "flips";
    b.size = 4;
    b.orient = 2;
    b.solvedLabel = {0, 0, 1, 1};
    p.orbits = {a, b};
    ir::Element x = ir::identity(p.orbits);
    x.perm[0] = {5, 0, 1, 2, 3, 4};  // tiles: 0 -> 1 -> ... -> 5 -> 0
    x.perm[1] = {3, 0, 1, 2};        // flips: 0 -> 1 -> 2 -> 3 -> 0, flipping one
    x.ori[1] = {1, 0, 0, 0};
    ir::Element y = ir::identity(p.orbits);
    y.perm[0] = {3, 4, 2, 0, 1, 5};  // tiles: swap 0 3 and 1 4
    y.perm[1] = {0, 3, 2, 1};        // flips: swap 1 and 3, flipping both
    y.ori[1] = {0, 1, 0, 1};
    auto names = [&](const std::string& n, const ir::Element& e) {  // X, X2, ... up to the order
        std::vector<std::string> v{n};
        for (long k = 2; k < ir::order(e, p.orbits); ++k) v.push_back(n + std::to_string(k));
        return v;
    };
    addFamily(p, "X", x, names("X", x));
    addFamily(p, "Y", y, names("Y", y));
    auto part = [](int orbit, std::vector<int> pieces, bool orientations, bool unordered) {
        ir::PatternPart pp;
        pp.orbit = orbit;
        pp.pieces = std::move(pieces);
        pp.orientations = orientations;
        pp.unordered = unordered;
        return pp;
    };
    p.patterns = {
        {"whole", {part(0, {0, 1, 2, 3, 4, 5}, false, false), part(1, {0, 1, 2, 3}, true, false)}, {}},
        {"reds", {part(0, {0, 1}, false, false)}, {}},
        {"twocolours", {part(0, {2, 3, 4, 5}, false, false), part(1, {2, 3}, true, false)}, {}},
        {"four", {part(0, {0, 1, 2, 3}, false, true)}, {}},
    };
    return p;
}

// Orbits in every wide lane form (state_layout.hpp): "ring" (40 positions,
// orientation mod 3: 64 byte lanes, one shuffle), "flat" (12 positions mod
// 12: byte lanes for the modulus), "long" (100 positions: byte lanes, loop
// kernels) and "huge" (300 positions mod 2: 16-bit lanes). Two move
// families of disjoint twisting 4-cycles (order 4 on every orbit); patterns
// on ring and flat (positions + orientations, an unordered set).
inline ir::Puzzle wideOrbits() {
    ir::Puzzle p;
    p.name = "wideorbits";
    p.file = "<test:wideorbits>";
    auto orbit = [&](const std::string& name, int size, int orient) {
        ir::Orbit o;
        o.name = name;
        o.size = size;
        o.orient = orient;
        for (int i = 0; i < size; ++i) o.solvedLabel.push_back(i);
        p.orbits.push_back(o);
    };
    orbit("ring", 40, 3);
    orbit("flat", 12, 12);
    orbit("long", 100, 1);
    orbit("huge", 300, 2);
    // 4-cycles a -> a+step -> a+2step -> a+3step starting at each of `starts`,
    // twisting the pieces that arrive by `twist` (total 0 mod the modulus).
    auto cycle = [&](ir::Element& e, int o, const std::vector<int>& cyc, const std::vector<int>& twist) {
        for (int i = 0; i < 4; ++i) {
            e.perm[o][cyc[(i + 1) % 4]] = cyc[i];
            if (p.orbits[o].orient > 1) e.ori[o][cyc[(i + 1) % 4]] = twist[i];
        }
    };
    auto cycles = [&](ir::Element& e, int o, const std::vector<int>& starts, int step, const std::vector<int>& twist) {
        for (int a : starts) cycle(e, o, {a, a + step, a + 2 * step, a + 3 * step}, twist);
    };
    ir::Element x = ir::identity(p.orbits), y = ir::identity(p.orbits);
    cycles(x, 0, {0, 4, 8, 12, 16, 20, 24, 28, 32, 36}, 1, {1, 1, 1, 0});
    cycles(y, 0, {2, 6, 10, 14, 18, 22, 26, 30, 34}, 1, {2, 0, 1, 0});
    cycle(y, 0, {0, 39, 1, 38}, {0, 0, 0, 0});
    cycles(x, 1, {0, 4, 8}, 1, {1, 11, 5, 7});
    cycle(y, 1, {1, 3, 5, 7}, {3, 9, 0, 0});
    cycle(y, 1, {2, 6, 10, 11}, {6, 6, 0, 0});
    std::vector<int> longX, longY, hugeX, hugeY;
    for (int a = 0; a < 100; a += 4) longX.push_back(a);
    for (int a = 2; a < 98; a += 4) longY.push_back(a);
    for (int a = 0; a < 300; a += 4) hugeX.push_back(a);
    for (int a = 2; a < 298; a += 4) hugeY.push_back(a);
    cycles(x, 2, longX, 1, {0, 0, 0, 0});
    cycles(y, 2, longY, 1, {0, 0, 0, 0});
    cycles(x, 3, hugeX, 1, {1, 1, 0, 0});
    cycles(y, 3, hugeY, 1, {0, 1, 1, 0});
    addFamily(p, "X", x, {"X", "X2", "X'"});
    addFamily(p, "Y", y, {"Y", "Y2", "Y'"});
    auto pattern = [&](const std::string& name, int o, std::vector<int> pieces, bool ori, bool unordered) {
        addPattern(p, name, o, std::move(pieces), ori, unordered);
    };
    pattern("ring3", 0, {0, 1, 39}, true, false);
    pattern("flat3", 1, {0, 5, 11}, true, false);
    pattern("ringset", 0, {5, 7, 9, 11, 20}, false, true);
    // Two parts on two wide orbits.
    ir::Pattern both;
    both.name = "both";
    ir::PatternPart a, b;
    a.orbit = 0;
    a.pieces = {3, 17};
    b.orbit = 1;
    b.pieces = {0, 5};
    b.orientations = true;
    both.parts = {a, b};
    p.patterns.push_back(both);
    // Two positions parts on one byte-lane orbit (note [parts on one orbit]).
    ir::Pattern ringTwo;
    ringTwo.name = "ringtwo";
    ir::PatternPart r1, r2;
    r1.orbit = 0;
    r1.pieces = {3, 17};
    r1.orientations = true;
    r2.orbit = 0;
    r2.pieces = {5, 7, 9};
    r2.unordered = true;
    ringTwo.parts = {r1, r2};
    p.patterns.push_back(ringTwo);
    return p;
}

// Identical pieces on byte lanes (pz::ByteLabelCoordinate): "centres" (24
// positions in six colours of four, like the 4x4x4's), "twisty" (6 positions
// mod 12 in three pairs: byte lanes for the modulus) and "beads" (40
// positions mod 3: two of colour 0, three of colour 1, 35 of colour 2).
// Two move families of 4-cycles (order 4, twists summing to 0 per cycle).
inline ir::Puzzle labelledWide() {
    ir::Puzzle p;
    p.name = "labelledwide";
    p.file = "<test:labelledwide>";
    auto orbit = [&](const std::string& name, int orient, const std::vector<int>& labels) {
        ir::Orbit o;
        o.name = name;
        o.size = static_cast<int>(labels.size());
        o.orient = orient;
        o.solvedLabel = labels;
        p.orbits.push_back(o);
    };
    std::vector<int> centres, beads;
    for (int i = 0; i < 24; ++i) centres.push_back(i / 4);
    for (int i = 0; i < 40; ++i) beads.push_back(i < 2 ? 0 : i < 5 ? 1 : 2);
    orbit("centres", 1, centres);
    orbit("twisty", 12, {0, 0, 1, 1, 2, 2});
    orbit("beads", 3, beads);
    auto cycle = [&](ir::Element& e, int o, const std::vector<int>& cyc, const std::vector<int>& twist) {
        for (int i = 0; i < 4; ++i) {
            e.perm[o][cyc[(i + 1) % 4]] = cyc[i];
            if (p.orbits[o].orient > 1) e.ori[o][cyc[(i + 1) % 4]] = twist[i];
        }
    };
    ir::Element x = ir::identity(p.orbits), y = ir::identity(p.orbits);
    for (int a = 0; a < 6; ++a) cycle(x, 0, {a, a + 6, a + 12, a + 18}, {});
    for (int a : {2, 6, 10, 14, 18}) cycle(y, 0, {a, a + 1, a + 2, a + 3}, {});
    cycle(x, 1, {0, 1, 2, 3}, {1, 11, 5, 7});
    cycle(y, 1, {2, 3, 4, 5}, {3, 9, 6, 6});
    for (int a = 0; a < 40; a += 4) cycle(x, 2, {a, a + 1, a + 2, a + 3}, {1, 1, 1, 0});
    for (int a = 2; a < 38; a += 4) cycle(y, 2, {a, a + 1, a + 2, a + 3}, {2, 0, 1, 0});
    cycle(y, 2, {0, 39, 1, 38}, {0, 0, 0, 0});
    addFamily(p, "X", x, {"X", "X2", "X'"});
    addFamily(p, "Y", y, {"Y", "Y2", "Y'"});
    auto part = [](int orbit, std::vector<int> pieces, bool orientations, bool unordered) {
        ir::PatternPart pp;
        pp.orbit = orbit;
        pp.pieces = std::move(pieces);
        pp.orientations = orientations;
        pp.unordered = unordered;
        return pp;
    };
    auto twists = [](int orbit, std::vector<int> pieces) {
        ir::PatternPart pp;
        pp.orbit = orbit;
        pp.pieces = std::move(pieces);
        pp.positions = false;
        pp.orientations = true;
        return pp;
    };
    p.patterns = {
        {"centres2", {part(0, {0, 1, 2, 3, 4, 5, 6, 7}, false, false)}, {}},
        {"centres1", {part(0, {20, 21, 22, 23}, false, false)}, {}},
        {"centresset", {part(0, {8, 9, 10, 11, 12, 13, 14, 15}, false, true)}, {}},
        {"twisty", {part(1, {0, 1, 2, 3, 4, 5}, true, false)}, {}},
        {"beads", {part(2, {0, 1, 2, 3, 4}, true, false)}, {}},
        {"mix", {part(0, {16, 17, 18, 19}, false, false), part(1, {2, 3}, true, false)}, {}},
        // Two parts on one orbit: where the first pair is x every twist.
        {"twistysplit", {part(1, {0, 1}, false, true), twists(1, {0, 1, 2, 3, 4, 5})}, {}},
    };
    return p;
}

// note [orientation residues]: oriented rotate puzzles (rotate4o's moves on
// smaller boards), where a quarter turn moves each of a 2x2 block's pieces
// to a cell of the other checkerboard colour and turns it, so a piece's
// orientation is fixed modulo a step by where it is. "board": 3x3, mod 4,
// +1 a turn (step 2); "strip": 2x3, mod 4 (step 2; every piece tracked, the
// sum fixed); "wide": 5x4, 20 positions on byte lanes (step 2); "wstrip":
// 2x3, mod 20, +5 a turn (byte lanes for the modulus; step 10, sum fixed).
inline ir::Puzzle rotators() {
    ir::Puzzle p;
    p.name = "rotators";
    p.file = "<test:rotators>";
    struct Board { const char* name; int w, h, mod, twist; };
    const Board boards[] = {{"board", 3, 3, 4, 1}, {"strip", 3, 2, 4, 1}, {"wide", 5, 4, 4, 1}, {"wstrip", 3, 2, 20, 5}};
    for (const auto& b : boards) {
        ir::Orbit o;
        o.name = b.name;
        o.size = b.w * b.h;
        o.orient = b.mod;
        for (int i = 0; i < o.size; ++i) o.solvedLabel.push_back(i);
        p.orbits.push_back(o);
    }
    for (int oi = 0; oi < 4; ++oi) {
        const Board& b = boards[oi];
        for (int y = 0; y + 1 < b.h; ++y)
            for (int x = 0; x + 1 < b.w; ++x) {
                const int tl = x + b.w * y;
                const int cyc[4] = {tl, tl + 1, tl + 1 + b.w, tl + b.w};  // clockwise
                ir::Element e = ir::identity(p.orbits);
                for (int i = 0; i < 4; ++i) {
                    e.perm[oi][cyc[(i + 1) % 4]] = cyc[i];
                    e.ori[oi][cyc[(i + 1) % 4]] = b.twist;
                }
                const std::string n = std::string(b.name) + std::to_string(x) + std::to_string(y);
                addFamily(p, n, e, {n, n + "2", n + "'"});
            }
    }
    addPattern(p, "board4", 0, {0, 1, 2, 3}, true);
    addPattern(p, "strip", 1, {0, 1, 2, 3, 4, 5}, true);
    addPattern(p, "wide3", 2, {0, 7, 19}, true);
    addPattern(p, "wstrip", 3, {0, 1, 2, 3, 4, 5}, true);
    return p;
}

}  // namespace pz::codegen::testing
