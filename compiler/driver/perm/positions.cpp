// Scrambles and states of permutation puzzles (positions.hpp).
#include "compiler/driver/perm/positions.hpp"

#include <set>
#include <sstream>

#include "compiler/driver/options.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

namespace pz::driver {

std::vector<long> elementNumbers(const ir::Puzzle& p, const ir::Element& e) {
    std::vector<long> v;
    for (size_t o = 0; o < p.orbits.size(); ++o) v.insert(v.end(), e.perm[o].begin(), e.perm[o].end());
    for (size_t o = 0; o < p.orbits.size(); ++o)
        if (p.orbits[o].orient > 1) v.insert(v.end(), e.ori[o].begin(), e.ori[o].end());
    return v;
}

bool identicalPieces(const ir::Orbit& orbit) {
    return std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size() != orbit.solvedLabel.size();
}

namespace {

// An orbit with identical pieces may be given by labels (numbered from 0 by
// first appearance in `solved`) instead of a permutation: the numbers at
// v[at..] are then not a permutation, and each label occurs as often as in
// the solved state. The lift gives each label's pieces in increasing order
// (any lift shows the same state). nullopt: not labels of this orbit.
std::optional<std::vector<int>> liftLabels(const ir::Orbit& orbit, const std::vector<long>& v, size_t at) {
    std::vector<std::vector<int>> pieces;  // label -> pieces solved with it, decreasing
    for (int q = orbit.size - 1; q >= 0; --q) {
        if ((int)pieces.size() <= orbit.solvedLabel[q]) pieces.resize(orbit.solvedLabel[q] + 1);
        pieces[orbit.solvedLabel[q]].push_back(q);
    }
    if (!identicalPieces(orbit)) return std::nullopt;
    std::vector<int> perm(orbit.size);
    std::vector<bool> seen(orbit.size, false);
    bool permutation = true;
    for (int q = 0; q < orbit.size; ++q) {
        long x = v[at + q];
        if (x < 0 || x >= orbit.size || seen[x]) permutation = false;
        else seen[x] = true;
    }
    if (permutation) return std::nullopt;
    for (int q = 0; q < orbit.size; ++q) {
        long x = v[at + q];
        if (x < 0 || x >= (long)pieces.size() || pieces[x].empty()) return std::nullopt;
        perm[q] = pieces[x].back();
        pieces[x].pop_back();
    }
    return perm;
}

}  // namespace

// The inverse of elementNumbers, validated; error text in `why`.
std::optional<ir::Element> elementFromNumbers(const ir::Puzzle& p, const std::vector<long>& v, std::string& why) {
    ir::Element e = ir::identity(p.orbits);
    size_t want = 0;
    for (const auto& o : p.orbits) want += o.size * (o.orient > 1 ? 2 : 1);
    if (v.size() != want) {
        why = "a state of " + p.name + " has " + std::to_string(want) + " numbers, got " + std::to_string(v.size());
        return std::nullopt;
    }
    size_t i = 0;
    for (size_t o = 0; o < p.orbits.size(); ++o) {
        if (auto lift = liftLabels(p.orbits[o], v, i)) {  // identical pieces given by their labels
            e.perm[o] = *lift;
            i += p.orbits[o].size;
            continue;
        }
        std::vector<bool> seen(p.orbits[o].size, false);
        for (int q = 0; q < p.orbits[o].size; ++q, ++i) {
            if (v[i] < 0 || v[i] >= p.orbits[o].size || seen[v[i]]) {
                why = "orbit " + p.orbits[o].name + " is not a permutation" +
                      std::string(identicalPieces(p.orbits[o]) ? " nor a rearrangement of its solved labels" : "") +
                      " (number " + std::to_string(i + 1) + " is " +
                      std::to_string(v[i]) + ")";
                return std::nullopt;
            }
            seen[v[i]] = true;
            e.perm[o][q] = static_cast<int>(v[i]);
        }
    }
    for (size_t o = 0; o < p.orbits.size(); ++o) {
        if (p.orbits[o].orient <= 1) continue;
        for (int q = 0; q < p.orbits[o].size; ++q, ++i) {
            if (v[i] < 0 || v[i] >= p.orbits[o].orient) {
                why = "orbit " + p.orbits[o].name + " has orientations 0 to " + std::to_string(p.orbits[o].orient - 1) +
                      " (number " + std::to_string(i + 1) + " is " + std::to_string(v[i]) + ")";
                return std::nullopt;
            }
            e.ori[o][q] = static_cast<int>(v[i]);
        }
    }
    return e;
}

// The element of one scramble, or nullopt with the reason in `why`.
std::optional<ir::Element> scrambleElement(const ir::Puzzle& puzzle, const std::string& text, std::string& why) {
    DiagnosticEngine diags;
    auto e = ir::evaluateText(puzzle, text, "<scramble>", diags);
    if (!e) {
        std::ostringstream out;
        diags.print(out);
        why = out.str();
        while (!why.empty() && why.back() == '\n') why.pop_back();
        return std::nullopt;
    }
    if (e->mirror) {
        why = "the scramble evaluates to a mirror symmetry, not a state";
        return std::nullopt;
    }
    return e;
}

// The element of one state (the element's numbers), checked against the group.
// The analysis (Schreier–Sims) is built for the first state only: a solve
// of scrambles on a cached solver never needs it (note [solver index]).
std::optional<ir::Element> stateElement(pipeline::CompilationUnit& unit, const std::string& text, std::string& why) {
    const ir::Puzzle& puzzle = unit.puzzle();
    std::istringstream in(text);
    std::vector<long> nums;
    for (std::string tok; in >> tok;) {
        auto v = parseWholeNumber(tok, 0, 1u << 30);
        if (!v) {
            why = "bad state: '" + tok + "' is not a number";
            return std::nullopt;
        }
        nums.push_back(static_cast<long>(*v));
    }
    auto e = elementFromNumbers(puzzle, nums, why);
    if (!e) {
        why = "bad state: " + why;
        return std::nullopt;
    }
    // With identical pieces: whether any lift is in the group (note [distinct states]).
    auto reachable = unit.membership().reachable(*e, why);
    if (!reachable) {
        why = "bad state: " + why;
        return std::nullopt;
    }
    if (!*reachable) {
        why = "bad state: it cannot be reached by the moves of " + puzzle.name;
        return std::nullopt;
    }
    return e;
}

}  // namespace pz::driver
