// pz/blocks/tiles.hpp — the runtime engine of the n-puzzle (sliding tiles:
// 8-, 15-, 24-puzzle and any W x H board up to 25 cells): states, moves,
// solvability, Manhattan distance with optional linear conflicts, additive
// disjoint pattern databases (pz/blocks/tiles_pdb.hpp) with an optional
// reflected lookup, and IDA*. The generated solver's main() is
// pz/blocks/tiles_main.hpp.
//
// note [tiles traits contract]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The code generator emits one struct per puzzle, every member a literal
// `static constexpr` (cells are numbered row by row from the top left,
// cell = row * kWidth + column; tiles 1..kCells-1, 0 = the blank):
//
//   struct Traits {
//     static constexpr const char* kName;       // "fifteen": messages, progress
//     static constexpr const char* kTableKey;   // cache file stem, [A-Za-z0-9_.-]+, e.g. "fifteen-78r";
//                                               // the file is <table-dir>/<kTableKey>-<layout hash>.pzt
//     static constexpr int kWidth, kHeight;     // 2..5 each, kWidth * kHeight <= 25
//     static constexpr std::array<uint8_t, kWidth * kHeight> kGoal;
//                                               // cell -> tile at the goal (a permutation of 0..kCells-1)
//     static constexpr std::array<std::array<int8_t, 4>, kWidth * kHeight> kNeighbours;
//                                               // [cell][d]: the cell the BLANK moves to in direction d
//                                               // (0 U = row - 1, 1 D = row + 1, 2 L = column - 1,
//                                               // 3 R = column + 1), -1 = off the board; must be the grid's
//     static constexpr std::array<std::array<uint8_t, kWidth * kHeight>, kWidth * kHeight> kManhattan;
//                                               // [tile][cell]: |dr| + |dc| of that cell from the tile's
//                                               // goal cell; row 0 (the blank) all 0
//     static constexpr bool kLinearConflicts;   // add 2 per linear conflict among tiles in no pattern
//     static constexpr int kPatterns;           // number of additive patterns, 0.. (0: Manhattan only)
//     static constexpr std::array<int8_t, kWidth * kHeight> kPatternOf;
//                                               // tile -> its pattern 0..kPatterns-1, or -1 (in none; the
//                                               // blank is always -1); patterns are disjoint by construction.
//                                               // A pattern's tiles are ranked in increasing tile order.
//     static constexpr bool kReflection;        // also look up the reflected state, take the max
//     static constexpr std::array<uint8_t, kWidth * kHeight> kReflectCell;  // cell -> reflected cell
//     static constexpr std::array<uint8_t, kWidth * kHeight> kReflectTile;  // tile -> reflected tile
//                                               // (identity maps when kReflection is false)
//   };
//
// Checked at compile time (checkTraits): goal a permutation, neighbours the
// grid's, Manhattan the grid distance, patterns in range, and a reflection
// that is a symmetry of the board fixing the goal: kReflectCell an
// automorphism of the neighbour graph and kGoal[kReflectCell[c]] ==
// kReflectTile[kGoal[c]], so a state and its reflection are equally far from
// the goal and max(h(s), h(reflect(s))) is admissible. The reflected state
// puts tile kReflectTile[t] at cell kReflectCell[c] when t is at c.
//
// Heuristic (note [tiles heuristic]): h(s) = sum over patterns of the
// pattern's database value at the rank of its tiles' cells + Manhattan
// distance of the tiles in no pattern (+ 2 per linear conflict among those
// tiles when kLinearConflicts). The tables store each value less the
// Manhattan sum of its pattern's tiles, halved (note [tiles pattern
// databases]), so h is computed as the Manhattan distance of every tile + 2 x
// the sum of the entries (+ conflicts): the same number. Each pattern table counts only the moves of its own tiles
// (Korf & Felner's disjoint additive databases), Manhattan and conflicts only
// moves of the other tiles, so the sum is admissible. With kReflection, h is
// the max of that sum at the state and at its reflection.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pz/support/prefetch.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace pz::blocks {

inline constexpr int kMaxTileCells = 25;
inline constexpr const char* kDirNames[4] = {"U", "D", "L", "R"};

// ---------------------------------------------------------------- layout ---

template <class T>
struct Board {
    static constexpr int W = T::kWidth, H = T::kHeight, N = W * H;
    static constexpr uint32_t kFull = N == 32 ? ~0u : (1u << N) - 1;

