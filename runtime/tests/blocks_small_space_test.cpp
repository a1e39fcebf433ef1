// The small-space sliding-block engine (pz/blocks/board.hpp,
// small_space.hpp, blocks_main.hpp) on test-only traits: Rush Hour's
// hardest board (60 moves, cluster 2,332), Klotski in its three metrics
// (25,955 states; 116 / 90 / 81 moves), and small or random boards against
// an independent brute force (cells as a char grid, shapes from strings,
// states as std::map keys) for optimal lengths and cluster sizes.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pz/blocks/blocks_main.hpp"
#include "pz/blocks/board.hpp"
#include "pz/blocks/small_space.hpp"
#include "blocks_fixtures.hpp"
#include "blocks_klotski_literal.hpp"

namespace {

using namespace pz::blocks;
using namespace pz::blocks::fixtures;

// ---- fixtures -------------------------------------------------------------

// 3 wide x 2 high, five distinct 1x1 tiles, goal the solved layout (Full).
template <Metric M>
struct Tiles3x2Traits {
    static constexpr const char* kName = "tiles3x2";
    static constexpr int kWidth = 3, kHeight = 2;
    static constexpr uint64_t kWalls = 0;
    static constexpr ExitSide kExitSide = ExitSide::None;
    static constexpr int kExitOffset = 0;
    static constexpr Metric kMetric = M;
    static constexpr int kTypes = 5;
    static constexpr const char* kTypeNames[kTypes] = {"1", "2", "3", "4", "5"};
    static constexpr const char* kShapes[kTypes] = {"#", "#", "#", "#", "#"};
    static constexpr Axis kAxis[kTypes] = {Axis::Any, Axis::Any, Axis::Any, Axis::Any, Axis::Any};
    static constexpr std::array<std::array<uint64_t, 64>, kTypes> kPlacement = {
        placementsOf(3, 2, 0, "#"), placementsOf(3, 2, 0, "#"), placementsOf(3, 2, 0, "#"), placementsOf(3, 2, 0, "#"),
        placementsOf(3, 2, 0, "#")};
    static constexpr GoalKind kGoalKind = GoalKind::Full;
    static constexpr uint64_t kGoalAnchors[kTypes] = {1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4};
    static constexpr int kExitType = -1;
};

// A 3x3 board (walls optional): a horizontal domino "D", two identical
// 1x1 "s", a 1x1 "t" that moves only vertically, an L; goal: D at (1,2).
template <Metric M, uint64_t Walls = 0, GoalKind G = GoalKind::Place>
struct Domino3x3Traits {
    static constexpr const char* kName = "domino3x3";
    static constexpr int kWidth = 3, kHeight = 3;
    static constexpr uint64_t kWalls = Walls;
    static constexpr ExitSide kExitSide = ExitSide::None;
    static constexpr int kExitOffset = 0;
    static constexpr Metric kMetric = M;
    static constexpr int kTypes = 4;
    static constexpr const char* kTypeNames[kTypes] = {"D", "s", "t", "L"};
    static constexpr const char* kShapes[kTypes] = {"##", "#", "#", "#./##"};
    static constexpr Axis kAxis[kTypes] = {Axis::Any, Axis::Any, Axis::Vertical, Axis::Any};
    static constexpr std::array<std::array<uint64_t, 64>, kTypes> kPlacement = {
        placementsOf(3, 3, Walls, kShapes[0]), placementsOf(3, 3, Walls, kShapes[1]),
        placementsOf(3, 3, Walls, kShapes[2]), placementsOf(3, 3, Walls, kShapes[3])};
    static constexpr GoalKind kGoalKind = G;
    // Full: D at (1,2), the two s at (0,0) and (2,0), t at (1,1), no L.
    static constexpr uint64_t kGoalAnchors[kTypes] = {
        cellBit(3, 1, 2), G == GoalKind::Full ? cellBit(3, 0, 0) | cellBit(3, 2, 0) : 0,
        G == GoalKind::Full ? cellBit(3, 1, 1) : 0, 0};
    static constexpr int kExitType = -1;
};

// A 4x4 board with an exit on any side: the exit car "R" (along the exit's
// axis), horizontal and vertical dominoes "h" and "v" (identical within
// each type), 1x1 walls "x" that never move.
template <ExitSide Side, int Offset, Metric M>
struct ExitTraits {
    static constexpr bool kAcross = Side == ExitSide::Left || Side == ExitSide::Right;
    static constexpr const char* kName = "exit4x4";
    static constexpr int kWidth = 4, kHeight = 4;
    static constexpr uint64_t kWalls = 0;
    static constexpr ExitSide kExitSide = Side;
    static constexpr int kExitOffset = Offset;
    static constexpr Metric kMetric = M;
    static constexpr int kTypes = 4;
    static constexpr const char* kTypeNames[kTypes] = {"R", "h", "v", "x"};
    static constexpr const char* kShapes[kTypes] = {kAcross ? "##" : "#/#", "##", "#/#", "#"};
    static constexpr Axis kAxis[kTypes] = {kAcross ? Axis::Horizontal : Axis::Vertical, Axis::Horizontal,
                                           Axis::Vertical, Axis::Fixed};
    static constexpr std::array<std::array<uint64_t, 64>, kTypes> kPlacement = {
        placementsOf(4, 4, 0, kShapes[0]), placementsOf(4, 4, 0, kShapes[1]), placementsOf(4, 4, 0, kShapes[2]),
        placementsOf(4, 4, 0, kShapes[3])};
    static constexpr GoalKind kGoalKind = GoalKind::Exit;
    static constexpr uint64_t kGoalAnchors[kTypes] = {};
    static constexpr int kExitType = 0;
};

// An 8x8 board of 1x1 pieces: "m" (the goal: the bottom-right corner) and "o".
struct WideTraits {
    static constexpr const char* kName = "wide";
    static constexpr int kWidth = 8, kHeight = 8;
    static constexpr uint64_t kWalls = 0;
    static constexpr ExitSide kExitSide = ExitSide::None;
    static constexpr int kExitOffset = 0;
    static constexpr Metric kMetric = Metric::Step;
    static constexpr int kTypes = 2;
    static constexpr const char* kTypeNames[kTypes] = {"m", "o"};
    static constexpr const char* kShapes[kTypes] = {"#", "#"};
    static constexpr Axis kAxis[kTypes] = {Axis::Any, Axis::Any};
    static constexpr std::array<std::array<uint64_t, 64>, kTypes> kPlacement = {placementsOf(8, 8, 0, "#"),
                                                                                 placementsOf(8, 8, 0, "#")};
    static constexpr GoalKind kGoalKind = GoalKind::Place;
    static constexpr uint64_t kGoalAnchors[kTypes] = {uint64_t(1) << 63, 0};
    static constexpr int kExitType = -1;
};

// ---- the brute force --------------------------------------------------------
// Independent of the engine: shapes decoded from T::kShapes, legality by a
// char grid, canonical states as sorted (type, anchor) vectors in std::map.

struct BruteResult {
    int distance = -1;  // optimal moves to a goal, -1 none
    size_t reachable = 0;
};

template <class T>
BruteResult bruteForce(const Level& level) {
    using Cells = std::vector<std::pair<int, int>>;
    std::vector<Cells> shapes(T::kTypes);
    for (int t = 0; t < T::kTypes; ++t) {
        int x = 0, y = 0;
        for (const char* p = T::kShapes[t]; *p; ++p) {
            if (*p == '/') {
                ++y;
                x = 0;
                continue;
            }
            if (*p == '#') shapes[t].push_back({x, y});
            ++x;
        }
    }
    const int W = T::kWidth, H = T::kHeight;
    using State = std::vector<std::pair<int, int>>;  // (type, anchor) sorted
    auto canon = [](State s) {
        std::sort(s.begin(), s.end());
        return s;
    };
    auto wall = [&](int x, int y) { return (T::kWalls >> (y * W + x)) & 1; };
    // Grid of piece indices (-1 empty, -2 wall); false if anything is off.
    auto grid = [&](const State& s, std::vector<int>& g) {
        g.assign(W * H, -1);
        for (int c = 0; c < W * H; ++c)
            if (wall(c % W, c / W)) g[c] = -2;
        for (int i = 0; i < (int)s.size(); ++i)
            for (auto [dx, dy] : shapes[s[i].first]) {
                int x = s[i].second % W + dx, y = s[i].second / W + dy;
                if (x >= W || y >= H || g[y * W + x] != -1) return false;
                g[y * W + x] = i;
            }
        return true;
    };
    auto fits = [&](const std::vector<int>& g, int type, int i, int x, int y) {
        if (x < 0 || y < 0) return false;
        for (auto [dx, dy] : shapes[type]) {
            int cx = x + dx, cy = y + dy;
            if (cx >= W || cy >= H) return false;
            int v = g[cy * W + cx];
            if (v != -1 && v != i) return false;
        }
        return true;
    };
    auto goal = [&](const State& s) {
        if constexpr (T::kGoalKind == GoalKind::Exit) {
            for (auto [t, a] : s)
                if (t == T::kExitType)
                    for (auto [dx, dy] : shapes[t]) {
                        int x = a % W + dx, y = a / W + dy;
                        const int e = T::kExitOffset;
                        if ((T::kExitSide == ExitSide::Right && x == W - 1 && y == e) ||
                            (T::kExitSide == ExitSide::Left && x == 0 && y == e) ||
                            (T::kExitSide == ExitSide::Top && y == 0 && x == e) ||
                            (T::kExitSide == ExitSide::Bottom && y == H - 1 && x == e))
                            return true;
                    }
            return false;
        } else {
            std::vector<std::set<int>> at(T::kTypes);
            for (auto [t, a] : s) at[t].insert(a);
            for (int t = 0; t < T::kTypes; ++t) {
                std::set<int> want;
                for (int a = 0; a < 64; ++a)
                    if (T::kGoalAnchors[t] >> a & 1) want.insert(a);
                if (T::kGoalKind == GoalKind::Full ? want != at[t] : !std::includes(at[t].begin(), at[t].end(), want.begin(), want.end()))
                    return false;
            }
            return true;
        }
    };
    const int dxs[4] = {-1, 1, 0, 0}, dys[4] = {0, 0, -1, 1};
    auto allowed = [](Axis axis, int d) {
        if (axis == Axis::Fixed) return false;
        if (axis == Axis::Horizontal) return d < 2;
        if (axis == Axis::Vertical) return d >= 2;
        return true;
    };
    State start;
    for (const auto& p : level.pieces) start.push_back({p.type, p.anchor});
    start = canon(start);
    std::map<State, int> dist{{start, 0}};
    std::vector<State> queue{start};
    BruteResult r;
    for (size_t q = 0; q < queue.size(); ++q) {
        const State s = queue[q];
        const int d = dist[s];
        if (r.distance < 0 && goal(s)) r.distance = d;
        std::vector<int> g;
        REQUIRE(grid(s, g));
        for (int i = 0; i < (int)s.size(); ++i) {
            const int t = s[i].first, ax = s[i].second % W, ay = s[i].second / W;
            std::set<int> dests;
            if (T::kMetric == Metric::Path) {
                std::set<std::pair<int, int>> seen{{ax, ay}};
                std::vector<std::pair<int, int>> st{{ax, ay}};
                while (!st.empty()) {
                    auto [x, y] = st.back();
                    st.pop_back();
                    for (int k = 0; k < 4; ++k)
                        if (allowed(T::kAxis[t], k) && fits(g, t, i, x + dxs[k], y + dys[k]) &&
                            seen.insert({x + dxs[k], y + dys[k]}).second)
                            st.push_back({x + dxs[k], y + dys[k]});
                }
                for (auto [x, y] : seen)
                    if (x != ax || y != ay) dests.insert(y * W + x);
            } else {
                for (int k = 0; k < 4; ++k) {
                    if (!allowed(T::kAxis[t], k)) continue;
                    for (int n = 1; fits(g, t, i, ax + n * dxs[k], ay + n * dys[k]); ++n) {
                        dests.insert((ay + n * dys[k]) * W + ax + n * dxs[k]);
                        if (T::kMetric == Metric::Step) break;
                    }
                }
            }
            for (int b : dests) {
                State n2 = s;
                n2[i].second = b;
                n2 = canon(n2);
                if (dist.emplace(n2, d + 1).second) queue.push_back(n2);
            }
        }
    }
    r.reachable = dist.size();
    return r;
}

// The engine's answer checked against the brute force and by replay.
template <class T>
void checkAgainstBrute(const Level& level) {
    CAPTURE(level.name);
    BruteResult b = bruteForce<T>(level);
    SearchResult r = search<T>(level, {.countAll = true});
    CHECK(r.complete);
    CHECK(r.reachable == b.reachable);
    if (b.distance < 0) {
        CHECK(r.outcome == SearchResult::Outcome::Unsolvable);
    } else {
        REQUIRE(r.outcome == SearchResult::Outcome::Solved);
        CHECK((int)r.moves.size() == b.distance);
        std::string why;
        CHECK(replay<T>(level, r.moves, &why));
        CAPTURE(why);
        // Without --count: the same length, fewer or as many states.
        SearchResult quick = search<T>(level);
        REQUIRE(quick.outcome == SearchResult::Outcome::Solved);
        CHECK(quick.moves.size() == r.moves.size());
        CHECK(quick.states <= r.states);
    }
}

template <class T>
Level parseOne(const std::string& text) {
    std::istringstream in(text);
    auto levels = parseLevels<T>(in);
    REQUIRE(levels.size() == 1);
    return levels[0];
}

}  // namespace

