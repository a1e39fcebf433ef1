#include "compiler/analysis/perm/coordinates.hpp"

#include <bit>

#include <gmpxx.h>
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "compiler/analysis/perm/puzzle_summary.hpp"
#include "compiler/ir/element.hpp"

namespace pz::analysis {

namespace {

uint64_t binomial(unsigned n, unsigned k) {
    if (k > n) return 0;
    uint64_t r = 1;
    for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}
uint64_t factorial(unsigned n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// The tracked pieces of a part in position order, and where they are.
struct Placement {
    std::vector<int> positions;  // ascending
    std::vector<int> index;      // tracked index (rank among tracked labels) at each
};

Placement place(const CoordinatePart& p, const ir::Element& e) {
    std::vector<int> indexOf(p.n, -1);
    for (int v = 0, i = 0; v < p.n; ++v)
        if (p.tracked >> v & 1) indexOf[v] = i++;
    Placement pl;
    for (int pos = 0; pos < p.n; ++pos) {
        int piece = e.perm[p.orbit][pos];
        if (indexOf[piece] >= 0) {
            pl.positions.push_back(pos);
            pl.index.push_back(indexOf[piece]);
        }
    }
    return pl;
}

// Reference rank of a labelled part's positions (pz::LabelCoordinate):
// colex rank of the positions holding tracked labels, then (ordered) the
// number of arrangements of the tracked multiset that are lexicographically
// smaller than the labels read in position order, each counted as
// (remaining)! / prod (remaining counts)!.
mpz_class arrangementsOf(const std::map<int, int>& counts) {
    long total = 0;
    for (const auto& [l, c] : counts) total += c;
    mpz_class a;
    mpz_fac_ui(a.get_mpz_t(), static_cast<unsigned long>(total));
    for (const auto& [l, c] : counts) {
        mpz_class f;
        mpz_fac_ui(f.get_mpz_t(), static_cast<unsigned long>(c));
        a /= f;
    }
    return a;
}
std::map<int, int> trackedCounts(const CoordinatePart& p) {
    std::map<int, int> counts;
    for (int label : p.pieceLabel)
        if (p.trackedLabels >> label & 1) ++counts[label];
    return counts;
}
uint64_t labelledReferenceRank(const CoordinatePart& p, const ir::Element& e) {
    std::vector<int> seq;
    uint64_t colex = 0;
    for (int pos = 0; pos < p.n; ++pos) {
        int label = p.pieceLabel[e.perm[p.orbit][pos]];
        if (p.trackedLabels >> label & 1) {
            seq.push_back(label);
            colex += binomial(pos, static_cast<unsigned>(seq.size()));
        }
    }
    if (!p.ordered) return colex;
    std::map<int, int> counts = trackedCounts(p);
    const mpz_class total = arrangementsOf(counts);
    mpz_class r = 0;
    for (int label : seq) {
        for (auto& [l, c] : counts) {
            if (l >= label) break;
            if (c == 0) continue;
            --c;
            r += arrangementsOf(counts);
            ++c;
        }
        --counts[label];
    }
    return colex * total.get_ui() + r.get_ui();
}

// A positions part on an orbit with identical pieces tracks label classes:
// every piece of each label it names (a table cannot tell identical pieces
// apart). False (reported) when it names some but not all of a label's
// pieces.
bool labelPart(const ir::Puzzle& puzzle, const ir::Pattern& pat, const ir::PatternPart& part, CoordinatePart& p,
               DiagnosticEngine& diags) {
    const auto& orbit = puzzle.orbits[part.orbit];
    if (distinctLabels(orbit) == orbit.size) return true;
    // pz::LabelCoordinate reads 4-bit lanes, pz::ByteLabelCoordinate byte
    // lanes (state_layout.hpp); 16-bit lanes have no labelled rank.
    if (orbit.size > kMaxLabelledPatternOrbit || orbit.orient > kMaxLabelledPatternOrient) {
        diags.error(puzzle.file, pat.where,
                    "pattern '" + pat.name + "' tracks positions of identical pieces of orbit '" + orbit.name + "' (" +
                        std::to_string(orbit.size) + " positions, orientation modulus " + std::to_string(orbit.orient) +
                        "); patterns over identical pieces need orbits of at most " +
                        std::to_string(kMaxLabelledPatternOrbit) + " positions and modulus " +
                        std::to_string(kMaxLabelledPatternOrient));
        return false;
    }
    p.labelled = true;
    p.pieceLabel = orbit.solvedLabel;
    for (int piece : part.pieces) p.trackedLabels |= uint64_t{1} << orbit.solvedLabel[piece];
    auto name = [&](int q) { return q < (int)orbit.positionNames.size() ? orbit.positionNames[q] : std::to_string(q); };
    for (int q = 0; q < orbit.size; ++q) {
        if (!(p.trackedLabels >> orbit.solvedLabel[q] & 1) || (p.tracked >> q & 1)) continue;
        int same = -1;
        for (int piece : part.pieces)
            if (orbit.solvedLabel[piece] == orbit.solvedLabel[q]) same = piece;
        diags.error(puzzle.file, pat.where,
                    "pattern '" + pat.name + "' tracks the piece solved at " + name(same) + " of orbit '" + orbit.name +
                        "' but not the identical piece solved at " + name(q) +
                        "; a pattern tracks all identical pieces of a label or none");
        return false;
    }
    return true;
}

}  // namespace

uint64_t CoordinatePart::solvedLanes() const {
    uint64_t w = 0;
    for (size_t p = 0; p < pieceLabel.size() && p < 16; ++p) w |= static_cast<uint64_t>(pieceLabel[p]) << (4 * p);
    return w;
}

std::vector<int> CoordinatePart::labelCounts() const {
    std::vector<int> c(static_cast<size_t>(n), 0);
    for (int l : pieceLabel) ++c[static_cast<size_t>(l)];
    return c;
}

std::string CoordinatePart::kind() const {
    std::string s;
    if (positions && labelled)
        s = ordered ? "labelled arrangement (" + std::to_string(k) + " of " + std::to_string(n) + ", " +
                          std::to_string(std::popcount(trackedLabels)) + " labels)"
                    : "combination (" + std::to_string(k) + " of " + std::to_string(n) + ")";
    else if (positions)
        s = ordered ? "partial permutation (" + std::to_string(k) + " of " + std::to_string(n) + ")"
                    : "combination (" + std::to_string(k) + " of " + std::to_string(n) + ")";
    if (oriMod > 1)
        s += std::string(s.empty() ? "" : " x ") + "orientations (" + std::to_string(k) + " mod " + std::to_string(oriMod) +
             (oriStep > 1 ? ", each fixed mod " + std::to_string(oriStep) + " by where it is" : "") +
             (oriSumFixed ? ", sum fixed" : "") + ")";
    return s;
}

bool tracksLabels(const ir::Puzzle& puzzle, const ir::Pattern& pattern) {
    for (const auto& part : pattern.parts) {
        const auto& orbit = puzzle.orbits[part.orbit];
        if (part.positions && distinctLabels(orbit) < orbit.size) return true;
    }
    return false;
}

bool orientationSumFixed(const ir::Puzzle& puzzle, int orbit) {
    const int m = puzzle.orbits[orbit].orient;
    if (m <= 1) return false;
    for (const auto& move : puzzle.moves) {
        int sum = 0;
        for (int t : move.effect.ori[orbit]) sum += t;
        if (sum % m != 0) return false;
    }
    return true;
}

OrientationResidues orientationResidues(const ir::Puzzle& puzzle, int orbit) {
    OrientationResidues r;
    const auto& o = puzzle.orbits[orbit];
    const int n = o.size, m = o.orient;
    if (m <= 1 || n > kMaxPatternOrbit || distinctLabels(o) < n) return r;
    // Each move as (destination of position q, twist on arrival).
    std::vector<std::vector<int>> dest, twist;
    for (const auto& move : puzzle.moves) {
        if (move.effect.perm[orbit].size() != static_cast<size_t>(n)) return r;  // IR built by hand in tests
        std::vector<int> d(n), t(n);
        for (int to = 0; to < n; ++to) {
            d[move.effect.perm[orbit][to]] = to;
            t[move.effect.perm[orbit][to]] = move.effect.ori[orbit][to];
        }
        dest.push_back(std::move(d));
        twist.push_back(std::move(t));
    }
    // Per piece, the (position, orientation) pairs it reaches from (home, 0).
    std::vector<std::vector<char>> reached(n, std::vector<char>(static_cast<size_t>(n * m), 0));
    int step = m;
    for (int piece = 0; piece < n; ++piece) {
        auto& seen = reached[piece];
        std::vector<int> queue{piece * m};
        seen[piece * m] = 1;
        for (size_t head = 0; head < queue.size(); ++head) {
            const int pos = queue[head] / m, ori = queue[head] % m;
            for (size_t mi = 0; mi < dest.size(); ++mi) {
                const int next = dest[mi][pos] * m + (ori + twist[mi][pos]) % m;
                if (!seen[next]) seen[next] = 1, queue.push_back(next);
            }
        }
        // The orientations at a position are a coset of sZ_M: s is the gcd
        // of their differences (and of M).
        for (int pos = 0; pos < n; ++pos) {
            int first = -1;
            for (int ori = 0; ori < m; ++ori)
                if (seen[pos * m + ori]) {
                    if (first < 0) first = ori;
                    step = std::gcd(step, ori - first);
                }
        }
    }
    if (step <= 1) return r;
    r.step = step;
    r.offset.assign(static_cast<size_t>(n * n), 0);
    for (int piece = 0; piece < n; ++piece)
        for (int pos = 0; pos < n; ++pos)
            for (int ori = 0; ori < m; ++ori)
                if (reached[piece][pos * m + ori]) {
                    r.offset[piece * n + pos] = static_cast<uint8_t>(ori % step);
                    break;
                }
    return r;
}

int storedOrientationStep(const ir::Puzzle& puzzle, const ir::PatternPart& part) {
    const auto& orbit = puzzle.orbits[part.orbit];
    if (!part.orientations || !part.positions || part.unordered || distinctLabels(orbit) < orbit.size) return 1;
    return orientationResidues(puzzle, part.orbit).step;
}

bool lastOrientationImplied(const ir::Puzzle& puzzle, const ir::PatternPart& part) {
    const auto& orbit = puzzle.orbits[part.orbit];
    const int k = part.pieces.empty() ? orbit.size : (int)part.pieces.size();
    // Positions over identical pieces are ranked as labels (LabelCoordinate,
    // M^k orientations): not this rule.
    const bool labelled = part.positions && distinctLabels(orbit) < orbit.size;
    return part.orientations && !labelled && k == orbit.size && k >= 2 && orientationSumFixed(puzzle, part.orbit);
}

bool computeCoordinates(const ir::Puzzle& puzzle, std::vector<Coordinate>& out, DiagnosticEngine& diags) {
    out.clear();
    bool ok = true;
    for (const auto& pat : puzzle.patterns) {
        if (pat.cosetSubgroup >= 0) continue;  // a phase table (note [coset patterns])
        Coordinate c;
        c.pattern = pat.name;
        mpz_class size = 1;
        // note [parts on one orbit]: an orbit's positions and its
        // orientations may be tracked by different parts, each by one.
        std::map<int, std::set<int>> positionsSeen;  // orbit -> pieces whose positions a part tracks
        std::set<int> orientationsSeen;
        for (const auto& part : pat.parts) {
            const auto& orbit = puzzle.orbits[part.orbit];
            const SourceRange& at = part.where.known() ? part.where : pat.where;
            if (part.positions && positionsSeen.count(part.orbit)) {
                const auto& seen = positionsSeen[part.orbit];
                std::string twice;
                for (int piece : part.pieces)
                    if (seen.count(piece) && twice.empty())
                        twice = orbit.positionNames.empty() ? std::to_string(piece) : orbit.positionNames[piece];
                const bool labelled = distinctLabels(orbit) < orbit.size;
                if (labelled || !twice.empty()) {
                    diags.error(puzzle.file, at,
                                "pattern '" + pat.name + "' tracks the positions of orbit '" + orbit.name +
                                    "' in two parts " +
                                    (labelled ? std::string("over identical pieces; track them in one part")
                                              : "that both name piece '" + twice + "'; a piece is tracked by one part"));
                    ok = false;
                    continue;
                }
                c.everyValueIsState = false;
            }
            if (part.positions) positionsSeen[part.orbit].insert(part.pieces.begin(), part.pieces.end());
            if (part.orientations && !orientationsSeen.insert(part.orbit).second) {
                diags.error(puzzle.file, at,
                            "pattern '" + pat.name + "' tracks the orientations of orbit '" + orbit.name +
                                "' in two parts; track them in one part (its positions may be another part)");
                ok = false;
                continue;
            }
            if (orbit.size > kMaxPatternOrbit) {
                diags.error(puzzle.file, pat.where,
                            "pattern '" + pat.name + "' tracks orbit '" + orbit.name + "' of " +
                                std::to_string(orbit.size) + " positions; a pattern's orbit may have at most " +
                                std::to_string(kMaxPatternOrbit));
                ok = false;
                continue;
            }
            CoordinatePart p;
            p.orbit = part.orbit;
            p.n = orbit.size;
            for (int piece : part.pieces) p.tracked |= uint64_t{1} << piece;
            p.k = std::popcount(p.tracked);
            p.positions = part.positions;
            p.ordered = !part.unordered;
            p.oriMod = part.orientations ? orbit.orient : 1;
            // Orientations without positions are read at the tracked
            // positions; that is a coordinate only if every move keeps the
            // pieces at those positions among them (else a move's effect on
            // the value depends on what the value does not record, and a
            // pruning table built by BFS over values is wrong).
            if (!p.positions && p.oriMod > 1) {
                const ir::MoveFamily* leaks = nullptr;
                for (const auto& fam : puzzle.families) {
                    for (int pos = 0; pos < p.n && !leaks; ++pos)
                        if ((p.tracked >> pos & 1) && !(p.tracked >> fam.base.perm[part.orbit][pos] & 1)) leaks = &fam;
                    if (leaks) break;
                }
                if (leaks) {
                    diags.error(puzzle.file, pat.where,
                                "pattern '" + pat.name + "' tracks orientations without positions of pieces of orbit '" +
                                    orbit.name + "' that move '" + leaks->name +
                                    "' exchanges with untracked ones; track all its pieces, or add positions");
                    ok = false;
                    continue;
                }
            }
            // Sizes in big integers: C(n,k) * k! * M^k overflows 64 bits long
            // before any part is refused (16 pieces with orientation 8 is 1.4e30).
            mpz_class positionSize = 1, orientSize = 1;
            if (p.positions && !labelPart(puzzle, pat, part, p, diags)) {
                ok = false;
                continue;
            }
            if (p.positions) {
                mpz_bin_uiui(positionSize.get_mpz_t(), static_cast<unsigned long>(p.n), static_cast<unsigned long>(p.k));
                if (p.ordered) {
                    mpz_class f;
                    mpz_fac_ui(f.get_mpz_t(), static_cast<unsigned long>(p.k));
                    positionSize *= f;
                    // Identical pieces: arrangements of a multiset.
                    if (p.labelled)
                        for (int l = 0; l < p.n; ++l)
                            if (p.trackedLabels >> l & 1) {
                                mpz_class c;
                                mpz_fac_ui(c.get_mpz_t(), static_cast<unsigned long>(std::count(
                                                              p.pieceLabel.begin(), p.pieceLabel.end(), l)));
                                positionSize /= c;
                            }
                }
            }
            p.oriSumFixed = lastOrientationImplied(puzzle, part);
            // note [orientation residues]: where the pieces are says part of
            // their orientations.
            if (p.oriMod > 1 && storedOrientationStep(puzzle, part) > 1) {
                OrientationResidues res = orientationResidues(puzzle, part.orbit);
                p.oriStep = res.step;
                p.oriOffset = std::move(res.offset);
            }
            if (p.oriMod > 1)
                mpz_ui_pow_ui(orientSize.get_mpz_t(), static_cast<unsigned long>(p.oriDigits()),
                              static_cast<unsigned long>(p.oriSumFixed ? p.k - 1 : p.k));
            size *= positionSize * orientSize;
            if (positionSize * orientSize <= kMaxPatternValues) {
                p.positionSize = positionSize.get_ui();
                p.orientSize = orientSize.get_ui();
            }
            c.parts.push_back(p);
        }
        // 4-bit entries: 2^35 entries = 16 GiB is far beyond any sane table.
        if (size > kMaxPatternValues) {
            diags.error(puzzle.file, pat.where,
                        "pattern '" + pat.name + "' has " + size.get_str() + " values; a pruning table holds at most " +
                            mpz_class(kMaxPatternValues).get_str() + " (2^35)");
            ok = false;
        } else {
            c.size = size.get_ui();
        }
        out.push_back(c);
    }
    return ok;
}

uint64_t referenceRank(const Coordinate& c, const ir::Element& e) {
    uint64_t r = 0;
    for (const auto& p : c.parts) {
        Placement pl = place(p, e);
        uint64_t v = 0;
        if (p.positions && p.labelled) {
            v = labelledReferenceRank(p, e);
        } else if (p.positions) {
            for (size_t i = 0; i < pl.positions.size(); ++i) v += binomial(pl.positions[i], static_cast<unsigned>(i + 1));
            if (p.ordered) {
                uint64_t lehmer = 0;
                for (int i = 0; i < p.k; ++i) {
                    int smallerEarlier = 0;
                    for (int j = 0; j < i; ++j) smallerEarlier += pl.index[j] < pl.index[i];
                    lehmer = lehmer * (p.k - i) + (pl.index[i] - smallerEarlier);
                }
                v = v * factorial(p.k) + lehmer;
            }
        }
        if (p.oriMod > 1) {
            uint64_t o = 0;
            if (p.oriSumFixed) {
                for (int pos = 0; pos + 1 < p.n; ++pos) o = o * p.oriDigits() + e.ori[p.orbit][pos] / p.oriStep;
            } else if (p.positions) {
                for (int pos : pl.positions) o = o * p.oriDigits() + e.ori[p.orbit][pos] / p.oriStep;
            } else {
                // Orientations at the tracked positions (coord.hpp).
                for (int pos = 0; pos < p.n; ++pos)
                    if (p.tracked >> pos & 1) o = o * p.oriMod + e.ori[p.orbit][pos];
            }
            v = v * p.orientSize + o;
        }
        r = r * p.size() + v;
    }
    return r;
}

// The positions (of n) in the colex-ranked combination of k of them with rank comb.
static std::vector<bool> colexPositions(uint64_t comb, int k, int n) {
    std::vector<bool> occupied(n, false);
    for (int j = k; j >= 1; --j) {
        int pos = j - 1;
        while (pos + 1 < n && binomial(pos + 1, j) <= comb) ++pos;
        comb -= binomial(pos, j);
        occupied[pos] = true;
    }
    return occupied;
}

bool isStateValue(const Coordinate& c, uint64_t rank) {
    if (c.everyValueIsState) return true;
    std::map<int, std::vector<bool>> occupied;  // orbit -> positions a part's pieces are at
    for (size_t pi = c.parts.size(); pi-- > 0;) {
        const auto& p = c.parts[pi];
        const uint64_t v = rank % p.size();
        rank /= p.size();
        if (!p.positions) continue;
        // The colex-ranked combination of positions (as referenceUnrank).
        const std::vector<bool> at = colexPositions(v / p.orientSize / (p.ordered ? factorial(p.k) : 1), p.k, p.n);
        auto& seen = occupied.try_emplace(p.orbit, p.n, false).first->second;
        for (int pos = 0; pos < p.n; ++pos) {
            if (at[pos] && seen[pos]) return false;
            seen[pos] = seen[pos] || at[pos];
        }
    }
    return true;
}

ir::Element referenceUnrank(const Coordinate& c, uint64_t rank, const std::vector<ir::Orbit>& orbits) {
    ir::Element e = ir::identity(orbits);
    std::set<int> piecesWritten;  // orbits whose pieces a positions part placed
    for (size_t pi = c.parts.size(); pi-- > 0;) {
        const auto& p = c.parts[pi];
        uint64_t v = rank % p.size();
        rank /= p.size();
        std::vector<int> oriDigit(p.k, 0);
        if (p.oriMod > 1) {
            uint64_t o = v % p.orientSize;
            v /= p.orientSize;
            int sum = 0;
            for (int i = p.oriSumFixed ? p.k - 1 : p.k; i-- > 0;) {
                oriDigit[i] = static_cast<int>(o % p.oriDigits());
                sum += oriDigit[i];
                o /= p.oriDigits();
            }
            // With residues the implied orientation is set once placed.
            if (p.oriSumFixed && p.oriStep == 1) oriDigit[p.k - 1] = (p.oriMod - sum % p.oriMod) % p.oriMod;
        }
        // Each part writes only the fields it tracks (note [parts on one
        // orbit]): it is unranked into `one`, then those are copied.
        ir::Element one = ir::identity(orbits);
        auto& perm = one.perm[p.orbit];
        auto& ori = one.ori[p.orbit];
        auto keep = [&] {
            if (p.positions && piecesWritten.insert(p.orbit).second) {
                e.perm[p.orbit] = perm;
            } else if (p.positions) {
                // Swap this part's pieces into place (unrankMerged): for a
                // state, no earlier part's piece moves.
                auto& to = e.perm[p.orbit];
                for (int t = 0; t < p.n; ++t) {
                    if (!(p.tracked >> perm[t] & 1)) continue;
                    const int at = (int)(std::find(to.begin(), to.end(), perm[t]) - to.begin());
                    std::swap(to[at], to[t]);
                }
                if (p.oriMod > 1)
                    for (int t = 0; t < p.n; ++t)
                        if (p.tracked >> perm[t] & 1) e.ori[p.orbit][t] = ori[t];
                return;
            }
            if (p.oriMod > 1) e.ori[p.orbit] = ori;
        };
        if (p.positions && p.labelled) {
            // Tracked labels in the ranked arrangement (smallest-first search
            // over the multiset), the rest in increasing label order; each
            // label is given its pieces in increasing order.
            std::map<int, int> counts = trackedCounts(p);
            const mpz_class total = arrangementsOf(counts);
            mpz_class a = p.ordered ? mpz_class(static_cast<unsigned long>(v % total.get_ui())) : mpz_class(0);
            if (p.ordered) v /= total.get_ui();
            std::vector<int> seq;
            for (int i = 0; i < p.k; ++i)
                for (auto& [l, c] : counts) {
                    if (c == 0) continue;
                    --c;
                    mpz_class block = arrangementsOf(counts);
                    if (a < block) {
                        seq.push_back(l);
                        break;
                    }
                    ++c;
                    a -= block;
                }
            std::vector<int> rest;
            for (int l = 0; l < p.n; ++l)
                if (!(p.trackedLabels >> l & 1))
                    for (int q = 0; q < p.n; ++q)
                        if (p.pieceLabel[q] == l) rest.push_back(l);
            const std::vector<bool> occupied = colexPositions(v, p.k, p.n);
            std::map<int, int> nextPiece;  // label -> pieces of it handed out
            auto pieceOf = [&](int label) {
                int seen = 0;
                for (int q = 0; q < p.n; ++q)
                    if (p.pieceLabel[q] == label && seen++ == nextPiece[label]) {
                        ++nextPiece[label];
                        return q;
                    }
                return -1;
            };
            for (int pos = 0, i = 0, u = 0; pos < p.n; ++pos) {
                if (occupied[pos]) {
                    perm[pos] = pieceOf(seq[i]);
                    ori[pos] = oriDigit[i];
                    ++i;
                } else {
                    perm[pos] = pieceOf(rest[u++]);
                    ori[pos] = 0;
                }
            }
            keep();
            continue;
        }
        std::vector<int> trackedLabels, untrackedLabels;
        for (int l = 0; l < p.n; ++l) (p.tracked >> l & 1 ? trackedLabels : untrackedLabels).push_back(l);
        if (p.positions) {
            std::vector<int> order(p.k);
            if (p.ordered) {
                uint64_t lehmer = v % factorial(p.k);
                v /= factorial(p.k);
                std::vector<int> digit(p.k);
                for (int i = p.k; i-- > 0;) {
                    digit[i] = static_cast<int>(lehmer % (p.k - i));
                    lehmer /= (p.k - i);
                }
                std::vector<bool> used(p.k, false);
                for (int i = 0; i < p.k; ++i) {
                    int d = digit[i], x = 0;
                    for (;; ++x)
                        if (!used[x] && d-- == 0) break;
                    used[x] = true;
                    order[i] = x;
                }
            } else {
                for (int i = 0; i < p.k; ++i) order[i] = i;
            }
            const std::vector<bool> occupied = colexPositions(v, p.k, p.n);
            for (int pos = 0, i = 0, u = 0; pos < p.n; ++pos) {
                if (occupied[pos]) {
                    perm[pos] = trackedLabels[order[i]];
                    ori[pos] = p.oriStep == 1 ? oriDigit[i]
                                              : p.oriOffset[perm[pos] * p.n + pos] + p.oriStep * oriDigit[i];
                    ++i;
                } else {
                    perm[pos] = untrackedLabels[u++];
                    ori[pos] = 0;
                }
            }
            if (p.oriSumFixed && p.oriStep > 1) {
                int sum = 0;
                for (int pos = 0; pos + 1 < p.n; ++pos) sum += ori[pos];
                ori[p.n - 1] = (p.oriMod - sum % p.oriMod) % p.oriMod;
            }
        } else {
            for (int i = 0; i < p.k; ++i) ori[trackedLabels[i]] = oriDigit[i];
        }
        keep();
    }
    return e;
}

}  // namespace pz::analysis
