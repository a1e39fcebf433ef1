// pz/blocks/board.hpp — the board of a sliding-block puzzle (note [blocks
// model] in compiler/ir/blocks.hpp): bitboards, the traits contract the code
// generator emits, the level text form, moves and their names, the replay
// check. The search is pz/blocks/small_space.hpp, the main() blocks_main.hpp.
//
// note [blocks traits]
// A generated sliding-block solver defines one traits struct of literal
// constexpr tables; every template of pz::blocks is instantiated with it.
// Cells are numbered y * kWidth + x, y = 0 the TOP row, x = 0 the left
// column; a bitboard is a uint64_t with bit c for cell c (kWidth * kHeight
// <= 64). A piece's anchor is the top-left cell of its shape's bounding box.
//
//   struct Traits {
//     static constexpr const char* kName;          // puzzle name (messages only)
//     static constexpr int kWidth, kHeight;        // 1 <= kWidth * kHeight <= 64
//     static constexpr uint64_t kWalls;            // wall cells
//     static constexpr pz::blocks::ExitSide kExitSide;  // None, Left, Right, Top, Bottom
//     static constexpr int kExitOffset;            // the exit's row (Left/Right) or column
//                                                  // (Top/Bottom), 0-based; 0 when None
//     static constexpr pz::blocks::Metric kMetric; // Step, Slide, Path
//     static constexpr int kTypes;                 // number of piece types, 1..64
//     static constexpr const char* kTypeNames[kTypes];   // the level text names types by these
//     static constexpr pz::blocks::Axis kAxis[kTypes];   // Any, Horizontal, Vertical, Fixed
//                        // (Fixed: never moves; a level's own walls, e.g. Rush Hour's `x`)
//     static constexpr uint64_t kPlacement[kTypes][64];  // [t][a]: the cells a piece of type t
//                        // covers with its anchor at cell a; 0 where it does not fit (outside
//                        // the board or on a wall) and for a >= kWidth * kHeight
//     static constexpr pz::blocks::GoalKind kGoalKind;   // Full, Place, Exit
//     static constexpr uint64_t kGoalAnchors[kTypes];    // bit a: an anchor of the goal.
//                        // Full: the anchors of type t's pieces are exactly these (the solved
//                        // layout, a multiset per type); Place: some piece of type t stands at
//                        // each of these (types not in the goal: 0); Exit: all 0
//     static constexpr int kExitType;              // Exit: the type whose piece must reach the
//                                                  // exit; -1 otherwise
//   };
//
// Any indexable constexpr table will do (C arrays or std::array); the
// helpers below (`placementsOf`, `cellBit`) build the masks in constant
// expressions, e.g. `static constexpr auto kPlacement = std::array{
// pz::blocks::placementsOf(6, 6, kWalls, "##")};` — the tests do that.
// `checkTraits<Traits>()` (a consteval-friendly check, called by the
// engine in a static_assert) proves the contract's invariants: no placement
// outside the board or on a wall, masks of one type all the same shape.
//
// Exit goal: the piece of type kExitType has a cell on the exit's side in
// the exit's row/column (Rush Hour: the red car at the right edge of the
// third row). Pieces never leave the board; the exit is only the goal.
//
// note [blocks level text]
// Levels arrive at run time (the solver is generated for the rules) in this
// text form, one or more levels per file or stdin:
//
//   # comment lines and blank lines are skipped
//   level W H NAME          W H must equal kWidth kHeight; NAME is the rest
//   PIECE TYPE X Y          one line per piece: its name (a token, used in
//   ...                     move names), its type (a kTypeNames entry) and
//   end                     its anchor; pieces must fit and not overlap
//
// note [blocks move names]
// A move slides one piece; the names (and the JSON "moves" strings) are:
//   step / slide  a piece with an axis (Horizontal or Vertical): PIECE+N or
//                 PIECE-N, N cells, + = right (horizontal) or down
//                 (vertical): `A+2`, `K-1`. A piece of axis Any: PIECE then
//                 the direction letter L R U D then N: `bR1`, `AD2`.
//   path          PIECE@X,Y: the piece goes to anchor (X, Y) by any route
//                 through empty cells: `A@1,3`.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pz::blocks {

enum class Metric : uint8_t { Step, Slide, Path };
enum class Axis : uint8_t { Any, Horizontal, Vertical, Fixed };
enum class ExitSide : uint8_t { None, Left, Right, Top, Bottom };
enum class GoalKind : uint8_t { Full, Place, Exit };

constexpr uint64_t cellBit(int width, int x, int y) { return uint64_t(1) << (y * width + x); }