    // The goal cell of each tile.
    static constexpr std::array<uint8_t, N> goalCell = [] {
        std::array<uint8_t, N> g{};
        for (int c = 0; c < N; ++c) g[T::kGoal[c]] = static_cast<uint8_t>(c);
        return g;
    }();
    static constexpr int kBlankGoal = goalCell[0];

    // Pattern descriptions: tiles in increasing order; rsrc[j] = the tile of
    // the unreflected state whose reflection is tiles[j].
    struct Pattern {
        int size = 0;
        std::array<uint8_t, kMaxTileCells> tiles{};
        std::array<uint8_t, kMaxTileCells> rsrc{};
        uint64_t entries = 1;  // N! / (N - size)!
    };
    static constexpr int P = T::kPatterns;
    static constexpr std::array<Pattern, (P > 0 ? P : 1)> patterns = [] {
        std::array<Pattern, (P > 0 ? P : 1)> ps{};
        std::array<uint8_t, N> invTile{};
        for (int t = 0; t < N; ++t) invTile[T::kReflectTile[t]] = static_cast<uint8_t>(t);
        for (int p = 0; p < P; ++p) {
            Pattern& x = ps[p];
            for (int t = 1; t < N; ++t)
                if (T::kPatternOf[t] == p) {
                    x.rsrc[x.size] = invTile[t];
                    x.tiles[x.size++] = static_cast<uint8_t>(t);
                }
            for (int j = 0; j < x.size; ++j) x.entries *= static_cast<uint64_t>(N - j);
        }
        return ps;
    }();

    static constexpr bool checkTraits() {
        if (W < 2 || H < 2 || N > kMaxTileCells) return false;
        std::array<bool, N> seen{};
        for (int c = 0; c < N; ++c) {
            if (T::kGoal[c] >= N || seen[T::kGoal[c]]) return false;
            seen[T::kGoal[c]] = true;
        }
        for (int c = 0; c < N; ++c) {
            const int r = c / W, col = c % W;
            const int want[4] = {r > 0 ? c - W : -1, r + 1 < H ? c + W : -1, col > 0 ? c - 1 : -1,
                                 col + 1 < W ? c + 1 : -1};
            for (int d = 0; d < 4; ++d)
                if (T::kNeighbours[c][d] != want[d]) return false;
        }
        for (int t = 0; t < N; ++t)
            for (int c = 0; c < N; ++c) {
                const int g = goalCell[t];
                const int dist = (g / W > c / W ? g / W - c / W : c / W - g / W) + (g % W > c % W ? g % W - c % W : c % W - g % W);
                if (T::kManhattan[t][c] != (t == 0 ? 0 : dist)) return false;
            }
        if (P < 0 || T::kPatternOf[0] != -1) return false;
        for (int t = 1; t < N; ++t)
            if (T::kPatternOf[t] < -1 || T::kPatternOf[t] >= P) return false;
        for (int p = 0; p < P; ++p)
            if (patterns[p].size == 0 || patterns[p].size >= N - 1) return false;
        // The reflection: bijections, a graph automorphism, the goal fixed.
        std::array<bool, N> rc{}, rt{};
        for (int c = 0; c < N; ++c) {
            if (T::kReflectCell[c] >= N || rc[T::kReflectCell[c]] || T::kReflectTile[c] >= N || rt[T::kReflectTile[c]])
                return false;
            rc[T::kReflectCell[c]] = rt[T::kReflectTile[c]] = true;
        }
        for (int c = 0; c < N; ++c) {
            if (T::kGoal[T::kReflectCell[c]] != T::kReflectTile[T::kGoal[c]]) return false;
            for (int e = 0; e < N; ++e) {
                bool adj = false, radj = false;
                for (int d = 0; d < 4; ++d) adj |= T::kNeighbours[c][d] == e;
                for (int d = 0; d < 4; ++d) radj |= T::kNeighbours[T::kReflectCell[c]][d] == T::kReflectCell[e];
                if (adj != radj) return false;
            }
        }
        if (!T::kReflection)
            for (int c = 0; c < N; ++c)
                if (T::kReflectCell[c] != c || T::kReflectTile[c] != c) return false;
        // The table key names a file: [A-Za-z0-9_.-]+, not starting with '.'.
        const char* key = T::kTableKey;
        if (!key || !*key || *key == '.') return false;
        for (const char* k = key; *k; ++k)
            if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') || *k == '_' ||
                  *k == '.' || *k == '-'))
                return false;
        return true;
    }
    static_assert(checkTraits(), "tiles traits violate note [tiles traits contract] (pz/blocks/tiles.hpp)");

    // Partial-permutation rank of `size` distinct cells (mixed radix N, N-1, ...).
    static inline uint64_t rankCells(const uint8_t* cells, int size) {
        uint32_t used = 0;
        uint64_t idx = 0;
        for (int j = 0; j < size; ++j) {
            const unsigned c = cells[j];
            const unsigned digit = c - static_cast<unsigned>(std::popcount(used & ((1u << c) - 1)));
            idx = idx * static_cast<uint64_t>(N - j) + digit;
            used |= 1u << c;
        }
        return idx;
    }
    // The mixed-radix digits of a rank.
    static inline void digitsOf(uint64_t idx, int size, unsigned* digits) {
        for (int j = size - 1; j >= 0; --j) {
            const uint64_t radix = static_cast<uint64_t>(N - j);
            digits[j] = static_cast<unsigned>(idx % radix);
            idx /= radix;
        }
    }
    // The digit-th cell (from 0) not in `used`.
    static inline unsigned selectFree(uint32_t used, unsigned digit) {
        uint32_t freeCells = kFull & ~used;
#if defined(__BMI2__)
        return static_cast<unsigned>(std::countr_zero(_pdep_u32(1u << digit, freeCells)));
#else
        for (unsigned k = 0; k < digit; ++k) freeCells &= freeCells - 1;
        return static_cast<unsigned>(std::countr_zero(freeCells));
#endif
    }
    static inline void unrankCells(uint64_t idx, int size, uint8_t* cells) {
        unsigned digits[kMaxTileCells];
        digitsOf(idx, size, digits);
        uint32_t used = 0;
        for (int j = 0; j < size; ++j) {
            const unsigned c = selectFree(used, digits[j]);
            cells[j] = static_cast<uint8_t>(c);
            used |= 1u << c;
        }
    }
    // The rank of pattern p's tiles in the state with tile positions `pos`.
    static inline uint64_t patternIndex(int p, const uint8_t* pos) {
        const Pattern& x = patterns[p];
        uint8_t cells[kMaxTileCells];
        for (int j = 0; j < x.size; ++j) cells[j] = pos[x.tiles[j]];
        return rankCells(cells, x.size);
    }
    // The same in the reflected state.
    static inline uint64_t reflectedPatternIndex(int p, const uint8_t* pos) {
        const Pattern& x = patterns[p];
        uint8_t cells[kMaxTileCells];
        for (int j = 0; j < x.size; ++j) cells[j] = T::kReflectCell[pos[x.rsrc[j]]];
        return rankCells(cells, x.size);
    }
};

