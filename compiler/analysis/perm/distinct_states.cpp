#include "compiler/analysis/perm/distinct_states.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_set>

#include "compiler/analysis/perm/colouring_stabiliser.hpp"
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

// The orbit of the colouring, breadth first over labelled states, each
// kept as its labelledKey (3 bytes a position: label, orientation); nullopt
// past `limit` states. The steps work on the keys themselves (a key's
// position i takes the bytes of position src[i], its orientation plus
// add[i]): no element is built per state.
std::optional<std::unordered_set<std::string>> enumerateColourings(const ir::Puzzle& puzzle, size_t limit) {
    // With illegal placements: the states reached by metric moves through
    // legal states only (a power may jump over an illegal state its
    // generator would enter).
    std::vector<const ir::Element*> moves;
    if (puzzle.illegal.empty())
        for (const auto& f : puzzle.families) moves.push_back(&f.base);
    else
        for (const auto& m : puzzle.moves)
            if (m.inMetric) moves.push_back(&m.effect);
    std::vector<int> offset, modulus;
    for (const auto& o : puzzle.orbits) {
        offset.push_back(static_cast<int>(modulus.size()));
        modulus.insert(modulus.end(), o.size, o.orient);
    }
    struct Step {
        std::vector<int> src, add;
    };
    std::vector<Step> steps;
    for (const ir::Element* m : moves) {
        Step st;
        for (size_t o = 0; o < puzzle.orbits.size(); ++o)
            for (int p = 0; p < puzzle.orbits[o].size; ++p) {
                st.src.push_back(offset[o] + m->perm[o][p]);
                st.add.push_back(m->ori[o][p]);
            }
        steps.push_back(std::move(st));
    }
    std::vector<std::pair<int, int>> illegal;  // (global position, label)
    for (const auto& il : puzzle.illegal) illegal.push_back({offset[il.orbit] + il.position, il.label});

    std::unordered_set<std::string> seen;
    std::vector<const std::string*> order;  // BFS queue: set nodes do not move
    order.push_back(&*seen.insert(labelledKey(puzzle, ir::identity(puzzle.orbits))).first);
    const size_t n = modulus.size();
    std::string next(3 * n, '\0');
    for (size_t head = 0; head < order.size(); ++head) {
        const std::string& cur = *order[head];
        for (const Step& st : steps) {
            for (size_t i = 0; i < n; ++i) {
                const size_t from = 3 * static_cast<size_t>(st.src[i]);
                next[3 * i] = cur[from];
                next[3 * i + 1] = cur[from + 1];
                const int twist = static_cast<unsigned char>(cur[from + 2]) + st.add[i];  // < 2 * modulus
                next[3 * i + 2] = static_cast<char>(twist >= modulus[i] ? twist - modulus[i] : twist);
            }
            bool legal = true;
            for (const auto& [g, label] : illegal)
                legal = legal && (static_cast<unsigned char>(next[3 * g]) | static_cast<unsigned char>(next[3 * g + 1]) << 8) != label;
            if (!legal) continue;
            auto [it, fresh] = seen.insert(next);
            if (!fresh) continue;
            if (seen.size() > limit) return std::nullopt;
            order.push_back(&*it);
        }
    }
    return seen;
}

// Bad input costs little: the normalising test composes every pair of a
// label swap and a move family, and the enumeration every state with every
// family, each over all positions; both stop at kMaxColouringWork
// position-steps (then the count is unknown, with the reason).
constexpr double kMaxColouringWork = 4e8;
double positionsOf(const ir::Puzzle& puzzle) {
    double n = 0;
    for (const auto& o : puzzle.orbits) n += o.size;
    return std::max(1.0, n);
}
bool normalisingTestAffordable(const ir::Puzzle& puzzle) {
    return static_cast<double>(colouringStabiliserGenerators(puzzle).size()) * std::max<size_t>(1, puzzle.families.size()) *
               positionsOf(puzzle) <= kMaxColouringWork;
}
size_t affordableStates(const ir::Puzzle& puzzle, size_t limit) {
    // The enumeration steps by the generators, or with illegal placements by
    // every metric move (enumerateColourings).
    size_t steps = puzzle.families.size();
    if (!puzzle.illegal.empty()) {
        steps = 0;
        for (const auto& m : puzzle.moves) steps += m.inMetric;
    }
    double states = kMaxColouringWork / (std::max<size_t>(1, steps) * positionsOf(puzzle));
    return std::min(limit, static_cast<size_t>(states));
}

}  // namespace

