// The canonical automaton on 3x3 Loopover (built as IR, no front end):
// rows commute with rows, columns with columns; the counts of canonical
// sequences bound the true new-state counts of facts.md from above, and
// with the look-back (note [look-back]) equal them up to four moves.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <sstream>

#include "compiler/analysis/perm/canonical_automaton.hpp"
#include "compiler/analysis/perm/coordinates.hpp"
#include "compiler/analysis/perm/state_layout.hpp"
#include "compiler/codegen/test_puzzles.hpp"

using namespace pz;

TEST_CASE("canonical automaton of 3x3 Loopover", "[canonical]") {
    auto p = codegen::testing::loopover(3, {});
    analysis::PuzzleAnalysis groups(p);
    auto a = analysis::buildCanonicalAutomaton(p, groups);
    REQUIRE(a.searchMoves.size() == 12);
    // Pairwise rules alone: start + one state per family (7). The look-back
    // states (last three moves) minimise to more.
    REQUIRE(a.next.size() > 7);
    for (int f = 0; f < 6; ++f)
        for (int g = 0; g < 6; ++g) REQUIRE(a.commute[f][g] == ((f < 3) == (g < 3)));
    auto counts = a.sequenceCounts(6);
    // True new states per depth: 1, 12, 96, 736, 5208, 28674, 89497 (facts.md).
    REQUIRE(counts[0] == 1);
    REQUIRE(counts[1] == 12);
    REQUIRE(counts[2] == 96);    // pairwise rules: all 2-move redundancies
    REQUIRE(counts[3] == 736);   // look-back: every redundancy up to 4 moves
    REQUIRE(counts[4] == 5208);
    REQUIRE(counts[5] >= 28674);  // beyond the look-back: an upper bound
    REQUIRE(counts[6] >= 89497);
}

namespace {

using Key = std::pair<std::vector<std::vector<int>>, std::vector<std::vector<int>>>;
Key keyOf(const ir::Element& e) { return {e.perm, e.ori}; }

// Exactness of the automaton up to maxLength: every element that some word
// of searched moves reaches in d <= maxLength moves, some canonical word
// reaches in d moves too (BFS over all words vs BFS over (automaton state,
// element) pairs, both with the IR algebra only).
void requireExact(const ir::Puzzle& p, int maxLength) {
    analysis::PuzzleAnalysis groups(p);
    auto a = analysis::buildCanonicalAutomaton(p, groups);
    std::map<Key, int> all, canonical;
    std::vector<ir::Element> frontier{ir::identity(p.orbits)};
    all[keyOf(frontier[0])] = 0;
    for (int d = 1; d <= maxLength; ++d) {
        std::vector<ir::Element> next;
        for (const auto& e : frontier)
            for (int m : a.searchMoves) {
                auto n = ir::compose(e, p.moves[m].effect, p.orbits);
                if (all.emplace(keyOf(n), d).second) next.push_back(n);
            }
        frontier = std::move(next);
    }
    std::set<std::pair<int, Key>> seen;
    std::vector<std::pair<int, ir::Element>> level{{a.start, ir::identity(p.orbits)}};
    canonical[keyOf(level[0].second)] = 0;
    for (int d = 1; d <= maxLength; ++d) {
        std::vector<std::pair<int, ir::Element>> next;
        for (const auto& [state, e] : level)
            for (size_t i = 0; i < a.searchMoves.size(); ++i) {
                int t = a.next[state][i];
                if (t < 0) continue;
                auto n = ir::compose(e, p.moves[a.searchMoves[i]].effect, p.orbits);
                canonical.emplace(keyOf(n), d);
                if (seen.insert({t, keyOf(n)}).second) next.emplace_back(t, n);
            }
        level = std::move(next);
    }
    REQUIRE(canonical.size() == all.size());
    for (const auto& [k, d] : all) {
        auto it = canonical.find(k);
        REQUIRE(it != canonical.end());
        REQUIRE(it->second == d);
    }
}

// Keeps only the moves named in `keep` in the metric (the others uncounted),
// or with `drop`, removes the others altogether (no powers declared).
ir::Puzzle withMetric(ir::Puzzle p, const std::set<std::string>& keep, bool drop) {
    std::vector<ir::Move> moves;
    for (auto m : p.moves) {
        m.inMetric = keep.count(m.name) > 0;
        if (m.inMetric || !drop) moves.push_back(m);
    }
    p.moves = moves;
    return p;
}

}  // namespace

