#include "compiler/analysis/perm/sift_words.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <cstdio>
#include <unordered_map>

#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/ir/element.hpp"

namespace pz::analysis {

namespace {

// note [sift budgets]
// Every budget is a count, never a time, so that the table (and so every
// solution) depends on the definition alone. Short words: reduced words in
// length order until kShortWords have been sifted. Random words of
// kRandomLength letters fill the places no short word reached, at most
// kRandomWords of them, in batches; a batch that reaches fewer new places
// than there are levels is followed by a light pair round (a quarter of the
// pairs) and, if that does not make up for it, a residue limit half as long
// again. Pair rounds stop when a round shortens no sequence, after
// kMaxRounds; a round takes at most kPairsPerRound pairs, shared by the
// levels (at most kPairsPerLevel and at least kMinPairsPerLevel each, drawn
// when a level has more). The whole build stops with an error once its work
// (letters appended, points composed) passes a budget (kMaxSiftWork in
// sift_words.hpp; checked between batches and rounds, so the same
// definition always stops at the same point).
constexpr long kShortWords = 150000;
constexpr int kRandomLength = 40;
constexpr long kRandomWords = 200000;
constexpr long kRandomBatch = 2000;
constexpr int kMaxRounds = 12;
constexpr long kPairsPerLevel = 10000;
constexpr long kPairsPerRound = 400000;
constexpr long kMinPairsPerLevel = 200;
// note [sift labels]: random lifts tried after the shortest choices fail.
constexpr int kLabelAttempts = 256;

uint64_t hashPerm(const Perm& p) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int x : p) {
        h ^= static_cast<uint64_t>(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
    }
    return h ^ (h >> 31);
}

// The letters of a word alphabet: the metric moves, their families and
// powers, how two letters of one family merge, and each letter's inverse.
class Alphabet {
public:
    Alphabet(const ir::Puzzle& puzzle, PuzzleAnalysis& analysis, const std::vector<int>& metric)
        : metric_(metric), points_(puzzle.orbits) {
        const auto& orders = analysis.familyOrders();
        mergeTo_.resize(puzzle.families.size());
        for (size_t f = 0; f < puzzle.families.size(); ++f) mergeTo_[f].assign(orders[f], -1);
        for (size_t l = 0; l < metric.size(); ++l) {
            const ir::Move& m = puzzle.moves[metric[l]];
            family_.push_back(m.family);
            power_.push_back(static_cast<int>(((m.power % orders[m.family]) + orders[m.family]) % orders[m.family]));
            order_.push_back(static_cast<int>(orders[m.family]));
            perms_.push_back(points_.toPoints(m.effect));
            if (mergeTo_[m.family][power_.back()] < 0) mergeTo_[m.family][power_.back()] = static_cast<int>(l);
        }
        for (size_t l = 0; l < metric.size(); ++l) {
            const int inv = (order_[l] - power_[l]) % order_[l];
            Word w;
            if (mergeTo_[family_[l]][inv] >= 0) {
                w.push_back(static_cast<uint16_t>(mergeTo_[family_[l]][inv]));
            } else {  // l^(k-1) = l^-1, k the order of l
                const int k = order_[l] / std::gcd(order_[l], power_[l]);
                w.assign(k - 1, static_cast<uint16_t>(l));
            }
            inverse_.push_back(std::move(w));
        }
        const auto& commutes = analysis.commutes();
        commutes_.assign(metric.size(), std::vector<bool>(metric.size()));
        for (size_t a = 0; a < metric.size(); ++a)
            for (size_t b = 0; b < metric.size(); ++b) commutes_[a][b] = commutes[metric[a]][metric[b]];
    }

    size_t size() const { return metric_.size(); }
    int pointCount() const { return points_.pointCount(); }
    const Perm& perm(int letter) const { return perms_[letter]; }
    const PointAction& points() const { return points_; }

    // May `next` follow `last` in an enumerated word? Not the same family (a
    // power of one letter is a letter or two), and commuting families in
    // one order only.
    bool canFollow(int last, int next) const {
        if (family_[last] == family_[next]) return false;
        return !(commutes_[last][next] && family_[last] > family_[next]);
    }

