// pz/coset_pattern.hpp — a pruning table over a subgroup's coset coordinate
// for the optimal search (note [coset patterns] in
// compiler/analysis/perm/coset_coordinates.hpp).
//
// The pattern is a one-phase plan into the subgroup H with every search
// move: its table is built, stored and cached exactly like a phased
// solver's (pz/search/phased.hpp: move tables per part, symmetry classes, a
// threaded breadth-first search, a checksummed blob mapped from the cache),
// and read from the full state of the search: the parts are ranked from the
// state, the reduced ones mapped to their class and symmetry, the others
// conjugated, and the entry (4 bits, 15 = 15 or more) is the number of moves
// the state needs to reach H at least, a lower bound on its distance.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pz/search/phased.hpp"
#include "pz/tables/projected_coset.hpp"

namespace pz {

struct CosetPatternSpec {
    std::string name;  // the declared pattern
    std::string hash;  // of the plan and the traits it runs on (cache key)
    PhaseSpec phase;   // into the subgroup, every search move
    // Traits symmetries S whose conjugates S^-1 x S the table is read at
    // (note [coset pattern lookups] in compiler/analysis/perm/coset_coordinates.hpp:
    // one per coset of the symmetries keeping the subgroup); empty = {0},
    // the state itself.
    std::vector<int> lookups;
    // Per lookup S, the search moves (traits move indices) m with S^-1 m S in
    // the subgroup: skipped after a node whose inverse reads exactly the
    // moves left there (note [moves in the subgroup] in
    // compiler/analysis/perm/coset_coordinates.hpp). Empty: none known.
    std::vector<std::vector<int>> movesInSubgroup;
    // A projected coset pattern (note [projected coset patterns]): the parts
    // its table keeps in place of phase.rest; empty = the whole coordinate.
    std::vector<PhasePartSpec> kept;
    // The traits' generated ranks of this pattern (note [fixed ranks] in
    // pz/search/phased.hpp): T::cosetRank(fixedRanks, ...); -1 = none.
    int fixedRanks = -1;
    // A projected table's declared least exact depth (note [declared exact
    // depth] in pz/tables/projected_coset.hpp); 0 = the build's default.
    int exactDepth = 0;
};

template <class T>
class CosetPattern {
public:
    using State = typename T::State;

    explicit CosetPattern(CosetPatternSpec spec)
        : spec_(std::move(spec)), tables_(std::vector<PhaseSpec>{spec_.phase}, std::vector<int>{}) {
        const std::string label = std::string("coset pattern table ") + T::kName + "/" + spec_.name;
        tables_.setTableLabel(label);
        if (!spec_.kept.empty())
            projected_ = std::make_unique<ProjectedCosetTable<T>>(spec_.phase, spec_.kept, label, spec_.fixedRanks,
                                                                  spec_.exactDepth);
        if (spec_.lookups.empty()) spec_.lookups = {0};
    }

    std::string fileName() const { return std::string(T::kName) + "-coset-" + spec_.name + "-" + spec_.hash + ".pzt"; }

    // Loads the table from `dir` (or builds and saves it there; "" = build only).
    void loadOrBuild(const std::string& dir, int threads) {
        const std::string path = dir.empty() ? "" : dir + "/" + fileName();
        // "-c1" / "-p4": the blob layouts' versions.
        if (projected_) return projected_->loadOrBuild(path, spec_.hash + "-p4", threads);
        tables_.loadOrBuild(path, spec_.hash + "-c1", threads);
        if (!tables_.hasOneTable(0)) throw std::logic_error("coset pattern " + spec_.name + ": not one table");
    }
    // A projected table built across ranks (note [projected tables across
    // ranks] in pz/tables/projected_coset.hpp): rank 0 writes it into `dir`
    // (its file name in `path`), replacing what is there.
    bool buildAcrossRanks(const std::string& dir, int threads, const ProjectedShare& share, std::string& path,
                          std::string& why) {
        if (!projected_) throw std::logic_error("coset pattern " + spec_.name + " is not projected");
        path = dir + "/" + fileName();
        return projected_->buildAcrossRanks(path, spec_.hash + "-p4", threads, share, why);
    }
    // note [entries from elsewhere] in pz/search/phased.hpp: the next build
    // takes its entries from `source` (a table stored by classes, not projected).
    void setEntrySource(typename PhasedSearch<T>::EntrySource source) { tables_.setEntrySource(std::move(source)); }
    bool makeResident(std::string& why) { return projected_ ? projected_->makeResident(why) : tables_.makeResident(why); }
    ResidentSource residentSource() const { return projected_ ? projected_->residentSource() : tables_.residentSource(); }
    bool adoptResident(HugeBuffer&& b, std::string& why) {
        return projected_ ? projected_->adoptResident(std::move(b), why) : tables_.adoptResident(std::move(b), why);
    }

