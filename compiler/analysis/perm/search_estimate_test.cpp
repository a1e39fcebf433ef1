// note [search estimates]: the counting distribution, the random depth and
// the iteration sums, on sequence counts small enough to check by hand.
#include "compiler/analysis/perm/search_estimate.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace pz::analysis;

namespace {
std::vector<double> doubling(int lengths) {  // 1, 2, 4, ...: a binary tree
    std::vector<double> s;
    for (int i = 0; i < lengths; ++i) s.push_back(static_cast<double>(1ull << i));
    return s;
}
}  // namespace

TEST_CASE("counting distribution places values at the smallest depths", "[search_estimate]") {
    const auto p = countingDistribution(10, doubling(8), 15);
    REQUIRE(p.size() == 16);
    CHECK(p[0] == Approx(0.1));  // 1 of 10 at depth 0
    CHECK(p[1] == Approx(0.3));  // 1 + 2
    CHECK(p[2] == Approx(0.7));  // 1 + 2 + 4
    CHECK(p[3] == Approx(1.0));  // the other 3 at depth 3
    // A cap puts every entry at most there.
    const auto capped = countingDistribution(1000, doubling(8), 2);
    CHECK(capped[1] == Approx(0.003));
    CHECK(capped[2] == Approx(1.0));
}

TEST_CASE("random depth is the counting bound on the median", "[search_estimate]") {
    // Sequences of length <= d: 2^(d+1) - 1; half of 1024 states is reached at d = 9.
    CHECK(estimateSearch(doubling(20), {}, 1024).randomDepth == 9);
    CHECK(estimateSearch(doubling(20), {}, 1022).randomDepth == 8);
    // Past the listed lengths the last growth rate carries on.
    CHECK(estimateSearch(doubling(5), {}, 1024).randomDepth == 9);
}

TEST_CASE("iteration nodes follow the KRE sum", "[search_estimate]") {
    // No table: every node of every iteration is expanded (brute force).
    const auto brute = estimateSearch(doubling(20), {}, 1024);
    CHECK(brute.nodes[0] == Approx(1));
    CHECK(brute.nodes[1] == Approx(1 + 3));      // iterations 0 and 1
    CHECK(brute.nodes[2] == Approx(1 + 3 + 7));
    // One table of 10 values: P = 0.1, 0.3, 0.7, 1. Iteration 2 expands
    // N(0) P(2) + N(1) P(1) + N(2) P(0) = 0.7 + 0.6 + 0.4.
    const auto one = estimateSearch(doubling(20), {{10, 15}}, 1024);
    CHECK(one.nodes[0] == Approx(0.1));
    CHECK(one.nodes[2] - one.nodes[1] == Approx(0.7 + 0.6 + 0.4));
    // Two independent tables: P is the product.
    const auto two = estimateSearch(doubling(20), {{10, 15}, {10, 15}}, 1024);
    CHECK(two.nodes[0] == Approx(0.01));
    // Beyond the list, nodesUpTo grows at the last rate.
    CHECK(one.nodesUpTo(100) > one.nodes.back());
}

TEST_CASE("bigger tables never estimate more work", "[search_estimate]") {
    std::vector<double> seq;
    for (int i = 0; i < 30; ++i) seq.push_back(std::pow(13.0, i));
    const double states = 4.3e19;
    double last = 1e300;
    for (double values : {1e3, 1e6, 1e9, 1e12}) {
        const auto e = estimateSearch(seq, {{values, 15}}, states);
        CHECK(e.nodesUpTo(e.randomDepth) < last);
        last = e.nodesUpTo(e.randomDepth);
    }
}

TEST_CASE("duration text picks a readable unit", "[search_estimate]") {
    CHECK(durationText(3.0) == "3 s");
    CHECK(durationText(600) == "10 minutes");
    CHECK(durationText(86400 * 3) == "3 days");
    CHECK(durationText(1e20).find("e+") != std::string::npos);
}
