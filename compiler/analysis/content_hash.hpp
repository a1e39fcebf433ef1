// contentHash: 64-bit FNV-1a of a text as 16 hex digits. Used for cache keys
// (compiled solvers) and definition hashes (pruning-table files), so the
// format is part of the on-disk cache: do not change it lightly.
#pragma once

#include <cstdio>
#include <string>

namespace pz {

inline std::string contentHash(const std::string& text) {
    unsigned long long h = 1469598103934665603ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", h);
    return buf;
}

}  // namespace pz
