// bfs_distances FILE [EVERY] — an oracle for optimal solution lengths.
//
// Breadth-first search from the solved state over FILE's metric moves,
// using only the IR element algebra (no generated code, no pruning table),
// so it shares nothing with the solver it checks. Prints every EVERY-th
// state in BFS order (default 1 = all), one per line:
//   <depth> ; <perm numbers>
// in the solver's state notation (perm[p] = solved position of the piece at
// p). Meant for small unoriented puzzles (the whole group is kept in memory).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bfs_distances FILE [EVERY]\n");
        return 2;
    }
    const long every = argc > 2 ? std::stol(argv[2]) : 1;
    pz::DiagnosticEngine diags;
    auto puzzle = pz::ir::loadPuzzle(argv[1], diags);
    if (!puzzle) return 1;
    for (const auto& o : puzzle->orbits)
        if (o.orient > 1) {
            std::fprintf(stderr, "bfs_distances: oriented orbits are not supported\n");
            return 2;
        }
    std::vector<pz::ir::Element> moves;
    for (const auto& m : puzzle->moves)
        if (m.inMetric) moves.push_back(m.effect);
    std::map<std::vector<std::vector<int>>, int> depthOf;
    std::vector<pz::ir::Element> frontier{pz::ir::identity(puzzle->orbits)};
    depthOf[frontier[0].perm] = 0;
    long index = 0;
    for (int depth = 0; !frontier.empty(); ++depth) {
        std::vector<pz::ir::Element> next;
        for (const auto& e : frontier) {
            if (index++ % every == 0) {
                std::printf("%d ;", depth);
                for (const auto& orbit : e.perm)
                    for (int v : orbit) std::printf(" %d", v);
                std::printf("\n");
            }
            for (const auto& m : moves) {
                auto n = pz::ir::compose(e, m, puzzle->orbits);
                if (depthOf.emplace(n.perm, depth + 1).second) next.push_back(std::move(n));
            }
        }
        frontier = std::move(next);
    }
    return 0;
}