    // Appends `letter` to a reduced word: a letter of the same family as the
    // last merges with it (cancels, or becomes the letter of the summed power).
    void push(Word& w, int letter) const {
        while (!w.empty() && family_[w.back()] == family_[letter]) {
            const int sum = (power_[w.back()] + power_[letter]) % order_[letter];
            if (sum == 0) {
                w.pop_back();
                return;
            }
            const int merged = mergeTo_[family_[letter]][sum];
            if (merged < 0) break;
            w.pop_back();
            letter = merged;
        }
        w.push_back(static_cast<uint16_t>(letter));
    }

    Word concat(const Word& a, const Word& b) const {
        Word out = a;
        append(out, b);
        return out;
    }
    // w followed by b, in place: a sift extends one word level after level,
    // and a copy of it a level was wasted work.
    void append(Word& w, const Word& b) const {
        for (uint16_t l : b) push(w, l);
    }

    Word inverse(const Word& w) const {
        Word out;
        for (size_t i = w.size(); i-- > 0;)
            for (uint16_t l : inverse_[w[i]]) push(out, l);
        return out;
    }

    Perm wordPerm(const Word& w) const {
        Perm p = identityPerm(pointCount());
        for (uint16_t l : w) p = composePerm(p, perms_[l]);
        return p;
    }

    // Every enumerated word of 1..maxLength letters, in length order, until
    // visit returns false.
    template <typename Visit>
    void enumerate(int maxLength, Visit&& visit) const {
        Word w;
        std::vector<Perm> stack;
        for (int length = 1; length <= maxLength; ++length) {
            stack.assign(1, identityPerm(pointCount()));
            if (!extend(w, stack, length, visit)) return;
        }
    }

private:
    template <typename Visit>
    bool extend(Word& w, std::vector<Perm>& stack, int length, Visit& visit) const {
        if (static_cast<int>(w.size()) == length) return visit(w, stack.back());
        for (size_t l = 0; l < size(); ++l) {
            if (!w.empty() && !canFollow(w.back(), static_cast<int>(l))) continue;
            w.push_back(static_cast<uint16_t>(l));
            stack.push_back(composePerm(stack.back(), perms_[l]));
            const bool go = extend(w, stack, length, visit);
            stack.pop_back();
            w.pop_back();
            if (!go) return false;
        }
        return true;
    }

    std::vector<int> metric_;
    PointAction points_;
    std::vector<int> family_, power_, order_;
    std::vector<Perm> perms_;
    std::vector<std::vector<int>> mergeTo_;  // [family][power] -> letter, -1
    std::vector<Word> inverse_;
    std::vector<std::vector<bool>> commutes_;
};

class SiftBuilder {
public:
    SiftBuilder(const Alphabet& letters, SiftWords& table) : letters_(letters), table_(table) {}

    // Sifts the word w (effect g) from level `from`: an empty place takes
    // the inverse of what is left; a shorter one replaces the kept
    // sequence, and what is left of the longer goes on; residues longer
    // than `limit` are dropped.
    void sift(Word w, Perm g, size_t from, size_t limit) {
        ++table_.stats.sifted;
        for (size_t i = from; i < table_.levels.size(); ++i) {
            SiftLevel& level = table_.levels[i];
            const int x = g[level.base];
            if (x == level.base) continue;
            const int e = level.slot[x];
            if (e < 0) {
                level.slot[x] = static_cast<int>(table_.entries.size());
                table_.entries.push_back({letters_.inverse(w), inversePerm(g)});
                ++level.count;
                return;
            }
            Word back;
            if (w.size() < table_.entries[e].word.size() + 8) back = letters_.inverse(w);
            // The sequence w goes on with: the kept one, or the one it replaces.
            const SiftEntry* then = &table_.entries[e];
            SiftEntry old;
            if (!back.empty() && back.size() < table_.entries[e].word.size()) {
                old = std::move(table_.entries[e]);
                table_.entries[e] = {std::move(back), inversePerm(g)};
                then = &old;
            }
            letters_.append(w, then->word);
            table_.stats.work += static_cast<long long>(then->word.size());
            if (w.size() > limit) return;
            table_.stats.work += static_cast<long long>(g.size());
            // g then `then`, into a buffer kept across calls (no allocation a level).
            scratch_.resize(g.size());
            for (size_t p = 0; p < g.size(); ++p) scratch_[p] = then->perm[static_cast<size_t>(g[p])];
            g.swap(scratch_);
        }
    }

