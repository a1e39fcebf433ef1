#include "compiler/driver/perm/tws_support.hpp"

#include "compiler/analysis/perm/distinct_states.hpp"

#include <map>
#include <sstream>

#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"
#include "dsl/frontend.hpp"
#include "dsl/tws_reader.hpp"

namespace pz::driver {

namespace {

bool isTwsPath(const std::string& path) {
    return path.size() >= 4 && path.compare(path.size() - 4, 4, ".tws") == 0;
}

}  // namespace

std::optional<std::string> printTws(const ir::Puzzle& p, std::string& why) {
    if (p.kind != ir::Puzzle::Kind::Permutation) {
        why = p.name + (p.kind == ir::Puzzle::Kind::Grid ? " is a grid-actor puzzle" : " is a sliding-block puzzle") +
              "; the .tws format describes permutation puzzles";
        return std::nullopt;
    }
    // twsearch searches every power of every move, each as one move.
    for (size_t f = 0; f < p.families.size(); ++f) {
        std::vector<bool> counted(p.families[f].order, false);
        for (const auto& m : p.moves)
            if (m.family == (int)f && m.inMetric) counted[m.power] = true;
        for (int k = 1; k < p.families[f].order; ++k)
            if (!counted[k]) {
                why = "power " + std::to_string(k) + " of move '" + p.families[f].name +
                      "' is not a move of the metric; a .tws move always has every power as a move (twsearch's metric)";
                return std::nullopt;
            }
    }
    std::ostringstream out;
    out << "# Written by pzc convert --to tws. twsearch derives the powers of each move.\n";
    std::string omitted;
    auto count = [&](size_t n, const char* one, const char* many) {
        if (n) omitted += (omitted.empty() ? " " : ", ") + std::to_string(n) + " " + (n == 1 ? one : many);
    };
    count(p.macros.size(), "macro", "macros");
    count(p.symmetries.size(), "symmetry", "symmetries");
    count(p.subgroups.size(), "subgroup", "subgroups");
    count(p.patterns.size(), "pattern", "patterns");
    count(p.solvers.size(), "solver", "solvers");
    if (!omitted.empty()) out << "# Not expressible in .tws, omitted:" << omitted << "\n";
    // An orbit read as stickers (note [ignored pieces] in compiler/ir/lower.cpp)
    // is written as declared: its pieces, with '?' orientations on the
    // ignored ones, each element's slot permutation read back as a piece
    // permutation and twists (ir::piecesOfStickerSlots).
    std::vector<ir::Orbit> orbits = p.orbits;
    std::vector<std::vector<bool>> wild(orbits.size());
    for (size_t i = 0; i < orbits.size(); ++i) {
        ir::Orbit& o = orbits[i];
        if (o.ignoredOrient > 1) {  // `orient M ignored`: '?' on every piece, as twsearch writes it
            wild[i].assign(o.size, true);
            o.orient = o.ignoredOrient;
            continue;
        }
        if (o.stickerPieces == 0) continue;
        const int n = o.stickerPieces, m = o.stickerModulus;
        std::map<int, int> pieceLabel;  // sticker 0's label -> piece label, by first appearance
        std::vector<int> labels(n);
        for (int q = 0; q < n; ++q) labels[q] = pieceLabel.emplace(o.solvedLabel[q * m], (int)pieceLabel.size()).first->second;
        wild[i].assign(n, false);
        for (int q : o.ignoredPieces) wild[i][q] = true;
        o.size = n;
        o.orient = m;
        o.solvedLabel = std::move(labels);
    }
    auto pieces = [&](const ir::Element& e) {
        ir::Element r = e;
        for (size_t o = 0; o < orbits.size(); ++o)
            if (p.orbits[o].stickerPieces > 0)
                ir::piecesOfStickerSlots(e.perm[o], p.orbits[o].stickerModulus, r.perm[o], r.ori[o]);
        return r;
    };
    out << "Name " << p.name << "\n\n";
    for (const auto& o : orbits) out << "Set " << o.name << ' ' << o.size << ' ' << o.orient << '\n';
    out << "\nSolved\n";
    for (size_t i = 0; i < orbits.size(); ++i) {
        const auto& o = orbits[i];
        out << o.name << '\n';
        for (int q = 0; q < o.size; ++q) out << (q ? " " : "") << o.solvedLabel[q] + 1;
        out << '\n';
        if (!wild[i].empty()) {
            for (int q = 0; q < o.size; ++q) out << (q ? " " : "") << (wild[i][q] ? "?" : "0");
            out << '\n';
        }
    }
    out << "End\n";
    if (!p.illegal.empty()) out << '\n';
    for (const auto& il : p.illegal)
        out << "Illegal " << p.orbits[il.orbit].name << ' ' << il.position + 1 << ' ' << il.label + 1 << '\n';
    for (const auto& f : p.families) {
        out << "\nMove " << f.name << '\n';
        const ir::Element base = pieces(f.base);
        for (size_t o = 0; o < orbits.size(); ++o) {
            const auto& orbit = orbits[o];
            bool moved = false;
            for (int q = 0; q < orbit.size; ++q) moved = moved || base.perm[o][q] != q || base.ori[o][q] != 0;
            if (!moved) continue;
            // ksolve style: position q receives the piece from perm[q]; the
            // twist is listed at the position the piece leaves.
            std::vector<int> twistAtSource(orbit.size, 0);
            for (int q = 0; q < orbit.size; ++q) twistAtSource[base.perm[o][q]] = base.ori[o][q];
            out << orbit.name << '\n';
            for (int q = 0; q < orbit.size; ++q) out << (q ? " " : "") << base.perm[o][q] + 1;
            out << '\n';
            if (orbit.orient > 1) {
                for (int q = 0; q < orbit.size; ++q) out << (q ? " " : "") << twistAtSource[q];
                out << '\n';
            }
        }
        out << "End\n";
    }
    return out.str();
}

bool loadTwsScrambleFile(const ir::Puzzle& puzzle, analysis::PuzzleAnalysis& groups, const std::string& path,
                         std::vector<ir::Element>& out, DiagnosticEngine& diags) {
    if (!isTwsPath(puzzle.file)) {
        diags.error(path, {}, "a scramble file needs a .tws definition (" + puzzle.file + " is not one)");
        return false;
    }
    DiagnosticEngine quiet;
    auto def = parsePuzzleFile(puzzle.file, quiet);
    std::string text;
    if (!def || !readFile(path, text, diags)) return false;
    const int errorsBefore = diags.errorCount();
    const auto scrambles = parseTwsScrambleText(path, text, *def, diags);
    const auto solved = twsSolvedLabels(*def);  // per piece, as the file numbers them
    bool ok = diags.errorCount() == errorsBefore;
    analysis::ColouringMembership reach(groups);
    for (const auto& s : scrambles) {
        if (s.isAlg) {
            auto e = ir::evaluate(puzzle, s.alg, path, diags);
            if (!e) {
                ok = false;
                continue;
            }
            out.push_back(*e);
            continue;
        }
        // A position: the piece at q is the first unused solved piece with its
        // label. An orbit read as stickers (note [sticker sets]) is given per
        // piece and becomes its slot permutation (a `?` piece's orientation
        // does not matter: its stickers are one label).
        ir::Element e = ir::identity(puzzle.orbits);
        for (size_t o = 0; o < puzzle.orbits.size(); ++o) {
            if (s.labels[o].empty()) continue;
            const size_t pieces = s.labels[o].size();
            std::vector<int> perm(pieces), ori(pieces);
            std::vector<bool> used(pieces, false);
            for (size_t q = 0; q < pieces; ++q) {
                size_t k = 0;
                while (used[k] || solved[o][k] != s.labels[o][q]) ++k;  // labels were checked against solved
                used[k] = true;
                perm[q] = static_cast<int>(k);
                ori[q] = s.ori[o][q];
            }
            if (puzzle.orbits[o].stickerPieces > 0) {
                e.perm[o] = ir::stickerSlots(perm, ori, puzzle.orbits[o].stickerModulus);
            } else {
                e.perm[o] = std::move(perm);
                e.ori[o] = std::move(ori);
            }
        }
        // e is one lift of the labelled position (note [distinct states]).
        std::string why;
        auto reachable = reach.reachable(e, why);
        if (!reachable) {
            diags.error(path, s.range, "scramble '" + s.name + "': " + why);
            ok = false;
            continue;
        }
        if (!*reachable) {
            diags.error(path, s.range, "scramble '" + s.name + "' cannot be reached by the moves of " + puzzle.name);
            ok = false;
            continue;
        }
        out.push_back(e);
    }
    return ok;
}

}  // namespace pz::driver
