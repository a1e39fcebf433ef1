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

// The chain of <G, Y>.
std::unique_ptr<StabilizerChain> colouringChain(const ir::Puzzle& puzzle) {
    std::vector<int> moduli;
    for (const auto& o : puzzle.orbits) moduli.insert(moduli.end(), static_cast<size_t>(o.size), o.orient);
    PointAction points(puzzle.orbits);
    auto gy = std::make_unique<StabilizerChain>(moduli);
    for (const auto& f : puzzle.families) gy->addGenerator(points.toPoints(f.base));
    for (const auto& y : colouringStabiliserGenerators(puzzle)) gy->addGenerator(points.toPoints(y));
    return gy;
}

// The orbit of the colouring, breadth first over labelled states (one
// element per state); nullopt past `limit` states.
std::optional<std::unordered_set<std::string>> enumerateColourings(const ir::Puzzle& puzzle, size_t limit) {
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
            if (seen.size() > limit) return std::nullopt;
            queue.push_back(std::move(next));
        }
    }
    return seen;
}

}  // namespace

bool colouringNormalises(PuzzleAnalysis& analysis) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    bool yNormalisesG = true, gNormalisesY = true;
    for (const auto& y : colouringStabiliserGenerators(puzzle)) {
        const ir::Element yInv = ir::inverse(y, puzzle.orbits);
        for (const auto& f : puzzle.families) {
            const ir::Element fInv = ir::inverse(f.base, puzzle.orbits);
            if (yNormalisesG &&
                !analysis.contains(ir::compose(ir::compose(y, f.base, puzzle.orbits), yInv, puzzle.orbits)))
                yNormalisesG = false;
            if (gNormalisesY &&
                !inColouringStabiliser(puzzle, ir::compose(ir::compose(f.base, y, puzzle.orbits), fInv, puzzle.orbits)))
                gNormalisesY = false;
            if (!yNormalisesG && !gNormalisesY) return false;
        }
    }
    return true;
}

bool isSolvedColouring(const ir::Puzzle& puzzle, const ir::Element& e) {
    return !e.mirror && inColouringStabiliser(puzzle, e);
}

ColouringMembership::ColouringMembership(PuzzleAnalysis& analysis) : analysis_(analysis) {}
ColouringMembership::~ColouringMembership() = default;

std::optional<bool> ColouringMembership::reachable(const ir::Element& lift, std::string& why) {
    const ir::Puzzle& puzzle = analysis_.puzzle();
    if (mode_ < 0) {
        mode_ = !hasIdenticalPieces(puzzle) ? 0 : colouringNormalises(analysis_) ? 1 : 2;
        if (mode_ == 1) gy_ = colouringChain(puzzle);
        if (mode_ == 2) {
            auto states = enumerateColourings(puzzle, kMaxEnumeratedStates);
            if (states) {
                enumerated_ = std::move(*states);
                mode_ = 3;
            }
        }
    }
    if (lift.mirror) return false;
    if (mode_ == 0) return analysis_.contains(lift);
    if (mode_ == 1) return gy_->contains(PointAction(puzzle.orbits).toPoints(lift));
    if (mode_ == 3) return enumerated_.count(labelledKey(puzzle, lift)) > 0;
    why = "pzc cannot decide whether a state with identical pieces is reachable in " + puzzle.name +
          ": the identical pieces' permutations do not normalise the group and it has more than " +
          std::to_string(kMaxEnumeratedStates) + " states to enumerate (give a scramble instead)";
    return std::nullopt;
}

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
    if (colouringNormalises(analysis)) {
        const mpz_class yOrder = colouringStabiliserOrder(puzzle);
        const mpz_class gyOrder = colouringChain(puzzle)->order();
        r.known = true;
        r.count = gyOrder / yOrder;
        r.method = "normalising";
        return r;
    }
    auto states = enumerateColourings(puzzle, enumerationLimit);
    if (!states) {
        r.reason = "the identical pieces' permutations do not normalise the group and there are more than " +
                   std::to_string(enumerationLimit) + " states to enumerate";
        return r;
    }
    r.known = true;
    r.count = static_cast<unsigned long>(states->size());
    r.method = "enumerated";
    return r;
}

}  // namespace pz::analysis
