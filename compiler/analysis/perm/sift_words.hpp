// Short words for a stabiliser chain: a bounded (non-optimal) solver for
// puzzles too big to solve optimally or by phases (Megaminx, 5x5 Loopover).
//
// note [sift words]
// The chain places one piece a level: level i is the piece b_i at home with
// orientation 0 (a point, note [points] in schreier_sims.hpp), G_i the
// subgroup fixing b_1 .. b_i. For every place x that G_{i-1} can take b_i
// to, the table keeps a move sequence in G_{i-1} that brings the piece at x
// home (with orientation 0) and leaves b_1 .. b_{i-1} where they are. A
// state is solved by sifting: for each level, look up where b_i is and
// apply that level's sequence — at most one sequence a level, and the
// solution's length is bounded by the sum of each level's longest one.
// The sequences are made short the way Minkwitz does it ("An algorithm for
// solving the factorization problem in permutation groups", 1998): sift
// many short words through the table, keeping the shorter word wherever two
// reach the same place and sifting what is left; fill the places no short
// word reached from random words; then sift the products of every pair of
// a level's sequences (each in G_{i-1}) until a round shortens nothing. All
// of it is seeded: the same definition gives the same table and the same
// solutions. A solution is then shortened by replacing any stretch of at
// most kWindow moves that equals a shorter word (WordShortener).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/analysis/perm/schreier_sims.hpp"