TEST_CASE("blocks: Rush Hour's hardest board with a wall: 60 moves, cluster 2,332", "[blocks]") {
    using T = RushTraits<0>;
    Level level = rushLevel(kHardest);
    SearchResult r = search<T>(level, {.countAll = true});
    REQUIRE(r.outcome == SearchResult::Outcome::Solved);
    CHECK(r.moves.size() == 60);
    CHECK(r.complete);
    CHECK(r.reachable == 2332);
    std::string why;
    CHECK(replay<T>(level, r.moves, &why));
    // The wall in the traits instead of a Fixed piece: the same answers.
    using TW = RushTraits<wallsOf(kHardest)>;
    Level level2 = rushLevel(kHardest, true);
    SearchResult r2 = search<TW>(level2, {.countAll = true});
    REQUIRE(r2.outcome == SearchResult::Outcome::Solved);
    CHECK(r2.moves.size() == 60);
    CHECK(r2.reachable == 2332);
    CHECK(replay<TW>(level2, r2.moves, &why));
    // And the brute force agrees.
    BruteResult b = bruteForce<T>(level);
    CHECK(b.distance == 60);
    CHECK(b.reachable == 2332);
    // The first moves' names are car letters with a signed distance.
    for (const auto& m : r.moves) {
        std::string name = moveName<T>(level, m);
        CHECK(name.size() >= 3);
        CHECK((name[1] == '+' || name[1] == '-'));
    }
}

