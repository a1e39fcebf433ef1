// pz/solver_main.hpp — the command line of a generated solver binary.
//
//   solver [--scramble "MOVES"] [--state "NUMBERS"] [--random N --seed S]
//          [--stdin] [--json] [--machine] [--table-dir DIR] [--threads N]
//          [--memory SIZE] [--verify-tables] [--progress] [--max-length N]
//          [--resident | --shared-tables]
//
// --threads N: threads for table builds and for each search (note [parallel
// IDA*] in pz/search/search.hpp); 0 or absent = every online CPU (search: at most 64).
// The environment variable PZ_PARALLEL_FROM_NODES=N (a whole number) splits
// a search over the threads once an iteration has generated N nodes (default
// 65536; 0 = from the first iteration, which tests use).
// --memory: the budget for pruning tables (512M, 2G, ...; default a quarter of the
// physical memory); tables that do not fit are refused before allocation.
// --verify-tables: check every block of every cached table on load (note
// [table integrity] in pz/tables/prune.hpp), not just the header and a sample.
// --progress: a line on stderr after every iteration of a search (its depth,
// nodes, time and rate), for searches that take long.
// --max-length N: search solutions of at most N moves only (default
// kSolverDepthLimit); a position with none is reported as no solution within
// that depth limit, which the search has then proved (pzc's --known-solution
// asks for one move fewer than a known solution to prove it optimal).
// --resident: copy the tables into huge pages before the first position
// (as several positions on the command line do; note [table residency] in
// pz/tables/prune.hpp). --shared-tables: keep them mapped for good, shared
// with the machine's other solvers in 2 MiB pages of the page cache where
// the kernel can (note [huge page cache] in pz/tables/mapped_file.hpp);
// pzc gives it the solvers of an MPI batch.
//
// A state is written as the IR element's numbers: for each orbit its
// permutation (perm[p] = solved position of the piece now at p; for an orbit
// with identical pieces the label at p, as the state holds it: note
// [labelled lanes]), then for each oriented orbit its orientations. Positions come one per line with
// --stdin. Every solution is replayed through the generated kernels before
// it is printed; pzc additionally replays it through the IR element algebra.
//
// Output per position: a readable line; --json: {"solution": ..., "length":
// ..., "optimal": true, "nodes": ..., "seconds": ..., "cpu-seconds": ...}
// (seconds: wall time of the search; cpu-seconds: CPU time of every thread); --machine (used by
// pzc): JSON lines, see note [result protocol] in pz/support/result_json.hpp. With
// --stdin each line is solved as it is read (one table load for a batch).
#pragma once

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <optional>
#include <stdexcept>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pz/api/optimal.hpp"
#include "pz/lanes.hpp"
#include "pz/search/search.hpp"
#include "pz/state.hpp"
#include "pz/state_text.hpp"
#include "pz/support/result_json.hpp"

