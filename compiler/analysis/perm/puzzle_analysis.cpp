#include "compiler/analysis/perm/puzzle_analysis.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

#include "compiler/ir/element.hpp"

namespace pz::analysis {

namespace {

// The symmetry closure is a finite group, but a definition could declare
// symmetries that generate a huge one; stop with a diagnostic instead.
constexpr size_t kMaxSymmetries = 100000;
// [P : P ∩ G] for an invariant-defined subgroup is at most [W : G], small for
// real puzzles; a bound keeps a pathological definition from running away.
constexpr size_t kMaxInvariantCosets = 4000000;
// Schreier generators sifted into an invariant subgroup's chain; beyond this
// the subgroup keeps its order but has no membership test.
constexpr size_t kMaxSchreierGenerators = 20000;

std::vector<int> elementKey(const ir::Element& e) {
    std::vector<int> key{e.mirror ? 1 : 0};
    for (const auto& p : e.perm) key.insert(key.end(), p.begin(), p.end());
    for (const auto& o : e.ori) key.insert(key.end(), o.begin(), o.end());
    return key;
}

struct PermHash {
    size_t operator()(const Perm& p) const {
        uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (int x : p) h = (h ^ (uint64_t)x) * 0x100000001b3ULL;
        return (size_t)(h ^ (h >> 29));
    }
};

mpz_class factorial(long n) {
    mpz_class r;
    mpz_fac_ui(r.get_mpz_t(), (unsigned long)n);
    return r;
}

std::string positionName(const ir::Orbit& orbit, int p) {
    if (p >= 0 && p < (int)orbit.positionNames.size()) return orbit.positionNames[p];
    return std::to_string(p);
}

}  // namespace

static std::atomic<long> analysesConstructed{0};

long PuzzleAnalysis::constructed() { return analysesConstructed.load(); }

PuzzleAnalysis::PuzzleAnalysis(const ir::Puzzle& puzzle) : puzzle_(puzzle), points_(puzzle.orbits) {
    ++analysesConstructed;
    for (size_t m = 0; m < puzzle_.moves.size(); ++m) {
        const auto& e = puzzle_.moves[m].effect;
        if (e.mirror) continue;
        moveIndex_.emplace(std::make_pair(e.perm, e.ori), (int)m);  // first wins
    }
}

std::optional<int> PuzzleAnalysis::findMove(const ir::Element& e) const {
    if (e.mirror) return std::nullopt;
    auto it = moveIndex_.find(std::make_pair(e.perm, e.ori));
    if (it == moveIndex_.end()) return std::nullopt;
    return it->second;
}

const std::vector<long>& PuzzleAnalysis::familyOrders() {
    if (!familyOrders_) {
        std::vector<long> orders;
        for (const auto& f : puzzle_.families) orders.push_back(ir::order(f.base, puzzle_.orbits));
        familyOrders_ = std::move(orders);
    }
    return *familyOrders_;
}

const std::vector<int>& PuzzleAnalysis::inverseMove() {
    if (!inverseMove_) {
        std::vector<int> inv;
        for (const auto& m : puzzle_.moves) {
            auto found = findMove(ir::inverse(m.effect, puzzle_.orbits));
            inv.push_back(found ? *found : -1);
        }
        inverseMove_ = std::move(inv);
    }
    return *inverseMove_;
}

namespace {

// The positions an element moves or twists, per orbit.
std::vector<std::vector<int>> support(const ir::Element& e) {
    std::vector<std::vector<int>> s(e.perm.size());
    for (size_t o = 0; o < e.perm.size(); ++o)
        for (size_t p = 0; p < e.perm[o].size(); ++p)
            if (e.perm[o][p] != (int)p || e.ori[o][p] != 0) s[o].push_back((int)p);
    return s;
}

// a b = b a, checked on the union of the supports only (elsewhere both are
// the identity): O(|supports|) instead of O(positions), so that thousands of
// small moves of a big orbit stay cheap. Mirror elements are compared whole.
bool commuteOn(const ir::Element& a, const std::vector<std::vector<int>>& sa, const ir::Element& b,
               const std::vector<std::vector<int>>& sb, const std::vector<ir::Orbit>& orbits) {
    if (a.mirror || b.mirror) return ir::compose(a, b, orbits) == ir::compose(b, a, orbits);
    for (size_t o = 0; o < orbits.size(); ++o) {
        const int m = orbits[o].orient;
        // (a then b) at p: the piece from a.perm[b.perm[p]], twist a.ori[b.perm[p]] + b.ori[p].
        auto check = [&](int p) {
            const int ab = a.perm[o][b.perm[o][p]], ba = b.perm[o][a.perm[o][p]];
            if (ab != ba) return false;
            return (a.ori[o][b.perm[o][p]] + b.ori[o][p]) % m == (b.ori[o][a.perm[o][p]] + a.ori[o][p]) % m;
        };
        for (int p : sa[o])
            if (!check(p)) return false;
        for (int p : sb[o])
            if (!check(p)) return false;
    }
    return true;
}

}  // namespace

const std::vector<std::vector<bool>>& PuzzleAnalysis::commutes() {
    if (!commutes_) {
        const auto& moves = puzzle_.moves;
        const size_t n = moves.size();
        std::vector<std::vector<std::vector<int>>> supports;
        for (const auto& m : moves) supports.push_back(support(m.effect));
        std::vector<std::vector<bool>> c(n, std::vector<bool>(n, false));
        for (size_t a = 0; a < n; ++a)
            for (size_t b = a; b < n; ++b) {
                bool same = commuteOn(moves[a].effect, supports[a], moves[b].effect, supports[b], puzzle_.orbits);
                c[a][b] = c[b][a] = same;
            }
        commutes_ = std::move(c);
    }
    return *commutes_;
}

bool PuzzleAnalysis::sameFamily(int move1, int move2) const {
    return puzzle_.moves[move1].family == puzzle_.moves[move2].family;
}

const std::vector<std::vector<int>>& PuzzleAnalysis::commutationClasses() {
    if (!commutationClasses_) {
        // Union-find over families linked by commuting generators.
        const size_t nf = puzzle_.families.size();
        std::vector<int> parent(nf);
        std::iota(parent.begin(), parent.end(), 0);
        auto find = [&](int x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        std::vector<std::vector<std::vector<int>>> supports;
        for (const auto& f : puzzle_.families) supports.push_back(support(f.base));
        for (size_t f = 0; f < nf; ++f)
            for (size_t g = f + 1; g < nf; ++g) {
                const auto& a = puzzle_.families[f].base;
                const auto& b = puzzle_.families[g].base;
                if (commuteOn(a, supports[f], b, supports[g], puzzle_.orbits)) parent[find((int)g)] = find((int)f);
            }
        std::vector<std::vector<int>> classes;
        std::vector<int> classOf(nf, -1);
        for (size_t f = 0; f < nf; ++f) {
            int root = find((int)f);
            if (classOf[root] < 0) {
                classOf[root] = (int)classes.size();
                classes.emplace_back();
            }
            classes[classOf[root]].push_back((int)f);
        }
        commutationClasses_ = std::move(classes);
    }
    return *commutationClasses_;
}

// One block per position with its orbit's orientation modulus: the points of
// PointAction, grouped as note [blocks] in schreier_sims.hpp expects.
std::vector<int> PuzzleAnalysis::blockModuli() const {
    std::vector<int> moduli;
    for (const auto& o : puzzle_.orbits) moduli.insert(moduli.end(), (size_t)o.size, o.orient);
    return moduli;
}

StabilizerChain& PuzzleAnalysis::chain() {
    if (!chain_) {
        chain_ = std::make_unique<StabilizerChain>(blockModuli());
        for (const auto& f : puzzle_.families) chain_->addGenerator(points_.toPoints(f.base));
    }
    return *chain_;
}

const mpz_class& PuzzleAnalysis::groupOrder() {
    if (!groupOrder_) groupOrder_ = chain().order();
    return *groupOrder_;
}

bool PuzzleAnalysis::contains(const ir::Element& e) {
    if (e.mirror) return false;
    return chain().contains(points_.toPoints(e));
}

ir::Element PuzzleAnalysis::randomElement(std::mt19937_64& rng) {
    return points_.toElement(chain().randomElement(rng));
}

const SymmetryGroup& PuzzleAnalysis::symmetries() {
    if (symmetries_) return *symmetries_;
    const auto& orbits = puzzle_.orbits;
    SymmetryGroup group;
    std::map<std::vector<int>, int> indexOf;
    auto add = [&](ir::Element e, std::string name) {
        auto [it, inserted] = indexOf.emplace(elementKey(e), (int)group.elements.size());
        if (inserted) {
            group.elements.push_back(std::move(e));
            group.names.push_back(std::move(name));
        }
        return it->second;
    };
    add(ir::identity(orbits), "");
    // Breadth first, so every name is a shortest word in the declared names.
    for (size_t i = 0; i < group.elements.size() && group.elements.size() <= kMaxSymmetries; ++i)
        for (const auto& s : puzzle_.symmetries) {
            ir::Element next = ir::compose(group.elements[i], s.effect, orbits);
            std::string name = group.names[i].empty() ? s.name : group.names[i] + " " + s.name;
            add(std::move(next), std::move(name));
        }
    const size_t n = group.elements.size();
    if (n > kMaxSymmetries) {
        // Too large to tabulate: keep the identity only (check() reports it).
        group.elements.resize(1);
        group.names.resize(1);
        indexOf.clear();
        indexOf.emplace(elementKey(group.elements[0]), 0);
    }
    auto lookup = [&](const ir::Element& e) {
        auto it = indexOf.find(elementKey(e));
        return it == indexOf.end() ? -1 : it->second;
    };
    for (const auto& s : puzzle_.symmetries) group.declared.push_back(lookup(s.effect));
    for (const auto& e : group.elements) {
        ir::Element inv = ir::inverse(e, orbits);
        group.inverse.push_back(lookup(inv));
        std::vector<int> map;
        for (const auto& m : puzzle_.moves) {
            auto found = findMove(ir::compose(ir::compose(e, m.effect, orbits), inv, orbits));
            map.push_back(found ? *found : -1);
        }
        group.moveMap.push_back(std::move(map));
    }
    if (group.elements.size() <= 4096) {
        for (const auto& a : group.elements) {
            std::vector<int> row;
            for (const auto& b : group.elements) row.push_back(lookup(ir::compose(a, b, orbits)));
            group.product.push_back(std::move(row));
        }
    }
    symmetries_ = std::move(group);
    return *symmetries_;
}

// ---- subgroups ----
//
// note [invariant subgroups]
// A subgroup given by invariants ("corners in {..} {..}; corners oriented")
// is H = G ∩ P, where G = <moves> and P = every element keeping the
// invariants: within each orbit, pieces stay inside their sets (positions
// not in any set form one more set) and pieces on oriented positions keep
// orientation 0. P is easy: the product over sets of (|set|! times
// orient^|set| unless the set is oriented), generated by a transposition and
// a full cycle of each set and one twist per unoriented set. Oriented
// positions must be whole sets, or P would not be a group.
//
// |H| = |P| / [P : P ∩ G], and [P : P ∩ G] is the number of right cosets
// G x with x in P, at most [W : G] for the full wreath product W, i.e. tiny
// for real puzzles (12 for the cube, 2^17 for rotate4o). The cosets are
// enumerated from G by P's generators, each named by its canonical
// representative from G's stabiliser chain
// (StabilizerChain::canonicalCosetRepresentative).

PuzzleAnalysis::InvariantGroup PuzzleAnalysis::invariantGroup(int index) const {
    const auto& sub = puzzle_.subgroups[index];
    const auto& orbits = puzzle_.orbits;
    InvariantGroup result;
    result.order = 1;
    for (size_t o = 0; o < orbits.size(); ++o) {
        const auto& orbit = orbits[o];
        // The sets of this orbit; uncovered positions form one more set.
        std::vector<int> setOf(orbit.size, -1);
        std::vector<std::vector<int>> sets;
        for (const auto& keep : sub.keepIn) {
            if (keep.orbit != (int)o) continue;
            for (const auto& s : keep.sets) {
                for (int p : s) {
                    if (setOf[p] >= 0) {
                        result.error = "position " + positionName(orbit, p) + " of orbit '" + orbit.name +
                                       "' is in two sets of subgroup '" + sub.name + "'";
                        return result;
                    }
                    setOf[p] = (int)sets.size();
                }
                sets.push_back(s);
            }
        }
        std::vector<int> rest;
        for (int p = 0; p < orbit.size; ++p)
            if (setOf[p] < 0) {
                setOf[p] = (int)sets.size();
                rest.push_back(p);
            }
        if (!rest.empty()) sets.push_back(rest);
        // Positions whose orientation is fixed: must be a union of sets, or
        // the elements keeping them oriented would not form a group.
        std::vector<bool> oriented(orbit.size, false);
        for (const auto& [orb, positions] : sub.oriented) {
            if (orb != (int)o) continue;
            if (positions.empty()) std::fill(oriented.begin(), oriented.end(), true);
            for (int p : positions) oriented[p] = true;
        }
        for (const auto& s : sets)
            for (int p : s)
                if (oriented[p] != oriented[s[0]]) {
                    result.error = "the oriented positions of orbit '" + orbit.name + "' in subgroup '" +
                                   sub.name + "' must be whole sets (position " + positionName(orbit, p) +
                                   " and " + positionName(orbit, s[0]) + " share a set)";
                    return result;
                }
        for (const auto& s : sets) {
            const int k = (int)s.size();
            result.order *= factorial(k);
            auto base = ir::identity(orbits);
            if (k >= 2) {
                auto swap = base;
                swap.perm[o][s[0]] = s[1];
                swap.perm[o][s[1]] = s[0];
                result.generators.push_back(swap);
            }
            if (k >= 3) {
                auto cycle = base;
                for (int i = 0; i < k; ++i) cycle.perm[o][s[(i + 1) % k]] = s[i];
                result.generators.push_back(cycle);
            }
            if (orbit.orient > 1 && !oriented[s[0]]) {
                mpz_class twists;
                mpz_ui_pow_ui(twists.get_mpz_t(), (unsigned long)orbit.orient, (unsigned long)k);
                result.order *= twists;
                auto twist = base;
                twist.ori[o][s[0]] = 1;
                result.generators.push_back(twist);
            }
        }
    }
    return result;
}

bool PuzzleAnalysis::satisfiesInvariants(int index, const ir::Element& e) const {
    if (e.mirror) return false;
    InvariantGroup inv = invariantGroup(index);
    if (!inv.error.empty()) return false;
    const auto& sub = puzzle_.subgroups[index];
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o) {
        const auto& orbit = puzzle_.orbits[o];
        std::vector<int> setOf(orbit.size, -1);
        int next = 0;
        for (const auto& keep : sub.keepIn)
            if (keep.orbit == (int)o)
                for (const auto& s : keep.sets) {
                    for (int p : s) setOf[p] = next;
                    ++next;
                }
        for (int p = 0; p < orbit.size; ++p)
            if (setOf[p] != setOf[e.perm[o][p]]) return false;
        for (const auto& [orb, positions] : sub.oriented) {
            if (orb != (int)o) continue;
            if (positions.empty()) {
                for (int p = 0; p < orbit.size; ++p)
                    if (e.ori[o][p] != 0) return false;
            }
            for (int p : positions)
                if (e.ori[o][p] != 0) return false;
        }
    }
    return true;
}

SubgroupInfo PuzzleAnalysis::computeSubgroup(int index) {
    const auto& sub = puzzle_.subgroups[index];
    SubgroupInfo info;
    const bool hasInvariants = !sub.keepIn.empty() || !sub.oriented.empty();
    auto h = std::make_unique<StabilizerChain>(blockModuli());
    if (!sub.generators.empty()) {
        for (const auto& g : sub.generators) {
            h->addGenerator(points_.toPoints(g));
            if (!contains(g)) info.generatorsInGroup = false;
            if (hasInvariants && !satisfiesInvariants(index, g)) info.invariantsHold = false;
        }
        info.order = h->order();
    } else {
        // See note [invariant subgroups]. Each coset G x keeps the element x
        // of P that reached it; x g rep(x g)^-1 are Schreier generators of
        // P ∩ G, sifted into H's chain while they stay few.
        InvariantGroup p = invariantGroup(index);
        if (!p.error.empty()) {
            info.order = 0;
            info.index = 0;
            info.invariantsHold = false;
            subgroupChains_[index] = nullptr;
            return info;
        }
        const StabilizerChain& g = chain();
        std::vector<Perm> gens;
        for (const auto& e : p.generators) gens.push_back(points_.toPoints(e));
        std::unordered_map<Perm, int, PermHash> cosetOf;
        std::vector<Perm> reached;  // reached[c] = an element of P in coset c
        std::vector<Perm> inverseReached;
        auto addCoset = [&](Perm canonical, Perm x) {
            cosetOf.emplace(std::move(canonical), (int)reached.size());
            inverseReached.push_back(inversePerm(x));
            reached.push_back(std::move(x));
        };
        addCoset(g.canonicalCosetRepresentative(identityPerm(points_.pointCount())), identityPerm(points_.pointCount()));
        size_t schreierCount = 0;
        bool buildChain = true;
        for (size_t c = 0; c < reached.size() && reached.size() <= kMaxInvariantCosets; ++c) {
            for (const auto& gen : gens) {
                Perm y = composePerm(reached[c], gen);
                Perm canonical = g.canonicalCosetRepresentative(y);
                auto it = cosetOf.find(canonical);
                if (it == cosetOf.end()) {
                    addCoset(std::move(canonical), std::move(y));
                } else if (buildChain) {
                    if (++schreierCount > kMaxSchreierGenerators) {
                        buildChain = false;
                        continue;
                    }
                    h->addGenerator(composePerm(y, inverseReached[it->second]));
                }
            }
        }
        if (reached.size() > kMaxInvariantCosets) {
            info.order = 0;
            info.index = 0;
            info.invariantsHold = false;
            subgroupChains_[index] = nullptr;
            return info;
        }
        info.order = p.order / mpz_class((unsigned long)reached.size());
        if (!buildChain) h.reset();
        // The Schreier generators generate P ∩ G, whose order the coset count
        // proves: the chain may stop as soon as it reaches it.
        if (h) h->setKnownOrder(info.order);
        if (h && h->order() != info.order)
            throw std::logic_error("subgroup '" + sub.name + "': the Schreier generators give order " +
                                   h->order().get_str() + ", the coset count " + info.order.get_str());
    }
    subgroupChains_[index] = std::move(h);
    const mpz_class& whole = groupOrder();
    info.index = info.generatorsInGroup && info.order != 0 ? mpz_class(whole / info.order) : mpz_class(0);
    return info;
}

const SubgroupInfo& PuzzleAnalysis::subgroup(int index) {
    auto it = subgroups_.find(index);
    if (it == subgroups_.end()) it = subgroups_.emplace(index, computeSubgroup(index)).first;
    return it->second;
}

std::optional<bool> PuzzleAnalysis::subgroupContains(int index, const ir::Element& e) {
    subgroup(index);
    const auto& h = subgroupChains_[index];
    if (!h) return std::nullopt;
    return !e.mirror && h->contains(points_.toPoints(e));
}

std::vector<ir::Element> PuzzleAnalysis::subgroupGenerators(int index) {
    subgroup(index);
    std::vector<ir::Element> result;
    const StabilizerChain* h = subgroupChains_[index].get();
    if (!h) return result;
    const auto& orbits = puzzle_.orbits;
    for (const Perm& x : h->strongGenerators()) {
        // The piece at q with orientation 0 lands at p with orientation
        // e.ori[p] (PointAction::toPoints); decode those images.
        ir::Element e = ir::identity(orbits);
        for (size_t o = 0; o < orbits.size(); ++o)
            for (int q = 0; q < orbits[o].size; ++q) {
                const int image = x[points_.point((int)o, q, 0)] - points_.point((int)o, 0, 0);
                const int p = image / orbits[o].orient;
                e.perm[o][p] = q;
                e.ori[o][p] = image % orbits[o].orient;
            }
        result.push_back(std::move(e));
    }
    return result;
}

const std::vector<int>& PuzzleAnalysis::subgroupSymmetries(int index) {
    auto cached = subgroupSymmetries_.find(index);
    if (cached != subgroupSymmetries_.end()) return cached->second;
    subgroup(index);
    const auto& group = symmetries();
    const StabilizerChain* h = subgroupChains_[index].get();
    std::vector<Perm> strong;
    // S H S^-1 ⊆ H needs only generators of H: the declared ones when the
    // subgroup has them (a few), else the chain's strong generators.
    const auto& declared = puzzle_.subgroups[index].generators;
    if (h && !declared.empty())
        for (const auto& g : declared) strong.push_back(points_.toPoints(g));
    else if (h)
        strong = h->strongGenerators();
    const InvariantGroup p = invariantGroup(index);
    std::vector<int> result;
    for (size_t s = 0; s < group.elements.size(); ++s) {
        const Perm sym = points_.toPoints(group.elements[s]);
        const Perm symInverse = inversePerm(sym);
        bool normalises = true;
        if (h) {
            // S H S^-1 ⊆ H on a generating set; finite, so equality.
            for (const auto& g : strong)
                if (!h->contains(composePerm(composePerm(sym, g), symInverse))) {
                    normalises = false;
                    break;
                }
        } else {
            // No chain: S maps G to G (it maps moves to moves), so S P S^-1 = P
            // proves S H S^-1 = H. A conservative answer.
            const auto& orbits = puzzle_.orbits;
            const ir::Element symInv = ir::inverse(group.elements[s], orbits);
            for (const auto& g : p.generators)
                if (!satisfiesInvariants(index, ir::compose(ir::compose(group.elements[s], g, orbits), symInv, orbits))) {
                    normalises = false;
                    break;
                }
            normalises = normalises && p.error.empty();
        }
        if (normalises) result.push_back((int)s);
    }
    return subgroupSymmetries_.emplace(index, std::move(result)).first->second;
}

bool PuzzleAnalysis::check(DiagnosticEngine& diags) {
    const int before = diags.errorCount();
    const std::string& file = puzzle_.file;
    // Every declared symmetry must conjugate every move to a move.
    const auto& orbits = puzzle_.orbits;
    for (const auto& s : puzzle_.symmetries) {
        ir::Element inv = ir::inverse(s.effect, orbits);
        for (const auto& m : puzzle_.moves) {
            if (!findMove(ir::compose(ir::compose(s.effect, m.effect, orbits), inv, orbits))) {
                diags.error(file, s.where,
                            "symmetry '" + s.name + "' does not map move '" + m.name + "' to a move");
                break;
            }
        }
    }
    if (diags.errorCount() == before && !puzzle_.symmetries.empty()) {
        const auto& group = symmetries();
        if (group.elements.size() == 1 && !puzzle_.symmetries.empty() &&
            std::any_of(puzzle_.symmetries.begin(), puzzle_.symmetries.end(),
                        [](const ir::Symmetry& s) { return !ir::isIdentity(s.effect); }))
            diags.error(file, puzzle_.symmetries[0].where,
                        "the declared symmetries generate more than " + std::to_string(kMaxSymmetries) +
                            " elements");
    }
    for (size_t i = 0; i < puzzle_.subgroups.size(); ++i) {
        const auto& sub = puzzle_.subgroups[i];
        const bool hasInvariants = !sub.keepIn.empty() || !sub.oriented.empty();
        if (hasInvariants) {
            InvariantGroup p = invariantGroup((int)i);
            if (!p.error.empty()) {
                diags.error(file, sub.where, p.error);
                continue;
            }
        }
        for (size_t g = 0; g < sub.generators.size(); ++g) {
            std::string text = g < sub.generatorText.size() ? sub.generatorText[g] : std::to_string(g);
            if (!contains(sub.generators[g]))
                diags.error(file, sub.where,
                            "generator '" + text + "' of subgroup '" + sub.name + "' is not in the puzzle's group");
            else if (hasInvariants && !satisfiesInvariants((int)i, sub.generators[g]))
                diags.error(file, sub.where,
                            "generator '" + text + "' of subgroup '" + sub.name + "' breaks its invariants");
        }
        if (diags.errorCount() == before) {
            const auto& info = subgroup((int)i);
            if (info.order == 0)
                diags.error(file, sub.where,
                            "subgroup '" + sub.name + "' is too far from the puzzle's group to count (more than " +
                                std::to_string(kMaxInvariantCosets) + " cosets)");
        }
    }
    return diags.errorCount() == before;
}

}  // namespace pz::analysis
