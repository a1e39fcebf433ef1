#include "compiler/analysis/perm/schreier_sims.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>

namespace pz::analysis {

Perm identityPerm(int pointCount) {
    Perm p(pointCount);
    std::iota(p.begin(), p.end(), 0);
    return p;
}

Perm composePerm(const Perm& a, const Perm& b) {
    Perm r(a.size());
    for (size_t x = 0; x < a.size(); ++x) r[x] = b[a[x]];
    return r;
}

Perm inversePerm(const Perm& a) {
    Perm r(a.size());
    for (size_t x = 0; x < a.size(); ++x) r[a[x]] = (int)x;
    return r;
}

// ---- PointAction ----

PointAction::PointAction(const std::vector<ir::Orbit>& orbits) : orbits_(orbits) {
    for (const auto& o : orbits_) {
        offset_.push_back(pointCount_);
        pointCount_ += o.size * o.orient;
    }
}

Perm PointAction::toPoints(const ir::Element& e) const {
    // The piece at position q = e.perm[o][p] lands at p with orientation
    // eps * r + e.ori[o][p] (note [element convention]).
    Perm image(pointCount_);
    const int eps = e.mirror ? -1 : 1;
    for (size_t o = 0; o < orbits_.size(); ++o) {
        const int m = orbits_[o].orient;
        for (int p = 0; p < orbits_[o].size; ++p) {
            const int q = e.perm[o][p];
            for (int r = 0; r < m; ++r) {
                int landed = ((eps * r + e.ori[o][p]) % m + m) % m;
                image[point((int)o, q, r)] = point((int)o, p, landed);
            }
        }
    }
    return image;
}

ir::Element PointAction::toElement(const Perm& image) const {
    // Inverse of toPoints: the piece at q with orientation 0 lands at p with
    // orientation e.ori[o][p], i.e. e.perm[o][p] = q.
    ir::Element e;
    for (size_t o = 0; o < orbits_.size(); ++o) {
        const int m = orbits_[o].orient;
        e.perm.emplace_back(orbits_[o].size, 0);
        e.ori.emplace_back(orbits_[o].size, 0);
        for (int q = 0; q < orbits_[o].size; ++q) {
            const int x = image[point((int)o, q, 0)] - offset_[o];
            e.perm[o][x / m] = q;
            e.ori[o][x / m] = x % m;
        }
    }
    return e;
}

uint64_t uniformBelow(std::mt19937_64& rng, uint64_t n) {
    // Rejection keeps every value equally likely.
    const uint64_t limit = n == 0 ? 0 : UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        const uint64_t x = rng();
        if (x < limit) return x % n;
    }
}

// ---- StabilizerChain ----

namespace {

// Block permutations (note [blocks]); a then b.
struct Algebra {
    const std::vector<int>* mod;
    bool twisted;

    int size() const { return (int)mod->size(); }
    BlockPerm identity() const {
        BlockPerm r;
        r.img.resize(mod->size());
        std::iota(r.img.begin(), r.img.end(), 0);
        if (twisted) r.tw.assign(mod->size(), 0);
        return r;
    }
    void compose(const BlockPerm& a, const BlockPerm& b, BlockPerm& r) const {
        const size_t n = a.img.size();
        r.img.resize(n);
        for (size_t x = 0; x < n; ++x) r.img[x] = b.img[a.img[x]];
        if (twisted) {
            r.tw.resize(n);
            for (size_t x = 0; x < n; ++x) {
                int t = a.tw[x] + b.tw[a.img[x]];
                const int m = (*mod)[x];
                r.tw[x] = t >= m ? t - m : t;
            }
        }
    }
    BlockPerm compose(const BlockPerm& a, const BlockPerm& b) const {
        BlockPerm r;
        compose(a, b, r);
        return r;
    }
    BlockPerm inverse(const BlockPerm& a) const {
        BlockPerm r;
        r.img.resize(a.img.size());
        if (twisted) r.tw.resize(a.img.size());
        for (size_t x = 0; x < a.img.size(); ++x) {
            r.img[a.img[x]] = (int)x;
            if (twisted) r.tw[a.img[x]] = a.tw[x] == 0 ? 0 : (*mod)[x] - a.tw[x];
        }
        return r;
    }
    bool movesBlocks(const BlockPerm& a) const {
        for (size_t x = 0; x < a.img.size(); ++x)
            if (a.img[x] != (int)x) return true;
        return false;
    }
};

long gcdExt(long a, long b, long& x, long& y) {
    if (b == 0) {
        x = 1;
        y = 0;
        return a;
    }
    long x1, y1;
    long g = gcdExt(b, a % b, x1, y1);
    x = y1;
    y = x1 - (a / b) * y1;
    return g;
}

}  // namespace

// A subgroup of the abelian group ⊕ Z_{mod[c]}, kept as the lattice L in Z^n
// it lifts to (L contains every mod[c] e_c), in Hermite normal form: row c
// has its pivot d_c | mod[c] in column c and zeros before; a missing row
// means d_c = mod[c]. Entries are reduced mod their column's modulus (valid
// because mod[j] e_j is in L). The subgroup has prod mod[c] / d_c elements.
class KernelLattice {
public:
    explicit KernelLattice(std::vector<int> mod) : mod_(std::move(mod)), rows_(mod_.size()) {}

