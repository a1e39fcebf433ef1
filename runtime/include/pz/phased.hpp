// pz/phased.hpp — phased (multi-phase, Kociemba-style) search on coordinates.
//
// A phased solver reaches solved through a chain of subgroups
// G > H1 > ... > Hk > {solved}: phase 1 searches with all moves into H1,
// phase 2 with the moves in H1 into H2, ..., the last phase ends solved (see
// note [coset coordinates] in compiler/analysis/coset_coordinates.hpp for
// what the parts mean and why they are coordinates). pzc emits each phase as
// a PhaseSpec: its moves (traits move indices), its canonical automaton, its
// coordinate parts and which pairs of parts get a pruning table.
//
// At start-up the search builds, per phase, a move table per part
// (value x move -> value: unrank the value into a state, apply the move's
// kernel, rank) and a 4-bit pruning table per pair of parts (breadth-first
// from the goal, depths >= 15 stored as 15, still a lower bound). Search is
// IDA* on the coordinates only; a state is rebuilt from the moves at each
// phase boundary. Phase 1's solutions are enumerated by increasing length;
// for each one the later phases run IDA* with the bound "shorter than the
// best total so far", until the best total is <= the target length (or the
// first solution when there is no target), or a time / node budget runs out
// after a solution was found. A phase-1 solution whose last move lies in the
// next phase's moves is skipped (one move shorter, the same state was
// already handed on), and a phase never starts with the family the previous
// phase ended with. Results are not optimal in general and are never
// labelled so.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pz/state.hpp"

