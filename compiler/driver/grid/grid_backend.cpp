// The grid-actor back end (Anima; note [back ends] in compiler/driver/backend.hpp):
//   pzc check DEF --level FILE            validate one level file
//   pzc solve DEF --level FILE [--json]   print an optimal solution
//   pzc solve DEF --levels DIR            solve a folder, print a table
//   pzc solve DEF                         the levels DEF lists, as a table
//   pzc solve-dir DEF DIR              the same folder table
// Options for solving: --bfs (breadth-first), --interp (search with the
// reference interpreter, no C++ compile: the baseline), --max-states N;
// --emit FILE (or -) writes the generated C++ instead (--no-main: without main();
// --namespace NAME: instead of pzgen);
// --hall adds Hall's condition to the generated heuristic.
//
// Pipeline of a solve: read the levels (compiler/ir/level_reader) -> emit one C++
// translation unit holding every level's kernels (codegen/grid/) ->
// compile it once, cached by content (driver/native_build) -> run it -> replay
// every solution through the interpreter (interp/grid_interp) -> print.
// One translation unit per run, not per level: a compile costs seconds, a
// level's search milliseconds, so a folder pays one (cached) compile.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <iostream>
#include <sstream>

#include "compiler/analysis/grid/grid_layout.hpp"
#include "compiler/codegen/grid/grid_emit.hpp"
#include "compiler/driver/grid/grid_backend.hpp"
#include "compiler/codegen/library.hpp"
#include "compiler/codegen/code_writer.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/driver/result_protocol.hpp"
#include "compiler/driver/subprocess.hpp"
#include "compiler/interp/grid_interp.hpp"
#include "compiler/interp/reference_grid_search.hpp"
#include "compiler/ir/lower.hpp"
#include "compiler/pipeline/compilation_unit.hpp"
#include "compiler/ir/level_reader.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/result_json.hpp"