    mpz_class order() const {
        mpz_class r = 1;
        for (size_t c = 0; c < rows_.size(); ++c)
            if (!rows_[c].empty()) r *= (unsigned long)(mod_[c] / rows_[c][0].second);
        return r;
    }
    // Reduces v (entries in [0, mod)) to the canonical representative of v + L;
    // v is in the subgroup iff the result is zero.
    void reduce(std::vector<int>& v) const {
        for (size_t c = 0; c < v.size(); ++c) {
            if (v[c] == 0 || rows_[c].empty()) continue;
            const long q = v[c] / rows_[c][0].second;
            if (q != 0) addMultiple(v, rows_[c], -q);
        }
    }
    bool contains(std::vector<int> v) const {
        reduce(v);
        return std::all_of(v.begin(), v.end(), [](int x) { return x == 0; });
    }
    // Adds v to the subgroup; returns whether it was new.
    bool insert(std::vector<int> v) {
        bool changed = false;
        for (size_t c = 0; c < v.size(); ++c) {
            if (v[c] == 0) continue;
            const long d = rows_[c].empty() ? mod_[c] : rows_[c][0].second;
            if (v[c] % d == 0) {  // the row stays; reduce v by it
                if (!rows_[c].empty()) addMultiple(v, rows_[c], -(v[c] / d));
                continue;
            }
            std::vector<int> r = rows_[c].empty() ? unit(c) : dense(rows_[c]);
            // [a b; -v_c/g d/g] is unimodular: (r, v) -> (new row, remainder).
            long a, b;
            const long g = gcdExt(d, v[c], a, b);
            std::vector<int> row(v.size()), rest(v.size());
            for (size_t j = c; j < v.size(); ++j) {
                const long m = mod_[j];
                row[j] = (int)(((a % m) * r[j] % m + (b % m) * v[j] % m) % m + m) % m;
                rest[j] = (int)((((d / g) % m) * v[j] % m - ((v[c] / g) % m) * r[j] % m) % m + m) % m;
            }
            row[c] = (int)g;  // g < mod[c]: not reduced
            rest[c] = 0;
            if (g != d) changed = true;
            rows_[c] = sparse(row, c);
            v = std::move(rest);
        }
        return changed;
    }
    // Uniform element: a uniform multiple of each row (see the order).
    std::vector<int> random(std::mt19937_64& rng) const {
        std::vector<int> v(mod_.size(), 0);
        for (size_t c = 0; c < rows_.size(); ++c) {
            if (rows_[c].empty()) continue;
            const long k = (long)uniformBelow(rng, (uint64_t)(mod_[c] / rows_[c][0].second));
            addMultiple(v, rows_[c], k);
        }
        return v;
    }
    // The generators (rows) as dense vectors.
    std::vector<std::vector<int>> rows() const {
        std::vector<std::vector<int>> r;
        for (const auto& row : rows_)
            if (!row.empty()) r.push_back(dense(row));
        return r;
    }

private:
    using Row = std::vector<std::pair<int, int>>;  // (column, value), pivot first
    std::vector<int> unit(size_t c) const {
        std::vector<int> r(mod_.size(), 0);
        r[c] = mod_[c];  // not reduced: the implicit row mod[c] e_c
        return r;
    }
    std::vector<int> dense(const Row& row) const {
        std::vector<int> r(mod_.size(), 0);
        for (auto [c, x] : row) r[c] = x;
        return r;
    }
    static Row sparse(const std::vector<int>& v, size_t from) {
        Row r;
        for (size_t c = from; c < v.size(); ++c)
            if (v[c] != 0 || c == from) r.emplace_back((int)c, v[c]);
        return r;
    }
    void addMultiple(std::vector<int>& v, const Row& row, long k) const {
        for (auto [c, x] : row) {
            const long m = mod_[c];
            v[c] = (int)(((v[c] + (k % m) * x) % m + m) % m);
        }
    }
    std::vector<int> mod_;
    std::vector<Row> rows_;
};

struct StabilizerChain::Impl {
    // Level i: the stabiliser of blocks 0..i-1 and the orbit of block i under
    // it (the base is every block in order; most levels are trivial).
    struct Level {
        std::vector<int> labels;  // indices into strong; empty while the orbit is {i}
        std::vector<int> orbit;   // blocks; empty = {i}
        std::vector<int> edge;    // by local index in i's component: -1 none, -2 root, else label
        int full = 0;             // largest possible orbit: the blocks >= i of the component
        size_t rebuiltAt = 0;
    };

    Algebra alg;
    int n;
    std::vector<int> component, local, componentSize;
    std::vector<BlockPerm> strong, strongInv;
    std::vector<int> strongLevel;
    std::vector<Level> levels;  // one per block
    std::vector<int> active;    // levels with a non-trivial orbit, ascending
    KernelLattice kernel;
    Proof proof = Proof::None;
    size_t topResidues = 0;  // residues of the sifts from the top after the descent

    Impl(const std::vector<int>& mod, bool twisted)
        : alg{&mod, twisted}, n((int)mod.size()), levels(mod.size()), kernel(mod) {}

    int orbitSize(int i) const { return levels[i].orbit.empty() ? 1 : (int)levels[i].orbit.size(); }

    // Sifts g, which fixes blocks 0..from-1: -1 if it is in the chain's
    // group, else the level where it failed (g is then the residue, fixing
    // the earlier blocks; n means it moves no block but its twists are not
    // in the kernel).
    int sift(BlockPerm& g, int from) const {
        for (int i = from; i < n; ++i) {
            const int j = g.img[i];
            if (j == i) continue;
            if (!inOrbit(i, j)) return i;
            divide(g, i);
        }
        if (alg.twisted && !kernel.contains(g.tw)) return n;
        return -1;
    }

    // Is block j in the orbit of level i?
    bool inOrbit(int i, int j) const {
        if (j == i) return true;
        const Level& L = levels[i];
        return !L.orbit.empty() && component[j] == component[i] && L.edge[local[j]] != -1;
    }

    // g fixes blocks 0..i-1 and sends block i into level i's orbit: g becomes
    // g then u^-1 for the transversal element u with i^u = g[i], which fixes
    // blocks 0..i (one Schreier-tree edge at a time).
    void divide(BlockPerm& g, int i) const {
        const Level& L = levels[i];
        int j = g.img[i];
        if (j == i) return;
        // g and the labels fix blocks 0..i-1 (but may twist them): only
        // blocks i.. move (in place: (g then s)[x] = s[g[x]]).
        while (true) {
            const int e = L.edge[local[j]];
            if (e == -2) break;
            const BlockPerm& s = strongInv[e];
            if (alg.twisted) {
                const int* mod = alg.mod->data();
                int* gimg = g.img.data();
                int* gtw = g.tw.data();
                const int* simg = s.img.data();
                const int* stw = s.tw.data();
                // Blocks 0..i-1 are fixed by g and s: only their twists
                // add, a contiguous loop the compiler vectorises (the
                // gathers below are the costly part on big orbits).
                for (int x = 0; x < i; ++x) {
                    const int tw = gtw[x] + stw[x];
                    gtw[x] = tw >= mod[x] ? tw - mod[x] : tw;
                }
                for (int x = i; x < n; ++x) {
                    const int t = gimg[x];
                    const int tw = gtw[x] + stw[t];
                    gtw[x] = tw >= mod[x] ? tw - mod[x] : tw;
                    gimg[x] = simg[t];
                }
            } else {
                int* img = g.img.data();
                const int* simg = s.img.data();
                for (int x = i; x < n; ++x) img[x] = simg[img[x]];
            }
            j = s.img[j];
        }
    }

    // The transversal element u with i^u = j at level i (j in the orbit).
    BlockPerm transversal(int i, int j) const {
        const Level& L = levels[i];
        BlockPerm u = alg.identity(), tmp;
        if (j == i) return u;
        std::vector<int> path;
        while (true) {
            const int e = L.edge[local[j]];
            if (e == -2) break;
            path.push_back(e);
            j = strongInv[e].img[j];
        }
        for (size_t k = path.size(); k-- > 0;) {
            alg.compose(u, strong[path[k]], tmp);
            std::swap(u, tmp);
        }
        return u;
    }

    void addToOrbit(Level& L, int block, int label) {
        L.edge[local[block]] = label;
        L.orbit.push_back(block);
    }

