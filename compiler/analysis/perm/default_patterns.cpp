#include "compiler/analysis/perm/default_patterns.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "compiler/analysis/perm/coordinates.hpp"

namespace pz::analysis {

namespace {

// C(n,k) * k! * m^k, or 0 past `cap` (no overflow).
uint64_t partValues(int n, int k, int m, uint64_t cap) {
    long double v = 1;
    for (int i = 0; i < k; ++i) v *= static_cast<long double>(n - i) * m;  // n!/(n-k)! * m^k
    return v > static_cast<long double>(cap) ? 0 : static_cast<uint64_t>(v);
}

// Values of a labelled part tracking whole label classes of sizes `counts`
// (k pieces in all) on n positions with modulus m: C(n,k) * k!/prod c! *
// m^k (pz::LabelCoordinate; ordered when more than one class), or 0 past cap.
uint64_t labelledValues(int n, const std::vector<int>& counts, int m, uint64_t cap) {
    int k = 0;
    for (int c : counts) k += c;
    long double v = 1;
    for (int i = 0; i < k; ++i) v = v * (n - i) / (i + 1);  // C(n,k)
    if (counts.size() > 1) {
        int j = 0;
        for (int c : counts)
            for (int i = 1; i <= c; ++i) v = v * (++j) / i;  // k! / prod c!
    }
    for (int i = 0; i < k; ++i) v *= m;
    return v > static_cast<long double>(cap) ? 0 : static_cast<uint64_t>(v + 0.5L);
}

// The default pattern of an orbit with identical pieces: the label
// classes in order of first appearance in the solved state, as many as fit
// `share`, never all of them (the last class is determined by the others);
// or, when that gives more values, as many classes as one unordered set
// (the 4x4x4's centres: the U and D centres as one set, C(24,8) = 735,471
// values, where U and D ordered would be 51 million and U alone 10,626).
std::optional<ir::Pattern> labelledDefault(const ir::Orbit& orbit, int o, uint64_t share) {
    std::vector<int> order;
    for (int l : orbit.solvedLabel)
        if (std::find(order.begin(), order.end(), l) == order.end()) order.push_back(l);
    auto countOf = [&](size_t i) {
        return static_cast<int>(std::count(orbit.solvedLabel.begin(), orbit.solvedLabel.end(), order[i]));
    };
    std::vector<int> counts;
    size_t taken = 0;
    uint64_t values = 0;
    while (taken + 1 < order.size()) {
        std::vector<int> next = counts;
        next.push_back(countOf(taken));
        const uint64_t v = labelledValues(orbit.size, next, orbit.orient, share);
        if (v == 0) break;
        counts = next;
        values = v;
        ++taken;
    }
    // One set of the first j classes: C(n, k) * m^k values.
    bool unordered = false;
    int pieces = 0;
    for (size_t j = 0; j + 1 < order.size(); ++j) {
        pieces += countOf(j);
        const uint64_t v = labelledValues(orbit.size, {pieces}, orbit.orient, share);
        if (v == 0) break;
        if (j + 1 >= 2 && v > values) {
            values = v;
            taken = j + 1;
            unordered = true;
        }
    }
    if (taken == 0) return std::nullopt;
    ir::Pattern pat;
    pat.name = "default_" + orbit.name;
    ir::PatternPart part;
    part.orbit = o;
    for (int p = 0; p < orbit.size; ++p)
        if (std::find(order.begin(), order.begin() + taken, orbit.solvedLabel[p]) != order.begin() + taken)
            part.pieces.push_back(p);
    part.orientations = orbit.orient > 1;
    part.unordered = unordered;
    pat.parts.push_back(part);
    pat.where = orbit.where;
    return pat;
}

}  // namespace

uint64_t defaultPatternValuesFor(uint64_t bytes) {
    return std::clamp<uint64_t>(bytes, kDefaultPatternValues, kMaxDefaultPatternValues);
}

std::vector<ir::Pattern> defaultPatterns(const ir::Puzzle& puzzle, uint64_t values) {
    std::vector<ir::Pattern> out;
    if (!puzzle.patterns.empty()) return out;
    std::vector<int> orbits;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        const auto& orbit = puzzle.orbits[o];
        if (orbit.size < 2 || orbit.size > kMaxPatternOrbit) continue;
        const size_t labels = std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size();
        // Identical pieces: whole label classes are tracked, which needs
        // the labelled-pattern limits (4-bit lanes) and two labels at least.
        if (labels != orbit.solvedLabel.size() &&
            (labels < 2 || orbit.size > kMaxLabelledPatternOrbit || orbit.orient > kMaxLabelledPatternOrient))
            continue;
        bool moved = false;
        for (const auto& mv : puzzle.moves)
            for (int p = 0; p < orbit.size && !moved; ++p)
                moved = mv.effect.perm[o][p] != p || (orbit.orient > 1 && mv.effect.ori[o][p] != 0);
        if (moved) orbits.push_back(static_cast<int>(o));
    }
    if (orbits.empty()) return out;
    const uint64_t share = values / orbits.size();
    for (int o : orbits) {
        const auto& orbit = puzzle.orbits[o];
        if (std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size() != orbit.solvedLabel.size()) {
            if (auto pat = labelledDefault(orbit, o, share)) out.push_back(*pat);
            continue;
        }
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
