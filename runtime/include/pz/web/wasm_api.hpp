// pz/web/wasm_api.hpp — the library API (pz/api/solver.hpp) as the C
// functions a WebAssembly module exports to JavaScript (note [webassembly
// target] in compiler/driver/wasm_build.cpp).
//
// `pzc build FILE --target wasm` compiles one translation unit: the
// generated library in namespace PZ_WEB_LIBRARY, then this header. Each
// function takes strings and numbers and answers one JSON object as a
// string, valid until the next call: {"ok": true, ...} or {"ok": false,
// "code": N, "codeName": "bad input", "error": "bad scramble: ..."} (codes
// are pz::api::ErrorCode's). JavaScript (pzc.mjs) wraps them in a class.
//
// A position crosses the boundary as its text: a state's numbers
// (Solver::format, which parseState reads back: permutation puzzles,
// n-puzzles), or a level's name then its numbers (a grid level: the
// indices of the moves pressed since its start; a sliding-block board: its
// pieces' anchors).
//
// One solver per module instance; everything runs on the calling thread
// (the module is built without threads: a page runs it in a Web Worker).
#pragma once

#ifndef PZ_WEB_LIBRARY
#error "define PZ_WEB_LIBRARY as the generated library's namespace before including pz/web/wasm_api.hpp"
#endif

#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pz/api/grid.hpp"
#include "pz/api/solver.hpp"
#include "pz/support/result_json.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
// Reports a table build's progress to the page (Module.pzOnProgress);
// nonzero back means "cancel the build".
EM_JS(int, pz_web_progress, (const char* json), {
    return Module["pzOnProgress"] ? (Module["pzOnProgress"](UTF8ToString(json)) ? 1 : 0) : 0;
});
#define PZ_WEB_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
inline int pz_web_progress(const char*) { return 0; }
#define PZ_WEB_EXPORT extern "C"
#endif

namespace pz::web {

using api::ErrorCode;
using api::Position;
using api::Solver;

struct Instance {
    std::unique_ptr<Solver> solver;
    std::shared_ptr<api::CancelToken> cancel = std::make_shared<api::CancelToken>();
    std::string answer;  // the last call's JSON, returned by pointer
};

inline Instance& instance() {
    static Instance one;
    return one;
}

inline const char* answer(std::string json) {
    instance().answer = std::move(json);
    return instance().answer.c_str();
}

inline const char* fail(const api::Error& e) {
    return answer(json::Line()
                      .field("ok", false)
                      .field("code", static_cast<int>(e.code))
                      .field("codeName", api::errorCodeName(e.code))
                      .field("error", e.message)
                      .str());
}

inline const char* fail(ErrorCode code, const std::string& message) { return fail(api::Error{code, message}); }

inline std::string stringArray(const std::vector<std::string>& items) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        json::appendString(out, items[i]);
    }
    return out + "]";
}

inline std::string infoJson(const api::PuzzleInfo& info) {
    std::string orbits = "[";
    for (size_t i = 0; i < info.orbits.size(); ++i) {
        const auto& o = info.orbits[i];
        orbits += (i ? ", " : "") + json::Line()
                                         .field("name", o.name)
                                         .field("size", o.size)
                                         .field("orientations", o.orientations)
                                         .str();
    }
    orbits += "]";
    std::string solvers = "[";
    for (size_t i = 0; i < info.solvers.size(); ++i)
        solvers += (i ? ", " : "") +
                   json::Line().field("name", info.solvers[i].name).field("kind", info.solvers[i].kind).str();
    solvers += "]";
    return json::Line()
        .field("puzzle", info.name)
        .field("family", info.family)
        .raw("orbits", orbits)
        .raw("moves", stringArray(info.moves))
        .raw("levels", stringArray(info.levels))
        .raw("solver", json::Line().field("name", info.solver.name).field("kind", info.solver.kind).str())
        .raw("solvers", solvers)
        .str();
}

