// Symmetry classes (runtime/include/pz/tables/sym_classes.hpp): on permutations of
// 4 points under conjugation by all 24 permutations the classes are the
// conjugacy classes (5 of them, sizes 1, 6, 8, 3, 6 in lexicographic order of their smallest member), every raw value maps
// to its representative through the recorded symmetry, the stabiliser masks
// are the centralisers, and a "symmetry" that does not act is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <numeric>
#include <vector>

#include "pz/tables/sym_classes.hpp"

namespace {

using Perm = std::array<int, 4>;

std::vector<Perm> allPerms() {
    std::vector<Perm> out;
    Perm p{0, 1, 2, 3};
    do out.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
    return out;
}
// Lexicographic rank (the index in allPerms()).
uint64_t rankOf(const Perm& p) {
    static const std::vector<Perm> all = allPerms();
    return static_cast<uint64_t>(std::find(all.begin(), all.end(), p) - all.begin());
}
Perm compose(const Perm& a, const Perm& b) {  // (a b)(i) = a(b(i))
    Perm r{};
    for (int i = 0; i < 4; ++i) r[i] = a[b[i]];
    return r;
}
Perm inverse(const Perm& a) {
    Perm r{};
    for (int i = 0; i < 4; ++i) r[a[i]] = i;
    return r;
}

}  // namespace

TEST_CASE("symmetry classes of S4 under conjugation are its conjugacy classes", "[sym_classes]") {
    const std::vector<Perm> all = allPerms();
    std::vector<int> symInverse;
    for (const Perm& s : all) symInverse.push_back(static_cast<int>(rankOf(inverse(s))));
    auto conj = [&](const Perm& x, int s) { return compose(inverse(all[s]), compose(x, all[s])); };
    const pz::SymClasses sc = pz::computeSymClasses(
        24, 24, symInverse, [&](uint64_t a) { return all[a]; }, rankOf, conj, "test");
    REQUIRE(sc.classes() == 5);
    std::map<uint32_t, int> sizes;
    for (uint64_t a = 0; a < 24; ++a) {
        const uint32_t e = sc.classOf[a];
        ++sizes[e >> 6];
        // conj_k(a) is the representative, the smallest raw value of its class.
        CHECK(rankOf(conj(all[a], static_cast<int>(e & 63))) == sc.reps[e >> 6]);
        CHECK(sc.reps[e >> 6] <= a);
    }
    std::vector<int> got;
    for (auto [c, n] : sizes) got.push_back(n);
    // id, transpositions, 3-cycles, double transpositions, 4-cycles (by smallest member)
    CHECK(got == std::vector<int>{1, 6, 8, 3, 6});
    for (uint64_t c = 0; c < sc.classes(); ++c) {
        // |stabiliser| * |class| = |group|
        CHECK(std::popcount(sc.stab[c]) * sizes[static_cast<uint32_t>(c)] == 24);
        for (int s = 0; s < 24; ++s)
            CHECK(((sc.stab[c] >> s & 1) != 0) == (rankOf(conj(all[sc.reps[c]], s)) == sc.reps[c]));
    }
}

TEST_CASE("symmetry classes refuse maps that are not a group action on the coordinate", "[sym_classes]") {
    const std::vector<Perm> all = allPerms();
    // Two "symmetries": the identity and a constant map (not a bijection).
    auto conj = [&](const Perm& x, int s) { return s == 0 ? x : all[5]; };
    CHECK_THROWS_WITH(pz::computeSymClasses(
                          24, 2, {0, 1}, [&](uint64_t a) { return all[a]; }, rankOf, conj, "test"),
                      Catch::Contains("do not act"));
    CHECK_THROWS_WITH(pz::computeSymClasses(
                          24, 2, {0}, [&](uint64_t a) { return all[a]; }, rankOf, conj, "test"),
                      Catch::Contains("bad symmetry list"));
}

TEST_CASE("conjugation table and 4-bit claims", "[sym_classes]") {
    const std::vector<Perm> all = allPerms();
    auto conj = [&](const Perm& x, int s) { return compose(inverse(all[s]), compose(x, all[s])); };
    const auto t = pz::conjugationTable(24, 24, [&](uint64_t v) { return all[v]; }, rankOf, conj);
    for (uint64_t v = 0; v < 24; ++v)
        for (int s = 0; s < 24; ++s) CHECK(t[v * 24 + s] == rankOf(conj(all[v], s)));
    std::vector<uint64_t> words(2, ~uint64_t{0});
    CHECK(pz::nibbleGet(words, 17) == 15);
    CHECK(pz::nibbleClaim(words, 17, 3));
    CHECK(pz::nibbleGet(words, 17) == 3);
    CHECK_FALSE(pz::nibbleClaim(words, 17, 3));  // already claimed at this depth
    CHECK(pz::nibbleGet(words, 16) == 15);
    CHECK(pz::nibbleGet(words, 18) == 15);
}
