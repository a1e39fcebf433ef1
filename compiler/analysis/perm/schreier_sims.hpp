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
#include <memory>
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

// An element of a wreath product acting on *blocks* (note [blocks]): block b
// goes to img[b] and the point r inside it to r + tw[b] (mod the block's
// modulus). tw is empty when every modulus is 1.
struct BlockPerm {
    std::vector<int> img;
    std::vector<int> tw;
    bool operator==(const BlockPerm&) const = default;
};

// note [blocks]
// A chain is built over blocks of consecutive points: block b holds points
// offset[b] .. offset[b] + modulus[b] - 1, and every group element maps each
// block onto a block of the same modulus, cyclically (an Element does: a
// piece's orientations at one position go to its orientations at another,
// each shifted by the same twist). The chain's base is a list of blocks; the
// stabiliser of all base blocks is a group of pure twists, an abelian group
// kept as a lattice (the "kernel", KernelLattice in the .cpp). With n pieces
// of orientation m this costs n-point Schreier trees instead of n*m points.
// Plain permutations are blocks of modulus 1.
//
// note [randomised schreier-sims]
// The chain is built lazily on the first query after generators are added:
//  1. random phase: a pool of random elements of the group (product
//     replacement, seeded from random subproducts of all generators, fixed
//     seed) goes down the levels once, each level's labels taken from
//     products of the pool and the pool divided into the next stabiliser
//     (note [descending pool] in the .cpp); the kernel is closed under
//     conjugation; then random elements are sifted from the top, a residue
//     that does not sift becoming a strong generator, until a run of
//     elements all sift. The chain's order is then a lower bound of the
//     group's.
//  2. exactness, never probabilistic: either the order equals a proven
//     upper bound (note [order certificate] in the .cpp: Jordan's theorem
//     per orbit of blocks, sign and twist-sum characters), or the chain is
//     verified deterministically: every generator sifts, the kernel is
//     closed under conjugation by the strong generators, and every Schreier
//     generator of every level sifts through the levels below it (a residue
//     is added and the check restarts). Either way order() is exact.
// Transversals are Schreier trees (one label per orbit point), so memory is
// O(sum of basic orbit sizes), not one permutation per orbit point.
class StabilizerChain {
public:
    // pointCount blocks of modulus 1: plain permutations of points.
    explicit StabilizerChain(int pointCount);
    // Blocks of the given moduli, points numbered block by block (note [blocks]).
    explicit StabilizerChain(const std::vector<int>& moduli);
    ~StabilizerChain();
    StabilizerChain(const StabilizerChain&) = delete;
    StabilizerChain& operator=(const StabilizerChain&) = delete;

    // Adds a generator; the chain then describes the group generated so far.
    void addGenerator(const Perm& p);
    void addGenerator(const BlockPerm& p);
    bool contains(const Perm& p) const;
    bool contains(const BlockPerm& p) const;
    mpz_class order() const;
    // The unique canonical element of the right coset G*x = {g then x : g in G}:
    // the one that sends blocks 0, 1, ... to the smallest images in turn, with
    // the smallest twists modulo the kernel (for plain permutations: the
    // lexicographically smallest, and the identity for the group itself).
    Perm canonicalCosetRepresentative(const Perm& x) const;
    BlockPerm canonicalCosetRepresentative(const BlockPerm& x) const;
    int pointCount() const { return pointCount_; }
    int blockCount() const { return (int)moduli_.size(); }
    // The base is every block in order (level k: the stabiliser of blocks
    // 0..k-1); the number of levels with an orbit of more than one block.
    int baseLength() const;
    // Size of the orbit of block `level` under the stabiliser of blocks
    // 0..level-1.
    int orbitSize(int level) const;
    // For backtrack searches over the chain (note [colouring stabiliser] in
    // colouring_stabiliser.cpp): the blocks in the orbit of block `level`
    // under the stabiliser of blocks 0..level-1 ({level} when trivial), and
    // the transversal element of that stabiliser sending block `level` to
    // `image` (an orbit block; untwisted choice of the chain's Schreier tree).
    std::vector<int> basicOrbit(int level) const;
    BlockPerm transversalElement(int level, int image) const;
    Perm transversalPoints(int level, int image) const { return toPoints(transversalElement(level, image)); }
    // The generators the chain kept (a strong generating set of the group,
    // together with the kernel's pure twists).
    std::vector<Perm> strongGenerators() const;
    std::vector<BlockPerm> strongBlockGenerators() const;
    // A uniformly distributed element of the group: a uniform kernel element
    // then one coset representative chosen uniformly per level (every
    // element has exactly one such factorisation).
    Perm randomElement(std::mt19937_64& rng) const;
    BlockPerm randomBlockElement(std::mt19937_64& rng) const;

    BlockPerm toBlocks(const Perm& p) const;
    Perm toPoints(const BlockPerm& p) const;

    // A proven order of the group generated (e.g. from a coset count): the
    // chain is complete once its order (a lower bound) reaches it.
    void setKnownOrder(const mpz_class& order);

    // How the order was proven (for tests and benchmarks).
    enum class Proof { None, UpperBound, KnownOrder, Verified };
    Proof proof() const;
    // How many residues the random sifts from the top added after the
    // descending pool (note [descending pool]; for tests and benchmarks: 0
    // when the descent alone completed the chain).
    size_t residuesAfterDescent() const;

    struct Impl;

private:
    void build() const;
    std::vector<int> moduli_;
    std::vector<int> offset_;
    int pointCount_ = 0;
    std::vector<BlockPerm> generators_;
    mpz_class knownOrder_ = 0;  // 0: unknown
    mutable std::unique_ptr<Impl> impl_;  // null: not built for the current generators
};

}  // namespace pz::analysis
