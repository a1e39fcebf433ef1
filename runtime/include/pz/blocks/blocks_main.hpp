// pz/blocks/blocks_main.hpp — the main() of a generated sliding-block solver
// with a small state space: `return pz::blocks::blocksMain<Traits>(argc, argv);`
//
//   solver [FILE] [--count] [--json | --machine] [--max-states N] [--only NAME]...
//
// Reads levels in the text form of note [blocks level text] (pz/blocks/board.hpp)
// from FILE, or stdin when there is none (or FILE is `-`), and searches each
// breadth first (note [blocks small space]). Every solution is replayed
// (`replay`: each move's legality, the goal at the end) before it is
// printed. With --json or --machine, one JSON line per level (note [result
// protocol] in pz/support/result_json.hpp):
//
//   {"type": "level", "name": "...", "outcome": "solved|unsolvable|limit",
//    "moves": ["A+2", "K-1", ...], "length": L, "states": N,
//    "reachable": R, "seconds": S}
//
// "moves" are move names (note [blocks move names]), present when solved;
// "length" the number of moves (solved only); "states" the states stored
// when the search stopped; "reachable" the cluster size, present when the
// whole cluster was searched (always with --count unless the limit stopped
// it; also when a level is unsolvable). Without --json, a line of text per
// level and its moves.
//   --count         search the whole cluster after the goal (the reachable count)
//   --max-states N  stop beyond N stored states (outcome "limit")
//   --only NAME     just the levels of this name (repeatable)
// Exit codes: 0 every level answered (each outcome in its line), 1 the level
// input was rejected (a message on stderr, nothing searched), 2 usage,
// 3 internal error (a solution that does not replay), 4 out of memory.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "pz/blocks/board.hpp"
#include "pz/blocks/small_space.hpp"
#include "pz/support/result_json.hpp"

namespace pz::blocks {

// The JSON line of one level's result (see the top of this file).
template <class T>
std::string resultLine(const Level& level, const SearchResult& r) {
    const char* outcome = r.outcome == SearchResult::Outcome::Solved       ? "solved"
                          : r.outcome == SearchResult::Outcome::Unsolvable ? "unsolvable"
                                                                           : "limit";
    std::string head = json::Line().field("type", "level").field("name", level.name).field("outcome", outcome).str();
    head.pop_back();  // the closing brace: the string array is written here
    if (r.outcome == SearchResult::Outcome::Solved) {
        head += ", \"moves\": [";
        for (size_t i = 0; i < r.moves.size(); ++i) {
            if (i) head += ", ";
            json::appendString(head, moveName<T>(level, r.moves[i]));
        }
        head += "]";
    }
    json::Line tail;
    if (r.outcome == SearchResult::Outcome::Solved) tail.field("length", static_cast<unsigned long long>(r.moves.size()));
    tail.field("states", static_cast<unsigned long long>(r.states));
    if (r.complete) tail.field("reachable", static_cast<unsigned long long>(r.reachable));
    tail.field("seconds", r.seconds, 9);
    return head + ", " + tail.str().substr(1);
}

template <class T>
std::string resultText(const Level& level, const SearchResult& r) {
    std::string s = level.name + ": ";
    char buf[160];
    if (r.outcome == SearchResult::Outcome::Solved)
        std::snprintf(buf, sizeof buf, "solved in %zu moves", r.moves.size());
    else
        std::snprintf(buf, sizeof buf, "%s", r.outcome == SearchResult::Outcome::Unsolvable ? "unsolvable" : "state limit reached");
    s += buf;
    std::snprintf(buf, sizeof buf, ", %llu states", static_cast<unsigned long long>(r.states));
    s += buf;
    if (r.complete) {
        std::snprintf(buf, sizeof buf, ", %llu reachable", static_cast<unsigned long long>(r.reachable));
        s += buf;
    }
    std::snprintf(buf, sizeof buf, ", %.6f s", r.seconds);
    s += buf;
    if (r.outcome == SearchResult::Outcome::Solved && !r.moves.empty()) {
        s += "\n ";
        for (const auto& m : r.moves) s += " " + moveName<T>(level, m);
    }
    return s;
}

template <class T>
int blocksMainImpl(int argc, char** argv) {
    SearchOptions options;
    bool json = false;
    std::string file;
    std::vector<std::string> only;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--count") {
            options.countAll = true;
        } else if (a == "--json" || a == "--machine") {
            json = true;
        } else if (a == "--only" && i + 1 < argc) {
            only.push_back(argv[++i]);
        } else if (a == "--max-states" && i + 1 < argc) {
            std::string v = argv[++i];
            if (v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != std::string::npos || std::stoull(v) == 0) {
                std::fprintf(stderr, "%s: error: --max-states needs a positive whole number\n", argv[0]);
                return 2;
            }
            options.maxStates = std::stoull(v);
        } else if (file.empty() && (a == "-" || a.rfind("--", 0) != 0)) {
            file = a;
        } else {
            std::fprintf(stderr, "usage: %s [FILE] [--count] [--json|--machine] [--max-states N] [--only NAME]...\n", argv[0]);
            return 2;
        }
    }
    std::vector<Level> levels;
    try {
        if (file.empty() || file == "-") {
            levels = parseLevels<T>(std::cin);
        } else {
            std::ifstream in(file);
            if (!in) {
                std::fprintf(stderr, "%s: error: cannot read %s\n", argv[0], file.c_str());
                return 1;
            }
            levels = parseLevels<T>(in);
        }
    } catch (const std::runtime_error& e) {
        std::fprintf(stderr, "%s: error: %s: %s\n", argv[0], file.empty() ? "<stdin>" : file.c_str(), e.what());
        return 1;
    }
    for (const auto& level : levels) {
        if (!only.empty()) {
            bool wanted = false;
            for (const auto& o : only) wanted |= o == level.name;
            if (!wanted) continue;
        }
        SearchResult r = search<T>(level, options);
        std::string why;
        if (r.outcome == SearchResult::Outcome::Solved && !replay<T>(level, r.moves, &why)) {
            std::fprintf(stderr, "%s: internal error: level %s: the solution does not replay: %s\n", argv[0], level.name.c_str(), why.c_str());
            return 3;
        }
        std::string line = json ? resultLine<T>(level, r) : resultText<T>(level, r);
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    }
    return 0;
}

template <class T>
int blocksMain(int argc, char** argv) {
    try {
        return blocksMainImpl<T>(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: error: out of memory\n", argv[0]);
        return 4;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: internal error: %s\n", argv[0], e.what());
        return 3;
    }
}

}  // namespace pz::blocks
