// pzc solve FILE (--scramble "MOVES" | --state "NUMBERS")... [--json] [--threads N]
// pzc solve FILE --random N [--seed S] [--json] [--threads N]
// pzc solve FILE --scrambles FILE|- [--threads N]      (a batch; JSON lines)
//   every form also takes [--memory SIZE] [--verify-tables]
// Builds (or reuses) the generated solver for FILE, solves each position
// optimally, replays every solution through the IR element algebra and
// prints it in the puzzle's move names. Grid-actor puzzles are handed to
// solveGridPuzzle.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <random>
#include <set>
#include <unistd.h>

#include "compiler/analysis/coset_coordinates.hpp"
#include "compiler/analysis/distinct_states.hpp"
#include "compiler/analysis/puzzle_analysis.hpp"
#include "compiler/codegen/phase_plan_emit.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/driver/grid_commands.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/tws_support.hpp"
#include "compiler/driver/perm_build.hpp"
#include "compiler/driver/result_protocol.hpp"
#include "compiler/driver/subprocess.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"
#include "pz/memory.hpp"
#include "pz/result_json.hpp"

namespace pz::driver {

namespace {

// The most positions one run draws (--random) or reads (--scrambles).
constexpr unsigned long long kMaxRandom = 1000000;

const char* kUsage =
    "usage: pzc solve FILE (--scramble \"MOVES\" | --state \"NUMBERS\")... [--json] [--threads N]\n"
    "       pzc solve FILE --random N [--seed S] [--json] [--threads N]      (N from 1 to 1000000)\n"
    "       pzc solve FILE --scrambles FILE|- [--threads N]   (one scramble or state a line; JSON lines)\n"
    "       pzc solve FILE.tws --tws-scrambles SCRAMBLES.scr...  (a ksolve/twsearch scramble file)\n"
    "  --memory SIZE: budget for pruning tables (512M, 2G, ...; default a quarter of physical memory)\n"
    "  --verify-tables: check cached pruning tables in full, not only their header and a sample\n"
    "  --solver NAME: a declared solver; a phased one stops at its first solution, or improves\n"
    "    it until --max-length N moves or for --budget-ms N (never labelled optimal)\n"
    "  a state is the element's numbers: each orbit's permutation (perm[p] = solved\n"
    "  position of the piece at p), then each oriented orbit's orientations; an orbit\n"
    "  with identical pieces may give each position's label instead (0, 1, ... in\n"
    "  order of first appearance in its solved labels)\n";

std::vector<long> elementNumbers(const ir::Puzzle& p, const ir::Element& e) {
    std::vector<long> v;
    for (size_t o = 0; o < p.orbits.size(); ++o) v.insert(v.end(), e.perm[o].begin(), e.perm[o].end());
    for (size_t o = 0; o < p.orbits.size(); ++o)
        if (p.orbits[o].orient > 1) v.insert(v.end(), e.ori[o].begin(), e.ori[o].end());
    return v;
}

bool identicalPieces(const ir::Orbit& orbit) {
    return std::set<int>(orbit.solvedLabel.begin(), orbit.solvedLabel.end()).size() != orbit.solvedLabel.size();
}

// An orbit with identical pieces may be given by labels (numbered from 0 by
// first appearance in `solved`) instead of a permutation: the numbers at
// v[at..] are then not a permutation, and each label occurs as often as in
// the solved state. The lift gives each label's pieces in increasing order
// (any lift shows the same state). nullopt: not labels of this orbit.
std::optional<std::vector<int>> liftLabels(const ir::Orbit& orbit, const std::vector<long>& v, size_t at) {
    std::vector<std::vector<int>> pieces;  // label -> pieces solved with it, decreasing
    for (int q = orbit.size - 1; q >= 0; --q) {
        if ((int)pieces.size() <= orbit.solvedLabel[q]) pieces.resize(orbit.solvedLabel[q] + 1);
        pieces[orbit.solvedLabel[q]].push_back(q);
    }
    if (!identicalPieces(orbit)) return std::nullopt;
    std::vector<int> perm(orbit.size);
    std::vector<bool> seen(orbit.size, false);
    bool permutation = true;
    for (int q = 0; q < orbit.size; ++q) {
        long x = v[at + q];
        if (x < 0 || x >= orbit.size || seen[x]) permutation = false;
        else seen[x] = true;
    }
    if (permutation) return std::nullopt;
    for (int q = 0; q < orbit.size; ++q) {
        long x = v[at + q];
        if (x < 0 || x >= (long)pieces.size() || pieces[x].empty()) return std::nullopt;
        perm[q] = pieces[x].back();
        pieces[x].pop_back();
    }
    return perm;
}

// The inverse of elementNumbers, validated; error text in `why`.
std::optional<ir::Element> elementFromNumbers(const ir::Puzzle& p, const std::vector<long>& v, std::string& why) {
    ir::Element e = ir::identity(p.orbits);
    size_t want = 0;
    for (const auto& o : p.orbits) want += o.size * (o.orient > 1 ? 2 : 1);
    if (v.size() != want) {
        why = "a state of " + p.name + " has " + std::to_string(want) + " numbers, got " + std::to_string(v.size());
        return std::nullopt;
    }
    size_t i = 0;
    for (size_t o = 0; o < p.orbits.size(); ++o) {
        if (auto lift = liftLabels(p.orbits[o], v, i)) {  // identical pieces given by their labels
            e.perm[o] = *lift;
            i += p.orbits[o].size;
            continue;
        }
        std::vector<bool> seen(p.orbits[o].size, false);
        for (int q = 0; q < p.orbits[o].size; ++q, ++i) {
            if (v[i] < 0 || v[i] >= p.orbits[o].size || seen[v[i]]) {
                why = "orbit " + p.orbits[o].name + " is not a permutation" +
                      std::string(identicalPieces(p.orbits[o]) ? " nor a rearrangement of its solved labels" : "") +
                      " (number " + std::to_string(i + 1) + " is " +
                      std::to_string(v[i]) + ")";
                return std::nullopt;
            }
            seen[v[i]] = true;
            e.perm[o][q] = static_cast<int>(v[i]);
        }
    }
    for (size_t o = 0; o < p.orbits.size(); ++o) {
        if (p.orbits[o].orient <= 1) continue;
        for (int q = 0; q < p.orbits[o].size; ++q, ++i) {
            if (v[i] < 0 || v[i] >= p.orbits[o].orient) {
                why = "orientation number " + std::to_string(i + 1) + " is out of range";
                return std::nullopt;
            }
            e.ori[o][q] = static_cast<int>(v[i]);
        }
    }
    return e;
}

// note [random positions]
// pzc draws random positions itself, so every solution is replayed against
// a state pzc chose: PuzzleAnalysis::randomElement, a uniform element of the
// group (one uniform coset representative per level of the stabiliser chain),
// and so uniform over distinct states when pieces are identical.
std::vector<ir::Element> randomPositions(analysis::PuzzleAnalysis& groups, long long count, unsigned long long seed) {
    std::mt19937_64 rng(seed);
    std::vector<ir::Element> out;
    for (long long i = 0; i < count; ++i) out.push_back(groups.randomElement(rng));
    return out;
}

// The phased solver's translation unit, compiled (or reused from the cache).
std::optional<std::string> compilePhasedSolver(const codegen::SolverModel& model, const analysis::SolverPlan& plan,
                                               const std::string& source) {
    DiagnosticEngine diags;
    NativeBuild build;
    build.source = codegen::emitPhasedSolverMain(model, plan, source);
    build.stem = model.identifier + "_" + plan.solver;
    auto bin = buildNative(build, diags);
    diags.print(std::cerr);
    return bin;
}

// The "phases" field of a phased solver's result line (lengths per phase).
std::vector<int> phaseLengths(const std::string& line) {
    std::string why;
    std::vector<int> out;
    auto v = parseJson(line, why);
    if (!v) return out;
    if (const JsonValue* p = v->get("phases"); p && p->kind == JsonValue::Kind::Array)
        for (const auto& item : p->items)
            if (auto n = item.integer()) out.push_back(static_cast<int>(*n));
    return out;
}

std::string numbersText(const std::vector<long>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::to_string(v[i]);
    return s;
}

// The element of one scramble, or nullopt with the reason in `why`.
std::optional<ir::Element> scrambleElement(const ir::Puzzle& puzzle, const std::string& text, std::string& why) {
    DiagnosticEngine diags;
    auto e = ir::evaluateText(puzzle, text, "<scramble>", diags);
    if (!e) {
        std::ostringstream out;
        diags.print(out);
        why = out.str();
        while (!why.empty() && why.back() == '\n') why.pop_back();
        return std::nullopt;
    }
    if (e->mirror) {
        why = "the scramble evaluates to a mirror symmetry, not a state";
        return std::nullopt;
    }
    return e;
}

// The element of one state (the element's numbers), checked against the group.
std::optional<ir::Element> stateElement(const ir::Puzzle& puzzle, analysis::ColouringMembership& groups,
                                        const std::string& text, std::string& why) {
    std::istringstream in(text);
    std::vector<long> nums;
    for (std::string tok; in >> tok;) {
        auto v = parseWholeNumber(tok, 0, 1u << 30);
        if (!v) {
            why = "bad state: '" + tok + "' is not a number";
            return std::nullopt;
        }
        nums.push_back(static_cast<long>(*v));
    }
    auto e = elementFromNumbers(puzzle, nums, why);
    if (!e) {
        why = "bad state: " + why;
        return std::nullopt;
    }
    // With identical pieces: whether any lift is in the group (note [distinct states]).
    auto reachable = groups.reachable(*e, why);
    if (!reachable) {
        why = "bad state: " + why;
        return std::nullopt;
    }
    if (!*reachable) {
        why = "bad state: it cannot be reached by the moves of " + puzzle.name;
        return std::nullopt;
    }
    return e;
}

// A batch line is a state when it holds only numbers, else a scramble.
bool looksLikeState(const std::string& line) {
    return line.find_first_of("0123456789") != std::string::npos &&
           line.find_first_not_of("0123456789 \t\r") == std::string::npos;
}

}  // namespace

int runSolve(const Args& args) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? std::cerr : std::cout) << kUsage;
        return args.empty() ? 2 : 0;
    }
    const std::string file = args[0];
    ir::Puzzle puzzle;
    codegen::SolverModel model;
    bool isGrid = false;
    if (!loadSolverModel(file, puzzle, model, isGrid)) return 1;
    if (isGrid) return solveGridPuzzle(puzzle, args);

    std::vector<std::string> scrambles, states, positional, twsScrambles;
    std::string batchFile, memoryText, memory;
    unsigned long long randomCount = 0, seed = 1, threads = 0;
    bool json = false, verifyTables = false;
    std::string solverName;
    unsigned long long maxLength = 0, budgetMs = 0;
    OptionParser options("solve", kUsage);
    options.positionals(positional, 1, 1, "FILE")
        .values("--scramble", scrambles)
        .values("--state", states)
        .values("--tws-scrambles", twsScrambles)
        .value("--scrambles", batchFile)
        .number("--random", randomCount, 1, kMaxRandom)
        .number("--seed", seed, 0, UINT64_MAX)
        .number("--threads", threads, 0, 1024)
        .flag("--json", json)
        .value("--memory", memoryText)
        .flag("--verify-tables", verifyTables)
        .value("--solver", solverName)
        .number("--max-length", maxLength, 0, 1000)
        .number("--budget-ms", budgetMs, 0, 86400000ULL)
        .exclusive({"--scramble", "--random", "--scrambles"})
        .exclusive({"--tws-scrambles", "--random", "--scrambles"})
        .exclusive({"--state", "--random", "--scrambles"});
    if (auto rc = options.parse(args)) return *rc;
    if (options.given("--seed") && !options.given("--random")) return options.fail("--seed needs --random");
    if (scrambles.empty() && states.empty() && twsScrambles.empty() && !randomCount && batchFile.empty())
        return options.fail("give --scramble, --state, --random, --scrambles or --tws-scrambles");
    if (options.given("--memory")) {
        auto bytes = pz::parseMemorySize(memoryText);
        if (!bytes || *bytes == 0)
            return options.fail("bad --memory '" + memoryText + "': expected a size such as 512M or 2G");
        memory = std::to_string(*bytes);
    }

    // Positions: scrambles through the IR evaluator, states checked against the group.
    analysis::PuzzleAnalysis groups(puzzle);
    analysis::ColouringMembership reach(groups);
    std::vector<ir::Element> positions;
    for (const auto& s : scrambles) {
        std::string why;
        auto e = scrambleElement(puzzle, s, why);
        if (!e) {
            std::cerr << (why.find("error:") != std::string::npos ? "" : "pzc solve: error: ") << why << "\n";
            return 1;
        }
        positions.push_back(*e);
    }
    for (const auto& s : states) {
        std::string why;
        auto e = stateElement(puzzle, reach, s, why);
        if (!e) {
            std::cerr << "pzc solve: error: " << why << "\n";
            return 1;
        }
        positions.push_back(*e);
    }
    for (const auto& f : twsScrambles) {
        DiagnosticEngine diags;
        if (!loadTwsScrambleFile(puzzle, groups, f, positions, diags)) {
            diags.print(std::cerr);
            return 1;
        }
    }

    // A batch (--scrambles FILE|-): one scramble or state a line, blank lines
    // and '#' comments skipped; a bad line is reported with its number and
    // the others are solved, all by one solver process (one table load).
    const bool batch = !batchFile.empty();
    std::vector<long> positionLine;                       // batch: the line of each position
    std::vector<std::pair<long, std::string>> lineErrors;  // batch: bad lines, in order
    if (batch) {
        std::ifstream fileIn;
        std::istream* in = &std::cin;
        if (batchFile != "-") {
            fileIn.open(batchFile);
            if (!fileIn) {
                std::cerr << "pzc solve: error: cannot read " << batchFile << "\n";
                return 1;
            }
            in = &fileIn;
        }
        const std::string name = batchFile == "-" ? "<stdin>" : batchFile;
        long number = 0;
        for (std::string line; std::getline(*in, line);) {
            ++number;
            if (number > static_cast<long>(kMaxRandom)) {
                std::cerr << "pzc solve: error: " << name << ": more than " << kMaxRandom << " lines\n";
                return 1;
            }
            size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#') continue;
            std::string why;
            auto e = looksLikeState(line) ? stateElement(puzzle, reach, line, why) : scrambleElement(puzzle, line, why);
            if (!e) {
                // One line per error: the evaluator's caret display is for a terminal.
                size_t at = why.find("error: ");
                std::string message = at == std::string::npos ? why : why.substr(at + 7);
                message = message.substr(0, message.find('\n'));
                lineErrors.push_back({number, message});
                continue;
            }
            positions.push_back(*e);
            positionLine.push_back(number);
        }
    }

    const bool randomRun = randomCount > 0;
    if (randomRun) positions = randomPositions(groups, static_cast<long long>(randomCount), seed);

    // A batch's bad lines, printed in line order among the results: one JSON
    // object on stdout (so every line has one) and the message on stderr.
    const std::string batchName = batchFile == "-" ? "<stdin>" : batchFile;
    size_t nextError = 0;
    auto flushLineErrors = [&](long beforeLine) {
        for (; nextError < lineErrors.size() && lineErrors[nextError].first < beforeLine; ++nextError) {
            const auto& [line, message] = lineErrors[nextError];
            std::cerr << "pzc solve: error: " << batchName << ":" << line << ": " << message << "\n";
            std::cout << pz::json::Line().field("line", line).field("error", message).str() << "\n";
        }
        std::cout.flush();
    };
    if (positions.empty()) {  // a batch of bad lines only, or an empty one
        flushLineErrors(LONG_MAX);
        return lineErrors.empty() ? 0 : 1;
    }

    // Build or reuse the generated solver.
    // The declared solver to run: the default build, or a phased plan.
    std::optional<analysis::SolverPlan> plan;
    if (!solverName.empty()) {
        int index = -1;
        std::string names;
        for (size_t i = 0; i < puzzle.solvers.size(); ++i) {
            names += (i ? ", " : "") + puzzle.solvers[i].name;
            if (puzzle.solvers[i].name == solverName) index = static_cast<int>(i);
        }
        if (index < 0) {
            std::cerr << "pzc solve: error: " << puzzle.name << " declares no solver '" << solverName << "' (declared: "
                      << (names.empty() ? "none" : names) << ")\n";
            return 2;
        }
        if (puzzle.solvers[index].kind == ir::Solver::Kind::Phased) {
            analysis::SolverPlan built;
            DiagnosticEngine planDiags;
            if (!analysis::buildSolverPlan(groups, index, model.canon.searchMoves, built, planDiags)) {
                planDiags.print(std::cerr);
                return 1;
            }
            plan = std::move(built);
        } else {
            int firstOptimal = -1;
            for (size_t i = 0; i < puzzle.solvers.size() && firstOptimal < 0; ++i)
                if (puzzle.solvers[i].kind == ir::Solver::Kind::Optimal) firstOptimal = static_cast<int>(i);
            if (index != firstOptimal) {
                std::cerr << "pzc solve: error: only the first optimal solver of " << puzzle.name
                          << " is built; '" << solverName << "' is another one\n";
                return 2;
            }
        }
    }
    if (!plan && (options.given("--max-length") || options.given("--budget-ms")))
        return options.fail("--max-length and --budget-ms need a phased solver (--solver NAME)");
    auto bin = plan ? compilePhasedSolver(model, *plan, file) : compileSolver(model, file);
    if (!bin) return 1;

    // Run it without a shell: positions on its stdin (a pipe), one JSON
    // result line per position on its stdout (note [result protocol]).
    ChildRun run;
    run.argv = {*bin, "--machine", "--stdin"};
    if (threads) run.argv.insert(run.argv.end(), {"--threads", std::to_string(threads)});
    if (!memory.empty()) run.argv.insert(run.argv.end(), {"--memory", memory});
    if (verifyTables) run.argv.push_back("--verify-tables");
    if (options.given("--max-length")) run.argv.insert(run.argv.end(), {"--max-length", std::to_string(maxLength)});
    if (options.given("--budget-ms")) run.argv.insert(run.argv.end(), {"--budget-ms", std::to_string(budgetMs)});
    for (const auto& e : positions) {
        for (long n : elementNumbers(puzzle, codegen::labelledView(puzzle, e, model.layout))) run.input += std::to_string(n) + ' ';
        run.input += '\n';
    }
    int status = 0;
    size_t results = 0;
    auto internalError = [&](const std::string& why) {
        if (status != 3) std::cerr << "pzc solve: internal error: " << why << "\n";
        status = 3;
    };
    run.onLine = [&](const std::string& line) {
        if (status == 3) return;
        std::string why;
        auto r = parsePositionResult(line, why);
        if (!r) return internalError("the solver printed an unreadable result (" + why + "): " + line.substr(0, 200));
        // Replay against the position pzc asked about, never one echoed back.
        if (r->index != static_cast<int64_t>(results) || results >= positions.size())
            return internalError("the solver answered out of order (result " + std::to_string(r->index) + ")");
        ++results;
        if (r->kind == PositionResult::Kind::Error) return internalError("the solver rejected a position: " + r->message);
        if (batch) flushLineErrors(positionLine[r->index]);
        if (r->kind == PositionResult::Kind::NoSolution) {
            std::string message = r->unreachable ? "the position is not reachable by the puzzle's moves"
                                                 : "no solution within the search's depth limit of " +
                                                       std::to_string(r->depthLimit) +
                                                       " moves (the position is reachable; the search gave up)";
            if (batch) {
                lineErrors.insert(lineErrors.begin() + nextError, {positionLine[r->index], message});
                flushLineErrors(positionLine[r->index] + 1);
            } else {
                std::cerr << "pzc solve: error: " << message << "\n";
            }
            status = std::max(status, 1);
            return;
        }
        std::string text;
        const ir::Element& start = positions[r->index];
        ir::Element replay = start;
        for (size_t i = 0; i < r->moves.size(); ++i) {
            if (r->moves[i] >= static_cast<int>(model.canon.searchMoves.size()))
                return internalError("the solver printed move number " + std::to_string(r->moves[i]) +
                                     ", which does not exist");
            const auto& mv = puzzle.moves[model.canon.searchMoves[r->moves[i]]];
            replay = ir::compose(replay, mv.effect, puzzle.orbits);
            text += (i ? " " : "") + mv.name;
        }
        if (!analysis::isSolvedColouring(puzzle, replay))  // the identity, or with identical pieces the colouring
            return internalError("the solution does not solve the position");
        if (plan) {
            // A phased solver: the lengths per phase; never labelled optimal.
            const std::vector<int> phases = phaseLengths(line);
            std::string lengths;
            for (size_t i = 0; i < phases.size(); ++i) lengths += (i ? ", " : "") + std::to_string(phases[i]);
            if (json || batch) {
                pz::json::Line out;
                if (batch) out.field("line", positionLine[r->index]);
                out.field("solution", text).field("length", r->moves.size()).field("optimal", false);
                out.field("solver", plan->solver).field("phases", phases);
                out.field("nodes", r->nodes).field("seconds", r->seconds);
                if (batch) out.field("line", positionLine[r->index]);
                if (randomRun) out.field("state", numbersText(elementNumbers(puzzle, codegen::labelledView(puzzle, start, model.layout))));
                std::cout << out.str() << "\n";
            } else {
                char secs[32];
                std::snprintf(secs, sizeof secs, "%.6f", r->seconds);
                std::cout << (text.empty() ? "(already solved)" : text) << "\n  " << r->moves.size() << " moves ("
                          << plan->solver << ", phases " << lengths << "; not proven optimal), " << r->nodes
                          << " nodes, " << secs << " s\n";
            }
        } else if (json || batch) {
            pz::json::Line out;
            if (batch) out.field("line", positionLine[r->index]);
            out.field("solution", text).field("length", r->moves.size()).field("optimal", true);
            out.field("nodes", r->nodes).field("seconds", r->seconds);
            if (randomRun) out.field("state", numbersText(elementNumbers(puzzle, codegen::labelledView(puzzle, start, model.layout))));
            std::cout << out.str() << "\n";
        } else {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%.6f", r->seconds);
            std::cout << (text.empty() ? "(already solved)" : text) << "\n  " << r->moves.size()
                      << " moves (optimal), " << r->nodes << " nodes, " << secs << " s\n";
        }
        std::cout.flush();
    };
    ChildStatus child = runChildOrDie(run);
    if (!child.started) {
        std::cerr << "pzc solve: internal error: cannot run the solver " << *bin << ": " << child.startError << "\n";
        return 3;
    }
    if (status == 3) return 3;
    if (!child.exited() || (child.exitCode() != 0 && child.exitCode() != 1)) {
        std::cerr << "pzc solve: " << (child.exited() && child.exitCode() == 4 ? "error" : "internal error")
                  << ": the solver " << *bin << " " << describeSolverStatus(child) << "\n";
        return child.exited() && child.exitCode() == 4 ? 1 : 3;
    }
    if (results != positions.size()) {
        std::cerr << "pzc solve: internal error: the solver answered " << results << " of " << positions.size()
                  << " positions\n";
        return 3;
    }
    if (batch) flushLineErrors(LONG_MAX);
    return lineErrors.empty() ? status : std::max(status, 1);
}

}  // namespace pz::driver
