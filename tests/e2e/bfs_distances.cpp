// bfs_distances — an oracle for optimal solution lengths.
//
//   bfs_distances FILE [EVERY]     every EVERY-th state in BFS order, as
//                                  "<depth> ; <state>"
//   bfs_distances FILE SPEC...     with each SPEC one of
//     --sample N SEED              N uniform random states, then the first
//                                  N/4 of the deepest level, as
//                                  "state <depth> ; <state>"
//     --scrambles N LENGTH SEED    N random scrambles of 1..LENGTH moves
//                                  drawn from all of FILE's moves (uncounted
//                                  powers included), as
//                                  "scramble <depth> ; <moves>"
//
// Breadth-first search over FILE's searched moves (those in the metric),
// using only the IR element algebra (no generated code, no pruning table,
// no canonical automaton), so it shares nothing with the solver it checks.
// The depth of a state is its distance *to* solved (the length of the
// shortest sequence of searched moves that solves it): the BFS starts at
// solved and steps x -> x * m^-1. Without inverses in the move set this is
// not the distance *from* solved, so the direction matters.
//
// <state> is the `pzc solve --state` notation (each orbit's permutation,
// perm[p] = solved position of the piece at p, or with identical pieces the
// label at p, then each oriented orbit's orientations). States with
// identical pieces are distinct states (compared by labels). With illegal
// placements, only states reached through legal states count (and random
// scrambles stay legal). Meant for small puzzles: the whole group is kept in
// memory, one 128-bit key per state; the BFS runs once for all SPECs.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

namespace {

// Up to 128 bits a state (a 2x2x2 read as 24 stickers needs 120).
using Key = unsigned __int128;

// A state's key. An orbit with identical pieces is keyed by the label at
// each position (distinct states, as pzc solves them); decode gives a lift
// (each label's pieces in increasing order), which right multiplication by
// moves treats like any other element showing those labels.
struct Codec {
    const std::vector<pz::ir::Orbit>* orbits = nullptr;
    std::vector<int> permBits, oriBits;
    std::vector<bool> labelled;
    std::vector<std::vector<std::vector<int>>> piecesOf;  // [orbit][label] = pieces solved with it
    int total = 0;

    int value(size_t o, int piece) const { return labelled[o] ? (*orbits)[o].solvedLabel[piece] : piece; }

    static int bitsFor(int values) {
        int b = 0;
        while ((1 << b) < values) ++b;
        return b;
    }
    explicit Codec(const std::vector<pz::ir::Orbit>& o) : orbits(&o) {
        for (const auto& orbit : o) {
            std::vector<std::vector<int>> pieces;
            for (int q = 0; q < orbit.size; ++q) {
                if ((int)pieces.size() <= orbit.solvedLabel[q]) pieces.resize(orbit.solvedLabel[q] + 1);
                pieces[orbit.solvedLabel[q]].push_back(q);
            }
            labelled.push_back(pieces.size() < static_cast<size_t>(orbit.size));
            piecesOf.push_back(pieces);
            permBits.push_back(bitsFor(orbit.size));
            oriBits.push_back(orbit.orient > 1 ? bitsFor(orbit.orient) : 0);
            total += orbit.size * (permBits.back() + oriBits.back());
        }
    }
    Key encode(const pz::ir::Element& e) const {
        Key k = 0;
        for (size_t o = 0; o < orbits->size(); ++o)
            for (int p = 0; p < (*orbits)[o].size; ++p) {
                k = (k << permBits[o]) | static_cast<Key>(value(o, e.perm[o][p]));
                if (oriBits[o]) k = (k << oriBits[o]) | static_cast<Key>(e.ori[o][p]);
            }
        return k;
    }
    pz::ir::Element decode(Key k) const {
        pz::ir::Element e = pz::ir::identity(*orbits);
        for (size_t o = orbits->size(); o-- > 0;)
            for (int p = (*orbits)[o].size; p-- > 0;) {
                if (oriBits[o]) {
                    e.ori[o][p] = static_cast<int>(k & ((Key{1} << oriBits[o]) - 1));
                    k >>= oriBits[o];
                }
                e.perm[o][p] = static_cast<int>(k & ((Key{1} << permBits[o]) - 1));
                k >>= permBits[o];
            }
        for (size_t o = 0; o < orbits->size(); ++o) {
            if (!labelled[o]) continue;
            std::vector<size_t> used(piecesOf[o].size(), 0);
            for (int& v : e.perm[o]) v = piecesOf[o][v][used[v]++];
        }
        return e;
    }
};

// With identical pieces, the labels (pzc solve --state takes them too).
std::string stateText(const pz::ir::Puzzle& p, const Codec& codec, const pz::ir::Element& e) {
    std::string s;
    for (size_t o = 0; o < e.perm.size(); ++o)
        for (int v : e.perm[o]) s += " " + std::to_string(codec.value(o, v));
    for (size_t o = 0; o < p.orbits.size(); ++o)
        if (p.orbits[o].orient > 1)
            for (int v : e.ori[o]) s += " " + std::to_string(v);
    return s;
}

long number(const char* s) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (!*s || *end || v < 0) {
        std::fprintf(stderr, "bfs_distances: '%s' is not a non-negative number\n", s);
        std::exit(2);
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bfs_distances FILE [EVERY | SPEC...]\n");
        return 2;
    }
    const bool specs = argc > 2 && argv[2][0] == '-';
    for (int i = 2; specs && i < argc;) {
        std::string a = argv[i];
        int need = a == "--sample" ? 3 : a == "--scrambles" ? 4 : 0;
        if (need == 0 || i + need > argc) {
            std::fprintf(stderr, "bfs_distances: bad arguments at '%s'\n", argv[i]);
            return 2;
        }
        i += need;
    }
    pz::DiagnosticEngine diags;
    auto puzzle = pz::ir::loadPuzzle(argv[1], diags);
    if (!puzzle) {
        diags.print(std::cerr);
        return 1;
    }
    const auto& orbits = puzzle->orbits;
    Codec codec(orbits);
    if (codec.total > 128) {
        std::fprintf(stderr, "bfs_distances: a state needs %d bits; at most 128 are supported\n", codec.total);
        return 2;
    }
    std::vector<pz::ir::Element> inverseMoves;
    for (const auto& m : puzzle->moves)
        if (m.inMetric) inverseMoves.push_back(pz::ir::inverse(m.effect, orbits));

