// pz/blocks/tiles_main.hpp — the generated n-puzzle solver's main():
//
//   int main(int argc, char** argv) { return pz::blocks::tilesMain<Traits>(argc, argv); }
//
// Positions (any number, solved in the order given):
//   --state "CELLS"      the cells row by row, 0 = blank (commas allowed); repeatable
//   --states FILE        one position a line (- = stdin; empty lines and # comments skipped)
//   --scramble "MOVES"   the position the blank's moves U D L R make from the goal; repeatable
//   --random N [--seed S]  N uniformly random solvable positions (seed default 1)
//   --machine            read positions from stdin, one a line; write note [result protocol]
//                        lines (pz/support/result_json.hpp), moves as 0..3 = U D L R
// Output and resources:
//   --json               one JSON object a position: {"solution", "length", "optimal", "nodes", "seconds"}
//   --table-dir DIR      where the pattern tables are cached (default <pzc cache>/tables)
//   --memory SIZE        the table memory budget (512M, 2G; default a quarter of RAM)
//   --threads T          threads of the table build (default: every CPU); the search is one thread
//   --max-nodes N        give up on a position after N generated nodes
// Exit status: 0 every position solved; 1 a position rejected (bad cells,
// unsolvable parity, illegal scramble move) or not solved within
// --max-nodes; 2 usage; 3 internal error (a solution that does not replay);
// 4 the tables do not fit the memory budget. Every solution is replayed
// against its position before it is printed.
#pragma once

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "pz/blocks/tiles.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/result_json.hpp"
#include "pz/tables/prune.hpp"

namespace pz::blocks {

namespace main_detail {
inline std::string movesText(const std::vector<int>& moves) {
    std::string s;
    for (size_t i = 0; i < moves.size(); ++i) s += (i ? " " : "") + std::string(kDirNames[moves[i]]);
    return s;
}
inline std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return "";
    const size_t b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}
}  // namespace main_detail

