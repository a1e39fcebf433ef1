#include "compiler/analysis/perm/coset_coordinates.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "compiler/analysis/perm/coordinates.hpp"
#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/analysis/perm/schreier_sims.hpp"
#include "compiler/ir/element.hpp"
#include "pz/tables/table_layout.hpp"

namespace pz::analysis {

namespace {

uint64_t choose(unsigned n, unsigned k) {
    if (k > n) return 0;
    uint64_t r = 1;
    for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}

uint64_t factorialU(unsigned n) { return n <= 1 ? 1 : n * factorialU(n - 1); }

int permParity(const std::vector<int>& perm) {
    std::vector<bool> seen(perm.size(), false);
    int parity = 0;
    for (size_t i = 0; i < perm.size(); ++i) {
        if (seen[i]) continue;
        int len = 0;
        for (size_t j = i; !seen[j]; j = (size_t)perm[j]) {
            seen[j] = true;
            ++len;
        }
        parity ^= (len + 1) & 1;
    }
    return parity;
}

std::string positionName(const ir::Orbit& orbit, int p) {
    return p < (int)orbit.positionNames.size() ? orbit.positionNames[p] : std::to_string(p);
}

// Labels of each set of a membership part, ascending; and the set sizes.
std::vector<std::vector<int>> setMembers(const PhasePart& part) {
    std::vector<std::vector<int>> members(part.sets);
    for (size_t q = 0; q < part.setOf.size(); ++q) members[part.setOf[q]].push_back((int)q);
    return members;
}

PhasePart orientationPart(const ir::Puzzle& puzzle, int orbit) {
    PhasePart part;
    part.kind = PhasePart::Kind::Orientation;
    part.orbit = orbit;
    part.modulus = puzzle.orbits[orbit].orient;
    part.sumConstrained = orientationSumFixed(puzzle, orbit);
    const int digits = puzzle.orbits[orbit].size - (part.sumConstrained ? 1 : 0);
    part.size = 1;
    for (int i = 0; i < digits; ++i) part.size *= (uint64_t)part.modulus;
    return part;
}

}  // namespace

std::string PhasePart::kindName() const {
    switch (kind) {
        case Kind::Membership: return "membership";
        case Kind::Orientation: return "orientation";
        case Kind::Parity: return "parity";
        case Kind::SetPermutation: return "set permutation";
    }
    return "?";
}

std::string PhasePart::describe(const ir::Puzzle& puzzle) const {
    std::ostringstream s;
    switch (kind) {
        case Kind::Membership: {
            s << "membership of " << puzzle.orbits[orbit].name << " in " << sets << " sets (";
            auto members = setMembers(*this);
            for (size_t i = 0; i < members.size(); ++i) s << (i ? "+" : "") << members[i].size();
            s << ")";
            break;
        }
        case Kind::Orientation:
            s << "orientation of " << puzzle.orbits[orbit].name << " mod " << modulus
              << (frame.empty() ? "" : " in a frame") << (step > 1 ? ", multiples of " + std::to_string(step) : "")
              << (sumConstrained ? " (sum fixed)" : "");
            if (!positions.empty()) {
                s << " at {";
                for (size_t i = 0; i < positions.size(); ++i)
                    s << (i ? " " : "") << positionName(puzzle.orbits[orbit], positions[i]);
                s << "}";
            }
            break;
        case Kind::Parity: {
            s << "parity of";
            for (int o : parityOrbits) s << ' ' << puzzle.orbits[o].name;
            break;
        }
        case Kind::SetPermutation: {
            s << "permutation of " << puzzle.orbits[orbit].name << " {";
            for (size_t i = 0; i < positions.size(); ++i)
                s << (i ? " " : "") << positionName(puzzle.orbits[orbit], positions[i]);
            s << "}";
            break;
        }
    }
    return s.str();
}

uint64_t referencePartRank(const PhasePart& part, const ir::Element& e) {
    switch (part.kind) {
        case PhasePart::Kind::Membership: {
            const auto& perm = e.perm[part.orbit];
            const int n = (int)perm.size();
            auto members = setMembers(part);
            std::vector<bool> taken(n, false);
            uint64_t r = 0;
            int remaining = n;
            for (int i = 0; i + 1 < part.sets; ++i) {
                const int k = (int)members[i].size();
                uint64_t rank = 0;
                int j = 0, t = 0;
                for (int p = 0; p < n; ++p) {
                    if (taken[p]) continue;
                    if (part.setOf[perm[p]] == i) {
                        rank += choose((unsigned)j, (unsigned)++t);
                        taken[p] = true;
                    }
                    ++j;
                }
                r = r * choose((unsigned)remaining, (unsigned)k) + rank;
                remaining -= k;
            }
            return r;
        }
        case PhasePart::Kind::Orientation: {
            const auto& ori = e.ori[part.orbit];
            const auto& perm = e.perm[part.orbit];
            const bool kept = !part.positions.empty();
            const int digits = kept ? (int)part.positions.size() : (int)ori.size() - (part.sumConstrained ? 1 : 0);
            const int m = part.modulus;
            uint64_t r = 0;
            for (int i = 0; i < digits; ++i) {
                const int p = kept ? part.positions[i] : i;
                int x = ori[p];
                if (!part.frame.empty()) x = ((x - part.frame[p] + part.frame[perm[p]]) % m + m) % m;
                if (x % part.step != 0) throw std::logic_error("orientation off its frame's step");
                r = r * (uint64_t)(m / part.step) + (uint64_t)(x / part.step);
            }
            return r;
        }
        case PhasePart::Kind::Parity: {
            int parity = 0;
            for (int o : part.parityOrbits) parity ^= permParity(e.perm[o]);
            return (uint64_t)parity;
        }
        case PhasePart::Kind::SetPermutation: {
            const auto& perm = e.perm[part.orbit];
            const int k = (int)part.positions.size();
            uint64_t r = 0;
            std::vector<bool> seen(k, false);
            for (int i = 0; i < k; ++i) {
                auto it = std::find(part.positions.begin(), part.positions.end(), perm[part.positions[i]]);
                if (it == part.positions.end())
                    throw std::logic_error("set permutation rank of an element that moves a piece out of its set");
                const int x = (int)(it - part.positions.begin());
                int smaller = 0;
                for (int y = 0; y < x; ++y) smaller += seen[y];
                seen[x] = true;
                r = r * (uint64_t)(k - i) + (uint64_t)(x - smaller);
            }
            return r;
        }
    }
    return 0;
}

ir::Element referencePartUnrank(const PhasePart& part, uint64_t rank, const std::vector<ir::Orbit>& orbits) {
    ir::Element e = ir::identity(orbits);
    switch (part.kind) {
        case PhasePart::Kind::Membership: {
            auto& perm = e.perm[part.orbit];
            const int n = (int)perm.size();
            auto members = setMembers(part);
            std::vector<int> remainingAt(part.sets);
            int remaining = n;
            for (int i = 0; i < part.sets; ++i) {
                remainingAt[i] = remaining;
                remaining -= (int)members[i].size();
            }
            std::vector<uint64_t> digit(part.sets, 0);
            for (int i = part.sets - 2; i >= 0; --i) {
                const uint64_t radix = choose((unsigned)remainingAt[i], (unsigned)members[i].size());
                digit[i] = rank % radix;
                rank /= radix;
            }
            std::vector<int> setAt(n, -1);
            for (int i = 0; i + 1 < part.sets; ++i) {
                std::vector<int> free;
                for (int p = 0; p < n; ++p)
                    if (setAt[p] < 0) free.push_back(p);
                uint64_t r = digit[i];
                for (int t = (int)members[i].size(); t >= 1; --t) {
                    int j = t - 1;
                    while (choose((unsigned)(j + 1), (unsigned)t) <= r) ++j;
                    r -= choose((unsigned)j, (unsigned)t);
                    setAt[free[j]] = i;
                }
            }
            std::vector<size_t> next(part.sets, 0);
            for (int p = 0; p < n; ++p) {
                const int s = setAt[p] < 0 ? part.sets - 1 : setAt[p];
                perm[p] = members[s][next[s]++];
            }
            return e;
        }
        case PhasePart::Kind::Orientation: {
            // Identity permutation: the frame cancels, ori = digit * step.
            auto& ori = e.ori[part.orbit];
            const int n = (int)ori.size();
            const bool kept = !part.positions.empty();
            const int digits = kept ? (int)part.positions.size() : n - (part.sumConstrained ? 1 : 0);
            const uint64_t radix = (uint64_t)(part.modulus / part.step);
            int sum = 0;
            for (int i = digits - 1; i >= 0; --i) {
                const int p = kept ? part.positions[i] : i;
                ori[p] = (int)(rank % radix) * part.step;
                rank /= radix;
                sum += ori[p];
            }
            if (part.sumConstrained) ori[n - 1] = (part.modulus - sum % part.modulus) % part.modulus;
            return e;
        }
        case PhasePart::Kind::Parity: {
            if (rank & 1)
                for (int o : part.parityOrbits)
                    if (orbits[o].size >= 2) {
                        std::swap(e.perm[o][0], e.perm[o][1]);
                        break;
                    }
            return e;
        }
        case PhasePart::Kind::SetPermutation: {
            auto& perm = e.perm[part.orbit];
            const int k = (int)part.positions.size();
            std::vector<int> digit(k);
            for (int i = k - 1; i >= 0; --i) {
                digit[i] = (int)(rank % (uint64_t)(k - i));
                rank /= (uint64_t)(k - i);
            }
            std::vector<bool> used(k, false);
            for (int i = 0; i < k; ++i) {
                int d = digit[i], x = 0;
                for (;; ++x)
                    if (!used[x] && d-- == 0) break;
                used[x] = true;
                perm[part.positions[i]] = part.positions[x];
            }
            return e;
        }
    }
    return e;
}

// ---- invariants ----

namespace {

SubgroupInvariants declaredInvariants(const ir::Puzzle& puzzle, const ir::Subgroup& sub) {
    SubgroupInvariants inv;
    const auto& orbits = puzzle.orbits;
    for (size_t o = 0; o < orbits.size(); ++o) {
        std::vector<int> setOf(orbits[o].size, -1);
        int sets = 0;
        for (const auto& keep : sub.keepIn)
            if (keep.orbit == (int)o)
                for (const auto& s : keep.sets) {
                    for (int p : s) setOf[p] = sets;
                    ++sets;
                }
        bool rest = false;
        for (int& s : setOf)
            if (s < 0) {
                s = sets;
                rest = true;
            }
        inv.setOf.push_back(setOf);
        inv.setCount.push_back(sets + (rest ? 1 : 0));
        bool whole = false, partial = false;
        for (const auto& [orb, positions] : sub.oriented) {
            if (orb != (int)o) continue;
            if (positions.empty() || (int)positions.size() == orbits[o].size)
                whole = true;
            else
                partial = true;
        }
        if (partial && !whole && inv.unsupported.empty())
            inv.unsupported = "orientation is fixed on part of orbit '" + orbits[o].name +
                              "' only (a phase coordinate needs the whole orbit oriented)";
        inv.oriented.push_back(whole && orbits[o].orient > 1);
        inv.frame.emplace_back();
        inv.step.push_back(1);
    }
    return inv;
}

SubgroupInvariants derivedInvariants(const ir::Puzzle& puzzle, const std::vector<ir::Element>& generators) {
    SubgroupInvariants inv;
    inv.derived = true;
    const auto& orbits = puzzle.orbits;
    for (size_t o = 0; o < orbits.size(); ++o) {
        const int n = orbits[o].size;
        std::vector<int> parent(n);
        std::iota(parent.begin(), parent.end(), 0);
        auto find = [&](int x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        bool twisted = false;
        for (const auto& g : generators)
            for (int p = 0; p < n; ++p) {
                parent[find(p)] = find(g.perm[o][p]);
                twisted = twisted || g.ori[o][p] != 0;
            }
        // Sets numbered by their smallest position.
        std::vector<int> setOf(n, -1), setOfRoot(n, -1);
        int sets = 0;
        for (int p = 0; p < n; ++p) {
            int r = find(p);
            if (setOfRoot[r] < 0) setOfRoot[r] = sets++;
            setOf[p] = setOfRoot[r];
        }
        inv.setOf.push_back(setOf);
        inv.setCount.push_back(sets);
        inv.frame.emplace_back();
        inv.step.push_back(1);
        const int m = orbits[o].orient;
        if (m == 1 || !twisted) {
            inv.oriented.push_back(m > 1);
            continue;
        }
        // Orientations reached by each set's root piece (note [orientation frames]).
        std::vector<int> root(sets, -1);
        for (int p = n - 1; p >= 0; --p) root[setOf[p]] = p;
        auto reach = [&](const std::vector<const ir::Element*>& gens, int from) {
            std::vector<std::vector<bool>> seen(n, std::vector<bool>(m, false));
            std::vector<std::pair<int, int>> stack{{from, 0}};
            seen[from][0] = true;
            while (!stack.empty()) {
                auto [q, r] = stack.back();
                stack.pop_back();
                for (const auto* g : gens)
                    for (int p = 0; p < n; ++p)
                        if (g->perm[o][p] == q) {
                            int r2 = (r + g->ori[o][p]) % m;
                            if (!seen[p][r2]) {
                                seen[p][r2] = true;
                                stack.emplace_back(p, r2);
                            }
                        }
            }
            return seen;
        };
        std::vector<const ir::Element*> hGens, gGens;
        for (const auto& g : generators) hGens.push_back(&g);
        for (const auto& mv : puzzle.moves) gGens.push_back(&mv.effect);
        std::vector<int> frame(n, 0);
        bool single = true;
        for (int s = 0; s < sets; ++s) {
            auto seen = reach(hGens, root[s]);
            for (int p = 0; p < n; ++p) {
                if (setOf[p] != s) continue;
                int count = 0;
                for (int r = 0; r < m; ++r)
                    if (seen[p][r]) {
                        ++count;
                        frame[p] = r;
                    }
                single = single && count == 1;
            }
        }
        if (!single) {
            // H twists pieces in place: leave the orbit unoriented (the size
            // check against the index says whether that describes H).
            inv.oriented.push_back(false);
            continue;
        }
        // G's orientations from each root: cosets of d Z_m with one d.
        std::vector<std::vector<std::vector<bool>>> gSeen;
        int d = 0;
        bool cosets = true;
        for (int s = 0; s < sets; ++s) {
            gSeen.push_back(reach(gGens, root[s]));
            for (int p = 0; p < n; ++p) {
                int count = 0;
                for (int r = 0; r < m; ++r) count += gSeen[s][p][r];
                if (count == 0) continue;
                if (m % count != 0) cosets = false;
                const int dp = m / std::max(count, 1);
                if (d == 0) d = dp;
                if (dp != d) cosets = false;
            }
        }
        if (!cosets || d <= 0) d = 1;
        // Per-set constants k so that, in the frame f + k, G's orientations are multiples of d.
        std::vector<int> k(sets, 0);
        auto firstReached = [&](int s, int p) {
            for (int r = 0; r < m; ++r)
                if (gSeen[s][p][r]) return r;
            return -1;
        };
        for (int s = 1; s < sets && d > 1; ++s) {
            // The root of set 0 holding... a piece of set s at the root of set 0.
            const int p = root[0];
            const int r = firstReached(s, p);
            if (r < 0) continue;
            // r - (f(p) + k0) + (f(root_s) + k_s) = 0 mod d, f(root_s) = 0, k0 = 0.
            k[s] = ((frame[p] - r) % d + d) % d;
        }
        bool consistent = true;
        for (int s = 0; s < sets && d > 1; ++s)
            for (int p = 0; p < n; ++p)
                for (int r = 0; r < m; ++r)
                    if (gSeen[s][p][r] && ((r - frame[p] - k[setOf[p]] + k[s]) % d + d) % d != 0) consistent = false;
        if (!consistent) {
            d = 1;
            std::fill(k.begin(), k.end(), 0);
        }
        for (int p = 0; p < n; ++p) frame[p] = (frame[p] + k[setOf[p]]) % m;
        inv.frame.back() = frame;
        inv.step.back() = d;
        inv.oriented.push_back(true);
    }
    return inv;
}

// Parity characters (sums over sets of orbits) trivial on H's generators and
// GF(2)-independent on G's moves: each is one more bit of H\G.
std::vector<std::vector<int>> parityCharacters(const ir::Puzzle& puzzle, const std::vector<ir::Element>& generators) {
    const int no = (int)puzzle.orbits.size();
    std::vector<std::vector<int>> result;
    if (no > 12 || puzzle.moves.size() > 4096) return result;
    std::vector<std::vector<int>> moveParity(puzzle.moves.size(), std::vector<int>(no));
    for (size_t m = 0; m < puzzle.moves.size(); ++m)
        for (int o = 0; o < no; ++o) moveParity[m][o] = permParity(puzzle.moves[m].effect.perm[o]);
    std::vector<std::vector<int>> genParity(generators.size(), std::vector<int>(no));
    for (size_t g = 0; g < generators.size(); ++g)
        for (int o = 0; o < no; ++o) genParity[g][o] = permParity(generators[g].perm[o]);
    std::vector<std::vector<bool>> basis;  // reduced vectors over moves, with pivot = first set bit
    for (int subset = 1; subset < (1 << no); ++subset) {
        bool trivialOnH = true;
        for (const auto& gp : genParity) {
            int v = 0;
            for (int o = 0; o < no; ++o)
                if (subset >> o & 1) v ^= gp[o];
            if (v) trivialOnH = false;
        }
        if (!trivialOnH) continue;
        std::vector<bool> vec(puzzle.moves.size());
        for (size_t m = 0; m < puzzle.moves.size(); ++m) {
            int v = 0;
            for (int o = 0; o < no; ++o)
                if (subset >> o & 1) v ^= moveParity[m][o];
            vec[m] = v;
        }
        for (const auto& b : basis) {
            size_t pivot = std::find(b.begin(), b.end(), true) - b.begin();
            if (vec[pivot])
                for (size_t i = 0; i < vec.size(); ++i) vec[i] = vec[i] != b[i];
        }
        if (std::find(vec.begin(), vec.end(), true) == vec.end()) continue;  // constant on G, or implied
        basis.push_back(vec);
        std::vector<int> orbitsInSubset;
        for (int o = 0; o < no; ++o)
            if (subset >> o & 1) orbitsInSubset.push_back(o);
        result.push_back(orbitsInSubset);
    }
    return result;
}

std::string sizeText(const mpz_class& v) { return v.get_str(); }

}  // namespace

CosetCoordinate cosetCoordinate(PuzzleAnalysis& analysis, int subgroup) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    const auto& sub = puzzle.subgroups[subgroup];
    CosetCoordinate c;
    c.subgroup = subgroup;
    const auto& info = analysis.subgroup(subgroup);
    c.index = info.index;
    const bool byInvariants = !sub.keepIn.empty() || !sub.oriented.empty();
    std::vector<ir::Element> generators = byInvariants ? analysis.subgroupGenerators(subgroup) : sub.generators;
    c.invariants = byInvariants ? declaredInvariants(puzzle, sub) : derivedInvariants(puzzle, generators);
    if (byInvariants || !generators.empty()) c.invariants.parities = parityCharacters(puzzle, generators);
    if (!c.invariants.unsupported.empty()) {
        c.problem = c.invariants.unsupported;
        return c;
    }
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        if (c.invariants.setCount[o] > 1) {
            PhasePart part;
            part.kind = PhasePart::Kind::Membership;
            part.orbit = (int)o;
            part.setOf = c.invariants.setOf[o];
            part.sets = c.invariants.setCount[o];
            part.size = 1;
            auto members = setMembers(part);
            int remaining = puzzle.orbits[o].size;
            for (int i = 0; i + 1 < part.sets; ++i) {
                part.size *= choose((unsigned)remaining, (unsigned)members[i].size());
                remaining -= (int)members[i].size();
            }
            c.parts.push_back(part);
        }
        if (c.invariants.oriented[o]) {
            PhasePart part = orientationPart(puzzle, (int)o);
            if (c.invariants.derived && !c.invariants.frame[o].empty()) {
                part.frame = c.invariants.frame[o];
                part.step = c.invariants.step[o];
                const int digits = puzzle.orbits[o].size - (part.sumConstrained ? 1 : 0);
                part.size = 1;
                for (int i = 0; i < digits; ++i) part.size *= (uint64_t)(part.modulus / part.step);
            }
            c.parts.push_back(part);
        }
    }
    for (const auto& orbitsOfParity : c.invariants.parities) {
        PhasePart part;
        part.kind = PhasePart::Kind::Parity;
        part.parityOrbits = orbitsOfParity;
        part.size = 2;
        c.parts.push_back(part);
    }
    c.size = 1;
    for (const auto& p : c.parts) c.size *= mpz_class((unsigned long)p.size);
    c.exact = c.index != 0 && c.size == c.index;
    if (c.index == 0)
        c.problem = "its index is unknown";
    else if (!c.exact)
        c.problem = std::string(c.invariants.derived ? "the invariants derived from its generators" : "its invariants") +
                    " give " + sizeText(c.size) + " cosets, but its index is " + sizeText(c.index) +
                    (c.invariants.derived ? " (it constrains more than which set each piece is in, untwisted orbits "
                                            "and permutation parities, e.g. orientations that depend on positions)"
                                          : "");
    return c;
}

