// bfs_depths FILE MAXDEPTH [EVERY] — a breadth-first oracle for the puzzle
// library (oriented orbits too), limited to MAXDEPTH so that big groups stay
// cheap: every state within MAXDEPTH moves gets its exact distance.
// Prints "count D N" for each depth D, then every EVERY-th state (default:
// none) as "<depth> ; <numbers>" in the solver's state notation (each orbit's
// perm, or with identical pieces its labels, then each oriented orbit's
// orientations; identical pieces make distinct states). IR element algebra only:
// nothing shared with the generated solver it checks.
#include <cstdio>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: bfs_depths FILE MAXDEPTH [EVERY]\n");
        return 2;
    }
    const int maxDepth = std::stoi(argv[2]);
    const long every = argc > 3 ? std::stol(argv[3]) : 0;
    pz::DiagnosticEngine diags;
    auto puzzle = pz::ir::loadPuzzle(argv[1], diags);
    if (!puzzle) return 1;
    std::vector<pz::ir::Element> moves;
    for (const auto& m : puzzle->moves)
        if (m.inMetric) moves.push_back(m.effect);
    // What a state shows: with identical pieces, the label at each position
    // (states are distinct states, and are printed as labels, which pzc
    // solve --state and generated solvers take).
    std::vector<bool> labelled;
    for (const auto& o : puzzle->orbits)
        labelled.push_back(std::set<int>(o.solvedLabel.begin(), o.solvedLabel.end()).size() < o.solvedLabel.size());
    auto shown = [&](const pz::ir::Element& e) {
        auto perm = e.perm;
        for (size_t o = 0; o < perm.size(); ++o)
            if (labelled[o])
                for (int& v : perm[o]) v = puzzle->orbits[o].solvedLabel[v];
        return perm;
    };
    // A state's key: what it shows and its orientations, two bytes a value
    // (orbits have at most 1024 positions), hashed.
    auto key = [&](const pz::ir::Element& e) {
        std::string k;
        auto put = [&k](int v) { k += char(v & 0xff), k += char(v >> 8); };
        for (const auto& orbit : shown(e))
            for (int v : orbit) put(v);
        for (const auto& orbit : e.ori)
            for (int v : orbit) put(v);
        return k;
    };
    std::unordered_set<std::string> seen;
    std::vector<pz::ir::Element> frontier{pz::ir::identity(puzzle->orbits)};
    seen.insert(key(frontier[0]));
    std::vector<std::string> lines;
    long index = 0;
    for (int depth = 0; depth <= maxDepth && !frontier.empty(); ++depth) {
        std::printf("count %d %zu\n", depth, frontier.size());
        std::vector<pz::ir::Element> next;
        for (const auto& e : frontier) {
            if (every > 0 && index++ % every == 0) {
                std::string line = std::to_string(depth) + " ;";
                for (const auto& orbit : shown(e))
                    for (int v : orbit) line += " " + std::to_string(v);
                for (size_t o = 0; o < e.ori.size(); ++o)
                    if (puzzle->orbits[o].orient > 1)
                        for (int v : e.ori[o]) line += " " + std::to_string(v);
                lines.push_back(line);
            }
            if (depth == maxDepth) continue;
            for (const auto& m : moves) {
                auto n = pz::ir::compose(e, m, puzzle->orbits);
                if (seen.insert(key(n)).second) next.push_back(std::move(n));
            }
        }
        frontier = std::move(next);
    }
    for (const auto& l : lines) std::printf("%s\n", l.c_str());
    return 0;
}
