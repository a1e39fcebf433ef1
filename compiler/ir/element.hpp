// Element algebra on the IR (see note [element convention] in puzzle.hpp):
// identity, product, inverse, power, order. Plain arrays; this is the
// reference semantics that generated kernels are tested against.
#pragma once

#include <gmpxx.h>

#include "compiler/ir/puzzle.hpp"

namespace pz::ir {

Element identity(const std::vector<Orbit>& orbits);
// a then b.
Element compose(const Element& a, const Element& b, const std::vector<Orbit>& orbits);
Element inverse(const Element& a, const std::vector<Orbit>& orbits);
// a^k for any integer k (negative = inverse powers).
Element power(const Element& a, long k, const std::vector<Orbit>& orbits);
// a^k for any k: reduced modulo the order of a first (exponents in
// definitions and scrambles may have any number of digits).
Element power(const Element& a, const mpz_class& k, const std::vector<Orbit>& orbits);
// The order of a from its cycles (exact; it may exceed any machine integer).
mpz_class exactOrder(const Element& a, const std::vector<Orbit>& orbits);
bool isIdentity(const Element& a);
// Smallest k > 0 with a^k = identity.
long order(const Element& a, const std::vector<Orbit>& orbits);

// note [ignored pieces] (lower.cpp): n pieces of m orientations read as n x m
// sticker slots, a piece at p with orientation o showing its sticker k at
// slot p*m + (k + o) mod m. The slot permutation of one orbit's (perm, ori),
// and back (sticker 0 of the piece now at p came from slot perm[p*m]).
std::vector<int> stickerSlots(const std::vector<int>& perm, const std::vector<int>& ori, int m);
void piecesOfStickerSlots(const std::vector<int>& slots, int m, std::vector<int>& perm, std::vector<int>& ori);

// The first of the puzzle's illegal placements that state e shows (a piece
// of that label at that position), or null when e is legal.
const IllegalPlacement* illegalPlacementIn(const Puzzle& puzzle, const Element& e);
// "orbit slice position 3 holds a piece labelled 17": for messages.
std::string illegalPlacementText(const Puzzle& puzzle, const IllegalPlacement& il);

}  // namespace pz::ir
