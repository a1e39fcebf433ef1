// pzc solve FILE (--scramble "MOVES" | --state "NUMBERS" | --random N [--seed S])
//                [--json] [--threads N]
// Builds (or reuses) the generated solver for FILE, solves each position
// optimally, replays every solution through the IR element algebra and
// prints it in the puzzle's move names. Grid-actor puzzles are handed to
// solveGridPuzzle.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "compiler/analysis/puzzle_analysis.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/driver/grid_commands.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/perm_build.hpp"
#include "compiler/driver/tws_support.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"

namespace pz::driver {

namespace {

const char* kUsage =
    "usage: pzc solve FILE (--scramble \"MOVES\" | --state \"NUMBERS\" | --random N [--seed S]) [--json] [--threads N]\n"
    "       pzc solve FILE.tws --scramble-file SCRAMBLES.scr   (twsearch/ksolve scramble file)\n"
    "  a state is the element's numbers: each orbit's permutation (perm[p] = solved\n"
    "  position of the piece at p), then each oriented orbit's orientations\n";

std::vector<long> elementNumbers(const ir::Puzzle& p, const ir::Element& e) {
    std::vector<long> v;
    for (size_t o = 0; o < p.orbits.size(); ++o) v.insert(v.end(), e.perm[o].begin(), e.perm[o].end());
    for (size_t o = 0; o < p.orbits.size(); ++o)
        if (p.orbits[o].orient > 1) v.insert(v.end(), e.ori[o].begin(), e.ori[o].end());
    return v;
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
        std::vector<bool> seen(p.orbits[o].size, false);
        for (int q = 0; q < p.orbits[o].size; ++q, ++i) {
            if (v[i] < 0 || v[i] >= p.orbits[o].size || seen[v[i]]) {
                why = "orbit " + p.orbits[o].name + " is not a permutation (number " + std::to_string(i + 1) + " is " +
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

std::string jsonEscape(const std::string& s) {
    std::string r;
    for (char c : s) r += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return r;
}

}  // namespace

int runSolve(const Args& args) {
    if (args.empty() || args[0] == "--help") {
        (args.empty() ? std::cerr : std::cout) << kUsage;
        return args.empty() ? 2 : 0;
    }
    const std::string file = args[0];
    ir::Puzzle puzzle;
    codegen::SolverModel model;
    bool isGrid = false;
    if (!loadSolverModel(file, puzzle, model, isGrid)) return 1;
    if (isGrid) return solveGridPuzzle(puzzle, args);

    std::vector<std::string> scrambles, states, scrambleFiles;
    std::string randomCount, seed = "1", threads;
    bool json = false;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        bool hasValue = i + 1 < args.size();
        if (a == "--json") {
            json = true;
        } else if (a == "--scramble" && hasValue) {
            scrambles.push_back(args[++i]);
        } else if (a == "--scramble-file" && hasValue) {
            scrambleFiles.push_back(args[++i]);
        } else if (a == "--state" && hasValue) {
            states.push_back(args[++i]);
        } else if (a == "--random" && hasValue) {
            randomCount = args[++i];
        } else if (a == "--seed" && hasValue) {
            seed = args[++i];
        } else if (a == "--threads" && hasValue) {
            threads = args[++i];
        } else {
            std::cerr << kUsage;
            return 2;
        }
    }
    if (scrambles.empty() && states.empty() && scrambleFiles.empty() && randomCount.empty()) {
        std::cerr << kUsage;
        return 2;
    }
    for (const std::string* n : {&randomCount, &seed, &threads})
        if (!n->empty() && n->find_first_not_of("0123456789") != std::string::npos) {
            std::cerr << "pzc solve: error: '" << *n << "' is not a non-negative number\n";
            return 2;
        }

    // Positions: scrambles through the IR evaluator, states checked against the group.
    analysis::PuzzleAnalysis groups(puzzle);
    std::vector<ir::Element> positions;
    DiagnosticEngine diags;
    for (const auto& s : scrambles) {
        auto e = ir::evaluateText(puzzle, s, "<scramble>", diags);
        if (!e) {
            diags.print(std::cerr);
            return 1;
        }
        if (e->mirror) {
            std::cerr << "pzc solve: error: the scramble evaluates to a mirror symmetry, not a state\n";
            return 1;
        }
        positions.push_back(*e);
    }
    for (const auto& s : states) {
        std::istringstream in(s);
        std::vector<long> nums;
        std::string tok;
        while (in >> tok) {
            char* end = nullptr;
            long v = std::strtol(tok.c_str(), &end, 10);
            if (*end || tok.empty()) {
                std::cerr << "pzc solve: error: bad state: '" << tok << "' is not a number\n";
                return 1;
            }
            nums.push_back(v);
        }
        std::string why;
        auto e = elementFromNumbers(puzzle, nums, why);
        if (!e) {
            std::cerr << "pzc solve: error: bad state: " << why << "\n";
            return 1;
        }
        if (!groups.contains(*e)) {
            std::cerr << "pzc solve: error: bad state: it cannot be reached by the moves of " << puzzle.name << "\n";
            return 1;
        }
        positions.push_back(*e);
    }
    for (const auto& f : scrambleFiles)
        if (!loadTwsScrambleFile(puzzle, groups, f, positions, diags)) {
            diags.print(std::cerr);
            return 1;
        }

    // Build or reuse the generated solver.
    auto bin = compileSolver(model, file);
    if (!bin) return 1;

    // Run it: positions on stdin, machine-readable results on stdout.
    std::string cmd = "'" + *bin + "' --machine";
    namespace fs = std::filesystem;
    fs::path input;
    if (!positions.empty()) {
        input = fs::temp_directory_path() / ("pzc-solve-" + std::to_string(::getpid()) + ".txt");
        std::ofstream out(input);
        for (const auto& e : positions) {
            for (long n : elementNumbers(puzzle, e)) out << n << ' ';
            out << '\n';
        }
        cmd += " --stdin < '" + input.string() + "'";
    } else {
        cmd += " --random " + randomCount + " --seed " + seed + " < /dev/null";
    }
    if (!threads.empty()) cmd += " --threads " + threads;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    if (!pipe) {
        std::cerr << "pzc solve: error: cannot run the solver " << *bin << "\n";
        return 1;
    }
    int status = 0;
    char buf[1 << 16];
    while (std::fgets(buf, sizeof buf, pipe)) {
        // "P <numbers> ; M <moves> ; N <nodes> ; S <seconds>"
        std::istringstream line(buf);
        std::string tag, tok;
        std::vector<long> nums;
        std::vector<int> moves;
        std::string nodes, seconds;
        line >> tag;
        while (line >> tok && tok != ";") nums.push_back(std::stol(tok));
        line >> tag;
        while (line >> tok && tok != ";") moves.push_back(std::stoi(tok));
        line >> tag >> nodes >> tok >> tag >> seconds;
        std::string why;
        auto start = elementFromNumbers(puzzle, nums, why);
        if (!start) {
            std::cerr << "pzc solve: internal error: the solver printed a bad state: " << why << "\n";
            status = 3;
            break;
        }
        // Verify by replay through the IR element algebra before printing.
        ir::Element replay = *start;
        std::string text;
        for (size_t i = 0; i < moves.size(); ++i) {
            if (moves[i] < 0 || moves[i] >= static_cast<int>(model.canon.searchMoves.size())) {
                status = 3;
                break;
            }
            const auto& mv = puzzle.moves[model.canon.searchMoves[moves[i]]];
            replay = ir::compose(replay, mv.effect, puzzle.orbits);
            text += (i ? " " : "") + mv.name;
        }
        if (status == 3 || !ir::isIdentity(replay)) {
            std::cerr << "pzc solve: internal error: the solution does not solve the position\n";
            status = 3;
            break;
        }
        if (json) {
            std::cout << "{\"solution\": \"" << jsonEscape(text) << "\", \"length\": " << moves.size()
                      << ", \"optimal\": true, \"nodes\": " << nodes << ", \"seconds\": " << seconds << "}\n";
        } else {
            std::cout << (text.empty() ? "(already solved)" : text) << "\n  " << moves.size() << " moves (optimal), "
                      << nodes << " nodes, " << seconds << " s\n";
        }
        std::cout.flush();
    }
    int rc = ::pclose(pipe);
    if (!input.empty()) fs::remove(input);
    if (status == 0 && rc != 0) status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 1;
    return status;
}

}  // namespace pz::driver
