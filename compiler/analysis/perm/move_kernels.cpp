#include "compiler/analysis/perm/move_kernels.hpp"

#include <cstdio>
#include <map>

namespace pz::analysis {

std::string hex64(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llX", static_cast<unsigned long long>(v));
    return buf;
}

static WordKernel laneKernel(const std::vector<int>& src) {
    std::map<int, uint64_t> byShift;
    for (int p = 0; p < static_cast<int>(src.size()); ++p) byShift[4 * (p - src[p])] |= 0xFULL << (4 * p);
    WordKernel k;
    if (auto it = byShift.find(0); it != byShift.end()) k.terms.push_back({0, it->second});
    for (auto [shift, mask] : byShift)
        if (shift != 0) k.terms.push_back({shift, mask});
    // A field rotation: the lanes that move are exactly lanes 4f..4f+3, and
    // lane p takes the label of lane 4f + (p - 4f - j) mod 4 for one j.
    const int lanes = static_cast<int>(src.size());
    std::vector<int> moving;
    for (int p = 0; p < lanes; ++p)
        if (src[p] != p) moving.push_back(p);
    if (moving.size() == 4 && moving[0] % 4 == 0 && moving[3] == moving[0] + 3) {
        const int base = moving[0], j = ((moving[0] - src[moving[0]]) % 4 + 4) % 4;
        bool rotation = j != 0;
        for (int p = base; p < base + 4; ++p) rotation = rotation && src[p] == base + ((p - base - j) % 4 + 4) % 4;
        if (rotation) {
            k.fieldBit = 4 * base;
            k.fieldRotate = 4 * j;
        }
    }
    return k;
}

std::vector<std::pair<int, uint64_t>> WordKernel::rotations() const {
    std::map<int, uint64_t> byRotation;
    for (const auto& t : terms) byRotation[((t.shift % 64) + 64) % 64] |= t.mask;
    return {byRotation.begin(), byRotation.end()};
}

MoveKernel deriveKernel(const ir::Element& e, const analysis::StateLayout& layout) {
    MoveKernel mk;
    mk.words.resize(layout.words);
    for (size_t i = 0; i < layout.orbits.size(); ++i) {
        const auto& l = layout.orbits[i];
        if (!l.nibble()) {
            LaneKernel k;
            k.layoutOrbit = static_cast<int>(i);
            k.src.resize(l.lanes());
            k.twist.assign(l.lanes(), 0);
            k.oriented = l.oriWord >= 0;
            for (int p = 0; p < l.lanes(); ++p) k.src[p] = p < l.size ? e.perm[l.orbit][p] : p;
            if (l.oriWord >= 0)
                for (int p = 0; p < l.size; ++p) k.twist[p] = e.ori[l.orbit][p];
            mk.lanes.push_back(k);
            continue;
        }
        mk.words[l.permWord] = laneKernel(e.perm[l.orbit]);
        if (l.oriWord >= 0) {
            WordKernel k = laneKernel(e.perm[l.orbit]);
            k.modulus = l.orient;
            for (int p = 0; p < l.size; ++p) k.add |= static_cast<uint64_t>(e.ori[l.orbit][p]) << (4 * p);
            mk.words[l.oriWord] = k;
        }
    }
    return mk;
}

bool LaneKernel::moves() const {
    for (size_t p = 0; p < src.size(); ++p)
        if (src[p] != static_cast<int>(p) || twist[p] != 0) return true;
    return false;
}

bool LaneKernel::twists() const {
    for (int t : twist)
        if (t != 0) return true;
    return false;
}

int MoveKernel::operations() const {
    int ops = 0;
    // A lane kernel: one shuffle per field (a loop of one load and store per
    // lane past 64 lanes), three operations for the orientation add.
    for (const auto& k : lanes) {
        const int perField = k.src.size() <= 64 ? 1 : static_cast<int>(k.src.size());
        ops += perField * (k.oriented ? 2 : 1);
        if (k.twists()) ops += 3;
    }
    for (const auto& w : words) {
        if (w.terms.empty() && w.fieldBit < 0) continue;  // a word of a lane field
        if (w.fieldBit >= 0) {
            ops += w.fieldBit == 0 ? 1 : 3;
        } else {
            auto rotations = w.rotations();
            for (const auto& [rotation, mask] : rotations) ops += rotation == 0 ? 1 : 2;
            ops += static_cast<int>(rotations.size()) - 1;
        }
        if (w.modulus > 1 && w.add) ops += 4;
    }
    return ops;
}

std::vector<uint64_t> packElement(const ir::Element& e, const analysis::StateLayout& layout) {
    std::vector<uint64_t> w(layout.words, 0);
    for (const auto& l : layout.orbits) {
        if (!l.nibble()) {
            // lane p of the field at word first: bits laneBits*p of the field; padding labels are their lanes.
            auto set = [&](int first, int p, uint64_t v) {
                const int per = 64 / l.laneBits;
                w[first + p / per] |= v << (l.laneBits * (p % per));
            };
            for (int p = 0; p < l.lanes(); ++p) set(l.permWord, p, static_cast<uint64_t>(p < l.size ? e.perm[l.orbit][p] : p));
            if (l.oriWord >= 0)
                for (int p = 0; p < l.size; ++p) set(l.oriWord, p, static_cast<uint64_t>(e.ori[l.orbit][p]));
            continue;
        }
        for (int p = 0; p < l.size; ++p) w[l.permWord] |= static_cast<uint64_t>(e.perm[l.orbit][p]) << (4 * p);
        if (l.oriWord >= 0)
            for (int p = 0; p < l.size; ++p) w[l.oriWord] |= static_cast<uint64_t>(e.ori[l.orbit][p]) << (4 * p);
    }
    return w;
}

}  // namespace pz::analysis