    // Extends level i's orbit by its new label (and then by all labels).
    void extendOrbit(int i, int label) {
        Level& L = levels[i];
        if ((int)L.orbit.size() == L.full) return;
        const size_t old = L.orbit.size();
        for (size_t k = 0; k < old; ++k) {
            const int q = strong[label].img[L.orbit[k]];
            if (L.edge[local[q]] == -1) addToOrbit(L, q, label);
        }
        for (size_t k = old; k < L.orbit.size(); ++k) {
            const int p = L.orbit[k];
            for (int s : L.labels) {
                const int q = strong[s].img[p];
                if (L.edge[local[q]] == -1) addToOrbit(L, q, s);
            }
        }
    }

    // Breadth first over all labels: a level's first label alone makes a
    // path along its cycle; rebuilding as labels double keeps trees shallow
    // (depth about log |orbit| / log labels for random labels).
    void rebuildTree(int i) {
        Level& L = levels[i];
        for (int b : L.orbit) L.edge[local[b]] = -1;
        L.orbit.clear();
        addToOrbit(L, i, -2);
        for (size_t k = 0; k < L.orbit.size(); ++k) {
            const int p = L.orbit[k];
            for (int s : L.labels) {
                const int q = strong[s].img[p];
                if (L.edge[local[q]] == -1) addToOrbit(L, q, s);
            }
        }
        L.rebuiltAt = L.labels.size();
    }

    // Adds a residue that failed at `level` (see sift).
    void addResidue(BlockPerm h, int level) {
        if (level == n) {
            kernel.insert(h.tw);
            return;
        }
        Level& top = levels[level];
        if (top.orbit.empty()) {
            // Every strong generator so far fixes this block; those of deeper
            // levels are its labels too.
            top.edge.assign(componentSize[component[level]], -1);
            top.full = componentSize[component[level]] - local[level];
            for (size_t s = 0; s < strong.size(); ++s)
                if (strongLevel[s] > level) top.labels.push_back((int)s);
            addToOrbit(top, level, -2);
            active.insert(std::upper_bound(active.begin(), active.end(), level), level);
        }
        const int id = (int)strong.size();
        strongInv.push_back(alg.inverse(h));
        strong.push_back(std::move(h));
        strongLevel.push_back(level);
        for (int i : active) {
            if (i > level) break;
            Level& L = levels[i];
            L.labels.push_back(id);
            if (L.labels.size() <= 64 && L.labels.size() >= 2 * std::max<size_t>(L.rebuiltAt, 1)) rebuildTree(i);
            else extendOrbit(i, id);
        }
    }

    // Closes the kernel under conjugation by gens (it is normal in <gens>):
    // a pure twist conjugated by g is the twist with its blocks moved by g.
    // Worklist: the rows and every vector that enlarged the lattice generate
    // it, so their conjugates are all that need inserting.
    bool closeKernel(const std::vector<BlockPerm>& gens) {
        if (!alg.twisted) return false;
        bool changed = false;
        std::vector<std::vector<int>> work = kernel.rows();
        std::vector<int> v;
        while (!work.empty()) {
            const std::vector<int> row = std::move(work.back());
            work.pop_back();
            for (const auto& g : gens) {
                v.assign(row.size(), 0);
                for (size_t b = 0; b < row.size(); ++b) v[g.img[b]] = row[b];
                if (kernel.insert(v)) {
                    changed = true;
                    work.push_back(v);
                }
            }
        }
        return changed;
    }

    // Sifts g and adds its residue; returns whether the chain changed.
    bool siftAndAdd(BlockPerm g) {
        const int level = sift(g, 0);
        if (level < 0) return false;
        addResidue(std::move(g), level);
        return true;
    }

    // note [descending pool]
    // Sifting random elements of G from the top finds about one new label
    // per sift (the residue fails at the first incomplete level), and every
    // sift walks the levels already complete: n sifts of n levels, each step
    // costing n, on a 1024-block orbit. Instead a pool of elements of G^(i)
    // (the stabiliser of blocks 0..i-1) goes down the levels once: at level
    // i, products of pool elements (product replacement, all in G^(i)) that
    // send block i outside the orbit become labels, until `quietRun` in a
    // row land inside it; then every pool element is divided by its
    // transversal element and lies in G^(i+1). What reaches the end is pure
    // twists, kernel elements. Every label is an element of G, so the chain
    // stays a chain of subgroups of G and its order a lower bound; whether
    // it is all of G is decided afterwards, as before (the random sifts from
    // the top, then the proven bound or the deterministic verification).
    // A level where no pool element moves block i is skipped: products of
    // the pool fix it too.
    void descend(std::vector<BlockPerm> pool, uint64_t seed) {
        if (pool.size() < 2) return;
        std::mt19937_64 rng(seed);
        const int quietRun = 8;
        BlockPerm acc = alg.identity(), tmp;
        for (int i = 0; i < n; ++i) {
            if (acc.img[i] == i && std::none_of(pool.begin(), pool.end(), [&](const BlockPerm& p) { return p.img[i] != i; }))
                continue;
            for (int quiet = 0; quiet < quietRun;) {
                const size_t a = uniformBelow(rng, pool.size());
                size_t b = uniformBelow(rng, pool.size() - 1);
                if (b >= a) ++b;
                if (rng() & 1) alg.compose(pool[a], pool[b], tmp);
                else alg.compose(pool[b], pool[a], tmp);
                std::swap(pool[a], tmp);
                alg.compose(acc, pool[a], tmp);
                std::swap(acc, tmp);
                if (inOrbit(i, acc.img[i])) {
                    ++quiet;
                } else {
                    addResidue(acc, i);
                    quiet = 0;
                }
            }
            for (auto& p : pool) {
                if (!inOrbit(i, p.img[i])) addResidue(p, i);
                divide(p, i);
            }
            divide(acc, i);
        }
        if (alg.twisted) {
            for (const auto& p : pool) kernel.insert(p.tw);
            kernel.insert(acc.tw);
        }
    }

    mpz_class order() const {
        mpz_class r = kernel.order();
        for (int i : active) r *= (unsigned long)levels[i].orbit.size();
        return r;
    }
};