// Does G contain every even permutation of orbit o alone (the rest fixed,
// no twist)? Alt(n) is generated by (0 1 2) and the n-cycle (0 1 .. n-1)
// for odd n, the (n-1)-cycle (1 2 .. n-1) for even n: two sifts.
static bool containsAlternatingOn(PuzzleAnalysis& analysis, size_t o) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    const int n = puzzle.orbits[o].size;
    if (n < 3) return false;
    ir::Element three = ir::identity(puzzle.orbits), cycle = three;
    three.perm[o][0] = 1, three.perm[o][1] = 2, three.perm[o][2] = 0;
    const int first = n % 2 == 1 ? 0 : 1;
    for (int i = first; i < n; ++i) cycle.perm[o][i] = i + 1 < n ? i + 1 : first;
    return analysis.contains(three) && analysis.contains(cycle);
}

// Is the one-orbit element e untwisted and an even permutation?
static bool untwistedEven(const ir::Element& e) {
    const std::vector<int>& p = e.perm[0];
    if (std::any_of(e.ori[0].begin(), e.ori[0].end(), [](int t) { return t != 0; })) return false;
    std::vector<bool> seen(p.size());
    size_t cycles = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        if (seen[i]) continue;
        ++cycles;
        for (size_t j = i; !seen[j]; j = (size_t)p[j]) seen[j] = true;
    }
    return (p.size() - cycles) % 2 == 0;
}

