// The sliding-block library API (pz/api/blocks.hpp) on libraries pzc
// generate wrote at build time (tests/blocks/CMakeLists.txt): the 8-puzzle's
// IDA* solvers against a breadth-first search of all 181,440 positions, a
// 15-puzzle scramble, every Rush Hour database board of puzzles/rushhour
// (lengths as published) and Klotski's classic 81 path moves; positions,
// moves by name and by code, limits, cancellation and bad input as errors.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "eight.hpp"
#include "fifteen.hpp"
#include "klotski.hpp"
#include "rushhour.hpp"

using namespace pz;

namespace {

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        char tmpl[] = "/tmp/pz-blocks-api-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

std::unique_ptr<api::Solver> make(api::Result<std::unique_ptr<api::Solver>> r) {
    REQUIRE(r);
    return std::move(r).value();
}

// Every 8-puzzle position's distance, breadth first through applyMoves.
std::map<std::vector<int>, int> eightDistances(const api::Solver& s) {
    std::map<std::vector<int>, int> depth{{s.solved().numbers, 0}};
    std::vector<api::Position> frontier{s.solved()};
    for (int d = 1; !frontier.empty(); ++d) {
        std::vector<api::Position> next;
        for (const auto& p : frontier)
            for (int m = 0; m < 4; ++m)
                if (auto c = s.applyMoves(p, {m}); c && depth.emplace(c->numbers, d).second) next.push_back(*c);
        frontier = std::move(next);
    }
    return depth;
}

}  // namespace

TEST_CASE("blocks API: the 8-puzzle's solvers are optimal against BFS", "[blocks][api]") {
    TempDir dir;
    api::SolverOptions o;
    o.tableDir = dir.path.string();
    o.threads = 2;
    auto pdb = make(eight::makeSolver(o));
    auto md = make(eight::makeSolver(o, "manhattan"));
    CHECK(pdb->info().family == "sliding-block");
    CHECK(pdb->info().solver.name == "pdb");
    CHECK(pdb->info().moves == std::vector<std::string>{"U", "D", "L", "R"});
    REQUIRE(eight::kSolvers.size() == 2);  // bfs solves levels: not in the library

    auto early = pdb->solve(pdb->solved());
    REQUIRE_FALSE(early);
    CHECK(early.error().code == api::ErrorCode::NotPrepared);
    REQUIRE(pdb->prepare());
    REQUIRE(md->prepare());
    CHECK(std::filesystem::directory_iterator(dir.path) != std::filesystem::directory_iterator());  // tables cached

    const auto depth = eightDistances(*pdb);
    REQUIRE(depth.size() == 181440);
    std::vector<api::Position> hardest, sample;
    for (const auto& [numbers, d] : depth)
        if (d == 31) hardest.push_back({"eight", numbers, ""});
    REQUIRE(hardest.size() == 2);
    for (uint64_t seed = 1; seed <= 40; ++seed) sample.push_back(*pdb->randomState(seed));
    sample.insert(sample.end(), hardest.begin(), hardest.end());
    for (const auto& p : sample) {
        const int want = depth.at(p.numbers);
        for (auto* s : {pdb.get(), md.get()}) {
            auto sol = s->solve(p);
            REQUIRE(sol);
            CHECK(sol->length == want);
            CHECK(sol->optimal);
            auto end = s->applyMoves(p, sol->moves);
            REQUIRE(end);
            CHECK(*s->isSolved(*end));
            CHECK(*s->isSolved(*s->apply(p, sol->text())));
        }
    }
    // Solved on two threads at once: the same answers.
    auto all = pdb->solveAll(sample, {}, 2);
    for (size_t i = 0; i < sample.size(); ++i) CHECK(all[i]->length == depth.at(sample[i].numbers));

    // A second solver loads the cached tables: the same lengths.
    auto again = make(eight::makeSolver(o));
    REQUIRE(again->prepare());
    CHECK(again->solve(hardest[0])->length == 31);
}