namespace pz::driver {

namespace {

struct GridOptions {
    std::vector<std::string> levelFiles;
    std::vector<std::string> levelDirs;
    bool json = false;
    bool bfs = false;
    bool interp = false;
    std::string maxStates;
    // The search's memory budget in bytes (note [grid memory budget]).
    unsigned long long memoryBytes = pz::memoryBudget();
    int repeat = 1;  // --repeat N: time each search N times, keep the fastest (benchmarks)
    std::string emitPath;  // write the generated C++ here ("-": stdout) instead of solving
    bool emitMain = true;
    bool tableForOne = false;  // solve-dir prints its table even for one level
    bool hallBound = false;    // --hall: Hall's condition in the heuristic
    std::string emitNamespace = "pzgen";  // --namespace NAME: around the emitted levels
};

// One level's outcome, whichever search produced it.
struct LevelOutcome {
    std::string name;
    std::string outcome = "missing";  // solved | unsolvable | limit | missing
    std::vector<int> moves;
    unsigned long long expanded = 0, stored = 0;
    size_t bytes = 0;
    double seconds = 0;
};

const char* kGridUsage =
    "usage: pzc solve DEF (--level FILE | --levels DIR)... [--json] [--bfs] [--interp] [--max-states N] [--memory SIZE]\n"
    "                     [--repeat N]\n"
    "                     [--emit FILE|- [--no-main] [--namespace NAME]] [--hall]\n"
    "       pzc check DEF [--level FILE | --levels DIR]... [--json]\n";

// Parses the grid options (the definition, if first, is skipped). nullopt:
// go on; otherwise the exit code.
std::optional<int> parseOptions(const std::string& command, const Args& args, GridOptions& options) {
    std::vector<std::string> definition;
    unsigned long long repeat = 1, maxStates = 0;
    std::string memoryText;
    bool noMain = false;
    OptionParser parser(command, kGridUsage);
    parser.positionals(definition, 0, 1, "DEF")
        .values("--level", options.levelFiles)
        .values("--levels", options.levelDirs)
        .flag("--json", options.json)
        .flag("--bfs", options.bfs)
        .flag("--interp", options.interp)
        .number("--max-states", maxStates, 1, UINT64_MAX)
        .value("--memory", memoryText)
        .value("--emit", options.emitPath)
        .number("--repeat", repeat, 1, 1000000)
        .flag("--hall", options.hallBound)
        .flag("--table", options.tableForOne)
        .flag("--no-main", noMain)
        .value("--namespace", options.emitNamespace)
        .exclusive({"--emit", "--interp"})
        .exclusive({"--emit", "--json"});
    if (auto rc = parser.parse(args)) return rc;
    options.emitMain = !noMain;
    options.repeat = static_cast<int>(repeat);
    if (parser.given("--max-states")) options.maxStates = std::to_string(maxStates);
    if (parser.given("--memory")) {
        auto bytes = pz::parseMemorySize(memoryText);
        if (!bytes || *bytes == 0)
            return parser.fail("bad --memory '" + memoryText + "': expected a size such as 512M or 2G");
        options.memoryBytes = *bytes;
    }
    if ((parser.given("--no-main") || parser.given("--namespace")) && options.emitPath.empty())
        return parser.fail("--no-main and --namespace go with --emit");
    const auto& ns = options.emitNamespace;
    const bool identifier = !ns.empty() && !std::isdigit((unsigned char)ns[0]) &&
                            std::all_of(ns.begin(), ns.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
    if (!identifier) return parser.fail("--namespace needs a C++ identifier, not '" + ns + "'");
    return std::nullopt;
}

// "3.10-box_step" after "3.9-fractal": digit runs compare as numbers.
bool naturalLess(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit((unsigned char)a[i]) && std::isdigit((unsigned char)b[j])) {
            size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit((unsigned char)a[ie])) ++ie;
            while (je < b.size() && std::isdigit((unsigned char)b[je])) ++je;
            unsigned long long x = std::stoull(a.substr(i, ie - i)), y = std::stoull(b.substr(j, je - j));
            if (x != y) return x < y;
            i = ie, j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i, ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

bool listLevelFiles(const std::string& dir, std::vector<std::string>& files) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".txt") files.push_back(entry.path().string());
    if (ec) {
        std::cerr << "pzc: error: cannot read folder " << dir << ": " << ec.message() << "\n";
        return false;
    }
    std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        return naturalLess(std::filesystem::path(a).filename().string(), std::filesystem::path(b).filename().string());
    });
    if (files.empty()) std::cerr << "pzc: error: no level files (*.txt) in " << dir << "\n";
    return !files.empty();
}

std::string outcomeName(grid::SearchResult::Outcome o) {
    switch (o) {
        case grid::SearchResult::Outcome::Solved: return "solved";
        case grid::SearchResult::Outcome::Unsolvable: return "unsolvable";
        case grid::SearchResult::Outcome::LimitReached: return "limit";
        case grid::SearchResult::Outcome::MemoryLimit: return "memory";
    }
    return "missing";
}

// Searches with the reference interpreter in this process (the baseline).
std::vector<LevelOutcome> solveInterpreted(const ir::GridRules& rules, const std::vector<ir::Level>& levels,
                                           const GridOptions& options) {
    std::vector<LevelOutcome> outcomes;
    grid::SearchLimits limits;
    if (!options.maxStates.empty()) limits.maxStates = *parseWholeNumber(options.maxStates, 1, UINT64_MAX);
    limits.memoryBytes = options.memoryBytes;
    grid::keepFreedMemory();  // as the generated main does: searches reuse mapped pages
    for (const auto& level : levels) {
        interp::GridBoard board(rules, level);
        grid::SearchResult r;
        for (int i = 0; i < options.repeat; ++i) {
            auto run = options.bfs ? interp::interpretedBfs(board, limits) : interp::interpretedAStar(board, limits);
            if (i == 0 || run.seconds < r.seconds) r = std::move(run);
        }
        const size_t bytes = r.outcome == grid::SearchResult::Outcome::MemoryLimit ? r.neededBytes : r.closedBytes;
        outcomes.push_back({level.name, outcomeName(r.outcome), r.moves, r.expanded, r.stored, bytes, r.seconds});
    }
    return outcomes;
}