// ----------------------------------------------------------------- states ---

// A position as cells (cell -> tile), parsed and checked.
template <class T>
using Cells = std::array<uint8_t, T::kWidth * T::kHeight>;

template <class T>
Cells<T> goalCells() {
    Cells<T> c{};
    for (int i = 0; i < T::kWidth * T::kHeight; ++i) c[i] = T::kGoal[i];
    return c;
}

// Reachable from the goal: the permutation parity of the cells relative to
// the goal equals the parity of the blank's Manhattan distance from its goal
// cell (each move is one transposition and moves the blank one step).
template <class T>
bool solvable(const Cells<T>& cells) {
    using B = Board<T>;
    // perm[c] = goal cell of the piece at c; its parity by cycle counting.
    std::array<bool, B::N> seen{};
    int transpositions = 0, blank = 0;
    for (int c = 0; c < B::N; ++c) {
        if (cells[c] == 0) blank = c;
        if (seen[c]) continue;
        int len = 0;
        for (int x = c; !seen[x]; x = B::goalCell[cells[x]]) seen[x] = true, ++len;
        transpositions += len - 1;
    }
    const int g = B::kBlankGoal;
    const int dist = std::abs(g / B::W - blank / B::W) + std::abs(g % B::W - blank % B::W);
    return (transpositions & 1) == (dist & 1);
}

