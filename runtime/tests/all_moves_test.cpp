// Every move at once (note [all moves at once] in pz/state.hpp) on the
// checked-in generated traits: Traits::applyAllMoves gives, for every search
// move, the state Traits::applyMove gives, on random states and on solved. A
// term read from the wrong move, word or slot, a rotate wrong for a count of
// 0, or a missing orientation add would differ. Built twice: for this CPU
// (AVX-512 here: a rotate per lane) and for x86-64-v2 (no vector rotates).
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

}  // namespace

TEST_CASE("every move at once equals one move at a time", "[runtime][all-moves]") {
    checkAllMoves<pzgen::cube3::Traits>(2000);      // 18 moves, orientations mod 3 and mod 2
    checkAllMoves<pzgen::rotate4o::Traits>(2000);   // 27 moves (padded to 32), orientations mod 4
    checkAllMoves<pzgen::slide4::Traits>(2000);     // 24 moves, one word
}
