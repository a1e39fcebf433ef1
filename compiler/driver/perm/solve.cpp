// pzc solve FILE (--scramble "MOVES" | --state "NUMBERS")... [--json] [--threads N]
// pzc solve FILE --random N [--seed S] [--json] [--threads N]
// pzc solve FILE --scrambles FILE|- [--threads N]      (a batch; JSON lines)
//   every form also takes [--memory SIZE] [--verify-tables]
// pzc solve FILE (--scramble "MOVES" | --state "NUMBERS") --known-solution "MOVES"
// The permutation back end's solve (note [back ends]): builds (or reuses)
// the generated solver for FILE, solves each position optimally (or with a
// declared phased or sift solver), replays every solution through the IR
// element algebra and prints it in the puzzle's move names.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <random>
#include <set>
#include <unistd.h>

#include "compiler/analysis/perm/default_patterns.hpp"
#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/analysis/perm/puzzle_summary.hpp"
#include "compiler/analysis/perm/sift_words.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/driver/mpi_batch.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/perm/tws_support.hpp"
#include "compiler/driver/perm/perm_build.hpp"
#include "compiler/driver/perm/perm_backend.hpp"
#include "compiler/driver/perm/positions.hpp"
#include "compiler/driver/perm/search_gate.hpp"
#include "compiler/driver/result_protocol.hpp"
#include "compiler/driver/solver_index.hpp"
#include "compiler/driver/subprocess.hpp"
#include "compiler/driver/timeline.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"
#include "compiler/pipeline/compilation_unit.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/result_json.hpp"

