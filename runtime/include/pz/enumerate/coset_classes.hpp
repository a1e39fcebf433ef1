// pz/enumerate/coset_classes.hpp — a coset pattern's table built by the
// breadth-first enumeration, on one process or across MPI ranks (pzc
// enumerate --pattern P --table, P a coset pattern; docs/distributed.md).
//
// note [coset class spaces]
// A coset pattern's table is stored by symmetry class (note [symmetry
// classes] in pz/search/phased.hpp): entry (c, b) is the coset whose reduced
// parts are class c's representative and whose other parts are b. The
// enumeration walks those entries as its values: a move takes the
// representative's reduced parts through their move tables to a class and a
// symmetry, and the other parts through theirs and that symmetry's
// conjugation, exactly the neighbours the single-process build visits.
// An entry's neighbour is the entry of a conjugate of the coset's
// neighbour, which, when the representative has self-symmetries, may be an
// image (c, conj_t(b)) of the entry a search over cosets would name: so, as
// the single-process build does, a child is claimed together with its
// images under its class's self-symmetries (images(); the enumeration's
// forward levels expand each child into them), and the solved coset's
// entries are all starts (starts()). Every entry then holds its coset's
// distance, the backward levels (each unseen entry looks for a neighbour in
// the level) find them too, and the 4-bit entries are the single-process
// build's. Rank 0 hands them to that build (note [entries from
// elsewhere]), which writes the rest of the table file as always: the same
// file, byte for byte.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "pz/coset_pattern.hpp"
#include "pz/enumerate/coset_space.hpp"
#include "pz/search/phased.hpp"
#include "pz/support/memory.hpp"

namespace pz::enumerate {

template <class T>
struct CosetClassTables {
    static inline CosetPatternSpec pattern;
    static inline std::vector<std::vector<uint32_t>> moveTable;  // per part
    static inline typename PhasedSearch<T>::SymSpace space;
    // space.conjB in 16 bits when every rest part has at most 2^16 values
    // (cube3's h48: 6.6 -> 3.3 MiB), space.conjB then freed: it is the
    // expansion's most-missed table (a child's b conjugated), and each rank
    // on a machine holds its own copy in the shared cache (a 2-rank h48
    // build spent a fifth of its time on that one load).
    static inline std::vector<std::vector<uint16_t>> conjB16;
    static inline uint64_t size = 0;

    // Takes a plain coset pattern (every traits move, in order) and computes
    // its classes and tables. Throws what it cannot take.
    static void describe(const CosetPatternSpec& p) {
        const PhaseSpec& spec = p.phase;
        if (!p.kept.empty()) throw std::logic_error("coset pattern " + p.name + " is projected");
        if (spec.symmetries.empty()) throw std::logic_error("coset pattern " + p.name + " has no symmetry classes");
        if (spec.moves.size() != static_cast<size_t>(T::kMoves))
            throw std::logic_error("coset pattern " + p.name + ": its moves are not the traits' moves");
        for (int m = 0; m < T::kMoves; ++m)
            if (spec.moves[m] != m || T::kMoveInverse[m] < 0)
                throw std::logic_error("coset pattern " + p.name + ": its moves are not the traits' moves, closed under inverse");
        pattern = p;
        PhasedSearch<T> search({spec}, {});
        moveTable = search.moveTables(0);
        space = search.symSpace(0);
        if (space.bSize != 0 && space.classes.classes() > UINT64_MAX / space.bSize)
            throw std::logic_error("coset pattern " + p.name + ": its entries do not fit 64 bits");
        size = space.classes.classes() * space.bSize;
        conjB16.clear();
        bool narrow = true;
        for (int j : spec.rest) narrow = narrow && spec.parts[j].size <= (uint64_t{1} << 16);
        if (narrow) {
            for (const auto& t : space.conjB) conjB16.emplace_back(t.begin(), t.end());
            space.conjB.clear();
        }
    }
    static uint64_t tableBytes() {
        uint64_t bytes = space.classes.classOf.size() * 4 + space.classes.reps.size() * 4 + space.classes.stab.size() * 8;
        for (const auto& t : space.conjB) bytes += t.size() * 4;
        for (const auto& t : conjB16) bytes += t.size() * 2;
        for (const auto& t : moveTable) bytes += t.size() * 4;
        return bytes;
    }
    static void split(const std::vector<int>& parts, uint64_t x, uint64_t* values) {
        for (size_t i = parts.size(); i-- > 0;) {
            const uint64_t n = pattern.phase.parts[parts[i]].size;
            values[i] = x % n;
            x /= n;
        }
    }
    // The rest parts b conjugated by symmetry index s.
    static uint64_t conjugateRest(const uint64_t* bv, int s) {
        const PhaseSpec& spec = pattern.phase;
        const uint64_t nS = spec.symmetries.size();
        uint64_t b = 0;
        for (size_t q = 0; q < spec.rest.size(); ++q) {
            const uint64_t at = bv[q] * nS + static_cast<uint64_t>(s);
            b = b * spec.parts[spec.rest[q]].size + (conjB16.empty() ? space.conjB[q][at] : conjB16[q][at]);
        }
        return b;
    }
};

// The traits the enumeration runs on: a state is an entry (class, b). The
// entries the search expands (unrank, solved) carry their parts' values, so
// its 18-odd moves do not each divide them out again; children carry only
// (class, b), all ranking needs.
template <class T>
struct CosetClassMoves {
    struct State {
        uint64_t cls = 0, b = 0;
        bool split = false;  // av, bv hold the representative's and b's part values
        uint32_t av[kMaxPhaseParts], bv[kMaxPhaseParts];
    };
    using Tables = CosetClassTables<T>;
    static constexpr int kMoves = T::kMoves;
    static constexpr bool kInverseLookups = true;  // describe() checked the inverses
    static constexpr const char* kName = T::kName;