    // levels[d]: the sorted keys of the states at distance d to solved;
    // all: the sorted keys of every state seen so far.
    std::vector<std::vector<Key>> levels{{codec.encode(pz::ir::identity(orbits))}};
    std::vector<Key> all = levels[0];
    for (;;) {
        std::vector<Key> next;
        for (Key k : levels.back()) {
            pz::ir::Element e = codec.decode(k);
            for (const auto& mi : inverseMoves) {
                const pz::ir::Element child = pz::ir::compose(e, mi, orbits);
                if (pz::ir::illegalPlacementIn(*puzzle, child)) continue;  // never entered
                Key n = codec.encode(child);
                if (!std::binary_search(all.begin(), all.end(), n)) next.push_back(n);
            }
        }
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        if (next.empty()) break;
        std::vector<Key> merged;
        merged.reserve(all.size() + next.size());
        std::merge(all.begin(), all.end(), next.begin(), next.end(), std::back_inserter(merged));
        all = std::move(merged);
        levels.push_back(std::move(next));
    }
    auto depthOf = [&](Key k) {
        for (size_t d = 0; d < levels.size(); ++d)
            if (std::binary_search(levels[d].begin(), levels[d].end(), k)) return static_cast<int>(d);
        return -1;
    };

    if (!specs) {
        const long every = argc > 2 ? number(argv[2]) : 1;
        if (every < 1) return 2;
        long index = 0;
        for (size_t d = 0; d < levels.size(); ++d)
            for (Key k : levels[d])
                if (index++ % every == 0)
                    std::printf("%zu ;%s\n", d, stateText(*puzzle, codec, codec.decode(k)).c_str());
        return 0;
    }
    for (int i = 2; i < argc;) {
        std::string a = argv[i];
        if (a == "--sample") {
            const long n = number(argv[i + 1]);
            std::mt19937_64 rng(static_cast<uint64_t>(number(argv[i + 2])));
            i += 3;
            for (long j = 0; j < n; ++j) {
                Key k = all[std::uniform_int_distribution<size_t>(0, all.size() - 1)(rng)];
                std::printf("state %d ;%s\n", depthOf(k), stateText(*puzzle, codec, codec.decode(k)).c_str());
            }
            const auto& deepest = levels.back();
            for (size_t j = 0; j < deepest.size() && static_cast<long>(j) < n / 4; ++j)
                std::printf("state %zu ;%s\n", levels.size() - 1, stateText(*puzzle, codec, codec.decode(deepest[j])).c_str());
        } else {
            const long n = number(argv[i + 1]), length = number(argv[i + 2]);
            std::mt19937_64 rng(static_cast<uint64_t>(number(argv[i + 3])));
            i += 4;
            const auto& moves = puzzle->moves;
            if (moves.empty()) return 2;
            for (long j = 0; j < n; ++j) {
                pz::ir::Element e = pz::ir::identity(orbits);
                std::string text;
                const long steps = std::uniform_int_distribution<long>(1, std::max(1L, length))(rng);
                for (long step = 0, tries = 0; step < steps && tries < 100000; ++tries) {
                    const auto& m = moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng)];
                    pz::ir::Element next = pz::ir::compose(e, m.effect, orbits);
                    if (pz::ir::illegalPlacementIn(*puzzle, next)) continue;  // scrambles stay legal
                    e = std::move(next);
                    text += (step++ ? " " : "") + m.name;
                }
                // Cross-check the IR evaluator the solver's front end uses.
                auto parsed = pz::ir::evaluateText(*puzzle, text, "<scramble>", diags);
                if (!parsed || !(*parsed == e)) {
                    std::fprintf(stderr, "bfs_distances: scramble '%s' evaluates differently\n", text.c_str());
                    return 1;
                }
                std::printf("scramble %d ; %s\n", depthOf(codec.encode(e)), text.c_str());
            }
        }
    }
    return 0;
}