    bool complete(const mpz_class& order) const {
        mpz_class product = 1;
        for (const auto& level : table_.levels) product *= level.count;
        return product == order;
    }

    size_t totalLength() const {
        size_t sum = 0;
        for (const auto& e : table_.entries) sum += e.word.size();
        return sum;
    }

    size_t longest() const {
        size_t most = 0;
        for (const auto& e : table_.entries) most = std::max(most, e.word.size());
        return most;
    }

    // One round of pair products per level; true when it shortened anything.
    bool pairRound(std::mt19937_64& rng, size_t limit, long pairsPerLevel) {
        const size_t before = totalLength();
        for (size_t i = 0; i < table_.levels.size(); ++i) {
            std::vector<int> entries;
            for (int e : table_.levels[i].slot)
                if (e >= 0) entries.push_back(e);
            const long n = static_cast<long>(entries.size());
            auto pair = [&](int a, int b) {
                const SiftEntry& ea = table_.entries[a];
                const SiftEntry& eb = table_.entries[b];
                sift(letters_.concat(ea.word, eb.word), composePerm(ea.perm, eb.perm), i, limit);
            };
            if (n * n <= pairsPerLevel) {
                for (long a = 0; a < n; ++a)
                    for (long b = 0; b < n; ++b) pair(entries[a], entries[b]);
            } else {
                for (long k = 0; k < pairsPerLevel; ++k)
                    pair(entries[uniformBelow(rng, n)], entries[uniformBelow(rng, n)]);
            }
        }
        return totalLength() < before;
    }

private:
    const Alphabet& letters_;
    SiftWords& table_;
    Perm scratch_;
};

std::string tooMuchWork(const SiftWords& table, long long maxWork) {
    return "the sift table took more than its budget of " + std::to_string(maxWork) + " steps (" +
           std::to_string(table.stats.sifted) + " words sifted): its sequences grew too long for this puzzle's group";
}

// A level's longest sequence, their total length and their number.
struct SequenceLengths {
    size_t most = 0, sum = 0, count = 0;
};

SequenceLengths sequenceLengths(const SiftWords& table, const SiftLevel& level) {
    SequenceLengths r;
    for (int e : level.slot)
        if (e >= 0) {
            r.most = std::max(r.most, table.entries[e].word.size());
            r.sum += table.entries[e].word.size();
            ++r.count;
        }
    return r;
}

}  // namespace

std::string describeSiftWords(const ir::Puzzle& puzzle, const SiftWords& table, size_t directions) {
    std::ostringstream out;
    size_t filled = 0;
    for (const auto& level : table.levels) filled += static_cast<size_t>(level.count - 1);
    out << "sift table: " << table.levels.size() << " levels, " << filled << " sequences over " << table.metric.size()
        << " metric moves (" << table.stats.sifted << " words sifted, " << table.stats.rounds << " pair rounds)\n";
    out << "placement order (piece: places, longest and mean sequence):\n";
    for (const auto& level : table.levels) {
        const ir::Orbit& orbit = puzzle.orbits[level.orbit];
        const auto [most, sum, n] = sequenceLengths(table, level);
        out << "  " << orbit.name << ' '
            << (level.piece < static_cast<int>(orbit.positionNames.size()) ? orbit.positionNames[level.piece]
                                                                           : std::to_string(level.piece));
        if (n == 0) {
            out << ": in place once the pieces before it are\n";
            continue;
        }
        char mean[32];
        std::snprintf(mean, sizeof mean, "%.1f", static_cast<double>(sum) / static_cast<double>(n));
        out << ": " << level.count << " places, longest " << most << ", mean " << mean << '\n';
    }
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.1f", table.stats.meanBound);
    out << "solution length before shortening: at most " << table.stats.bound << " moves, about " << mean
        << " on average (sum over the levels, home counted as 0)\n";
    out << "directions per position: " << directions << " (note [sift directions])\n";
    return out.str();
}