bool colouringNormalises(PuzzleAnalysis& analysis) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    bool yNormalisesG = true, gNormalisesY = true;
    std::vector<int> alternating(puzzle.orbits.size(), -1);  // containsAlternatingOn, computed on demand
    // Y's generators are transpositions of like pieces on one orbit o, and
    // moves keep orbits: y f y^-1 and f y f^-1 agree with f and the identity
    // off o, so both tests run on orbit o alone (big cubes: ~1500 y x ~60
    // moves over thousands of positions otherwise).
    const auto restrict = [&](const ir::Element& e, size_t o) {
        ir::Element r;
        r.mirror = e.mirror;
        r.perm.push_back(e.perm[o]);
        r.ori.push_back(e.ori[o]);
        return r;
    };
    std::vector<ir::Element> inverses;
    for (const auto& f : puzzle.families) inverses.push_back(ir::inverse(f.base, puzzle.orbits));
    for (const auto& y : colouringStabiliserGenerators(puzzle)) {
        size_t o = 0;  // the orbit y moves
        auto moves = [&](size_t q) {
            for (size_t p = 0; p < y.perm[q].size(); ++p)
                if (y.perm[q][p] != static_cast<int>(p)) return true;
            return false;
        };
        while (!moves(o)) ++o;
        const std::vector<ir::Orbit> one{puzzle.orbits[o]};
        const ir::Element yo = restrict(y, o);  // an involution
        for (size_t k = 0; k < puzzle.families.size(); ++k) {
            const ir::Element fo = restrict(puzzle.families[k].base, o);
            const ir::Element fInvO = restrict(inverses[k], o);
            // y f y^-1 is in G iff the commutator c = y f y^-1 f^-1 is: it
            // is the identity when y and f commute (most pairs); c is even,
            // so it is in G when G holds every even permutation of o; else
            // sift it (it fixes the levels off o, which the sift skips).
            if (yNormalisesG) {
                const ir::Element co = ir::compose(ir::compose(ir::compose(yo, fo, one), yo, one), fInvO, one);
                if (!(co == ir::identity(one))) {
                    const bool even = untwistedEven(co);
                    if (even && alternating[o] < 0) alternating[o] = containsAlternatingOn(analysis, o);
                    if (!(even && alternating[o] == 1)) {
                        ir::Element c = ir::identity(puzzle.orbits);
                        c.perm[o] = co.perm[0];
                        c.ori[o] = co.ori[0];
                        if (!analysis.contains(c)) yNormalisesG = false;
                    }
                }
            }
            if (gNormalisesY) {
                const ir::Element z = ir::compose(ir::compose(fo, yo, one), fInvO, one);
                for (int p = 0; p < puzzle.orbits[o].size && gNormalisesY; ++p)
                    if (z.ori[0][p] != 0 || puzzle.orbits[o].solvedLabel[z.perm[0][p]] != puzzle.orbits[o].solvedLabel[p])
                        gNormalisesY = false;
            }
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
    if (mode_ < 0 && !puzzle.illegal.empty()) {
        // note [illegal placements]: the states reached through legal ones,
        // when few enough to enumerate; else as below, a necessary condition
        // (the search's depth limit ends the rest).
        if (auto states = enumerateColourings(puzzle, affordableStates(puzzle, kMaxEnumeratedStates))) {
            enumerated_ = std::move(*states);
            mode_ = 3;
        }
    }
    if (mode_ < 0) {
        mode_ = !hasIdenticalPieces(puzzle)                                              ? 0
                : normalisingTestAffordable(puzzle) && colouringNormalises(analysis_) ? 1
                                                                                      : 2;
        if (mode_ == 1) gy_ = colouringChain(puzzle);
        if (mode_ == 2 && puzzle.illegal.empty()) {  // with them, tried above
            if (auto states = enumerateColourings(puzzle, affordableStates(puzzle, kMaxEnumeratedStates))) {
                enumerated_ = std::move(*states);
                mode_ = 3;
            }
        }
        if (mode_ == 2 && colouringSearchAffordable(puzzle)) {
            search_ = std::make_unique<ColouringSearch>(puzzle, analysis_.groupOrder());
            mode_ = 4;
        }
    }
    if (lift.mirror) return false;
    if (mode_ == 0) return analysis_.contains(lift);
    if (mode_ == 1) return gy_->contains(PointAction(puzzle.orbits).toPoints(lift));
    if (mode_ == 3) return enumerated_.count(labelledKey(puzzle, lift)) > 0;
    if (mode_ == 4)
        if (auto found = search_->showsReachable(lift)) return found;
    why = "pzc cannot decide whether a state with identical pieces is reachable in " + puzzle.name +
          (mode_ == 4 ? ": the search for an element of the group showing it ran past its budget"
                      : ": it has too many states to enumerate and too many (position, orientation) points to search") +
          " (give a scramble instead)";
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

DistinctStates countDistinctStates(PuzzleAnalysis& analysis, size_t enumerationLimit, double searchWork) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    DistinctStates r;
    // note [illegal placements]: the group order counts the unrestricted
    // puzzle; the states reached through legal ones are only enumerated.
    const bool illegal = !puzzle.illegal.empty();
    if (!illegal && !hasIdenticalPieces(puzzle)) {
        r.known = true;
        r.count = analysis.groupOrder();
        r.method = "all pieces distinct";
        return r;
    }
    if (!illegal && normalisingTestAffordable(puzzle) && colouringNormalises(analysis)) {
        const mpz_class yOrder = colouringStabiliserOrder(puzzle);
        const mpz_class gyOrder = colouringChain(puzzle)->order();
        r.known = true;
        r.count = gyOrder / yOrder;
        r.method = "normalising";
        return r;
    }
    const bool searchable = colouringSearchAffordable(puzzle);
    if (!illegal && searchable) {
        ColouringSearch search(puzzle, analysis.groupOrder());
        if (const auto h = search.stabiliserOrder(searchWork)) {
            r.known = true;
            r.count = analysis.groupOrder() / *h;
            r.method = "stabiliser search";
            return r;
        }
    }
    const size_t limit = affordableStates(puzzle, enumerationLimit);
    auto states = enumerateColourings(puzzle, limit);
    if (!states) {
        r.reason = illegal ? "illegal placements restrict the states reached, and there are more than " +
                                 std::to_string(limit) + " to enumerate"
                           : std::string(searchable ? "the search for the moves that keep the solved colouring ran "
                                                      "past its budget"
                                                    : "the definition has more than " +
                                                          std::to_string(kMaxColouringSearchPoints) +
                                                          " (position, orientation) points, too many for the search "
                                                          "for the moves that keep the solved colouring") +
                                 " and there are more than " + std::to_string(limit) + " states to enumerate";
        return r;
    }
    r.known = true;
    r.count = static_cast<unsigned long>(states->size());
    r.method = "enumerated";
    return r;
}

}  // namespace pz::analysis
