#include "compiler/analysis/perm/canonical_automaton.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

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
// would be too many to enumerate, or their values too big to hold: a word
// keeps its value (two ints per piece) and a packed key, so a 20x20x20
// (2,184 pieces) reached 11 GiB before the word limit.
constexpr int kLookBack = 4;
constexpr size_t kMaxLookBackWords = 400000;
constexpr size_t kMaxLookBackBytes = size_t{512} << 20;

// note [look-back speed]
// pzc builds this automaton on every run that needs a model (solve, build,
// check), so the enumeration works on flat values: a word is packed into 64
// bits (16 bits a move, move + 1 so the length is implied), a value is the
// concatenation of its orbits' permutations and orientations, and the sets
// are hash sets. The words, their order and the forbidden set are exactly
// those of the enumeration described in note [look-back].
constexpr int kWordBits = 16;
static_assert(kLookBack * kWordBits <= 64, "a look-back word must pack into 64 bits");

// The packed word of w[0..n).
uint64_t packWord(const int* w, int n) {
    uint64_t h = 0;
    for (int i = 0; i < n; ++i) h = (h << kWordBits) | static_cast<uint64_t>(w[i] + 1);
    return h;
}

struct SmallWord {
    int m[kLookBack];
    int n = 0;
};

// An exact set of fixed-size bit-packed values (limbs 64-bit words each):
// open addressing, linear probing, grown at half load.
class PackedValueSet {
public:
    explicit PackedValueSet(size_t limbs) : limbs_(limbs) { resize(1 << 12); }
    // Adds key[0..limbs); true when it was not there.
    bool insert(const uint64_t* key) {
        if (2 * (count_ + 1) > capacity_) resize(capacity_ * 2);
        if (!place(key)) return false;
        ++count_;
        return true;
    }

private:
    static uint64_t hash(const uint64_t* key, size_t limbs) {
        uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (size_t i = 0; i < limbs; ++i) {
            h ^= key[i];
            h *= 0xbf58476d1ce4e5b9ULL;
            h ^= h >> 31;
        }
        return h;
    }
    bool place(const uint64_t* key) {
        for (size_t at = hash(key, limbs_) & (capacity_ - 1);; at = (at + 1) & (capacity_ - 1)) {
            uint64_t* slot = slots_.data() + at * limbs_;
            if (!used_[at]) {
                std::memcpy(slot, key, limbs_ * sizeof(uint64_t));
                used_[at] = 1;
                return true;
            }
            if (std::memcmp(slot, key, limbs_ * sizeof(uint64_t)) == 0) return false;
        }
    }
    void resize(size_t capacity) {
        std::vector<uint64_t> old = std::move(slots_);
        std::vector<uint8_t> oldUsed = std::move(used_);
        capacity_ = capacity;
        slots_.assign(capacity_ * limbs_, 0);
        used_.assign(capacity_, 0);
        for (size_t i = 0; i < oldUsed.size(); ++i)
            if (oldUsed[i]) place(old.data() + i * limbs_);
    }
    size_t limbs_, capacity_ = 0, count_ = 0;
    std::vector<uint64_t> slots_;
    std::vector<uint8_t> used_;
};

// The number of bits that hold 0..n-1.
int bitsFor(int n) {
    int b = 0;
    while ((1L << b) < n) ++b;
    return b;
}

