#include "compiler/ir/element.hpp"

#include <catch2/catch.hpp>

using namespace pz::ir;

namespace {
// One orbit of 4 pieces with orientation mod 3.
std::vector<Orbit> fourTwisty() {
    Orbit o;
    o.name = "p";
    o.size = 4;
    o.orient = 3;
    o.solvedLabel = {0, 1, 2, 3};
    return {o};
}
// The cycle (0 1 2 3) with twist +1 on the piece leaving 0.
Element cycleWithTwist() {
    Element e;
    e.perm = {{3, 0, 1, 2}};  // position 1 receives the piece from 0, ...
    e.ori = {{0, 1, 0, 0}};   // the piece from 0 lands at 1 with +1
    return e;
}
}  // namespace

TEST_CASE("element: identity, order and inverse") {
    auto orbits = fourTwisty();
    Element m = cycleWithTwist();
    CHECK_FALSE(isIdentity(m));
    // Four applications bring every piece home with total twist +1: order 12.
    CHECK(order(m, orbits) == 12);
    CHECK(isIdentity(compose(m, inverse(m, orbits), orbits)));
    CHECK(isIdentity(compose(inverse(m, orbits), m, orbits)));
    CHECK(power(m, -1, orbits) == inverse(m, orbits));
    CHECK(isIdentity(power(m, 12, orbits)));
    CHECK(power(m, 5, orbits) == compose(power(m, 2, orbits), power(m, 3, orbits), orbits));
}

TEST_CASE("element: compose applies left then right") {
    auto orbits = fourTwisty();
    Element m = cycleWithTwist();
    Element s = compose(identity(orbits), m, orbits);
    // after m, position 1 holds piece 0 twisted by 1
    CHECK(s.perm[0][1] == 0);
    CHECK(s.ori[0][1] == 1);
    Element t = compose(s, m, orbits);  // piece 0 moves on to 2, twist kept
    CHECK(t.perm[0][2] == 0);
    CHECK(t.ori[0][2] == 1);
    CHECK(t.perm[0][1] == 3);  // piece 3 left position 0 ...
    CHECK(t.ori[0][1] == 1);   // ... and gained the twist of that edge
}

TEST_CASE("element: mirror elements negate orientation") {
    auto orbits = fourTwisty();
    Element mirror = identity(orbits);
    mirror.mirror = true;
    Element m = cycleWithTwist();
    Element conj = compose(compose(mirror, m, orbits), inverse(mirror, orbits), orbits);
    CHECK_FALSE(conj.mirror);
    CHECK(conj.ori[0][1] == 2);  // +1 became -1
    CHECK(isIdentity(compose(mirror, mirror, orbits)));
}

TEST_CASE("element: exact order and big exponents reduce modulo the order") {
    auto orbits = fourTwisty();
    Element m = cycleWithTwist();
    CHECK(exactOrder(m, orbits) == 12);
    CHECK(exactOrder(identity(orbits), orbits) == 1);
    Element twoCycles;
    twoCycles.perm = {{1, 0, 2, 3}};
    twoCycles.ori = {{1, 1, 1, 0}};  // a 2-cycle with twist 2, a fixed piece twisted by 1
    CHECK(exactOrder(twoCycles, orbits) == order(twoCycles, orbits));
    // 10^9 + 1 = 1 (mod 12 * k) is what the saturating reader got wrong.
    CHECK(power(m, mpz_class("1000000001"), orbits) == power(m, 1000000001L % 12, orbits));
    // 10^30 + 1 = 5 (mod 12).
    CHECK(power(m, mpz_class("-1000000000000000000000000000001"), orbits) == power(m, -5L, orbits));
    for (long k = -30; k <= 30; ++k) CHECK(power(m, mpz_class(k), orbits) == power(m, k, orbits));
    CHECK(isIdentity(power(m, mpz_class("120000000000000000000000000000000000000000"), orbits)));
    // A mirror element: odd powers stay mirrors.
    Element mirror = m;
    mirror.mirror = true;
    CHECK(exactOrder(mirror, orbits) == order(mirror, orbits));
    const mpz_class big("1000000000000000000001"), n = exactOrder(mirror, orbits);
    const mpz_class r = big % n;
    CHECK(power(mirror, big, orbits) == power(mirror, r.get_si(), orbits));
    CHECK(power(mirror, big * n + 1, orbits) == mirror);
}