std::string generatedSource(const ir::Puzzle& puzzle, const std::vector<ir::Level>& levels, bool withMain,
                            bool hallBound, const std::string& topNamespace = "pzgen") {
    codegen::GridEmitOptions emit;
    emit.puzzleName = puzzle.name;
    emit.source = std::filesystem::path(puzzle.file).filename().string() +
                  (levels.size() == 1 ? " and " + std::filesystem::path(levels[0].file).filename().string()
                                      : " (" + std::to_string(levels.size()) + " levels)");
    emit.withMain = withMain;
    emit.hallBound = hallBound;
    emit.topNamespace = topNamespace;
    return codegen::emitGridSolver(puzzle.grid, levels, emit);
}

int emitSource(const ir::Puzzle& puzzle, const std::vector<ir::Level>& levels, const GridOptions& options) {
    std::string source = generatedSource(puzzle, levels, options.emitMain, options.hallBound, options.emitNamespace);
    if (options.emitPath == "-") {
        std::cout << source;
        return 0;
    }
    std::ofstream out(options.emitPath, std::ios::binary);
    out << source;
    if (!out) {
        std::cerr << "pzc: error: cannot write " << options.emitPath << "\n";
        return 1;
    }
    return 0;
}

// Emits, compiles (cached) and runs the generated solver for all levels.
std::optional<std::vector<LevelOutcome>> solveGenerated(const ir::Puzzle& puzzle, const std::vector<ir::Level>& levels,
                                                        const GridOptions& options, DiagnosticEngine& diags) {
    NativeBuild build;
    build.source = generatedSource(puzzle, levels, true, options.hallBound);
    build.stem = "grid-" + puzzle.name;
    auto binary = buildNative(build, diags);
    if (!binary) return std::nullopt;
    ChildRun run;
    run.argv = {*binary};
    if (options.bfs) run.argv.push_back("--bfs");
    if (options.repeat > 1) run.argv.insert(run.argv.end(), {"--repeat", std::to_string(options.repeat)});
    if (!options.maxStates.empty()) run.argv.insert(run.argv.end(), {"--max-states", options.maxStates});
    run.argv.insert(run.argv.end(), {"--memory", std::to_string(options.memoryBytes)});
    std::vector<LevelOutcome> outcomes;
    std::string protocolError;
    run.onLine = [&](const std::string& line) {
        if (!protocolError.empty()) return;
        auto r = parseLevelResult(line, protocolError);
        if (!r) {
            protocolError = "the generated solver printed an unreadable result (" + protocolError +
                            "): " + line.substr(0, 200);
            return;
        }
        outcomes.push_back({r->name, r->outcome, r->moves, r->expanded, r->stored, r->bytes, r->seconds});
    };
    ChildStatus child = runChildOrDie(run);
    if (!child.started) {
        diags.error(*binary, {}, "internal error: cannot run the generated solver: " + child.startError);
        return std::nullopt;
    }
    if (!child.exited() || child.exitCode() != 0) {
        diags.error(*binary, {},
                    std::string(child.exited() && child.exitCode() == 4 ? "" : "internal error: ") +
                        "the generated solver " + describeSolverStatus(child));
        return std::nullopt;
    }
    if (!protocolError.empty()) {
        diags.error(*binary, {}, "internal error: " + protocolError);
        return std::nullopt;
    }
    return outcomes;
}