// A position as text (the header's convention) and back.
inline std::string positionText(const Position& p) {
    if (p.level.empty()) return instance().solver->format(p);
    std::string out = p.level;
    for (int m : p.numbers) out += " " + std::to_string(m);
    return out;
}

inline api::Result<Position> positionFrom(std::string_view text) {
    Solver& s = *instance().solver;
    if (s.info().levels.empty()) return s.parseState(text);
    // A level's name (no spaces in level names) then its numbers: the moves
    // pressed (grid-actor) or the pieces' anchors (sliding-block boards),
    // which the solver checks (isSolved, in positionAnswer, replays them).
    std::istringstream in{std::string(text)};
    std::string level;
    in >> level;
    auto p = s.parseLevel(level);
    if (!p) return p;
    std::vector<int> numbers;
    for (int m; in >> m;) numbers.push_back(m);
    if (!in.eof()) return api::makeError(ErrorCode::BadInput, "bad position: '" + std::string(text) + "'");
    if (!numbers.empty()) p->numbers = std::move(numbers);
    return p;
}

inline const char* positionAnswer(const api::Result<Position>& p) {
    if (!p) return fail(p.error());
    auto solved = instance().solver->isSolved(*p);
    if (!solved) return fail(solved.error());
    // A grid position's actors, for its picture: [[colour, x, y], ...].
    std::string actors = "null";
    if (const auto* grid = dynamic_cast<const api::GridPositions*>(instance().solver.get())) {
        auto cells = grid->actors(*p);
        if (!cells) return fail(cells.error());
        actors = "[";
        for (size_t i = 0; i < cells->size(); ++i) {
            const auto& c = (*cells)[i];
            actors += (i ? ", [" : "[") + std::to_string(c.colour) + ", " + std::to_string(c.x) + ", " +
                      std::to_string(c.y) + "]";
        }
        actors += "]";
    }
    return answer(json::Line()
                      .field("ok", true)
                      .field("position", positionText(*p))
                      .field("text", instance().solver->format(*p))
                      .field("numbers", p->numbers)
                      .field("level", p->level)
                      .field("solved", *solved)
                      .raw("actors", actors)
                      .str());
}

inline bool opened() { return instance().solver != nullptr; }

}  // namespace pz::web

// Makes the module's solver (`solver`: one of the library's, "" the
// default); answers {"ok": true, "info": {puzzle, family, orbits, moves,
// levels, solver, solvers}}. tableDir: where prepare() looks for table files
// (the page writes fetched ones there); cacheTables 0: build in memory only.
PZ_WEB_EXPORT const char* pzw_open(const char* solver, const char* tableDir, int cacheTables) {
    using namespace pz::web;
    Instance& in = instance();
    pz::api::SolverOptions options;
    options.threads = 1;  // no threads in this module
    options.tableDir = tableDir && *tableDir ? tableDir : "/tables";
    options.cacheTables = cacheTables != 0;
    // The budget the 32-bit memory allows beside the search (2 GiB at most).
    options.memoryBytes = uint64_t{1792} << 20;
    options.cancel = in.cancel;
    options.progress = [cancel = in.cancel](const pz::api::BuildProgress& p) {
        const std::string json = pz::json::Line()
                                     .field("table", p.table)
                                     .field("depth", p.depth)
                                     .field("fraction", p.fraction, 4)
                                     .field("elapsed", p.elapsed, 3)
                                     .field("levelEta", p.levelEta, 3)
                                     .field("levelDone", p.levelDone)
                                     .field("tableDone", p.tableDone)
                                     .str();
        if (pz_web_progress(json.c_str())) cancel->cancel();
    };
    auto made = PZ_WEB_LIBRARY::makeSolver(options, solver ? solver : "");
    if (!made) return fail(made.error());
    in.solver = std::move(made).value();
    return answer(pz::json::Line().field("ok", true).raw("info", infoJson(in.solver->info())).str());
}

// Loads the tables from tableDir, or builds them (progress through
// Module.pzOnProgress, which may cancel).
PZ_WEB_EXPORT const char* pzw_prepare() {
    using namespace pz::web;
    if (!opened()) return fail(ErrorCode::NotPrepared, "no solver: call pzw_open first");
    instance().cancel->reset();
    if (auto st = instance().solver->prepare(); !st) return fail(st.error());
    return answer(pz::json::Line().field("ok", true).str());
}

