// The reference interpreter of permutation puzzles: plain arrays, no tricks.
// It is the oracle that generated kernels are tested against and the baseline
// that shows what code generation buys.
//
// A State is note [element convention] flattened over the orbits:
//   piece[i] = the solved position (within its orbit) of the piece now at
//              flat position i, or, for a labelled state, that piece's label
//   ori[i]   = the orientation of the piece at i
// Flat position i = offset(orbit) + position. Applying a move m (state then
// m) is piece'[i] = piece[src(i)], ori'[i] = ori[src(i)] + delta(i), with
// src/delta read off m's Element.
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/ir/puzzle.hpp"

namespace pz::interp {

struct State {
    std::vector<int> piece;
    std::vector<int> ori;
    bool operator==(const State&) const = default;
};

class Interpreter {
public:
    explicit Interpreter(const ir::Puzzle& puzzle);

    const ir::Puzzle& puzzle() const { return puzzle_; }
    int positionCount() const { return (int)orbitOf_.size(); }
    int offset(int orbit) const { return offset_[orbit]; }

    State solved() const;
    // The solved state with every piece replaced by its label: states that
    // differ only in indistinguishable pieces become equal.
    State solvedLabels() const;
    State fromElement(const ir::Element& e) const;
    ir::Element toElement(const State& s) const;

    // state then move (by index into puzzle.moves); `out` must not alias `in`.
    void applyMove(const State& in, int move, State& out) const;
    State applyMove(const State& in, int move) const;
    State applySequence(State s, const std::vector<int>& moves) const;
    // state then element (any Element of the puzzle, e.g. a macro).
    State apply(const State& s, const ir::Element& e) const;
    // a then b, and the inverse, as Elements of the group.
    State compose(const State& a, const State& b) const;
    State invert(const State& a) const;
    // The state S s S^-1 for a symmetry S (note [symmetry conjugation] in
    // compiler/analysis/perm/puzzle_analysis.hpp): the state reached by the
    // symmetric images of the moves that reached s.
    State conjugate(const State& s, const ir::Element& symmetry) const;

    // Every position holds a piece with its solved label, oriented.
    bool isSolved(const State& s) const;

    // One line per orbit: "name: pos=piece+twist ..." (names when declared).
    std::string format(const State& s) const;

private:
    struct MoveTable {
        std::vector<int> source;  // flat position the piece comes from
        std::vector<int> delta;   // orientation added
    };
    MoveTable table(const ir::Element& e) const;

    const ir::Puzzle& puzzle_;
    std::vector<int> offset_;
    std::vector<int> orbitOf_;   // flat position -> orbit
    std::vector<int> modulus_;   // flat position -> orientation modulus
    std::vector<MoveTable> moves_;
};

// Whether the state is reachable by the puzzle's moves (Schreier–Sims
// membership). Only for piece states (not labelled ones).
bool isReachable(const Interpreter& interp, analysis::PuzzleAnalysis& analysis, const State& s);

}  // namespace pz::interp