void extendWithLookBack(const ir::Puzzle& puzzle, const std::vector<int>& searchMoves,
                        std::vector<std::vector<int>>& raw, int& start) {
    const int moves = static_cast<int>(searchMoves.size());
    // Packed words and states hold a move (and a pairwise state) in 16 bits.
    if (moves + 1 >= (1 << kWordBits) || static_cast<long>(raw.size()) >= (1L << kWordBits)) return;
    // Flat values: piece k of orbit o at offset[o] + k; perm entries are
    // orbit-local positions, as in ir::Element.
    const auto& orbits = puzzle.orbits;
    std::vector<int> offset, orbitOf, orient;
    int width = 0;
    for (size_t o = 0; o < orbits.size(); ++o) {
        offset.push_back(width);
        for (int k = 0; k < orbits[o].size; ++k) {
            orbitOf.push_back(static_cast<int>(o));
            orient.push_back(orbits[o].orient);
        }
        width += orbits[o].size;
    }
    auto mod = [](int v, int m) { return ((v % m) + m) % m; };
    // Each searched move: global source index, orientation, mirror flag.
    std::vector<std::vector<int>> moveSrc(moves), moveOri(moves);
    std::vector<bool> moveMirror(moves);
    for (int m = 0; m < moves; ++m) {
        const auto& e = puzzle.moves[searchMoves[m]].effect;
        moveMirror[m] = e.mirror;
        for (size_t o = 0; o < orbits.size(); ++o)
            for (int k = 0; k < orbits[o].size; ++k) {
                moveSrc[m].push_back(offset[o] + e.perm[o][k]);
                moveOri[m].push_back(e.ori[o][k]);
            }
    }
    // A value's key: its permutation then its orientations (the mirror flag
    // is not part of it, as before), each entry in the fewest bits that hold
    // it (none for an unoriented piece's orientation), packed into limbs.
    std::vector<int> permBits(width), oriBits(width);
    size_t keyBits = 0;
    for (int k = 0; k < width; ++k) {
        permBits[k] = bitsFor(orbits[orbitOf[k]].size);
        oriBits[k] = bitsFor(orient[k]);
        keyBits += permBits[k] + oriBits[k];
    }
    const size_t limbs = std::max<size_t>(1, (keyBits + 63) / 64);
    std::vector<uint64_t> key(limbs);
    auto keyOf = [&](const int* perm, const int* ori) {
        std::fill(key.begin(), key.end(), 0);
        size_t at = 0;
        auto put = [&](uint64_t v, int bits) {
            if (!bits) return;
            key[at / 64] |= v << (at % 64);
            if (at % 64 + bits > 64) key[at / 64 + 1] |= v >> (64 - at % 64);
            at += bits;
        };
        for (int k = 0; k < width; ++k) put(static_cast<uint64_t>(perm[k]), permBits[k]);
        for (int k = 0; k < width; ++k) put(static_cast<uint64_t>(ori[k]), oriBits[k]);
        return key.data();
    };
    // Words as (pairwise state, moves, value), shortlex order by construction.
    struct Entry {
        int state;
        SmallWord word;
        bool mirror;
        size_t value;  // index into the level's value buffer (perm then ori)
    };
    // Bytes per word: its value (levels below kLookBack) and its key in
    // `seen` (at most half full).
    const size_t wordBytes = static_cast<size_t>(width) * 2 * sizeof(int) + limbs * sizeof(uint64_t) * 2 + 2;
    const size_t maxWords = std::min(kMaxLookBackWords, kMaxLookBackBytes / wordBytes);
    PackedValueSet seen(limbs);
    std::unordered_set<uint64_t> forbidden;
    auto hasForbiddenSuffix = [&](const SmallWord& w) {
        for (int len = 2; len <= w.n; ++len)
            if (forbidden.count(packWord(w.m + w.n - len, len))) return true;
        return false;
    };
    std::vector<int> values(static_cast<size_t>(width) * 2);
    for (int k = 0; k < width; ++k) values[k] = k - offset[orbitOf[k]];
    std::vector<Entry> level{{0, {}, false, 0}};
    seen.insert(keyOf(values.data(), values.data() + width));
    std::vector<int> p(width), q(width);
    size_t total = 1;
    for (int len = 1; len <= kLookBack; ++len) {
        std::vector<Entry> nextLevel;
        std::vector<int> nextValues;
        for (const auto& e : level)
            for (int m = 0; m < moves; ++m) {
                int t = raw[e.state][m];
                if (t < 0) continue;
                SmallWord w = e.word;
                w.m[w.n++] = m;
                if (hasForbiddenSuffix(w)) continue;
                // compose(value, move): as ir::compose, on flat arrays.
                const int* ap = values.data() + e.value;
                const int* ao = ap + width;
                const int eps = moveMirror[m] ? -1 : 1;
                for (int k = 0; k < width; ++k) {
                    int src = moveSrc[m][k];
                    p[k] = ap[src];
                    q[k] = mod(eps * ao[src] + moveOri[m][k], orient[k]);
                }
                if (!seen.insert(keyOf(p.data(), q.data()))) {
                    forbidden.insert(packWord(w.m, w.n));
                    continue;
                }
                if (++total > maxWords) return;
                if (len < kLookBack) {
                    nextLevel.push_back({t, w, e.mirror != moveMirror[m], nextValues.size()});
                    nextValues.insert(nextValues.end(), p.begin(), p.end());
                    nextValues.insert(nextValues.end(), q.begin(), q.end());
                }
            }
        level = std::move(nextLevel);
        values = std::move(nextValues);
    }
    if (forbidden.empty()) return;
    // States: (pairwise state, last kLookBack - 1 moves); explored from start.
    std::unordered_map<uint64_t, int> id;
    auto stateKey = [](int s, const SmallWord& w) {
        return (static_cast<uint64_t>(s) << ((kLookBack - 1) * kWordBits)) | packWord(w.m, w.n);
    };
    std::vector<std::pair<int, SmallWord>> states{{start, {}}};
    id[stateKey(start, {})] = 0;
    std::vector<std::vector<int>> ext;
    for (size_t i = 0; i < states.size(); ++i) {
        std::vector<int> row(moves, -1);
        for (int m = 0; m < moves; ++m) {
            int t = raw[states[i].first][m];
            if (t < 0) continue;
            SmallWord w = states[i].second;
            w.m[w.n++] = m;
            if (hasForbiddenSuffix(w)) continue;
            if (w.n > kLookBack - 1) {
                std::memmove(w.m, w.m + 1, sizeof(int) * (w.n - 1));
                --w.n;
            }
            auto [it, added] = id.emplace(stateKey(t, w), static_cast<int>(states.size()));
            if (added) states.push_back({t, w});
            row[m] = it->second;
        }
        ext.push_back(std::move(row));
    }
    raw = std::move(ext);
    start = 0;
}

