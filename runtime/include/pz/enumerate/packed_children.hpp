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
// box for a rank (radix: split by its top bits when larger than the cache,
// then LSD passes of at most 11 bits over the slice's index width), and
// appends it as runs of up to 2^16 values: an
// 8-byte header (the run's count of distinct values and the bytes of its
// gaps, 4 bytes each), then each distinct value's gap from the one before
// (the run's first: from 0) as a LEB128 varint, 7 bits a byte. The receiver decodes runs on its threads
// (the headers say where each run starts) and claims the values in
// ascending order, which walks its store forwards instead of at random.
// Sorting and encoding are not free (7% and 4% of a rank's profile for
// slide4's top_rows on 2 ranks: 8.57 -> 4.39 bytes per state, 30 -> 33.6
// s; cube2 18.3 -> 2.5 bytes per state), so `--exchange auto` packs only when the ranks span
// machines (packsChildren in enumerate_main.hpp): through one machine's
// shared memory a byte costs less than sorting it.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace pz::enumerate {

// Sorts a[0..n) by its low `bits` bits, ascending (LSD radix: digits of
// equal width, at most 11 bits, a histogram and a scatter a pass), with b
// a buffer as long; the result is in a.
template <class W>
void sortLowBits(W* a, W* b, size_t n, unsigned bits) {
    if (n < 2 || bits == 0) return;
    const unsigned passes = (bits + 10) / 11, width = (bits + passes - 1) / passes;
    const size_t buckets = size_t{1} << width;
    // The last digit may reach past the key: bits above it are not sorted by.
    const W key = bits >= sizeof(W) * 8 ? static_cast<W>(~W{0}) : static_cast<W>((W{1} << bits) - 1);
    std::array<uint32_t, size_t{1} << 11> at;
    W* from = a;
    W* to = b;
    for (unsigned p = 0; p < passes; ++p) {
        const unsigned shift = p * width;
        std::fill_n(at.begin(), buckets, 0);
        for (size_t i = 0; i < n; ++i) ++at[((from[i] & key) >> shift) & (buckets - 1)];
        uint32_t sum = 0;
        for (size_t k = 0; k < buckets; ++k) {
            const uint32_t c = at[k];
            at[k] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; ++i) to[at[((from[i] & key) >> shift) & (buckets - 1)]++] = from[i];
        std::swap(from, to);
    }
    if (from != a) std::memcpy(a, from, n * sizeof(W));
}

// Sorts `v` ascending by the low `bits` bits of each value (the key; bits
// above it ride along: a backward level's asker, note [packed queries]);
// `scratch` is a buffer of the same type, kept by the caller between calls. A box larger than the
// L2 cache (2 MiB here) is first split by its top bits into buckets of
// at most ~2^14 values and 22 bits, each then sorted in cache: LSD passes
// over the whole box scatter into memory at random (4M 28-bit values: 10
// ns a value, against 4 ns split first; boxes within the cache: ~2.6 ns
// either way).
template <class Vec>
void radixSort(Vec& v, Vec& scratch, unsigned bits) {
    using W = std::remove_reference_t<decltype(v[0])>;
    const size_t n = v.size();
    if (n < 2) return;
    scratch.resize(n);
    unsigned top = 0;
    constexpr unsigned kMostTop = 12;
    if (n * sizeof(W) > (size_t{1} << 21)) {
        while (top < bits && top < kMostTop && (n >> top) > (size_t{1} << 14)) ++top;
        // And enough that the rest takes two passes, not three (31-bit G1
        // slices: 9 top bits, 2 x 11).
        while (top < kMostTop && bits - top > 22) ++top;
    }
    if (top == 0) {
        sortLowBits(v.data(), scratch.data(), n, bits);
        return;
    }
    const unsigned low = bits - top;
    std::array<uint32_t, (size_t{1} << kMostTop) + 1> at{}, start;
    const W topMask = static_cast<W>((W{1} << top) - 1);
    for (size_t i = 0; i < n; ++i) ++at[((v[i] >> low) & topMask) + 1];
    for (size_t k = 1; k <= (size_t{1} << top); ++k) at[k] += at[k - 1];
    start = at;
    for (size_t i = 0; i < n; ++i) scratch[at[(v[i] >> low) & topMask]++] = v[i];
    for (size_t k = 0; k < (size_t{1} << top); ++k)
        sortLowBits(scratch.data() + start[k], v.data() + start[k], start[k + 1] - start[k], low);
    v.swap(scratch);
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

// The low bits (under `mask`) of 64-bit values, as appendRuns reads
// values: a backward level's queries sorted with their askers above them
// (note [packed queries] in bfs.hpp).
struct LowBits {
    const uint64_t* values;
    size_t n;
    uint64_t mask;
    uint64_t operator[](size_t i) const { return values[i] & mask; }
    size_t size() const { return n; }
};

// One run of a packed buffer: where its gaps start, their bytes, and its count.
struct PackedRun {
    const uint8_t* gaps;
    uint32_t bytes, count;
};

// The runs of `n` bytes of packed runs, in order. Bytes that are not whole
// runs (a header past the end, gaps past the end, fewer gap bytes than the
// count needs) are a fault between ranks, never input: std::logic_error.
inline std::vector<PackedRun> packedRuns(const uint8_t* data, size_t n) {
    std::vector<PackedRun> runs;
    for (size_t at = 0; at < n;) {
        PackedRun r;
        if (n - at < kPackedHeader) throw std::logic_error("packed children: a run header cut short");
        std::memcpy(&r.count, data + at, 4);
        std::memcpy(&r.bytes, data + at + 4, 4);
        if (n - at - kPackedHeader < r.bytes || r.bytes < r.count)
            throw std::logic_error("packed children: a run's gaps past the received bytes");
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
