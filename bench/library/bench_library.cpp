// The library API against the command line (bench/library/run.sh builds and
// runs this): per-call overhead over the search, node counts and rates, and
// batch throughput. Libraries: slide4 (optimal) and cube3 (two_phase), made
// by pzc generate into the include path.
//
//   bench_library calls N            N random states of each, solved one by one
//                                    on one thread: search time vs call time
//   bench_library states N SEED F    writes N random slide4 states to F (for the CLI)
//   bench_library batch F T          solves F's states with solveAll on T threads
//   bench_library each F             solves F's states one by one, 1 thread: JSON lines
//   bench_library cube-states N SEED F / cube-each F: the same for cube3 two_phase
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cube.hpp"
#include "slide.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::unique_ptr<pz::api::Solver> ready(pz::api::Result<std::unique_ptr<pz::api::Solver>> made, int threads) {
    if (!made) throw std::runtime_error(made.error().message);
    auto solver = std::move(*made);
    if (auto st = solver->prepare(); !st) throw std::runtime_error(st.error().message);
    (void)threads;
    return solver;
}

// N random states solved one call at a time: the call's wall time against
// the search's own (Solution::seconds); the difference is the API's cost.
void perCall(pz::api::Solver& solver, const char* label, int n) {
    std::vector<pz::api::Position> states;
    for (int i = 0; i < n; ++i) states.push_back(*solver.randomState(1000 + i));
    double outer = 0, inner = 0;
    uint64_t nodes = 0;
    int moves = 0;
    for (const auto& p : states) {
        auto t = Clock::now();
        auto sol = solver.solve(p, {.threads = 1});
        outer += since(t);
        if (!sol) throw std::runtime_error(sol.error().message);
        inner += sol->seconds, nodes += sol->nodes, moves += sol->length;
    }
    std::printf("%-18s %5d states, mean length %.2f: search %.3f ms/solve, call %.3f ms/solve, "
                "overhead %.2f us/call; %.2f M nodes/s\n",
                label, n, double(moves) / n, 1e3 * inner / n, 1e3 * outer / n, 1e6 * (outer - inner) / n,
                double(nodes) / inner / 1e6);
}

std::vector<pz::api::Position> readStates(pz::api::Solver& solver, const std::string& file) {
    std::ifstream in(file);
    std::vector<pz::api::Position> out;
    for (std::string line; std::getline(in, line);) {
        auto p = solver.parseState(line);
        if (!p) throw std::runtime_error(p.error().message);
        out.push_back(*p);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "calls" && argc == 3) {
        const int n = std::stoi(argv[2]);
        auto t = Clock::now();
        auto s = ready(slide::makeSolver({.threads = 1}), 1);
        std::printf("slide4 tables ready in %.3f s\n", since(t));
        perCall(*s, "slide4 optimal", n);
        t = Clock::now();
        auto c = ready(cube::makeSolver({.threads = 1}, "two_phase"), 1);
        std::printf("cube3 two_phase tables ready in %.3f s\n", since(t));
        perCall(*c, "cube3 two_phase", n);
        return 0;
    }
    if (mode == "states" && argc == 5) {
        auto s = slide::makeSolver();
        std::ofstream out(argv[4]);
        for (int i = 0; i < std::stoi(argv[2]); ++i) out << (*s)->format(*(*s)->randomState(std::stoull(argv[3]) + i)) << "\n";
        return 0;
    }
    if (mode == "batch" && argc == 4) {
        const int threads = std::stoi(argv[3]);
        auto t0 = Clock::now();
        auto s = ready(slide::makeSolver({.threads = threads}), threads);
        const double load = since(t0);
        auto states = readStates(*s, argv[2]);
        auto t = Clock::now();
        auto results = s->solveAll(states, {}, threads);
        const double solving = since(t);
        uint64_t nodes = 0;
        for (const auto& r : results) {
            if (!r) throw std::runtime_error(r.error().message);
            nodes += r->nodes;
        }
        std::printf("api batch: %zu states on %d threads: %.3f s solving (%.3f ms/state), %.3f s with the table load; %llu nodes\n",
                    states.size(), threads, solving, 1e3 * solving / states.size(), since(t0),
                    static_cast<unsigned long long>(nodes));
        (void)load;
        return 0;
    }
    if (mode == "cube-states" && argc == 5) {
        auto s = cube::makeSolver({}, "two_phase");
        std::ofstream out(argv[4]);
        for (int i = 0; i < std::stoi(argv[2]); ++i) out << (*s)->format(*(*s)->randomState(std::stoull(argv[3]) + i)) << "\n";
        return 0;
    }
    if ((mode == "each" || mode == "cube-each") && argc == 3) {
        auto s = mode == "each" ? ready(slide::makeSolver({.threads = 1}), 1)
                                : ready(cube::makeSolver({.threads = 1}, "two_phase"), 1);
        for (const auto& p : readStates(*s, argv[2])) {
            auto r = s->solve(p, {.threads = 1});
            if (!r) throw std::runtime_error(r.error().message);
            std::printf("{\"length\": %d, \"nodes\": %llu, \"seconds\": %.6f}\n", r->length,
                        static_cast<unsigned long long>(r->nodes), r->seconds);
        }
        return 0;
    }
    std::cerr << "usage: bench_library calls N | states N SEED FILE | batch FILE THREADS | each FILE |"
                 " cube-states N SEED FILE | cube-each FILE\n";
    return 2;
} catch (const std::exception& e) {
    std::cerr << "bench_library: error: " << e.what() << "\n";
    return 1;
}
