// pz/tables/sym_classes.hpp — symmetry classes of a coordinate and the 4-bit word
// helpers a breadth-first search over them uses.
//
// Extracted from phased.hpp (note [symmetry classes] there describes how the
// phased solvers use them) so that other symmetry-reduced tables can share
// the same class index: raw values of the reduced coordinate are split into
// classes under a list of conjugations; each raw value maps to its class and
// to the symmetry that takes it to the class's representative.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pz/support/atomic_ref.hpp"

namespace pz {

// The class index of a coordinate with raw values 0..raw-1 under nS
// symmetries (nS <= 64):
//   * classOf[a] = (class << 6) | k with conj_k(a) = the class's
//     representative (the smallest raw value of the class);
//   * reps[class] = the representative's raw value;
//   * stab[class] = mask of the symmetries that fix the representative.
struct SymClasses {
    std::vector<uint32_t> classOf;
    std::vector<uint32_t> reps;
    std::vector<uint64_t> stab;
    uint64_t classes() const { return reps.size(); }
};

// Computes the class index. stateOf(a) is a state whose coordinate is a,
// rankOf(state) the coordinate of a state, conj(state, s) the state
// conjugated by symmetry s (0..nS-1), symInverse[s] the index of the inverse
// symmetry. `what` prefixes the error messages (a representative that does
// not rank back, symmetries that do not act on the coordinate).
template <class StateOf, class RankOf, class Conj>
SymClasses computeSymClasses(uint64_t raw, int nS, const std::vector<int>& symInverse, StateOf&& stateOf,
                             RankOf&& rankOf, Conj&& conj, const std::string& what) {
    if (nS > 64 || symInverse.size() != static_cast<size_t>(nS))
        throw std::logic_error(what + ": bad symmetry list");
    SymClasses out;
    out.classOf.assign(raw, UINT32_MAX);
    for (uint64_t a = 0; a < raw; ++a) {
        if (out.classOf[a] != UINT32_MAX) continue;
        const uint32_t cls = static_cast<uint32_t>(out.reps.size());
        out.reps.push_back(static_cast<uint32_t>(a));
        uint64_t mask = 0;
        const auto x = stateOf(a);
        if (static_cast<uint64_t>(rankOf(x)) != a)
            throw std::logic_error(what + ": a representative does not rank back to its value");
        for (int s = 0; s < nS; ++s) {
            const uint64_t image = rankOf(conj(x, s));
            if (image == a) mask |= uint64_t{1} << s;
            const uint32_t want = cls << 6 | static_cast<uint32_t>(symInverse[s]);
            if (out.classOf[image] == UINT32_MAX) out.classOf[image] = want;
            else if (out.classOf[image] >> 6 != cls)
                throw std::logic_error(what + ": the symmetries do not act on the reduced parts");
        }
        out.stab.push_back(mask);
    }
    return out;
}

// The conjugation table of a coordinate with `size` values:
// t[v * nS + s] = the coordinate of conj_s(a state with coordinate v).
template <class StateOf, class RankOf, class Conj>
std::vector<uint32_t> conjugationTable(uint64_t size, int nS, StateOf&& stateOf, RankOf&& rankOf, Conj&& conj) {
    std::vector<uint32_t> t(size * nS);
    for (uint64_t v = 0; v < size; ++v) {
        const auto x = stateOf(v);
        for (int s = 0; s < nS; ++s) t[v * nS + s] = static_cast<uint32_t>(rankOf(conj(x, s)));
    }
    return t;
}

// 4-bit entries, 16 per word, 15 = not reached yet, shared between the
// threads of a breadth-first search.
// Sets entry i to d if it still holds 15; true when this call set it.
inline bool nibbleClaim(std::vector<uint64_t>& words, uint64_t i, unsigned d) {
    pz::AtomicRef<uint64_t> w(words[i >> 4]);
    const unsigned shift = (i & 15) * 4;
    const uint64_t before = w.fetch_and(~(static_cast<uint64_t>(0xF ^ d) << shift), std::memory_order_relaxed);
    return (before >> shift & 15) == 15;
}
inline unsigned nibbleGet(std::vector<uint64_t>& words, uint64_t i) {
    return static_cast<unsigned>(pz::AtomicRef<uint64_t>(words[i >> 4]).load(std::memory_order_relaxed) >>
                                     ((i & 15) * 4) &
                                 15);
}

}  // namespace pz
