// pz/coset_pattern.hpp — a pruning table over a subgroup's coset coordinate
// for the optimal search (note [coset patterns] in
// compiler/analysis/coset_coordinates.hpp).
//
// The pattern is a one-phase plan into the subgroup H with every search
// move: its table is built, stored and cached exactly like a phased
// solver's (pz/phased.hpp: move tables per part, symmetry classes, a
// threaded breadth-first search, a checksummed blob mapped from the cache),
// and read from the full state of the search: the parts are ranked from the
// state, the reduced ones mapped to their class and symmetry, the others
// conjugated, and the entry (4 bits, 15 = 15 or more) is the number of moves
// the state needs to reach H at least, a lower bound on its distance.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "pz/phased.hpp"

namespace pz {

struct CosetPatternSpec {
    std::string name;  // the declared pattern
    std::string hash;  // of the plan and the traits it runs on (cache key)
    PhaseSpec phase;   // into the subgroup, every search move
    // Traits symmetries S whose conjugates S^-1 x S the table is read at
    // (note [coset pattern lookups] in compiler/analysis/coset_coordinates.hpp:
    // one per coset of the symmetries keeping the subgroup); empty = {0},
    // the state itself.
    std::vector<int> lookups;
    // Per lookup S, the search moves (traits move indices) m with S^-1 m S in
    // the subgroup: skipped after a node whose inverse reads exactly the
    // moves left there (note [moves in the subgroup] in
    // compiler/analysis/coset_coordinates.hpp). Empty: none known.
    std::vector<std::vector<int>> movesInSubgroup;
};

template <class T>
class CosetPattern {
public:
    using State = typename T::State;

    explicit CosetPattern(CosetPatternSpec spec)
        : spec_(std::move(spec)), tables_(std::vector<PhaseSpec>{spec_.phase}, std::vector<int>{}) {
        tables_.setTableLabel(std::string("coset pattern table ") + T::kName + "/" + spec_.name);
        if (spec_.lookups.empty()) spec_.lookups = {0};
    }

    std::string fileName() const { return std::string(T::kName) + "-coset-" + spec_.name + "-" + spec_.hash + ".pzt"; }

    // Loads the table from `dir` (or builds and saves it there; "" = build only).
    void loadOrBuild(const std::string& dir, int threads) {
        // "-c1": the blob layout's version.
        tables_.loadOrBuild(dir.empty() ? "" : dir + "/" + fileName(), spec_.hash + "-c1", threads);
        if (!tables_.hasOneTable(0)) throw std::logic_error("coset pattern " + spec_.name + ": not one table");
    }
    bool makeResident(std::string& why) { return tables_.makeResident(why); }

    uint64_t index(const State& s) const { return tables_.stateTableIndex(0, s); }
    // The symmetries to read the table at, 0 (the state itself) first.
    const std::vector<int>& lookups() const { return spec_.lookups; }
    // Lookup l's moves in the subgroup as a mask over move indices 0..63.
    uint64_t movesInSubgroupMask(size_t l) const {
        uint64_t mask = 0;
        if (l < spec_.movesInSubgroup.size())
            for (int m : spec_.movesInSubgroup[l])
                if (m >= 0 && m < 64) mask |= uint64_t{1} << m;
        return mask;
    }
    // The conjugate S^-1 s S, S = traits symmetry `sym` (0: s itself).
    static State conjugated(const State& s, int sym) {
        if constexpr (requires { T::conjugate(s, sym); })
            if (sym != 0) return T::conjugate(s, sym);
        return s;
    }
    // The table index of that conjugate.
    uint64_t indexAt(const State& s, int sym) const { return index(conjugated(s, sym)); }
    // indexAt in stages (PhasedSearch::startIndex): many at once overlap
    // their cache misses.
    using Probe = typename PhasedSearch<T>::IndexProbe;
    void startAt(const State& s, int sym, Probe& p) const { tables_.startIndex(0, conjugated(s, sym), p); }
    void classify(Probe& p) const { tables_.classifyIndex(0, p); }
    uint64_t finish(const Probe& p) const { return tables_.finishIndex(0, p); }
    // The largest entry over every lookup of s.
    unsigned bound(const State& s) const {
        unsigned best = 0;
        for (int sym : spec_.lookups) best = std::max(best, get(indexAt(s, sym)));
        return best;
    }
    void prefetch(uint64_t i) const { tables_.prefetchTableEntry(0, i); }
    unsigned get(uint64_t i) const { return tables_.tableEntry(0, i); }

    // Raw coordinate values (the product of every part's size).
    uint64_t rawValues() const {
        uint64_t n = 1;
        for (const auto& part : spec_.phase.parts) n *= part.size;
        return n;
    }
    // The distribution of the entries over every raw coordinate value, each
    // looked up from a state with that coordinate (what the search does):
    // for tests against a breadth-first search of the coset space.
    std::array<uint64_t, 16> stateDepthCounts() const {
        const auto& parts = spec_.phase.parts;
        std::vector<int> all(parts.size());
        for (size_t j = 0; j < parts.size(); ++j) all[j] = static_cast<int>(j);
        std::vector<uint64_t> values(parts.size());
        std::array<uint64_t, 16> counts{};
        for (uint64_t x = 0, n = rawValues(); x < n; ++x) {
            uint64_t r = x;
            for (size_t j = parts.size(); j-- > 0;) {
                values[j] = r % parts[j].size;
                r /= parts[j].size;
            }
            ++counts[get(index(unrankParts<T>(parts, all, values.data())))];
        }
        return counts;
    }

    const std::string& name() const { return spec_.name; }
    const PhasedSearch<T>& tables() const { return tables_; }
    bool loadedFromCache() const { return tables_.loadedFromCache(); }
    double buildSeconds() const { return tables_.buildSeconds(); }

private:
    CosetPatternSpec spec_;
    PhasedSearch<T> tables_;
};

}  // namespace pz