ir::Element referencePartsUnrank(const std::vector<PhasePart>& parts, const std::vector<int>& which,
                                 const std::vector<uint64_t>& values, const std::vector<ir::Orbit>& orbits) {
    // The construction of pz::unrankParts (runtime/include/pz/search/phased.hpp):
    // permutation parts, then parities, then orientations in their frames.
    ir::Element e = ir::identity(orbits);
    for (size_t i = 0; i < which.size(); ++i) {
        const PhasePart& part = parts[which[i]];
        if (part.kind == PhasePart::Kind::Membership) {
            e.perm[part.orbit] = referencePartUnrank(part, values[i], orbits).perm[part.orbit];
        } else if (part.kind == PhasePart::Kind::SetPermutation) {
            const auto t = referencePartUnrank(part, values[i], orbits).perm[part.orbit];
            for (int p : part.positions) e.perm[part.orbit][p] = t[p];
        }
    }
    for (size_t i = 0; i < which.size(); ++i) {
        const PhasePart& part = parts[which[i]];
        if (part.kind != PhasePart::Kind::Parity || referencePartRank(part, e) == values[i]) continue;
        bool fixed = false;
        for (int o : part.parityOrbits) {
            if (fixed) break;
            const PhasePart* sets = nullptr;
            bool permuted = false;
            for (int j : which) {
                if (parts[j].orbit != o) continue;
                if (parts[j].kind == PhasePart::Kind::Membership) sets = &parts[j];
                if (parts[j].kind == PhasePart::Kind::SetPermutation) permuted = true;
            }
            if (permuted) continue;
            auto& perm = e.perm[o];
            const int n = (int)perm.size();
            for (int p = 0; p < n && !fixed; ++p)
                for (int q = p + 1; q < n && !fixed; ++q) {
                    if (sets && sets->setOf[perm[p]] != sets->setOf[perm[q]]) continue;
                    std::swap(perm[p], perm[q]);
                    fixed = true;
                }
        }
    }
    for (size_t i = 0; i < which.size(); ++i) {
        const PhasePart& part = parts[which[i]];
        if (part.kind != PhasePart::Kind::Orientation) continue;
        const auto& perm = e.perm[part.orbit];
        auto& ori = e.ori[part.orbit];
        const int n = (int)ori.size(), m = part.modulus;
        const bool kept = !part.positions.empty();
        const int digits = kept ? (int)part.positions.size() : n - (part.sumConstrained ? 1 : 0);
        const uint64_t radix = (uint64_t)(m / part.step);
        uint64_t rank = values[i];
        int sum = 0;
        for (int d = digits - 1; d >= 0; --d) {
            const int p = kept ? part.positions[d] : d;
            const int x = (int)(rank % radix) * part.step;
            rank /= radix;
            const int f = part.frame.empty() ? 0 : part.frame[p] - part.frame[perm[p]];
            ori[p] = ((x + f) % m + m) % m;
            sum += ori[p];
        }
        if (part.sumConstrained) ori[n - 1] = (m - sum % m) % m;
    }
    return e;
}

