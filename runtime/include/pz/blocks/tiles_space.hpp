// pz/blocks/tiles_space.hpp — an n-puzzle (tiles traits: note [tiles traits
// contract] in tiles.hpp) as a space the breadth-first enumeration of
// pz/enumerate/ walks (`pzc enumerate eight.pz --whole`): the puzzle traits
// (State, kMoves, applyMove, applyInverseMove, solved) and one pattern, the
// whole board ranked as a permutation of its cells (N! values, half of them
// reachable: the parity of a permutation and of the blank's distance).
//
// A move is the blank's step U D L R; off the board it leaves the state as
// it is (a step to itself, never a new state), so the four moves are
// defined everywhere and closed under inverse (U-D, L-R), as the backward
// levels of the enumeration need.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "pz/coord.hpp"

namespace pz::blocks {

template <class TT>
struct TilesSpace {
    static constexpr int kCells = TT::kWidth * TT::kHeight;
    struct State {
        std::array<uint8_t, kCells> cell;  // tile at each cell, 0 = the blank
        uint8_t blank;
    };
    static constexpr const char* kName = TT::kName;
    static constexpr int kMoves = 4;
    static constexpr bool kInverseLookups = true;

    static State solved() {
        State s{};
        for (int c = 0; c < kCells; ++c) {
            s.cell[c] = TT::kGoal[c];
            if (TT::kGoal[c] == 0) s.blank = static_cast<uint8_t>(c);
        }
        return s;
    }
    static State applyMove(const State& s, int m) {
        const int to = TT::kNeighbours[s.blank][m];
        if (to < 0) return s;
        State r = s;
        r.cell[r.blank] = r.cell[to];
        r.cell[to] = 0;
        r.blank = static_cast<uint8_t>(to);
        return r;
    }
    static State applyInverseMove(const State& s, int m) { return applyMove(s, m ^ 1); }  // U-D, L-R
    // The cells row by row, as `pzc solve --state` reads them.
    static std::string stateText(const State& s) {
        std::string t;
        for (int c = 0; c < kCells; ++c) t += (c ? " " : "") + std::to_string(s.cell[c]);
        return t;
    }
};

// The whole board: the Lehmer rank of the cells' tiles.
template <class TT>
struct TilesWhole {
    using Space = TilesSpace<TT>;
    using State = typename Space::State;
    static constexpr int kCells = Space::kCells;
    static constexpr const char* kName = "whole";
    static constexpr const char* kHash = TT::kTableKey;
    static_assert(kCells <= 20, "the whole board's N! values must fit 64 bits");
    static constexpr uint64_t kSize = factorial(kCells);

    static uint64_t rank(const State& s) {
        uint64_t r = 0;
        uint32_t used = 0;
        for (int c = 0; c < kCells; ++c) {
            const uint32_t t = s.cell[c];
            r = r * static_cast<uint64_t>(kCells - c) + static_cast<uint64_t>(std::popcount(~used & ((1u << t) - 1)));
            used |= 1u << t;
        }
        return r;
    }
    static State unrank(uint64_t r) {
        std::array<uint8_t, kCells> digit{};
        for (int c = kCells - 1; c >= 0; --c) {
            digit[c] = static_cast<uint8_t>(r % static_cast<uint64_t>(kCells - c));
            r /= static_cast<uint64_t>(kCells - c);
        }
        State s{};
        uint32_t used = 0;
        for (int c = 0; c < kCells; ++c) {
            int t = 0;
            for (int k = digit[c];; ++t)  // the digit-th unused tile
                if (!(used >> t & 1) && k-- == 0) break;
            used |= 1u << t;
            s.cell[c] = static_cast<uint8_t>(t);
            if (t == 0) s.blank = static_cast<uint8_t>(c);
        }
        return s;
    }
};

}  // namespace pz::blocks