template <class T>
int tilesMain(int argc, char** argv) {
    using namespace main_detail;
    struct Position {
        std::string source;
        std::optional<Cells<T>> cells;
        std::string error;
    };
    std::vector<Position> positions;
    bool json = false, machine = false;
    std::string tableDir = cacheDirectory() + "/tables";
    int threads = 0;
    uint64_t maxNodes = UINT64_MAX;
    long long randomCount = 0;
    uint64_t seed = 1;
    const std::string usage = std::string("usage: ") + argv[0] +
                              " [--state \"CELLS\"]... [--states FILE] [--scramble \"U L D R ...\"]... [--random N [--seed S]]"
                              " [--machine] [--json] [--table-dir DIR] [--memory SIZE] [--threads T] [--max-nodes N]\n"
                              "  " + T::kName + ": " + std::to_string(T::kHeight) + "x" + std::to_string(T::kWidth) +
                              " sliding tiles; cells row by row, 0 = blank; moves U D L R move the blank\n";
    auto addState = [&](const std::string& text, const std::string& source) {
        Position p{source, std::nullopt, ""};
        Cells<T> c;
        if (parseCells<T>(text, c, p.error)) p.cells = c;
        positions.push_back(std::move(p));
    };
    auto number = [&](const std::string& opt, const std::string& v, uint64_t& out) {
        char* end = nullptr;
        const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' || v[0] == '-') {
            std::fprintf(stderr, "%s: %s wants a number, got '%s'\n", argv[0], opt.c_str(), v.c_str());
            return false;
        }
        out = x;
        return true;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(usage.c_str(), stdout);
            return 0;
        }
        if (a == "--json") {
            json = true;
            continue;
        }
        if (a == "--machine") {
            machine = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s: unknown option or missing value: %s\n%s", argv[0], a.c_str(), usage.c_str());
            return 2;
        }
        const std::string v = argv[++i];
        uint64_t x = 0;
        if (a == "--state") {
            addState(v, "--state " + v);
        } else if (a == "--states") {
            std::ifstream file;
            if (v != "-") {
                file.open(v);
                if (!file) {
                    std::fprintf(stderr, "%s: cannot read %s\n", argv[0], v.c_str());
                    return 2;
                }
            }
            std::istream& in = v == "-" ? std::cin : file;
            std::string line;
            for (int n = 1; std::getline(in, line); ++n) {
                line = trim(line);
                if (line.empty() || line[0] == '#') continue;
                addState(line, v + ":" + std::to_string(n));
            }
        } else if (a == "--scramble") {
            Position p{"--scramble " + v, std::nullopt, ""};
            Cells<T> c;
            if (scrambleCells<T>(v, c, p.error)) p.cells = c;
            positions.push_back(std::move(p));
        } else if (a == "--random") {
            if (!number(a, v, x)) return 2;
            randomCount = static_cast<long long>(x);
        } else if (a == "--seed") {
            if (!number(a, v, seed)) return 2;
        } else if (a == "--table-dir") {
            tableDir = v;
        } else if (a == "--memory") {
            const auto m = parseMemorySize(v);
            if (!m) {
                std::fprintf(stderr, "%s: --memory wants a size like 512M or 2G, got '%s'\n", argv[0], v.c_str());
                return 2;
            }
            memoryBudget() = *m;
        } else if (a == "--threads") {
            if (!number(a, v, x) || x == 0 || x > 1024) {
                std::fprintf(stderr, "%s: --threads wants 1..1024\n", argv[0]);
                return 2;
            }
            threads = static_cast<int>(x);
        } else if (a == "--max-nodes") {
            if (!number(a, v, maxNodes)) return 2;
        } else {
            std::fprintf(stderr, "%s: unknown option: %s\n%s", argv[0], a.c_str(), usage.c_str());
            return 2;
        }
    }
    if (randomCount > 0) {
        std::mt19937_64 rng(seed);
        for (long long k = 0; k < randomCount; ++k) {
            const Cells<T> c = randomCells<T>(rng);
            positions.push_back({"random " + std::to_string(k + 1) + ": " + cellsText<T>(c), c, ""});
        }
    }
    if (machine && !positions.empty()) {
        std::fprintf(stderr, "%s: --machine reads its positions from stdin; no --state/--states/--scramble/--random\n", argv[0]);
        return 2;
    }
    if (!machine && positions.empty()) {
        std::fputs(usage.c_str(), stderr);
        return 2;
    }
    // Rejected positions are reported before any table is built.
    int status = 0;
    if (!machine)
        for (const auto& p : positions)
            if (!p.cells) {
                std::fprintf(stderr, "%s: %s: %s\n", argv[0], p.source.c_str(), p.error.c_str());
                status = 1;
            }
    if (status != 0) return status;

    TileTables<T> tables;
    try {
        tables.loadOrBuild(tableDir, threads);
    } catch (const MemoryBudgetError& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 4;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: out of memory building the tables\n", argv[0]);
        return 4;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 3;
    }
    TileSolver<T> solver(&tables);

    // Solves one position and prints its result; false on an internal error.
    auto solveOne = [&](const Cells<T>& start, long long index) {
        const auto r = solver.solve(start, maxNodes);
        if (r.solved && !replaySolves<T>(start, r.moves)) {
            std::fprintf(stderr, "%s: internal error: the solution of %s does not replay\n", argv[0],
                         cellsText<T>(start).c_str());
            return false;
        }
        if (machine) {
            json::Line line;
            if (r.solved)
                line.field("type", "solution").field("index", index).field("moves", r.moves);
            else
                line.field("type", "no-solution").field("index", index).field("depth-limit", r.bound);
            line.field("nodes", r.nodes).field("seconds", r.seconds);
            std::cout << line.str() << '\n' << std::flush;
        } else if (json) {
            json::Line line;
            if (r.solved)
                line.field("solution", movesText(r.moves)).field("length", static_cast<long long>(r.moves.size()))
                    .field("optimal", true);
            else
                line.field("solved", false).field("depth-limit", r.bound);
            line.field("nodes", r.nodes).field("seconds", r.seconds);
            std::cout << line.str() << '\n' << std::flush;
        } else if (r.solved) {
            std::printf("%s (%zu moves, optimal; %llu nodes, %.3f s)\n",
                        r.moves.empty() ? "solved already" : movesText(r.moves).c_str(), r.moves.size(),
                        static_cast<unsigned long long>(r.nodes), r.seconds);
            std::fflush(stdout);
        } else {
            std::printf("no solution within %llu nodes (searched below %d moves; %.3f s)\n",
                        static_cast<unsigned long long>(r.nodes), r.bound, r.seconds);
            std::fflush(stdout);
        }
        if (!r.solved) status = 1;
        return true;
    };

    if (machine) {
        std::string line;
        long long index = 0;
        while (std::getline(std::cin, line)) {
            line = trim(line);
            if (line.empty()) continue;
            const long long at = index++;
            Cells<T> c;
            std::string why;
            if (!parseCells<T>(line, c, why)) {
                std::cout << json::Line().field("type", "error").field("index", at).field("message", "bad state: " + why).str()
                          << '\n' << std::flush;
                continue;
            }
            if (!solveOne(c, at)) return 3;
        }
        return 0;
    }
    long long index = 0;
    for (const auto& p : positions)
        if (!solveOne(*p.cells, index++)) return 3;
    return status;
}

}  // namespace pz::blocks