// A position: kind "scramble" (text: moves), "state" (numbers), "level"
// (a name), "solved", "random" (text: the seed) or "position" (text as
// this module answers it). Answers {"ok", "position", "numbers", "level",
// "solved"}.
PZ_WEB_EXPORT const char* pzw_position(const char* kind, const char* text) {
    using namespace pz::web;
    if (!opened()) return fail(ErrorCode::NotPrepared, "no solver: call pzw_open first");
    Solver& s = *instance().solver;
    const std::string_view k = kind ? kind : "", t = text ? text : "";
    if (k == "scramble") return positionAnswer(s.parseScramble(t));
    if (k == "state") return positionAnswer(s.parseState(t));
    if (k == "level") return positionAnswer(s.parseLevel(t));
    if (k == "solved") return positionAnswer(pz::api::Result<Position>(s.solved()));
    if (k == "position") return positionAnswer(positionFrom(t));
    if (k == "random") {
        uint64_t seed = 0;
        for (char c : t) {
            if (c < '0' || c > '9') return fail(ErrorCode::BadInput, "bad seed: '" + std::string(t) + "'");
            seed = seed * 10 + static_cast<uint64_t>(c - '0');
        }
        return positionAnswer(s.randomState(seed));
    }
    return fail(ErrorCode::BadInput, "unknown position kind '" + std::string(k) + "'");
}

// `position` followed by `moves` (names, as a scramble).
PZ_WEB_EXPORT const char* pzw_apply(const char* position, const char* moves) {
    using namespace pz::web;
    if (!opened()) return fail(ErrorCode::NotPrepared, "no solver: call pzw_open first");
    auto p = positionFrom(position ? position : "");
    if (!p) return fail(p.error());
    return positionAnswer(instance().solver->apply(*p, moves ? moves : ""));
}

// Solves `position`: goal 0 default, 1 first solution, 2 optimal;
// maxLength < 0, maxNodes 0 and maxSeconds 0 mean no limit. Answers
// {"ok", "moves": [indices], "names": [...], "length", "optimal",
// "phases", "nodes", "seconds"}; the solution is replayed from the
// position before it is returned.
PZ_WEB_EXPORT const char* pzw_solve(const char* position, int goal, int maxLength, double maxNodes,
                                    double maxSeconds) {
    using namespace pz::web;
    if (!opened()) return fail(ErrorCode::NotPrepared, "no solver: call pzw_open first");
    auto p = positionFrom(position ? position : "");
    if (!p) return fail(p.error());
    if (goal < 0 || goal > 2) return fail(ErrorCode::BadInput, "goal must be 0, 1 or 2");
    if (!(maxNodes >= 0) || !(maxSeconds >= 0)) return fail(ErrorCode::BadInput, "limits must not be negative");
    pz::api::Limits limits;
    limits.goal = static_cast<pz::api::Limits::Goal>(goal);
    limits.maxLength = maxLength;
    limits.maxNodes = static_cast<uint64_t>(maxNodes);
    limits.maxSeconds = maxSeconds;
    Solver& s = *instance().solver;
    auto sol = s.solve(*p, limits);
    if (!sol) return fail(sol.error());
    auto end = s.applyMoves(*p, sol->moves);
    auto solved = end ? s.isSolved(*end) : pz::api::Result<bool>(end.error());
    if (!solved || !*solved)
        return fail(ErrorCode::Internal, "internal error: the solution does not replay to solved");
    return answer(pz::json::Line()
                      .field("ok", true)
                      .field("moves", sol->moves)
                      .raw("names", stringArray(sol->names))
                      .field("length", sol->length)
                      .field("optimal", sol->optimal)
                      .field("phases", sol->phases)
                      .field("nodes", sol->nodes)
                      .field("seconds", sol->seconds, 6)
                      .str());
}