namespace pz {

struct PhasePartSpec {
    enum Kind : uint8_t { Membership, Orientation, Parity, SetPermutation };
    Kind kind = Membership;
    int orbit = 0;                       // index into T::kOrbitShapes
    std::array<uint8_t, 16> setOf{};     // Membership: label -> set
    int sets = 0;                        // Membership
    std::array<uint8_t, 16> positions{}; // SetPermutation: the set's positions, ascending
    int count = 0;                       // SetPermutation: |set|
    int modulus = 1;                     // Orientation
    bool sumConstrained = false;         // Orientation: last position implied
    std::array<uint8_t, 16> frame{};     // Orientation: digit = ((ori - frame[p] + frame[label]) mod modulus) / step
    int step = 1;
    uint32_t parityOrbits = 0;           // Parity: bitmask over kOrbitShapes
    uint64_t size = 1;
    uint64_t goal = 0;                   // the rank of the solved state
};

struct PhaseSpec {
    const char* target = "";
    std::vector<int> moves;       // traits move indices
    std::vector<int> canonNext;   // [state * moves.size() + i] -> state, -1 = not allowed
    int canonStart = 0;
    std::vector<PhasePartSpec> parts;
    std::vector<std::pair<int, int>> tables;  // pruning tables over (part, part); second -1 = one part
};

// A direction to search from (note [phased directions]): the state
// conjugated by symmetry `symmetry` (S^-1 s S, traits symmetry index; 0 =
// identity), of its inverse when `inverse`. A solution w found there is
// turned into one of s by mapping each move m to moveMap[m] (S m S^-1) and,
// for the inverse, reversing and inverting the moves.
struct PhaseDirection {
    int symmetry = 0;
    bool inverse = false;
    std::vector<int> moveMap;  // empty = identity
};

struct PhasedLimits {
    int maxLength = -1;          // stop once the best total is <= this; -1: at the first solution
    double budgetMs = 0;         // stop after this long once a solution exists; 0 = none
    uint64_t nodeBudget = 0;     // the same in nodes; 0 = none
};

struct PhasedResult {
    bool found = false;
    std::vector<int> moves;         // traits move indices
    std::vector<int> phaseLengths;  // per phase
    uint64_t nodes = 0;
    double seconds = 0;
};

namespace phased_detail {

inline uint64_t binom(unsigned n, unsigned k) {
    if (k > n) return 0;
    uint64_t r = 1;
    for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}

inline int laneParity(uint64_t perm, int n) {
    uint32_t seen = 0;
    int parity = 0;
    for (int i = 0; i < n; ++i) {
        if (seen >> i & 1) continue;
        int len = 0;
        for (int j = i; !(seen >> j & 1); j = static_cast<int>(perm >> (4 * j) & 15)) {
            seen |= 1u << j;
            ++len;
        }
        parity ^= (len + 1) & 1;
    }
    return parity;
}

}  // namespace phased_detail

// Rank and unrank of one part on a traits state (the same encoding as
// referencePartRank / referencePartUnrank in the compiler).
template <class T>
uint64_t rankPart(const PhasePartSpec& part, const typename T::State& s) {
    using namespace phased_detail;
    switch (part.kind) {
        case PhasePartSpec::Membership: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            const uint64_t perm = s.w[shape.permWord];
            const int n = shape.size;
            uint32_t taken = 0;
            uint64_t r = 0;
            int remaining = n;
            for (int i = 0; i + 1 < part.sets; ++i) {
                int k = 0;
                for (int q = 0; q < n; ++q) k += part.setOf[q] == i;
                uint64_t rank = 0;
                int j = 0, t = 0;
                for (int p = 0; p < n; ++p) {
                    if (taken >> p & 1) continue;
                    if (part.setOf[perm >> (4 * p) & 15] == i) {
                        rank += binom(static_cast<unsigned>(j), static_cast<unsigned>(++t));
                        taken |= 1u << p;
                    }
                    ++j;
                }
                r = r * binom(static_cast<unsigned>(remaining), static_cast<unsigned>(k)) + rank;
                remaining -= k;
            }
            return r;
        }
        case PhasePartSpec::Orientation: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            const uint64_t ori = s.w[shape.oriWord];
            const uint64_t perm = s.w[shape.permWord];
            const int digits = shape.size - (part.sumConstrained ? 1 : 0);
            const int m = part.modulus;
            uint64_t r = 0;
            for (int p = 0; p < digits; ++p) {
                const int x = (static_cast<int>(ori >> (4 * p) & 15) + m - part.frame[p] + part.frame[perm >> (4 * p) & 15]) % m;
                r = r * static_cast<uint64_t>(m / part.step) + static_cast<uint64_t>(x / part.step);
            }
            return r;
        }
        case PhasePartSpec::Parity: {
            int parity = 0;
            for (int o = 0; o < static_cast<int>(T::kOrbitShapes.size()); ++o)
                if (part.parityOrbits >> o & 1) parity ^= laneParity(s.w[T::kOrbitShapes[o].permWord], T::kOrbitShapes[o].size);
            return static_cast<uint64_t>(parity);
        }
        case PhasePartSpec::SetPermutation: {
            const uint64_t perm = s.w[T::kOrbitShapes[part.orbit].permWord];
            uint8_t index[16] = {};
            for (int i = 0; i < part.count; ++i) index[part.positions[i]] = static_cast<uint8_t>(i);
            uint64_t r = 0;
            uint32_t seen = 0;
            for (int i = 0; i < part.count; ++i) {
                const unsigned x = index[perm >> (4 * part.positions[i]) & 15];
                const unsigned smaller = static_cast<unsigned>(std::popcount(seen & ((1u << x) - 1)));
                seen |= 1u << x;
                r = r * static_cast<uint64_t>(part.count - i) + (x - smaller);
            }
            return r;
        }
    }
    return 0;
}

