// pz/enumerate/packed_children.hpp (note [packed children]): the radix sort
// against std::sort, and runs decoded back to the sorted distinct values,
// for 32- and 64-bit indices, repeats, gaps past one varint byte, and
// boxes longer than one run.
#include "pz/enumerate/packed_children.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using pz::enumerate::appendRuns;
using pz::enumerate::forEachPacked;
using pz::enumerate::packedRuns;
using pz::enumerate::radixSort;

namespace {

template <class W>
std::vector<uint64_t> decodeAll(const std::vector<uint8_t>& bytes) {
    std::vector<uint64_t> out;
    for (const auto& run : packedRuns(bytes.data(), bytes.size())) forEachPacked(run, [&](uint64_t v) { out.push_back(v); });
    return out;
}

// Sorted, packed and decoded: the distinct values, ascending, whatever the runs.
template <class W>
void roundTrip(std::vector<W> values, unsigned bits) {
    std::vector<W> expected = values;
    std::sort(expected.begin(), expected.end());
    std::vector<W> scratch;
    radixSort(values, scratch, bits);
    REQUIRE(values == expected);
    std::vector<uint8_t> bytes;
    appendRuns(values, bytes);
    // Repeats within a run go once; one straddling two runs goes twice (claimed once).
    std::vector<uint64_t> decoded = decodeAll<W>(bytes);
    std::vector<uint64_t> distinct(expected.begin(), expected.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<uint64_t> decodedDistinct = decoded;
    decodedDistinct.erase(std::unique(decodedDistinct.begin(), decodedDistinct.end()), decodedDistinct.end());
    CHECK(decodedDistinct == distinct);
    CHECK(std::is_sorted(decoded.begin(), decoded.end()));
    CHECK(decoded.size() <= distinct.size() + (values.size() + pz::enumerate::kRunValues - 1) / pz::enumerate::kRunValues);
}

}  // namespace

TEST_CASE("packed children: radix sort and runs, 32-bit", "[packed_children]") {
    std::mt19937_64 rng(7);
    for (unsigned bits : {1u, 11u, 12u, 22u, 28u, 32u}) {
        std::vector<uint32_t> v(100000);
        for (auto& x : v) x = static_cast<uint32_t>(rng() & ((uint64_t{1} << bits) - 1));
        roundTrip(v, bits);
    }
    // Boxes past 2 MiB: split by their top bits first, then sorted in cache.
    for (unsigned bits : {1u, 13u, 28u, 32u}) {
        std::vector<uint32_t> v(size_t{1} << 20);
        for (auto& x : v) x = static_cast<uint32_t>(rng() & ((uint64_t{1} << bits) - 1));
        roundTrip(v, bits);
    }
    roundTrip(std::vector<uint32_t>{}, 20);
    roundTrip(std::vector<uint32_t>{5}, 20);
    roundTrip(std::vector<uint32_t>{9, 9, 9, 0, 0xFFFFFFFFu}, 32);
}

TEST_CASE("packed children: radix sort and runs, 64-bit", "[packed_children]") {
    std::mt19937_64 rng(11);
    for (unsigned bits : {33u, 40u, 64u}) {
        std::vector<uint64_t> v(70000);
        for (auto& x : v) x = bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
        roundTrip(v, bits);
        v.assign(size_t{1} << 19, 0);  // 4 MiB: the split path
        for (auto& x : v) x = bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
        roundTrip(v, bits);
    }
}

TEST_CASE("packed children: bytes", "[packed_children]") {
    // 0, 1, 128, 128 (a repeat), 16512: gaps 0, 1, 127, 16384 -> 1 + 1 + 1 + 3 bytes.
    std::vector<uint32_t> v = {0, 1, 128, 128, 16512};
    std::vector<uint8_t> bytes;
    appendRuns(v, bytes);
    REQUIRE(bytes.size() == pz::enumerate::kPackedHeader + 6);
    const auto runs = packedRuns(bytes.data(), bytes.size());
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].count == 4);
    CHECK(runs[0].bytes == 6);
    CHECK(std::vector<uint8_t>(bytes.begin() + 8, bytes.end()) == std::vector<uint8_t>{0x00, 0x01, 0x7F, 0x80, 0x80, 0x01});
    // Two boxes appended to one buffer (two threads' runs for a rank) decode in turn.
    std::vector<uint32_t> w = {3, 4};
    appendRuns(w, bytes);
    CHECK(decodeAll<uint32_t>(bytes) == std::vector<uint64_t>{0, 1, 128, 16512, 3, 4});
}

TEST_CASE("packed children: bytes that are not whole runs are refused", "[packed_children]") {
    std::vector<uint32_t> v = {1, 200, 70000};
    std::vector<uint8_t> bytes;
    appendRuns(v, bytes);
    REQUIRE(packedRuns(bytes.data(), bytes.size()).size() == 1);
    for (size_t cut = 1; cut < bytes.size(); ++cut)  // every truncation
        CHECK_THROWS_AS(packedRuns(bytes.data(), cut), std::logic_error);
    std::vector<uint8_t> lying = bytes;
    lying[0] = 200;  // a count more than the gap bytes can hold
    CHECK_THROWS_AS(packedRuns(lying.data(), lying.size()), std::logic_error);
}

TEST_CASE("packed children: keys sorted with riders above them", "[packed_children]") {
    // note [packed queries] in bfs.hpp: a query in the low 32 bits, its asker
    // above; the sort orders by the key alone and keeps every pair.
    std::mt19937_64 rng(11);
    for (size_t n : {size_t{1000}, size_t{1} << 19}) {  // in cache, and split by top bits first
        for (unsigned bits : {9u, 24u, 31u}) {
            std::vector<uint64_t> v(n);
            for (size_t i = 0; i < n; ++i) v[i] = (uint64_t{rng() & 0x3FFFFFF} << 32) | (rng() & ((uint64_t{1} << bits) - 1));
            std::vector<uint64_t> pairs = v, scratch;
            radixSort(v, scratch, bits);
            CHECK(std::is_sorted(v.begin(), v.end(), [](uint64_t a, uint64_t b) { return uint32_t(a) < uint32_t(b); }));
            std::vector<uint64_t> sortedPairs = v;
            std::sort(sortedPairs.begin(), sortedPairs.end());
            std::sort(pairs.begin(), pairs.end());
            CHECK(sortedPairs == pairs);
            std::vector<uint8_t> bytes;
            pz::enumerate::appendRuns(pz::enumerate::LowBits{v.data(), v.size(), 0xFFFFFFFFu}, bytes);
            std::vector<uint64_t> keys;
            for (uint64_t x : v) keys.push_back(uint32_t(x));
            keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
            std::vector<uint64_t> decoded = decodeAll<uint64_t>(bytes);
            decoded.erase(std::unique(decoded.begin(), decoded.end()), decoded.end());
            CHECK(decoded == keys);
        }
    }
}