TEST_CASE("blocks: Rush Hour easy and random boards against the brute force", "[blocks]") {
    using T = RushTraits<0>;
    // Constructed: the red car with a clear road, one blocker, a blocker
    // that must go up, the hardest board, a board solved at the start.
    const char* boards[] = {
        "oooooooooooo" "AAoooo" "oooooooooooooooooo",  // 1 move
        "ooooBoooooBo" "AAooBo" "oooooooooooooooooo",  // B (vertical, 3) blocks: 2 moves
        "ooooooooooBo" "AAooBo" "ooCCCooooooooooooo",  // B down blocked by C: C, B, A
        "oooooooooooo" "ooooAA" "oooooooooooooooooo",  // solved at the start: 0 moves
        "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM",
    };
    for (const char* b : boards) checkAgainstBrute<T>(rushLevel(b));
    // Unsolvable: a horizontal car in front of the red one in its row.
    {
        Level level = rushLevel("oooooooooooo" "AAoBBo" "oooooooooooooooooo");
        SearchResult r = search<T>(level);
        CHECK(r.outcome == SearchResult::Outcome::Unsolvable);
        CHECK(r.complete);
        CHECK(r.reachable == bruteForce<T>(level).reachable);
    }
    // Random boards: cars dropped at random places.
    std::mt19937 rng(12345);
    int checked = 0, longer = 0;  // longer: solved in 3 moves or more
    for (int attempt = 0; attempt < 400 && checked < 40; ++attempt) {
        std::string board(36, 'o');
        auto place = [&](char ch, bool horizontal, int len, int x, int y) {
            for (int k = 0; k < len; ++k) {
                int cx = x + (horizontal ? k : 0), cy = y + (horizontal ? 0 : k);
                if (cx >= 6 || cy >= 6 || board[cy * 6 + cx] != 'o') return false;
            }
            for (int k = 0; k < len; ++k) board[(y + (horizontal ? 0 : k)) * 6 + x + (horizontal ? k : 0)] = ch;
            return true;
        };
        if (!place('A', true, 2, int(rng() % 3), 2)) continue;
        int cars = 4 + int(rng() % 8);
        char ch = 'B';
        for (int c = 0; c < cars * 4 && ch < 'B' + cars; ++c) {
            bool h = rng() % 2;
            int len = 2 + int(rng() % 3 == 0);
            if (place(ch, h, len, int(rng() % 6), int(rng() % 6))) ++ch;
        }
        if (rng() % 4 == 0) {
            int c = int(rng() % 36);
            if (board[c] == 'o') board[c] = 'x';
        }
        // Orientation is read from the letters (each car has its own).
        // Clusters past 20,000 states would make the brute force slow.
        SearchResult r = search<T>(rushLevel(board), {.countAll = true});
        if (r.reachable > 20000) continue;
        checkAgainstBrute<T>(rushLevel(board));
        ++checked;
        longer += r.outcome == SearchResult::Outcome::Solved && r.moves.size() >= 3;
    }
    CHECK(checked == 40);
    CHECK(longer >= 8);  // 9 with this seed
}

