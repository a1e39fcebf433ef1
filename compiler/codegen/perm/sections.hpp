// Internal to the permutation emitters (compiler/codegen/perm/): the
// sections of the generated traits header, one file each, and the helpers
// they share. The public entry points are in compiler/codegen/perm/perm_emit.hpp.
//
// Every section writes into the caller's CodeWriter, in the order
// emitTraitsHeader (traits.cpp) calls them; placeholders set by one section
// are not read by another.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/codegen/code_writer.hpp"
#include "compiler/codegen/perm/perm_emit.hpp"

namespace pz::codegen::perm {

// ---- state.cpp: the state type, the orbits' layout, element tables ----
std::string stateLiteral(const std::vector<uint64_t>& w);
// "layout": State, one comment per orbit, kSolved.
void emitLayout(CodeWriter& w, const SolverModel& m);
// "element tables": the move inverses and the symmetry group as states.
void emitElementTables(CodeWriter& w, const SolverModel& m);

// ---- kernels.cpp: one function per search move, and the same as data ----
// The words of lane fields (their WordKernels are empty: a lane kernel moves them).
std::vector<bool> laneFieldWords(const analysis::StateLayout& layout);
// The expression of one word kernel applied to x (`pzc inspect` and kernels).
std::string wordKernelExpr(const std::string& x, const WordKernel& k);
// A lane kernel for `pzc inspect`: the cycles of the lanes and the deltas.
std::string describeLaneKernel(const LaneKernel& k, const analysis::OrbitLayout& l);
// The placeholders every lane-orbit statement uses (ARGS, PW, OW, M).
void setLaneOrbit(CodeWriter& w, const analysis::OrbitLayout& l);
// "move kernels": the lane tables, move_* functions, kMoveKernels, kMoveTerms.
void emitMoveKernels(CodeWriter& w, const SolverModel& m);
// Traits::applyMove (kMoveTerms dispatch on a move index) and applyNamedKernel.
void emitApplyMove(CodeWriter& w, const SolverModel& m);

// ---- group_ops.cpp: compose, inverse, composeMirrored ----
// Whether any orbit carries orientations (composeMirrored exists).
bool hasOrientations(const analysis::StateLayout& layout);
// "group operations".
void emitGroupOperations(CodeWriter& w, const SolverModel& m);
// Traits::conjugateOrbits<Orbits>(s, sym): S^-1 s S on the orbits of the
// mask only (a projected coset pattern's kept parts read only those).
void emitConjugateOrbits(CodeWriter& w, const analysis::StateLayout& layout);

// ---- coords.cpp: one struct per searched pattern ----
// "coordinates"; returns the pattern types, in order (Traits::Patterns).
std::vector<std::string> emitCoordinates(CodeWriter& w, const SolverModel& m);

// ---- canon.cpp: the canonical automaton as a table (inside Traits) ----
void emitCanonTable(CodeWriter& w, const SolverModel& m);

}  // namespace pz::codegen::perm