TEST_CASE("canonical automaton is exact for every metric", "[canonical]") {
    // Every power searched (the old family rule was right here).
    requireExact(codegen::testing::loopover(3, {}), 5);
    requireExact(codegen::testing::twister(), 5);
    // Generators only, no inverses: R1 R1 = R1^-1 must stay allowed.
    auto gens = withMetric(codegen::testing::loopover(3, {}), {"R1", "R2", "R3", "C1", "C2", "C3"}, true);
    requireExact(gens, 6);
    analysis::PuzzleAnalysis groups(gens);
    auto a = analysis::buildCanonicalAutomaton(gens, groups);
    int afterR1 = a.next[a.start][0];
    REQUIRE(afterR1 >= 0);
    CHECK(a.next[afterR1][0] >= 0);  // R1 R1
    requireExact(withMetric(codegen::testing::twister(), {"L", "R"}, true), 9);
    // Quarter turns with the half turn uncounted: R1 R1 is the only R1x2.
    auto quarter = withMetric(codegen::testing::loopover(4, {}),
                              {"R1", "R1x3", "R2", "R2x3", "R3", "R3x3", "R4", "R4x3",
                               "C1", "C1x3", "C2", "C2x3", "C3", "C3x3", "C4", "C4x3"}, false);
    requireExact(quarter, 3);
    requireExact(withMetric(codegen::testing::twister(), {"L", "L'", "R", "R'"}, false), 6);
}

