#include "compiler/analysis/canonical_automaton.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "compiler/ir/element.hpp"

namespace pz::analysis {

namespace {

// note [pairwise rules]
// Every two-move word of searched moves, in shortlex order, is kept only if
// its value is new: not the identity, not a searched move, not the value of
// an earlier two-move word. Comparing values (not families) is what makes
// the rules right for any metric: the old rule "never two moves of one
// family in a row" assumed every power of the family was searched, and cut
// the only path to U2 in a quarter-turn metric, or to A^2 when a family has
// just its generator (no inverse in the move set).
//
// note [look-back]
// The pairwise rules leave sequences that equal other sequences (on slide4,
// 99,306 canonical sequences of length 4 reach 97,558 states). Enumerate the
// pairwise-canonical words up to kLookBack moves in shortlex order (moves
// ordered by search index, the order the pairwise rules use too) and forbid
// each word whose value an earlier word already reached. Exact for optimal
// search: the shortlex-least optimal solution contains no forbidden factor
// (replacing it by the earlier word would give a smaller one), and it passes
// the pairwise rules for the same reason. The automaton state becomes the
// last kLookBack - 1 moves, minimised afterwards. Skipped when the words
// would be too many to enumerate.
constexpr int kLookBack = 4;
constexpr size_t kMaxLookBackWords = 400000;

using Word = std::vector<int>;  // search-move indices

void extendWithLookBack(const ir::Puzzle& puzzle, const std::vector<int>& searchMoves,
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

}  // namespace

CanonicalAutomaton buildCanonicalAutomaton(const ir::Puzzle& puzzle, PuzzleAnalysis& analysis) {
    CanonicalAutomaton a;
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

std::vector<unsigned long long> CanonicalAutomaton::sequenceCounts(int maxLength) const {
    std::vector<unsigned long long> counts;
    std::vector<unsigned long long> at(next.size(), 0);
    at[start] = 1;
    for (int len = 0; len <= maxLength; ++len) {
        unsigned long long total = 0;
        for (auto c : at) total += c;
        counts.push_back(total);
        std::vector<unsigned long long> nx(next.size(), 0);
        for (size_t s = 0; s < next.size(); ++s)
            for (int t : next[s])
                if (t >= 0) nx[t] += at[s];
        at = nx;
    }
    return counts;
}

std::string CanonicalAutomaton::describe(const ir::Puzzle& puzzle) const {
    std::ostringstream s;
    s << "canonical automaton: " << next.size() << " states, " << searchMoves.size() << " moves\n";
    for (size_t st = 0; st < next.size(); ++st) {
        s << "  state " << st << (static_cast<int>(st) == start ? " (start)" : "") << ":";
        for (size_t i = 0; i < next[st].size(); ++i)
            if (next[st][i] >= 0) s << ' ' << puzzle.moves[searchMoves[i]].name << "->" << next[st][i];
        s << "\n";
    }
    auto counts = sequenceCounts(6);
    s << "  canonical sequences by length:";
    for (auto c : counts) s << ' ' << c;
    s << "\n";
    return s.str();
}

}  // namespace pz::analysis
