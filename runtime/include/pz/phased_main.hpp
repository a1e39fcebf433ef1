// pz/phased_main.hpp — the command line of a generated phased solver.
//
//   solver [--scramble "MOVES"] [--state "NUMBERS"] [--random N --seed S]
//          [--stdin] [--json] [--machine] [--max-length N] [--budget-ms N]
//          [--nodes N] [--tables] [--calibrate] [--table-dir DIR] [--threads N] [--memory SIZE]
//          [--verify-tables] [--no-cache] [--shared-tables]
//
// Positions are read as by pz/solver_main.hpp. --max-length N: keep
// improving until a solution of at most N moves (default: the first
// solution); --budget-ms / --nodes: stop improving after this much work
// (a solution is always completed). --tables prints the tables' build time,
// size and depth distributions; --calibrate the cost of each part's move table
// against ranking it from a state (note [move tables or raw states] in
// pz/search/phased.hpp). The tables are cached in one file per solver
// (pz/tables/table_blob.hpp) in --table-dir (default <cache>/tables, as pruning
// tables), keyed by a hash of the solver's plan and traits; --threads N
// threads (default: one per online CPU) build them and search each position
// (note [phased threads] in pz/search/phased.hpp: the same answer for any N); --no-cache builds them in memory only.
// A batch (--stdin, several positions) copies them into memory first, unless
// --shared-tables keeps them mapped (as pz/solver_main.hpp). Every solution is replayed through the
// generated kernels before it is printed.
//
// --machine (used by pzc): JSON lines (note [result protocol] in
// pz/support/result_json.hpp), each solution line with one more field, "phases":
// the length of each phase. Exit codes as pz/solver_main.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <new>
#include <optional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "pz/api/phased.hpp"
#include "pz/search/phased.hpp"
#include "pz/solver_main.hpp"
#include "pz/support/result_json.hpp"

namespace pz {

template <class T>
int phasedMainImpl(int argc, char** argv, const char* solverName, const char* tablesHash, std::vector<PhaseSpec> phases,
                   std::vector<int> moveFamily, std::vector<PhaseDirection> directions) {
    using State = typename T::State;
    std::vector<State> positions;
    bool json = false, machine = false, fromStdin = false, showTables = false, noCache = false, calibrate = false;
    std::string tableDir = cacheDirectory() + "/tables";
    int threads = 0;
    long long randomCount = 0;
    unsigned long long seed = 1;
    PhasedLimits limits;
    uint64_t memoryBytes = 0;  // 0: the default budget
    bool verifyTables = false;
    bool sharedTables = false;  // kept mapped for other solvers (note [huge page cache])
    auto usage = [&] {
        std::cerr << "usage: " << argv[0]
                  << " [--scramble \"MOVES\"] [--state \"NUMBERS\"] [--random N --seed S] [--stdin]"
                     " [--json] [--machine] [--max-length N] [--budget-ms N] [--nodes N] [--tables] [--calibrate]"
                     " [--table-dir DIR] [--threads N] [--memory SIZE] [--verify-tables] [--no-cache] [--shared-tables]\n";
        return 2;
    };
    auto fail = [&](const std::string& msg) {
        std::cerr << argv[0] << ": error: " << msg << "\n";
        return 1;
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
        } else if (a == "--calibrate") {
            calibrate = true;
        } else if (a == "--verify-tables") {
            verifyTables = true;
        } else if (a == "--no-cache") {
            noCache = true;
        } else if (a == "--shared-tables") {
            sharedTables = true;
        } else if (a == "--memory" && i + 1 < argc) {
            const char* v = argv[++i];
            auto bytes = parseMemorySize(v);
            if (!bytes || *bytes == 0) return fail(std::string("bad --memory '") + v + "': expected a size such as 512M or 2G");
            memoryBytes = *bytes;
        } else if (i + 1 < argc && (a == "--scramble" || a == "--state")) {
            const char* v = argv[++i];
            std::optional<State> s;
            if (a == "--scramble") {
                s = stateFromMoveNames<T>(v, why);
            } else {
                std::vector<long> nums;
                if (parseStateNumbers(v, nums, why)) s = stateFromNumbers<T>(nums, why);
            }
            if (!s) return fail("bad " + a.substr(2) + ": " + why);
            positions.push_back(*s);
        } else if (i + 1 < argc && (a == "--random" || a == "--seed" || a == "--max-length" || a == "--budget-ms" ||
                                    a == "--nodes" || a == "--table-dir" || a == "--threads")) {
            const std::string v = argv[++i];
            if (a == "--table-dir") {
                tableDir = v;
                continue;
            }
            auto n = parseWholeNumber(v, 0, INT64_MAX);
            if (!n) return fail(a + " needs a whole number, not '" + v + "'");
            if (a == "--random") randomCount = *n;
            else if (a == "--seed") seed = static_cast<unsigned long long>(*n);
            else if (a == "--max-length") limits.maxLength = static_cast<int>(std::min<long long>(*n, 1 << 20));
            else if (a == "--budget-ms") limits.budgetMs = static_cast<double>(*n);
            else if (a == "--nodes") limits.nodeBudget = static_cast<uint64_t>(*n);
            else if (a == "--threads") threads = static_cast<int>(std::min<long long>(*n, 1024));
        } else {
            return usage();
        }
    }
    std::mt19937_64 rng(seed);
    for (long long i = 0; i < randomCount; ++i) positions.push_back(randomState<T>(rng));
    if (positions.empty() && !fromStdin && !showTables && !calibrate) return usage();