namespace pz {

// Solves the command line's positions, then (--stdin) one state a line as it
// arrives (pzc streams batches here). A bad line ends the run, or with
// --machine is an error result and the run goes on. solveOne(state) prints a
// result and returns false on an internal error (it may set `status`, shared
// with the caller); `index` numbers the results.
// Returns the exit status (see solverMain).
//
// Results are flushed when no more input waits on stdin or 5 ms after the
// last flush, not one by one: a reader gets each as soon as the solver
// would wait for more, a slow position's at once, and a batch of fast ones
// (the 2x2x2's 40 us) costs a write per 5 ms, not one per position.
template <class T, class SolveOne>
int feedPositions(const std::vector<typename T::State>& positions, bool fromStdin, bool machine, const char* program,
                  long long& index, int& status, SolveOne&& solveOne) {
    // note [no wait at exit] (pzc's compiler/driver/subprocess.hpp): once
    // every answer is out, --machine closes stdout, so pzc reads the end of
    // them now, not after the tables are unmapped.
    struct CloseOutput {
        bool machine;
        ~CloseOutput() {
            if (!machine) return;
            std::cout.flush();
            ::close(STDOUT_FILENO);
        }
    } closeOutput{machine};
    for (const auto& start : positions) {
        if (!solveOne(start)) return 3;
        std::cout.flush();
    }
    if (!fromStdin) return status;
    // std::cin flushes std::cout before every read (its tie): untied, the
    // flushes are these. Lines stdio has read ahead are not seen here: then
    // it flushes anyway.
    std::cin.tie(nullptr);
    auto lastFlush = std::chrono::steady_clock::now();
    auto flushUnlessInputWaits = [&lastFlush] {
        pollfd in{STDIN_FILENO, POLLIN, 0};
        const auto now = std::chrono::steady_clock::now();
        if (::poll(&in, 1, 0) > 0 && now - lastFlush < std::chrono::milliseconds(5)) return;
        std::cout.flush();
        lastFlush = now;
    };
    std::string line;
    for (;; flushUnlessInputWaits()) {
        if (!std::getline(std::cin, line)) break;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::vector<long> nums;
        std::string why;
        std::optional<typename T::State> s;
        if (parseStateNumbers(line, nums, why)) s = stateFromNumbers<T>(nums, why);
        if (!s) {
            if (!machine) {
                std::cerr << program << ": error: bad state: " << why << "\n";
                return 1;
            }
            std::cout << json::Line().field("type", "error").field("index", index++).field("message", "bad state: " + why).str()
                      << "\n";
            status = 1;
            continue;
        }
        if (!solveOne(*s)) return 3;
    }
    return status;
}

inline constexpr int kSolverDepthLimit = 40;

template <class T>
int solverMainImpl(int argc, char** argv) {
    using State = typename T::State;
    std::vector<State> positions;
    bool json = false, machine = false, fromStdin = false, showTables = false, progress = false;
    // Tables copied into huge pages at once (note [table residency] in
    // pz/tables/prune.hpp): with several positions, or --resident (a batch on stdin).
    bool resident = false;
    // Tables kept mapped, shared with the machine's other solvers, in 2 MiB
    // pages where the kernel can (note [huge page cache]): an MPI batch's.
    bool sharedTables = false;
    long long randomCount = 0;
    unsigned long long seed = 1;
    int threads = 0;
    int depthLimit = kSolverDepthLimit;
    uint64_t memoryBytes = 0;  // 0: the default budget
    bool verifyTables = false;
    std::string tableDir = cacheDirectory() + "/tables";
    auto usage = [&] {
        std::cerr << "usage: " << argv[0]
                  << " [--scramble \"MOVES\"] [--state \"NUMBERS\"] [--random N --seed S] [--stdin]"
                     " [--json] [--machine] [--table-dir DIR] [--threads N] [--memory SIZE] [--verify-tables]"
                     " [--progress] [--tables] [--resident | --shared-tables] [--max-length N]\n";
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
        } else if (a == "--tables") {
            showTables = true;
        } else if (a == "--progress") {
            progress = true;
        } else if (a == "--resident") {
            resident = true;
        } else if (a == "--shared-tables") {
            sharedTables = true;
        } else if (a == "--verify-tables") {
            verifyTables = true;
        } else if (a == "--scramble" || a == "--state" || a == "--random" || a == "--seed" ||
                   a == "--table-dir" || a == "--threads" || a == "--memory" || a == "--max-length") {
            const char* v = value();
            if (!v) return usage();
            if (a == "--scramble") {
                auto s = stateFromMoveNames<T>(v, why);
                if (!s) return fail("bad scramble: " + why);
                positions.push_back(*s);
            } else if (a == "--state") {
                std::vector<long> nums;
                if (!parseStateNumbers(v, nums, why)) return fail("bad state: " + why);
                auto s = stateFromNumbers<T>(nums, why);
                if (!s) return fail("bad state: " + why);
                positions.push_back(*s);
            } else if (a == "--random") {
                auto n = parseWholeNumber(v, 1, 1000000000);
                if (!n) return fail("--random needs a whole number from 1 to 1000000000, not '" + std::string(v) + "'");
                randomCount = *n;
            } else if (a == "--seed") {
                auto n = parseWholeNumber(v, 0, INT64_MAX);
                if (!n) return fail("--seed needs a whole number, not '" + std::string(v) + "'");
                seed = static_cast<unsigned long long>(*n);
            } else if (a == "--table-dir") {
                tableDir = v;
            } else if (a == "--memory") {
                auto bytes = parseMemorySize(v);
                if (!bytes || *bytes == 0) return fail(std::string("bad --memory '") + v + "': expected a size such as 512M or 2G");
                memoryBytes = *bytes;
            } else if (a == "--max-length") {
                auto n = parseWholeNumber(v, 0, 255);
                if (!n) return fail("--max-length needs a whole number from 0 to 255, not '" + std::string(v) + "'");
                depthLimit = static_cast<int>(*n);
            } else {
                auto n = parseWholeNumber(v, 0, 1024);
                if (!n) return fail("--threads needs a whole number from 0 to 1024, not '" + std::string(v) + "'");
                threads = static_cast<int>(*n);
            }
        } else {
            return usage();
        }
    }
    std::mt19937_64 rng(seed);
    for (long long i = 0; i < randomCount; ++i) positions.push_back(randomState<T>(rng));
    if (positions.empty() && !fromStdin && !showTables) return usage();
    if (resident && sharedTables) return fail("--resident copies the tables and --shared-tables keeps them mapped: give one");