template <class T>
typename T::State unrankPart(const PhasePartSpec& part, uint64_t rank) {
    using namespace phased_detail;
    typename T::State s = T::solved();
    switch (part.kind) {
        case PhasePartSpec::Membership: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            const int n = shape.size;
            int members[16][16], memberCount[16] = {};
            for (int q = 0; q < n; ++q) members[part.setOf[q]][memberCount[part.setOf[q]]++] = q;
            int remainingAt[16];
            int remaining = n;
            for (int i = 0; i < part.sets; ++i) {
                remainingAt[i] = remaining;
                remaining -= memberCount[i];
            }
            uint64_t digit[16] = {};
            for (int i = part.sets - 2; i >= 0; --i) {
                const uint64_t radix = binom(static_cast<unsigned>(remainingAt[i]), static_cast<unsigned>(memberCount[i]));
                digit[i] = rank % radix;
                rank /= radix;
            }
            int setAt[16];
            for (int p = 0; p < n; ++p) setAt[p] = -1;
            for (int i = 0; i + 1 < part.sets; ++i) {
                int freePositions[16], nf = 0;
                for (int p = 0; p < n; ++p)
                    if (setAt[p] < 0) freePositions[nf++] = p;
                uint64_t r = digit[i];
                for (int t = memberCount[i]; t >= 1; --t) {
                    int j = t - 1;
                    while (binom(static_cast<unsigned>(j + 1), static_cast<unsigned>(t)) <= r) ++j;
                    r -= binom(static_cast<unsigned>(j), static_cast<unsigned>(t));
                    setAt[freePositions[j]] = i;
                }
            }
            int next[16] = {};
            uint64_t perm = 0;
            for (int p = 0; p < n; ++p) {
                const int set = setAt[p] < 0 ? part.sets - 1 : setAt[p];
                perm |= static_cast<uint64_t>(members[set][next[set]++]) << (4 * p);
            }
            s.w[shape.permWord] = perm;
            return s;
        }
        case PhasePartSpec::Orientation: {
            const auto& shape = T::kOrbitShapes[part.orbit];
            const int n = shape.size;
            const int digits = n - (part.sumConstrained ? 1 : 0);
            uint64_t ori = 0;
            int sum = 0;
            const uint64_t radix = static_cast<uint64_t>(part.modulus / part.step);
            for (int p = digits - 1; p >= 0; --p) {
                const int d = static_cast<int>(rank % radix) * part.step;
                rank /= radix;
                sum += d;
                ori |= static_cast<uint64_t>(d) << (4 * p);
            }
            if (part.sumConstrained)
                ori |= static_cast<uint64_t>((part.modulus - sum % part.modulus) % part.modulus) << (4 * (n - 1));
            s.w[shape.oriWord] = ori;
            return s;
        }
        case PhasePartSpec::Parity: {
            if (rank & 1)
                for (int o = 0; o < static_cast<int>(T::kOrbitShapes.size()); ++o)
                    if ((part.parityOrbits >> o & 1) && T::kOrbitShapes[o].size >= 2) {
                        uint64_t& w = s.w[T::kOrbitShapes[o].permWord];
                        const uint64_t a = w & 15, b = w >> 4 & 15;
                        w = (w & ~uint64_t{0xFF}) | b | a << 4;
                        break;
                    }
            return s;
        }
        case PhasePartSpec::SetPermutation: {
            uint64_t& w = s.w[T::kOrbitShapes[part.orbit].permWord];
            const int k = part.count;
            int digit[16];
            for (int i = k - 1; i >= 0; --i) {
                digit[i] = static_cast<int>(rank % static_cast<uint64_t>(k - i));
                rank /= static_cast<uint64_t>(k - i);
            }
            uint32_t used = 0;
            for (int i = 0; i < k; ++i) {
                int d = digit[i], x = 0;
                for (;; ++x)
                    if (!(used >> x & 1) && d-- == 0) break;
                used |= 1u << x;
                const int p = part.positions[i];
                w = (w & ~(uint64_t{15} << (4 * p))) | static_cast<uint64_t>(part.positions[x]) << (4 * p);
            }
            return s;
        }
    }
    return s;
}

// A 4-bit table over the values of one part or a pair of parts.
struct NibbleTable {
    std::vector<uint8_t> bytes;
    uint64_t entries = 0;
    uint8_t get(uint64_t i) const { return bytes[i >> 1] >> ((i & 1) * 4) & 15; }
    void set(uint64_t i, uint8_t v) {
        uint8_t& b = bytes[i >> 1];
        b = static_cast<uint8_t>((b & ~(15 << ((i & 1) * 4))) | v << ((i & 1) * 4));
    }
};

template <class T>
class PhasedSearch {
public:
    using State = typename T::State;
    static constexpr int kMaxDepth = 64;

