#include "compiler/analysis/distinct_states.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_set>

#include "compiler/ir/element.hpp"

namespace pz::analysis {

namespace {

// Generators of Y: for each label of each orbit, the transpositions of
// consecutive positions holding it (they generate its symmetric group).
std::vector<ir::Element> colouringStabiliserGenerators(const ir::Puzzle& puzzle) {
    std::vector<ir::Element> gens;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        const auto& orbit = puzzle.orbits[o];
        std::map<int, int> last;  // label -> last position seen
        for (int p = 0; p < orbit.size; ++p) {
            auto it = last.find(orbit.solvedLabel[p]);
            if (it != last.end()) {
                ir::Element t = ir::identity(puzzle.orbits);
                std::swap(t.perm[o][it->second], t.perm[o][p]);
                gens.push_back(std::move(t));
            }
            last[orbit.solvedLabel[p]] = p;
        }
    }
    return gens;
}

// Membership in Y: untwisted, every piece lands on a position of its label.
bool inColouringStabiliser(const ir::Puzzle& puzzle, const ir::Element& e) {
    if (e.mirror) return false;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o)
        for (int p = 0; p < puzzle.orbits[o].size; ++p)
            if (e.ori[o][p] != 0 || puzzle.orbits[o].solvedLabel[e.perm[o][p]] != puzzle.orbits[o].solvedLabel[p])
                return false;
    return true;
}

// The labelled state of element e, as bytes: label then orientation per position.
std::string labelledKey(const ir::Puzzle& puzzle, const ir::Element& e) {
    std::string key;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o)
        for (int p = 0; p < puzzle.orbits[o].size; ++p) {
            int label = puzzle.orbits[o].solvedLabel[e.perm[o][p]];
            key.push_back(static_cast<char>(label & 0xFF));
            key.push_back(static_cast<char>(label >> 8));
            key.push_back(static_cast<char>(e.ori[o][p]));
        }
    return key;
}

}  // namespace

bool hasIdenticalPieces(const ir::Puzzle& puzzle) {
    for (const auto& orbit : puzzle.orbits) {
        std::vector<int> labels = orbit.solvedLabel;
        std::sort(labels.begin(), labels.end());
        if (std::adjacent_find(labels.begin(), labels.end()) != labels.end()) return true;
    }
    return false;
}

mpz_class colouringStabiliserOrder(const ir::Puzzle& puzzle) {
    mpz_class order = 1;
    for (const auto& orbit : puzzle.orbits) {
        std::map<int, unsigned long> count;
        for (int label : orbit.solvedLabel) ++count[label];
        for (const auto& [label, c] : count) {
            mpz_class f;
            mpz_fac_ui(f.get_mpz_t(), c);
            order *= f;
        }
    }
    return order;
}

DistinctStates countDistinctStates(PuzzleAnalysis& analysis, size_t enumerationLimit) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    DistinctStates r;
    if (!hasIdenticalPieces(puzzle)) {
        r.known = true;
        r.count = analysis.groupOrder();
        r.method = "all pieces distinct";
        return r;
    }
    const auto ys = colouringStabiliserGenerators(puzzle);
    // Is YG a group? Y normalises G, or G normalises Y (generators suffice).
    bool yNormalisesG = true, gNormalisesY = true;
    for (const auto& y : ys) {
        const ir::Element yInv = ir::inverse(y, puzzle.orbits);
        for (const auto& f : puzzle.families) {
            const ir::Element fInv = ir::inverse(f.base, puzzle.orbits);
            if (yNormalisesG &&
                !analysis.contains(ir::compose(ir::compose(y, f.base, puzzle.orbits), yInv, puzzle.orbits)))
                yNormalisesG = false;
            if (gNormalisesY &&
                !inColouringStabiliser(puzzle, ir::compose(ir::compose(f.base, y, puzzle.orbits), fInv, puzzle.orbits)))
                gNormalisesY = false;
            if (!yNormalisesG && !gNormalisesY) break;
        }
        if (!yNormalisesG && !gNormalisesY) break;
    }
    if (yNormalisesG || gNormalisesY) {
        std::vector<int> moduli;
        for (const auto& o : puzzle.orbits) moduli.insert(moduli.end(), static_cast<size_t>(o.size), o.orient);
        PointAction points(puzzle.orbits);
        StabilizerChain gy(moduli);
        for (const auto& f : puzzle.families) gy.addGenerator(points.toPoints(f.base));
        for (const auto& y : ys) gy.addGenerator(points.toPoints(y));
        const mpz_class yOrder = colouringStabiliserOrder(puzzle);
        const mpz_class gyOrder = gy.order();
        r.known = true;
        r.count = gyOrder / yOrder;
        r.method = "normalising";
        return r;
    }
    // Enumerate the orbit of the colouring (breadth first over labelled
    // states, one element per state), up to the limit.
    std::unordered_set<std::string> seen;
    std::deque<ir::Element> queue;
    const ir::Element start = ir::identity(puzzle.orbits);
    seen.insert(labelledKey(puzzle, start));
    queue.push_back(start);
    while (!queue.empty()) {
        const ir::Element e = std::move(queue.front());
        queue.pop_front();
        for (const auto& f : puzzle.families) {
            ir::Element next = ir::compose(e, f.base, puzzle.orbits);
            if (!seen.insert(labelledKey(puzzle, next)).second) continue;
            if (seen.size() > enumerationLimit) {
                r.reason = "the identical pieces' permutations do not normalise the group and there are more than " +
                           std::to_string(enumerationLimit) + " states to enumerate";
                return r;
            }
            queue.push_back(std::move(next));
        }
    }
    r.known = true;
    r.count = static_cast<unsigned long>(seen.size());
    r.method = "enumerated";
    return r;
}

}  // namespace pz::analysis