namespace {

// Random elements of <gens> by product replacement with an accumulator
// (Celler, Leedham-Green, Murray, Niemeyer, O'Brien 1995, "rattle"), its
// slots seeded with random subproducts of all generators. With more
// generators than slots the slots may generate a proper subgroup (11
// subproducts cannot span an abelian quotient of rank 13, e.g. the 13 sign
// bits of an 8x8x8 cube with its centres' colours swapped freely), so then
// one step in four multiplies a slot by a generator instead of a slot.
class RandomProducts {
public:
    RandomProducts(const Algebra& alg, const std::vector<BlockPerm>& gens, uint64_t seed)
        : alg_(alg), rng_(seed), acc_(alg.identity()) {
        if (gens.size() > 11) gens_ = &gens;
        const size_t slots = 11;
        if (gens.size() <= slots) {
            for (size_t i = 0; i < slots; ++i) slots_.push_back(gens[i % gens.size()]);
        } else {
            for (size_t i = 0; i < slots; ++i) {
                BlockPerm x = alg.identity(), tmp;
                for (const auto& g : gens)
                    if (rng_() & 1) {
                        alg.compose(x, g, tmp);
                        std::swap(x, tmp);
                    }
                slots_.push_back(std::move(x));
            }
        }
        // Warm up; with generators mixed in, long enough for each to be
        // multiplied in about twice.
        const size_t warmUp = 60 + (gens_ ? 8 * gens.size() : 0);
        for (size_t i = 0; i < warmUp; ++i) next();
    }
    const BlockPerm& next() {
        const size_t n = slots_.size();
        const size_t i = uniformBelow(rng_, n);
        size_t j = uniformBelow(rng_, n - 1);
        if (j >= i) ++j;
        const BlockPerm& other = gens_ && (rng_() & 3) == 0 ? (*gens_)[uniformBelow(rng_, gens_->size())] : slots_[j];
        BlockPerm tmp;
        if (rng_() & 1) alg_.compose(slots_[i], other, tmp);
        else alg_.compose(other, slots_[i], tmp);
        std::swap(slots_[i], tmp);
        alg_.compose(acc_, slots_[i], tmp);
        std::swap(acc_, tmp);
        return acc_;
    }

private:
    const Algebra& alg_;
    std::mt19937_64 rng_;
    std::vector<BlockPerm> slots_;
    const std::vector<BlockPerm>* gens_ = nullptr;  // set when the slots alone may not generate
    BlockPerm acc_;
};

mpz_class factorialOf(long n) {
    mpz_class r;
    mpz_fac_ui(r.get_mpz_t(), (unsigned long)n);
    return r;
}

bool isPrime(int p) {
    if (p < 2) return false;
    for (int d = 2; d * d <= p; ++d)
        if (p % d == 0) return false;
    return true;
}

// Odd permutation of a component (local indices)?
bool oddOn(const std::vector<int>& perm) {
    std::vector<bool> seen(perm.size(), false);
    size_t cycles = 0;
    for (size_t x = 0; x < perm.size(); ++x) {
        if (seen[x]) continue;
        ++cycles;
        for (size_t y = x; !seen[y]; y = (size_t)perm[y]) seen[y] = true;
    }
    return (perm.size() - cycles) % 2 == 1;
}

// Jordan's theorem: a transitive group of degree k containing a cycle of
// prime length p with k/2 < p <= k-3 is primitive (a block system would
// need blocks of at least p points or at least p blocks, both over k/2) and
// therefore contains Alt(k). g's restriction has such a p-cycle as a power
// when no other cycle length is a multiple of p.
bool hasJordanCycle(const std::vector<int>& perm) {
    const int k = (int)perm.size();
    std::vector<bool> seen(k, false);
    std::vector<int> lengths;
    for (int x = 0; x < k; ++x) {
        if (seen[x]) continue;
        int len = 0;
        for (int y = x; !seen[y]; y = perm[y]) seen[y] = true, ++len;
        lengths.push_back(len);
    }
    for (int p : lengths) {
        if (2 * p <= k || p > k - 3 || !isPrime(p)) continue;
        int multiples = 0;
        for (int len : lengths) multiples += len % p == 0;
        if (multiples == 1) return true;
    }
    return false;
}

// The order of a permutation group on few points, by closure.
std::pair<mpz_class, bool> smallGroupOrder(int k, const std::vector<std::vector<int>>& gens) {
    std::vector<int> id(k);
    std::iota(id.begin(), id.end(), 0);
    std::set<std::vector<int>> seen{id};
    std::vector<std::vector<int>> unvisited{id};
    bool odd = false;
    while (!unvisited.empty()) {
        auto x = unvisited.back();
        unvisited.pop_back();
        for (const auto& g : gens) {
            std::vector<int> y(k);
            for (int i = 0; i < k; ++i) y[i] = g[x[i]];
            if (seen.insert(y).second) {
                odd = odd || oddOn(y);
                unvisited.push_back(std::move(y));
            }
        }
    }
    return {mpz_class((unsigned long)seen.size()), odd};
}

using LocalPerm = std::vector<int>;

struct TransitiveBound {
    mpz_class order;
    bool odd = false;  // the bounding group has odd permutations
};

// An upper bound of a transitive group of degree k given by generators,
// with `witnesses` (elements of the group) to find a Jordan cycle in:
// - at most 6 points: the group itself, by closure;
// - a Jordan cycle (hasJordanCycle): Alt(k), or Sym(k) if a generator is odd;
// - otherwise a block system (Atkinson's algorithm: the finest block system
//   with 0 and x in one block, for each x) with blocks of b points and l
//   blocks: G <= Y wr Z for Y the block stabiliser acting on its block
//   (generated by Schreier generators) and Z the action on blocks, bounded
//   recursively. None when the group is primitive without a Jordan cycle.
std::optional<TransitiveBound> boundTransitive(int k, const std::vector<LocalPerm>& gens,
                                               const std::vector<LocalPerm>& witnesses) {
    if (k == 1) return TransitiveBound{1, false};
    if (k <= 6) {
        auto [order, odd] = smallGroupOrder(k, gens);
        return TransitiveBound{order, odd};
    }
    bool odd = false;
    for (const auto& g : gens) odd = odd || oddOn(g);
    for (const auto& w : witnesses)
        if (hasJordanCycle(w)) {
            mpz_class order = factorialOf(k);
            if (!odd) order /= 2;
            return TransitiveBound{order, odd};
        }
    // The smallest block containing 0 over all x.
    std::vector<int> best;
    int bestSize = k;
    std::vector<int> parent(k), size(k);
    auto find = [&](int x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (int x = 1; x < k; ++x) {
        std::iota(parent.begin(), parent.end(), 0);
        std::fill(size.begin(), size.end(), 1);
        std::vector<std::pair<int, int>> queue{{0, x}};
        parent[x] = 0;
        size[0] = 2;
        bool whole = false;
        for (size_t q = 0; q < queue.size() && !whole; ++q) {
            for (const auto& g : gens) {
                int a = find(g[queue[q].first]), b = find(g[queue[q].second]);
                if (a == b) continue;
                if (size[a] < size[b]) std::swap(a, b);
                parent[b] = a;
                size[a] += size[b];
                if (2 * size[a] > k) {
                    whole = true;
                    break;
                }
                queue.emplace_back(a, b);
            }
        }
        if (whole) continue;
        const int blockSize = size[find(0)];
        if (blockSize < bestSize) {
            bestSize = blockSize;
            best.assign(k, 0);
            for (int y = 0; y < k; ++y) best[y] = find(y);
        }
    }
    if (bestSize == k) return std::nullopt;
    // Number the blocks; B0 is the block of point 0.
    std::vector<int> blockOf(k, -1), rootBlock(k, -1), firstPoint;
    for (int y = 0; y < k; ++y) {
        int& id = rootBlock[best[y]];
        if (id < 0) {
            id = (int)firstPoint.size();
            firstPoint.push_back(y);
        }
        blockOf[y] = id;
    }
    const int l = (int)firstPoint.size(), b = k / l;
    std::vector<int> inB0;  // index of a point within block 0, or -1
    std::vector<int> indexInB0(k, -1);
    for (int y = 0; y < k; ++y)
        if (blockOf[y] == 0) {
            indexInB0[y] = (int)inB0.size();
            inB0.push_back(y);
        }
    auto induced = [&](const LocalPerm& g) {
        LocalPerm r(l);
        for (int B = 0; B < l; ++B) r[B] = blockOf[g[firstPoint[B]]];
        return r;
    };
    std::vector<LocalPerm> zGens, zWitnesses;
    for (const auto& g : gens) zGens.push_back(induced(g));
    for (const auto& w : witnesses) zWitnesses.push_back(induced(w));
    // Transversal t[B] mapping B0 to B, breadth first over the generators.
    std::vector<LocalPerm> t(l);
    LocalPerm id(k);
    std::iota(id.begin(), id.end(), 0);
    t[0] = id;
    std::vector<int> queue{0};
    for (size_t q = 0; q < queue.size(); ++q)
        for (const auto& g : gens) {
            const int B = blockOf[g[firstPoint[queue[q]]]];
            if (!t[B].empty()) continue;
            t[B].resize(k);
            for (int y = 0; y < k; ++y) t[B][y] = g[t[queue[q]][y]];
            queue.push_back(B);
        }
    auto restrictToB0 = [&](const LocalPerm& g) {  // g maps B0 to B0
        LocalPerm r(b);
        for (int i = 0; i < b; ++i) r[i] = indexInB0[g[inB0[i]]];
        return r;
    };
    // x then t[B]^-1 on B0, where B is the image of B0 under x.
    auto backToB0 = [&](const LocalPerm& x) {
        const LocalPerm& tb = t[blockOf[x[firstPoint[0]]]];
        LocalPerm inv(k);
        for (int y = 0; y < k; ++y) inv[tb[y]] = y;
        LocalPerm r(k);
        for (int y = 0; y < k; ++y) r[y] = inv[x[y]];
        return restrictToB0(r);
    };
    std::vector<LocalPerm> yGens, yWitnesses;
    std::set<LocalPerm> seen;
    for (int B = 0; B < l; ++B)
        for (const auto& g : gens) {
            LocalPerm x(k);
            for (int y = 0; y < k; ++y) x[y] = g[t[B][y]];
            LocalPerm r = backToB0(x);
            if (seen.insert(r).second) yGens.push_back(std::move(r));
        }
    for (const auto& w : witnesses) yWitnesses.push_back(backToB0(w));
    auto z = boundTransitive(l, zGens, zWitnesses);
    if (!z) return std::nullopt;
    auto y = boundTransitive(b, yGens, yWitnesses);
    if (!y) return std::nullopt;
    mpz_class order;
    mpz_pow_ui(order.get_mpz_t(), y->order.get_mpz_t(), (unsigned long)l);
    return TransitiveBound{order * z->order, y->odd || (z->odd && b % 2 == 1)};
}

}  // namespace

// Solves sum_j a_j c_j = b (mod m) for a few unknowns c_j: rows are reduced
// to echelon form by unimodular (extended gcd) row operations, then solved
// from the last column, free unknowns 0. May miss a solution for composite m
// (the echelon form is not a Howell form); callers verify what it returns.
class ModularSystem {
public:
    ModularSystem(int unknowns, long m) : k_(unknowns), m_(m), pivot_(unknowns) {}
    // Adds sum_j row[j] c_j = row[k]; false when the system became inconsistent.
    bool add(std::vector<long> row) {
        for (auto& x : row) x = ((x % m_) + m_) % m_;
        for (int j = 0; j < k_; ++j) {
            if (row[j] == 0) continue;
            if (pivot_[j].empty()) {
                pivot_[j] = std::move(row);
                return true;
            }
            std::vector<long>& p = pivot_[j];
            long a, b;
            const long g = gcdExt(p[j], row[j], a, b);
            const long pg = p[j] / g, rg = row[j] / g;
            std::vector<long> top(k_ + 1), rest(k_ + 1);
            for (int l = 0; l <= k_; ++l) {
                top[l] = (((a % m_) * p[l] + (b % m_) * row[l]) % m_ + m_) % m_;
                rest[l] = ((pg % m_ * row[l] - rg % m_ * p[l]) % m_ + m_) % m_;
            }
            p = std::move(top);
            row = std::move(rest);
        }
        return row[k_] == 0;
    }
    std::optional<std::vector<long>> solve() const {
        std::vector<long> c(k_, 0);
        for (int j = k_ - 1; j >= 0; --j) {
            if (pivot_[j].empty()) continue;
            const auto& p = pivot_[j];
            long r = p[k_];
            for (int l = j + 1; l < k_; ++l) r = (r - p[l] * c[l]) % m_;
            r = (r + m_) % m_;
            long x, y;
            const long g = gcdExt(p[j], m_, x, y);  // x p = g (mod m)
            if (r % g != 0) return std::nullopt;
            const long mg = m_ / g;
            c[j] = (((r / g) % mg) * ((x % mg + mg) % mg)) % mg;
        }
        return c;
    }

private:
    int k_;
    long m_;
    std::vector<std::vector<long>> pivot_;  // pivot_[j]: row with leading column j, or empty
};

// note [constant twists]
// Conjugating g = (pi, t) by a pure twist u (u^-1 g u, note [blocks] order)
// gives the twists t'[x] = t[x] - u[x] + u[pi(x)]. If some u makes t' of
// every generator constant on each orbit C of blocks (c_{g,C}), the
// conjugate of G lies in the direct product of those constant twists with
// the block permutations (constant twists commute with them), so projecting
// to the constants is a homomorphism. Per orbit, with u = 0 at its first
// block, u is propagated along a spanning tree of the Schreier graph as an
// affine form in the unknowns c_{g,C}; every other edge gives a linear
// equation mod the orbit's modulus. The same works for the twists reduced
// mod a divisor d of the modulus (reduction is a homomorphism); the d for
// which a solution exists are closed under divisors and lcm, so each orbit
// takes the largest d with a solution (d = 1 always has one).

// The constants c_g (mod d) for the orbit `blocks`, each solution checked
// against every edge; none when the system has no solution (or the solver
// missed it, note ModularSystem).
static std::optional<std::vector<long>> orbitConstants(const std::vector<int>& blocks, long d,
                                                       const std::vector<BlockPerm>& gens,
                                                       std::vector<std::vector<long>>& form) {
    const int k = (int)gens.size();
    ModularSystem system(k, d);
    for (int b : blocks) form[b].clear();
    form[blocks[0]].assign(k + 1, 0);
    std::vector<int> queue{blocks[0]};
    for (size_t q = 0; q < queue.size(); ++q) {
        const int x = queue[q];
        for (int g = 0; g < k; ++g) {
            const int y = gens[g].img[x];
            // u[y] = u[x] + c_g - t_g[x]
            std::vector<long> f = form[x];
            f[g] += 1;
            f[k] -= gens[g].tw[x];
            for (long& v : f) v %= d;
            if (form[y].empty()) {
                form[y] = std::move(f);
                queue.push_back(y);
                continue;
            }
            // form[y] - f = 0: sum (form[y] - f)_j c_j = (f - form[y])_k
            std::vector<long> row(k + 1);
            for (int j = 0; j < k; ++j) row[j] = form[y][j] - f[j];
            row[k] = f[k] - form[y][k];
            if (!system.add(std::move(row))) return std::nullopt;
        }
    }
    auto c = system.solve();
    if (!c) return std::nullopt;
    std::vector<long> u(form.size(), 0);
    for (int b : blocks) {
        long v = form[b][k];
        for (int j = 0; j < k; ++j) v += form[b][j] * (*c)[j];
        u[b] = ((v % d) + d) % d;
    }
    for (int g = 0; g < k; ++g)
        for (int x : blocks)
            if (((gens[g].tw[x] - u[x] + u[gens[g].img[x]] - (*c)[g]) % d + d) % d != 0) return std::nullopt;
    return c;
}

struct ConstantTwists {
    std::vector<int> modulus;          // d per orbit of `twisted`
    std::vector<std::vector<int>> c;   // c[g][i] mod modulus[i]
};

// The largest d per orbit of `twisted` (members[twisted[i]], modulus m_i)
// and its constants.
static ConstantTwists constantTwists(const std::vector<int>& mod, const std::vector<std::vector<int>>& members,
                                     const std::vector<int>& twisted, const std::vector<BlockPerm>& gens) {
    ConstantTwists r;
    r.modulus.assign(twisted.size(), 1);
    r.c.assign(gens.size(), std::vector<int>(twisted.size(), 0));
    std::vector<std::vector<long>> form(mod.size());  // u[b]: coefficients of c_g, then the constant
    for (size_t i = 0; i < twisted.size(); ++i) {
        const auto& blocks = members[twisted[i]];
        const int m = mod[blocks[0]];
        for (int d = m; d > 1; --d) {
            if (m % d != 0) continue;
            auto c = orbitConstants(blocks, d, gens, form);
            if (!c) continue;
            r.modulus[i] = d;
            for (size_t g = 0; g < gens.size(); ++g) r.c[g][i] = (int)(*c)[g];
            break;
        }
    }
    return r;
}

// note [order certificate]
// An upper bound of |G| that the chain's order (a lower bound) may meet:
// G acts on each orbit C of blocks as a transitive group G_C, and
// G <= X = {x in (prod_C X_C) ⋉ twists : chi(x) in chi(G)}, where X_C
// contains G_C (boundTransitive: the group itself on at most 6 blocks; Alt
// or Sym by Jordan's theorem with an element of G as witness; a wreath
// product over a block system, recursively), and chi collects the
// homomorphisms sign on C (for C where X_C has odd elements) and twist sum
// on C (mod its modulus) into an abelian group A:
// |X| = prod |X_C| * prod mod[b] * |chi(G)| / |A|, with chi(G) generated by
// the generators' images. If some orbit has no certificate there is no bound.
// When G, its twists reduced mod d_C on each orbit C, is conjugate into
// constant twists times block permutations (note [constant twists]), a
// second bound is |X'| * prod (m_C / d_C)^|C| (the kernel of the reduction),
// |X'| = prod |X_C| * prod d_C * |chi'(G)| / |A'|, with chi' taking the
// constant twist per orbit (mod d_C) instead of the twist sum: X' is the
// subgroup of (constants) x prod X_C with chi' in chi'(G), which contains
// the conjugate of the reduced G. The smaller bound is used.
static std::optional<mpz_class> upperBound(const StabilizerChain::Impl& impl, const std::vector<int>& mod,
                                           const std::vector<BlockPerm>& gens,
                                           const std::vector<BlockPerm>& witnesses) {
    const int n = (int)mod.size();
    const int components = (int)impl.componentSize.size();
    std::vector<std::vector<int>> members(components);
    for (int b = 0; b < n; ++b) members[impl.component[b]].push_back(b);
    auto restrict = [&](const BlockPerm& g, int c) {
        std::vector<int> r;
        for (int b : members[c]) r.push_back(impl.local[g.img[b]]);
        return r;
    };
    mpz_class blocks = 1, twists = 1;
    std::vector<int> oddComponents, twistedComponents;
    for (int c = 0; c < components; ++c) {
        const int k = (int)members[c].size();
        std::vector<LocalPerm> localGens, localWitnesses;
        for (const auto& g : gens) localGens.push_back(restrict(g, c));
        for (const auto& w : witnesses) localWitnesses.push_back(restrict(w, c));
        auto x = boundTransitive(k, localGens, localWitnesses);
        if (!x) return std::nullopt;
        blocks *= x->order;
        const bool odd = x->odd;
        if (odd) oddComponents.push_back(c);
        if (impl.alg.twisted && mod[members[c][0]] > 1) twistedComponents.push_back(c);
        if (impl.alg.twisted)
            for (int b : members[c]) twists *= (unsigned long)mod[b];
    }
    std::vector<int> amod;
    for (size_t i = 0; i < oddComponents.size(); ++i) amod.push_back(2);
    for (int c : twistedComponents) amod.push_back(mod[members[c][0]]);
    if (amod.empty()) return blocks * twists;
    mpz_class whole = 1;
    for (int m : amod) whole *= (unsigned long)m;
    // |chi(G)| for chi = (signs, twist[g] per twisted component).
    auto imageOrder = [&](const std::function<int(size_t, size_t)>& twist) {
        KernelLattice image(amod);
        for (size_t g = 0; g < gens.size(); ++g) {
            std::vector<int> v;
            for (int c : oddComponents) v.push_back(oddOn(restrict(gens[g], c)) ? 1 : 0);
            for (size_t i = 0; i < twistedComponents.size(); ++i) v.push_back(twist(g, i));
            image.insert(v);
        }
        return image.order();
    };
    mpz_class bound = blocks * twists * imageOrder([&](size_t g, size_t i) {
                          const auto& bs = members[twistedComponents[i]];
                          long sum = 0;
                          for (int b : bs) sum += gens[g].tw[b];
                          return (int)(sum % mod[bs[0]]);
                      }) /
                      whole;
    if (twistedComponents.empty()) return bound;
    // note [constant twists]: reduced mod d_C per orbit, G is conjugate into
    // constants x block permutations; the kernel of the reduction is at most
    // the twists that are 0 mod d_C, (m_C / d_C)^|C| per orbit.
    const ConstantTwists constant = constantTwists(mod, members, twistedComponents, gens);
    std::vector<int> dmod(oddComponents.size(), 2);
    std::vector<size_t> reduced;  // orbits with d_C > 1
    mpz_class sharper = blocks, dwhole = 1;
    for (size_t i = 0; i < twistedComponents.size(); ++i) {
        const auto& bs = members[twistedComponents[i]];
        const unsigned long d = (unsigned long)constant.modulus[i];
        mpz_class rest;
        mpz_ui_pow_ui(rest.get_mpz_t(), (unsigned long)mod[bs[0]] / d, bs.size());
        sharper *= rest;
        if (d == 1) continue;
        reduced.push_back(i);
        dmod.push_back((int)d);
    }
    if (reduced.empty()) return bound;
    for (int m : dmod) dwhole *= (unsigned long)m;
    KernelLattice image(dmod);
    for (size_t g = 0; g < gens.size(); ++g) {
        std::vector<int> v;
        for (int c : oddComponents) v.push_back(oddOn(restrict(gens[g], c)) ? 1 : 0);
        for (size_t i : reduced) v.push_back(constant.c[g][i]);
        image.insert(v);
    }
    // |X'| = prod |X_C| * prod d_C * |chi'(G)| / |A'| * prod (m_C/d_C)^|C|
    // with |A'| = 2^odd * prod d_C.
    for (size_t i : reduced) sharper *= (unsigned long)constant.modulus[i];
    sharper = sharper * image.order() / dwhole;
    if (sharper < bound) bound = sharper;
    return bound;
}

StabilizerChain::StabilizerChain(int pointCount) : StabilizerChain(std::vector<int>(pointCount, 1)) {}

StabilizerChain::StabilizerChain(const std::vector<int>& moduli) : moduli_(moduli) {
    for (int m : moduli_) {
        if (m < 1) throw std::invalid_argument("StabilizerChain: modulus below 1");
        offset_.push_back(pointCount_);
        pointCount_ += m;
    }
}

StabilizerChain::~StabilizerChain() = default;

BlockPerm StabilizerChain::toBlocks(const Perm& p) const {
    if ((int)p.size() != pointCount_) throw std::invalid_argument("StabilizerChain: permutation of the wrong size");
    const bool twisted = pointCount_ != (int)moduli_.size();
    BlockPerm r;
    if (!twisted) {
        r.img = p;
        return r;
    }
    // Point -> block through a reverse table of offsets.
    r.img.resize(moduli_.size());
    r.tw.resize(moduli_.size());
    for (size_t b = 0; b < moduli_.size(); ++b) {
        const int target = p[offset_[b]];
        const size_t to = std::upper_bound(offset_.begin(), offset_.end(), target) - offset_.begin() - 1;
        r.img[b] = (int)to;
        r.tw[b] = target - offset_[to];
    }
    return r;
}

Perm StabilizerChain::toPoints(const BlockPerm& p) const {
    if (p.tw.empty()) return p.img;
    Perm r(pointCount_);
    for (size_t b = 0; b < moduli_.size(); ++b) {
        const int m = moduli_[b];
        for (int x = 0; x < m; ++x) r[offset_[b] + x] = offset_[p.img[b]] + (x + p.tw[b]) % m;
    }
    return r;
}

void StabilizerChain::addGenerator(const Perm& p) { addGenerator(toBlocks(p)); }

void StabilizerChain::addGenerator(const BlockPerm& p) {
    if ((int)p.img.size() != blockCount()) throw std::invalid_argument("StabilizerChain: generator of the wrong size");
    BlockPerm g = p;
    const bool twisted = pointCount_ != (int)moduli_.size();
    if (twisted && g.tw.empty()) g.tw.assign(moduli_.size(), 0);
    if (!twisted) g.tw.clear();
    // Already in the group: nothing changes (the chain is exact).
    if (impl_ && contains(g)) return;
    generators_.push_back(std::move(g));
    impl_.reset();
}

void StabilizerChain::build() const {
    if (impl_) return;
    const bool twisted = pointCount_ != (int)moduli_.size();
    auto impl = std::make_unique<Impl>(moduli_, twisted);
    const int n = (int)moduli_.size();
    // Orbits of blocks under the generators (union-find).
    std::vector<int> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const auto& g : generators_)
        for (int b = 0; b < n; ++b) parent[find(b)] = find(g.img[b]);
    impl->component.assign(n, -1);
    impl->local.assign(n, 0);
    std::vector<int> idOf(n, -1);
    for (int b = 0; b < n; ++b) {
        const int root = find(b);
        if (idOf[root] < 0) {
            idOf[root] = (int)impl->componentSize.size();
            impl->componentSize.push_back(0);
        }
        impl->component[b] = idOf[root];
        impl->local[b] = impl->componentSize[idOf[root]]++;
    }
    impl_ = std::move(impl);
    Impl& c = *impl_;
    std::vector<BlockPerm> gens;
    for (const auto& g : generators_)
        if (c.alg.movesBlocks(g) || (twisted && std::any_of(g.tw.begin(), g.tw.end(), [](int t) { return t != 0; })))
            gens.push_back(g);
    if (gens.empty()) {
        c.proof = Proof::Verified;
        return;
    }
    // 1. Random phase (note [randomised schreier-sims]).
    RandomProducts random(c.alg, gens, 0x5eed5c4e1e75ULL);
    {
        std::vector<BlockPerm> pool;
        for (int k = 0; k < 10; ++k) pool.push_back(random.next());
        c.descend(std::move(pool), 0xde5cE7d5eedULL);
    }
    c.closeKernel(gens);
    // Only random elements: a generator as the first label of a level would
    // make a deep Schreier tree (a long cycle is a path).
    const int run = 12;
    for (int quiet = 0; quiet < run;) {
        const bool added = c.siftAndAdd(random.next());
        c.topResidues += added;
        quiet = added ? 0 : quiet + 1;
    }
    // The kernel is normal: its conjugates by the generators belong to it.
    c.closeKernel(gens);
    // 2a. A known order, or an upper bound, that the order meets.
    if (knownOrder_ != 0) {
        for (int extra = 0; extra < 64 && c.order() < knownOrder_; ++extra) c.siftAndAdd(random.next());
        if (c.order() == knownOrder_) {
            c.proof = Proof::KnownOrder;
            return;
        }
        if (c.order() > knownOrder_)
            throw std::logic_error("StabilizerChain: order " + c.order().get_str() + " above the known order " +
                                   knownOrder_.get_str());
    }
    std::vector<BlockPerm> witnesses = c.strong;
    witnesses.insert(witnesses.end(), gens.begin(), gens.end());
    for (int i = 0; i < 200; ++i) witnesses.push_back(random.next());
    if (auto bound = upperBound(c, moduli_, gens, witnesses)) {
        // Every generator must be in the chain's group for the lower bound
        // to be |G| (it is always a lower bound: the chain's elements are in G).
        // Random elements may stay in a proper subgroup for a while when the
        // abelian quotient's rank exceeds the slots (big cubes: a sign bit
        // per orbit); random elements times each generator reach it cheaply,
        // and the bound says when to stop. A sifted element is in G, so the
        // order stays a lower bound.
        for (size_t t = 0; t < 32 * gens.size() && c.order() < *bound; ++t)
            c.topResidues += c.siftAndAdd(c.alg.compose(random.next(), gens[t % gens.size()]));
        if (*bound == c.order()) {
            c.proof = Proof::UpperBound;
            return;
        }
        if (*bound < c.order())
            throw std::logic_error("StabilizerChain: order " + c.order().get_str() + " above its proven upper bound " +
                                   bound->get_str());
    }
    // 2b. Deterministic verification.
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& g : gens) changed = c.siftAndAdd(g) || changed;
        for (int idx = (int)c.active.size() - 1; idx >= 0; --idx) {
            const int i = c.active[idx];
            int failed = -1;
            for (size_t k = 0; k < c.levels[i].orbit.size() && failed < 0; ++k) {
                const BlockPerm u = c.transversal(i, c.levels[i].orbit[k]);
                for (size_t s = 0; s < c.levels[i].labels.size(); ++s) {
                    BlockPerm x = c.alg.compose(u, c.strong[c.levels[i].labels[s]]);
                    failed = c.sift(x, i);
                    if (failed < 0) continue;
                    c.addResidue(std::move(x), failed);
                    changed = true;
                    break;
                }
            }
            // A new label at level `failed` changes the levels up to it:
            // re-verify from there (a kernel element changes none).
            if (failed >= 0 && failed < c.n)
                idx = (int)(std::lower_bound(c.active.begin(), c.active.end(), failed) - c.active.begin()) + 1;
        }
        // The kernel must be normal in G: closed under conjugation by the
        // generators (a pure twist conjugated is its blocks moved).
        if (c.closeKernel(gens)) changed = true;
    }
    c.proof = Proof::Verified;
}