TEST_CASE("blocks: Klotski in three metrics: 25,955 states; 116, 90, 81 moves", "[blocks]") {
    auto run = [](auto traits, size_t expected) {
        using T = decltype(traits);
        Level level = parseOne<T>(kKlotskiLevel);
        CHECK(level.name == "classic");
        SearchResult r = search<T>(level, {.countAll = true});
        REQUIRE(r.outcome == SearchResult::Outcome::Solved);
        CHECK(r.moves.size() == expected);
        CHECK(r.complete);
        CHECK(r.reachable == 25955);
        std::string why;
        CHECK(replay<T>(level, r.moves, &why));
        CAPTURE(why);
        // The JSON line carries the names, the length and both counts.
        std::string line = resultLine<T>(level, r);
        CHECK(line.find("\"outcome\": \"solved\"") != std::string::npos);
        CHECK(line.find("\"length\": " + std::to_string(expected)) != std::string::npos);
        CHECK(line.find("\"reachable\": 25955") != std::string::npos);
    };
    run(KlotskiTraits<Metric::Step>{}, 116);
    run(KlotskiTraits<Metric::Slide>{}, 90);
    run(KlotskiTraits<Metric::Path>{}, 81);
}

TEST_CASE("blocks: small boards: optimal lengths and clusters equal an independent BFS", "[blocks]") {
    // 3x2 with five distinct tiles: half the 720 arrangements are reachable.
    const std::string scrambled = "level 3 2 t\n5 1 2 0\n4 2 1 1\n3 3 0 0\n2 4 0 1\n1 5 1 0\nend\n";
    checkAgainstBrute<Tiles3x2Traits<Metric::Step>>(parseOne<Tiles3x2Traits<Metric::Step>>(scrambled));
    checkAgainstBrute<Tiles3x2Traits<Metric::Slide>>(parseOne<Tiles3x2Traits<Metric::Slide>>(scrambled));
    checkAgainstBrute<Tiles3x2Traits<Metric::Path>>(parseOne<Tiles3x2Traits<Metric::Path>>(scrambled));
    CHECK(search<Tiles3x2Traits<Metric::Step>>(parseOne<Tiles3x2Traits<Metric::Step>>(scrambled), {.countAll = true}).reachable == 360);
    // An odd permutation: unsolvable, the other 360.
    const std::string odd = "level 3 2 odd\n1 2 0 0\n2 1 1 0\n3 3 2 0\n4 4 0 1\n5 5 1 1\nend\n";
    SearchResult r = search<Tiles3x2Traits<Metric::Step>>(parseOne<Tiles3x2Traits<Metric::Step>>(odd));
    CHECK(r.outcome == SearchResult::Outcome::Unsolvable);
    CHECK(r.reachable == 360);
    CHECK(r.states == 360);

    // 3x3 with a domino, identical 1x1s, a vertical-only 1x1 and an L, in
    // every metric, from several starts; and with a wall.
    const std::vector<std::string> starts = {
        "level 3 3 a\nD D 0 0\ns1 s 2 0\ns2 s 0 1\nt t 1 1\nend\n",
        "level 3 3 b\nD D 1 2\ns1 s 0 0\ns2 s 0 2\nend\n",
        "level 3 3 c\nD D 1 0\ns1 s 0 0\ns2 s 2 2\nt t 2 1\nL L 0 1\nend\n",
        "level 3 3 d\nL L 1 0\ns1 s 0 0\ns2 s 0 1\nD D 0 2\nend\n",
    };
    for (const auto& s : starts) {
        checkAgainstBrute<Domino3x3Traits<Metric::Step>>(parseOne<Domino3x3Traits<Metric::Step>>(s));
        checkAgainstBrute<Domino3x3Traits<Metric::Slide>>(parseOne<Domino3x3Traits<Metric::Slide>>(s));
        checkAgainstBrute<Domino3x3Traits<Metric::Path>>(parseOne<Domino3x3Traits<Metric::Path>>(s));
    }
    using TW = Domino3x3Traits<Metric::Path, cellBit(3, 2, 0)>;
    checkAgainstBrute<TW>(parseOne<TW>("level 3 3 w\nD D 0 0\ns1 s 0 1\nt t 2 1\nend\n"));
    // Full goals: every piece placed, identical ones as a multiset.
    for (const auto& s : starts) {
        checkAgainstBrute<Domino3x3Traits<Metric::Step, 0, GoalKind::Full>>(
            parseOne<Domino3x3Traits<Metric::Step, 0, GoalKind::Full>>(s));
        checkAgainstBrute<Domino3x3Traits<Metric::Slide, 0, GoalKind::Full>>(
            parseOne<Domino3x3Traits<Metric::Slide, 0, GoalKind::Full>>(s));
        checkAgainstBrute<Domino3x3Traits<Metric::Path, 0, GoalKind::Full>>(
            parseOne<Domino3x3Traits<Metric::Path, 0, GoalKind::Full>>(s));
    }
}

