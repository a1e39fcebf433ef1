// pz/enumerate/coset_space.hpp — a subgroup's coset space as the
// breadth-first enumeration sees it (pzc enumerate --coset H;
// docs/distributed.md).
//
// note [coset spaces]
// A coset of H is a value of H's coset coordinate: the mixed-radix number of
// its parts (first part most significant), the coordinate a phased solver
// and a coset pattern use (note [coset coordinates] in
// compiler/analysis/perm/coset_coordinates.hpp). Each part's value after a
// move depends on that part's value only, so a move acts on cosets through
// one table per part (value x move -> value), built at start-up from the
// puzzle's traits as the phased tables are (unrank the value into a state,
// apply the move, rank). The enumeration then walks part values, never
// whole states: CosetMoves<T> stands for the traits (a state is the parts'
// values) and CosetCoordinate<T> for the pattern (rank and unrank are the
// mixed radix). A coset's distance is the fewest moves that bring a state of
// it into H, what a coset pattern's table holds before symmetry reduction.
//
// The tables are static (the enumeration's templates read T and P by type):
// describe() sizes the space and build() fills the tables, once, before the
// search's threads start.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pz/coset_pattern.hpp"
#include "pz/search/phased.hpp"
#include "pz/state_text.hpp"

namespace pz::enumerate {

// A state whose coordinate parts (every one of `parts`) have `values`, in
// the puzzle's text (what pzc solve --state reads): --farthest of a coset space.
template <class T>
std::string partsStateText(const std::vector<PhasePartSpec>& parts, const std::vector<uint64_t>& values) {
    std::vector<int> all(parts.size());
    for (size_t j = 0; j < all.size(); ++j) all[j] = static_cast<int>(j);
    const typename T::State rep = unrankParts<T>(parts, all, values.data());
    if constexpr (requires { T::stateText(rep); }) {
        return T::stateText(rep);
    } else {
        std::string out;
        for (long n : stateNumbers<T>(rep)) out += (out.empty() ? "" : " ") + std::to_string(n);
        return out;
    }
}

template <class T>
struct CosetTables {
    static inline std::vector<PhasePartSpec> parts;
    // Per part: [value * T::kMoves + m] -> the value after move m, and after
    // its inverse.
    static inline std::vector<std::vector<uint32_t>> forward, backward;
    static inline uint64_t size = 0;
    static inline std::string name, hash;

    // Takes a coset pattern's plan: every traits move, in order (a
    // pattern's phase has every search move). Throws what it cannot take.
    static void describe(const CosetPatternSpec& pattern) {
        const PhaseSpec& spec = pattern.phase;
        if (spec.parts.empty() || spec.parts.size() > static_cast<size_t>(kMaxPhaseParts))
            throw std::logic_error("coset space " + pattern.name + ": " + std::to_string(spec.parts.size()) + " parts");
        if (spec.moves.size() != static_cast<size_t>(T::kMoves))
            throw std::logic_error("coset space " + pattern.name + ": its moves are not the traits' moves");
        for (size_t i = 0; i < spec.moves.size(); ++i)
            if (spec.moves[i] != static_cast<int>(i))
                throw std::logic_error("coset space " + pattern.name + ": its moves are not the traits' moves in order");
        parts = spec.parts;
        name = pattern.name;
        hash = pattern.hash;
        size = 1;
        for (const auto& part : parts) {
            if (part.size >= (uint64_t{1} << 32) || size > UINT64_MAX / part.size)
                throw std::logic_error("coset space " + pattern.name + ": its values do not fit 64 bits");
            size *= part.size;
        }
    }
    // The move tables' bytes (checked against the memory budget first).
    static uint64_t tableBytes() {
        uint64_t bytes = 0;
        for (const auto& part : parts) bytes += part.size * T::kMoves * 2 * sizeof(uint32_t);
        return bytes;
    }
    // Fills the move tables.
    static void build() {
        forward.assign(parts.size(), {});
        backward.assign(parts.size(), {});
        for (size_t j = 0; j < parts.size(); ++j) {
            const auto& part = parts[j];
            forward[j].resize(part.size * T::kMoves);
            backward[j].resize(part.size * T::kMoves);
            for (uint64_t v = 0; v < part.size; ++v) {
                const typename T::State s = unrankPart<T>(part, v);
                for (int m = 0; m < T::kMoves; ++m) {
                    forward[j][v * T::kMoves + m] = static_cast<uint32_t>(rankPart<T>(part, T::applyMove(s, m)));
                    backward[j][v * T::kMoves + m] = static_cast<uint32_t>(rankPart<T>(part, T::applyInverseMove(s, m)));
                }
            }
        }
    }
};

// The traits the enumeration runs on: a state is the parts' values.
template <class T>
struct CosetMoves {
    struct State {
        std::array<uint32_t, kMaxPhaseParts> v{};
    };
    static constexpr int kMoves = T::kMoves;
    static constexpr bool kInverseLookups = T::kInverseLookups;
    static constexpr const char* kName = T::kName;

    static State solved() {
        State s;
        for (size_t j = 0; j < CosetTables<T>::parts.size(); ++j) s.v[j] = static_cast<uint32_t>(CosetTables<T>::parts[j].goal);
        return s;
    }
    static State applyMove(const State& s, int m) { return through(CosetTables<T>::forward, s, m); }
    static State applyInverseMove(const State& s, int m) { return through(CosetTables<T>::backward, s, m); }

    // A state of the coset, in the puzzle's text (what pzc solve --state reads).
    static std::string stateText(const State& s) {
        const auto& parts = CosetTables<T>::parts;
        return partsStateText<T>(parts, std::vector<uint64_t>(s.v.begin(), s.v.begin() + parts.size()));
    }

private:
    static State through(const std::vector<std::vector<uint32_t>>& tables, const State& s, int m) {
        State t;
        for (size_t j = 0; j < tables.size(); ++j) t.v[j] = tables[j][static_cast<uint64_t>(s.v[j]) * kMoves + m];
        return t;
    }
};

// The pattern the enumeration runs on: the coset coordinate's mixed radix.
template <class T>
struct CosetCoordinate {
    using State = typename CosetMoves<T>::State;
    static inline uint64_t kSize = 0;
    static inline const char* kName = "";
    static inline const char* kHash = "";

    static void describe(const CosetPatternSpec& pattern) {
        CosetTables<T>::describe(pattern);
        kSize = CosetTables<T>::size;
        kName = CosetTables<T>::name.c_str();
        kHash = CosetTables<T>::hash.c_str();
    }
    // What the enumeration holds beside its slice, and builds once the
    // budget allows it (enumerateWith).
    static uint64_t extraBytes() { return CosetTables<T>::tableBytes(); }
    static void build() { CosetTables<T>::build(); }
    static uint64_t rank(const State& s) {
        const auto& parts = CosetTables<T>::parts;
        uint64_t r = 0;
        for (size_t j = 0; j < parts.size(); ++j) r = r * parts[j].size + s.v[j];
        return r;
    }
    static State unrank(uint64_t r) {
        const auto& parts = CosetTables<T>::parts;
        State s;
        for (size_t j = parts.size(); j-- > 0;) {
            s.v[j] = static_cast<uint32_t>(r % parts[j].size);
            r /= parts[j].size;
        }
        return s;
    }
};

}  // namespace pz::enumerate