// The placements of a shape on a width x height board with walls: [a] = the
// cells covered with the anchor at cell a, 0 where the shape does not fit.
// `shape` is its bounding box's rows, top first, separated by '/', '#' (or
// any character but '.' and ' ') a cell: "##/##" the 2x2 block, "#/#" a
// vertical domino, "#./##" an L.
constexpr std::array<uint64_t, 64> placementsOf(int width, int height, uint64_t walls, std::string_view shape) {
    std::array<uint64_t, 64> out{};
    // Cells of the shape relative to the anchor.
    int dx[64] = {}, dy[64] = {}, n = 0, x = 0, y = 0;
    for (char c : shape) {
        if (c == '/') {
            ++y;
            x = 0;
            continue;
        }
        if (c != '.' && c != ' ') {
            if (n == 64) return out;
            dx[n] = x;
            dy[n] = y;
            ++n;
        }
        ++x;
    }
    for (int ay = 0; ay < height; ++ay)
        for (int ax = 0; ax < width; ++ax) {
            uint64_t m = 0;
            bool fits = n > 0;
            for (int i = 0; i < n && fits; ++i) {
                int cx = ax + dx[i], cy = ay + dy[i];
                if (cx >= width || cy >= height) {
                    fits = false;
                    break;
                }
                uint64_t b = cellBit(width, cx, cy);
                if (walls & b) fits = false;
                m |= b;
            }
            out[ay * width + ax] = fits ? m : 0;
        }
    return out;
}

// The traits' invariants (note [blocks traits]); true when they hold.
template <class T>
constexpr bool checkTraits() {
    constexpr int cells = T::kWidth * T::kHeight;
    static_assert(T::kWidth >= 1 && T::kHeight >= 1 && cells <= 64, "pz::blocks: the board must have 1..64 cells");
    static_assert(T::kTypes >= 1 && T::kTypes <= 64, "pz::blocks: 1..64 piece types");
    static_assert((T::kGoalKind == GoalKind::Exit) == (T::kExitType >= 0), "pz::blocks: kExitType is set exactly for Exit goals");
    static_assert(T::kGoalKind != GoalKind::Exit || T::kExitSide != ExitSide::None, "pz::blocks: an Exit goal needs an exit");
    static_assert(T::kExitSide == ExitSide::None ||
                      (T::kExitOffset >= 0 &&
                       T::kExitOffset < (T::kExitSide == ExitSide::Left || T::kExitSide == ExitSide::Right ? T::kHeight : T::kWidth)),
                  "pz::blocks: the exit's row or column is off the board");
    const uint64_t board = cells == 64 ? ~uint64_t(0) : (uint64_t(1) << cells) - 1;
    for (int t = 0; t < T::kTypes; ++t) {
        uint64_t shapeAt0 = 0;
        int shapeAnchor = -1;
        for (int a = 0; a < 64; ++a) {
            uint64_t m = T::kPlacement[t][a];
            if (m == 0) continue;
            if (a >= cells || (m & ~board) || (m & T::kWalls)) return false;
            // Every placement is the first one shifted (within its rows).
            if (shapeAnchor < 0) {
                shapeAnchor = a;
                shapeAt0 = m;
            } else if (a > shapeAnchor ? (shapeAt0 << (a - shapeAnchor)) != m : (shapeAt0 >> (shapeAnchor - a)) != m) {
                return false;
            }
            // The anchor is the top-left of the bounding box: the piece has
            // a cell in the anchor's row and one in the anchor's column.
            int ax = a % T::kWidth, ay = a / T::kWidth;
            bool row = false, col = false;
            for (int c = 0; c < cells; ++c)
                if (m >> c & 1) {
                    if (c / T::kWidth < ay || c % T::kWidth < ax) return false;
                    row |= c / T::kWidth == ay;
                    col |= c % T::kWidth == ax;
                }
            if (!row || !col) return false;
        }
        if (T::kGoalKind != GoalKind::Exit)
            for (int a = 0; a < 64; ++a)
                if ((T::kGoalAnchors[t] >> a & 1) && T::kPlacement[t][a] == 0) return false;
    }
    return true;
}

// Directions: 0 left, 1 right, 2 up, 3 down.
inline constexpr char kDirLetters[4] = {'L', 'R', 'U', 'D'};

constexpr bool axisAllows(Axis axis, int dir) {
    return axis == Axis::Any || (axis == Axis::Horizontal && dir < 2) || (axis == Axis::Vertical && dir >= 2);
}

