#include "compiler/analysis/canonical_automaton.hpp"

#include <map>
#include <sstream>


namespace pz::analysis {

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
    // Unminimised: state 0 = start, state 1 + f = last move in family f.
    const int moves = static_cast<int>(a.searchMoves.size());
    std::vector<std::vector<int>> raw(families + 1, std::vector<int>(moves, -1));
    for (int s = 0; s <= families; ++s)
        for (int i = 0; i < moves; ++i) {
            int g = puzzle.moves[a.searchMoves[i]].family;
            int f = s - 1;
            bool allowed = s == 0 || (g != f && !(a.commute[f][g] && g < f));
            if (allowed) raw[s][i] = 1 + g;
        }
    // Moore minimisation: refine classes by (class, classes of successors).
    std::vector<int> cls(families + 1, 0);
    for (int round = 0;; ++round) {
        std::map<std::vector<int>, int> ids;
        std::vector<int> nc(families + 1);
        for (int s = 0; s <= families; ++s) {
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
    for (int s = 0; s <= families; ++s) order.emplace(cls[s], static_cast<int>(order.size()));
    a.next.assign(order.size(), std::vector<int>(moves, -1));
    for (int s = 0; s <= families; ++s)
        for (int i = 0; i < moves; ++i)
            a.next[order[cls[s]]][i] = raw[s][i] < 0 ? -1 : order[cls[raw[s][i]]];
    a.start = order[cls[0]];
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