namespace {

// note [phase symmetries]: the symmetries that may reduce one phase's
// table: those keeping the phase's target and the group it searches in
// (`groupSubgroup`, -1: the whole group) and mapping its moves to its moves.
// Indices into the symmetry group's elements, the identity first.
std::vector<int> phaseSymmetryCandidates(PuzzleAnalysis& analysis, const PhasePlan& phase, int groupSubgroup) {
    const auto& group = analysis.symmetries();
    const auto& phaseMoves = phase.canon.searchMoves;
    std::vector<int> candidates;
    for (size_t s = 0; s < group.elements.size(); ++s) {
        bool ok = true;
        if (phase.subgroup >= 0) {
            const auto& keep = analysis.subgroupSymmetries(phase.subgroup);
            ok = std::count(keep.begin(), keep.end(), (int)s) > 0;
        }
        if (ok && groupSubgroup >= 0) {
            const auto& keep = analysis.subgroupSymmetries(groupSubgroup);
            ok = std::count(keep.begin(), keep.end(), (int)s) > 0;
        }
        for (int mi : phaseMoves) {
            if (!ok) break;
            const int image = group.moveMap[s][mi];
            ok = image >= 0 && std::count(phaseMoves.begin(), phaseMoves.end(), image) == 1;
        }
        if (ok) candidates.push_back((int)s);
    }
    return candidates;
}

// Whether a candidate symmetry acts on some of a phase's parts as a function
// of their values, tested on random states of the phase's group (random
// walks of its moves) and remembered per (parts, symmetry).
class PhaseSymmetryAction {
public:
    PhaseSymmetryAction(const PuzzleAnalysis& analysis, const SymmetryGroup& group, const PhasePlan& phase,
                        const std::vector<int>& candidates)
        : orbits_(analysis.puzzle().orbits), group_(group), phase_(phase), candidates_(candidates) {
        const ir::Puzzle& puzzle = analysis.puzzle();
        const auto& phaseMoves = phase.canon.searchMoves;
        std::mt19937_64 rng(0x5eed);
        for (int t = 0; t < 48; ++t) {
            ir::Element x = ir::identity(orbits_);
            for (int i = 0; i < 120; ++i)
                x = ir::compose(x, puzzle.moves[phaseMoves[rng() % phaseMoves.size()]].effect, orbits_);
            samples_.push_back(std::move(x));
        }
        for (int s : candidates_) inverses_.push_back(ir::inverse(group_.elements[s], orbits_));
    }

