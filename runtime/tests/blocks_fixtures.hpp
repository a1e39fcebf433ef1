// Test and benchmark fixtures of the sliding-block engine (pz/blocks/):
// Rush Hour and Klotski traits written by hand the way the code generator
// will emit them (note [blocks traits] in pz/blocks/board.hpp), the tables
// built by placementsOf in constant expressions. Shapes are also kept as
// strings (kShapes, not part of the contract) for the tests' brute force.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>

#include "pz/blocks/board.hpp"

namespace pz::blocks::fixtures {

// Rush Hour, 6x6, exit right of row 2; a car moves any distance (slide).
// Walls: the board's (kWalls) and/or pieces of the Fixed type "x".
template <uint64_t Walls, Metric M = Metric::Slide>
struct RushTraits {
    static constexpr const char* kName = "rush";
    static constexpr int kWidth = 6, kHeight = 6;
    static constexpr uint64_t kWalls = Walls;
    static constexpr ExitSide kExitSide = ExitSide::Right;
    static constexpr int kExitOffset = 2;
    static constexpr Metric kMetric = M;
    static constexpr int kTypes = 6;
    static constexpr const char* kTypeNames[kTypes] = {"red", "h2", "h3", "v2", "v3", "x"};
    static constexpr const char* kShapes[kTypes] = {"##", "##", "###", "#/#", "#/#/#", "#"};
    static constexpr Axis kAxis[kTypes] = {Axis::Horizontal, Axis::Horizontal, Axis::Horizontal,
                                           Axis::Vertical,   Axis::Vertical,   Axis::Fixed};
    static constexpr std::array<std::array<uint64_t, 64>, kTypes> kPlacement = {
        placementsOf(6, 6, Walls, kShapes[0]), placementsOf(6, 6, Walls, kShapes[1]),
        placementsOf(6, 6, Walls, kShapes[2]), placementsOf(6, 6, Walls, kShapes[3]),
        placementsOf(6, 6, Walls, kShapes[4]), placementsOf(6, 6, Walls, kShapes[5])};
    static constexpr GoalKind kGoalKind = GoalKind::Exit;
    static constexpr uint64_t kGoalAnchors[kTypes] = {};
    static constexpr int kExitType = 0;
};

// A Rush Hour board string (row-major 6x6, 'o' or '.' empty, 'x' a wall,
// 'A' the red car) as a level; walls become "x" pieces unless
// `wallsInTraits` (then they are left out: the traits hold them).
inline Level rushLevel(const std::string& board, bool wallsInTraits = false) {
    if (board.size() != 36) throw std::invalid_argument("a Rush Hour board has 36 cells");
    Level level{board, {}};
    std::set<char> seen;
    int walls = 0;
    for (int c = 0; c < 36; ++c) {
        char ch = board[c];
        if (ch == 'o' || ch == '.') continue;
        if (ch == 'x') {
            if (!wallsInTraits) level.pieces.push_back(Piece{"x" + std::to_string(walls++), 5, c});
            continue;
        }
        if (seen.count(ch)) continue;
        seen.insert(ch);
        int len = (int)std::count(board.begin(), board.end(), ch);
        bool horizontal = c % 6 < 5 && board[c + 1] == ch;
        int type = ch == 'A' ? 0 : horizontal ? (len == 2 ? 1 : 2) : (len == 2 ? 3 : 4);
        level.pieces.push_back(Piece{std::string(1, ch), type, c});
    }
    return level;
}

constexpr uint64_t wallsOf(const char* board) {
    uint64_t m = 0;
    for (int c = 0; c < 36; ++c)
        if (board[c] == 'x') m |= uint64_t(1) << c;
    return m;
}

constexpr const char* kHardest = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM";

// Klotski, 4 wide x 5 high; A the 2x2, E the horizontal domino, V the
// vertical dominoes (identical), S the soldiers (identical); goal A at (1,3).
template <Metric M>
struct KlotskiTraits {
    static constexpr const char* kName = "klotski";
    static constexpr int kWidth = 4, kHeight = 5;
    static constexpr uint64_t kWalls = 0;
    static constexpr ExitSide kExitSide = ExitSide::None;
    static constexpr int kExitOffset = 0;
    static constexpr Metric kMetric = M;
    static constexpr int kTypes = 4;
    static constexpr const char* kTypeNames[kTypes] = {"A", "E", "V", "S"};
    static constexpr const char* kShapes[kTypes] = {"##/##", "##", "#/#", "#"};
    static constexpr Axis kAxis[kTypes] = {Axis::Any, Axis::Any, Axis::Any, Axis::Any};
    static constexpr std::array<std::array<uint64_t, 64>, kTypes> kPlacement = {
        placementsOf(4, 5, 0, kShapes[0]), placementsOf(4, 5, 0, kShapes[1]), placementsOf(4, 5, 0, kShapes[2]),
        placementsOf(4, 5, 0, kShapes[3])};
    static constexpr GoalKind kGoalKind = GoalKind::Place;
    static constexpr uint64_t kGoalAnchors[kTypes] = {cellBit(4, 1, 3), 0, 0, 0};
    static constexpr int kExitType = -1;
};

inline const char* const kKlotskiLevel =
    "# the classic start\n"
    "level 4 5 classic\n"
    "A A 1 0\n"
    "b V 0 0\n"
    "c V 3 0\n"
    "d V 0 2\n"
    "E E 1 2\n"
    "f V 3 2\n"
    "g S 1 3\n"
    "h S 2 3\n"
    "i S 0 4\n"
    "j S 3 4\n"
    "end\n";

}  // namespace pz::blocks::fixtures
