// Builds stabiliser chains for large groups at the language's bounds (orbit
// size 1024) and checks each exact order: Sym(1024) from a 1024-cycle and a
// transposition, 2000 random transpositions, Alt(1023), Sym(32) wr Sym(32),
// C3 wr Sym(1024) restricted to twist sum 0 (blocks of modulus 3), and
// issue 13's twisted cycle and swap on 256 and 1024 blocks of modulus 3
// (conjugate to constant twists: order n! 3, note [constant twists]); and
// the colouring stabiliser search on 1024 beads in two colours.
// Prints CPU seconds per case; exits 1 on a wrong order.
#include <ctime>
#include <cstdio>
#include <functional>
#include <string>

#include "compiler/analysis/perm/colouring_stabiliser.hpp"
#include "compiler/analysis/perm/schreier_sims.hpp"
#include "compiler/ir/element.hpp"

using namespace pz::analysis;

namespace {

mpz_class factorial(unsigned long n) {
    mpz_class r;
    mpz_fac_ui(r.get_mpz_t(), n);
    return r;
}

Perm cycleOf(int n, int from, int to) {  // (from from+1 ... to-1)
    Perm p = identityPerm(n);
    for (int i = from; i < to; ++i) p[i] = i + 1 < to ? i + 1 : from;
    return p;
}

Perm swapOf(int n, int a, int b) {
    Perm p = identityPerm(n);
    std::swap(p[a], p[b]);
    return p;
}

int failures = 0;

void run(const std::string& name, const std::function<mpz_class(StabilizerChain*&)>& build) {
    StabilizerChain* chain = nullptr;
    const std::clock_t start = std::clock();
    mpz_class expected = build(chain);
    mpz_class order = chain->order();
    const double seconds = double(std::clock() - start) / CLOCKS_PER_SEC;
    const bool ok = order == expected;
    failures += !ok;
    std::printf("%-40s %7.2f s CPU  %5zu digits  base %4d  %s  %s\n", name.c_str(), seconds, order.get_str().size(),
                chain->baseLength(), chain->proof() == StabilizerChain::Proof::UpperBound ? "upper bound" : "verified",
                ok ? "exact" : "WRONG ORDER");
    delete chain;
}

}  // namespace

int main() {
    const int n = 1024;
    run("Sym(1024): 1024-cycle + transposition", [&](StabilizerChain*& c) -> mpz_class {
        c = new StabilizerChain(n);
        c->addGenerator(cycleOf(n, 0, n));
        c->addGenerator(swapOf(n, 0, 1));
        return factorial(n);
    });
    run("Alt(1023): 1023-cycle + 3-cycle", [&](StabilizerChain*& c) -> mpz_class {
        c = new StabilizerChain(1023);
        c->addGenerator(cycleOf(1023, 0, 1023));
        c->addGenerator(cycleOf(1023, 0, 3));
        return factorial(1023) / 2;
    });
    run("2000 random transpositions of 1024", [&](StabilizerChain*& c) -> mpz_class {
        c = new StabilizerChain(n);
        std::mt19937_64 rng(1);
        std::vector<int> parent(n);
        for (int i = 0; i < n; ++i) parent[i] = i;
        auto find = [&](int x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        for (int t = 0; t < 2000; ++t) {
            const int a = (int)uniformBelow(rng, n), b = (int)uniformBelow(rng, n);
            if (a == b) continue;
            c->addGenerator(swapOf(n, a, b));
            parent[find(a)] = find(b);
        }
        std::vector<int> size(n, 0);
        for (int i = 0; i < n; ++i) ++size[find(i)];
        mpz_class expected = 1;
        for (int s : size) expected *= factorial(s);
        return expected;
    });
    run("Sym(32) wr Sym(32) on 1024 points", [&](StabilizerChain*& c) -> mpz_class {
        const int k = 32;
        c = new StabilizerChain(n);
        c->addGenerator(cycleOf(n, 0, k));
        c->addGenerator(swapOf(n, 0, 1));
        Perm shift(n), swapBlocks = identityPerm(n);
        for (int x = 0; x < n; ++x) shift[x] = (x + k) % n;
        for (int i = 0; i < k; ++i) std::swap(swapBlocks[i], swapBlocks[k + i]);
        c->addGenerator(shift);
        c->addGenerator(swapBlocks);
        mpz_class expected;
        mpz_pow_ui(expected.get_mpz_t(), factorial(k).get_mpz_t(), k);
        return expected * factorial(k);
    });
    run("C3 wr Sym(1024), twist sum 0", [&](StabilizerChain*& c) -> mpz_class {
        c = new StabilizerChain(std::vector<int>(n, 3));
        BlockPerm cycle{cycleOf(n, 0, n), std::vector<int>(n, 0)};
        BlockPerm swap{swapOf(n, 0, 1), std::vector<int>(n, 0)};
        BlockPerm twist{identityPerm(n), std::vector<int>(n, 0)};
        twist.tw[0] = 1;
        twist.tw[1] = 2;
        c->addGenerator(cycle);
        c->addGenerator(swap);
        c->addGenerator(twist);
        mpz_class expected;
        mpz_ui_pow_ui(expected.get_mpz_t(), 3, n - 1);
        return expected * factorial(n);
    });
    // orbit p N orient 3; C = p (0+1 1 ... N-1); T = p (0 1): N = 1 (mod 3).
    for (int size : {256, 1024})
        run("twisted cycle + swap, C3 blocks, n = " + std::to_string(size), [&](StabilizerChain*& c) -> mpz_class {
            c = new StabilizerChain(std::vector<int>(size, 3));
            BlockPerm cycle{cycleOf(size, 0, size), std::vector<int>(size, 0)};
            cycle.tw[0] = 1;
            c->addGenerator(cycle);
            c->addGenerator(BlockPerm{swapOf(size, 0, 1), std::vector<int>(size, 0)});
            return factorial(size) * 3;
        });
    // note [colouring stabiliser]: G ∩ Y by the backtrack search. 1024 beads
    // in two colours (i % 2) moved by the 500 transpositions (f, f+3): the
    // symmetric groups on the residues mod 3 of 0..502, so G ∩ Y is the
    // product of (84!)^2 per residue class, less for the odd one (84! 83!).
    {
        pz::ir::Puzzle p;
        p.name = "beads";
        pz::ir::Orbit o;
        o.name = "beads";
        o.size = n;
        for (int i = 0; i < n; ++i) o.solvedLabel.push_back(i % 2);
        p.orbits = {o};
        for (int f = 0; f < 500; ++f) {
            pz::ir::MoveFamily fam;
            fam.name = "T" + std::to_string(f);
            fam.base = pz::ir::identity(p.orbits);
            std::swap(fam.base.perm[0][f], fam.base.perm[0][f + 3]);
            fam.order = 2;
            p.families.push_back(fam);
        }
        const mpz_class groupOrder = factorial(168) * factorial(168) * factorial(167);
        const std::clock_t start = std::clock();
        ColouringSearch search(p, groupOrder);
        const auto h = search.stabiliserOrder();
        const double seconds = double(std::clock() - start) / CLOCKS_PER_SEC;
        const mpz_class expected = factorial(84) * factorial(84) * factorial(84) * factorial(84) * factorial(84) * factorial(83);
        const bool ok = h && *h == expected;
        failures += !ok;
        std::printf("%-40s %7.2f s CPU  %5zu nodes  %s\n", "colouring stabiliser: 1024 beads", seconds, search.nodes(),
                    ok ? "exact" : "WRONG ORDER");
    }
    return failures == 0 ? 0 : 1;
}