void StabilizerChain::setKnownOrder(const mpz_class& order) {
    if (order == knownOrder_) return;
    knownOrder_ = order;
    impl_.reset();
}

StabilizerChain::Proof StabilizerChain::proof() const {
    build();
    return impl_->proof;
}

size_t StabilizerChain::residuesAfterDescent() const {
    build();
    return impl_->topResidues;
}

int StabilizerChain::baseLength() const {
    build();
    return (int)impl_->active.size();
}

int StabilizerChain::orbitSize(int level) const {
    build();
    if (level < 0 || level >= (int)impl_->levels.size()) return 1;
    return impl_->orbitSize(level);
}

std::vector<int> StabilizerChain::basicOrbit(int level) const {
    build();
    if (level < 0 || level >= (int)impl_->levels.size()) return {};
    const auto& orbit = impl_->levels[level].orbit;
    return orbit.empty() ? std::vector<int>{level} : orbit;
}

BlockPerm StabilizerChain::transversalElement(int level, int image) const {
    build();
    if (level < 0 || level >= (int)impl_->levels.size() || !impl_->inOrbit(level, image))
        throw std::invalid_argument("transversalElement: block not in the level's orbit");
    return impl_->transversal(level, image);
}

mpz_class StabilizerChain::order() const {
    build();
    return impl_->order();
}

