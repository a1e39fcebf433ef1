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

}  // namespace pz::ir