// The board's geometry, derived from the traits once.
template <class T>
struct Geometry {
    static constexpr int kCells = T::kWidth * T::kHeight;
    // step[dir][a]: the anchor one cell away in dir, -1 off the board.
    std::array<std::array<int8_t, 64>, 4> step{};
    // Exit goal: anchors where a piece of kExitType stands at the exit.
    uint64_t exitAnchors = 0;
    constexpr Geometry() {
        for (int c = 0; c < 64; ++c) {
            int x = c % T::kWidth, y = c / T::kWidth;
            bool on = c < kCells;
            step[0][c] = int8_t(on && x > 0 ? c - 1 : -1);
            step[1][c] = int8_t(on && x + 1 < T::kWidth ? c + 1 : -1);
            step[2][c] = int8_t(on && y > 0 ? c - T::kWidth : -1);
            step[3][c] = int8_t(on && y + 1 < T::kHeight ? c + T::kWidth : -1);
        }
        if constexpr (T::kGoalKind == GoalKind::Exit) {
            uint64_t exitCell = 0;
            switch (T::kExitSide) {
                case ExitSide::Left: exitCell = cellBit(T::kWidth, 0, T::kExitOffset); break;
                case ExitSide::Right: exitCell = cellBit(T::kWidth, T::kWidth - 1, T::kExitOffset); break;
                case ExitSide::Top: exitCell = cellBit(T::kWidth, T::kExitOffset, 0); break;
                case ExitSide::Bottom: exitCell = cellBit(T::kWidth, T::kExitOffset, T::kHeight - 1); break;
                case ExitSide::None: break;
            }
            for (int a = 0; a < kCells; ++a)
                if (T::kPlacement[T::kExitType][a] & exitCell) exitAnchors |= uint64_t(1) << a;
        }
    }
};

template <class T>
inline constexpr Geometry<T> kGeometry{};

// A piece of a level: its name, type and anchor cell.
struct Piece {
    std::string name;
    int type = 0;
    int anchor = 0;
};

struct Level {
    std::string name;
    std::vector<Piece> pieces;  // in the level text's order
};

// One move of a solution: pieces[piece] (level order) goes to anchor `to`;
// step/slide also say the direction and the distance.
struct Move {
    int piece = 0;
    int dir = 0;   // 0 L, 1 R, 2 U, 3 D (step/slide)
    int dist = 0;  // cells (step/slide)
    int to = 0;    // the destination anchor
    bool operator==(const Move&) const = default;
};

// The cells all pieces and walls cover; throws on overlap.
template <class T>
uint64_t occupiedOf(const std::vector<Piece>& pieces) {
    uint64_t occ = T::kWalls;
    for (const auto& p : pieces) {
        uint64_t m = T::kPlacement[p.type][p.anchor];
        if (occ & m) throw std::runtime_error("piece " + p.name + " overlaps a wall or another piece");
        occ |= m;
    }
    return occ;
}

// Whether the pieces meet the goal.
template <class T>
bool isGoal(const std::vector<Piece>& pieces) {
    std::array<uint64_t, 64> anchors{};
    for (const auto& p : pieces) anchors[p.type] |= uint64_t(1) << p.anchor;
    if constexpr (T::kGoalKind == GoalKind::Exit) {
        return (anchors[T::kExitType] & kGeometry<T>.exitAnchors) != 0;
    } else {
        for (int t = 0; t < T::kTypes; ++t) {
            if constexpr (T::kGoalKind == GoalKind::Full) {
                if (anchors[t] != T::kGoalAnchors[t]) return false;
            } else if ((T::kGoalAnchors[t] & ~anchors[t]) != 0) {
                return false;
            }
        }
        return true;
    }
}

// The anchors a piece of type t at `from` reaches by one-cell steps along
// its axis through cells empty in `occ` (its own cells excluded from occ),
// `from` included.
template <class T>
uint64_t reachableAnchors(int type, int from, uint64_t occ) {
    const auto& g = kGeometry<T>;
    uint64_t seen = uint64_t(1) << from;
    int stack[64], n = 0;
    stack[n++] = from;
    while (n) {
        int a = stack[--n];
        for (int d = 0; d < 4; ++d) {
            if (!axisAllows(T::kAxis[type], d)) continue;
            int b = g.step[d][a];
            if (b < 0 || (seen >> b & 1)) continue;
            uint64_t m = T::kPlacement[type][b];
            if (m == 0 || (m & occ)) continue;
            seen |= uint64_t(1) << b;
            stack[n++] = b;
        }
    }
    return seen;
}

// The move's name (note [blocks move names]).
template <class T>
std::string moveName(const Level& level, const Move& m) {
    const Piece& p = level.pieces[m.piece];
    std::string s = p.name;
    if constexpr (T::kMetric == Metric::Path) {
        s += '@';
        s += std::to_string(m.to % T::kWidth);
        s += ',';
        s += std::to_string(m.to / T::kWidth);
    } else {
        if (T::kAxis[p.type] == Axis::Any)
            s += kDirLetters[m.dir];
        else
            s += (m.dir == 1 || m.dir == 3) ? '+' : '-';
        s += std::to_string(m.dist);
    }
    return s;
}