    // x with its part values.
    static State withParts(uint64_t cls, uint64_t b) {
        const PhaseSpec& spec = Tables::pattern.phase;
        State x;
        x.cls = cls;
        x.b = b;
        x.split = true;
        uint64_t v[kMaxPhaseParts];
        Tables::split(spec.reduced, Tables::space.classes.reps[cls], v);
        for (size_t q = 0; q < spec.reduced.size(); ++q) x.av[q] = static_cast<uint32_t>(v[q]);
        Tables::split(spec.rest, b, v);
        for (size_t q = 0; q < spec.rest.size(); ++q) x.bv[q] = static_cast<uint32_t>(v[q]);
        return x;
    }
    static State applyMove(const State& x0, int m) {
        // (A child, never expanded by the search, is split here; no copy of x0.)
        State splitHere;
        if (!x0.split) splitHere = withParts(x0.cls, x0.b);
        const State& x = x0.split ? x0 : splitHere;
        const PhaseSpec& spec = Tables::pattern.phase;
        const auto& space = Tables::space;
        uint64_t na = 0;
        for (size_t q = 0; q < spec.reduced.size(); ++q) {
            const int j = spec.reduced[q];
            na = na * spec.parts[j].size + Tables::moveTable[j][static_cast<uint64_t>(x.av[q]) * kMoves + m];
        }
        const uint32_t e = space.classes.classOf[na];
        uint64_t moved[kMaxPhaseParts];
        for (size_t q = 0; q < spec.rest.size(); ++q)
            moved[q] = Tables::moveTable[spec.rest[q]][static_cast<uint64_t>(x.bv[q]) * kMoves + m];
        State child;
        child.cls = e >> 6;
        child.b = Tables::conjugateRest(moved, static_cast<int>(e & 63));
        return child;
    }
    static State applyInverseMove(const State& x, int m) { return applyMove(x, T::kMoveInverse[m]); }

    // The entry of a state of the solved coset (starts() holds them all).
    static State solved() {
        const PhaseSpec& spec = Tables::pattern.phase;
        uint64_t a = 0, goals[kMaxPhaseParts];
        for (int j : spec.reduced) a = a * spec.parts[j].size + spec.parts[j].goal;
        for (size_t q = 0; q < spec.rest.size(); ++q) goals[q] = spec.parts[spec.rest[q]].goal;
        const uint32_t e = Tables::space.classes.classOf[a];
        return withParts(e >> 6, Tables::conjugateRest(goals, static_cast<int>(e & 63)));
    }