    // The library's solver (pz/api/phased.hpp): this main parses, prints and
    // batches; tables and searches are the library's, one code path. Tables
    // are copied into memory for a batch only (a one-shot solve reads few
    // pages), and never with --shared-tables.
    api::SolverOptions options;
    options.tableDir = tableDir;
    options.threads = threads;
    options.memoryBytes = memoryBytes;
    options.verifyTables = verifyTables;
    options.cacheTables = !noCache;
    options.sharedTables = sharedTables;
    options.printProgress = true;
    typename api::PhasedSolver<T>::Plan plan{solverName, tablesHash, std::move(phases), std::move(moveFamily),
                                             std::move(directions)};
    api::PhasedSolver<T> solver(options, std::move(plan), {}, positions.size() > 1 || fromStdin);
    if (auto prepared = solver.prepare(); !prepared) {
        const auto& e = prepared.error();
        if (e.code == api::ErrorCode::OutOfMemory) {
            std::cerr << argv[0] << ": error: " << e.message << "; set --memory to what the machine can spare\n";
            return 4;
        }
        fail(e.code == api::ErrorCode::CorruptTables ? e.message : "internal error: " + e.message);
        return e.code == api::ErrorCode::CorruptTables ? 1 : 3;
    }
    PhasedSearch<T>& search = solver.search();
    if (calibrate) {
        // note [move tables or raw states] in pz/search/phased.hpp
        for (size_t k = 0; k < search.phaseCount(); ++k) {
            const auto cost = search.measurePartCosts(k);
            std::printf("phase %zu (to %s): move kernel + state %.2f ns/step\n", k + 1, search.phase(k).target, cost.applyNs);
            for (size_t j = 0; j < cost.parts.size(); ++j)
                std::printf("  part %zu (%llu values): move table %.2f ns/step, rank from the state %.2f ns (+ kernel): %s\n", j,
                            static_cast<unsigned long long>(search.phase(k).parts[j].size), cost.parts[j].tableNs,
                            cost.parts[j].rankNs,
                            cost.parts[j].tableNs <= cost.parts[j].rankNs + cost.applyNs ? "table faster" : "raw state faster");
        }
        if (positions.empty() && !fromStdin && !showTables) return 0;
    }
    if (showTables) {
        std::cout << "solver " << solverName << ": tables " << (search.loadedFromCache() ? "loaded" : "built") << " in "
                  << search.buildSeconds() << " s, " << search.tableBytes() << " bytes\n";
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
            if (search.hasSymTable(k)) {
                std::cout << "  symmetry-reduced table (parts";
                for (int j : spec.reduced) std::cout << ' ' << j;
                std::cout << " by " << spec.symmetries.size() << " symmetries: " << search.symClasses(k)
                          << " classes; x parts";
                for (int j : spec.rest) std::cout << ' ' << j;
                std::cout << "), " << search.symEntries(k) << " entries:";
                const auto counts = search.symDepthCounts(k);
                for (int d = 0; d < 16; ++d)
                    if (counts[d]) std::cout << ' ' << d << ':' << counts[d];
                std::cout << "\n";
                // Small tables: the distribution over every coordinate value (tests compare it with a coset BFS).
                if (search.symRawSize(k) <= (uint64_t{1} << 24)) {
                    const auto raw = search.symRawDepthCounts(k);
                    std::cout << "  symmetry-reduced table, every coordinate value:";
                    for (int d = 0; d < 16; ++d)
                        if (raw[d]) std::cout << ' ' << d << ':' << raw[d];
                    std::cout << "\n";
                }
            }
        }
        std::cout.flush();
    }
    int status = 0;
    long long index = 0;
    // Solves one position and prints its result line; false on an internal error.
    api::Limits solveLimits;
    solveLimits.maxLength = limits.maxLength;  // -1 in both: the first solution
    solveLimits.maxNodes = limits.nodeBudget;
    solveLimits.maxSeconds = limits.budgetMs / 1000;
    auto solveOne = [&](const State& start) {
        const long long at = index++;
        api::SolveStats stats;
        auto solved = solver.solveState(start, solveLimits, &stats);
        if (!solved && solved.error().code == api::ErrorCode::BadInput) {  // note [abelian invariants]
            const std::string& msg = solved.error().message;
            if (machine)
                std::cout << json::Line().field("type", "error").field("index", at).field("message", msg).str() << "\n";
            else
                std::cerr << argv[0] << ": error: " << msg << "\n";
            status = 1;
            return true;
        }
        if (!solved && solved.error().code == api::ErrorCode::NoSolution) {
            const int limit = PhasedSearch<T>::kMaxDepth;
            if (machine)
                std::cout << json::Line()
                                 .field("type", "no-solution")
                                 .field("index", at)
                                 .field("depth-limit", limit)
                                 .field("nodes", stats.nodes)
                                 .field("seconds", stats.seconds)
                                 .str()
                          << "\n";
            else
                std::cerr << argv[0] << ": error: " << solved.error().message << "\n";
            status = 1;
            return true;
        }
        if (!solved) {  // the solution did not replay (Internal): never printed
            std::cerr << argv[0] << ": " << solved.error().message << " (a position outside the puzzle's group can do "
                                                                       "this: pzc solve checks membership)\n";
            return false;
        }
        const api::Solution& r = *solved;
        const std::string text = r.text();
        std::string phasesText;
        for (size_t i = 0; i < r.phases.size(); ++i) phasesText += (i ? ", " : "") + std::to_string(r.phases[i]);
        if (machine) {
            std::cout << json::Line()
                             .field("type", "solution")
                             .field("index", at)
                             .field("moves", r.moves)
                             .field("nodes", r.nodes)
                             .field("seconds", r.seconds)
                             .field("phases", r.phases)
                             .str()
                      << "\n";
        } else if (json) {
            std::cout << json::Line()
                             .field("solution", text)
                             .field("length", r.moves.size())
                             .field("optimal", false)
                             .field("solver", solverName)
                             .field("phases", r.phases)
                             .field("nodes", r.nodes)
                             .field("seconds", r.seconds)
                             .str()
                      << "\n";
        } else {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%.6f", r.seconds);
            std::cout << (text.empty() ? "(solved)" : text) << "\n  " << r.moves.size() << " moves (" << solverName
                      << ", phases " << phasesText << "; not proven optimal), " << r.nodes << " nodes, " << secs << " s\n";
        }
        return true;  // flushed by feedPositions
    };
    return feedPositions<T>(positions, fromStdin, machine, argv[0], index, status, solveOne);
}

// Exit codes: 0 every position solved, 1 a position rejected or unsolved,
// 2 usage, 3 internal error, 4 out of memory.
template <class T>
int phasedMain(int argc, char** argv, const char* solverName, const char* tablesHash, std::vector<PhaseSpec> phases,
               std::vector<int> moveFamily, std::vector<PhaseDirection> directions) {
    try {
        return phasedMainImpl<T>(argc, argv, solverName, tablesHash, std::move(phases), std::move(moveFamily),
                                 std::move(directions));
    } catch (const std::bad_alloc&) {
        std::cerr << argv[0] << ": error: out of memory\n";
        return 4;
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": internal error: " << e.what() << "\n";
        return 3;
    }
}

}  // namespace pz