    // Whether candidate c acts on the parts `which`.
    bool actsOn(const std::vector<int>& which, size_t c) {
        auto key = std::make_pair(which, c);
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        bool ok = true;
        try {
            for (const auto& x : samples_) {
                const ir::Element y = referencePartsUnrank(phase_.parts, which, ranks(which, x), orbits_);
                if (ranks(which, y) != ranks(which, x) || ranks(which, conj(x, c)) != ranks(which, conj(y, c))) {
                    ok = false;
                    break;
                }
            }
        } catch (const std::logic_error&) {
            ok = false;  // a conjugate off the coordinate's domain
        }
        return memo_[key] = ok;
    }

private:
    ir::Element conj(const ir::Element& x, size_t c) const {
        return ir::compose(ir::compose(inverses_[c], x, orbits_), group_.elements[candidates_[c]], orbits_);
    }
    std::vector<uint64_t> ranks(const std::vector<int>& which, const ir::Element& e) const {
        std::vector<uint64_t> v;
        for (int j : which) v.push_back(referencePartRank(phase_.parts[j], e));
        return v;
    }

    const std::vector<ir::Orbit>& orbits_;
    const SymmetryGroup& group_;
    const PhasePlan& phase_;
    const std::vector<int>& candidates_;
    std::vector<ir::Element> samples_, inverses_;
    std::map<std::pair<std::vector<int>, size_t>, bool> memo_;
};

// One way to reduce a phase's table: the parts A reduced by the symmetries
// (`reduced`), the parts B beside them (`rest`), the symmetries used
// (indices into the candidates) and the table's entries.
struct PhaseSymmetryChoice {
    std::vector<int> reduced, rest, syms;
    uint64_t reducedSize = 1, restSize = 1, entries = 0;
};

// The choice reducing the parts in `mask` (bit j: part j), or none when it
// does not fit, fewer than two symmetries act, or it adds nothing to the
// phase's pair tables.
std::optional<PhaseSymmetryChoice> phaseSymmetryChoice(const PhasePlan& phase, const std::vector<int>& candidates,
                                                       PhaseSymmetryAction& action, uint32_t mask) {
    const int np = (int)phase.parts.size();
    PhaseSymmetryChoice ch;
    bool fits = true;
    for (int j = 0; j < np; ++j)
        if (mask >> j & 1) {
            ch.reduced.push_back(j);
            if (ch.reducedSize > kMaxPhasePartSize / phase.parts[j].size) fits = false;
            else ch.reducedSize *= phase.parts[j].size;
        }
    if (!fits || ch.reducedSize > kMaxPhasePartSize) return std::nullopt;
    // The symmetries acting on A; then each other part joins B if every
    // one of them acts on it and the table still fits.
    std::vector<size_t> syms;
    for (size_t c = 0; c < candidates.size(); ++c)
        if (c == 0 || action.actsOn(ch.reduced, c)) syms.push_back(c);
    if (syms.size() < 2) return std::nullopt;
    for (int j = 0; j < np; ++j) {
        if (mask >> j & 1) continue;
        std::vector<size_t> kept;
        for (size_t c : syms)
            if (c == 0 || action.actsOn({j}, c)) kept.push_back(c);
        const uint64_t classes = ch.reducedSize / kept.size() + ch.reducedSize / kept.size() / 4 + 1;
        if (kept.size() < syms.size() || ch.restSize * phase.parts[j].size > kMaxPhaseTableEntries / classes)
            continue;
        ch.rest.push_back(j);
        ch.restSize *= phase.parts[j].size;
    }
    if (syms.size() > 64) return std::nullopt;
    for (size_t c : syms) ch.syms.push_back((int)c);
    const uint64_t classes = ch.reducedSize / syms.size() + ch.reducedSize / syms.size() / 4 + 1;
    if (classes * ch.restSize > kMaxPhaseTableEntries) return std::nullopt;
    ch.entries = (ch.reducedSize + syms.size() - 1) / syms.size() * ch.restSize;
    // Useful when it covers parts together that no pair table does, or
    // all of the phase's parts (then it replaces the pair tables).
    std::vector<bool> in(np, false);
    for (int j : ch.reduced) in[j] = true;
    for (int j : ch.rest) in[j] = true;
    bool useful = (int)(ch.reduced.size() + ch.rest.size()) == np;
    for (int i = 0; i < np && !useful; ++i)
        for (int j = i + 1; j < np && !useful; ++j) {
            if (!in[i] || !in[j]) continue;
            bool inPair = false;
            for (const auto& [a, b] : phase.tables) inPair = inPair || (a == i && b == j) || (a == j && b == i);
            useful = !inPair;
        }
    if (!useful) return std::nullopt;
    return ch;
}

// Most parts covered (most information), then fewest entries (the
// same information in less memory), then the smallest A.
bool betterPhaseSymmetryChoice(const PhaseSymmetryChoice& a, const PhaseSymmetryChoice& b) {
    const size_t ca = a.reduced.size() + a.rest.size(), cb = b.reduced.size() + b.rest.size();
    if (ca != cb) return ca > cb;
    if (a.entries != b.entries) return a.entries < b.entries;
    return a.reducedSize < b.reducedSize;
}

// Writes the chosen reduction into the phase: its symmetries (and their
// inverses among them), A and B, and the pair tables it does not cover.
// Nothing when the chosen symmetries turn out not to form a group.
void applyPhaseSymmetryChoice(const SymmetryGroup& group, const std::vector<int>& candidates,
                              const PhaseSymmetryChoice& best, PhasePlan& phase) {
    const int np = (int)phase.parts.size();
    std::vector<bool> covered(np, false);
    for (int j : best.reduced) covered[j] = true;
    for (int j : best.rest) covered[j] = true;
    std::vector<std::pair<int, int>> tables;
    for (const auto& t : phase.tables)
        if (!(covered[t.first] && (t.second < 0 || covered[t.second]))) tables.push_back(t);
    std::vector<int> syms, symInverse;
    for (int c : best.syms) syms.push_back(candidates[c]);
    auto in = [&](int s) { return std::find(syms.begin(), syms.end(), s) != syms.end(); };
    // Those passing form a group (a product of two that act, acts); a
    // random check could in principle disagree: then no reduction.
    for (int a : syms)
        for (int b : syms)
            if (!in(group.product[a][b])) return;
    for (int s : syms)
        symInverse.push_back((int)(std::find(syms.begin(), syms.end(), group.inverse[s]) - syms.begin()));
    phase.tables = tables;
    phase.symmetries = syms;
    phase.symInverse = symInverse;
    phase.reduced = best.reduced;
    phase.rest = best.rest;
    phase.reducedSize = best.reducedSize;
    phase.restSize = best.restSize;
}

// note [phase symmetries]: the symmetry-reduced table of one phase: the
// best choice over every subset A of the phase's parts (at most 12 parts).
// `groupSubgroup`: the subgroup the phase searches in (-1: the whole group).
void choosePhaseSymmetries(PuzzleAnalysis& analysis, PhasePlan& phase, int groupSubgroup) {
    const auto& group = analysis.symmetries();
    if (group.elements.size() < 2 || group.product.empty()) return;
    const std::vector<int> candidates = phaseSymmetryCandidates(analysis, phase, groupSubgroup);
    if (candidates.size() < 2 || candidates[0] != 0) return;
    const int np = (int)phase.parts.size();
    if (np > 12) return;
    PhaseSymmetryAction action(analysis, group, phase, candidates);
    std::optional<PhaseSymmetryChoice> best;
    for (uint32_t mask = 1; mask < (1u << np); ++mask) {
        auto ch = phaseSymmetryChoice(phase, candidates, action, mask);
        if (ch && (!best || betterPhaseSymmetryChoice(*ch, *best))) best = std::move(ch);
    }
    if (best) applyPhaseSymmetryChoice(group, candidates, *best, phase);
}

}  // namespace

