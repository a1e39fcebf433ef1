#include "compiler/ir/element.hpp"

#include <numeric>

namespace pz::ir {

Element identity(const std::vector<Orbit>& orbits) {
    Element e;
    for (const auto& o : orbits) {
        std::vector<int> p(o.size);
        std::iota(p.begin(), p.end(), 0);
        e.perm.push_back(std::move(p));
        e.ori.emplace_back(o.size, 0);
    }
    return e;
}

static int mod(int v, int m) { return ((v % m) + m) % m; }

Element compose(const Element& a, const Element& b, const std::vector<Orbit>& orbits) {
    Element r;
    r.mirror = a.mirror != b.mirror;
    int eps = b.mirror ? -1 : 1;
    for (size_t o = 0; o < orbits.size(); ++o) {
        int n = orbits[o].size, m = orbits[o].orient;
        std::vector<int> p(n), q(n);
        for (int i = 0; i < n; ++i) {
            p[i] = a.perm[o][b.perm[o][i]];
            q[i] = mod(eps * a.ori[o][b.perm[o][i]] + b.ori[o][i], m);
        }
        r.perm.push_back(std::move(p));
        r.ori.push_back(std::move(q));
    }
    return r;
}

Element inverse(const Element& a, const std::vector<Orbit>& orbits) {
    // inv.perm = perm^-1; orientation solves eps(a)*inv.ori[a.perm[i]] + a.ori[i] = 0
    // for a then inv, i.e. compose(a, inv) = id: ori[i] = eps(inv)*a.ori[inv.perm[i]] + inv.ori[i].
    Element r;
    r.mirror = a.mirror;
    int eps = a.mirror ? -1 : 1;
    for (size_t o = 0; o < orbits.size(); ++o) {
        int n = orbits[o].size, m = orbits[o].orient;
        std::vector<int> p(n), q(n);
        for (int i = 0; i < n; ++i) p[a.perm[o][i]] = i;
        for (int i = 0; i < n; ++i) q[i] = mod(-eps * a.ori[o][p[i]], m);
        r.perm.push_back(std::move(p));
        r.ori.push_back(std::move(q));
    }
    return r;
}

Element power(const Element& a, long k, const std::vector<Orbit>& orbits) {
    Element base = k < 0 ? inverse(a, orbits) : a;
    if (k < 0) k = -k;
    Element r = identity(orbits);
    while (k > 0) {
        if (k & 1) r = compose(r, base, orbits);
        base = compose(base, base, orbits);
        k >>= 1;
    }
    return r;
}

mpz_class exactOrder(const Element& a, const std::vector<Orbit>& orbits) {
    if (a.mirror) return 2 * exactOrder(compose(a, a, orbits), orbits);
    mpz_class result = 1;
    for (size_t o = 0; o < orbits.size(); ++o) {
        const int n = orbits[o].size, m = orbits[o].orient;
        std::vector<char> seen(n, 0);
        for (int start = 0; start < n; ++start) {
            if (seen[start]) continue;
            // A cycle of length L with twist sum t returns each of its pieces
            // after L steps twisted by t: its order is L * m / gcd(m, t).
            long length = 0, twist = 0;
            for (int p = start; !seen[p]; p = a.perm[o][p]) {
                seen[p] = 1;
                ++length;
                twist += a.ori[o][p];
            }
            const int t = mod(static_cast<int>(twist % m), m);
            mpz_class cycle = mpz_class(length) * (m / std::gcd(m, t));
            mpz_lcm(result.get_mpz_t(), result.get_mpz_t(), cycle.get_mpz_t());
        }
    }
    return result;
}

Element power(const Element& a, const mpz_class& k, const std::vector<Orbit>& orbits) {
    const mpz_class n = exactOrder(a, orbits);
    mpz_class r;
    mpz_fdiv_r(r.get_mpz_t(), k.get_mpz_t(), n.get_mpz_t());  // 0 <= r < n
    Element base = a, result = identity(orbits);
    const size_t bits = mpz_sizeinbase(r.get_mpz_t(), 2);
    for (size_t bit = 0; bit < bits; ++bit) {
        if (mpz_tstbit(r.get_mpz_t(), bit)) result = compose(result, base, orbits);
        if (bit + 1 < bits) base = compose(base, base, orbits);
    }
    return result;
}

std::vector<int> stickerSlots(const std::vector<int>& perm, const std::vector<int>& ori, int m) {
    const size_t n = perm.size();
    std::vector<int> slots(n * m);
    for (size_t p = 0; p < n; ++p)
        for (int i = 0; i < m; ++i) slots[p * m + i] = perm[p] * m + ((i - ori[p]) % m + m) % m;
    return slots;
}

void piecesOfStickerSlots(const std::vector<int>& slots, int m, std::vector<int>& perm, std::vector<int>& ori) {
    const size_t n = slots.size() / m;
    perm.assign(n, 0);
    ori.assign(n, 0);
    for (size_t p = 0; p < n; ++p) {
        perm[p] = slots[p * m] / m;
        ori[p] = (m - slots[p * m] % m) % m;
    }
}

bool isIdentity(const Element& a) {
    if (a.mirror) return false;
    for (size_t o = 0; o < a.perm.size(); ++o)
        for (size_t i = 0; i < a.perm[o].size(); ++i)
            if (a.perm[o][i] != (int)i || a.ori[o][i] != 0) return false;
    return true;
}

long order(const Element& a, const std::vector<Orbit>& orbits) {
    Element x = a;
    long k = 1;
    while (!isIdentity(x)) {
        x = compose(x, a, orbits);
        ++k;
    }
    return k;
}

const IllegalPlacement* illegalPlacementIn(const Puzzle& puzzle, const Element& e) {
    for (const auto& il : puzzle.illegal)
        if (puzzle.orbits[il.orbit].solvedLabel[e.perm[il.orbit][il.position]] == il.label) return &il;
    return nullptr;
}

std::string illegalPlacementText(const Puzzle& puzzle, const IllegalPlacement& il) {
    const Orbit& o = puzzle.orbits[il.orbit];
    const std::string position = o.positionNames.empty() ? std::to_string(il.position) : o.positionNames[il.position];
    int piece = 0;
    while (o.solvedLabel[piece] != il.label) ++piece;
    const std::string at = o.positionNames.empty() ? std::to_string(piece) : o.positionNames[piece];
    return "orbit " + o.name + " position " + position + " holds the piece solved at " + at;
}

}  // namespace pz::ir