// Applies `moves` to the level's start, checking each against the rules
// (the piece exists; step: one cell; slide: every cell passed free and the
// direction on the piece's axis; path: the destination reachable), then
// that the end is a goal. Independent of the search's successor code. On
// failure returns false and says why in `why`.
template <class T>
bool replay(const Level& level, const std::vector<Move>& moves, std::string* why = nullptr) {
    auto fail = [&](std::string msg) {
        if (why) *why = std::move(msg);
        return false;
    };
    std::vector<Piece> pieces = level.pieces;
    uint64_t occ = 0;
    try {
        occ = occupiedOf<T>(pieces);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    const auto& g = kGeometry<T>;
    for (size_t i = 0; i < moves.size(); ++i) {
        const Move& m = moves[i];
        const std::string at = "move " + std::to_string(i + 1) + ": ";
        if (m.piece < 0 || m.piece >= (int)pieces.size()) return fail(at + "no such piece");
        Piece& p = pieces[m.piece];
        uint64_t own = T::kPlacement[p.type][p.anchor];
        uint64_t rest = occ & ~own;
        if constexpr (T::kMetric == Metric::Path) {
            if (m.to < 0 || m.to >= 64 || m.to == p.anchor) return fail(at + "not a move");
            if (!(reachableAnchors<T>(p.type, p.anchor, rest) >> m.to & 1)) return fail(at + "destination not reachable");
        } else {
            if (m.dir < 0 || m.dir > 3 || !axisAllows(T::kAxis[p.type], m.dir)) return fail(at + "direction off the piece's axis");
            if (m.dist < 1 || (T::kMetric == Metric::Step && m.dist != 1)) return fail(at + "bad distance");
            int a = p.anchor;
            for (int k = 0; k < m.dist; ++k) {
                a = g.step[m.dir][a];
                if (a < 0 || T::kPlacement[p.type][a] == 0 || (T::kPlacement[p.type][a] & rest))
                    return fail(at + "blocked");
            }
            if (a != m.to) return fail(at + "destination disagrees with direction and distance");
        }
        p.anchor = m.to;
        occ = rest | T::kPlacement[p.type][p.anchor];
    }
    if (!isGoal<T>(pieces)) return fail("the last position is not a goal");
    return true;
}

// Reads levels in the text form (note [blocks level text]); throws
// std::runtime_error with the line number on anything malformed.
template <class T>
std::vector<Level> parseLevels(std::istream& in) {
    std::vector<Level> levels;
    std::string line;
    int lineNo = 0;
    bool inLevel = false;
    auto fail = [&](const std::string& msg) { throw std::runtime_error("line " + std::to_string(lineNo) + ": " + msg); };
    auto finish = [&]() {
        Level& lv = levels.back();
        if (lv.pieces.empty()) fail("level " + lv.name + " has no pieces");
        if (lv.pieces.size() > 64) fail("level " + lv.name + " has more than 64 pieces");
        try {
            occupiedOf<T>(lv.pieces);
        } catch (const std::exception& e) {
            fail("level " + lv.name + ": " + e.what());
        }
        inLevel = false;
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream ls(line);
        std::string word;
        if (!(ls >> word) || word[0] == '#') continue;
        if (word == "level") {
            if (inLevel) fail("level without end");
            int w = 0, h = 0;
            if (!(ls >> w >> h)) fail("expected: level W H NAME");
            if (w != T::kWidth || h != T::kHeight)
                fail("board " + std::to_string(w) + "x" + std::to_string(h) + ", the solver's is " +
                     std::to_string(T::kWidth) + "x" + std::to_string(T::kHeight));
            std::string name;
            std::getline(ls >> std::ws, name);
            while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
            levels.push_back(Level{name.empty() ? std::to_string(levels.size() + 1) : name, {}});
            inLevel = true;
        } else if (word == "end") {
            if (!inLevel) fail("end without level");
            finish();
        } else {
            if (!inLevel) fail("piece line outside a level");
            std::string type;
            int x = -1, y = -1;
            if (!(ls >> type >> x >> y)) fail("expected: PIECE TYPE X Y");
            std::string extra;
            if (ls >> extra) fail("unexpected text after the piece's anchor");
            int t = -1;
            for (int i = 0; i < T::kTypes; ++i)
                if (type == std::string_view(T::kTypeNames[i])) t = i;
            if (t < 0) fail("unknown piece type " + type);
            if (x < 0 || y < 0 || x >= T::kWidth || y >= T::kHeight) fail("anchor outside the board");
            int a = y * T::kWidth + x;
            if (T::kPlacement[t][a] == 0) fail("piece " + word + " does not fit at " + std::to_string(x) + "," + std::to_string(y));
            for (const auto& p : levels.back().pieces)
                if (p.name == word) fail("two pieces named " + word);
            levels.back().pieces.push_back(Piece{word, t, a});
        }
    }
    if (inLevel) fail("level " + levels.back().name + " without end");
    return levels;
}

}  // namespace pz::blocks