// note [look-back speed]: the automaton built with packed words, flat values
// and hash sets must equal the one of the plain enumeration below (the code
// before that change, kept here as the reference), state for state.
namespace reference {

using namespace pz::analysis;

constexpr int kLookBack = 4;
constexpr size_t kMaxLookBackWords = 400000;

using Word = std::vector<int>;  // search-move indices

static void extendWithLookBack(const ir::Puzzle& puzzle, const std::vector<int>& searchMoves,
                        std::vector<std::vector<int>>& raw, int& start) {
    const int moves = static_cast<int>(searchMoves.size());
    // Words as (pairwise state, moves, value), shortlex order by construction.
    struct Entry {
        int state;
        Word word;
        ir::Element value;
    };
    std::set<std::pair<std::vector<std::vector<int>>, std::vector<std::vector<int>>>> seen;
    std::set<Word> forbidden;
    auto hasForbiddenSuffix = [&](const Word& w) {
        for (int len = 2; len <= static_cast<int>(w.size()); ++len)
            if (forbidden.count(Word(w.end() - len, w.end()))) return true;
        return false;
    };
    std::vector<Entry> level{{0, {}, ir::identity(puzzle.orbits)}};
    seen.insert({level[0].value.perm, level[0].value.ori});
    size_t total = 1;
    for (int len = 1; len <= kLookBack; ++len) {
        std::vector<Entry> nextLevel;
        for (const auto& e : level)
            for (int m = 0; m < moves; ++m) {
                int t = raw[e.state][m];
                if (t < 0) continue;
                Word w = e.word;
                w.push_back(m);
                if (hasForbiddenSuffix(w)) continue;
                ir::Element v = ir::compose(e.value, puzzle.moves[searchMoves[m]].effect, puzzle.orbits);
                if (!seen.insert({v.perm, v.ori}).second) {
                    forbidden.insert(w);
                    continue;
                }
                if (++total > kMaxLookBackWords) return;
                if (len < kLookBack) nextLevel.push_back({t, std::move(w), std::move(v)});
            }
        level = std::move(nextLevel);
    }
    if (forbidden.empty()) return;
    // States: (pairwise state, last kLookBack - 1 moves); explored from start.
    std::map<std::pair<int, Word>, int> id;
    std::vector<std::pair<int, Word>> states{{start, {}}};
    id[states[0]] = 0;
    std::vector<std::vector<int>> ext;
    for (size_t i = 0; i < states.size(); ++i) {
        std::vector<int> row(moves, -1);
        for (int m = 0; m < moves; ++m) {
            int t = raw[states[i].first][m];
            if (t < 0) continue;
            Word w = states[i].second;
            w.push_back(m);
            if (hasForbiddenSuffix(w)) continue;
            if (static_cast<int>(w.size()) > kLookBack - 1) w.erase(w.begin());
            auto key = std::make_pair(t, w);
            auto [it, added] = id.emplace(key, static_cast<int>(states.size()));
            if (added) states.push_back(key);
            row[m] = it->second;
        }
        ext.push_back(std::move(row));
    }
    raw = std::move(ext);
    start = 0;
}

analysis::CanonicalAutomaton referenceAutomaton(const ir::Puzzle& puzzle, PuzzleAnalysis& analysis) {
    analysis::CanonicalAutomaton a;
    const int families = static_cast<int>(puzzle.families.size());
    for (int m = 0; m < static_cast<int>(puzzle.moves.size()); ++m)
        if (puzzle.moves[m].inMetric) a.searchMoves.push_back(m);
    a.commute.assign(families, std::vector<bool>(families, false));
    // A representative move per family (its generator if named, else any power).
    std::vector<int> representative(families, -1);
    for (int m = 0; m < static_cast<int>(puzzle.moves.size()); ++m) {
        int f = puzzle.moves[m].family;
        if (representative[f] < 0 || puzzle.moves[m].power == 1) representative[f] = m;
    }
    const auto& commutes = analysis.commutes();
    for (int f = 0; f < families; ++f)
        for (int g = 0; g < families; ++g)
            a.commute[f][g] = f == g || (representative[f] >= 0 && representative[g] >= 0 &&
                                         commutes[representative[f]][representative[g]]);
    // Unminimised: state 0 = start, state 1 + i = last move was search move i.
    // Pairwise rules (note [pairwise rules]): the two-move words in shortlex
    // order, each forbidden when its value is the identity, a searched move
    // or the value of an earlier two-move word.
    const int moves = static_cast<int>(a.searchMoves.size());
    std::vector<std::vector<int>> raw(moves + 1, std::vector<int>(moves, -1));
    {
        std::set<std::pair<std::vector<std::vector<int>>, std::vector<std::vector<int>>>> seen;
        const ir::Element id = ir::identity(puzzle.orbits);
        seen.insert({id.perm, id.ori});
        for (int i = 0; i < moves; ++i) {
            const auto& e = puzzle.moves[a.searchMoves[i]].effect;
            seen.insert({e.perm, e.ori});
            raw[0][i] = 1 + i;
        }
        for (int i = 0; i < moves; ++i)
            for (int j = 0; j < moves; ++j) {
                ir::Element v = ir::compose(puzzle.moves[a.searchMoves[i]].effect,
                                            puzzle.moves[a.searchMoves[j]].effect, puzzle.orbits);
                if (seen.insert({v.perm, v.ori}).second) raw[1 + i][j] = 1 + j;
            }
    }
    int startRaw = 0;
    extendWithLookBack(puzzle, a.searchMoves, raw, startRaw);
    const int rawStates = static_cast<int>(raw.size());
    // Moore minimisation: refine classes by (class, classes of successors).
    std::vector<int> cls(rawStates, 0);
    for (int round = 0;; ++round) {
        std::map<std::vector<int>, int> ids;
        std::vector<int> nc(rawStates);
        for (int s = 0; s < rawStates; ++s) {
            std::vector<int> sig{cls[s]};
            for (int t : raw[s]) sig.push_back(t < 0 ? -1 : cls[t]);
            nc[s] = ids.emplace(sig, static_cast<int>(ids.size())).first->second;
        }
        bool stable = nc == cls && round > 0;
        cls = nc;
        if (stable) break;
    }
    // Renumber classes in order of first appearance (start first): deterministic.
    std::map<int, int> order;
    order.emplace(cls[startRaw], 0);
    for (int s = 0; s < rawStates; ++s) order.emplace(cls[s], static_cast<int>(order.size()));
    a.next.assign(order.size(), std::vector<int>(moves, -1));
    for (int s = 0; s < rawStates; ++s)
        for (int i = 0; i < moves; ++i)
            a.next[order[cls[s]]][i] = raw[s][i] < 0 ? -1 : order[cls[raw[s][i]]];
    a.start = order[cls[startRaw]];
    return a;
}


}  // namespace reference

