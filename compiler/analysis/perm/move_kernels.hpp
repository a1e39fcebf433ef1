// Move kernels derived from permutations.
//
// A move sends the label at lane src[p] to lane p (new[p] = old[src[p]],
// note [element convention]). Grouping the lanes by shift distance
// 4*(p - src[p]) gives one shift-and-mask term per distance:
//     new = (old & M0) | (old << 4 & M1) | (old >> 12 & M2) | ...
// For a slide4 row move that is three terms, seven operations: fewer than
// the seed's hand-written two-mask XOR form (eight). Terms whose shifts
// differ by 64 are one rotation (a slide4 column move: rotl 16 under one
// mask, four operations). When the moving lanes are exactly one aligned
// 16-bit field rotated within itself (a slide4 row move), the named kernel
// is a field rotation instead: rotate the field down, a 16-bit rotate,
// rotate back (three one-cycle instructions on x86-64, pz::rotlField16).
// Orientation words get the same lane terms followed by a SWAR add modulo
// m of the move's orientation deltas.
//
// Orbits in byte or 16-bit lanes (over 16 positions) get a lane kernel
// instead: the source lane of every lane (padding lanes their own) and the
// orientation deltas, applied by one permute of each field and a lane-wise
// add modulo m (runtime/include/pz/lanes.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/analysis/perm/state_layout.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

struct ShiftTerm {
    int shift = 0;       // in bits; > 0 left, < 0 right
    uint64_t mask = 0;   // destination lanes
};

struct WordKernel {
    std::vector<ShiftTerm> terms;  // ordered by shift: 0 first, then ascending
    uint64_t add = 0;              // orientation deltas (orientation words)
    int modulus = 1;               // > 1 for orientation words
    // >= 0: the terms move exactly the 16-bit field at bits [fieldBit,
    // fieldBit + 16), rotated left within it by fieldRotate bits.
    int fieldBit = -1;
    int fieldRotate = 0;
    // The terms with equal rotation (shift mod 64) merged: rotation, mask.
    std::vector<std::pair<int, uint64_t>> rotations() const;
};

struct LaneKernel {
    int layoutOrbit = 0;     // index into StateLayout::orbits
    std::vector<int> src;    // per lane (with padding): new[p] = old[src[p]]
    std::vector<int> twist;  // per lane: orientation delta (0 when unoriented)
    bool oriented = false;
    bool twists() const;     // some delta is not 0
    bool moves() const;      // not the identity
};

struct MoveKernel {
    std::vector<WordKernel> words;  // one per state word (the words of lane orbits stay empty)
    std::vector<LaneKernel> lanes;  // one per orbit in byte or 16-bit lanes
    int operations() const;         // shifts + ands + ors + adds
};

// The kernel of an element (a move or a symmetry) under a layout.
MoveKernel deriveKernel(const ir::Element& e, const analysis::StateLayout& layout);

// The packed words of an element (perm lanes, orientation lanes).
std::vector<uint64_t> packElement(const ir::Element& e, const analysis::StateLayout& layout);

std::string hex64(uint64_t v);

}  // namespace pz::analysis
