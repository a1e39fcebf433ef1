// The grid search's closed set (runtime/include/pz/grid_search.hpp) against
// std::unordered_map: every key is stored once, found again after any number
// of index doublings, and keeps its node number and links. Hashers that
// cluster keys into few groups force long displacements and the fallbacks
// of the group probing.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <unordered_map>

#include "pz/grid_search.hpp"

namespace {

struct MixHasher {
    uint64_t operator()(uint64_t k) const { return pz::grid::mixHash(k); }
};
// Home groups only every other group: long runs of full groups.
struct HalfGroupsHasher {
    uint64_t operator()(uint64_t k) const { return pz::grid::mixHash(k) & ~uint64_t(0x8); }
};
// Few distinct low bits: all keys crowd into a handful of home groups.
struct ClusteringHasher {
    uint64_t operator()(uint64_t k) const { return pz::grid::mixHash(k) & ~uint64_t(0x3ff8); }
};
// No entropy at all below bit 40: every key has the same home group and the
// same fingerprint until the index is very large.
struct ConstantLowHasher {
    uint64_t operator()(uint64_t k) const { return pz::grid::mixHash(k) << 40; }
};

template <class Hasher>
void checkAgainstMap(size_t count, uint64_t seed) {
    using Closed = pz::grid::ClosedSet<uint64_t, Hasher>;
    Closed closed{Hasher{}};
    std::unordered_map<uint64_t, uint32_t> reference;
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> keys;
    for (size_t i = 0; i < count; ++i) {
        // Every third key is one seen before: duplicates must be found.
        const uint64_t k = (i % 3 == 2 && !keys.empty()) ? keys[rng() % keys.size()] : rng();
        auto [node, fresh] = closed.insert(k);
        auto [it, inserted] = reference.emplace(k, node);
        REQUIRE(fresh == inserted);
        REQUIRE(node == it->second);
        if (fresh) {
            keys.push_back(k);
            closed.link(node, node ? node - 1 : Closed::kNone, (int)(k & 15), (int)(k % 200));
        }
    }
    REQUIRE(closed.size() == reference.size());
    for (const auto& [k, node] : reference) {
        REQUIRE(closed.key(node) == k);
        REQUIRE(closed.move(node) == (int)(k & 15));
        REQUIRE(closed.g(node) == (int)(k % 200));
        auto [again, fresh] = closed.insert(k);
        REQUIRE_FALSE(fresh);
        REQUIRE(again == node);
    }
}

}  // namespace

TEST_CASE("grid closed set: random keys through many doublings", "[grid][closed-set]") {
    checkAgainstMap<MixHasher>(600'000, 1);  // 16K slots -> 1M slots: 6 doublings
}

TEST_CASE("grid closed set: long displacements", "[grid][closed-set]") {
    checkAgainstMap<HalfGroupsHasher>(300'000, 4);
}

TEST_CASE("grid closed set: clustered hashes", "[grid][closed-set]") {
    checkAgainstMap<ClusteringHasher>(60'000, 2);
}

TEST_CASE("grid closed set: hashes without low bits", "[grid][closed-set]") {
    checkAgainstMap<ConstantLowHasher>(5'000, 3);
}

TEST_CASE("grid closed set: bytes per node", "[grid][closed-set]") {
    pz::grid::ClosedSet<uint64_t, MixHasher> closed{MixHasher{}};
    for (uint64_t k = 0; k < 200'000; ++k) closed.insert(k);
    // 14 bytes per node (key, parent, g, move) plus a 4-byte slot per index
    // entry at a load of at least 0.38 after the last doubling.
    REQUIRE((double)closed.bytes() / closed.size() < 14.5 + 4 / 0.38);
}
