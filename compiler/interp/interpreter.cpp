#include "compiler/interp/interpreter.hpp"

#include <sstream>

namespace pz::interp {

Interpreter::Interpreter(const ir::Puzzle& puzzle) : puzzle_(puzzle) {
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o) {
        offset_.push_back((int)orbitOf_.size());
        for (int p = 0; p < puzzle_.orbits[o].size; ++p) {
            orbitOf_.push_back((int)o);
            modulus_.push_back(puzzle_.orbits[o].orient);
        }
    }
    for (const auto& m : puzzle_.moves) moves_.push_back(table(m.effect));
}

Interpreter::MoveTable Interpreter::table(const ir::Element& e) const {
    MoveTable t;
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o)
        for (int p = 0; p < puzzle_.orbits[o].size; ++p) {
            t.source.push_back(offset_[o] + e.perm[o][p]);
            t.delta.push_back(e.ori[o][p]);
        }
    return t;
}

State Interpreter::solved() const {
    State s;
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o)
        for (int p = 0; p < puzzle_.orbits[o].size; ++p) s.piece.push_back(p);
    s.ori.assign(s.piece.size(), 0);
    return s;
}

State Interpreter::solvedLabels() const {
    State s;
    for (const auto& orbit : puzzle_.orbits)
        for (int p = 0; p < orbit.size; ++p) s.piece.push_back(orbit.solvedLabel.empty() ? p : orbit.solvedLabel[p]);
    s.ori.assign(s.piece.size(), 0);
    return s;
}

State Interpreter::fromElement(const ir::Element& e) const { return apply(solved(), e); }

ir::Element Interpreter::toElement(const State& s) const {
    ir::Element e;
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o) {
        const int n = puzzle_.orbits[o].size, base = offset_[o];
        e.perm.emplace_back(s.piece.begin() + base, s.piece.begin() + base + n);
        e.ori.emplace_back(s.ori.begin() + base, s.ori.begin() + base + n);
    }
    return e;
}

void Interpreter::applyMove(const State& in, int move, State& out) const {
    const MoveTable& t = moves_[move];
    const size_t n = t.source.size();
    out.piece.resize(n);
    out.ori.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const int src = t.source[i];
        out.piece[i] = in.piece[src];
        out.ori[i] = (in.ori[src] + t.delta[i]) % modulus_[i];
    }
}

State Interpreter::applyMove(const State& in, int move) const {
    State out;
    applyMove(in, move, out);
    return out;
}

State Interpreter::applySequence(State s, const std::vector<int>& moves) const {
    State next;
    for (int m : moves) {
        applyMove(s, m, next);
        std::swap(s, next);
    }
    return s;
}

State Interpreter::apply(const State& s, const ir::Element& e) const {
    // Moves and states are never mirrors; an Element that is (a symmetry)
    // negates the orientation it carries along (note [element convention]).
    const MoveTable t = table(e);
    const int eps = e.mirror ? -1 : 1;
    State out;
    const size_t n = t.source.size();
    out.piece.resize(n);
    out.ori.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const int m = modulus_[i];
        out.piece[i] = s.piece[t.source[i]];
        out.ori[i] = ((eps * s.ori[t.source[i]] + t.delta[i]) % m + m) % m;
    }
    return out;
}

State Interpreter::compose(const State& a, const State& b) const { return apply(a, toElement(b)); }

State Interpreter::invert(const State& a) const {
    State r = a;
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o) {
        const int base = offset_[o], n = puzzle_.orbits[o].size, m = puzzle_.orbits[o].orient;
        for (int p = 0; p < n; ++p) {
            const int q = a.piece[base + p];
            r.piece[base + q] = p;
            r.ori[base + q] = (m - a.ori[base + p]) % m;
        }
    }
    return r;
}

bool Interpreter::isSolved(const State& s) const {
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o) {
        const auto& orbit = puzzle_.orbits[o];
        for (int p = 0; p < orbit.size; ++p) {
            const int i = offset_[o] + p;
            const int piece = s.piece[i];
            const bool sameLabel = orbit.solvedLabel.empty() ? piece == p : orbit.solvedLabel[piece] == orbit.solvedLabel[p];
            if (!sameLabel || s.ori[i] != 0) return false;
        }
    }
    return true;
}

std::string Interpreter::format(const State& s) const {
    std::ostringstream out;
    for (size_t o = 0; o < puzzle_.orbits.size(); ++o) {
        const auto& orbit = puzzle_.orbits[o];
        auto name = [&](int p) {
            return p < (int)orbit.positionNames.size() ? orbit.positionNames[p] : std::to_string(p);
        };
        out << orbit.name << ':';
        for (int p = 0; p < orbit.size; ++p) {
            const int i = offset_[o] + p;
            out << ' ' << name(p) << '=' << name(s.piece[i]);
            if (s.ori[i] != 0) out << '+' << s.ori[i];
        }
        out << '\n';
    }
    return out.str();
}

bool isReachable(const Interpreter& interp, analysis::PuzzleAnalysis& analysis, const State& s) {
    return analysis.contains(interp.toElement(s));
}

}  // namespace pz::interp
