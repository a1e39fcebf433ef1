#include "compiler/interp/state_set.hpp"

#include <algorithm>
#include <cstring>

namespace pz::interp {

namespace {
int bitsFor(int maxValue) {
    int bits = 0;
    while ((1 << bits) <= maxValue) ++bits;
    return bits;
}
uint64_t mix(uint64_t x) {  // splitmix64 finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}
}  // namespace

StatePacker::StatePacker(const Interpreter& interp, int maxPiece) {
    const auto& orbits = interp.puzzle().orbits;
    const int pieceBits = std::max(1, bitsFor(maxPiece));
    int word = 0, shift = 0;
    auto place = [&](int position, int bits, bool orientation) {
        if (bits == 0) return;
        if (shift + bits > 64) {
            ++word;
            shift = 0;
        }
        fields_.push_back({position, shift, word, bits, orientation});
        shift += bits;
    };
    for (size_t o = 0; o < orbits.size(); ++o)
        for (int p = 0; p < orbits[o].size; ++p) {
            const int i = interp.offset((int)o) + p;
            place(i, pieceBits, false);
            place(i, bitsFor(orbits[o].orient - 1), true);
        }
    words_ = word + 1;
    positions_ = interp.positionCount();
}

void StatePacker::pack(const State& s, uint64_t* out) const {
    std::fill(out, out + words_, 0);
    for (const auto& f : fields_) {
        const uint64_t v = (uint64_t)(f.orientation ? s.ori[f.position] : s.piece[f.position]);
        out[f.word] |= v << f.shift;
    }
}

void StatePacker::unpack(const uint64_t* in, State& s) const {
    s.piece.assign(positions_, 0);
    s.ori.assign(positions_, 0);
    for (const auto& f : fields_) {
        const int v = (int)((in[f.word] >> f.shift) & ((uint64_t(1) << f.bits) - 1));
        (f.orientation ? s.ori : s.piece)[f.position] = v;
    }
}

PackedStateSet::PackedStateSet(int words) : words_(words), keys_(1024 * (size_t)words), used_(1024) {}

size_t PackedStateSet::slot(const uint64_t* key) const {
    uint64_t h = 0;
    for (int w = 0; w < words_; ++w) h = mix(h ^ key[w]);
    const size_t mask = used_.size() - 1;
    size_t i = h & mask;
    while (used_[i] && std::memcmp(&keys_[i * words_], key, sizeof(uint64_t) * words_) != 0) i = (i + 1) & mask;
    return i;
}

bool PackedStateSet::contains(const uint64_t* key) const { return used_[slot(key)]; }

bool PackedStateSet::insert(const uint64_t* key) {
    size_t i = slot(key);
    if (used_[i]) return false;
    std::memcpy(&keys_[i * words_], key, sizeof(uint64_t) * words_);
    used_[i] = 1;
    if (++size_ * 2 > used_.size()) grow();
    return true;
}

void PackedStateSet::grow() {
    std::vector<uint64_t> oldKeys = std::move(keys_);
    std::vector<uint8_t> oldUsed = std::move(used_);
    used_.assign(oldUsed.size() * 2, 0);
    keys_.assign(used_.size() * words_, 0);
    for (size_t i = 0; i < oldUsed.size(); ++i)
        if (oldUsed[i]) {
            size_t j = slot(&oldKeys[i * words_]);
            std::memcpy(&keys_[j * words_], &oldKeys[i * words_], sizeof(uint64_t) * words_);
            used_[j] = 1;
        }
}

std::vector<uint64_t> depthCounts(const Interpreter& interp, const std::vector<int>& moves, int maxDepth) {
    const State start = interp.solvedLabels();
    const int maxPiece = start.piece.empty() ? 0 : *std::max_element(start.piece.begin(), start.piece.end());
    const StatePacker packer(interp, maxPiece);
    const int words = packer.words();
    PackedStateSet seen(words);
    std::vector<uint64_t> frontier(words), next, key(words);
    packer.pack(start, frontier.data());
    seen.insert(frontier.data());
    std::vector<uint64_t> counts{1};
    State s, t;
    for (int depth = 1; depth <= maxDepth && !frontier.empty(); ++depth) {
        next.clear();
        for (size_t f = 0; f < frontier.size(); f += words) {
            packer.unpack(&frontier[f], s);
            for (int m : moves) {
                interp.applyMove(s, m, t);
                packer.pack(t, key.data());
                if (seen.insert(key.data())) next.insert(next.end(), key.begin(), key.end());
            }
        }
        if (next.empty()) break;
        counts.push_back(next.size() / words);
        std::swap(frontier, next);
    }
    return counts;
}

}  // namespace pz::interp
