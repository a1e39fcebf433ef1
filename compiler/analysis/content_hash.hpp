// contentHash: 64-bit FNV-1a of a text as 16 hex digits. Used for cache keys
// (compiled solvers) and definition hashes (pruning-table files), so the
// format is part of the on-disk cache: do not change it lightly.
#pragma once

#include <cstdio>
#include <cstddef>
#include <string>

namespace pz {

// The same hash fed piece by piece: contentHash of the concatenation, with
// no string of it built (a one-shot solve hashes its cached binary and the
// runtime headers, several hundred KiB, and fresh pages cost faults).
class ContentHasher {
public:
    void update(const char* p, size_t n) {
        for (size_t i = 0; i < n; ++i) {
            h_ ^= static_cast<unsigned char>(p[i]);
            h_ *= 1099511628211ULL;
        }
    }
    void update(const std::string& text) { update(text.data(), text.size()); }
    std::string hex() const {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", h_);
        return buf;
    }

private:
    unsigned long long h_ = 1469598103934665603ULL;
};

inline std::string contentHash(const std::string& text) {
    ContentHasher h;
    h.update(text);
    return h.hex();
}

}  // namespace pz