TEST_CASE("blocks API: pattern-database builds report progress and can be cancelled", "[blocks][api]") {
    TempDir dir;
    api::SolverOptions o;
    o.tableDir = dir.path.string();
    o.threads = 1;
    o.cancel = std::make_shared<api::CancelToken>();
    std::vector<api::BuildProgress> seen;
    bool stopAtThree = true;
    o.progress = [&](const api::BuildProgress& p) {
        seen.push_back(p);
        if (stopAtThree && p.levelDone && p.depth == 3) o.cancel->cancel();  // the first build stops after level 3
    };
    auto s = make(eight::makeSolver(o));
    auto st = s->prepare();
    REQUIRE_FALSE(st);
    CHECK(st.error().code == api::ErrorCode::Cancelled);
    CHECK(std::filesystem::directory_iterator(dir.path) == std::filesystem::directory_iterator());  // nothing cached
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.back().levelDone);
    CHECK(seen.back().depth == 3);
    CHECK(seen.back().table.find("tiles table eight") != std::string::npos);

    // Again, not cancelled: every level reported in order, then the end.
    o.cancel->reset();
    seen.clear();
    stopAtThree = false;
    auto again = make(eight::makeSolver(o));
    REQUIRE(again->prepare());
    int last = 0;
    bool done = false;
    for (const auto& p : seen) {
        if (p.levelDone) {
            CHECK(p.depth >= 1);
            last = p.depth;
        }
        done |= p.tableDone;
    }
    CHECK(last > 3);
    CHECK(done);
    CHECK(again->solve(*again->parseState("1 2 0 3 4 5 6 7 8"))->length == 2);
}

TEST_CASE("blocks API: n-puzzle positions, limits and errors", "[blocks][api]") {
    api::SolverOptions o;
    o.cacheTables = false;
    o.cancel = std::make_shared<api::CancelToken>();
    auto s = make(eight::makeSolver(o, "manhattan"));
    REQUIRE(s->prepare());
    auto p = s->parseScramble("R D R D L");
    REQUIRE(p);
    CHECK(s->format(*p) == "1 4 2 3 5 8 6 0 7");
    auto sol = s->solve(*p);
    REQUIRE(sol);
    CHECK(sol->length == 5);
    CHECK(*s->isSolved(*s->apply(*p, sol->text())));

    auto state = s->parseState("1 2 0 3 4 5 6 7 8");
    REQUIRE(state);
    CHECK(s->solve(*state)->length == 2);  // the blank goes left twice
    auto odd = s->parseState("2 1 0 3 4 5 6 7 8");
    REQUIRE_FALSE(odd);
    CHECK(odd.error().code == api::ErrorCode::BadInput);
    CHECK(odd.error().message.find("parity") != std::string::npos);
    auto off = s->parseScramble("U");
    REQUIRE_FALSE(off);
    CHECK(off.error().message.find("illegal") != std::string::npos);
    CHECK_FALSE(s->parseScramble("R X"));
    CHECK(s->inverse(*p).error().code == api::ErrorCode::Unsupported);
    CHECK(s->parseLevel("x").error().code == api::ErrorCode::Unsupported);
    api::Position other = *p;
    other.puzzle = "fifteen";
    CHECK(s->solve(other).error().code == api::ErrorCode::WrongPuzzle);
    api::Position shortOne = *p;
    shortOne.numbers.pop_back();
    CHECK(s->solve(shortOne).error().code == api::ErrorCode::BadInput);

    const auto far = s->randomState(7);
    const int length = s->solve(*far)->length;
    api::Limits limits;
    limits.maxLength = length - 2;
    auto capped = s->solve(*far, limits);
    REQUIRE_FALSE(capped);
    CHECK(capped.error().code == api::ErrorCode::NoSolution);
    CHECK(capped.error().message.find("moves or fewer") != std::string::npos);
    limits.maxLength = length;
    CHECK(s->solve(*far, limits)->length == length);
    api::Limits few;
    few.maxNodes = 5;
    CHECK(s->solve(*far, few).error().code == api::ErrorCode::NoSolution);
    o.cancel->cancel();
    CHECK(s->solve(*far).error().code == api::ErrorCode::Cancelled);
}