namespace pz::analysis {

using Word = std::vector<uint16_t>;  // letters: indices into SiftWords::metric

struct SiftLevel {
    int orbit = 0, piece = 0;  // the piece placed (its solved position)
    int base = 0;              // its point at home, orientation 0
    std::vector<int> slot;     // point -> index into SiftWords::entries, -1 none
    int count = 1;             // places reached, home included
};

struct SiftEntry {
    Word word;  // brings the piece at its place home
    Perm perm;  // the word's point permutation
};

struct SiftStats {
    long sifted = 0;        // words sifted while building
    int rounds = 0;         // pair rounds until nothing shortened
    size_t bound = 0;       // sum over levels of the longest sequence
    double meanBound = 0;   // sum over levels of the mean sequence length
    long long work = 0;     // letters appended and points composed while sifting (note [sift budgets])
};

struct SiftWords {
    std::vector<int> metric;  // letters -> puzzle move indices
    std::vector<SiftLevel> levels;
    std::vector<SiftEntry> entries;
    SiftStats stats;
};

// The most points (pieces x orientations over every orbit) a sift table is
// built for (its size grows as points^2 per level); docs/language.md.
constexpr int kMaxSiftPoints = 1024;

// The table for `pzc inspect --solver NAME`: per level the piece placed,
// its places, the longest and the mean sequence; the bounds; the directions.
std::string describeSiftWords(const ir::Puzzle& puzzle, const SiftWords& table, size_t directions);

// Why the puzzle cannot have a sift solver (illegal placements, more than
// kMaxSiftPoints points, no moves), or nullopt.
std::optional<std::string> siftRefusal(const ir::Puzzle& puzzle, const std::vector<int>& metric);

// The pieces (orbit, solved position) in the order the table places them
// (note [placement order] in the .cpp).
std::vector<std::pair<int, int>> placementOrder(const ir::Puzzle& puzzle, const std::vector<int>& metric);

// The most work (letters appended and points composed while sifting) a
// table may take (note [sift budgets]). Megaminx takes 4.6e8 (0.7 s here),
// twsearch's 13x13x13 3.4e10 (32 s), its Eitan's star about 9.6e10 (157 s, with
// sequences of thousands of moves); bigger groups fill with residues so
// long that they would run for many minutes.
constexpr long long kMaxSiftWork = 100'000'000'000;

// The table for the puzzle's group over the metric moves `metric`. Nullopt
// with `why` when it cannot be built (identical pieces, too many points, a
// table not filled, more than `maxWork` work).
std::optional<SiftWords> buildSiftWords(PuzzleAnalysis& analysis, const std::vector<int>& metric, std::string& why,
                                        long long maxWork = kMaxSiftWork);

// note [sift labels]
// With identical pieces a level places any piece of its label that is not
// at a position placed before (the one with the shortest sequence, none if
// one is home already), and the state is solved when every position holds
// a piece of its label at orientation 0. The choices pick one lift of the
// position (a state of the distinct pieces showing the same labels); when
// that lift is not in the group (a parity or twist the chain cannot undo),
// a later level finds no sequence. Then the choices are made at random, up
// to kLabelAttempts times (seeded by the position): a random lift is in the
// group with probability 1 / [lifts : lifts in the group], small numbers
// such as 2 or 24 for real puzzles. Still nothing is reported, never
// papered over.
//
// A move sequence (puzzle move indices) that solves `state`, or nullopt
// when the state is not in the group (or, with identical pieces, when a
// level found no sequence).
// randomChoice: choose among a level's candidates at random.
std::optional<std::vector<int>> siftSolve(const SiftWords& table, const PointAction& points,
                                          const ir::Element& state, const ir::Puzzle& puzzle,
                                          std::mt19937_64* randomChoice = nullptr);

// note [sift directions]
// The table's length depends on where the pieces happen to be, so a
// position is also sifted as seen through the puzzle's symmetries and
// backwards, and the shortest answer is kept: the conjugate S^-1 s S by a
// symmetry S that maps the metric onto itself is solved by w', and then s
// by w' with each move m replaced by S m S^-1; the inverse s^-1 is solved
// by v, and then s by v reversed, each move inverted (when every metric
// move's inverse is one). Cube: 48 symmetries x 2; 5x5 Loopover: 200 x 2.
struct SiftDirection {
    ir::Element by, back;  // S and S^-1
    std::vector<int> moveMap;  // puzzle move -> puzzle move of S m S^-1 (-1 outside the metric)
    bool inverse = false;
};

// The most directions `pzc solve` sifts a position from.
constexpr size_t kSiftDirections = 96;

// The identity first, then each symmetry's conjugate, each followed by the
// same for the inverse; at most `most` directions; with identical pieces
// the identity only.
std::vector<SiftDirection> siftDirections(PuzzleAnalysis& analysis, const std::vector<int>& metric, size_t most);

class WordShortener;

// The shortest of the shortened solutions from every direction; each is
// checked by replay before it counts. Nullopt when the state is not in the group.
std::optional<std::vector<int>> siftSolveBest(const SiftWords& table, const PointAction& points,
                                              const WordShortener& shortener,
                                              const std::vector<SiftDirection>& directions, const ir::Puzzle& puzzle,
                                              const ir::Element& state);

// Replaces stretches of a sequence by shorter words with the same effect:
// every reduced word of up to `depth` moves (at most kMaxShortWords) is
// known by its effect, and every stretch of up to kWindow moves is looked up.
class WordShortener {
public:
    static constexpr int kWindow = 12;
    static constexpr size_t kMaxShortWords = 1 << 18;
    WordShortener(const ir::Puzzle& puzzle, PuzzleAnalysis& analysis, const std::vector<int>& metric);
    // moves: puzzle move indices, all in the metric.
    std::vector<int> shorten(std::vector<int> moves) const;
    int depth() const { return depth_; }
    // The metric move that undoes puzzle move m, or -1.
    int inverseOf(int m) const { return inverse_[m]; }

private:
    std::vector<int> metric_;
    std::vector<int> letterOf_;  // puzzle move -> letter, -1
    std::vector<Perm> perms_;    // per letter
    std::vector<int> inverse_;   // puzzle move -> its inverse in the metric, -1
    std::vector<std::pair<uint64_t, Word>> known_;  // sorted by hash
    int depth_ = 0;
};

}  // namespace pz::analysis