// Parses "cells row by row" (whitespace or commas between numbers); checks a
// permutation of 0..N-1 and solvability. On failure `why` says what is wrong.
template <class T>
bool parseCells(const std::string& text, Cells<T>& out, std::string& why) {
    constexpr int N = T::kWidth * T::kHeight;
    std::string t = text;
    for (char& ch : t)
        if (ch == ',' || ch == '/' || ch == ';') ch = ' ';
    std::istringstream in(t);
    std::vector<long> v;
    std::string tok;
    while (in >> tok) {
        char* end = nullptr;
        const long x = std::strtol(tok.c_str(), &end, 10);
        if (end == tok.c_str() || *end != '\0') return (why = "'" + tok + "' is not a number", false);
        v.push_back(x);
    }
    if (static_cast<int>(v.size()) != N)
        return (why = std::to_string(v.size()) + " numbers, expected " + std::to_string(N) + " (the " +
                      std::to_string(T::kHeight) + "x" + std::to_string(T::kWidth) + " cells row by row, 0 = blank)",
                false);
    std::array<bool, N> seen{};
    for (int c = 0; c < N; ++c) {
        if (v[c] < 0 || v[c] >= N) return (why = "tile " + std::to_string(v[c]) + " out of range 0.." + std::to_string(N - 1), false);
        if (seen[v[c]]) return (why = "tile " + std::to_string(v[c]) + " appears twice", false);
        seen[v[c]] = true;
        out[c] = static_cast<uint8_t>(v[c]);
    }
    if (!solvable<T>(out)) return (why = "unsolvable: the position has the wrong parity (it is not reachable from the goal)", false);
    return true;
}

template <class T>
std::string cellsText(const Cells<T>& c) {
    std::string s;
    for (size_t i = 0; i < c.size(); ++i) s += (i ? " " : "") + std::to_string(c[i]);
    return s;
}

// Moves the blank in direction d; false (nothing changed) when it would leave the board.
template <class T>
bool moveBlank(Cells<T>& c, int d) {
    int blank = 0;
    while (c[blank] != 0) ++blank;
    const int q = T::kNeighbours[blank][d];
    if (q < 0) return false;
    std::swap(c[blank], c[q]);
    return true;
}

// Parses "U L D R" (also "ULDR", lower case) into direction numbers.
inline bool parseDirections(const std::string& text, std::vector<int>& out, std::string& why) {
    for (char ch : text) {
        switch (ch) {
            case 'U': case 'u': out.push_back(0); break;
            case 'D': case 'd': out.push_back(1); break;
            case 'L': case 'l': out.push_back(2); break;
            case 'R': case 'r': out.push_back(3); break;
            case ' ': case ',': case '\t': break;
            default: return (why = std::string("'") + ch + "' is not a move (U D L R: the blank moves up, down, left, right)", false);
        }
    }
    return true;
}

// The position a scramble (blank directions from the goal) makes; false
// with `why` at the first illegal move.
template <class T>
bool scrambleCells(const std::string& text, Cells<T>& out, std::string& why) {
    std::vector<int> moves;
    if (!parseDirections(text, moves, why)) return false;
    out = goalCells<T>();
    for (size_t i = 0; i < moves.size(); ++i) {
        int blank = 0;
        while (out[blank] != 0) ++blank;
        if (!moveBlank<T>(out, moves[i])) {
            static const char* names[4] = {"up", "down", "left", "right"};
            why = "scramble move " + std::to_string(i + 1) + " (" + kDirNames[moves[i]] + ") is illegal: the blank at row " +
                  std::to_string(blank / T::kWidth + 1) + ", column " + std::to_string(blank % T::kWidth + 1) +
                  " cannot move " + names[moves[i]];
            return false;
        }
    }
    return true;
}

// A uniformly random solvable position: a random permutation, fixed up by
// swapping the first two tiles when its parity is wrong (a bijection between
// the unsolvable and the solvable permutations).
template <class T>
Cells<T> randomCells(std::mt19937_64& rng) {
    Cells<T> c = goalCells<T>();
    for (int i = static_cast<int>(c.size()) - 1; i > 0; --i) {
        std::uniform_int_distribution<int> pick(0, i);
        std::swap(c[i], c[pick(rng)]);
    }
    if (!solvable<T>(c)) {
        int a = 0;
        while (c[a] == 0) ++a;
        int b = a + 1;
        while (c[b] == 0) ++b;
        std::swap(c[a], c[b]);
    }
    return c;
}

// Replays `moves` (blank directions) from `start`: whether every move is
// legal and the goal is reached.
template <class T>
bool replaySolves(const Cells<T>& start, const std::vector<int>& moves) {
    Cells<T> c = start;
    for (int d : moves)
        if (d < 0 || d > 3 || !moveBlank<T>(c, d)) return false;
    return c == goalCells<T>();
}

}  // namespace pz::blocks

#include "pz/blocks/tiles_pdb.hpp"
#include "pz/blocks/tiles_search.hpp"
