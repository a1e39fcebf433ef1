// pz::CombinationRanks (pz/coord.hpp) and pz::kColexRank16 (pz/lane_coord.hpp):
// the tables built a step per mask equal the colex rank by its definition,
// a term per set bit, and the unrank inverts it, for every mask of 1..16 bits.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>

#include "pz/coord.hpp"
#include "pz/lane_coord.hpp"

namespace {

template <unsigned N>
void checkAllMasks() {
    const auto& t = pz::CombinationRanks<N>::get();
    for (uint32_t m = 0; m < (uint32_t{1} << N); ++m) {
        uint64_t r = 0;
        unsigned i = 0;
        for (unsigned p = 0; p < N; ++p)
            if (m >> p & 1) r += pz::binomial(p, ++i);
        REQUIRE(t.rank[m] == r);
        REQUIRE(t.mask[static_cast<unsigned>(std::popcount(m))][r] == m);
    }
}

}  // namespace

TEST_CASE("combination ranks are colex ranks, the unrank their inverse", "[coord]") {
    checkAllMasks<1>();
    checkAllMasks<5>();
    checkAllMasks<12>();
    checkAllMasks<16>();
}

TEST_CASE("the 16-bit colex table of byte-lane coordinates is the same rank", "[coord]") {
    const auto& t = pz::CombinationRanks<16>::get();
    for (uint32_t m = 0; m < (uint32_t{1} << 16); ++m) REQUIRE(pz::colexRank(m) == t.rank[m]);
}