PhaseClassCount countPhaseClasses(PuzzleAnalysis& analysis, const PhasePlan& phase) {
    PhaseClassCount out;
    out.values = phase.reducedSize;
    if (phase.symmetries.empty()) return (out.why = "no symmetry-reduced table", out);
    const ir::Puzzle& puzzle = analysis.puzzle();
    const auto& orbits = puzzle.orbits;
    const auto& group = analysis.symmetries();
    const auto& pm = phase.canon.searchMoves;
    const size_t n = pm.size();
    const uint64_t N = phase.reducedSize;
    uint64_t steps = 0;
    for (int j : phase.reduced) steps += phase.parts[j].size * n;
    if (N > kMaxClassCountValues || steps > kMaxClassCountSteps)
        return (out.why = "computed at table build (" + std::to_string(N) + " values)", out);
    // A generating set of the symmetries (closure under the product table).
    std::vector<int> gens;
    std::vector<bool> inGroup(group.elements.size(), false);
    std::vector<int> closure{0};
    inGroup[0] = true;
    for (int s : phase.symmetries) {
        if (inGroup[s]) continue;
        gens.push_back(s);
        for (size_t i = 0; i < closure.size(); ++i)
            for (int g : gens) {
                const int x = group.product[closure[i]][g];
                if (!inGroup[x]) inGroup[x] = true, closure.push_back(x);
            }
    }
    // sigma[g][i]: the phase move equal to S^-1 m_i S.
    std::vector<std::vector<int>> sigma(gens.size(), std::vector<int>(n, -1));
    for (size_t g = 0; g < gens.size(); ++g) {
        const ir::Element& S = group.elements[gens[g]];
        const ir::Element inv = ir::inverse(S, orbits);
        for (size_t i = 0; i < n; ++i) {
            const ir::Element c = ir::compose(ir::compose(inv, puzzle.moves[pm[i]].effect, orbits), S, orbits);
            for (size_t k = 0; k < n && sigma[g][i] < 0; ++k)
                if (puzzle.moves[pm[k]].effect == c) sigma[g][i] = (int)k;
            if (sigma[g][i] < 0) return (out.why = "computed at table build (a symmetry maps a move outside the phase)", out);
        }
    }
    // Move tables of the reduced parts.
    std::vector<std::vector<uint32_t>> table;
    for (int j : phase.reduced) {
        const PhasePart& part = phase.parts[j];
        std::vector<uint32_t> t(part.size * n);
        for (uint64_t v = 0; v < part.size; ++v) {
            const ir::Element x = referencePartUnrank(part, v, orbits);
            for (size_t i = 0; i < n; ++i)
                t[v * n + i] = (uint32_t)referencePartRank(part, ir::compose(x, puzzle.moves[pm[i]].effect, orbits));
        }
        table.push_back(std::move(t));
    }
    const size_t R = phase.reduced.size();
    auto split = [&](uint64_t a, uint32_t* digits) {
        for (size_t q = R; q-- > 0;) {
            digits[q] = (uint32_t)(a % phase.parts[phase.reduced[q]].size);
            a /= phase.parts[phase.reduced[q]].size;
        }
    };
    auto move = [&](const uint32_t* digits, size_t i) {
        uint64_t b = 0;
        for (size_t q = 0; q < R; ++q) b = b * phase.parts[phase.reduced[q]].size + table[q][(uint64_t)digits[q] * n + i];
        return b;
    };
    uint64_t goal = 0;
    for (int j : phase.reduced) goal = goal * phase.parts[j].size + phase.goal[j];
    const size_t G = gens.size();
    std::vector<uint32_t> image(G * N, UINT32_MAX);
    std::vector<bool> seen(N, false);
    std::vector<uint32_t> queue{(uint32_t)goal};
    seen[goal] = true;
    for (size_t g = 0; g < G; ++g) image[g * N + goal] = (uint32_t)goal;  // S^-1 1 S = 1
    std::vector<uint32_t> digits((G + 1) * kMaxPhaseParts);
    for (size_t head = 0; head < queue.size(); ++head) {
        const uint64_t a = queue[head];
        split(a, digits.data());
        for (size_t g = 0; g < G; ++g) split(image[g * N + a], digits.data() + (g + 1) * kMaxPhaseParts);
        for (size_t i = 0; i < n; ++i) {
            const uint64_t b = move(digits.data(), i);
            const bool tree = !seen[b];
            if (tree) {
                seen[b] = true;
                queue.push_back((uint32_t)b);
            }
            if (!tree && head >= kClassCountCheckedValues) continue;
            for (size_t g = 0; g < G; ++g) {
                const uint32_t want = (uint32_t)move(digits.data() + (g + 1) * kMaxPhaseParts, (size_t)sigma[g][i]);
                uint32_t& got = image[g * N + b];
                if (got == UINT32_MAX) got = want;
                else if (got != want) return (out.why = "computed at table build (the symmetries do not follow the moves)", out);
            }
        }
    }
    if (queue.size() != N)
        return (out.why = "computed at table build (" + std::to_string(N - queue.size()) + " of " + std::to_string(N) +
                          " values not reached from the goal)", out);
    // Orbits of the generators.
    std::vector<bool> done(N, false);
    std::vector<uint32_t> stack;
    for (uint64_t a = 0; a < N; ++a) {
        if (done[a]) continue;
        ++out.classes;
        done[a] = true;
        stack.assign(1, (uint32_t)a);
        while (!stack.empty()) {
            const uint64_t x = stack.back();
            stack.pop_back();
            for (size_t g = 0; g < G; ++g) {
                const uint32_t y = image[g * N + x];
                if (!done[y]) done[y] = true, stack.push_back(y);
            }
        }
    }
    return out;
}

