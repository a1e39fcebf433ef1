// pz/solver_main.hpp — the command line of a generated solver binary.
//
//   solver [--scramble "MOVES"] [--state "NUMBERS"] [--random N --seed S]
//          [--stdin] [--json] [--machine] [--table-dir DIR] [--threads N]
//          [--memory SIZE] [--verify-tables]
//
// --memory: the budget for pruning tables (512M, 2G, ...; default half of the
// physical memory); tables that do not fit are refused before allocation.
// --verify-tables: check every block of every cached table on load (note
// [table integrity] in pz/prune.hpp), not just the header and a sample.
//
// A state is written as the IR element's numbers: for each orbit its
// permutation (perm[p] = solved position of the piece now at p), then for
// each oriented orbit its orientations. Positions come one per line with
// --stdin. Every solution is replayed through the generated kernels before
// it is printed; pzc additionally replays it through the IR element algebra.
//
// Output per position: a readable line; --json: {"solution": ..., "length":
// ..., "optimal": true, "nodes": ..., "seconds": ...}; --machine (used by
// pzc): "P <state numbers> ; M <move indices> ; N <nodes> ; S <seconds>".
#pragma once

#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pz/search.hpp"
#include "pz/state.hpp"

namespace pz {

struct OrbitShape {
    int size;       // positions (lanes)
    int orient;     // orientation modulus (1 = none)
    int permWord;   // word holding the labels
    int oriWord;    // word holding orientations, -1 if none
};

template <class T>
std::vector<long> stateNumbers(const typename T::State& s) {
    std::vector<long> out;
    for (const auto& o : T::kOrbitShapes)
        for (int p = 0; p < o.size; ++p) out.push_back(lane(s.w[o.permWord], p));
    for (const auto& o : T::kOrbitShapes)
        if (o.oriWord >= 0)
            for (int p = 0; p < o.size; ++p) out.push_back(lane(s.w[o.oriWord], p));
    return out;
}

template <class T>
std::optional<typename T::State> stateFromNumbers(const std::vector<long>& v, std::string& why) {
    size_t want = 0;
    for (const auto& o : T::kOrbitShapes) want += o.size * (o.oriWord >= 0 ? 2 : 1);
    if (v.size() != want) {
        why = "a state has " + std::to_string(want) + " numbers, got " + std::to_string(v.size());
        return std::nullopt;
    }
    typename T::State s{};
    size_t i = 0;
    for (const auto& o : T::kOrbitShapes) {
        uint32_t seen = 0;
        for (int p = 0; p < o.size; ++p, ++i) {
            if (v[i] < 0 || v[i] >= o.size || (seen >> v[i] & 1)) {
                why = "not a permutation: number " + std::to_string(i + 1) + " (" + std::to_string(v[i]) + ")";
                return std::nullopt;
            }
            seen |= 1u << v[i];
            s.w[o.permWord] |= static_cast<uint64_t>(v[i]) << (4 * p);
        }
    }
    for (const auto& o : T::kOrbitShapes) {
        if (o.oriWord < 0) continue;
        for (int p = 0; p < o.size; ++p, ++i) {
            if (v[i] < 0 || v[i] >= o.orient) {
                why = "orientation out of range: number " + std::to_string(i + 1);
                return std::nullopt;
            }
            s.w[o.oriWord] |= static_cast<uint64_t>(v[i]) << (4 * p);
        }
    }
    return s;
}

template <class T>
std::optional<typename T::State> stateFromMoveNames(const std::string& text, std::string& why) {
    typename T::State s = T::solved();
    std::istringstream in(text);
    std::string tok;
    while (in >> tok) {
        int found = -1;
        for (int m = 0; m < T::kMoves; ++m)
            if (tok == T::kMoveNames[m]) found = m;
        if (found < 0) {
            why = "unknown move '" + tok + "'";
            return std::nullopt;
        }
        s = T::applyMove(s, found);
    }
    return s;
}

// A random state: a uniform shuffle of every orbit when the puzzle's group
// is the full symmetric group on its pieces (T::kAllPermutationsReachable),
// else a long random walk of moves.
template <class T>
typename T::State randomState(std::mt19937_64& rng) {
    typename T::State s = T::solved();
    if constexpr (T::kAllPermutationsReachable) {
        for (const auto& o : T::kOrbitShapes) {
            int perm[16];
            for (int p = 0; p < o.size; ++p) perm[p] = p;
            for (int p = o.size - 1; p > 0; --p) std::swap(perm[p], perm[std::uniform_int_distribution<int>(0, p)(rng)]);
            uint64_t w = 0;
            for (int p = 0; p < o.size; ++p) w |= static_cast<uint64_t>(perm[p]) << (4 * p);
            s.w[o.permWord] = w;
        }
    } else {
        std::uniform_int_distribution<int> pick(0, T::kMoves - 1);
        for (int i = 0; i < 4096; ++i) s = T::applyMove(s, pick(rng));
    }
    return s;
}

template <class T>
int solverMain(int argc, char** argv) {
    using State = typename T::State;
    std::vector<State> positions;
    bool json = false, machine = false, fromStdin = false;
    long randomCount = 0;
    unsigned long long seed = 1;
    int threads = 0;
    std::string tableDir = cacheDirectory() + "/tables";
    auto usage = [&] {
        std::cerr << "usage: " << argv[0]
                  << " [--scramble \"MOVES\"] [--state \"NUMBERS\"] [--random N --seed S] [--stdin]"
                     " [--json] [--machine] [--table-dir DIR] [--threads N] [--memory SIZE] [--verify-tables]\n";
        return 2;
    };
    auto fail = [&](const std::string& msg) {
        std::cerr << argv[0] << ": error: " << msg << "\n";
        return 1;
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
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
        } else if (a == "--verify-tables") {
            tableVerification() = TableVerification::Full;
        } else if (a == "--scramble" || a == "--state" || a == "--random" || a == "--seed" ||
                   a == "--table-dir" || a == "--threads" || a == "--memory") {
            const char* v = value();
            if (!v) return usage();
            if (a == "--scramble") {
                auto s = stateFromMoveNames<T>(v, why);
                if (!s) return fail("bad scramble: " + why);
                positions.push_back(*s);
            } else if (a == "--state") {
                std::istringstream in(v);
                std::vector<long> nums;
                std::string tok;
                while (in >> tok) {
                    try {
                        size_t used = 0;
                        nums.push_back(std::stol(tok, &used));
                        if (used != tok.size()) throw std::invalid_argument(tok);
                    } catch (const std::exception&) {
                        return fail("bad state: '" + tok + "' is not a number");
                    }
                }
                auto s = stateFromNumbers<T>(nums, why);
                if (!s) return fail("bad state: " + why);
                positions.push_back(*s);
            } else if (a == "--random") {
                randomCount = std::atol(v);
            } else if (a == "--seed") {
                seed = std::strtoull(v, nullptr, 10);
            } else if (a == "--table-dir") {
                tableDir = v;
            } else if (a == "--memory") {
                auto bytes = parseMemorySize(v);
                if (!bytes || *bytes == 0) return fail(std::string("bad --memory '") + v + "': expected a size such as 512M or 2G");
                memoryBudget() = *bytes;
            } else {
                threads = std::atoi(v);
            }
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
    if (positions.empty()) return usage();

    std::optional<Search<T>> searchHolder;
    try {
        searchHolder.emplace(tableDir, threads, /*resident=*/positions.size() > 1);
    } catch (const MemoryBudgetError& e) {
        return fail(e.what());
    } catch (const std::bad_alloc&) {
        return fail("out of memory while building or loading the pruning tables (they need " +
                    formatBytes(Search<T>::tableBytes()) + "; the memory budget is " + formatBytes(memoryBudget()) +
                    "): free memory, or set --memory to what the machine can spare");
    }
    Search<T>& search = *searchHolder;
    int status = 0;
    for (const State& start : positions) {
        typename Search<T>::Result r;
        try {
            r = search.solve(start);
        } catch (const TableCorruptError& e) {
            return fail(e.what());
        }
        if (!r.found) {
            std::cerr << argv[0] << ": error: the position is not reachable by the puzzle's moves\n";
            status = 1;
            continue;
        }
        State replay = start;
        for (int m : r.moves) replay = T::applyMove(replay, m);
        if (!(replay == T::solved())) {
            std::cerr << argv[0] << ": internal error: the solution does not replay to solved\n";
            return 3;
        }
        std::string text;
        for (size_t i = 0; i < r.moves.size(); ++i) text += (i ? " " : "") + std::string(T::kMoveNames[r.moves[i]]);
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.6f", r.seconds);
        if (machine) {
            std::cout << "P";
            for (long n : stateNumbers<T>(start)) std::cout << ' ' << n;
            std::cout << " ; M";
            for (int m : r.moves) std::cout << ' ' << m;
            std::cout << " ; N " << r.nodes << " ; S " << secs << "\n";
        } else if (json) {
            std::cout << "{\"solution\": \"" << text << "\", \"length\": " << r.moves.size()
                      << ", \"optimal\": true, \"nodes\": " << r.nodes << ", \"seconds\": " << secs << "}\n";
        } else {
            std::cout << (text.empty() ? "(solved)" : text) << "\n  " << r.moves.size() << " moves (optimal), "
                      << r.nodes << " nodes, " << secs << " s\n";
        }
        std::cout.flush();
    }
    return status;
}

}  // namespace pz