namespace pz::driver {

namespace {

// The most positions one run draws (--random) or reads (--scrambles).
constexpr unsigned long long kMaxRandom = 1000000;
// The deepest an optimal solver searches (its --max-length; 4-bit pattern
// entries and the path buffers are sized for less).
constexpr unsigned long long kMaxOptimalLength = 255;

const char* kUsage =
    "usage: pzc solve FILE (--scramble \"MOVES\" | --state \"NUMBERS\")... [--json] [--threads N]\n"
    "       pzc solve FILE --random N [--seed S] [--json] [--threads N]      (N from 1 to 1000000)\n"
    "       pzc solve FILE --scrambles FILE|- [--threads N]   (one scramble or state a line; JSON lines)\n"
    "         [--resume OUT]: skip the lines whose results OUT holds (their \"line\"), append the rest to OUT\n"
    "         [--mpi]: under mpirun, ranks other than 0 solve the batch (docs/distributed.md)\n"
    "       pzc solve FILE.tws --tws-scrambles SCRAMBLES.scr...  (a ksolve/twsearch scramble file)\n"
    "  --memory SIZE: budget for pruning tables (512M, 2G, ...; default a quarter of physical memory);\n"
    "    without --solver, runs the declared optimal solver with the largest tables that fit\n"
    "  --verify-tables: check cached pruning tables in full, not only their header and a sample\n"
    "  --progress: the search's estimated work, then a line on stderr after each iteration of\n"
    "    an optimal search (depth, nodes, time)\n"
    "  --known-solution \"MOVES\": a solution of the one position given (searched moves only);\n"
    "    the optimal search looks for a shorter one and, finding none, answers it, proved optimal\n"
    "  --solver NAME: a declared solver; a sift one answers at once (bounded, not optimal); a\n"
    "    phased one stops at its first solution, or improves\n"
    "    it until --max-length N moves or for --budget-ms N (never labelled optimal); an optimal\n"
    "    one looks for solutions of at most --max-length N moves only (none: an error)\n"
    "  --sift: a sift solver for any puzzle, declared or not (e.g. a .tws file)\n"
    "  --force: search random states even when the estimated work is hopeless (see --progress)\n"
    "  a state is the element's numbers: each orbit's permutation (perm[p] = solved\n"
    "  position of the piece at p), then each oriented orbit's orientations; an orbit\n"
    "  with identical pieces may give each position's label instead (0, 1, ... in\n"
    "  order of first appearance in its solved labels)\n";

// note [random positions]
// pzc draws random positions itself, so every solution is replayed against
// a state pzc chose: PuzzleAnalysis::randomElement, a uniform element of the
// group (one uniform coset representative per level of the stabiliser chain),
// and so uniform over distinct states when pieces are identical.
// With illegal placements a uniform element may not be reachable through
// legal states: a random walk of 1000 metric moves that never enters an
// illegal state is drawn instead (reachable by construction; not uniform).
std::vector<ir::Element> randomPositions(analysis::PuzzleAnalysis& groups, const std::vector<int>& metric,
                                         long long count, unsigned long long seed) {
    std::mt19937_64 rng(seed);
    std::vector<ir::Element> out;
    const ir::Puzzle& puzzle = groups.puzzle();
    for (long long i = 0; i < count; ++i) {
        if (puzzle.illegal.empty() || metric.empty()) {
            out.push_back(groups.randomElement(rng));
            continue;
        }
        ir::Element e = ir::identity(puzzle.orbits);
        for (int step = 0, tries = 0; step < 1000 && tries < 100000; ++tries) {
            ir::Element next = ir::compose(e, puzzle.moves[metric[rng() % metric.size()]].effect, puzzle.orbits);
            if (ir::illegalPlacementIn(puzzle, next)) continue;
            e = std::move(next);
            ++step;
        }
        out.push_back(std::move(e));
    }
    return out;
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

// A batch line is a state when it holds only numbers, else a scramble.
bool looksLikeState(const std::string& line) {
    return line.find_first_of("0123456789") != std::string::npos &&
           line.find_first_not_of("0123456789 \t\r") == std::string::npos;
}


// The options of one `pzc solve` of a permutation puzzle.
struct SolveOptions {
    std::string file;
    std::vector<std::string> scrambles, states, twsScrambles;
    std::string batchFile;
    unsigned long long randomCount = 0, seed = 1, threads = 0;
    bool json = false, verifyTables = false, sift = false, progress = false, force = false;
    bool mpi = false;        // --mpi: the batch solved across MPI ranks (mpi_batch.hpp)
    std::string resume;      // --resume OUT
    std::string memory;      // bytes, as the solver's --memory; empty = its default
    std::string solverName;  // --solver
    std::optional<unsigned long long> maxLength, budgetMs;
    // --known-solution: its text, then (checked against the position) its
    // moves as indices of puzzle.moves; the search looks below its length.
    std::string knownText;
    std::optional<std::vector<int>> known;
    bool batch() const { return !batchFile.empty(); }
    std::string batchName() const { return batchFile == "-" ? "<stdin>" : batchFile; }
};

// Parses the options; nullopt to go on, else the exit code.
std::optional<int> readSolveOptions(const Args& args, SolveOptions& o) {
    std::vector<std::string> positional;
    std::string memoryText;
    unsigned long long maxLength = 0, budgetMs = 0;
    OptionParser options("solve", kUsage);
    options.positionals(positional, 1, 1, "FILE")
        .values("--scramble", o.scrambles)
        .values("--state", o.states)
        .values("--tws-scrambles", o.twsScrambles)
        .value("--scrambles", o.batchFile)
        .number("--random", o.randomCount, 1, kMaxRandom)
        .number("--seed", o.seed, 0, UINT64_MAX)
        .number("--threads", o.threads, 0, 1024)
        .flag("--json", o.json)
        .value("--memory", memoryText)
        .flag("--verify-tables", o.verifyTables)
        .flag("--progress", o.progress)
        .value("--solver", o.solverName)
        .flag("--sift", o.sift)
        .flag("--force", o.force)
        .number("--max-length", maxLength, 0, 1000)
        .number("--budget-ms", budgetMs, 0, 86400000ULL)
        .value("--known-solution", o.knownText)
        .flag("--mpi", o.mpi)
        .value("--resume", o.resume)
        .exclusive({"--scramble", "--random", "--scrambles"})
        .exclusive({"--tws-scrambles", "--random", "--scrambles"})
        .exclusive({"--state", "--random", "--scrambles"})
        .exclusive({"--sift", "--solver"})
        .exclusive({"--sift", "--max-length"})
        .exclusive({"--sift", "--budget-ms"})
        .exclusive({"--sift", "--progress"})
        .exclusive({"--sift", "--mpi"});
    // exclusive() refuses any two of its list: --known-solution with each.
    for (const char* other : {"--random", "--scrambles", "--tws-scrambles", "--max-length", "--sift", "--budget-ms"})
        options.exclusive({"--known-solution", other});
    if (auto rc = options.parse(args)) return *rc;
    o.file = positional[0];
    if (options.given("--seed") && !options.given("--random")) return options.fail("--seed needs --random");
    if (o.scrambles.empty() && o.states.empty() && o.twsScrambles.empty() && !o.randomCount && o.batchFile.empty())
        return options.fail("give --scramble, --state, --random, --scrambles or --tws-scrambles");
    if (options.given("--memory")) {
        auto bytes = pz::parseMemorySize(memoryText);
        if (!bytes || *bytes == 0)
            return options.fail("bad --memory '" + memoryText + "': expected a size such as 512M or 2G");
        o.memory = std::to_string(*bytes);
    }
    if ((o.mpi || !o.resume.empty()) && o.batchFile.empty())
        return options.fail(std::string(o.mpi ? "--mpi" : "--resume") + " needs --scrambles");
    if (o.mpi && !mpi::available()) {
        std::cerr << "pzc solve: error: pzc was built without MPI, so --mpi cannot run (install Open MPI, e.g. "
                     "openmpi-bin and libopenmpi-dev, and rebuild; docs/distributed.md)\n";
        return 2;
    }
    if (options.given("--max-length")) o.maxLength = maxLength;
    if (options.given("--budget-ms")) o.budgetMs = budgetMs;
    if (options.given("--known-solution")) {
        if (o.scrambles.size() + o.states.size() != 1)
            return options.fail("--known-solution needs one position (one --scramble or --state)");
        o.known.emplace();
    }
    return std::nullopt;
}

// The positions to solve, and for a batch where each came from.
struct Positions {
    std::vector<ir::Element> elements;
    std::vector<long> line;                          // batch: the line of each position
    std::vector<std::pair<long, std::string>> errors;  // batch: bad lines, in order
    bool priorErrors = false;                          // --resume: OUT holds error lines
};

// A batch (--scrambles FILE|-): one scramble or state a line, blank lines
// and '#' comments skipped; a bad line is kept with its number and the
// others are solved, all by one solver process (one table load).
std::optional<int> readBatch(pipeline::CompilationUnit& unit, const SolveOptions& o, Positions& out) {
    std::ifstream fileIn;
    std::istream* in = &std::cin;
    if (o.batchFile != "-") {
        fileIn.open(o.batchFile);
        if (!fileIn) {
            std::cerr << "pzc solve: error: cannot read " << o.batchFile << "\n";
            return 1;
        }
        in = &fileIn;
    }
    long number = 0;
    for (std::string line; std::getline(*in, line);) {
        ++number;
        if (number > static_cast<long>(kMaxRandom)) {
            std::cerr << "pzc solve: error: " << o.batchName() << ": more than " << kMaxRandom << " lines\n";
            return 1;
        }
        size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        std::string why;
        auto e = looksLikeState(line) ? stateElement(unit, line, why) : scrambleElement(unit.puzzle(), line, why);
        if (!e) {
            // One line per error: the evaluator's caret display is for a terminal.
            size_t at = why.find("error: ");
            std::string message = at == std::string::npos ? why : why.substr(at + 7);
            message = message.substr(0, message.find('\n'));
            out.errors.push_back({number, message});
            continue;
        }
        out.elements.push_back(*e);
        out.line.push_back(number);
    }
    return std::nullopt;
}

// Positions: scrambles through the IR evaluator, states checked against the
// group, scramble files, a batch or random draws. Nullopt to go on.
std::optional<int> collectPositions(pipeline::CompilationUnit& unit, const SolveOptions& o, Positions& out) {
    const ir::Puzzle& puzzle = unit.puzzle();
    for (const auto& s : o.scrambles) {
        std::string why;
        auto e = scrambleElement(puzzle, s, why);
        if (!e) {
            std::cerr << (why.find("error:") != std::string::npos ? "" : "pzc solve: error: ") << why << "\n";
            return 1;
        }
        out.elements.push_back(*e);
    }
    for (const auto& s : o.states) {
        std::string why;
        auto e = stateElement(unit, s, why);
        if (!e) {
            std::cerr << "pzc solve: error: " << why << "\n";
            return 1;
        }
        out.elements.push_back(*e);
    }
    for (const auto& f : o.twsScrambles) {
        DiagnosticEngine diags;
        if (!loadTwsScrambleFile(puzzle, unit.analysis(), f, out.elements, diags)) {
            diags.print(std::cerr);
            return 1;
        }
    }
    if (o.batch())
        if (auto rc = readBatch(unit, o, out)) return rc;
    if (o.randomCount)
        out.elements = randomPositions(unit.analysis(), unit.metricMoves(), static_cast<long long>(o.randomCount), o.seed);
    // Illegal placements: the search never enters such a state, so it
    // cannot start from one either, nor from one that only illegal states
    // lead to (known when the legal states are few enough to enumerate).
    if (puzzle.illegal.empty()) return std::nullopt;
    analysis::ColouringMembership reach(unit.analysis());
    for (size_t i = 0; i < out.elements.size(); ++i) {
        std::string why;
        if (const ir::IllegalPlacement* il = ir::illegalPlacementIn(puzzle, out.elements[i])) {
            std::cerr << "pzc solve: error: position " << i + 1 << " is illegal: " << ir::illegalPlacementText(puzzle, *il)
                      << "\n";
            return 1;
        }
        if (auto r = reach.reachable(out.elements[i], why); r && !*r) {
            std::cerr << "pzc solve: error: position " << i + 1 << " cannot be reached through legal states\n";
            return 1;
        }
    }
    return std::nullopt;
}

// note [resume]
// --resume OUT: a batch's results are appended to OUT instead of stdout,
// and the lines whose results OUT holds already are not solved again. A
// result is known by its "line" (the input line number, on every result
// line: solution, no solution or bad line), so a resumed file holds the
// same lines as one run's output. A torn last line (a run killed while
// writing it) is dropped first; any other line that is not a result is an
// error (OUT is not this batch's output).
class ResumeOutput {
public:
    // Reads OUT and sends std::cout to its end; nullopt to go on, else the exit code.
    std::optional<int> open(const std::string& path, std::set<long>& done, bool& errors) {
        std::vector<std::string> kept;
        std::ifstream in(path, std::ios::binary);
        const std::string text(std::istreambuf_iterator<char>(in), {});
        std::istringstream lines(text);
        long number = 0;
        for (std::string line; std::getline(lines, line);) {
            ++number;
            const bool last = lines.peek() == std::char_traits<char>::eof();
            std::string why;
            auto v = parseJson(line, why);
            const JsonValue* at = v ? v->get("line") : nullptr;
            if (!at || !at->integer() || (last && text.back() != '\n')) {
                if (last) break;  // torn: solved again
                std::cerr << "pzc solve: error: --resume " << path << ":" << number
                          << ": not a result line of pzc solve --scrambles\n";
                return 1;
            }
            done.insert(static_cast<long>(*at->integer()));
            errors = errors || v->get("error");
            kept.push_back(line);
        }
        if (kept.size() != static_cast<size_t>(number)) {  // rewrite without the torn line
            std::ofstream again(path, std::ios::binary | std::ios::trunc);
            for (const auto& line : kept) again << line << "\n";
        }
        out_.open(path, std::ios::binary | std::ios::app);
        if (!out_) {
            std::cerr << "pzc solve: error: --resume: cannot write " << path << "\n";
            return 1;
        }
        old_ = std::cout.rdbuf(out_.rdbuf());
        return std::nullopt;
    }
    ~ResumeOutput() {
        if (old_) std::cout.rdbuf(old_);
    }

private:
    std::ofstream out_;
    std::streambuf* old_ = nullptr;
};

// Drops the positions and bad lines whose results --resume found.
void skipDone(Positions& p, const std::set<long>& done) {
    Positions left;
    for (size_t i = 0; i < p.elements.size(); ++i)
        if (!done.count(p.line[i])) {
            left.elements.push_back(std::move(p.elements[i]));
            left.line.push_back(p.line[i]);
        }
    for (auto& e : p.errors)
        if (!done.count(e.first)) left.errors.push_back(std::move(e));
    left.priorErrors = p.priorErrors;
    p = std::move(left);
}

// note [known solutions]
// --known-solution gives a solution of the position (from a phased solver,
// a paper, a macro). It must be a sequence of searched moves that solves
// the position, replayed here through the IR; its length is then an upper
// bound, so the optimal solver searches only shorter lengths (its
// --max-length): a shorter solution found is the optimal answer, and none
// found proves the known one optimal. This spares the last, largest IDA*
// iteration (about 7 times the one before on the cube): the superflip is
// proved 20 by exhausting depth 19.
std::optional<int> readKnownSolution(pipeline::CompilationUnit& unit, const Positions& positions, SolveOptions& o) {
    if (!o.known) return std::nullopt;
    const ir::Puzzle& puzzle = unit.puzzle();
    const std::vector<int>& metric = unit.metricMoves();
    ir::Element state = positions.elements.at(0);
    std::istringstream in(o.knownText);
    for (std::string name; in >> name;) {
        auto it = std::find_if(puzzle.moves.begin(), puzzle.moves.end(), [&](const ir::Move& m) { return m.name == name; });
        if (it == puzzle.moves.end()) {
            std::cerr << "pzc solve: error: --known-solution: unknown move '" << name << "' (a sequence of "
                      << puzzle.name << "'s move names)\n";
            return 1;
        }
        const int move = static_cast<int>(it - puzzle.moves.begin());
        if (std::find(metric.begin(), metric.end(), move) == metric.end()) {
            std::cerr << "pzc solve: error: --known-solution: '" << name
                      << "' is not a move the search counts, so the solution has no length to prove\n";
            return 1;
        }
        state = ir::compose(state, it->effect, puzzle.orbits);
        if (const ir::IllegalPlacement* il = ir::illegalPlacementIn(puzzle, state)) {
            std::cerr << "pzc solve: error: --known-solution enters an illegal state after move " << o.known->size() + 1
                      << ": " << ir::illegalPlacementText(puzzle, *il) << "\n";
            return 1;
        }
        o.known->push_back(move);
    }
    if (!analysis::isSolvedColouring(puzzle, state)) {
        std::cerr << "pzc solve: error: --known-solution does not solve the position\n";
        return 1;
    }
    if (o.known->size() > kMaxOptimalLength + 1) {
        std::cerr << "pzc solve: error: --known-solution has " << o.known->size() << " moves; an optimal search goes to "
                  << kMaxOptimalLength << " at most, so it can prove one of " << kMaxOptimalLength + 1
                  << " moves at most\n";
        return 1;
    }
    if (!o.known->empty()) o.maxLength = o.known->size() - 1;
    return std::nullopt;
}

// The declared solver to run: -1 for the default build (the first optimal
// solver), else the index of another optimal solver, a phased or a sift
// solver (note [search plans]). Nullopt to go on.
std::optional<int> chooseSolver(const pipeline::CompilationUnit& unit, const SolveOptions& o, int& solver) {
    const ir::Puzzle& puzzle = unit.puzzle();
    solver = -1;
    if (!o.solverName.empty()) {
        const auto declared = declaredSolver(puzzle, o.solverName, "solve");
        if (!declared) return 2;
        solver = *declared == unit.defaultOptimalSolver() ? -1 : *declared;
    }
    const auto kind = solver < 0 ? ir::Solver::Kind::Optimal : puzzle.solvers[solver].kind;
    if (kind != ir::Solver::Kind::Phased && o.budgetMs) {
        std::cerr << "pzc solve: error: --budget-ms needs a phased solver (--solver NAME)\n" << kUsage;
        return 2;
    }
    if (kind == ir::Solver::Kind::Sift && o.maxLength) {
        std::cerr << "pzc solve: error: --max-length needs an optimal or a phased solver; '" << puzzle.solvers[solver].name
                  << "' is a sift solver\n";
        return 2;
    }
    if (kind == ir::Solver::Kind::Optimal && o.maxLength > kMaxOptimalLength) {
        std::cerr << "pzc solve: error: --max-length for an optimal solver is at most " << kMaxOptimalLength << "\n";
        return 2;
    }
    if (kind != ir::Solver::Kind::Optimal && o.known) {
        std::cerr << "pzc solve: error: --known-solution needs an optimal solver; '" << puzzle.solvers[solver].name
                  << "' is not one\n";
        return 2;
    }
    if (solver >= 0 && puzzle.solvers[solver].kind != ir::Solver::Kind::Optimal && o.progress) {
        std::cerr << "pzc solve: error: --progress needs an optimal solver; '" << puzzle.solvers[solver].name
                  << "' is not one\n";
        return 2;
    }
    return std::nullopt;
}

// note [memory choice]
// A definition may declare several optimal solvers over table families of
// different sizes (cube3: h48h3 226 MiB, h48h2 113 MiB, h48 56 MiB). With
// --memory and no --solver, pzc solve runs the one with the largest tables
// that fit the budget. The sizes it ranks by are pzc check's table bytes
// (analysis::optimalSolverTableBytes; they cost an analysis, so they are
// kept in the solver index, keyed by the definition's bytes), but a solver
// needs more than its tables (move and class tables; a projected table is
// filled in 4 bits before it is packed), and only the solver knows exactly:
// so the candidates run in turn, largest first, and a solver that refuses
// the budget before answering (exit status 4, note [result protocol]) hands
// over to the next. The solver that answered is kept in the index for that
// budget and tried first next time. With no candidate, the default solver
// runs and refuses the budget naming its needs.
std::vector<int> memoryCandidates(pipeline::CompilationUnit& unit, uint64_t budget, const std::string& bytes) {
    const ir::Puzzle& puzzle = unit.puzzle();
    std::vector<int> optimal;
    for (size_t i = 0; i < puzzle.solvers.size(); ++i)
        if (puzzle.solvers[i].kind == ir::Solver::Kind::Optimal && !puzzle.solvers[i].patterns.empty())
            optimal.push_back(static_cast<int>(i));
    if (optimal.size() < 2) return {-1};
    const std::string key = solverIndexKey(unit.file(), bytes, "optimal table bytes");
    auto sizes = lookupIndexedNumbers(key);
    if (!sizes || sizes->size() != puzzle.solvers.size()) {
        sizes.emplace(puzzle.solvers.size(), 0);
        for (int i : optimal) {
            auto b = analysis::optimalSolverTableBytes(unit.analysis(), i, unit.metricMoves());
            if (!b) return {-1};  // the default solver's build reports it
            (*sizes)[i] = *b;
        }
        recordIndexedNumbers(key, *sizes);
    }
    std::vector<int> fit;
    for (int i : optimal)
        if ((*sizes)[i] <= budget) fit.push_back(i);
    std::stable_sort(fit.begin(), fit.end(), [&](int a, int b) { return (*sizes)[a] > (*sizes)[b]; });
    if (fit.empty()) return {-1};
    // The solver that answered within this budget before goes first.
    if (auto chosen = lookupIndexedNumbers(solverIndexKey(unit.file(), bytes, "memory choice " + std::to_string(budget))))
        if (chosen->size() == 1) {
            auto it = std::find(fit.begin(), fit.end(), (int)chosen->front());
            if (it != fit.end()) std::rotate(fit.begin(), it, it + 1);
        }
    for (int& i : fit)
        if (i == unit.defaultOptimalSolver()) i = -1;
    return fit;
}

// The solver's binary and move order: from the solver index when the
// definition's solver is cached and intact (no analysis at all), else
// planned, emitted and built (or found by its source in the binary cache)
// and recorded in the index (note [solver index]).
// The solver's variant in the solver index (note [solver index]).
std::string solverVariant(const pipeline::CompilationUnit& unit, int solver) {
    std::string variant =
        solver < 0 ? "default"
                   : (unit.puzzle().solvers[solver].kind == ir::Solver::Kind::Optimal ? "optimal " : "phased ") +
                         unit.puzzle().solvers[solver].name;
    // Default patterns sized to --memory are another solver (another binary).
    if (unit.defaultPatternValues() != analysis::kDefaultPatternValues)
        variant += " default patterns " + std::to_string(unit.defaultPatternValues());
    return variant;
}

std::optional<IndexedSolver> solverFor(pipeline::CompilationUnit& unit, int solver) {
    const std::string bytes = definitionBytes(unit);
    const std::string variant = solverVariant(unit, solver);
    const std::string key = solverIndexKey(unit.file(), bytes, variant);
    auto hit = lookupIndexedSolver(key);
    if (hit && hit->searchMoves == unit.metricMoves()) return hit;  // else a damaged entry: rebuilt
    auto bin = compileSolver(unit, solver);
    if (!bin) return std::nullopt;
    DiagnosticEngine planned;  // the model is built already: no diagnostics
    IndexedSolver built{*bin, unit.solverModel(planned, solver)->canon.searchMoves};
    // Recorded only if the definition did not change while it was compiled.
    std::ifstream again(unit.file(), std::ios::binary);
    if (std::string(std::istreambuf_iterator<char>(again), {}) == bytes) recordIndexedSolver(key, built);
    return built;
}

// Which solver answered: the default optimal one (no name), another
// declared optimal one, or a declared phased or sift solver (never
// labelled optimal).
struct SolverLabel {
    std::string name;
    ir::Solver::Kind kind = ir::Solver::Kind::Optimal;
    bool phased() const { return kind == ir::Solver::Kind::Phased; }
    bool optimal() const { return kind == ir::Solver::Kind::Optimal; }  // lengths proven by the search
};

// Prints one solution (replayed already) in the requested form; `known`:
// it is --known-solution's, proved optimal (note [known solutions]).
void printSolution(const SolveOptions& o, const Positions& positions, const PositionResult& r, const std::string& text,
                   const std::string& line, const ir::Puzzle& puzzle, const analysis::StateLayout& layout,
                   const SolverLabel& label, bool known = false) {
    const bool machine = o.json || o.batch();
    const ir::Element& start = positions.elements[r.index];
    if (machine) {
        pz::json::Line out;
        if (o.batch()) out.field("line", positions.line[r.index]);
        out.field("solution", text).field("length", r.moves.size()).field("optimal", label.optimal());
        if (known) out.field("known-solution", true);
        if (!label.name.empty()) out.field("solver", label.name);
        if (label.phased()) out.field("phases", phaseLengths(line));
        out.field("nodes", r.nodes).field("seconds", r.seconds);
        if (o.randomCount)
            out.field("state", numbersText(elementNumbers(puzzle, analysis::labelledView(puzzle, start, layout))));
        std::cout << out.str() << "\n";
        return;
    }
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.6f", r.seconds);
    std::cout << (text.empty() ? "(already solved)" : text) << "\n  " << r.moves.size();
    if (label.optimal()) {
        std::cout << " moves (optimal" << (label.name.empty() ? "" : ", " + label.name)
                  << (known ? "; the known solution: the search found none shorter" : "") << "), ";
    } else if (!label.phased()) {
        std::cout << " moves (" << label.name << ", sifted; not proven optimal), ";
    } else {
        const std::vector<int> phases = phaseLengths(line);
        std::string lengths;
        for (size_t i = 0; i < phases.size(); ++i) lengths += (i ? ", " : "") + std::to_string(phases[i]);
        std::cout << " moves (" << label.name << ", phases " << lengths << "; not proven optimal), ";
    }
    std::cout << r.nodes << " nodes, " << secs << " s\n";
}

// Reads a solver's result lines (note [result protocol]) in order, replays
// every solution against the position pzc asked about (never one echoed
// back) and prints it; a batch's bad lines are printed in line order among
// the results: one JSON object on stdout (so every line has one) and the
// message on stderr.
class ResultReader {
public:
    ResultReader(const IndexedSolver& solver, const ir::Puzzle& puzzle, const analysis::StateLayout& layout,
                 const SolveOptions& o, Positions& positions, SolverLabel label)
        : solver_(solver), puzzle_(puzzle), layout_(layout), o_(o), positions_(positions), label_(std::move(label)) {}

    void onLine(const std::string& line) {
        if (status_ == 3) return;
        std::string why;
        auto r = parsePositionResult(line, why);
        if (!r) return internalError("the solver printed an unreadable result (" + why + "): " + line.substr(0, 200));
        if (r->index != static_cast<int64_t>(results_) || results_ >= positions_.elements.size())
            return internalError("the solver answered out of order (result " + std::to_string(r->index) + ")");
        ++results_;
        if (r->kind == PositionResult::Kind::Error) return internalError("the solver rejected a position: " + r->message);
        if (o_.batch()) flushLineErrors(positions_.line[r->index]);
        if (r->kind == PositionResult::Kind::NoSolution) return o_.known ? knownSolution(*r) : noSolution(*r);
        std::string text;
        if (!replay(*r, text)) return;
        // An empty known solution is searched for as is (it has no shorter one).
        const bool known = o_.known && o_.known->empty() && r->moves.empty();
        printSolution(o_, positions_, *r, text, line, puzzle_, layout_, label_, known);
    }

    // Every position answered, and nothing wrong: the solver's exit status
    // adds nothing (note [no wait at exit]).
    bool complete() const { return status_ != 3 && results_ == positions_.elements.size(); }

    // The solver exited refusing the memory budget (exit status 4) before
    // any answer (note [memory choice]).
    bool refusedBudget(const ChildStatus& child) const {
        return child.started && child.exited() && child.exitCode() == 4 && results_ == 0 && status_ == 0;
    }

    // The exit code, once the solver has exited with `child`.
    int finish(const ChildStatus& child) {
        if (!child.started) {
            std::cerr << "pzc solve: internal error: cannot run the solver " << solver_.binary << ": "
                      << child.startError << "\n";
            return 3;
        }
        if (status_ == 3) return 3;
        if (!child.exited() || (child.exitCode() != 0 && child.exitCode() != 1)) {
            std::cerr << "pzc solve: " << (child.exited() && child.exitCode() == 4 ? "error" : "internal error")
                      << ": the solver " << solver_.binary << " " << describeSolverStatus(child) << "\n";
            return child.exited() && child.exitCode() == 4 ? 1 : 3;
        }
        if (results_ != positions_.elements.size()) {
            std::cerr << "pzc solve: internal error: the solver answered " << results_ << " of "
                      << positions_.elements.size() << " positions\n";
            return 3;
        }
        return finishLineErrors(status_);
    }

    // All bad lines printed; the exit code given the solver's `status`.
    int finishLineErrors(int status) {
        if (o_.batch()) flushLineErrors(LONG_MAX);
        return positions_.errors.empty() && !positions_.priorErrors ? status : std::max(status, 1);
    }

private:
    void internalError(const std::string& why) {
        if (status_ != 3) std::cerr << "pzc solve: internal error: " << why << "\n";
        status_ = 3;
    }

    void flushLineErrors(long beforeLine) {
        const auto& errors = positions_.errors;
        const size_t first = nextError_;
        for (; nextError_ < errors.size() && errors[nextError_].first < beforeLine; ++nextError_) {
            const auto& [line, message] = errors[nextError_];
            std::cerr << "pzc solve: error: " << o_.batchName() << ":" << line << ": " << message << "\n";
            std::cout << pz::json::Line().field("line", line).field("error", message).str() << "\n";
        }
        if (nextError_ > first) std::cout.flush();  // results are flushed by the reads (onLines)
    }

    // No solution shorter than --known-solution's: that one is the answer,
    // proved optimal (note [known solutions]).
    void knownSolution(const PositionResult& r) {
        const std::vector<int>& known = *o_.known;
        if (r.unreachable || !r.reason.empty() || r.depthLimit + 1 != static_cast<int>(known.size()))
            return internalError("the solver found no solution of the position --known-solution solves (" +
                                 (r.unreachable ? std::string("it calls it unreachable")
                                                : "depth limit " + std::to_string(r.depthLimit)) + ")");
        PositionResult answer = r;
        answer.kind = PositionResult::Kind::Solution;
        for (int move : known) {
            const auto& order = solver_.searchMoves;
            answer.moves.push_back(static_cast<int>(std::find(order.begin(), order.end(), move) - order.begin()));
        }
        std::string text;
        if (!replay(answer, text)) return;
        printSolution(o_, positions_, answer, text, "", puzzle_, layout_, label_, true);
    }

    void noSolution(const PositionResult& r) {
        const bool proved = o_.maxLength && label_.optimal() && !r.unreachable && r.reason.empty();
        std::string message = proved ? "no solution of " + std::to_string(r.depthLimit) +
                                           " moves or fewer (--max-length; the search proved it)"
                              : !r.reason.empty() ? r.reason
                              : r.unreachable ? "the position is not reachable by the puzzle's moves"
                                            : "no solution within the search's depth limit of " +
                                                  std::to_string(r.depthLimit) +
                                                  (puzzle_.illegal.empty()
                                                       ? " moves (the position is reachable; the search gave up)"
                                                       : " moves (through legal states only: the position may be "
                                                         "unreachable that way)");
        if (o_.batch()) {
            const long line = positions_.line[r.index];
            positions_.errors.insert(positions_.errors.begin() + static_cast<long>(nextError_), {line, message});
            flushLineErrors(line + 1);
        } else {
            std::cerr << "pzc solve: error: " << message << "\n";
        }
        status_ = std::max(status_, 1);
    }

    // Replays r's moves on the position; their names in `text`. False (an
    // internal error reported) when a move does not exist or the position is not solved.
    bool replay(const PositionResult& r, std::string& text) {
        ir::Element state = positions_.elements[r.index];
        for (size_t i = 0; i < r.moves.size(); ++i) {
            if (r.moves[i] < 0 || r.moves[i] >= static_cast<int>(solver_.searchMoves.size())) {
                internalError("the solver printed move number " + std::to_string(r.moves[i]) + ", which does not exist");
                return false;
            }
            const auto& mv = puzzle_.moves[solver_.searchMoves[r.moves[i]]];
            state = ir::compose(state, mv.effect, puzzle_.orbits);
            text += (i ? " " : "") + mv.name;
            if (ir::illegalPlacementIn(puzzle_, state)) {
                internalError("the solution enters an illegal state after move " + std::to_string(i + 1));
                return false;
            }
        }
        if (!analysis::isSolvedColouring(puzzle_, state)) {  // the identity, or with identical pieces the colouring
            internalError("the solution does not solve the position");
            return false;
        }
        return true;
    }

    const IndexedSolver& solver_;
    const ir::Puzzle& puzzle_;
    const analysis::StateLayout& layout_;
    const SolveOptions& o_;
    Positions& positions_;
    const SolverLabel label_;
    int status_ = 0;
    size_t results_ = 0;
    size_t nextError_ = 0;
};

// The solver's command line for a batch of `positions` (--stdin, answers
// as JSON lines). `mpi`: one of several ranks on a machine, so
// --shared-tables, not --resident (each rank would copy the tables; mapped,
// they share the cached file, in 2 MiB pages where the kernel can: note
// [huge page cache] in pz/tables/mapped_file.hpp), and no per-iteration
// --progress (ranks would interleave).
std::vector<std::string> solverArgv(const IndexedSolver& solver, const SolveOptions& o, const Positions& positions,
                                    const SolverLabel& label, bool mpi) {
    std::vector<std::string> argv = {solver.binary, "--machine", "--stdin"};
    if (o.threads) argv.insert(argv.end(), {"--threads", std::to_string(o.threads)});
    if (!o.memory.empty()) argv.insert(argv.end(), {"--memory", o.memory});
    if (o.verifyTables) argv.push_back("--verify-tables");
    if (o.progress && !mpi) argv.push_back("--progress");
    // Several positions: the optimal solver copies its tables into huge
    // pages before the first (note [table residency] in pz/tables/prune.hpp); one
    // position keeps them mapped (a one-shot solve reads only what it needs).
    if (label.optimal() && positions.elements.size() > 1 && !mpi) argv.push_back("--resident");
    if (mpi) argv.push_back("--shared-tables");
    if (o.maxLength) argv.insert(argv.end(), {"--max-length", std::to_string(*o.maxLength)});
    if (o.budgetMs) argv.insert(argv.end(), {"--budget-ms", std::to_string(*o.budgetMs)});
    return argv;
}

// One solver input line a position, as the generated state holds it
// (identical pieces as labels).
std::vector<std::string> solverInputs(const ir::Puzzle& puzzle, const analysis::StateLayout& layout,
                                      const Positions& positions) {
    std::vector<std::string> out;
    for (const auto& e : positions.elements) {
        std::string line;
        for (long n : elementNumbers(puzzle, analysis::labelledView(puzzle, e, layout))) line += std::to_string(n) + ' ';
        out.push_back(std::move(line));
    }
    return out;
}

// Runs the solver without a shell: positions on its stdin (a pipe), one JSON
// result line per position on its stdout, read by a ResultReader.
// `mayRefuse`: nullopt when the solver refused the memory budget before
// answering anything (note [memory choice]: the caller tries another).
// Under --mpi with several ranks, every rank runs it on chunks of the batch
// (mpi_batch.hpp) and the results go through the same ResultReader, in
// input order.
std::optional<int> runSolver(const IndexedSolver& solver, const ir::Puzzle& puzzle, const analysis::StateLayout& layout,
                             const SolveOptions& o, Positions& positions, const SolverLabel& label,
                             bool mayRefuse = false) {
    ResultReader reader(solver, puzzle, layout, o, positions, label);
    if (positions.elements.empty()) return reader.finishLineErrors(0);  // a batch of bad lines only, or empty
    if (mpi::Session* session = o.mpi ? mpi::current() : nullptr) {
        auto farmed = mpi::farm(*session, solverArgv(solver, o, positions, label, true),
                                solverInputs(puzzle, layout, positions), o.progress,
                                [&](const std::string& line) { reader.onLine(line); }, [] { std::cout.flush(); });
        if (!farmed.ok) {
            if (mayRefuse && farmed.refusedFirst) return std::nullopt;  // note [memory choice]
            std::cerr << farmed.message << "\n";
            return farmed.exitCode;
        }
        ChildStatus done;
        done.started = true;  // status 0: every rank's solver answered all it was given
        return reader.finish(done);
    }
    ChildRun run;
    run.argv = solverArgv(solver, o, positions, label, false);
    for (const auto& line : solverInputs(puzzle, layout, positions)) run.input += line + '\n';
    bool first = true;  // note [timeline]: the first answer's stages (a batch has many)
    run.onLine = [&](const std::string& line) {
        if (first) timeline::mark("result");
        reader.onLine(line);
        if (first) timeline::mark("replayed");
        first = false;
    };
    // Printed as they come: flushed after each read of the solver's answers
    // (through mpirun's terminal, one write per answer cost pzc a third more
    // processor time on 50,000 2x2x2 states).
    run.onLines = [] { std::cout.flush(); };
    run.complete = [&] { return reader.complete(); };
    timeline::mark("solver start");
    const ChildStatus status = runChildOrDie(run);
    timeline::mark("solver exited");
    if (mayRefuse && reader.refusedBudget(status)) return std::nullopt;
    return reader.finish(status);
}

// note [sift solves]
// A sift solver (note [sift words] in compiler/analysis/perm/sift_words.hpp) runs
// inside pzc: its table is built from the definition alone (under a second
// for Megaminx; up to minutes for the biggest puzzles, docs/language.md), so
// there is no binary to build or cache. Each position is sifted
// and shortened, then reported as the result line a generated solver
// prints (note [result protocol]), so replay, printing and a batch's bad
// lines go through the same ResultReader. "nodes" is the number of levels
// the position was sifted through.
// `solver` is a declared sift solver, or -1 for --sift.
int runSiftSolver(pipeline::CompilationUnit& unit, int solver, const analysis::StateLayout& layout,
                  const SolveOptions& o, Positions& positions) {
    const ir::Puzzle& puzzle = unit.puzzle();
    const std::string name = solver < 0 ? "sift" : puzzle.solvers[solver].name;
    std::string why;
    const analysis::SiftWords* table = unit.siftWords(why);
    if (!table) {
        std::cerr << "pzc solve: error: sift solver cannot be built: " << why << "\n";
        return 1;
    }
    const analysis::PointAction points(puzzle.orbits);
    const analysis::WordShortener shortener(puzzle, unit.analysis(), table->metric);
    const auto directions = analysis::siftDirections(unit.analysis(), table->metric, analysis::kSiftDirections);
    std::vector<int> letterOf(puzzle.moves.size(), -1);
    for (size_t l = 0; l < table->metric.size(); ++l) letterOf[table->metric[l]] = static_cast<int>(l);
    IndexedSolver indexed{"pzc (sift solver " + name + ")", table->metric};
    ResultReader reader(indexed, puzzle, layout, o, positions, {name, ir::Solver::Kind::Sift});
    for (size_t i = 0; i < positions.elements.size(); ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto moves = analysis::siftSolveBest(*table, points, shortener, directions, puzzle, positions.elements[i]);
        pz::json::Line line;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!moves && analysis::hasIdenticalPieces(puzzle)) {
            // note [sift labels]: the position may well be reachable, but no
            // choice of pieces of a label led every level to a sequence.
            line.field("type", "no-solution").field("index", i).field(
                "reason", "the sift solver found no sequence for this position: no choice among identical pieces "
                          "reached a lift in the group (note [sift labels]); try an optimal solver");
            line.field("nodes", table->levels.size()).field("seconds", seconds);
        } else if (!moves) {
            line.field("type", "no-solution").field("index", i).field("unreachable", true);
            line.field("nodes", table->levels.size()).field("seconds", seconds);
        } else {
            std::vector<int> letters;
            for (int m : *moves) letters.push_back(letterOf[m]);
            line.field("type", "solution").field("index", i).field("moves", letters);
            line.field("nodes", table->levels.size()).field("seconds", seconds);
        }
        reader.onLine(line.str());
    }
    ChildStatus done;
    done.started = true;  // status 0: exited normally, code 0
    return reader.finish(done);
}

}  // namespace

const char* PermutationBackend::solveUsage() const { return kUsage; }

int PermutationBackend::solve(pipeline::CompilationUnit& unit, const Args& args) const {
    SolveOptions options;
    if (auto rc = readSolveOptions(args, options)) return *rc;
    std::optional<mpi::Session> session;  // finalised last, after the output is flushed
    if (options.mpi) {
        session.emplace();
        if (session->rank() != 0) return mpi::runWorker(*session);  // no output of its own
    }
    ResumeOutput resumed;
    std::set<long> done;
    bool priorErrors = false;
    if (!options.resume.empty())
        if (auto rc = resumed.open(options.resume, done, priorErrors)) return *rc;
    if (options.solverName.empty() && !options.sift) options.solverName = defaultSolverName(unit.puzzle());  // note [default solver]
    // A definition without patterns searches with default patterns, sized to
    // --memory when it is given (analysis/default_patterns.hpp).
    if (!options.memory.empty() && unit.puzzle().patterns.empty())
        unit.setDefaultPatternValues(analysis::defaultPatternValuesFor(std::stoull(options.memory)));
    // A sift solver the puzzle cannot have is refused before any position
    // is drawn or checked (those build the group analysis: seconds on big puzzles).
    bool sift = options.sift;
    for (const auto& s : unit.puzzle().solvers)
        sift = sift || (s.name == options.solverName && s.kind == ir::Solver::Kind::Sift);
    if (auto refused = sift ? analysis::siftRefusal(unit.puzzle(), unit.metricMoves()) : std::nullopt) {
        std::cerr << "pzc solve: error: sift solver cannot be built: " << *refused << "\n";
        return 1;
    }
    Positions positions;
    if (auto rc = collectPositions(unit, options, positions)) return *rc;
    if (!options.resume.empty()) {
        positions.priorErrors = priorErrors;
        skipDone(positions, done);
    }
    timeline::mark("positions");
    if (auto rc = readKnownSolution(unit, positions, options)) return *rc;
    if (positions.elements.empty()) return *runSolver({}, unit.puzzle(), {}, options, positions, {});
    int declared = -1;
    if (auto rc = chooseSolver(unit, options, declared)) return *rc;
    const ir::Puzzle& puzzle = unit.puzzle();
    const auto kind = declared < 0 ? ir::Solver::Kind::Optimal : puzzle.solvers[declared].kind;
    if (options.sift || kind == ir::Solver::Kind::Sift) {
        const analysis::StateLayout* layout = planLayout(unit);
        if (!layout) return 1;
        return runSiftSolver(unit, declared, *layout, options, positions);
    }
    // note [memory choice]
    const bool choose = options.solverName.empty() && !options.memory.empty();
    const std::string bytes = choose ? definitionBytes(unit) : "";
    const std::vector<int> candidates =
        choose ? memoryCandidates(unit, std::stoull(options.memory), bytes) : std::vector<int>{declared};
    // note [search gate]: the first candidate's work, estimated before it is built.
    if (kind == ir::Solver::Kind::Optimal) {
        SearchGateRequest gate{candidates.front(), solverVariant(unit, candidates.front()), options.randomCount > 0,
                               options.maxLength, options.threads, options.force};
        if (auto rc = searchGate(unit, gate, options.progress)) return *rc;
        timeline::mark("estimate");
    }
    // The declared solver a candidate stands for (-1: the default optimal one).
    auto declaredIndex = [&](int s) { return s < 0 ? unit.defaultOptimalSolver() : s; };
    for (size_t c = 0; c < candidates.size(); ++c) {
        const int chosen = candidates[c];
        auto solver = solverFor(unit, chosen);
        if (!solver) return 1;
        timeline::mark("solver index");
        const analysis::StateLayout* layout = planLayout(unit);  // what the generated state holds
        if (!layout) return 1;
        SolverLabel label;
        if (chosen >= 0) label = {puzzle.solvers[chosen].name, puzzle.solvers[chosen].kind};
        const bool last = c + 1 == candidates.size();
        if (auto rc = runSolver(*solver, puzzle, *layout, options, positions, label, !last)) {
            if (choose && candidates.size() > 1 && *rc != 3)
                recordIndexedNumbers(solverIndexKey(unit.file(), bytes, "memory choice " + options.memory),
                                     {(uint64_t)declaredIndex(chosen)});
            return *rc;
        }
        // One write: under mpirun other ranks' solvers print to the same
        // stream, and std::cerr writes each << on its own.
        std::cerr << "pzc solve: note: solver '" + puzzle.solvers[declaredIndex(chosen)].name +
                         "' needs more than --memory; trying '" +
                         puzzle.solvers[declaredIndex(candidates[c + 1])].name + "'\n";
    }
    return 3;  // not reached: the last candidate's run returns
}

}  // namespace pz::driver