std::optional<std::string> siftRefusal(const ir::Puzzle& puzzle, const std::vector<int>& metric) {
    if (!puzzle.illegal.empty())
        return std::string("the puzzle declares illegal placements; a sift solver's sequences may pass through them");
    if (metric.empty()) return std::string("the puzzle has no moves in its metric");
    long points = 0;
    for (const auto& orbit : puzzle.orbits) points += static_cast<long>(orbit.size) * orbit.orient;
    if (points > kMaxSiftPoints)
        return "the puzzle has " + std::to_string(points) + " points (pieces x orientations); a sift solver handles at most " +
               std::to_string(kMaxSiftPoints);
    return std::nullopt;
}

// note [placement order]
// The order pieces are placed in decides the table's lengths: a piece
// placed while most moves still leave the placed ones alone needs a short
// sequence, one placed when every move disturbs something needs a long
// commutator. So pieces are placed block by block, as people solve: next
// the piece whose placing forbids the fewest move families not forbidden
// yet (a family is forbidden once it moves a placed piece), ties to the
// first in declaration order. Cube: an edge, then a corner beside it, then
// the edges between them — a growing block. Orbits of identical pieces come
// after all the others (while they are free, the chain can make up for a
// parity of the distinct pieces with them), and each ends with two
// positions of one label, so that its last pieces need no parity at all
// (note [sift labels]).
std::vector<std::pair<int, int>> placementOrder(const ir::Puzzle& puzzle, const std::vector<int>& metric) {
    std::vector<std::pair<int, int>> pieces;
    std::vector<std::vector<int>> families;  // per piece: the metric families that move it
    for (size_t o = 0; o < puzzle.orbits.size(); ++o)
        for (int q = 0; q < puzzle.orbits[o].size; ++q) {
            pieces.push_back({static_cast<int>(o), q});
            std::set<int> moving;
            for (int m : metric) {
                const ir::Element& e = puzzle.moves[m].effect;
                // The piece solved at q is moved when the position q holds another, or twisted.
                if (e.perm[o][q] != q || e.ori[o][q] != 0) moving.insert(puzzle.moves[m].family);
            }
            families.push_back(std::vector<int>(moving.begin(), moving.end()));
        }
    auto identical = [&](int o) {
        const auto& labels = puzzle.orbits[o].solvedLabel;
        return std::set<int>(labels.begin(), labels.end()).size() != labels.size();
    };
    std::vector<bool> forbidden(puzzle.families.size(), false), placed(pieces.size(), false);
    std::vector<std::pair<int, int>> order;
    for (bool second : {false, true}) {  // orbits of distinct pieces first
        for (;;) {
            size_t best = pieces.size();
            int bestCost = 0;
            for (size_t i = 0; i < pieces.size(); ++i) {
                if (placed[i] || identical(pieces[i].first) != second) continue;
                int cost = 0;
                for (int f : families[i]) cost += forbidden[f] ? 0 : 1;
                if (best == pieces.size() || cost < bestCost) best = i, bestCost = cost;
            }
            if (best == pieces.size()) break;
            placed[best] = true;
            for (int f : families[best]) forbidden[f] = true;
            order.push_back(pieces[best]);
        }
    }
    // An orbit of identical pieces ends with two positions of one label.
    for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
        if (!identical(static_cast<int>(o))) continue;
        const auto& labels = puzzle.orbits[o].solvedLabel;
        std::vector<size_t> at;  // the orbit's slots in `order`
        for (size_t k = 0; k < order.size(); ++k)
            if (order[k].first == static_cast<int>(o)) at.push_back(k);
        std::map<int, int> count;
        for (int l : labels) ++count[l];
        int label = labels[order[at.back()].second];
        if (count[label] < 2)
            for (const auto& [l, n] : count)
                if (n >= 2) label = l;
        // The orbit's pieces in placing order, the two latest of that label moved to the end.
        std::vector<std::pair<int, int>> kept, last;
        for (size_t k = at.size(); k-- > 0;) {
            const auto& piece = order[at[k]];
            if (last.size() < 2 && labels[piece.second] == label) last.insert(last.begin(), piece);
            else kept.insert(kept.begin(), piece);
        }
        kept.insert(kept.end(), last.begin(), last.end());
        for (size_t k = 0; k < at.size(); ++k) order[at[k]] = kept[k];
    }
    return order;
}