// Reads the levels named by the options; diagnostics for every bad file.
bool readLevels(const ir::Puzzle& puzzle, const GridOptions& options, std::vector<ir::Level>& levels,
                DiagnosticEngine& diags) {
    std::vector<std::string> files = options.levelFiles;
    for (const auto& dir : options.levelDirs)
        if (!listLevelFiles(dir, files)) return false;
    for (const auto& f : files)
        if (auto level = readLevelFile(f, puzzle.grid, diags)) levels.push_back(std::move(*level));
    // Results are matched to levels by name: two levels may not share one.
    for (size_t i = 0; i < levels.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (levels[i].name == levels[j].name) {
                diags.error(levels[i].file, {}, "another level is also named '" + levels[i].name + "' (" +
                                                    levels[j].file + "); level names must differ");
                break;
            }
    return !diags.hasErrors();
}

int solveLevels(const ir::Puzzle& puzzle, const GridOptions& options) {
    DiagnosticEngine diags;
    std::vector<ir::Level> levels;
    bool ok = readLevels(puzzle, options, levels, diags);
    diags.print(std::cerr);
    if (!ok) return 1;

    if (!options.emitPath.empty()) return emitSource(puzzle, levels, options);

    std::vector<LevelOutcome> outcomes;
    if (options.interp) {
        outcomes = solveInterpreted(puzzle.grid, levels, options);
    } else {
        DiagnosticEngine buildDiags;
        auto generated = solveGenerated(puzzle, levels, options, buildDiags);
        buildDiags.print(std::cerr);
        if (!generated) return 1;
        outcomes = std::move(*generated);
    }

    // Verify every solution by replay through the interpreter before printing.
    int failures = 0;
    for (size_t i = 0; i < levels.size(); ++i) {
        LevelOutcome* o = nullptr;
        for (auto& candidate : outcomes)
            if (candidate.name == levels[i].name) o = &candidate;
        if (!o) {
            std::cerr << "pzc: error: " << levels[i].file << ": the solver reported nothing for this level\n";
            ++failures;
            continue;
        }
        if (o->outcome == "unsolvable") {
            std::cerr << "pzc: error: " << levels[i].file << ": level " << levels[i].name
                      << " has no solution (every reachable position was searched)\n";
            ++failures;
        } else if (o->outcome == "limit") {
            std::cerr << "pzc: error: " << levels[i].file << ": gave up after " << o->stored
                      << " states (raise --max-states)\n";
            ++failures;
        } else if (o->outcome == "memory") {
            std::cerr << "pzc: error: " << levels[i].file << ": stopped at the memory budget after " << o->stored
                      << " states: the search needs " << pz::formatBytes(o->bytes) << ", more than the budget of "
                      << pz::formatBytes(options.memoryBytes) << " (raise --memory)\n";
            ++failures;
        } else if (!interp::replaySolves(interp::GridBoard(puzzle.grid, levels[i]), o->moves)) {
            std::cerr << "pzc: error: " << levels[i].file << ": internal error: the solution found does not solve "
                      << "the level when replayed by the interpreter\n";
            ++failures;
            o->outcome = "wrong";
        }
    }

    const bool single = levels.size() == 1 && options.levelDirs.empty() && !options.tableForOne;
    if (single) {
        const LevelOutcome& o = outcomes.empty() ? LevelOutcome{} : outcomes.front();
        if (o.outcome != "solved") return 1;
        std::string text = interp::solutionText(puzzle.grid, o.moves);
        if (options.json) {
            std::cout << pz::json::Line()
                             .field("solution", text)
                             .field("length", o.moves.size())
                             .field("optimal", true)
                             .field("nodes", o.expanded)
                             .field("seconds", o.seconds, 9)
                             .str()
                      << "\n";
        } else {
            std::cout << (text.empty() ? "(already solved)" : text) << "\n";
        }
        return 0;
    }

    double total = 0;
    unsigned long long expanded = 0;
    if (options.json) {
        std::cout << "[";
        for (size_t i = 0; i < outcomes.size(); ++i) {
            const auto& o = outcomes[i];
            std::cout << (i ? ",\n " : "")
                      << pz::json::Line()
                             .field("level", o.name)
                             .field("outcome", o.outcome)
                             .field("length", o.moves.size())
                             .field("expanded", o.expanded)
                             .field("stored", o.stored)
                             .field("bytes", o.bytes)
                             .field("seconds", o.seconds, 9)
                             .field("solution", interp::solutionText(puzzle.grid, o.moves))
                             .str();
        }
        std::cout << "]\n";
        return failures ? 1 : 0;
    }
    std::cout << std::left << std::setw(24) << "level" << std::right << std::setw(8) << "optimal" << std::setw(12)
              << "expanded" << std::setw(12) << "stored" << std::setw(12) << "time (ms)" << std::setw(14)
              << "states/s" << "\n";
    for (const auto& o : outcomes) {
        total += o.seconds;
        expanded += o.expanded;
        std::cout << std::left << std::setw(24) << o.name << std::right << std::setw(8)
                  << (o.outcome == "solved" ? std::to_string(o.moves.size()) : o.outcome) << std::setw(12) << o.expanded
                  << std::setw(12) << o.stored << std::setw(12) << std::fixed << std::setprecision(3)
                  << o.seconds * 1e3 << std::setw(14) << std::setprecision(0)
                  << (o.seconds > 0 ? o.expanded / o.seconds : 0.0) << "\n";
    }
    std::cout << std::left << std::setw(24) << "total" << std::right << std::setw(8) << "" << std::setw(12) << expanded
              << std::setw(12) << "" << std::setw(12) << std::fixed << std::setprecision(3) << total * 1e3 << "\n";
    std::cout << outcomes.size() - failures << " of " << levels.size() << " levels solved optimally ("
              << (options.interp ? "interpreter" : "generated kernels") << ", " << (options.bfs ? "BFS" : "A*")
              << "), every solution replayed\n";
    return failures ? 1 : 0;
}

}  // namespace