TEST_CASE("canonical automaton equals the plain look-back enumeration", "[canonical]") {
    std::vector<ir::Puzzle> puzzles = {
        codegen::testing::loopover(3, {}),    // values in one limb
        codegen::testing::loopover(4, {}),    // 64 bits: exactly one limb (slide4)
        codegen::testing::twister(),          // oriented pieces
        codegen::testing::twoOrbits(),        // two orbits, mixed orientation
        withMetric(codegen::testing::loopover(4, {}),
                   {"R1", "R1x3", "R2", "R2x3", "R3", "R3x3", "R4", "R4x3",
                    "C1", "C1x3", "C2", "C2x3", "C3", "C3x3", "C4", "C4x3"}, false),
        codegen::testing::loopover(5, {}),    // 125-bit values across two limbs; word cap
    };
    for (const auto& p : puzzles) {
        INFO(p.name);
        analysis::PuzzleAnalysis groups(p);
        auto fast = analysis::buildCanonicalAutomaton(p, groups);
        analysis::PuzzleAnalysis groups2(p);
        auto plain = reference::referenceAutomaton(p, groups2);
        REQUIRE(fast.searchMoves == plain.searchMoves);
        REQUIRE(fast.start == plain.start);
        REQUIRE(fast.commute == plain.commute);
        REQUIRE(fast.next == plain.next);
    }
}

TEST_CASE("state layout: one nibble word per orbit, orientation words after", "[layout]") {
    auto tw = codegen::testing::twister();
    DiagnosticEngine diags;
    analysis::StateLayout layout;
    REQUIRE(analysis::computeStateLayout(tw, layout, diags));
    REQUIRE(layout.words == 2);
    REQUIRE(layout.orbits[0].permWord == 0);
    REQUIRE(layout.orbits[0].oriWord == 1);
    REQUIRE(layout.orbits[0].laneBits == 4);
}

TEST_CASE("state layout: byte lanes past 16 positions or modulus 8, 16-bit lanes past 256", "[layout]") {
    auto tw = codegen::testing::twister();
    DiagnosticEngine diags;
    analysis::StateLayout layout;
    auto shape = [&](int size, int orient) {
        auto p = tw;
        p.orbits[0].size = size;
        p.orbits[0].orient = orient;
        p.orbits[0].solvedLabel.resize(size);
        for (int i = 0; i < size; ++i) p.orbits[0].solvedLabel[i] = i;
        REQUIRE(analysis::computeStateLayout(p, layout, diags));
        return layout.orbits[0];
    };
    // 17 positions: 32 byte lanes, 4 words per field; orientations after.
    auto l = shape(17, 3);
    REQUIRE((l.laneBits == 8 && l.lanes() == 32 && l.fieldWords == 4 && l.permWord == 0 && l.oriWord == 4));
    REQUIRE(layout.words == 8);
    REQUIRE(shape(16, 8).laneBits == 4);
    l = shape(12, 9);  // a modulus over 8 does not fit a nibble sum
    REQUIRE((l.laneBits == 8 && l.lanes() == 16));
    REQUIRE(shape(64, 1).lanes() == 64);
    l = shape(100, 1);  // past one vector: whole words of byte lanes
    REQUIRE((l.laneBits == 8 && l.lanes() == 104 && l.fieldWords == 13));
    l = shape(257, 2);
    REQUIRE((l.laneBits == 16 && l.lanes() == 260 && l.fieldWords == 65));
    REQUIRE(shape(200, 129).laneBits == 16);
    REQUIRE(!diags.hasErrors());
    // Identical pieces: the lanes hold labels (note [labelled lanes]).
    auto same = tw;
    same.orbits[0].solvedLabel = {0, 0, 1, 2, 3, 4};
    REQUIRE(analysis::computeStateLayout(same, layout, diags));
    REQUIRE(layout.orbits[0].labelled);
    REQUIRE(!diags.hasErrors());
}