std::optional<SiftWords> buildSiftWords(PuzzleAnalysis& analysis, const std::vector<int>& metric, std::string& why,
                                        long long maxWork) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    if (auto refused = siftRefusal(puzzle, metric)) {
        why = *refused;
        return std::nullopt;
    }
    const Alphabet letters(puzzle, analysis, metric);
    SiftWords table;
    table.metric = metric;
    for (const auto& [orbit, piece] : placementOrder(puzzle, metric)) {
        SiftLevel level;
        level.orbit = orbit;
        level.piece = piece;
        level.base = letters.points().point(orbit, piece, 0);
        level.slot.assign(letters.pointCount(), -1);
        table.levels.push_back(std::move(level));
    }

    SiftBuilder builder(letters, table);
    auto overBudget = [&] {
        if (table.stats.work <= maxWork) return false;
        why = tooMuchWork(table, maxWork);
        return true;
    };
    const mpz_class& groupOrder = analysis.groupOrder();
    // Short words first, in length order, residues kept up to `limit`.
    size_t limit = 0;
    long shortWords = 0;
    letters.enumerate(64, [&](const Word& w, const Perm& g) {
        limit = 2 * w.size() + 8;
        builder.sift(w, g, 0, limit);
        return ++shortWords < kShortWords;
    });
    // Then random words until every place is reached, with pair rounds in
    // between; a batch that reaches no new place raises the limit by half
    // (an unbounded residue would double its length at every level).
    std::mt19937_64 rng(0x5157);
    const long pairsPerLevel = std::clamp(kPairsPerRound / static_cast<long>(std::max<size_t>(table.levels.size(), 1)),
                                          kMinPairsPerLevel, kPairsPerLevel);
    for (long k = 0; !builder.complete(groupOrder); k += kRandomBatch) {
        if (k >= kRandomWords) {
            why = "the sift table was not filled by " + std::to_string(kRandomWords) + " random words";
            return std::nullopt;
        }
        if (overBudget()) return std::nullopt;
        const size_t before = table.entries.size();
        for (long i = 0; i < kRandomBatch; ++i) {
            Word w;
            for (int j = 0; j < kRandomLength; ++j) {
                int l;
                do l = static_cast<int>(uniformBelow(rng, letters.size()));
                while (!w.empty() && !letters.canFollow(w.back(), l));
                w.push_back(static_cast<uint16_t>(l));
            }
            builder.sift(w, letters.wordPerm(w), 0, limit);
        }
        // Fewer new places than levels: the residues are cut too short.
        if (table.entries.size() >= before + table.levels.size()) continue;
        builder.pairRound(rng, limit, pairsPerLevel / 4);
        if (table.entries.size() < before + table.levels.size()) limit += limit / 2;
    }
    limit = std::max(limit, builder.longest());
    while (table.stats.rounds < kMaxRounds) {
        if (overBudget()) return std::nullopt;
        ++table.stats.rounds;
        if (!builder.pairRound(rng, limit, pairsPerLevel)) break;
    }
    for (const auto& level : table.levels) {
        const auto [most, sum, n] = sequenceLengths(table, level);
        table.stats.bound += most;
        // The mean over the level's places, home (no moves) included.
        table.stats.meanBound += static_cast<double>(sum) / static_cast<double>(n + 1);
    }
    return table;
}

