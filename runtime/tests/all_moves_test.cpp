// Every move at once (note [all moves at once] in pz/state.hpp) on the
// checked-in generated traits: Traits::applyAllMoves gives, for every search
// move, the state Traits::applyMove gives, on random states and on solved. A
// term read from the wrong move, word or slot, a rotate wrong for a count of
// 0, or a missing orientation add would differ. The byte-lane moves (note
// [byte-lane moves]) likewise. Built twice: for this CPU (AVX-512 here: a
// rotate per lane, a byte permute a move) and for x86-64-v2 (no vector
// rotates; the byte-lane moves' loop).
#include <catch2/catch.hpp>

#include <random>

#include "cube3/cube3.hpp"
#include "pz/solver_main.hpp"
#include "rotate4o/rotate4o.hpp"
#include "slide4/slide4.hpp"

namespace {

template <class T>
void checkAllMoves(int states) {
    typename T::AllMoves all;
    std::mt19937_64 rng(11);
    for (int i = 0; i < states; ++i) {
        const typename T::State s = i == 0 ? T::solved() : pz::randomState<T>(rng);
        T::applyAllMoves(s, all);
        for (int m = 0; m < T::kMoves; ++m) {
            const typename T::State want = T::applyMove(s, m);
            for (size_t j = 0; j < want.w.size(); ++j) {
                INFO("state " << i << ", move " << m << ", word " << j);
                REQUIRE(all.w[j][m] == want.w[j]);
            }
        }
    }
}

template <class T>
void checkByteLaneMoves(int states) {
    STATIC_REQUIRE(T::kByteLaneMoves.usable);
    constexpr int W = T::State::kWords;
    std::mt19937_64 rng(12);
    for (int i = 0; i < states; ++i) {
        const typename T::State s = i == 0 ? T::solved() : pz::randomState<T>(rng);
        const pz::SpreadLanes bytes = pz::spreadLanes(s);
        for (int m = 0; m < T::kMoves; ++m) {
            INFO("state " << i << ", move " << m);
            REQUIRE(pz::applyByteLaneMove<W>(T::kByteLaneMoves, bytes, m) == T::applyMove(s, m));
        }
    }
}

}  // namespace

TEST_CASE("every move at once equals one move at a time", "[runtime][all-moves]") {
    checkAllMoves<pzgen::cube3::Traits>(2000);      // 18 moves, orientations mod 3 and mod 2
    checkAllMoves<pzgen::rotate4o::Traits>(2000);   // 27 moves (padded to 32), orientations mod 4
    checkAllMoves<pzgen::slide4::Traits>(2000);     // 24 moves, one word
}

TEST_CASE("byte-lane moves are taken where they are the cheaper kernel", "[runtime][all-moves]") {
    STATIC_REQUIRE(pzgen::cube3::Traits::kByteLaneMoves.cheaper);      // 18 moves against 4 words x 5 terms
    STATIC_REQUIRE(pzgen::rotate4o::Traits::kByteLaneMoves.cheaper);   // 27 moves against 2 words x 5 terms (32 padded)
    STATIC_REQUIRE_FALSE(pzgen::slide4::Traits::kByteLaneMoves.cheaper);  // 24 moves against 1 word x 3 terms
}

TEST_CASE("a byte permute a move equals one move at a time", "[runtime][all-moves]") {
    checkByteLaneMoves<pzgen::cube3::Traits>(2000);
    checkByteLaneMoves<pzgen::rotate4o::Traits>(2000);
    checkByteLaneMoves<pzgen::slide4::Traits>(2000);
}

TEST_CASE("byte-lane moves refuse rotates of part of a lane", "[runtime][all-moves]") {
    // One move, one word: a rotate by 4 bits (a whole lane) is usable, by 2 not.
    pz::MoveTermsByMove<1, 1, 8> k{};
    k.rot[0][0][0] = 4;
    k.mask[0][0][0] = ~uint64_t{0};
    constexpr std::array<int, 1> perm{1};
    const auto whole = pz::byteLaneMoves(k, perm);
    REQUIRE(whole.usable);
    REQUIRE(whole.source[0][1] == 0);   // lane 1 takes lane 0
    REQUIRE(whole.source[0][0] == 15);  // lane 0 takes lane 15
    k.rot[0][0][0] = 2;
    REQUIRE_FALSE(pz::byteLaneMoves(k, perm).usable);
    k.rot[0][0][0] = 4;
    k.mask[0][0][0] = 0x7;  // part of lane 0
    REQUIRE_FALSE(pz::byteLaneMoves(k, perm).usable);
}
