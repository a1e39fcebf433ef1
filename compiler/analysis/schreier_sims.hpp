// Schreier–Sims on points: group order, membership and canonical coset
// representatives for permutation groups given by generators.
//
// note [points]
// An Element moves pieces between positions and twists them. To let plain
// permutation-group algorithms see orientation (and mirror symmetries), an
// Element acts on *points*: one point per (orbit, position, orientation).
// The point (o, q, r) is "a piece at position q of orbit o with orientation
// r"; the Element sends it to where that piece lands with its new
// orientation (see note [element convention] in compiler/ir/puzzle.hpp).
// Point permutations compose left to right like Elements: (a*b)[x] = b[a[x]].
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <random>
#include <vector>

#include "compiler/ir/puzzle.hpp"

namespace pz::analysis {

// A permutation of points: image[x] = the point x goes to.
using Perm = std::vector<int>;

Perm identityPerm(int pointCount);
// a then b.
Perm composePerm(const Perm& a, const Perm& b);
Perm inversePerm(const Perm& a);

// Translates Elements of one puzzle to point permutations and back.
// See note [points].
class PointAction {
public:
    explicit PointAction(const std::vector<ir::Orbit>& orbits);
    int pointCount() const { return pointCount_; }
    int point(int orbit, int position, int orientation) const {
        return offset_[orbit] + position * orbits_[orbit].orient + orientation;
    }
    Perm toPoints(const ir::Element& e) const;
    // The Element whose point permutation is p; p must be the image of some
    // non-mirror Element (e.g. a member of a chain built from toPoints).
    ir::Element toElement(const Perm& p) const;

private:
    std::vector<ir::Orbit> orbits_;
    std::vector<int> offset_;
    int pointCount_ = 0;
};

// A uniform integer in [0, n) from rng, the same on every platform
// (std::uniform_int_distribution is implementation-defined).
uint64_t uniformBelow(std::mt19937_64& rng, uint64_t n);

// A stabiliser chain with base 0, 1, ..., n-1 built incrementally (Knuth's
// formulation of Schreier–Sims, "Efficient representation of perm groups",
// 1991). Level k holds coset representatives sigma[k][j] of the pointwise
// stabiliser of 0..k-1 that send k to j.
class StabilizerChain {
public:
    explicit StabilizerChain(int pointCount);
    // Adds a generator; the chain then describes the group generated so far.
    void addGenerator(const Perm& p);
    bool contains(const Perm& p) const;
    mpz_class order() const;
    // The unique canonical element of the right coset G*x = {g then x : g in G}:
    // the one that sends the base points to the smallest images in turn.
    Perm canonicalCosetRepresentative(Perm x) const;
    int pointCount() const { return n_; }
    // Size of the orbit of base point k under the stabiliser of 0..k-1.
    int orbitSize(int level) const;
    // The generators the chain kept (a strong generating set of the group).
    std::vector<Perm> strongGenerators() const;
    // A uniformly distributed element of the group: one coset representative
    // chosen uniformly per level, multiplied together (every element has
    // exactly one such factorisation).
    Perm randomElement(std::mt19937_64& rng) const;

private:
    bool siftsFrom(int level, Perm p) const;
    void insert(int level, const Perm& p);     // Knuth's A
    void closeOrbit(int level, const Perm& p); // Knuth's B
    bool hasRep(int level, int j) const { return !sigma_[level][j].empty(); }

    int n_;
    std::vector<std::vector<Perm>> sigma_;     // [level][image]; empty = none
    std::vector<std::vector<Perm>> sigmaInv_;
    std::vector<std::vector<int>> orbit_;      // [level]: images with a representative
    std::vector<std::pair<int, Perm>> generators_;  // (level, generator)
};

}  // namespace pz::analysis
