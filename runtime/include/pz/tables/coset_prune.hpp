// pz/tables/coset_prune.hpp — a symmetry-reduced distance table over a coordinate
// pair (A, B), for optimal pruning tables over subgroup coset coordinates
// (issue 11; note [symmetry classes] in pz/search/phased.hpp is the same scheme
// for phase tables).
//
// A is reduced by symmetry (pz/tables/sym_classes.hpp: class, representative,
// self-symmetry mask), B is conjugated value by value. Entry (class, b)
// holds the distance of the coordinate (rep, b) from the goal; a coordinate
// (a, b) is looked up as (class(a), conj_k(b)) with conj_k(a) = rep. The
// table is filled by a breadth-first search over entries (forward, or
// backward when fewer entries are left than the frontier holds and the moves
// are closed under inverses), on `threads` threads; an entry whose
// representative is self-symmetric is written together with its images
// under the representative's stabiliser, so any k with conj_k(a) = rep may
// be used. Entries hold 4 bits (15 = 15 or more, still a lower bound) and
// can be packed into a pz::TwoBitTable.
//
// Requirements on the inputs (checked by the caller, as phased.hpp does on
// random states): the coordinate (A, B) of a state determines the
// coordinate after each move (moveA, moveB), and conjugation by each
// symmetry maps the goal to itself and the move set onto itself.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pz/tables/sym_classes.hpp"

namespace pz {

struct CosetTableSpec {
    uint64_t rawA = 0, sizeB = 0;
    int moves = 0, nS = 0;
    const uint32_t* moveA = nullptr;  // [a * moves + m]
    const uint32_t* moveB = nullptr;  // [b * moves + m]
    const SymClasses* classes = nullptr;
    const uint32_t* conjB = nullptr;  // [b * nS + s]
    uint64_t goalA = 0, goalB = 0;
    bool movesClosedUnderInverse = false;
};

class CosetTable {
public:
    CosetTable() = default;

    static CosetTable build(const CosetTableSpec& spec, int threads = 1) {
        CosetTable t;
        t.spec_ = spec;
        const SymClasses& sc = *spec.classes;
        const uint64_t bSize = spec.sizeB, entries = sc.classes() * bSize;
        const int n = spec.moves, nS = spec.nS;
        t.words_.assign((entries + 15) / 16, ~uint64_t{0});
        auto& words = t.words_;
        auto claimAll = [&](uint64_t cls, uint64_t b, unsigned d) {
            uint64_t got = nibbleClaim(words, cls * bSize + b, d) ? 1 : 0;
            for (uint64_t mask = sc.stab[cls] & ~uint64_t{1}; mask; mask &= mask - 1) {
                const int s = std::countr_zero(mask);
                if (nibbleClaim(words, cls * bSize + spec.conjB[b * nS + s], d)) ++got;
            }
            return got;
        };
        auto neighbours = [&](uint64_t i, auto&& f) {
            const uint64_t cls = i / bSize, b = i % bSize;
            const uint64_t a = sc.reps[cls];
            for (int m = 0; m < n; ++m) {
                const uint32_t e = sc.classOf[spec.moveA[a * n + m]];
                const uint64_t nb = spec.conjB[static_cast<uint64_t>(spec.moveB[b * n + m]) * nS + (e & 63)];
                if (f(static_cast<uint64_t>(e >> 6) * bSize + nb)) return;
            }
        };
        std::array<uint64_t, 16> counts{};
        {
            const uint64_t g = t.index(spec.goalA, spec.goalB);
            counts[0] = claimAll(g / bSize, g % bSize, 0);
        }
        uint64_t reached = counts[0];
        for (unsigned d = 0; d + 1 < 15; ++d) {
            const uint64_t frontier = counts[d];
            if (frontier == 0 || reached == entries) break;
            const bool backward = spec.movesClosedUnderInverse && entries - reached < frontier;
            std::atomic<uint64_t> next{0}, found{0};
            constexpr uint64_t kChunk = 1 << 14;
            auto worker = [&] {
                uint64_t local = 0;
                for (;;) {
                    const uint64_t begin = next.fetch_add(kChunk);
                    if (begin >= entries) break;
                    const uint64_t end = std::min(entries, begin + kChunk);
                    for (uint64_t i = begin; i < end; ++i) {
                        if (backward) {
                            if (nibbleGet(words, i) != 15) continue;
                            bool hit = false;
                            neighbours(i, [&](uint64_t j) { return hit = nibbleGet(words, j) == d; });
                            if (hit) local += claimAll(i / bSize, i % bSize, d + 1);
                        } else {
                            if (nibbleGet(words, i) != d) continue;
                            neighbours(i, [&](uint64_t j) {
                                if (nibbleGet(words, j) == 15) local += claimAll(j / bSize, j % bSize, d + 1);
                                return false;
                            });
                        }
                    }
                }
                found += local;
            };
            std::vector<std::thread> pool;
            for (int th = 1; th < threads; ++th) pool.emplace_back(worker);
            worker();
            for (auto& th : pool) th.join();
            counts[d + 1] = found;
            reached += found;
        }
        counts[15] += entries - reached;
        t.counts_ = counts;
        return t;
    }

    // The entry of coordinate (a, b).
    uint64_t index(uint64_t a, uint64_t b) const {
        const uint32_t e = spec_.classes->classOf[a];
        return static_cast<uint64_t>(e >> 6) * spec_.sizeB + spec_.conjB[b * spec_.nS + (e & 63)];
    }
    unsigned entry(uint64_t i) const { return static_cast<unsigned>(words_[i >> 4] >> ((i & 15) * 4) & 15); }
    unsigned lookup(uint64_t a, uint64_t b) const { return entry(index(a, b)); }

    uint64_t entries() const { return spec_.classes->classes() * spec_.sizeB; }
    // Entries per distance (15 = 15 or more, or unreached).
    const std::array<uint64_t, 16>& counts() const { return counts_; }
    const std::vector<uint64_t>& words() const { return words_; }

private:
    CosetTableSpec spec_;
    std::vector<uint64_t> words_;
    std::array<uint64_t, 16> counts_{};
};

}  // namespace pz