    // A state of the entry's coset, in the puzzle's text (pzc solve --state).
    static std::string stateText(const State& x) {
        const PhaseSpec& spec = Tables::pattern.phase;
        std::vector<uint64_t> values(spec.parts.size());
        uint64_t av[kMaxPhaseParts], bv[kMaxPhaseParts];
        Tables::split(spec.reduced, Tables::space.classes.reps[x.cls], av);
        Tables::split(spec.rest, x.b, bv);
        for (size_t q = 0; q < spec.reduced.size(); ++q) values[spec.reduced[q]] = av[q];
        for (size_t q = 0; q < spec.rest.size(); ++q) values[spec.rest[q]] = bv[q];
        return partsStateText<T>(spec.parts, values);
    }
};

// The pattern the enumeration runs on: entry index class * bSize + b.
template <class T>
struct CosetClasses {
    using State = typename CosetClassMoves<T>::State;
    using Tables = CosetClassTables<T>;
    static inline uint64_t kSize = 0;
    static inline const char* kName = "";
    static inline const char* kHash = "";

    static void describe(const CosetPatternSpec& pattern) {
        Tables::describe(pattern);
        kSize = Tables::size;
        kName = Tables::pattern.name.c_str();
        kHash = Tables::pattern.hash.c_str();
    }
    static uint64_t extraBytes() { return Tables::tableBytes(); }
    static uint64_t rank(const State& x) { return x.cls * Tables::space.bSize + x.b; }
    static State unrank(uint64_t i) {
        return CosetClassMoves<T>::withParts(i / Tables::space.bSize, i % Tables::space.bSize);
    }

    // Entry i and its distinct images under its class's self-symmetries
    // (note [coset class spaces]), written to out; returns how many.
    // Taken as the state (class, b): its class needs no division of the index.
    static constexpr int kMaxImages = 64;
    static int images(const State& x, uint64_t* out) {
        const uint64_t cls = x.cls;
        out[0] = rank(x);
        uint64_t mask = Tables::space.classes.stab[cls] & ~uint64_t{1};
        if (!mask) return 1;
        int n = 1;
        uint64_t bv[kMaxPhaseParts];
        Tables::split(Tables::pattern.phase.rest, x.b, bv);
        for (; mask; mask &= mask - 1) {
            const uint64_t image = cls * Tables::space.bSize + Tables::conjugateRest(bv, std::countr_zero(mask));
            if (std::find(out, out + n, image) == out + n) out[n++] = image;
        }
        return n;
    }
    // The solved coset's entries: its own and its images.
    static std::vector<uint64_t> starts() {
        uint64_t out[kMaxImages];
        std::vector<uint64_t> all(out, out + images(CosetClassMoves<T>::solved(), out));
        std::sort(all.begin(), all.end());
        return all;
    }

    // Rank 0: the coset pattern's table file from the gathered entries
    // (`words`, `counts` per depth), written by the single-process build
    // (note [entries from elsewhere]) into `dir`, replacing what is there.
    static bool saveTable(std::vector<uint64_t> words, const std::vector<uint64_t>& counts, const std::string& dir,
                          int threads, std::string& path, std::string& why) {
        CosetPattern<T> table(Tables::pattern);
        table.setEntrySource([&](size_t, std::vector<uint64_t>& out) { out = std::move(words); });
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        path = dir + "/" + table.fileName();
        std::filesystem::remove(path, ec);
        try {
            table.loadOrBuild(dir, threads);
        } catch (const std::exception& e) {
            why = e.what();
            return false;
        }
        // The file's depth counts (from its entries) against the search's.
        const auto written = table.summary().counts;
        for (size_t d = 0; d < 15; ++d)
            if (written[d] != (d < counts.size() ? counts[d] : 0)) {
                why = "internal error: the table's depth " + std::to_string(d) + " holds " + std::to_string(written[d]) +
                      " entries, the enumeration found " + std::to_string(d < counts.size() ? counts[d] : 0);
                return false;
            }
        if (!std::filesystem::exists(path, ec)) {
            why = "the table was built but not written to " + path;
            return false;
        }
        return true;
    }
};

}  // namespace pz::enumerate