bool StabilizerChain::contains(const Perm& p) const {
    if ((int)p.size() != pointCount_) return false;
    // A point permutation that is not a block permutation is not in the group.
    for (size_t b = 0; b < moduli_.size(); ++b) {
        const int m = moduli_[b];
        const int target = p[offset_[b]];
        const size_t to = std::upper_bound(offset_.begin(), offset_.end(), target) - offset_.begin() - 1;
        if (moduli_[to] != m) return false;
        for (int x = 0; x < m; ++x)
            if (p[offset_[b] + x] != (int)(offset_[to] + (target - offset_[to] + x) % m)) return false;
    }
    return contains(toBlocks(p));
}

bool StabilizerChain::contains(const BlockPerm& p) const {
    if ((int)p.img.size() != blockCount()) return false;
    build();
    BlockPerm g = p, tmp;
    const bool twisted = impl_->alg.twisted;
    if (twisted && g.tw.empty()) g.tw.assign(moduli_.size(), 0);
    if (!twisted && !g.tw.empty()) {
        if (std::any_of(g.tw.begin(), g.tw.end(), [](int t) { return t != 0; })) return false;
        g.tw.clear();
    }
    for (size_t b = 0; b < moduli_.size(); ++b)
        if (g.img[b] < 0 || g.img[b] >= blockCount() || moduli_[g.img[b]] != moduli_[b]) return false;
    return impl_->sift(g, 0) < 0;
}

