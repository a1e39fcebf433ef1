// Test (and bench/fifteen) fixtures for pz/blocks/tiles.hpp: traits as the
// code generator would emit them (note [tiles traits contract]), built here
// by constexpr functions instead of literal tables. Goal: blank top-left,
// tiles 1..N-1 in reading order (Korf's goal); the reflection is the one
// about the main diagonal (square boards only).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>

namespace tiles_fixtures {

template <int W, int H>
struct Grid {
    static constexpr int kWidth = W, kHeight = H, N = W * H;
    static constexpr std::array<uint8_t, N> kGoal = [] {
        std::array<uint8_t, N> g{};
        for (int c = 0; c < N; ++c) g[c] = static_cast<uint8_t>(c);
        return g;
    }();
    static constexpr std::array<std::array<int8_t, 4>, N> kNeighbours = [] {
        std::array<std::array<int8_t, 4>, N> n{};
        for (int c = 0; c < N; ++c) {
            const int r = c / W, col = c % W;
            n[c] = {static_cast<int8_t>(r > 0 ? c - W : -1), static_cast<int8_t>(r + 1 < H ? c + W : -1),
                    static_cast<int8_t>(col > 0 ? c - 1 : -1), static_cast<int8_t>(col + 1 < W ? c + 1 : -1)};
        }
        return n;
    }();
    static constexpr std::array<std::array<uint8_t, N>, N> kManhattan = [] {
        std::array<std::array<uint8_t, N>, N> m{};
        for (int t = 1; t < N; ++t)  // goal cell of tile t is t
            for (int c = 0; c < N; ++c) {
                const int dr = t / W - c / W, dc = t % W - c % W;
                m[t][c] = static_cast<uint8_t>((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc));
            }
        return m;
    }();
    static constexpr std::array<uint8_t, N> identity() {
        std::array<uint8_t, N> a{};
        for (int c = 0; c < N; ++c) a[c] = static_cast<uint8_t>(c);
        return a;
    }
    // (r, c) -> (c, r); with this goal the tile map is the same permutation.
    static constexpr std::array<uint8_t, N> diagonal() {
        std::array<uint8_t, N> a{};
        for (int c = 0; c < N; ++c) a[c] = static_cast<uint8_t>((c % W) * W + c / W);
        return a;
    }
    static constexpr std::array<int8_t, N> noPatterns() {
        std::array<int8_t, N> a{};
        for (auto& x : a) x = -1;
        return a;
    }
    // Patterns of consecutive tiles: ends {5, 10, 15} = 1-5, 6-10, 11-15;
    // tiles after the last end are in no pattern.
    static constexpr std::array<int8_t, N> consecutive(std::initializer_list<int> ends) {
        std::array<int8_t, N> a = noPatterns();
        int first = 1, p = 0;
        for (int e : ends) {
            for (int t = first; t <= e; ++t) a[t] = static_cast<int8_t>(p);
            first = e + 1, ++p;
        }
        return a;
    }
};

template <int W, int H, bool LC>
struct ManhattanOnly : Grid<W, H> {
    static constexpr const char* kName = "tiles-md";
    static constexpr const char* kTableKey = "tiles-md";
    static constexpr bool kLinearConflicts = LC, kReflection = false;
    static constexpr int kPatterns = 0;
    static constexpr auto kPatternOf = Grid<W, H>::noPatterns();
    static constexpr auto kReflectCell = Grid<W, H>::identity(), kReflectTile = Grid<W, H>::identity();
};

// 8-puzzle, 1-4 / 5-8, reflected.
struct EightPdb : Grid<3, 3> {
    static constexpr const char* kName = "eight-44r";
    static constexpr const char* kTableKey = "eight-44r";
    static constexpr bool kLinearConflicts = false, kReflection = true;
    static constexpr int kPatterns = 2;
    static constexpr auto kPatternOf = consecutive({4, 8});
    static constexpr auto kReflectCell = diagonal(), kReflectTile = diagonal();
};
// 8-puzzle, 1-3 / 4-6, tiles 7 and 8 by Manhattan + conflicts, reflected.
struct EightMixed : Grid<3, 3> {
    static constexpr const char* kName = "eight-33lc";
    static constexpr const char* kTableKey = "eight-33lc";
    static constexpr bool kLinearConflicts = true, kReflection = true;
    static constexpr int kPatterns = 2;
    static constexpr auto kPatternOf = consecutive({3, 6});
    static constexpr auto kReflectCell = diagonal(), kReflectTile = diagonal();
};
// 8-puzzle, 1-3 / 4-6, tiles 7 and 8 by Manhattan only, reflected: the
// reflected lookup's Manhattan part covers tiles outside the patterns.
struct EightPartial : Grid<3, 3> {
    static constexpr const char* kName = "eight-33r";
    static constexpr const char* kTableKey = "eight-33r";
    static constexpr bool kLinearConflicts = false, kReflection = true;
    static constexpr int kPatterns = 2;
    static constexpr auto kPatternOf = consecutive({3, 6});
    static constexpr auto kReflectCell = diagonal(), kReflectTile = diagonal();
};
// 3 rows of 4 (the 11-puzzle), 1-5 / 6-9, tiles 10 and 11 by Manhattan, not
// reflected (95,040 and 11,880 placements).
struct ElevenPdb : Grid<4, 3> {
    static constexpr const char* kName = "eleven-54";
    static constexpr const char* kTableKey = "eleven-54";
    static constexpr bool kLinearConflicts = false, kReflection = false;
    static constexpr int kPatterns = 2;
    static constexpr auto kPatternOf = consecutive({5, 9});
    static constexpr auto kReflectCell = identity(), kReflectTile = identity();
};
// 15-puzzle, 5-5-5, reflected (3 x 524,160 entries).
struct Fifteen555 : Grid<4, 4> {
    static constexpr const char* kName = "fifteen-555r";
    static constexpr const char* kTableKey = "fifteen-555r";
    static constexpr bool kLinearConflicts = false, kReflection = true;
    static constexpr int kPatterns = 3;
    static constexpr auto kPatternOf = consecutive({5, 10, 15});
    static constexpr auto kReflectCell = diagonal(), kReflectTile = diagonal();
};
// 15-puzzle, Korf & Felner's 7-8 (1-7, 8-15), reflected: 275 MiB of tables.
struct Fifteen78 : Grid<4, 4> {
    static constexpr const char* kName = "fifteen-78r";
    static constexpr const char* kTableKey = "fifteen-78r";
    static constexpr bool kLinearConflicts = false, kReflection = true;
    static constexpr int kPatterns = 2;
    static constexpr auto kPatternOf = consecutive({7, 15});
    static constexpr auto kReflectCell = diagonal(), kReflectTile = diagonal();
};
// 24-puzzle, eight patterns of 3 tiles (13,800 entries each; 22 free
// cells: the build's 64-bit words), reflected.
struct TwentyFour3 : Grid<5, 5> {
    static constexpr const char* kName = "twentyfour-3s";
    static constexpr const char* kTableKey = "twentyfour-3s";
    static constexpr bool kLinearConflicts = false, kReflection = true;
    static constexpr int kPatterns = 8;
    static constexpr auto kPatternOf = consecutive({3, 6, 9, 12, 15, 18, 21, 24});
    static constexpr auto kReflectCell = diagonal(), kReflectTile = diagonal();
};
// 15-puzzle, Manhattan only (the bench's comparison).
using FifteenMd = ManhattanOnly<4, 4, false>;

}  // namespace tiles_fixtures