namespace {

// The phased runtime (pz/search/phased.hpp, note [phased lanes]) reads 4-bit and
// byte lanes, up to 64 positions (its part arrays and masks): the orbit
// that exceeds it, or "".
std::string phasedLanesLimit(const ir::Puzzle& puzzle) {
    for (const auto& o : puzzle.orbits)
        if (o.size > 64 || o.orient > 128)
            return "orbit '" + o.name + "' has " + std::to_string(o.size) + " positions" +
                   (o.orient > 1 ? " and orientation modulus " + std::to_string(o.orient) : std::string()) +
                   "; phase coordinates handle orbits of at most 64 positions and modulus 128 (4-bit and byte lanes)";
    return "";
}

// note [coset patterns]: one table over the whole coordinate, a single part
// or pair when it fits, which a symmetry-reduced table over every part
// replaces.
template <class Fail>
bool planWholeTable(PuzzleAnalysis& analysis, PhasePlan& phase, Fail&& fail) {
    const int np = (int)phase.parts.size();
    if (np == 0)  // H = G: every state is in H
        return fail("subgroup '" + phase.target + "' is the whole group: its coset coordinate has one value and prunes nothing");
    mpz_class values = 1;
    for (const auto& part : phase.parts) values *= (unsigned long)part.size;
    if (np <= 2 && values <= kMaxPhaseTableEntries) {
        if (np == 1) phase.tables.emplace_back(0, -1);
        else if (phase.parts[0].size >= phase.parts[1].size) phase.tables.emplace_back(0, 1);
        else phase.tables.emplace_back(1, 0);
    }
    choosePhaseSymmetries(analysis, phase, -1);
    const bool symCoversAll = !phase.symmetries.empty() && (int)(phase.reduced.size() + phase.rest.size()) == np;
    if (!(symCoversAll && phase.tables.empty()) && !(phase.symmetries.empty() && phase.tables.size() == 1))
        return fail("the coset coordinate of '" + phase.target + "' has " + values.get_str() + " values in " +
                    std::to_string(np) + " parts; a coset pattern needs one table over all of them, at most " +
                    std::to_string(kMaxPhaseTableEntries) +
                    " entries (after reduction by the symmetries that keep the subgroup and the moves)");
    return true;
}

// note [projected coset patterns]: the parts a projected table keeps and
// its symmetry classes. The subgroup's coordinate without the projected
// orientation parts (the cube: H48's) must take a symmetry-reduced table as
// a plain coset pattern would; the orientation parts join the rest, which
// the runtime ranks from the conjugated state, and the table keeps their
// digits at the named positions only.
template <class Fail>
bool planProjection(PuzzleAnalysis& analysis, const ir::Pattern& pattern, PhasePlan& phase, Fail&& fail) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    const int np = (int)phase.parts.size();
    std::vector<int> projectedPart(np, -1);  // full part -> pattern part that projects it
    for (size_t q = 0; q < pattern.parts.size(); ++q) {
        const auto& pp = pattern.parts[q];
        const std::string orbit = puzzle.orbits[pp.orbit].name;
        int found = -1;
        for (int j = 0; j < np; ++j)
            if (phase.parts[j].kind == PhasePart::Kind::Orientation && phase.parts[j].orbit == pp.orbit) found = j;
        if (found < 0)
            return fail("subgroup '" + phase.target + "' does not keep the orientation of '" + orbit +
                        "', so its coset coordinate has no orientations of '" + orbit + "' to keep");
        if (projectedPart[found] >= 0) return fail("two parts name the orientations of '" + orbit + "'");
        if (pp.pieces.size() > kMaxKeptOrientations)
            return fail("the part keeps " + std::to_string(pp.pieces.size()) + " orientations of '" + orbit +
                        "', over the limit of " + std::to_string(kMaxKeptOrientations));
        projectedPart[found] = (int)q;
    }
    // The base: every part but the projected ones.
    PhasePlan base = phase;
    base.parts.clear();
    base.goal.clear();
    std::vector<int> fullIndex;
    for (int j = 0; j < np; ++j)
        if (projectedPart[j] < 0) {
            fullIndex.push_back(j);
            base.parts.push_back(phase.parts[j]);
            base.goal.push_back(phase.goal[j]);
        }
    if (base.parts.empty())
        return fail("the coset coordinate of '" + phase.target +
                    "' has nothing besides the orientations kept; a projected coset pattern reduces its other parts "
                    "by symmetry");
    choosePhaseSymmetries(analysis, base, -1);
    if (base.symmetries.empty() || base.reduced.size() + base.rest.size() != base.parts.size())
        return fail("the coset coordinate of '" + phase.target +
                    "' without the orientations kept has no symmetry-reduced table (a projected coset pattern "
                    "needs one: symmetries that keep the subgroup and the moves, acting on the parts)");
    phase.symmetries = base.symmetries;
    phase.symInverse = base.symInverse;
    phase.reduced.clear();
    phase.rest.clear();
    for (int j : base.reduced) phase.reduced.push_back(fullIndex[j]);
    for (int j = 0; j < np; ++j)
        if (std::count(phase.reduced.begin(), phase.reduced.end(), j) == 0) phase.rest.push_back(j);
    phase.reducedSize = base.reducedSize;
    phase.restSize = 1;
    mpz_class keys = phase.reducedSize, entries = (phase.reducedSize + phase.symmetries.size() - 1) / phase.symmetries.size();
    for (int j : phase.rest) {
        PhasePart kept = phase.parts[j];
        keys *= (unsigned long)kept.size;
        if (projectedPart[j] >= 0) {
            kept.positions = pattern.parts[projectedPart[j]].pieces;
            kept.sumConstrained = false;
            kept.size = 1;
            for (size_t i = 0; i < kept.positions.size(); ++i) kept.size *= (uint64_t)(kept.modulus / kept.step);
        }
        entries *= (unsigned long)kept.size;
        phase.restSize *= kept.size;
        phase.kept.push_back(std::move(kept));
    }
    if (keys > mpz_class(1) << 62)
        return fail("the coset coordinate of '" + phase.target + "' has " + keys.get_str() +
                    " values; a projected coset pattern's build keys them in 62 bits");
    if (entries > mpz_class(kMaxProjectedTableEntries))
        return fail("the table keeps about " + entries.get_str() + " entries, over the limit of " +
                    std::to_string(kMaxProjectedTableEntries) + " for a projected coset pattern");
    return true;
}

}  // namespace