    // moveFamily: the family of each traits move (a phase never starts with
    // the family the previous one ended with).
    PhasedSearch(std::vector<PhaseSpec> phases, std::vector<int> moveFamily)
        : spec_(std::move(phases)), family_(std::move(moveFamily)) {
        auto t0 = std::chrono::steady_clock::now();
        for (size_t k = 0; k < spec_.size(); ++k) build(k);
        buildSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    double buildSeconds() const { return buildSeconds_; }
    size_t tableBytes() const {
        size_t b = 0;
        for (const auto& p : phases_) {
            for (const auto& m : p.moveTable) b += m.size() * sizeof(uint32_t);
            for (const auto& t : p.prune) b += t.bytes.size();
        }
        return b;
    }
    // Depth distribution of pruning table t of phase k (entries per stored value 0..15).
    std::array<uint64_t, 16> depthCounts(size_t k, size_t t) const {
        std::array<uint64_t, 16> c{};
        const auto& table = phases_[k].prune[t];
        for (uint64_t i = 0; i < table.entries; ++i) ++c[table.get(i)];
        return c;
    }
    size_t phaseCount() const { return spec_.size(); }
    const PhaseSpec& phase(size_t k) const { return spec_[k]; }

    // note [phased directions]
    // The same position is searched from several directions: conjugated by
    // symmetries that move the first subgroup to a different conjugate
    // (one per coset of the symmetries keeping it; the cube's three axes),
    // and inverted. Phase 1 runs depth by depth across all directions, so
    // the direction whose phase 1 is short finds a good total early and its
    // bound prunes the others.
    void setDirections(std::vector<PhaseDirection> directions) {
        if (!directions.empty()) directions_ = std::move(directions);
    }

    PhasedResult solve(const State& start, const PhasedLimits& limits) {
        limits_ = limits;
        best_ = {};
        bestLength_ = kMaxDepth + 1;
        nodes_ = 0;
        stop_ = false;
        t0_ = std::chrono::steady_clock::now();
        path_.clear();
        phaseStart_.assign(spec_.size() + 1, 0);
        const PhaseSpec& first = spec_[0];
        struct Start {
            State state;
            std::vector<uint32_t> coords;
            int h;
        };
        std::vector<Start> starts;
        for (const auto& d : directions_) {
            State s = d.inverse ? T::inverse(start) : start;
            if (d.symmetry != 0) s = T::conjugate(s, d.symmetry);
            Start st{s, std::vector<uint32_t>(first.parts.size()), 0};
            for (size_t j = 0; j < first.parts.size(); ++j) st.coords[j] = static_cast<uint32_t>(rankPart<T>(first.parts[j], s));
            st.h = heuristic(0, st.coords.data());
            starts.push_back(std::move(st));
        }
        for (int depth = 0; depth < bestLength_ && !stop_; ++depth)
            for (size_t d = 0; d < starts.size() && !stop_ && depth < bestLength_; ++d) {
                if (depth < starts[d].h) continue;
                direction_ = d;
                std::vector<uint32_t> coords = starts[d].coords;
                phaseStart_[0] = 0;
                dfs(0, starts[d].state, coords.data(), depth, first.canonStart, -1);
            }
        PhasedResult r = best_;
        r.found = bestLength_ <= kMaxDepth;
        r.nodes = nodes_;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        return r;
    }

private:
    struct TableRef {
        const uint8_t* bytes;
        uint64_t stride;
        int a, b;
    };
    struct Phase {
        std::vector<std::vector<uint32_t>> moveTable;  // [part][value * moves + i]
        std::vector<const uint32_t*> moveRows;          // moveTable[j].data()
        std::vector<TableRef> refs;                     // the pruning tables, largest first
        std::vector<NibbleTable> prune;
        std::vector<uint64_t> stride;                  // per table: size of its second part (1 if none)
        std::vector<bool> inNext;                      // per phase move: it lies in the next phase's moves
        int moves = 0;
    };

    void build(size_t k) {
        const PhaseSpec& spec = spec_[k];
        Phase ph;
        ph.moves = static_cast<int>(spec.moves.size());
        for (const auto& part : spec.parts) {
            std::vector<uint32_t> table(part.size * ph.moves);
            for (uint64_t v = 0; v < part.size; ++v) {
                const State s = unrankPart<T>(part, v);
                for (int i = 0; i < ph.moves; ++i)
                    table[v * ph.moves + i] = static_cast<uint32_t>(rankPart<T>(part, T::applyMove(s, spec.moves[i])));
            }
            ph.moveTable.push_back(std::move(table));
        }
        for (const auto& [a, b] : spec.tables) {
            const uint64_t stride = b < 0 ? 1 : spec.parts[b].size;
            const uint64_t entries = spec.parts[a].size * stride;
            NibbleTable t;
            t.entries = entries;
            t.bytes.assign((entries + 1) / 2, 0xFF);
            const uint64_t goal = spec.parts[a].goal * stride + (b < 0 ? 0 : spec.parts[b].goal);
            t.set(goal, 0);
            uint64_t filled = 1;
            for (uint8_t d = 0; d < 14 && filled < entries; ++d) {
                uint64_t added = 0;
                for (uint64_t i = 0; i < entries; ++i) {
                    if (t.get(i) != d) continue;
                    const uint64_t va = i / stride, vb = i % stride;
                    for (int m = 0; m < ph.moves; ++m) {
                        const uint64_t na = ph.moveTable[a][va * ph.moves + m];
                        const uint64_t nb = b < 0 ? 0 : ph.moveTable[b][vb * ph.moves + m];
                        const uint64_t j = na * stride + nb;
                        if (t.get(j) == 15) {
                            t.set(j, d + 1);
                            ++added;
                        }
                    }
                }
                filled += added;
                if (added == 0) break;
            }
            ph.prune.push_back(std::move(t));
            ph.stride.push_back(stride);
        }
        for (const auto& m : ph.moveTable) ph.moveRows.push_back(m.data());
        for (size_t t = 0; t < ph.prune.size(); ++t)
            ph.refs.push_back({ph.prune[t].bytes.data(), ph.stride[t], spec.tables[t].first, spec.tables[t].second});
        std::stable_sort(ph.refs.begin(), ph.refs.end(), [&](const TableRef& x, const TableRef& y) {
            return spec.parts[x.a].size * x.stride > spec.parts[y.a].size * y.stride;
        });
        phases_.push_back(std::move(ph));
        // The previous phase's moves that lie in this phase's move set.
        if (k > 0) {
            Phase& prev = phases_[k - 1];
            prev.inNext.assign(spec_[k - 1].moves.size(), false);
            for (size_t i = 0; i < spec_[k - 1].moves.size(); ++i)
                for (int m : spec.moves)
                    if (m == spec_[k - 1].moves[i]) prev.inNext[i] = true;
        }
    }

    int heuristic(size_t k, const uint32_t* c) const {
        const Phase& ph = phases_[k];
        const PhaseSpec& spec = spec_[k];
        int h = 0;
        for (size_t t = 0; t < ph.prune.size(); ++t) {
            const auto& [a, b] = spec.tables[t];
            const uint64_t i = static_cast<uint64_t>(c[a]) * ph.stride[t] + (b < 0 ? 0 : c[b]);
            h = std::max(h, static_cast<int>(ph.prune[t].get(i)));
        }
        return h;
    }

    // heuristic(k, c) > limit, reading the tables only until one says so
    // (the largest tables first: they prune most).
    bool exceeds(size_t k, const uint32_t* c, int limit) const {
        for (const TableRef& t : phases_[k].refs) {
            const uint64_t i = static_cast<uint64_t>(c[t.a]) * t.stride + (t.b < 0 ? 0 : c[t.b]);
            if ((t.bytes[i >> 1] >> ((i & 1) * 4) & 15) > limit) return true;
        }
        return false;
    }

    bool atGoal(size_t k, const uint32_t* c) const {
        const auto& parts = spec_[k].parts;
        for (size_t j = 0; j < parts.size(); ++j)
            if (c[j] != parts[j].goal) return false;
        return true;
    }

    bool budgetExceeded() {
        if (bestLength_ > kMaxDepth) return false;  // always finish the first solution
        if (limits_.nodeBudget && nodes_ >= limits_.nodeBudget) return true;
        if (limits_.budgetMs > 0 && (nodes_ & 1023) == 0) {
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
            if (ms >= limits_.budgetMs) return true;
        }
        return false;
    }

    // previousMove: the traits move before phase k starts, -1 at the very start.
    void searchPhase(size_t k, const State& s, int previousMove) {
        const PhaseSpec& spec = spec_[k];
        std::vector<uint32_t> c(spec.parts.size());
        for (size_t j = 0; j < spec.parts.size(); ++j) c[j] = static_cast<uint32_t>(rankPart<T>(spec.parts[j], s));
        const int used = static_cast<int>(path_.size());
        phaseStart_[k] = path_.size();
        const int h = heuristic(k, c.data());
        const int before = solutions_;
        for (int depth = h; depth < bestLength_ - used && !stop_; ++depth) {
            std::vector<uint32_t> coords = c;
            dfs(k, s, coords.data(), depth, spec.canonStart, previousMove);
            if (k > 0 && solutions_ > before) break;  // later phases: the shortest that completes
        }
    }

    void dfs(size_t k, const State& phaseStartState, uint32_t* c, int remaining, int canon, int previousMove) {
        ++nodes_;
        if (budgetExceeded()) {
            stop_ = true;
            return;
        }
        const PhaseSpec& spec = spec_[k];
        const Phase& ph = phases_[k];
        if (remaining == 0) {
            if (!atGoal(k, c)) return;
            const size_t len = path_.size() - phaseStart_[k];
            if (k + 1 < spec_.size()) {
                // Skip a phase end whose last move stays in the next phase's moves.
                if (len > 0 && ph.inNext[lastPhaseMove_[k]]) return;
                State t = phaseStartState;
                for (size_t i = phaseStart_[k]; i < path_.size(); ++i) t = T::applyMove(t, path_[i]);
                searchPhase(k + 1, t, path_.empty() ? previousMove : path_.back());
                return;
            }
            const int total = static_cast<int>(path_.size());
            if (total < bestLength_) {
                bestLength_ = total;
                best_.moves = original(path_);
                best_.phaseLengths.clear();
                for (size_t j = 0; j < spec_.size(); ++j) {
                    const size_t end = j + 1 < spec_.size() ? phaseStart_[j + 1] : path_.size();
                    best_.phaseLengths.push_back(static_cast<int>(end - phaseStart_[j]));
                }
                ++solutions_;
                if (limits_.maxLength < 0 || bestLength_ <= limits_.maxLength) stop_ = true;
            }
            return;
        }
        const int n = ph.moves;
        const bool first = path_.size() == phaseStart_[k];
        const int before = first ? previousMove : path_.back();
        uint32_t next[16];
        const size_t parts = spec.parts.size();
        const int* canonRow = spec.canonNext.data() + static_cast<size_t>(canon) * n;
        for (int i = 0; i < n && !stop_; ++i) {
            const int ns = canonRow[i];
            if (ns < 0) continue;
            const int move = spec.moves[i];
            if (first && before >= 0 && family_[move] == family_[before]) continue;
            for (size_t j = 0; j < parts; ++j) next[j] = ph.moveRows[j][static_cast<size_t>(c[j]) * n + i];
            if (exceeds(k, next, remaining - 1)) continue;
            path_.push_back(move);
            lastPhaseMove_[k] = i;
            dfs(k, phaseStartState, next, remaining - 1, ns, previousMove);
            path_.pop_back();
            // A later phase found a total no longer than any this branch can give.
            if (static_cast<int>(path_.size()) + remaining >= bestLength_) return;
        }
    }

    // A solution found in the current direction, as moves solving the position.
    std::vector<int> original(const std::vector<int>& path) const {
        const PhaseDirection& d = directions_[direction_];
        std::vector<int> out;
        for (int m : path) out.push_back(d.moveMap.empty() ? m : d.moveMap[m]);
        if (d.inverse) {
            std::reverse(out.begin(), out.end());
            for (int& m : out) m = T::kMoveInverse[m];
        }
        return out;
    }

    std::vector<PhaseSpec> spec_;
    std::vector<PhaseDirection> directions_{PhaseDirection{}};
    size_t direction_ = 0;
    std::vector<int> family_;
    std::vector<Phase> phases_;
    double buildSeconds_ = 0;
    PhasedLimits limits_;
    PhasedResult best_;
    int bestLength_ = kMaxDepth + 1;
    int solutions_ = 0;
    uint64_t nodes_ = 0;
    bool stop_ = false;
    std::chrono::steady_clock::time_point t0_;
    std::vector<int> path_;
    std::vector<size_t> phaseStart_;
    int lastPhaseMove_[16] = {};
};

}  // namespace pz