std::vector<Perm> StabilizerChain::strongGenerators() const {
    std::vector<Perm> result;
    for (const auto& g : strongBlockGenerators()) result.push_back(toPoints(g));
    return result;
}

std::vector<BlockPerm> StabilizerChain::strongBlockGenerators() const {
    build();
    std::vector<BlockPerm> result = impl_->strong;
    if (impl_->alg.twisted)
        for (auto& row : impl_->kernel.rows()) {
            BlockPerm t = impl_->alg.identity();
            t.tw = row;
            result.push_back(std::move(t));
        }
    return result;
}

BlockPerm StabilizerChain::randomBlockElement(std::mt19937_64& rng) const {
    build();
    const Impl& c = *impl_;
    // g = k then u_last then ... then u_0 (G^(i) = union of G^(i+1) u_j).
    BlockPerm g = c.alg.identity(), tmp;
    if (c.alg.twisted) g.tw = c.kernel.random(rng);
    for (auto it = c.active.rbegin(); it != c.active.rend(); ++it) {
        const int i = *it;
        const auto& orbit = c.levels[i].orbit;
        const int j = orbit[uniformBelow(rng, orbit.size())];
        c.alg.compose(g, c.transversal(i, j), tmp);
        std::swap(g, tmp);
    }
    return g;
}

Perm StabilizerChain::randomElement(std::mt19937_64& rng) const { return toPoints(randomBlockElement(rng)); }

BlockPerm StabilizerChain::canonicalCosetRepresentative(const BlockPerm& x0) const {
    build();
    const Impl& c = *impl_;
    BlockPerm x = x0, tmp;
    if (c.alg.twisted && x.tw.empty()) x.tw.assign(moduli_.size(), 0);
    // g = g' then u_j for g' fixing the base blocks so far: the image of the
    // base block under (g then x) is x[j]; choose the smallest, then recurse.
    // What remains is the kernel: reduce the twists modulo it.
    for (int i : c.active) {
        const auto& orbit = c.levels[i].orbit;
        int best = orbit[0];
        for (int j : orbit)
            if (x.img[j] < x.img[best]) best = j;
        if (best != i) {
            c.alg.compose(c.transversal(i, best), x, tmp);
            std::swap(x, tmp);
        }
    }
    if (c.alg.twisted) c.kernel.reduce(x.tw);
    return x;
}

Perm StabilizerChain::canonicalCosetRepresentative(const Perm& x) const {
    return toPoints(canonicalCosetRepresentative(toBlocks(x)));
}

}  // namespace pz::analysis
