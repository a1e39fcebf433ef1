// pz/enumerate/packed_children.hpp — a forward level's children for another
// rank, sorted and sent as gaps.
//
// note [packed children]
// A partitioned forward level sends each child another rank owns as that
// rank's local index (note [bfs rounds]): 4 or 8 bytes, every move of every
// frontier state, so the exchange is what binds a cluster run (the scale
// model in docs/distributed.md: 144 bytes per state for an 18-move space at
// 8-byte indices, 8x the compute on 10 GbE). But a round's children for one
// rank are many values of one slice: sorted, the gap from one to the next is
// small (the slice's length over their number), and repeats, which a round
// has plenty of (states share children), drop out. So each thread sorts its
// box for a rank (LSD radix, 11 bits a pass, as many passes as the slice's
// index width needs), and appends it as runs of up to 2^16 values: an
// 8-byte header (the run's count of distinct values and the bytes of its
// gaps, 4 bytes each), then each distinct value's gap from the one before
// (the run's first: from 0) as a LEB128 varint, 7 bits a byte. The receiver decodes runs on its threads
// (the headers say where each run starts) and claims the values in
// ascending order, which walks its store forwards instead of at random.
// The sort is not free (14% of a rank's profile for slide4's top_rows on 2
// ranks: 8.57 -> 4.39 bytes per state, 30 -> 33.5 s; cube2 18.3 -> 2.5
// bytes per state), so `--exchange auto` packs only when the ranks span
// machines (packsChildren in enumerate_main.hpp): through one machine's
// shared memory a byte costs less than sorting it.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace pz::enumerate {

// Sorts `v` (every value below 2^bits) ascending; `scratch` is a buffer of
// the same type, kept by the caller between calls.
template <class Vec>
void radixSort(Vec& v, Vec& scratch, unsigned bits) {
    constexpr unsigned kDigit = 11;
    constexpr size_t kBuckets = size_t{1} << kDigit;
    const size_t n = v.size();
    if (n < 2) return;
    scratch.resize(n);
    auto* from = v.data();
    auto* to = scratch.data();
    std::array<size_t, kBuckets> at{};
    for (unsigned shift = 0; shift < bits; shift += kDigit) {
        at.fill(0);
        for (size_t i = 0; i < n; ++i) ++at[(from[i] >> shift) & (kBuckets - 1)];
        size_t sum = 0;
        for (auto& a : at) {
            const size_t c = a;
            a = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; ++i) to[at[(from[i] >> shift) & (kBuckets - 1)]++] = from[i];
        std::swap(from, to);
    }
    if (from != v.data()) std::memcpy(v.data(), from, n * sizeof(v[0]));
}

inline constexpr size_t kPackedHeader = 8;  // count, gap bytes: 4 bytes each

// Appends sorted values [first, last) of `sorted` as one run to `out`
// (repeats kept once).
template <class Vec, class Bytes>
void appendRun(const Vec& sorted, size_t first, size_t last, Bytes& out) {
    const size_t header = out.size();
    // At most 10 bytes a gap (64-bit values); trimmed below.
    out.resize(header + kPackedHeader + (last - first) * (sizeof(sorted[0]) * 8 / 7 + 1));
    uint8_t* p = reinterpret_cast<uint8_t*>(out.data()) + header + kPackedHeader;
    uint8_t* const payload = p;
    uint64_t previous = 0;
    uint32_t count = 0;
    for (size_t i = first; i < last; ++i) {
        const uint64_t value = sorted[i];
        if (count > 0 && value == previous) continue;
        uint64_t gap = value - previous;
        while (gap >= 0x80) {
            *p++ = static_cast<uint8_t>(gap | 0x80);
            gap >>= 7;
        }
        *p++ = static_cast<uint8_t>(gap);
        previous = value;
        ++count;
    }
    const auto bytes = static_cast<uint32_t>(p - payload);
    uint8_t* h = reinterpret_cast<uint8_t*>(out.data()) + header;
    std::memcpy(h, &count, 4);
    std::memcpy(h + 4, &bytes, 4);
    out.resize(header + kPackedHeader + bytes);
}

// Appends all of `sorted` as runs of at most kRunValues values each, so
// that the receiver's threads share even one sender's runs.
inline constexpr size_t kRunValues = size_t{1} << 16;
template <class Vec, class Bytes>
void appendRuns(const Vec& sorted, Bytes& out) {
    for (size_t first = 0; first < sorted.size(); first += kRunValues)
        appendRun(sorted, first, std::min(sorted.size(), first + kRunValues), out);
}

// One run of a packed buffer: where its gaps start, their bytes, and its count.
struct PackedRun {
    const uint8_t* gaps;
    uint32_t bytes, count;
};

// The runs of `n` bytes of packed runs, in order.
inline std::vector<PackedRun> packedRuns(const uint8_t* data, size_t n) {
    std::vector<PackedRun> runs;
    for (size_t at = 0; at + kPackedHeader <= n;) {
        PackedRun r;
        std::memcpy(&r.count, data + at, 4);
        std::memcpy(&r.bytes, data + at + 4, 4);
        r.gaps = data + at + kPackedHeader;
        runs.push_back(r);
        at += kPackedHeader + r.bytes;
    }
    return runs;
}

// Calls f(value) for each value of `run`, ascending.
template <class F>
void forEachPacked(const PackedRun& run, F&& f) {
    const uint8_t* p = run.gaps;
    uint64_t value = 0;
    for (uint32_t k = 0; k < run.count; ++k) {
        uint64_t gap = 0;
        unsigned shift = 0;
        uint8_t byte;
        do {
            byte = *p++;
            gap |= uint64_t{byte & 0x7Fu} << shift;
            shift += 7;
        } while (byte & 0x80);
        value += gap;
        f(value);
    }
}

}  // namespace pz::enumerate