int GridBackend::check(pipeline::CompilationUnit& unit, DiagnosticEngine& loaded, const Args& args) const {
    loaded.print(std::cerr);
    const ir::Puzzle& puzzle = unit.puzzle();
    GridOptions options;
    if (auto rc = parseOptions("check", args, options)) return *rc;
    if (options.levelFiles.empty() && options.levelDirs.empty()) {
        std::cout << "grid puzzle " << puzzle.name << ": " << puzzle.grid.directions.size() << " directions, "
                  << puzzle.grid.colours.size() << " colours, " << puzzle.grid.levelPaths.size() << " levels\n";
        return 0;
    }
    DiagnosticEngine diags;
    std::vector<ir::Level> levels;
    bool ok = readLevels(puzzle, options, levels, diags);
    diags.print(std::cerr);
    if (!ok) return 1;
    for (const auto& level : levels) {
        auto layout = analysis::gridLayout(puzzle.grid, level);
        std::cout << "level " << level.name << ": " << level.width << " x " << level.height << ", "
                  << level.goals.size() << " goals, " << level.actors.size() << " actors; " << layout.describe()
                  << "\n";
    }
    return 0;
}

namespace {

int solveGridPuzzle(const ir::Puzzle& puzzle, const Args& args) {
    GridOptions options;
    if (auto rc = parseOptions("solve", args, options)) return *rc;
    if (options.levelFiles.empty() && options.levelDirs.empty()) {
        // No level named: the levels the definition lists, as a table.
        if (puzzle.grid.levelPaths.empty()) {
            std::cerr << "pzc solve: error: give --level FILE or --levels DIR\n" << kGridUsage;
            return 2;
        }
        options.levelFiles = puzzle.grid.levelPaths;
        options.tableForOne = true;
    }
    return solveLevels(puzzle, options);
}

}  // namespace

int GridBackend::solve(pipeline::CompilationUnit& unit, const Args& args) const {
    return solveGridPuzzle(unit.puzzle(), args);
}

