#include "compiler/analysis/default_patterns.hpp"

#include <set>

#include "compiler/analysis/coordinates.hpp"

namespace pz::analysis {

namespace {

// C(n,k) * k! * m^k, or 0 past `cap` (no overflow).
uint64_t partValues(int n, int k, int m, uint64_t cap) {
    long double v = 1;
    for (int i = 0; i < k; ++i) v *= static_cast<long double>(n - i) * m;  // n!/(n-k)! * m^k
    return v > static_cast<long double>(cap) ? 0 : static_cast<uint64_t>(v);
}

}  // namespace

std::vector<ir::Pattern> defaultPatterns(const ir::Puzzle& puzzle) {
    std::vector<ir::Pattern> out;
    if (!puzzle.patterns.empty()) return out;
    std::vector<int> orbits;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        const auto& orbit = puzzle.orbits[o];
        if (orbit.size < 2 || orbit.size > kMaxPatternOrbit) continue;
        if (std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size() != orbit.solvedLabel.size()) continue;
        bool moved = false;
        for (const auto& mv : puzzle.moves)
            for (int p = 0; p < orbit.size && !moved; ++p)
                moved = mv.effect.perm[o][p] != p || (orbit.orient > 1 && mv.effect.ori[o][p] != 0);
        if (moved) orbits.push_back(static_cast<int>(o));
    }
    if (orbits.empty()) return out;
    const uint64_t share = kDefaultPatternValues / orbits.size();
    for (int o : orbits) {
        const auto& orbit = puzzle.orbits[o];
        int k = 0;
        while (k < orbit.size && partValues(orbit.size, k + 1, orbit.orient, share) != 0) ++k;
        if (k == 0) continue;
        ir::Pattern pat;
        pat.name = "default_" + orbit.name;
        ir::PatternPart part;
        part.orbit = o;
        for (int i = 0; i < k; ++i) part.pieces.push_back(i);
        part.orientations = orbit.orient > 1;
        pat.parts.push_back(part);
        pat.where = orbit.where;
        out.push_back(pat);
    }
    return out;
}

}  // namespace pz::analysis