std::optional<std::vector<int>> siftSolve(const SiftWords& table, const PointAction& points, const ir::Element& state,
                                          const ir::Puzzle& puzzle, std::mt19937_64* randomChoice) {
    Perm g = points.toPoints(state);
    std::vector<int> moves;
    std::vector<std::vector<bool>> fixed;  // positions placed so far, per orbit
    for (const auto& orbit : puzzle.orbits) fixed.emplace_back(orbit.size, false);
    for (const auto& level : table.levels) {
        // note [sift labels]: any piece of the level's label that is not at
        // a placed position may come home; the shortest sequence wins.
        const auto& labels = puzzle.orbits[level.orbit].solvedLabel;
        const int m = puzzle.orbits[level.orbit].orient;
        int best = -2;  // -1: one is home already
        std::vector<int> choices;  // randomChoice: every candidate's entry (-1 home)
        for (int c = 0; c < puzzle.orbits[level.orbit].size && (best != -1 || randomChoice); ++c) {
            if (labels[c] != labels[level.piece]) continue;
            const int x = g[points.point(level.orbit, c, 0)];
            if (fixed[level.orbit][(x - points.point(level.orbit, 0, 0)) / m]) continue;
            if (x == level.base) best = -1, choices.push_back(-1);
            else if (const int e = level.slot[x]; e >= 0) {
                choices.push_back(e);
                if (best == -2 || (best >= 0 && table.entries[e].word.size() < table.entries[best].word.size())) best = e;
            }
        }
        if (randomChoice && !choices.empty()) best = choices[uniformBelow(*randomChoice, choices.size())];
        fixed[level.orbit][level.piece] = true;
        if (best == -1) continue;
        if (best == -2) return std::nullopt;
        for (uint16_t l : table.entries[best].word) moves.push_back(table.metric[l]);
        g = composePerm(g, table.entries[best].perm);
    }
    // Every position holds a piece of its label at orientation 0: with
    // distinct pieces, g is the identity.
    if (!isSolvedColouring(puzzle, points.toElement(g))) return std::nullopt;
    return moves;
}

std::vector<SiftDirection> siftDirections(PuzzleAnalysis& analysis, const std::vector<int>& metric, size_t most) {
    const ir::Puzzle& puzzle = analysis.puzzle();
    std::vector<bool> inMetric(puzzle.moves.size(), false);
    for (int m : metric) inMetric[m] = true;
    bool invertible = true;
    for (int m : metric) invertible = invertible && analysis.inverseMove()[m] >= 0 && inMetric[analysis.inverseMove()[m]];
    // With identical pieces a conjugate or an inverse is not a state of the
    // same colouring: the position itself only.
    if (hasIdenticalPieces(puzzle)) invertible = false;
    std::vector<SiftDirection> plain;
    for (const ir::Element& s : analysis.symmetries().elements) {
        if (hasIdenticalPieces(puzzle) && !plain.empty()) break;
        SiftDirection d;
        d.by = s;
        d.back = ir::inverse(s, puzzle.orbits);
        d.moveMap.assign(puzzle.moves.size(), -1);
        bool maps = true;
        for (int m : metric) {
            auto image = analysis.findMove(ir::compose(ir::compose(d.by, puzzle.moves[m].effect, puzzle.orbits), d.back, puzzle.orbits));
            if (!image || !inMetric[*image]) {
                maps = false;
                break;
            }
            d.moveMap[m] = *image;
        }
        if (maps) plain.push_back(std::move(d));
    }
    std::vector<SiftDirection> out;
    for (const auto& d : plain)
        for (int inverse = 0; inverse < (invertible ? 2 : 1); ++inverse) {
            if (out.size() >= most) return out;
            out.push_back(d);
            out.back().inverse = inverse == 1;
        }
    return out;
}

std::optional<std::vector<int>> siftSolveBest(const SiftWords& table, const PointAction& points,
                                              const WordShortener& shortener,
                                              const std::vector<SiftDirection>& directions, const ir::Puzzle& puzzle,
                                              const ir::Element& state) {
    std::optional<std::vector<int>> best;
    const ir::Element inverse = ir::inverse(state, puzzle.orbits);
    for (const auto& d : directions) {
        const ir::Element& from = d.inverse ? inverse : state;
        const ir::Element seen = ir::compose(ir::compose(d.back, from, puzzle.orbits), d.by, puzzle.orbits);
        auto moves = siftSolve(table, points, seen, puzzle);
        if (!moves && !hasIdenticalPieces(puzzle)) return std::nullopt;  // not in the group, from any direction
        // note [sift labels]: a dead end of the shortest choices; random
        // choices pick other lifts (seeded by the position: the same answer every run).
        std::mt19937_64 rng(hashPerm(points.toPoints(seen)));
        for (int attempt = 0; !moves && attempt < kLabelAttempts; ++attempt)
            moves = siftSolve(table, points, seen, puzzle, &rng);
        if (!moves) continue;
        std::vector<int> mapped = shortener.shorten(*moves);
        if (best && mapped.size() >= best->size()) continue;
        for (int& m : mapped) m = d.moveMap[m];
        if (d.inverse) {
            std::reverse(mapped.begin(), mapped.end());
            for (int& m : mapped) m = shortener.inverseOf(m);
        }
        // Every direction maps metric moves to metric moves, and inverse ones
        // exist only when every move's inverse is one: no -1 can appear here.
        ir::Element check = state;
        for (int m : mapped) check = ir::compose(check, puzzle.moves[m].effect, puzzle.orbits);
        if (!isSolvedColouring(puzzle, check)) continue;
        best = std::move(mapped);
    }
    return best;
}