namespace {

// Random 4x4 boards for an exit traits: the exit car, dominoes, a wall.
template <class T>
void randomExitBoards(std::mt19937& rng, int count, int& solved) {
    for (int i = 0; i < count; ++i) {
        std::vector<bool> used(16, false);
        Level level{"random " + std::to_string(i), {}};
        auto put = [&](const std::string& name, int type) {
            for (int tries = 0; tries < 20; ++tries) {
                int a = int(rng() % 16);
                uint64_t m = T::kPlacement[type][a];
                bool ok = m != 0;
                for (int c = 0; c < 16 && ok; ++c) ok = !((m >> c & 1) && used[c]);
                if (!ok) continue;
                for (int c = 0; c < 16; ++c)
                    if (m >> c & 1) used[c] = true;
                level.pieces.push_back(Piece{name, type, a});
                return;
            }
        };
        put("R", 0);
        if (level.pieces.empty()) continue;
        const int dominoes = 2 + int(rng() % 4);
        for (int k = 0; k < dominoes; ++k) put(std::string(1, char('a' + k)), 1 + int(rng() % 2));
        if (rng() % 3 == 0) put("x", 3);
        CAPTURE(i);
        BruteResult b = bruteForce<T>(level);
        solved += b.distance > 0;
        checkAgainstBrute<T>(level);
    }
}

}  // namespace

