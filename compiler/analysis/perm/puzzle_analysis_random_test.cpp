// Differential test: the analyses against brute force on many small random
// puzzles. The group is enumerated by closure over Elements, then its order,
// membership, invariant subgroups and subgroup membership are compared with
// Schreier–Sims and the coset method (note [invariant subgroups]).
#include <catch2/catch.hpp>

#include <set>

#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/ir/element.hpp"

using namespace pz;
using namespace pz::analysis;

namespace {

struct Random {
    uint64_t state;
    int below(int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (int)((state >> 33) % (uint64_t)n);
    }
};

ir::Element randomElement(const std::vector<ir::Orbit>& orbits, Random& rng) {
    ir::Element e = ir::identity(orbits);
    for (size_t o = 0; o < orbits.size(); ++o) {
        auto& perm = e.perm[o];
        for (int i = orbits[o].size - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
        for (auto& r : e.ori[o]) r = rng.below(orbits[o].orient);
    }
    return e;
}

std::vector<int> key(const ir::Element& e) {
    std::vector<int> k;
    for (const auto& p : e.perm) k.insert(k.end(), p.begin(), p.end());
    for (const auto& o : e.ori) k.insert(k.end(), o.begin(), o.end());
    return k;
}

ir::Puzzle randomPuzzle(Random& rng) {
    ir::Puzzle p;
    p.file = "<random>";
    const int orbitCount = 1 + rng.below(2);
    for (int o = 0; o < orbitCount; ++o) {
        ir::Orbit orbit;
        orbit.name = "o" + std::to_string(o);
        orbit.size = 2 + rng.below(orbitCount == 1 ? 4 : 3);  // keeps |W| small
        orbit.orient = 1 + rng.below(3);
        for (int i = 0; i < orbit.size; ++i) orbit.solvedLabel.push_back(i);
        p.orbits.push_back(orbit);
    }
    const int generators = 1 + rng.below(3);
    for (int g = 0; g < generators; ++g) {
        ir::Element base = randomElement(p.orbits, rng);
        const long order = ir::order(base, p.orbits);
        p.families.push_back({"g" + std::to_string(g), base, (int)order, {}});
        for (long k = 1; k < order; ++k)
            p.moves.push_back({"g" + std::to_string(g) + "^" + std::to_string(k), g, (int)k, true,
                               ir::power(base, k, p.orbits)});
    }
    return p;
}

std::set<std::vector<int>> closure(const ir::Puzzle& p) {
    std::vector<ir::Element> elements{ir::identity(p.orbits)};
    std::set<std::vector<int>> seen{key(elements[0])};
    for (size_t i = 0; i < elements.size(); ++i)
        for (const auto& f : p.families) {
            ir::Element next = ir::compose(elements[i], f.base, p.orbits);
            if (seen.insert(key(next)).second) elements.push_back(next);
        }
    return seen;
}

ir::Element fromKey(const ir::Puzzle& p, const std::vector<int>& k) {
    ir::Element e = ir::identity(p.orbits);
    size_t at = 0;
    for (auto& perm : e.perm)
        for (auto& v : perm) v = k[at++];
    for (auto& ori : e.ori)
        for (auto& v : ori) v = k[at++];
    return e;
}

}  // namespace

TEST_CASE("analysis: random small puzzles against brute force") {
    Random rng{2026};
    for (int trial = 0; trial < 150; ++trial) {
        ir::Puzzle p = randomPuzzle(rng);
        // A random invariant subgroup: one orbit split into two sets, maybe oriented.
        ir::Subgroup sub;
        sub.name = "h";
        const int o = rng.below((int)p.orbits.size());
        const int size = p.orbits[o].size, cut = 1 + rng.below(size - 1);
        ir::KeepInSets keep{o, {{}, {}}};
        for (int i = 0; i < size; ++i) keep.sets[i < cut ? 0 : 1].push_back(i);
        sub.keepIn.push_back(keep);
        if (rng.below(2)) sub.oriented.push_back({(int)p.orbits.size() - 1, {}});
        p.subgroups.push_back(sub);

        INFO("trial " << trial);
        PuzzleAnalysis a(p);
        const auto group = closure(p);
        REQUIRE(a.groupOrder() == mpz_class((unsigned long)group.size()));
        // The commutation relation (checked on supports) against whole products.
        for (size_t m1 = 0; m1 < p.moves.size(); ++m1)
            for (size_t m2 = 0; m2 < p.moves.size(); ++m2)
                CHECK(a.commutes()[m1][m2] == (ir::compose(p.moves[m1].effect, p.moves[m2].effect, p.orbits) ==
                                               ir::compose(p.moves[m2].effect, p.moves[m1].effect, p.orbits)));
        // Membership of random elements of the wreath product.
        for (int k = 0; k < 20; ++k) {
            ir::Element e = randomElement(p.orbits, rng);
            CHECK(a.contains(e) == (group.count(key(e)) > 0));
        }
        // The invariant subgroup: brute-force count and membership.
        unsigned long inside = 0;
        for (const auto& k : group) {
            ir::Element e = fromKey(p, k);
            const bool keeps = a.satisfiesInvariants(0, e);
            inside += keeps;
            auto member = a.subgroupContains(0, e);
            REQUIRE(member);
            CHECK(*member == keeps);
        }
        CHECK(a.subgroup(0).order == mpz_class(inside));
        CHECK(a.subgroup(0).index * a.subgroup(0).order == a.groupOrder());
    }
}