TEST_CASE("reference coordinates: rank -> unrank -> rank for every value", "[coordinates]") {
    auto tw = codegen::testing::twister();
    DiagnosticEngine diags;
    std::vector<analysis::Coordinate> coords;
    REQUIRE(analysis::computeCoordinates(tw, coords, diags));
    REQUIRE(coords[0].size == 6 * 5 * 4 * 27);  // 3 of 6 ordered, x 3^3 orientations
    REQUIRE(coords[1].size == 729);             // 3^6 orientations
    REQUIRE(coords[2].size == 20);              // C(6,3)
    for (const auto& c : coords)
        for (uint64_t r = 0; r < c.size; ++r)
            if (analysis::isStateValue(c, r))  // note [parts on one orbit]: twosets has values that are not
                REQUIRE(analysis::referenceRank(c, analysis::referenceUnrank(c, r, tw.orbits)) == r);
    REQUIRE(!coords[4].everyValueIsState);
    REQUIRE(coords[3].everyValueIsState);  // positions x orientations: every pair is a state
}

TEST_CASE("reference coordinates: a move's image depends only on the value", "[coordinates]") {
    // Pruning tables are built by BFS over values (unrank, apply, rank), so
    // rank(e * m) must be a function of rank(e). Orientations without
    // positions were read per piece, which is not: the twist a move gives a
    // piece depends on where it is (pzc solve called reachable cube2
    // positions unreachable with `corners: orientations`).
    auto tw = codegen::testing::twister();
    DiagnosticEngine diags;
    std::vector<analysis::Coordinate> coords;
    REQUIRE(analysis::computeCoordinates(tw, coords, diags));
    std::mt19937_64 rng(7);
    for (const auto& c : coords) {
        ir::Element e = ir::identity(tw.orbits);
        for (int step = 0; step < 2000; ++step) {
            ir::Element rep = analysis::referenceUnrank(c, analysis::referenceRank(c, e), tw.orbits);
            for (const auto& mv : tw.moves)
                REQUIRE(analysis::referenceRank(c, ir::compose(e, mv.effect, tw.orbits)) ==
                        analysis::referenceRank(c, ir::compose(rep, mv.effect, tw.orbits)));
            e = ir::compose(e, tw.moves[rng() % tw.moves.size()].effect, tw.orbits);
        }
    }
}

TEST_CASE("coordinates: orientations alone of pieces that moves exchange with others are refused", "[coordinates]") {
    auto tw = codegen::testing::twister();
    tw.patterns[1].parts[0].pieces = {0, 1, 4, 3};  // block L; R exchanges 1 and 4 with 2 and 5
    DiagnosticEngine diags;
    std::vector<analysis::Coordinate> coords;
    REQUIRE(!analysis::computeCoordinates(tw, coords, diags));
    REQUIRE(diags.hasErrors());
}

TEST_CASE("coordinates: sizes past 64 bits are refused, not wrapped", "[coordinates]") {
    // 16! * 8^16 = 5.9e27: computed in 64 bits it wrapped (to 0 for the
    // issue's pattern with two more positions: kSize = 0, a segfault).
    ir::Puzzle p = codegen::testing::twister();
    p.orbits[0].size = 16;
    p.orbits[0].orient = 8;
    p.orbits[0].solvedLabel.clear();
    for (int i = 0; i < 16; ++i) p.orbits[0].solvedLabel.push_back(i);
    ir::Pattern pat;
    pat.name = "huge";
    ir::PatternPart part;
    for (int i = 0; i < 16; ++i) part.pieces.push_back(i);
    part.orientations = true;
    pat.parts.push_back(part);
    p.patterns = {pat};
    DiagnosticEngine diags;
    std::vector<analysis::Coordinate> coords;
    REQUIRE(!analysis::computeCoordinates(p, coords, diags));
    std::ostringstream text;
    diags.print(text);
    CHECK(text.str().find("has 5889241796446748858646528000 values") != std::string::npos);
    // 12 of 16 ordered: 16!/4! = 871,782,912,000 > 2^35 (fits 64 bits, still refused).
    p.patterns[0].parts[0].pieces.resize(12);
    p.patterns[0].parts[0].orientations = false;
    DiagnosticEngine again;
    REQUIRE(!analysis::computeCoordinates(p, coords, again));
    // 9 of 16 ordered: 4,151,347,200 values, accepted.
    p.patterns[0].parts[0].pieces.resize(9);
    DiagnosticEngine fine;
    REQUIRE(analysis::computeCoordinates(p, coords, fine));
    CHECK(coords[0].size == 4151347200ull);
}