TEST_CASE("blocks API: a 15-puzzle scramble on Manhattan distance", "[blocks][api]") {
    auto s = make(fifteen::makeSolver({}, "manhattan"));
    REQUIRE(s->prepare());  // no tables
    const std::string scramble = "R R R D D D L L L U U R D R U R D D L L";
    auto p = s->parseScramble(scramble);
    REQUIRE(p);
    auto sol = s->solve(*p);
    REQUIRE(sol);
    CHECK(sol->length <= 20);
    CHECK(sol->length % 2 == 0);  // the scramble's parity: the blank ends 4 cells from home
    CHECK(*s->isSolved(*s->apply(*p, sol->text())));
    // The 7-8 databases' solver is in the library too (its tables are not built here).
    auto korf = make(fifteen::makeSolver({}, "korf"));
    CHECK(korf->info().solver.kind == "optimal");
    CHECK_FALSE(fifteen::makeSolver({}, "nope"));
}

TEST_CASE("blocks API: Rush Hour database boards", "[blocks][api]") {
    auto s = make(rushhour::makeSolver());
    REQUIRE(s->prepare());
    std::ifstream db("puzzles/rushhour/levels.txt");
    std::vector<int> published;
    for (std::string line; std::getline(db, line);)
        if (!line.empty() && line[0] != '#') published.push_back(std::stoi(line));
    const auto& levels = s->info().levels;
    REQUIRE(levels.size() == published.size());
    REQUIRE(levels.size() >= 5);
    for (size_t i = 0; i < levels.size(); ++i) {
        auto p = s->parseLevel(levels[i]);
        REQUIRE(p);
        CHECK_FALSE(*s->isSolved(*p));
        auto sol = s->solve(*p);
        REQUIRE(sol);
        CHECK(sol->length == published[i]);
        // By name and by code, the moves reach a goal.
        auto byName = s->apply(*p, sol->text());
        REQUIRE(byName);
        CHECK(*s->isSolved(*byName));
        auto byCode = s->applyMoves(*p, sol->moves);
        REQUIRE(byCode);
        CHECK(byCode->numbers == byName->numbers);
        // Half way, the rest is the other half.
        std::vector<int> first(sol->moves.begin(), sol->moves.begin() + sol->length / 2);
        auto mid = s->applyMoves(*p, first);
        CHECK(s->solve(*mid)->length == sol->length - sol->length / 2);
    }
    auto p = s->parseLevel(levels[0]);
    CHECK_FALSE(s->apply(*p, "A+9"));
    CHECK_FALSE(s->applyMoves(*p, {12345}));
    CHECK(s->parseLevel("no such").error().code == api::ErrorCode::BadInput);
    CHECK(s->randomState(1).error().code == api::ErrorCode::Unsupported);
    api::Limits few;
    few.maxNodes = 10;
    auto limited = s->solve(*p, few);
    REQUIRE_FALSE(limited);
    CHECK(limited.error().message.find("node limit") != std::string::npos);
    api::Position bad = *p;
    bad.numbers[0] = bad.numbers[1];
    CHECK(s->solve(bad).error().code == api::ErrorCode::BadInput);
}

TEST_CASE("blocks API: Klotski's classic layout in 81 path moves", "[blocks][api]") {
    auto s = make(klotski::makeSolver());
    REQUIRE(s->info().levels == std::vector<std::string>{"start"});
    auto p = s->parseLevel("start");
    REQUIRE(p);
    auto sol = s->solve(*p);
    REQUIRE(sol);
    CHECK(sol->length == 81);
    CHECK(*s->isSolved(*s->apply(*p, sol->text())));
}