uint64_t cosetPatternClasses(const PhasePlan& plan, const PhaseClassCount& classes) {
    const uint64_t n = plan.symmetries.size();
    return n == 0 ? 0 : classes.classes ? classes.classes : (plan.reducedSize + n - 1) / n;
}

uint64_t cosetPatternEntries(const PhasePlan& plan, const PhaseClassCount& classes) {
    if (plan.symmetries.empty()) return plan.tableEntries(0);
    return cosetPatternClasses(plan, classes) * plan.restSize;
}

uint64_t cosetPatternTableBytes(const PhasePlan& plan, const PhaseClassCount& classes) {
    const uint64_t n = plan.symmetries.size();
    const uint64_t classCount = cosetPatternClasses(plan, classes);
    if (!plan.kept.empty()) return ProjectedCosetLayout::words(plan.reducedSize, classCount, plan.restSize) * 8;
    // A plain table is a one-phase blob of the phased solvers' kind.
    PhasedLayoutPhase phase;
    phase.moves = plan.moves.size();
    for (const auto& part : plan.parts) phase.partSizes.push_back(part.size);
    phase.tables = plan.tables;
    phase.symmetries = n;
    phase.reduced = plan.reduced;
    phase.rest = plan.rest;
    phase.classes = classCount;
    return phasedBlobWords({phase}) * 8;
}

bool buildCosetPatternPlan(PuzzleAnalysis& analysis, int patternIndex, const std::vector<int>& searchMoves,
                           PhasePlan& out, DiagnosticEngine& diags) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    const auto& pattern = puzzle.patterns[patternIndex];
    out = {};
    auto fail = [&](const std::string& msg) {
        diags.error(puzzle.file, pattern.where, "coset pattern '" + pattern.name + "': " + msg);
        return false;
    };
    if (pattern.cosetSubgroup < 0) return fail("not a coset pattern");
    if (hasIdenticalPieces(puzzle))
        return fail("the puzzle has identical pieces; coset coordinates need distinct pieces");
    if (auto why = phasedLanesLimit(puzzle); !why.empty()) return fail(why);
    // The table is a breadth-first search from H with the moves forward: the
    // distance from H to a coset, which is the distance back to H only when
    // every move's inverse is a move too.
    for (int mi : searchMoves) {
        const int inv = analysis.inverseMove()[mi];
        if (inv < 0 || std::count(searchMoves.begin(), searchMoves.end(), inv) != 1)
            return fail("move '" + puzzle.moves[mi].name +
                        "' has no inverse in the metric; a coset pattern needs every move's inverse to be a move "
                        "(its table is searched from the subgroup outwards)");
    }
    PhasePlan phase;
    phase.subgroup = pattern.cosetSubgroup;
    phase.target = puzzle.subgroups[pattern.cosetSubgroup].name;
    phase.exactDepth = pattern.exactDepth;
    for (size_t i = 0; i < searchMoves.size(); ++i) phase.moves.push_back((int)i);
    phase.canon = buildCanonicalAutomaton(puzzle, analysis);
    if (phase.canon.searchMoves != searchMoves) return fail("the search moves and the automaton's differ");
    CosetCoordinate c = cosetCoordinate(analysis, pattern.cosetSubgroup);
    if (!c.exact) return fail("no coset coordinate for subgroup '" + phase.target + "': " + c.problem);
    phase.parts = c.parts;
    if (phase.parts.size() > kMaxPhaseParts)
        return fail("the coset coordinate of '" + phase.target + "' has " + std::to_string(phase.parts.size()) +
                    " parts, over the limit of " + std::to_string(kMaxPhaseParts));
    for (const auto& part : phase.parts)
        if (part.size > kMaxPhasePartSize)
            return fail("the coset coordinate of '" + phase.target + "' has the part '" + part.describe(puzzle) +
                        "' with " + std::to_string(part.size) + " values, over the limit of " +
                        std::to_string(kMaxPhasePartSize));
    const ir::Element solved = ir::identity(puzzle.orbits);
    for (const auto& part : phase.parts) phase.goal.push_back(referencePartRank(part, solved));
    const bool planned = pattern.parts.empty() ? planWholeTable(analysis, phase, fail)
                                               : planProjection(analysis, pattern, phase, fail);
    if (!planned) return false;
    phase.lookups = symmetryCosetRepresentatives(analysis, phase.subgroup, searchMoves, kMaxCosetPatternLookups);
    // note [moves in the subgroup]: S^-1 m S is the move moveMap[S^-1][m].
    const auto& group = analysis.symmetries();
    for (int sym : phase.lookups) {
        std::vector<int> inside;
        for (size_t i = 0; i < searchMoves.size(); ++i) {
            const int conj = group.moveMap.empty() ? searchMoves[i] : group.moveMap[group.inverse[sym]][searchMoves[i]];
            if (conj < 0) continue;
            bool in = true;
            for (size_t j = 0; j < phase.parts.size() && in; ++j)
                in = referencePartRank(phase.parts[j], puzzle.moves[conj].effect) == phase.goal[j];
            if (in) inside.push_back((int)i);
        }
        phase.lookupMovesInSubgroup.push_back(std::move(inside));
    }
    out = std::move(phase);
    return true;
}

std::vector<int> symmetryCosetRepresentatives(PuzzleAnalysis& analysis, int subgroup, const std::vector<int>& searchMoves,
                                              size_t limit) {
    const auto& group = analysis.symmetries();
    if (group.product.empty()) return {0};
    const auto& keep = analysis.subgroupSymmetries(subgroup);
    std::vector<bool> covered(group.elements.size(), false);
    std::vector<int> representatives;
    for (size_t sym = 0; sym < group.elements.size() && representatives.size() < limit; ++sym) {
        if (covered[sym]) continue;
        bool mapsMoves = true;
        for (int mi : searchMoves) {
            const int image = group.moveMap[sym][mi];
            mapsMoves = mapsMoves && image >= 0 && std::count(searchMoves.begin(), searchMoves.end(), image) == 1;
        }
        if (!mapsMoves) continue;
        representatives.push_back((int)sym);
        for (int k : keep) covered[group.product[sym][k]] = true;
    }
    return representatives;
}