WordShortener::WordShortener(const ir::Puzzle& puzzle, PuzzleAnalysis& analysis, const std::vector<int>& metric)
    : metric_(metric), letterOf_(puzzle.moves.size(), -1) {
    const Alphabet letters(puzzle, analysis, metric);
    for (size_t l = 0; l < metric.size(); ++l) {
        letterOf_[metric[l]] = static_cast<int>(l);
        perms_.push_back(letters.perm(static_cast<int>(l)));
    }
    inverse_.assign(puzzle.moves.size(), -1);
    for (int m : metric)
        if (int inv = analysis.inverseMove()[m]; inv >= 0 && letterOf_[inv] >= 0) inverse_[m] = inv;
    // The deepest length whose words all fit: count them first.
    std::unordered_map<uint64_t, Word> known;
    long count = 0;
    int deepest = 0;
    letters.enumerate(64, [&](const Word& w, const Perm&) {
        if (++count > static_cast<long>(kMaxShortWords)) return false;
        deepest = static_cast<int>(w.size());
        return true;
    });
    depth_ = count > static_cast<long>(kMaxShortWords) ? deepest - 1 : deepest;
    letters.enumerate(depth_, [&](const Word& w, const Perm& g) {
        known.emplace(hashPerm(g), w);  // length order: the first is the shortest
        return true;
    });
    known_.assign(known.begin(), known.end());
    std::sort(known_.begin(), known_.end());
}

std::vector<int> WordShortener::shorten(std::vector<int> moves) const {
    if (perms_.empty()) return moves;
    const int n = static_cast<int>(perms_[0].size());
    std::vector<int> w;
    for (int m : moves) w.push_back(letterOf_[m]);
    auto isIdentity = [&](const Perm& g) {
        for (int x = 0; x < n; ++x)
            if (g[x] != x) return false;
        return true;
    };
    size_t i = 0;
    while (i < w.size()) {
        Perm g = identityPerm(n);
        bool replaced = false;
        for (size_t j = i; j < w.size() && j < i + kWindow && !replaced; ++j) {
            g = composePerm(g, perms_[w[j]]);
            const size_t length = j - i + 1;
            if (length < 2) continue;
            if (isIdentity(g)) {
                w.erase(w.begin() + static_cast<long>(i), w.begin() + static_cast<long>(j) + 1);
                replaced = true;
                break;
            }
            const uint64_t h = hashPerm(g);
            auto it = std::lower_bound(known_.begin(), known_.end(), std::make_pair(h, Word{}));
            for (; it != known_.end() && it->first == h && !replaced; ++it) {
                if (it->second.size() >= length) continue;
                Perm check = identityPerm(n);
                for (uint16_t l : it->second) check = composePerm(check, perms_[l]);
                if (check != g) continue;  // a hash collision
                std::vector<int> with(it->second.begin(), it->second.end());
                w.erase(w.begin() + static_cast<long>(i), w.begin() + static_cast<long>(j) + 1);
                w.insert(w.begin() + static_cast<long>(i), with.begin(), with.end());
                replaced = true;
            }
        }
        i = replaced ? (i >= static_cast<size_t>(kWindow) ? i - kWindow : 0) : i + 1;
    }
    std::vector<int> out;
    for (int l : w) out.push_back(metric_[l]);
    return out;
}

}  // namespace pz::analysis