    std::optional<long long> parallelFrom;
    if (const char* v = std::getenv("PZ_PARALLEL_FROM_NODES")) {
        parallelFrom = parseWholeNumber(v, 0, INT64_MAX);
        if (!parallelFrom) return fail("PZ_PARALLEL_FROM_NODES needs a whole number, not '" + std::string(v) + "'");
    }
    // Search switches for tests and measurements, on unless NAME=0:
    // PZ_SWITCH_SIDES (note [switching sides] in pz/search/search.hpp),
    // PZ_SYMMETRIC_STATES (note [symmetric states]), PZ_SIBLING_BATCHES
    // (note [sibling batches]).
    std::string badSwitch;
    auto searchSwitch = [&](const char* name) {
        const char* v = std::getenv(name);
        if (!v || std::string(v) == "1") return true;
        if (std::string(v) != "0" && badSwitch.empty()) badSwitch = std::string(name) + " is 0 or 1, not '" + v + "'";
        return false;
    };
    const bool switchSides = searchSwitch("PZ_SWITCH_SIDES");
    const bool symmetricStates = searchSwitch("PZ_SYMMETRIC_STATES");
    const bool siblingBatches = searchSwitch("PZ_SIBLING_BATCHES");
    if (!badSwitch.empty()) return fail(badSwitch);
    // The library's solver (pz/api/optimal.hpp): this main parses, prints and
    // batches; tables and searches are the library's, one code path.
    api::SolverOptions options;
    options.tableDir = tableDir;
    options.threads = threads;
    options.memoryBytes = memoryBytes;
    options.verifyTables = verifyTables;
    options.sharedTables = sharedTables;
    options.printProgress = true;
    api::OptimalSolver<T> solver(options, {"", "optimal"}, {}, resident || positions.size() > 1);
    if (auto prepared = solver.prepare(); !prepared) {
        // Exit status 4: out of memory (pzc says so in words).
        const auto& e = prepared.error();
        fail(e.code == api::ErrorCode::OutOfMemory || e.code == api::ErrorCode::CorruptTables ? e.message
                                                                                               : "internal error: " + e.message);
        return e.code == api::ErrorCode::OutOfMemory ? 4 : e.code == api::ErrorCode::CorruptTables ? 1 : 3;
    }
    Search<T>& search = solver.search();
    if (showTables) {
        // The entries at each depth reached, then a line with their mean
        // (beside pzc check's counting estimate, note [table estimates]).
        auto print = [](const std::array<uint64_t, 16>& counts) {
            for (int d = 0; d < 16; ++d)
                if (counts[d]) std::cout << ' ' << d << ':' << counts[d];
            std::cout << "\n";
        };
        auto printCounts = [&](const std::array<uint64_t, 16>& counts) {
            print(counts);
            double n = 0, sum = 0;
            for (int d = 0; d < 16; ++d) n += double(counts[d]), sum += double(d) * double(counts[d]);
            char mean[64];
            std::snprintf(mean, sizeof mean, "%.2f", n > 0 ? sum / n : 0.0);
            std::cout << "  mean entry " << mean << "\n";
        };
        // The plain patterns' tables.
        search.forEachTable([&](const auto& t) {
            using P = typename std::decay_t<decltype(t)>::Pattern;
            char built[64];
            std::snprintf(built, sizeof built, "built in %.2f s", t.buildSeconds());
            std::cout << "pattern " << P::kName << " (4-bit entries, " << formatBytes(t.bytes())
                      << "): " << (t.loadedFromCache() ? "loaded from the cache" : built) << "\n  " << t.entries()
                      << " entries:";
            printCounts(t.depthCount());
        });
        // The coset patterns' tables (note [coset patterns]): classes, entries,
        // depths; for small coordinates also every raw value looked up from a state.
        if constexpr (Search<T>::kCoset > 0) {
            for (const auto& c : search.cosetPatterns()) {
                const auto t = c->summary();
                std::cout << "coset pattern " << c->name() << ": table " << (c->loadedFromCache() ? "loaded" : "built")
                          << " in " << c->buildSeconds() << " s, " << t.bytes << " bytes"
                          << (t.bytes >= 1024 ? " (" + formatBytes(t.bytes) + ")" : std::string())
                          << (t.base >= 0 ? " (2-bit entries over base " + std::to_string(t.base) + ")" : std::string()) << "\n";
                std::cout << "  ";
                if (t.classes) std::cout << t.classes << " classes, ";
                std::cout << t.entries << " entries";
                if (t.exactDepth >= 0) std::cout << " (exact up to " << t.exactDepth << ", farther ones read " << t.exactDepth + 1 << ")";
                std::cout << ":";
                printCounts(t.counts);
                if (c->projected() && c->projected()->hasFixedRanks()) {
                    // note [fixed ranks]: the generated ranks are rankPart's on every state.
                    std::mt19937_64 rng(7);
                    std::vector<State> sample;
                    for (int i = 0; i < 10000; ++i) sample.push_back(randomState<T>(rng));
                    if (!c->projected()->fixedRanksAgree(sample)) {
                        std::cerr << argv[0] << ": internal error: coset pattern " << c->name()
                                  << ": the generated ranks differ from the plan's\n";
                        return 3;
                    }
                    std::cout << "  generated ranks: the plan's on 10000 random states\n";
                }
                if (const auto* p = c->projected()) {
                    // note [entries below the base]; a small table's every read, for tests.
                    std::cout << "  entries below " << p->belowBaseThreshold() << " read exactly (a set of "
                              << p->belowBaseSlots() << " slots beside the lines)\n";
                    if (p->entries() <= (uint64_t{1} << 26)) {
                        std::array<uint64_t, 16> reads{};
                        for (uint64_t i = 0; i < p->entries(); ++i) ++reads[std::min(15u, p->get(i))];
                        std::cout << "  every entry read back:";
                        print(reads);
                    }
                }
                if (!c->projected() && c->rawValues() <= (uint64_t{1} << 26)) {
                    std::cout << "  every coordinate value (" << c->rawValues() << ", looked up from states):";
                    print(c->stateDepthCounts());
                }
            }
        }
        if (positions.empty() && !fromStdin) return 0;
    }
    if (parallelFrom) search.parallelFromNodes(static_cast<uint64_t>(*parallelFrom));
    search.switchSides(switchSides);
    search.symmetricStates(symmetricStates);
    search.siblingBatches(siblingBatches);
    if (progress) {
        double last = 0;  // seconds at the previous iteration's end (a new solve starts from 0)
        search.onIteration([&last](int bound, uint64_t nodes, double seconds, bool found) {
            if (seconds < last) last = 0;
            const double took = seconds - last;
            last = seconds;
            char line[160];
            std::snprintf(line, sizeof line, "search: depth %d %s: %llu nodes in %.2f s (%.1f M nodes/s), %.2f s in all\n",
                          bound, found ? "solved" : "searched", static_cast<unsigned long long>(nodes), took,
                          took > 0 ? static_cast<double>(nodes) / took / 1e6 : 0.0, seconds);
            std::cerr << line << std::flush;
        });
    }
    int status = 0;
    long long index = 0;
    // Solves one position and prints its result line; false on an internal error.
    auto solveOne = [&](const State& start) {
        const long long at = index++;
        api::SolveStats stats;
        auto solved = solver.solveState(start, api::Limits{.maxLength = depthLimit}, &stats);
        if (!solved && solved.error().code == api::ErrorCode::NoSolution) {
            if (machine) {
                json::Line line;
                line.field("type", "no-solution").field("index", at);
                if (stats.unreachable) line.field("unreachable", true);
                else line.field("depth-limit", depthLimit);
                std::cout << line.field("nodes", stats.nodes).field("seconds", stats.seconds).str() << "\n";
            } else {
                std::cerr << argv[0] << ": error: " << solved.error().message << "\n";
            }
            status = 1;
            return true;
        }
        if (!solved) {  // the solution did not replay (Internal): never printed
            std::cerr << argv[0] << ": " << solved.error().message << "\n";
            return false;
        }
        const api::Solution& r = *solved;
        const std::string text = r.text();
        if (machine) {
            std::cout << json::Line()
                             .field("type", "solution")
                             .field("index", at)
                             .field("moves", r.moves)
                             .field("nodes", r.nodes)
                             .field("seconds", r.seconds)
                             .str()
                      << "\n";
        } else if (json) {
            std::cout << json::Line()
                             .field("solution", text)
                             .field("length", r.moves.size())
                             .field("optimal", true)
                             .field("nodes", r.nodes)
                             .field("seconds", r.seconds)
                             .field("cpu-seconds", stats.cpuSeconds)
                             .str()
                      << "\n";
        } else {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%.6f", r.seconds);
            std::cout << (text.empty() ? "(solved)" : text) << "\n  " << r.moves.size() << " moves (optimal), "
                      << r.nodes << " nodes, " << secs << " s\n";
        }
        return true;  // flushed by feedPositions
    };
    return feedPositions<T>(positions, fromStdin, machine, argv[0], index, status, solveOne);
}

// Exit codes: 0 every position solved, 1 a position rejected or unsolved,
// 2 usage, 3 internal error, 4 out of memory.
template <class T>
int solverMain(int argc, char** argv) {
    try {
        return solverMainImpl<T>(argc, argv);
    } catch (const TableCorruptError& e) {  // found while making a table resident mid-search
        std::cerr << argv[0] << ": error: " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << argv[0] << ": error: out of memory\n";
        return 4;
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": internal error: " << e.what() << "\n";
        return 3;
    }
}

}  // namespace pz