TEST_CASE("blocks: exits on every side, random boards against the brute force", "[blocks]") {
    std::mt19937 rng(777);
    int solved = 0;
    randomExitBoards<ExitTraits<ExitSide::Right, 1, Metric::Slide>>(rng, 40, solved);
    randomExitBoards<ExitTraits<ExitSide::Left, 2, Metric::Step>>(rng, 40, solved);
    randomExitBoards<ExitTraits<ExitSide::Top, 0, Metric::Slide>>(rng, 40, solved);
    randomExitBoards<ExitTraits<ExitSide::Bottom, 3, Metric::Path>>(rng, 40, solved);
    // Enough of them take moves to mean something (most random boards are
    // solved at the start or blocked).
    CHECK(solved >= 15);
}

TEST_CASE("blocks: the level text form and its errors", "[blocks]") {
    using T = KlotskiTraits<Metric::Step>;
    std::istringstream two("level 4 5 one two\nA A 0 0\nend\n\n# c\nlevel 4 5\nS S 3 4\nend\n");
    auto levels = parseLevels<T>(two);
    REQUIRE(levels.size() == 2);
    CHECK(levels[0].name == "one two");
    CHECK(levels[1].name == "2");
    CHECK(levels[1].pieces[0].anchor == 19);
    auto bad = [](const std::string& text) {
        std::istringstream in(text);
        CHECK_THROWS_AS(parseLevels<T>(in), std::runtime_error);
    };
    bad("level 5 5 x\nA A 0 0\nend\n");           // wrong board size
    bad("level 4 5 x\nA Q 0 0\nend\n");           // unknown type
    bad("level 4 5 x\nA A 3 0\nend\n");           // does not fit
    bad("level 4 5 x\nA A 0 0\nS S 1 1\nend\n");  // overlap
    bad("level 4 5 x\nA A 0 0\nA S 3 3\nend\n");  // two pieces of one name
    bad("level 4 5 x\nA A 0 0\n");                // no end
    bad("A A 0 0\n");                             // outside a level
    bad("level 4 5 x\nend\n");                    // no pieces
    bad("level 4 5 x\nA A 0 0 7\nend\n");         // trailing text
}