// pzc solve-dir DEF DIR [options]: `args` after DEF.
int GridBackend::solveFolder(pipeline::CompilationUnit& unit, const Args& args) const {
    // A folder, or level files named one by one.
    Args rest;
    size_t i = 0;
    for (; i < args.size() && args[i].rfind("--", 0) != 0; ++i) {
        std::error_code ec;  // a name the OS refuses (too long, ...) is read as a level file, which reports it
        rest.push_back(std::filesystem::is_directory(args[i], ec) ? "--levels" : "--level");
        rest.push_back(args[i]);
    }
    rest.insert(rest.end(), args.begin() + i, args.end());
    rest.push_back("--table");
    return solveGridPuzzle(unit.puzzle(), rest);
}

const char* GridBackend::solveUsage() const { return kGridUsage; }

// note [library sources]: the levels in NS::levels, GridLevelsSolver over them.
int GridBackend::generate(pipeline::CompilationUnit& unit, const GenerateRequest& request) const {
    const ir::Puzzle& puzzle = unit.puzzle();
    for (const auto& s : request.solvers)
        if (!s.empty()) {
            std::cerr << "pzc generate: error: " << puzzle.name << " is a grid-actor puzzle: it declares no solver '" << s
                      << "' (its library solves its levels)\n";
            return 2;
        }
    GridOptions options;
    options.levelFiles = request.levelFiles;
    options.levelDirs = request.levelDirs;
    if (options.levelFiles.empty() && options.levelDirs.empty()) options.levelFiles = puzzle.grid.levelPaths;
    DiagnosticEngine diags;
    std::vector<ir::Level> levels;
    bool ok = readLevels(puzzle, options, levels, diags);
    diags.print(std::cerr);
    if (!ok) return 1;
    if (levels.empty()) {
        std::cerr << "pzc generate: error: no levels: give --level FILE or --levels DIR\n";
        return 2;
    }
    if (request.inputs)
        for (const auto& level : levels) request.inputs->push_back(level.file);
    const std::vector<codegen::LibrarySolver> solvers = {{"", "levels"}};
    const std::string source = std::filesystem::path(puzzle.file).filename().string();
    std::ostringstream cpp;
    cpp << "// generated by pzc from " << codegen::commentText(source) << " — do not edit\n";
    cpp << "// The levels of library " << request.name << " (pzc generate; note [library sources]).\n";
    cpp << "#include \"" << request.name << ".hpp\"\n\n#include \"pz/api/grid.hpp\"\n\n";
    cpp << generatedSource(puzzle, levels, false, false, request.ns + "::levels") << "\n";
    cpp << "namespace " << request.ns << " {\n\n";
    cpp << "pz::api::Result<std::unique_ptr<pz::api::Solver>> makeSolver(const pz::api::SolverOptions& options,\n";
    cpp << "                                                              const std::string& solver) {\n";
    cpp << "    if (solver.empty()) return std::unique_ptr<pz::api::Solver>(new pz::api::GridLevelsSolver<levels::Library>(options));\n";
    cpp << codegen::emitUnknownSolver(puzzle.name, solvers);
    cpp << "}\n\n}  // namespace " << request.ns << "\n";
    codegen::LibrarySources sources;
    sources.header = codegen::emitLibraryHeader(request.name, request.ns, puzzle.name, "grid-actor", solvers, source);
    sources.source = cpp.str();
    sources.cHeader = codegen::emitLibraryCHeader(request.name, puzzle.name, solvers, source);
    sources.cEntry = codegen::emitCFactory(request.name, request.ns);
    return writeLibrarySources(request, sources);
}

int GridBackend::build(pipeline::CompilationUnit& unit, const std::string&, const std::string&) const {
    return refuse("build", unit, "use 'pzc solve FILE --level LEVEL'");
}

int GridBackend::inspect(pipeline::CompilationUnit& unit, const InspectRequest&) const {
    return refuse("inspect", unit, "inspect shows permutation puzzles");
}

}  // namespace pz::driver
