// Packed states and a compact hash set of them, for breadth-first searches
// over the interpreter's states (reference depth counts, oracle tests).
// A state packs each position's piece (or label) and orientation into the
// fewest bits that hold them, in consecutive 64-bit words.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/interp/interpreter.hpp"

namespace pz::interp {

class StatePacker {
public:
    // `maxPiece` = the largest piece value (index or label) a state holds.
    StatePacker(const Interpreter& interp, int maxPiece);
    int words() const { return words_; }
    void pack(const State& s, uint64_t* out) const;
    void unpack(const uint64_t* in, State& s) const;

private:
    struct Field { int position; int shift; int word; int bits; bool orientation; };
    std::vector<Field> fields_;
    int words_ = 1;
    int positions_ = 0;
};

// Open addressing over packed states of a fixed number of words.
class PackedStateSet {
public:
    explicit PackedStateSet(int words);
    // True if the state was not there before.
    bool insert(const uint64_t* key);
    bool contains(const uint64_t* key) const;
    size_t size() const { return size_; }

private:
    size_t slot(const uint64_t* key) const;
    void grow();
    int words_;
    size_t size_ = 0;
    std::vector<uint64_t> keys_;
    std::vector<uint8_t> used_;
};

// New states per depth from the start state under the given moves, depth
// 0..maxDepth (stops early when the whole space is found). States are compared
// by labels, so indistinguishable pieces collapse (see solvedLabels()).
std::vector<uint64_t> depthCounts(const Interpreter& interp, const std::vector<int>& moves, int maxDepth);

}  // namespace pz::interp