uint64_t PhasePlan::tableEntries(size_t t) const {
    const auto& [a, b] = tables[t];
    return parts[a].size * (b < 0 ? 1 : parts[b].size);
}

bool buildSolverPlan(PuzzleAnalysis& analysis, int solverIndex, const std::vector<int>& searchMoves, SolverPlan& out,
                     DiagnosticEngine& diags) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    const auto& solver = puzzle.solvers[solverIndex];
    out = {};
    out.solver = solver.name;
    auto fail = [&](const std::string& msg) {
        diags.error(puzzle.file, solver.where, "phased solver '" + solver.name + "': " + msg);
        return false;
    };
    if (solver.kind != ir::Solver::Kind::Phased) return fail("not a phased solver");
    if (hasIdenticalPieces(puzzle))  // the phase coordinates read pieces, not labels
        return fail("the puzzle has identical pieces; phased solvers need distinct pieces (use an optimal solver)");
    if (!puzzle.illegal.empty())  // its phase searches and tables do not know them
        return fail("the puzzle has illegal placements; phased solvers do not avoid them (use an optimal solver)");
    if (auto why = phasedLanesLimit(puzzle); !why.empty()) return fail(why);
    std::vector<int> targets = solver.phases;
    targets.push_back(-1);  // solved
    int previous = -1;
    SubgroupInvariants previousInvariants;
    for (size_t k = 0; k < targets.size(); ++k) {
        PhasePlan phase;
        phase.subgroup = targets[k];
        phase.target = targets[k] < 0 ? "solved" : puzzle.subgroups[targets[k]].name;
        // The phase's moves: all, or those in the previous target.
        ir::Puzzle restricted = puzzle;
        for (auto& mv : restricted.moves) mv.inMetric = false;
        for (size_t i = 0; i < searchMoves.size(); ++i) {
            const int mi = searchMoves[i];
            bool in = true;
            if (previous >= 0) {
                auto member = analysis.subgroupContains(previous, puzzle.moves[mi].effect);
                if (!member)
                    return fail("cannot decide which moves lie in subgroup '" + puzzle.subgroups[previous].name + "'");
                in = *member;
            }
            if (in) {
                phase.moves.push_back((int)i);
                restricted.moves[mi].inMetric = true;
            }
        }
        if (phase.moves.empty())
            return fail("no move of the metric lies in subgroup '" + puzzle.subgroups[previous].name + "'");
        if (previous >= 0) {
            // The phase's moves must generate the previous target, or some of
            // its states could not be finished.
            PointAction points(puzzle.orbits);
            StabilizerChain chain(points.pointCount());
            for (int i : phase.moves) chain.addGenerator(points.toPoints(puzzle.moves[searchMoves[i]].effect));
            const auto& info = analysis.subgroup(previous);
            if (chain.order() != info.order)
                return fail("the moves in subgroup '" + puzzle.subgroups[previous].name + "' generate a group of order " +
                            chain.order().get_str() + ", not all of it (order " + info.order.get_str() + ")");
        }
        PuzzleAnalysis restrictedAnalysis(restricted);
        phase.canon = buildCanonicalAutomaton(restricted, restrictedAnalysis);
        // The phase's coordinate.
        if (targets[k] >= 0) {
            CosetCoordinate c = cosetCoordinate(analysis, targets[k]);
            if (!c.exact)
                return fail("no coset coordinate for subgroup '" + phase.target + "': " + c.problem);
            phase.parts = c.parts;
            previousInvariants = c.invariants;
        } else {
            for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
                const int n = puzzle.orbits[o].size;
                std::vector<std::vector<int>> sets;
                if (previous < 0) {
                    sets.emplace_back(n);
                    std::iota(sets[0].begin(), sets[0].end(), 0);
                } else {
                    sets.resize(previousInvariants.setCount[o]);
                    for (int p = 0; p < n; ++p) sets[previousInvariants.setOf[o][p]].push_back(p);
                }
                for (const auto& s : sets) {
                    if (s.size() < 2) continue;
                    PhasePart part;
                    part.kind = PhasePart::Kind::SetPermutation;
                    part.orbit = (int)o;
                    part.positions = s;
                    part.size = s.size() > 20 ? ~0ull : factorialU((unsigned)s.size());
                    phase.parts.push_back(part);
                }
                const bool oriented = previous >= 0 && previousInvariants.oriented[o];
                if (puzzle.orbits[o].orient > 1 && !oriented) phase.parts.push_back(orientationPart(puzzle, (int)o));
            }
        }
        if (phase.parts.size() > kMaxPhaseParts)
            return fail("phase " + std::to_string(k + 1) + " (to " + phase.target + ") needs " +
                        std::to_string(phase.parts.size()) + " coordinate parts, over the limit of " +
                        std::to_string(kMaxPhaseParts));
        for (const auto& part : phase.parts)
            if (part.size > kMaxPhasePartSize)
                return fail("phase " + std::to_string(k + 1) + " (to " + phase.target + ") needs the coordinate part '" +
                            part.describe(puzzle) + "' with " +
                            (part.size == ~0ull ? std::string("more than 2^64") : std::to_string(part.size)) +
                            " values, over the limit of " + std::to_string(kMaxPhasePartSize));
        const ir::Element solved = ir::identity(puzzle.orbits);
        for (const auto& part : phase.parts) phase.goal.push_back(referencePartRank(part, solved));
        // Pruning tables: every pair of parts whose product fits the limit
        // (smaller products first), and alone each part in no pair.
        std::vector<std::pair<int, int>> pairs;
        const int np = (int)phase.parts.size();
        for (int i = 0; i < np; ++i)
            for (int j = i + 1; j < np; ++j)
                if (phase.parts[i].size * phase.parts[j].size <= kMaxPhaseTableEntries) pairs.emplace_back(i, j);
        std::stable_sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
            return phase.parts[x.first].size * phase.parts[x.second].size <
                   phase.parts[y.first].size * phase.parts[y.second].size;
        });
        std::vector<bool> covered(np, false);
        for (const auto& [i, j] : pairs) {
            // The larger part first: it indexes the table's rows.
            if (phase.parts[i].size >= phase.parts[j].size)
                phase.tables.emplace_back(i, j);
            else
                phase.tables.emplace_back(j, i);
            covered[i] = covered[j] = true;
        }
        for (int i = 0; i < np; ++i)
            if (!covered[i]) phase.tables.emplace_back(i, -1);
        choosePhaseSymmetries(analysis, phase, previous);
        out.phases.push_back(std::move(phase));
        previous = targets[k];
    }
    // Directions: symmetry coset representatives, and inverses.
    const std::vector<int> representatives =
        solver.phases.empty() ? std::vector<int>{0}
                              : symmetryCosetRepresentatives(analysis, solver.phases[0], searchMoves, kMaxPhaseDirections);
    bool inverses = true;
    for (int mi : searchMoves) {
        const int inv = analysis.inverseMove()[mi];
        inverses = inverses && inv >= 0 && std::count(searchMoves.begin(), searchMoves.end(), inv) == 1;
    }
    for (int sym : representatives)
        for (int inverse = 0; inverse <= (inverses ? 1 : 0); ++inverse)
            if (out.directions.size() < kMaxPhaseDirections) out.directions.push_back({sym, inverse == 1});
    return true;
}

}  // namespace pz::analysis
