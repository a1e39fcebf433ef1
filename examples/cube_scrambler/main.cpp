// cube_scrambler [COUNT [SEED]]: random-state scrambles of the 3x3x3 cube.
// Each scramble is the two-phase solution of a uniformly random state's
// inverse, so applied to the solved cube it reaches that state; the program
// replays every scramble and checks it does before printing it.
#include <cstdlib>
#include <iostream>

#include "cube.hpp"

int main(int argc, char** argv) {
    const int count = argc > 1 ? std::atoi(argv[1]) : 5;
    const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    auto made = cube::makeSolver({.threads = 2}, "two_phase");
    if (!made) {
        std::cerr << "error: " << made.error().message << "\n";
        return 1;
    }
    pz::api::Solver& solver = **made;
    if (auto prepared = solver.prepare(); !prepared) {  // builds the tables once, then loads them
        std::cerr << "error: " << prepared.error().message << "\n";
        return 1;
    }
    for (int i = 0; i < count; ++i) {
        auto state = solver.randomState(seed + i);
        auto scramble = solver.randomScramble(seed + i);
        if (!state || !scramble) {
            std::cerr << "error: " << (state ? scramble.error() : state.error()).message << "\n";
            return 1;
        }
        auto reached = solver.applyMoves(solver.solved(), scramble->moves);
        if (!reached || !(*reached == *state)) {
            std::cerr << "error: scramble " << i + 1 << " does not reach the state it drew\n";
            return 1;
        }
        std::cout << scramble->text() << "\n";
    }
    return 0;
}
