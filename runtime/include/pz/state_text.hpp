// pz/state_text.hpp — a generated puzzle's states as numbers and move
// names, in and out: what `--state`, `--scramble` and `--random` read, what
// the library API's positions hold (pz/api/perm.hpp), and the cheap exact
// reachability check of note [abelian invariants].
//
// A state is written as the IR element's numbers: for each orbit its
// permutation (perm[p] = solved position of the piece now at p; for an orbit
// with identical pieces the label at p, as the state holds it: note
// [labelled lanes]), then for each oriented orbit its orientations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pz/lanes.hpp"
#include "pz/state.hpp"

namespace pz {

struct OrbitShape {
    int size;       // positions (lanes)
    int orient;     // orientation modulus (1 = none)
    int permWord;   // word holding the labels
    int oriWord;    // word holding orientations, -1 if none
    int laneBits = 4;  // 4 (one word per field), 8 or 16 (pz/lanes.hpp: fields of several words)
};

template <class T>
std::vector<long> stateNumbers(const typename T::State& s) {
    std::vector<long> out;
    for (const auto& o : T::kOrbitShapes)
        for (int p = 0; p < o.size; ++p) out.push_back(fieldLane(&s.w[o.permWord], o.laneBits, p));
    for (const auto& o : T::kOrbitShapes)
        if (o.oriWord >= 0)
            for (int p = 0; p < o.size; ++p) out.push_back(fieldLane(&s.w[o.oriWord], o.laneBits, p));
    return out;
}

template <class T>
std::optional<typename T::State> stateFromNumbers(const std::vector<long>& v, std::string& why) {
    size_t want = 0;
    for (const auto& o : T::kOrbitShapes) want += o.size * (o.oriWord >= 0 ? 2 : 1);
    if (v.size() != want) {
        why = "a state has " + std::to_string(want) + " numbers, got " + std::to_string(v.size());
        return std::nullopt;
    }
    typename T::State s = T::solved();  // padding lanes of wide fields as solved
    size_t i = 0;
    for (const auto& o : T::kOrbitShapes) {
        // The lanes must be a rearrangement of the solved state's: a
        // permutation, or with identical pieces the solved labels (note
        // [labelled lanes] in compiler/analysis/perm/state_layout.hpp).
        const typename T::State solved = T::solved();
        std::vector<int> left(o.size, 0);
        for (int p = 0; p < o.size; ++p) ++left[fieldLane(&solved.w[o.permWord], o.laneBits, p)];
        for (int p = 0; p < o.size; ++p, ++i) {
            if (v[i] < 0 || v[i] >= o.size || left[v[i]]-- <= 0) {
                why = "not a rearrangement of the solved state's pieces: number " + std::to_string(i + 1) + " (" +
                      std::to_string(v[i]) + ")";
                return std::nullopt;
            }
            setFieldLane(&s.w[o.permWord], o.laneBits, p, static_cast<unsigned>(v[i]));
        }
    }
    for (const auto& o : T::kOrbitShapes) {
        if (o.oriWord < 0) continue;
        for (int p = 0; p < o.size; ++p, ++i) {
            if (v[i] < 0 || v[i] >= o.orient) {
                why = "orientation out of range: number " + std::to_string(i + 1);
                return std::nullopt;
            }
            setFieldLane(&s.w[o.oriWord], o.laneBits, p, static_cast<unsigned>(v[i]));
        }
    }
    return s;
}

template <class T>
std::optional<typename T::State> stateFromMoveNames(const std::string& text, std::string& why) {
    typename T::State s = T::solved();
    std::istringstream in(text);
    std::string tok;
    while (in >> tok) {
        int found = -1;
        for (int m = 0; m < T::kMoves; ++m)
            if (tok == T::kMoveNames[m]) found = m;
        if (found < 0) {
            why = "unknown move '" + tok + "'";
            return std::nullopt;
        }
        s = T::applyMove(s, found);
    }
    return s;
}

// A random state: a uniform shuffle of every orbit when the puzzle's group
// is the full symmetric group on its pieces (T::kAllPermutationsReachable),
// else a long random walk of moves.
template <class T>
typename T::State randomState(std::mt19937_64& rng) {
    typename T::State s = T::solved();
    if constexpr (T::kAllPermutationsReachable) {
        for (const auto& o : T::kOrbitShapes) {
            std::vector<int> perm(o.size);
            for (int p = 0; p < o.size; ++p) perm[p] = p;
            for (int p = o.size - 1; p > 0; --p) std::swap(perm[p], perm[std::uniform_int_distribution<int>(0, p)(rng)]);
            for (int p = 0; p < o.size; ++p) setFieldLane(&s.w[o.permWord], o.laneBits, p, static_cast<unsigned>(perm[p]));
        }
    } else if (T::kMoves > 0) {
        std::uniform_int_distribution<int> pick(0, T::kMoves - 1);
        for (int i = 0; i < 4096; ++i) s = T::applyMove(s, pick(rng));
    }
    return s;
}

// A whole decimal number in [lo, hi]; nullopt for anything else.
inline std::optional<long long> parseWholeNumber(const std::string& text, long long lo, long long hi) {
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    long long v = std::stoll(text);
    if (v < lo || v > hi) return std::nullopt;
    return v;
}

// A state's numbers on one line ("3 0 -1 ..."), each within +-2^30.
inline bool parseStateNumbers(const std::string& text, std::vector<long>& nums, std::string& why) {
    std::istringstream in(text);
    std::string tok;
    while (in >> tok) {
        auto v = parseWholeNumber(tok[0] == '-' ? tok.substr(1) : tok, 0, 1L << 30);
        if (!v) {
            why = "'" + tok + "' is not a number";
            return false;
        }
        nums.push_back(tok[0] == '-' ? -static_cast<long>(*v) : static_cast<long>(*v));
    }
    return true;
}

// note [abelian invariants]
// The phased search runs on coset coordinates, which are only defined on
// the puzzle's group G: a state outside it may yield a "solution" that does
// not replay, or a search that never ends. pzc solve checks membership
// exactly (Schreier-Sims) before it runs a solver; the solver itself checks
// what it can cheaply and exactly: the permutation parity of each orbit and
// the orientation sum of each oriented orbit are a homomorphism of G onto
// an abelian group (a move adds its own), so the values a state may have
// are the subgroup the moves' values generate. A state whose values lie
// outside it is rejected before any search.
template <class T>
std::vector<int> abelianInvariants(const typename T::State& s) {
    const std::vector<long> nums = stateNumbers<T>(s);
    std::vector<int> v;
    size_t at = 0;
    for (const auto& o : T::kOrbitShapes) {
        std::vector<bool> seen(static_cast<size_t>(o.size), false);
        int parity = 0;
        for (int i = 0; i < o.size; ++i) {
            if (seen[i]) continue;
            int len = 0;
            for (int j = i; !seen[j]; j = static_cast<int>(nums[at + j])) seen[j] = true, ++len;
            parity ^= (len + 1) & 1;
        }
        v.push_back(parity);
        at += static_cast<size_t>(o.size);
    }
    for (const auto& o : T::kOrbitShapes) {
        if (o.oriWord < 0) continue;
        long sum = 0;
        for (int p = 0; p < o.size; ++p) sum += nums[at + p];
        v.push_back(static_cast<int>(sum % o.orient));
        at += static_cast<size_t>(o.size);
    }
    return v;
}

// Whether the state's invariants are those of some move sequence.
template <class T>
bool abelianInvariantsReachable(const typename T::State& s) {
    static const std::vector<std::vector<int>> reachable = [] {
        std::vector<int> modulus;
        for (size_t o = 0; o < T::kOrbitShapes.size(); ++o) modulus.push_back(2);
        for (const auto& o : T::kOrbitShapes)
            if (o.oriWord >= 0) modulus.push_back(o.orient);
        std::vector<std::vector<int>> gens;
        for (int m = 0; m < T::kMoves; ++m) gens.push_back(abelianInvariants<T>(T::applyMove(T::solved(), m)));
        std::vector<std::vector<int>> all{std::vector<int>(modulus.size(), 0)};
        for (size_t i = 0; i < all.size() && all.size() < (1u << 16); ++i)
            for (const auto& g : gens) {
                std::vector<int> x = all[i];
                for (size_t k = 0; k < x.size(); ++k) x[k] = (x[k] + g[k]) % modulus[k];
                if (std::find(all.begin(), all.end(), x) == all.end()) all.push_back(std::move(x));
            }
        return all;
    }();
    const std::vector<int> v = abelianInvariants<T>(s);
    return std::find(reachable.begin(), reachable.end(), v) != reachable.end();
}

}  // namespace pz