TEST_CASE("blocks: replay rejects illegal moves; move names", "[blocks]") {
    using T = KlotskiTraits<Metric::Slide>;
    Level level = parseOne<T>(kKlotskiLevel);
    // Level piece indices: 0 A, 1 b, 2 c, 3 d, 4 E, 5 f, 6 g, 7 h, 8 i, 9 j.
    std::string why;
    CHECK_FALSE(replay<T>(level, {Move{0, 3, 1, 5}}, &why));             // A down: blocked
    CHECK_FALSE(replay<T>(level, {Move{8, 1, 1, 17}}, &why));            // i right: legal, not a goal
    CHECK(why == "the last position is not a goal");
    CHECK_FALSE(replay<T>(level, {Move{8, 1, 3, 19}}, &why));            // i right 3: through j
    CHECK(why.find("blocked") != std::string::npos);
    CHECK_FALSE(replay<T>(level, {Move{42, 1, 1, 17}}, &why));           // no such piece
    CHECK_FALSE(replay<KlotskiTraits<Metric::Step>>(level, {Move{8, 1, 2, 18}}, &why));  // step: 2 cells
    CHECK(moveName<T>(level, Move{8, 1, 2, 18}) == "iR2");
    CHECK(moveName<T>(level, Move{0, 3, 1, 5}) == "AD1");
    CHECK(moveName<KlotskiTraits<Metric::Path>>(level, Move{0, 0, 0, 13}) == "A@1,3");
    using R = RushTraits<0>;
    Level rush = rushLevel(kHardest);
    CHECK(moveName<R>(rush, Move{1, 1, 2, 0}) == "B+2");
    CHECK(moveName<R>(rush, Move{1, 2, 1, 0}) == "B-1");
}

TEST_CASE("blocks: the state limit and the goal at the start", "[blocks]") {
    using T = KlotskiTraits<Metric::Step>;
    Level level = parseOne<T>(kKlotskiLevel);
    SearchResult r = search<T>(level, {.countAll = false, .maxStates = 1000});
    CHECK(r.outcome == SearchResult::Outcome::Limit);
    CHECK_FALSE(r.complete);
    CHECK(r.states > 1000);
    CHECK(r.states < 1100);
    CHECK(resultLine<T>(level, r).find("\"reachable\"") == std::string::npos);
    // A level already solved: no moves, one state searched.
    Level done = parseOne<T>("level 4 5 done\nA A 1 3\nend\n");
    SearchResult d = search<T>(done);
    REQUIRE(d.outcome == SearchResult::Outcome::Solved);
    CHECK(d.moves.empty());
    CHECK(d.states == 1);
    CHECK(replay<T>(done, d.moves));
}

TEST_CASE("blocks: many pieces use wide keys (K = 6 words)", "[blocks]") {
    // An 8x8 board of 63 1x1 pieces of one type and a distinct one: the
    // only difference between states is where the hole and the marked
    // piece are: 64 * 63 states.
    using T = WideTraits;
    std::string text = "level 8 8 wide\nm m 0 0\n";
    for (int c = 1; c < 63; ++c) text += "o" + std::to_string(c) + " o " + std::to_string(c % 8) + " " + std::to_string(c / 8) + "\n";
    text += "end\n";
    Level level = parseOne<T>(text);
    REQUIRE(level.pieces.size() == 63);
    SearchResult r = search<T>(level, {.countAll = true});
    REQUIRE(r.outcome == SearchResult::Outcome::Solved);
    CHECK(r.reachable == 64 * 63);
    CHECK(replay<T>(level, r.moves));
    BruteResult b = bruteForce<T>(level);
    CHECK(b.reachable == 64 * 63);
    CHECK((int)r.moves.size() == b.distance);
}