// A hash of a signature in the minimisation.
struct SignatureHash {
    size_t operator()(const std::vector<int>& v) const {
        uint64_t h = 1469598103934665603ULL;
        for (int x : v) h = (h ^ static_cast<uint32_t>(x)) * 1099511628211ULL;
        return static_cast<size_t>(h ^ (h >> 29));
    }
};

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
        // note [illegal placements]: with states the search may not enter,
        // a word may only be replaced by one without intermediate states
        // (the identity or one move): an equal two-move word, or any
        // look-back word, may pass through an illegal state where it does not.
        const bool legalAnywhere = puzzle.illegal.empty();
        for (int i = 0; i < moves; ++i)
            for (int j = 0; j < moves; ++j) {
                ir::Element v = ir::compose(puzzle.moves[a.searchMoves[i]].effect,
                                            puzzle.moves[a.searchMoves[j]].effect, puzzle.orbits);
                if (legalAnywhere ? seen.insert({v.perm, v.ori}).second : !seen.count({v.perm, v.ori}))
                    raw[1 + i][j] = 1 + j;
            }
    }
    int startRaw = 0;
    if (puzzle.illegal.empty()) extendWithLookBack(puzzle, a.searchMoves, raw, startRaw);
    const int rawStates = static_cast<int>(raw.size());
    // Moore minimisation: refine classes by (class, classes of successors).
    std::vector<int> cls(rawStates, 0);
    for (int round = 0;; ++round) {
        // Class numbers by first appearance: the hash map's order never shows.
        std::unordered_map<std::vector<int>, int, SignatureHash> ids;
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
