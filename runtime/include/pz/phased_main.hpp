// pz/phased_main.hpp — the command line of a generated phased solver.
//
//   solver [--scramble "MOVES"] [--state "NUMBERS"] [--random N --seed S]
//          [--stdin] [--json] [--machine] [--max-length N] [--budget-ms N]
//          [--nodes N] [--tables]
//
// Positions are read as by pz/solver_main.hpp. --max-length N: keep
// improving until a solution of at most N moves (default: the first
// solution); --budget-ms / --nodes: stop improving after this much work
// (a solution is always completed). --tables prints the tables' build time,
// size and depth distributions. Every solution is replayed through the
// generated kernels before it is printed.
//
// --machine (used by pzc): "P <state numbers> ; M <move indices> ; N <nodes>
// ; S <seconds> ; Q <length of each phase>".
#pragma once

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "pz/phased.hpp"
#include "pz/solver_main.hpp"

namespace pz {

template <class T>
int phasedMain(int argc, char** argv, const char* solverName, std::vector<PhaseSpec> phases,
               std::vector<int> moveFamily) {
    using State = typename T::State;
    std::vector<State> positions;
    bool json = false, machine = false, fromStdin = false, showTables = false;
    long randomCount = 0;
    unsigned long long seed = 1;
    PhasedLimits limits;
    auto usage = [&] {
        std::cerr << "usage: " << argv[0]
                  << " [--scramble \"MOVES\"] [--state \"NUMBERS\"] [--random N --seed S] [--stdin]"
                     " [--json] [--machine] [--max-length N] [--budget-ms N] [--nodes N] [--tables]\n";
        return 2;
    };
    auto fail = [&](const std::string& msg) {
        std::cerr << argv[0] << ": error: " << msg << "\n";
        return 1;
    };
    auto number = [&](const char* v, long long& out) {
        std::string s = v;
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 15) return false;
        out = std::stoll(s);
        return true;
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        std::string why;
        if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (a == "--json") {
            json = true;
        } else if (a == "--machine") {
            machine = true;
        } else if (a == "--stdin") {
            fromStdin = true;
        } else if (a == "--tables") {
            showTables = true;
        } else if (i + 1 < argc && (a == "--scramble" || a == "--state")) {
            const char* v = argv[++i];
            if (a == "--scramble") {
                auto s = stateFromMoveNames<T>(v, why);
                if (!s) return fail("bad scramble: " + why);
                positions.push_back(*s);
            } else {
                std::istringstream in(v);
                std::vector<long> nums;
                std::string tok;
                while (in >> tok) {
                    long long x;
                    if (!number(tok.c_str(), x)) return fail("bad state: '" + tok + "' is not a number");
                    nums.push_back(static_cast<long>(x));
                }
                auto s = stateFromNumbers<T>(nums, why);
                if (!s) return fail("bad state: " + why);
                positions.push_back(*s);
            }
        } else if (i + 1 < argc && (a == "--random" || a == "--seed" || a == "--max-length" || a == "--budget-ms" ||
                                    a == "--nodes" || a == "--table-dir" || a == "--threads")) {
            long long x = 0;
            const char* v = argv[++i];
            if (a == "--table-dir") continue;  // tables are built in memory
            if (!number(v, x)) return fail(a + " needs a non-negative number, got '" + v + "'");
            if (a == "--random") randomCount = static_cast<long>(x);
            else if (a == "--seed") seed = static_cast<unsigned long long>(x);
            else if (a == "--max-length") limits.maxLength = static_cast<int>(x);
            else if (a == "--budget-ms") limits.budgetMs = static_cast<double>(x);
            else if (a == "--nodes") limits.nodeBudget = static_cast<uint64_t>(x);
        } else {
            return usage();
        }
    }
    if (fromStdin) {
        std::string line;
        while (std::getline(std::cin, line)) {
            std::istringstream in(line);
            std::vector<long> nums;
            long x;
            while (in >> x) nums.push_back(x);
            if (nums.empty()) continue;
            std::string why;
            auto s = stateFromNumbers<T>(nums, why);
            if (!s) return fail("bad state: " + why);
            positions.push_back(*s);
        }
    }
    std::mt19937_64 rng(seed);
    for (long i = 0; i < randomCount; ++i) positions.push_back(randomState<T>(rng));
    if (positions.empty() && !showTables) return usage();

    PhasedSearch<T> search(std::move(phases), std::move(moveFamily));
    if (showTables) {
        std::cout << "solver " << solverName << ": tables built in " << search.buildSeconds() << " s, "
                  << search.tableBytes() << " bytes\n";
        for (size_t k = 0; k < search.phaseCount(); ++k) {
            const auto& spec = search.phase(k);
            std::cout << "phase " << k + 1 << " (to " << spec.target << "), " << spec.moves.size() << " moves\n";
            for (size_t t = 0; t < spec.tables.size(); ++t) {
                const auto counts = search.depthCounts(k, t);
                std::cout << "  table " << t << " (part " << spec.tables[t].first;
                if (spec.tables[t].second >= 0) std::cout << " x part " << spec.tables[t].second;
                std::cout << "):";
                for (int d = 0; d < 16; ++d)
                    if (counts[d]) std::cout << ' ' << d << ':' << counts[d];
                std::cout << "\n";
            }
        }
        std::cout.flush();
    }
    int status = 0;
    for (const State& start : positions) {
        auto r = search.solve(start, limits);
        if (!r.found) {
            std::cerr << argv[0] << ": error: no solution within the search's depth limit (is the position reachable?)\n";
            status = 1;
            continue;
        }
        State replay = start;
        for (int m : r.moves) replay = T::applyMove(replay, m);
        if (!(replay == T::solved())) {
            std::cerr << argv[0] << ": internal error: the solution does not replay to solved\n";
            return 3;
        }
        std::string text, phasesText;
        for (size_t i = 0; i < r.moves.size(); ++i) text += (i ? " " : "") + std::string(T::kMoveNames[r.moves[i]]);
        for (size_t i = 0; i < r.phaseLengths.size(); ++i) phasesText += (i ? ", " : "") + std::to_string(r.phaseLengths[i]);
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.6f", r.seconds);
        if (machine) {
            std::cout << "P";
            for (long n : stateNumbers<T>(start)) std::cout << ' ' << n;
            std::cout << " ; M";
            for (int m : r.moves) std::cout << ' ' << m;
            std::cout << " ; N " << r.nodes << " ; S " << secs << " ; Q";
            for (int l : r.phaseLengths) std::cout << ' ' << l;
            std::cout << "\n";
        } else if (json) {
            std::cout << "{\"solution\": \"" << text << "\", \"length\": " << r.moves.size() << ", \"optimal\": false, \"solver\": \""
                      << solverName << "\", \"phases\": [" << phasesText << "], \"nodes\": " << r.nodes
                      << ", \"seconds\": " << secs << "}\n";
        } else {
            std::cout << (text.empty() ? "(solved)" : text) << "\n  " << r.moves.size() << " moves (phases " << phasesText
                      << "), " << r.nodes << " nodes, " << secs << " s\n";
        }
        std::cout.flush();
    }
    return status;
}

}  // namespace pz