namespace {

// Runs blocksMain<T> on the arguments with `input` as a level file and
// returns what it printed (stdout redirected to a temporary file).
template <class T>
std::pair<int, std::string> runMain(std::vector<std::string> args, const std::string& input) {
    char path[] = "/tmp/pz_blocks_levels_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, input.data(), input.size()) == (ssize_t)input.size());
    close(fd);
    char outPath[] = "/tmp/pz_blocks_out_XXXXXX";
    int outFd = mkstemp(outPath);
    REQUIRE(outFd >= 0);
    std::fflush(stdout);
    const int saved = dup(1);
    dup2(outFd, 1);
    std::vector<std::string> all = {"solver", path};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    int rc = blocksMain<T>((int)argv.size(), argv.data());
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    std::string out;
    char buf[4096];
    lseek(outFd, 0, SEEK_SET);
    for (ssize_t r; (r = read(outFd, buf, sizeof buf)) > 0;) out.append(buf, size_t(r));
    close(outFd);
    unlink(path);
    unlink(outPath);
    return {rc, out};
}

}  // namespace

TEST_CASE("blocks: blocksMain prints one JSON line per level", "[blocks]") {
    using T = KlotskiTraits<Metric::Path>;
    const std::string two = std::string(kKlotskiLevel) + "level 4 5 second\nA A 1 0\nS S 0 0\nend\n";
    auto [rc, out] = runMain<T>({"--json", "--count"}, two);
    CHECK(rc == 0);
    std::istringstream lines(out);
    std::string first, second, third;
    std::getline(lines, first);
    std::getline(lines, second);
    CHECK_FALSE(std::getline(lines, third));
    CHECK(first.rfind("{\"type\": \"level\", \"name\": \"classic\", \"outcome\": \"solved\", \"moves\": [\"", 0) == 0);
    CHECK(first.find("\"length\": 81, \"states\": 25955, \"reachable\": 25955, \"seconds\": ") != std::string::npos);
    // The second level (the block and one soldier) is solved too.
    CHECK(second.find("\"name\": \"second\", \"outcome\": \"solved\"") != std::string::npos);
    // Without --count, no "reachable" for a solved level; --only.
    auto [rc2, out2] = runMain<T>({"--machine", "--only", "classic"}, two);
    CHECK(rc2 == 0);
    CHECK(out2.find("\"reachable\"") == std::string::npos);
    CHECK(out2.find("\"name\": \"second\"") == std::string::npos);
    // The state limit.
    auto [rc3, out3] = runMain<T>({"--json", "--max-states", "100", "--only", "classic"}, two);
    CHECK(rc3 == 0);
    CHECK(out3.find("\"outcome\": \"limit\"") != std::string::npos);
    // Text output: the counts and the move names.
    auto [rc4, out4] = runMain<T>({"--only", "classic"}, two);
    CHECK(rc4 == 0);
    CHECK(out4.rfind("classic: solved in 81 moves", 0) == 0);
    CHECK(out4.find("A@1,3") != std::string::npos);
    // Usage errors and rejected input.
    CHECK(runMain<T>({"--bogus"}, two).first == 2);
    CHECK(runMain<T>({"--max-states", "0"}, two).first == 2);
    CHECK(runMain<T>({}, "level 4 5 x\nA A 3 3\nend\n").first == 1);
    // An unsolvable Rush Hour board (a car in the red car's row): its
    // cluster (A at x 0..2, B ahead of it: 3 + 2 + 1) is reported without --count.
    using R = RushTraits<0>;
    auto [rc5, out5] = runMain<R>({"--json"}, "level 6 6 blocked\nA red 0 2\nB h2 3 2\nend\n");
    CHECK(rc5 == 0);
    CAPTURE(out5);
    CHECK(out5.find("\"outcome\": \"unsolvable\", \"states\": 6, \"reachable\": 6") != std::string::npos);
}

TEST_CASE("blocks: traits of literal C arrays, as generated, equal the built ones", "[blocks]") {
    using L = KlotskiLiteralTraits;
    using F = KlotskiTraits<Metric::Slide>;
    for (int t = 0; t < L::kTypes; ++t)
        for (int a = 0; a < 64; ++a) {
            CAPTURE(t, a);
            CHECK(L::kPlacement[t][a] == F::kPlacement[t][a]);
        }
    std::istringstream in(kKlotskiLevel);
    Level level = parseLevels<L>(in).at(0);
    SearchResult r = search<L>(level, {.countAll = true});
    REQUIRE(r.outcome == SearchResult::Outcome::Solved);
    CHECK(r.moves.size() == 90);
    CHECK(r.reachable == 25955);
    CHECK(replay<L>(level, r.moves));
}
