#include "compiler/codegen/move_kernels.hpp"

#include <cstdio>
#include <map>

namespace pz::codegen {

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
    return k;
}

MoveKernel deriveKernel(const ir::Element& e, const analysis::StateLayout& layout) {
    MoveKernel mk;
    mk.words.resize(layout.words);
    for (const auto& l : layout.orbits) {
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

int MoveKernel::operations() const {
    int ops = 0;
    for (const auto& w : words) {
        for (const auto& t : w.terms) ops += t.shift == 0 ? 1 : 2;
        ops += static_cast<int>(w.terms.size()) - 1;
        if (w.modulus > 1 && w.add) ops += 4;
    }
    return ops;
}

std::vector<uint64_t> packElement(const ir::Element& e, const analysis::StateLayout& layout) {
    std::vector<uint64_t> w(layout.words, 0);
    for (const auto& l : layout.orbits) {
        for (int p = 0; p < l.size; ++p) w[l.permWord] |= static_cast<uint64_t>(e.perm[l.orbit][p]) << (4 * p);
        if (l.oriWord >= 0)
            for (int p = 0; p < l.size; ++p) w[l.oriWord] |= static_cast<uint64_t>(e.ori[l.orbit][p]) << (4 * p);
    }
    return w;
}

}  // namespace pz::codegen