    uint64_t index(const State& s) const { return projected_ ? projected_->index(s) : tables_.stateTableIndex(0, s); }
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
    // A projected table conjugates the state itself once its class is
    // known, so its probe carries the state.
    // floor: a lower bound known once the class is (note [class floors] in
    // pz/tables/projected_coset.hpp; 0 for other tables).
    // at: the state looked up, s itself (which must outlive the probe) when
    // sym is 0, else its conjugate held in `conjugate`: copying a state
    // that was just written costs a stalled store-to-load forward.
    struct Probe {
        typename PhasedSearch<T>::IndexProbe p;
        const State* at = nullptr;
        State conjugate;
        unsigned floor = 0;
    };
    void startAt(const State& s, int sym, Probe& p) const {
        if (projected_) {
            if (sym == 0) {
                p.at = &s;
            } else {
                p.conjugate = conjugated(s, sym);
                p.at = &p.conjugate;
            }
            p.p.raw = projected_->rawA(*p.at);
            projected_->prefetchClass(p.p.raw);
        } else {
            tables_.startIndex(0, conjugated(s, sym), p.p);
        }
    }
    void classify(Probe& p) const {
        if (projected_) {
            p.p.e = projected_->classEntry(p.p.raw);
            p.floor = projected_->classFloor(p.p.e);
        } else {
            tables_.classifyIndex(0, p.p);
        }
    }
    uint64_t finish(const Probe& p) const {
        return projected_ ? projected_->indexOfEntry(*p.at, p.p.e) : tables_.finishIndex(0, p.p);
    }
    // The largest entry over every lookup of s.
    unsigned bound(const State& s) const {
        unsigned best = 0;
        for (int sym : spec_.lookups) best = std::max(best, get(indexAt(s, sym)));
        return best;
    }
    void prefetch(uint64_t i) const {
        if (projected_) projected_->prefetch(i);
        else tables_.prefetchTableEntry(0, i);
    }
    unsigned get(uint64_t i) const { return projected_ ? projected_->get(i) : tables_.tableEntry(0, i); }
    // get(i) == r, reading no more than the answer needs.
    bool reads(uint64_t i, unsigned r) const { return projected_ ? projected_->reads(i, r) : tables_.tableEntry(0, i) == r; }
    // get(i) > limit, reading no more than the answer needs.
    bool exceeds(uint64_t i, unsigned limit) const {
        return projected_ ? projected_->exceeds(i, limit) : tables_.tableEntry(0, i) > limit;
    }
    // exceeds(i, limit) when the table line answers it (1 or 0); -1 when a
    // second read must (note [entries below the base]), then prefetched.
    int exceedsOrDefer(uint64_t i, unsigned limit) const {
        return projected_ ? projected_->exceedsOrDefer(i, limit) : tables_.tableEntry(0, i) > limit;
    }

    // Raw coordinate values (the product of every part's size; of a
    // projected table, the reduced parts' and the kept ones').
    uint64_t rawValues() const {
        if (projected_) return projected_->rawValues();
        uint64_t n = 1;
        for (const auto& part : spec_.phase.parts) n *= part.size;
        return n;
    }
    // What --tables prints: classes (0: not reduced), entries, bytes, depths.
    struct Summary {
        uint64_t classes = 0, entries = 0, bytes = 0;
        std::array<uint64_t, 16> counts{};
        int exactDepth = -1;  // projected: entries above it read as exactDepth + 1; -1: all exact
        int base = -1;        // projected: 2-bit entries over this base (note [two-bit tables]); -1: 4-bit
    };
    Summary summary() const {
        Summary s;
        if (projected_) {
            s.classes = projected_->classes();
            s.entries = projected_->entries();
            s.bytes = projected_->tableBytes();
            s.counts = projected_->depthCounts();
            if (!projected_->complete()) s.exactDepth = static_cast<int>(projected_->exactDepth());
            s.base = static_cast<int>(projected_->base());
        } else if (tables_.hasSymTable(0)) {
            s.classes = tables_.symClasses(0);
            s.entries = tables_.symEntries(0);
            s.bytes = tables_.tableBytes();
            s.counts = tables_.symDepthCounts(0);
        } else {
            s.bytes = tables_.tableBytes();
            s.counts = tables_.depthCounts(0, 0);
            for (uint64_t c : s.counts) s.entries += c;
        }
        return s;
    }
    const ProjectedCosetTable<T>* projected() const { return projected_.get(); }
    // The distribution of the entries over every raw coordinate value, each
    // looked up from a state with that coordinate (what the search does):
    // for tests against a breadth-first search of the coset space. Not for a
    // projected table: its kept parts are read after the conjugation, so a
    // raw value's entry depends on the orientations it does not keep.
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
    bool loadedFromCache() const { return projected_ ? projected_->loadedFromCache() : tables_.loadedFromCache(); }
    double buildSeconds() const { return projected_ ? projected_->buildSeconds() : tables_.buildSeconds(); }

private:
    CosetPatternSpec spec_;
    PhasedSearch<T> tables_;
    std::unique_ptr<ProjectedCosetTable<T>> projected_;
};

}  // namespace pz
