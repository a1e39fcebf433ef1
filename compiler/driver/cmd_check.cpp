// pzc check FILE [--json]: validate and analyse a definition, then print its
// summary: orbits, moves, family orders, inverses, commutation classes, the
// exact group order, the symmetry group, subgroups, patterns and solvers.
// Grid-actor puzzles are delegated to checkGridPuzzle.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "compiler/analysis/coordinates.hpp"
#include "compiler/analysis/coset_coordinates.hpp"
#include "compiler/analysis/puzzle_analysis.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/driver/grid_commands.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"
#include "compiler/pipeline/compilation_unit.hpp"
#include "pz/memory.hpp"
#include "pz/result_json.hpp"

namespace pz::driver {

namespace {

// A minimal deterministic JSON writer: two-space indentation, keys in the
// order written, arrays of scalars on one line.
class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out) : out_(out) {}
    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray(bool inlineScalars = false) {
        open('[');
        inline_.back() = inlineScalars;
    }
    void endArray() { close(']'); }
    void key(const std::string& k) {
        scalarStart();
        quoted(k);
        out_ << ": ";
        pendingKey_ = true;
    }
    void value(const std::string& s) { scalarStart(); quoted(s); }
    void value(const char* s) { value(std::string(s)); }
    void value(long v) { scalarStart(); out_ << v; }
    void value(int v) { value((long)v); }
    void value(size_t v) { scalarStart(); out_ << v; }
    void value(bool b) { scalarStart(); out_ << (b ? "true" : "false"); }
    void null() { scalarStart(); out_ << "null"; }
    template <class T>
    void field(const std::string& k, const T& v) { key(k); value(v); }
    void finish() { out_ << '\n'; }

private:
    void open(char c) {
        scalarStart();
        out_ << c;
        first_.push_back(true);
        inline_.push_back(false);
    }
    void close(char c) {
        const bool wasInline = inline_.back();
        const bool empty = first_.back();
        first_.pop_back();
        inline_.pop_back();
        if (!empty && !wasInline) newline();
        out_ << c;
    }
    void scalarStart() {
        if (pendingKey_) {
            pendingKey_ = false;
            return;
        }
        if (!first_.empty()) {
            const bool wasFirst = first_.back();
            if (!wasFirst) out_ << ',';
            first_.back() = false;
            if (inline_.back()) {
                if (!wasFirst) out_ << ' ';
            } else {
                newline();
            }
        }
    }
    void newline() { out_ << '\n' << std::string(2 * first_.size(), ' '); }
    // Strings go through the runtime's one JSON escaper (pz/result_json.hpp).
    void quoted(const std::string& s) { out_ << pz::json::quote(s); }
    std::ostream& out_;
    std::vector<bool> first_, inline_;
    bool pendingKey_ = false;
};

std::string positionName(const ir::Orbit& orbit, int p) {
    return p < (int)orbit.positionNames.size() ? orbit.positionNames[p] : std::to_string(p);
}

int distinctLabels(const ir::Orbit& orbit) {
    std::vector<int> labels = orbit.solvedLabel;
    std::sort(labels.begin(), labels.end());
    return (int)(std::unique(labels.begin(), labels.end()) - labels.begin());
}

// Number of values a pattern part can take: arrangements of its tracked
// pieces (ordered or not) times their orientations.
mpz_class patternPartSize(const ir::Puzzle& puzzle, const ir::PatternPart& part) {
    const auto& orbit = puzzle.orbits[part.orbit];
    const unsigned long n = orbit.size;
    const unsigned long k = part.pieces.empty() ? n : part.pieces.size();
    mpz_class size = 1;
    if (part.positions) {
        mpz_class c;
        mpz_bin_uiui(c.get_mpz_t(), n, k);
        size = c;
        if (!part.unordered) {
            mpz_class f;
            mpz_fac_ui(f.get_mpz_t(), k);
            size *= f;
        }
    }
    if (part.orientations) {
        mpz_class o;
        mpz_ui_pow_ui(o.get_mpz_t(), (unsigned long)orbit.orient, k);
        size *= o;
    }
    return size;
}

mpz_class patternSize(const ir::Puzzle& puzzle, const ir::Pattern& pattern) {
    mpz_class size = 1;
    for (const auto& part : pattern.parts) size *= patternPartSize(puzzle, part);
    return size;
}

// Bytes of the pattern's pruning table (4 bits per value, whole 64-bit words).
mpz_class patternTableBytes(const ir::Puzzle& puzzle, const ir::Pattern& pattern) {
    mpz_class words = (patternSize(puzzle, pattern) + 15) / 16;
    return words * 8;
}

// "259459200 bytes (247.4 MiB)"; the binary-unit part only when it fits 64 bits.
std::string tableBytesText(const mpz_class& bytes) {
    std::string text = bytes.get_str() + " bytes";
    if (bytes.fits_ulong_p() && bytes >= 1024) text += " (" + pz::formatBytes(bytes.get_ui()) + ")";
    return text;
}

std::string partText(const ir::Puzzle& puzzle, const ir::PatternPart& part) {
    const auto& orbit = puzzle.orbits[part.orbit];
    std::ostringstream out;
    out << orbit.name << '[' << (part.pieces.empty() ? orbit.size : (int)part.pieces.size()) << " pieces";
    if (part.positions) out << (part.unordered ? ", positions unordered" : ", positions");
    if (part.orientations) out << ", orientations";
    out << ']';
    return out.str();
}

// Where the declared symmetry sends each family's generator, e.g. "R->F".
std::vector<std::pair<std::string, std::string>> inducedMoves(const ir::Puzzle& puzzle,
                                                              const analysis::SymmetryGroup& group,
                                                              int declared) {
    std::vector<std::pair<std::string, std::string>> result;
    const int s = group.declared[declared];
    for (size_t m = 0; m < puzzle.moves.size(); ++m) {
        if (puzzle.moves[m].power != 1) continue;
        const int image = s < 0 ? -1 : group.moveMap[s][m];
        result.emplace_back(puzzle.moves[m].name, image < 0 ? std::string("?") : puzzle.moves[image].name);
    }
    return result;
}

// Families other than f whose moves all commute with f's moves.
std::vector<int> commutingFamilies(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, int f) {
    std::vector<int> result;
    const auto& commutes = a.commutes();
    // Moves by family: O(moves of f * moves), not O(families * moves^2).
    std::vector<std::vector<int>> movesOf(p.families.size());
    for (size_t m = 0; m < p.moves.size(); ++m) movesOf[p.moves[m].family].push_back((int)m);
    for (size_t g = 0; g < p.families.size(); ++g) {
        if ((int)g == f) continue;
        bool all = true;
        for (int m1 : movesOf[f])
            for (int m2 : movesOf[g]) all = all && commutes[m1][m2];
        if (all) result.push_back((int)g);
    }
    return result;
}

const char* solverKind(ir::Solver::Kind kind) { return kind == ir::Solver::Kind::Optimal ? "optimal" : "phased"; }

void printText(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, std::ostream& out) {
    out << "puzzle " << p.name << " (" << p.file << ")\n";
    out << "orbits: " << p.orbits.size() << '\n';
    for (const auto& o : p.orbits) {
        out << "  " << o.name << ": " << o.size << " positions, orientation " << o.orient << ", "
            << distinctLabels(o) << " distinct pieces";
        if (!o.positionNames.empty()) {
            out << " (";
            for (int i = 0; i < o.size; ++i) out << (i ? " " : "") << o.positionNames[i];
            out << ')';
        }
        out << '\n';
    }
    int metric = 0;
    for (const auto& m : p.moves) metric += m.inMetric;
    out << "moves: " << p.moves.size() << " (" << metric << " in the metric; * = not in the metric)\n";
    const auto& orders = a.familyOrders();
    const auto& inverse = a.inverseMove();
    // The text summary stays small for big definitions (thousands of
    // families); --json lists everything.
    constexpr size_t kFamiliesListed = 64, kPartnersListed = 16;
    for (size_t f = 0; f < p.families.size(); ++f) {
        if (f == kFamiliesListed) {
            out << "  ... and " << p.families.size() - f << " more families (pzc check --json lists them)\n";
            break;
        }
        out << "  " << p.families[f].name << " (order " << orders[f] << "):";
        std::string inverses;
        for (size_t m = 0; m < p.moves.size(); ++m) {
            if (p.moves[m].family != (int)f) continue;
            out << ' ' << p.moves[m].name << (p.moves[m].inMetric ? "" : "*");
            inverses += ' ' + (inverse[m] < 0 ? std::string("-") : p.moves[inverse[m]].name);
        }
        out << "; inverses" << inverses << "; commutes with";
        const auto partners = commutingFamilies(p, a, (int)f);
        if (partners.empty()) out << " none";
        for (size_t i = 0; i < partners.size() && i < kPartnersListed; ++i) out << ' ' << p.families[partners[i]].name;
        if (partners.size() > kPartnersListed) out << " ... and " << partners.size() - kPartnersListed << " more";
        out << '\n';
    }
    out << "commutation classes:";
    size_t classNames = 0;
    for (const auto& cls : a.commutationClasses()) {
        if (classNames >= kFamiliesListed) {
            out << " ...";
            break;
        }
        out << " {";
        for (size_t i = 0; i < cls.size(); ++i, ++classNames) {
            if (i == kPartnersListed) {
                out << " ... and " << cls.size() - i << " more";
                classNames += cls.size() - i;
                break;
            }
            out << (i ? " " : "") << p.families[cls[i]].name;
        }
        out << '}';
    }
    out << '\n';
    out << "group order: " << a.groupOrder().get_str() << '\n';
    const auto& sym = a.symmetries();
    out << "symmetry group: order " << sym.elements.size() << ", generated by " << p.symmetries.size()
        << " declared symmetr" << (p.symmetries.size() == 1 ? "y" : "ies") << '\n';
    for (size_t d = 0; d < p.symmetries.size(); ++d) {
        const auto& s = p.symmetries[d];
        out << "  " << s.name << (s.effect.mirror ? " (mirror)" : "") << ", order "
            << ir::order(s.effect, p.orbits) << ":";
        for (const auto& [from, to] : inducedMoves(p, sym, (int)d)) out << ' ' << from << "->" << to;
        out << '\n';
    }
    out << "subgroups: " << p.subgroups.size() << '\n';
    for (size_t i = 0; i < p.subgroups.size(); ++i) {
        const auto& sub = p.subgroups[i];
        const auto& info = a.subgroup((int)i);
        out << "  " << sub.name << ": order " << info.order.get_str() << ", index " << info.index.get_str();
        if (!sub.generatorText.empty()) {
            out << ", generated by";
            for (const auto& g : sub.generatorText) out << ' ' << g;
        }
        if (!sub.keepIn.empty() || !sub.oriented.empty()) out << ", by invariants";
        out << ", kept by " << a.subgroupSymmetries((int)i).size() << " of " << sym.elements.size() << " symmetries";
        out << '\n';
        // Its coset coordinate (note [coset coordinates]).
        const auto c = analysis::cosetCoordinate(a, (int)i);
        if (!c.invariants.unsupported.empty()) {
            out << "    coset coordinate: none (" << c.problem << ")\n";
            continue;
        }
        out << "    coset coordinate: " << c.size.get_str() << " values"
            << (c.exact ? " = index" : " (not the index: " + c.problem + ")") << (c.invariants.derived ? ", derived invariants" : "")
            << '\n';
        for (const auto& part : c.parts) out << "      " << part.describe(p) << ": " << part.size << '\n';
    }
    out << "patterns: " << p.patterns.size() << '\n';
    for (const auto& pat : p.patterns) {
        out << "  " << pat.name << ": " << patternSize(p, pat).get_str() << " values, table "
            << tableBytesText(patternTableBytes(p, pat)) << ",";
        for (const auto& part : pat.parts) out << ' ' << partText(p, part);
        out << '\n';
    }
    out << "solvers: " << p.solvers.size() << '\n';
    for (const auto& s : p.solvers) {
        out << "  " << s.name << ": " << solverKind(s.kind);
        if (!s.patterns.empty()) {
            out << ", heuristic max of";
            for (int i : s.patterns) out << ' ' << p.patterns[i].name;
        }
        if (!s.phases.empty()) {
            out << ", phases";
            for (int i : s.phases) out << ' ' << p.subgroups[i].name;
            out << " solved";
        }
        out << '\n';
    }
}

void printJson(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, std::ostream& stream) {
    JsonWriter j(stream);
    j.beginObject();
    j.field("puzzle", p.name);
    j.field("file", p.file);
    j.key("orbits");
    j.beginArray();
    for (const auto& o : p.orbits) {
        j.beginObject();
        j.field("name", o.name);
        j.field("size", o.size);
        j.field("orientation", o.orient);
        j.field("distinctPieces", distinctLabels(o));
        j.key("positions");
        j.beginArray(true);
        for (int i = 0; i < o.size; ++i) j.value(positionName(o, i));
        j.endArray();
        j.endObject();
    }
    j.endArray();
    const auto& inverse = a.inverseMove();
    j.key("moves");
    j.beginArray();
    for (size_t m = 0; m < p.moves.size(); ++m) {
        const auto& mv = p.moves[m];
        j.beginObject();
        j.field("name", mv.name);
        j.field("family", p.families[mv.family].name);
        j.field("power", mv.power);
        j.field("inMetric", mv.inMetric);
        j.key("inverse");
        if (inverse[m] < 0) j.null(); else j.value(p.moves[inverse[m]].name);
        j.endObject();
    }
    j.endArray();
    int metric = 0;
    for (const auto& m : p.moves) metric += m.inMetric;
    j.field("metricMoves", metric);
    j.key("families");
    j.beginArray();
    for (size_t f = 0; f < p.families.size(); ++f) {
        j.beginObject();
        j.field("name", p.families[f].name);
        j.field("order", a.familyOrders()[f]);
        j.key("moves");
        j.beginArray(true);
        for (const auto& m : p.moves)
            if (m.family == (int)f) j.value(m.name);
        j.endArray();
        // Big definitions (over 64 families) list the smaller side: the
        // families that commute with f, or those that do not
        // ("commutesWithAllBut"), so the report stays linear in size.
        const auto partners = commutingFamilies(p, a, (int)f);
        const bool listOthers = p.families.size() > 64 && 2 * partners.size() > p.families.size();
        std::vector<int> others;
        if (listOthers) {
            std::vector<bool> commuting(p.families.size(), false);
            for (int g : partners) commuting[g] = true;
            for (size_t g = 0; g < p.families.size(); ++g)
                if (g != f && !commuting[g]) others.push_back((int)g);
        }
        j.key(listOthers ? "commutesWithAllBut" : "commutesWith");
        j.beginArray(true);
        for (int g : listOthers ? others : partners) j.value(p.families[g].name);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.key("commutationClasses");
    j.beginArray();
    for (const auto& cls : a.commutationClasses()) {
        j.beginArray(true);
        for (int f : cls) j.value(p.families[f].name);
        j.endArray();
    }
    j.endArray();
    j.field("groupOrder", a.groupOrder().get_str());
    const auto& sym = a.symmetries();
    j.key("symmetries");
    j.beginObject();
    j.field("order", sym.elements.size());
    j.key("declared");
    j.beginArray();
    for (size_t d = 0; d < p.symmetries.size(); ++d) {
        const auto& s = p.symmetries[d];
        j.beginObject();
        j.field("name", s.name);
        j.field("mirror", s.effect.mirror);
        j.field("order", ir::order(s.effect, p.orbits));
        j.key("moves");
        j.beginObject();
        for (const auto& [from, to] : inducedMoves(p, sym, (int)d)) j.field(from, to);
        j.endObject();
        j.endObject();
    }
    j.endArray();
    j.endObject();
    j.key("subgroups");
    j.beginArray();
    for (size_t i = 0; i < p.subgroups.size(); ++i) {
        const auto& sub = p.subgroups[i];
        const auto& info = a.subgroup((int)i);
        j.beginObject();
        j.field("name", sub.name);
        j.field("order", info.order.get_str());
        j.field("index", info.index.get_str());
        j.key("generators");
        j.beginArray(true);
        for (const auto& g : sub.generatorText) j.value(g);
        j.endArray();
        j.field("invariants", !sub.keepIn.empty() || !sub.oriented.empty());
        j.field("symmetries", a.subgroupSymmetries((int)i).size());
        const auto c = analysis::cosetCoordinate(a, (int)i);
        j.key("cosetCoordinate");
        j.beginObject();
        j.field("size", c.size.get_str());
        j.field("exact", c.exact);
        j.field("derived", c.invariants.derived);
        if (!c.problem.empty()) j.field("problem", c.problem);
        j.key("parts");
        j.beginArray();
        for (const auto& part : c.parts) {
            j.beginObject();
            j.field("kind", part.kindName());
            j.field("description", part.describe(p));
            j.field("size", (size_t)part.size);
            j.endObject();
        }
        j.endArray();
        j.endObject();
        j.endObject();
    }
    j.endArray();
    j.key("patterns");
    j.beginArray();
    for (const auto& pat : p.patterns) {
        j.beginObject();
        j.field("name", pat.name);
        j.field("size", patternSize(p, pat).get_str());
        j.field("table-bytes", patternTableBytes(p, pat).get_str());
        j.key("parts");
        j.beginArray();
        for (const auto& part : pat.parts) {
            j.beginObject();
            j.field("orbit", p.orbits[part.orbit].name);
            j.field("pieces", part.pieces.empty() ? p.orbits[part.orbit].size : (int)part.pieces.size());
            j.field("positions", part.positions);
            j.field("orientations", part.orientations);
            j.field("unordered", part.unordered);
            j.field("size", patternPartSize(p, part).get_str());
            j.endObject();
        }
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.key("solvers");
    j.beginArray();
    for (const auto& s : p.solvers) {
        j.beginObject();
        j.field("name", s.name);
        j.field("kind", solverKind(s.kind));
        j.key("patterns");
        j.beginArray(true);
        for (int i : s.patterns) j.value(p.patterns[i].name);
        j.endArray();
        j.key("phases");
        j.beginArray(true);
        for (int i : s.phases) j.value(p.subgroups[i].name);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.endObject();
    j.finish();
}

}  // namespace

int runCheck(const Args& args) {
    if (args.empty() || args[0] == "--help") {
        std::cerr << "usage: pzc check FILE [--json]\n";
        return args.empty() ? 2 : 0;
    }
    // The file is the first argument that is not an option; the rest go to
    // the grid-puzzle part unchanged.
    std::string file;
    Args rest;
    bool json = false;
    for (size_t i = 0; i < args.size(); ++i) {
        if (file.empty() && args[i].rfind("--", 0) != 0 && (i == 0 || args[i - 1] != "--level")) {
            file = args[i];
            continue;
        }
        if (args[i] == "--json") json = true;
        rest.push_back(args[i]);
    }
    if (file.empty()) {
        std::cerr << "usage: pzc check FILE [--json]\n";
        return 2;
    }
    // Parse and lower (all front-end errors reported at once).
    DiagnosticEngine diags;
    pipeline::CompilationUnit unit(file);
    if (!unit.load(diags)) {
        diags.print(std::cerr);
        return 1;
    }
    const ir::Puzzle* puzzle = &unit.puzzle();
    if (unit.isGrid()) {
        diags.print(std::cerr);
        return checkGridPuzzle(*puzzle, rest);
    }
    OptionParser options("check", "usage: pzc check FILE [--json]\n");
    options.flag("--json", json);
    if (auto rc = options.parse(rest)) {
        diags.print(std::cerr);
        return *rc;
    }
    // Analyse: semantic checks the analyses can make (symmetries, subgroups).
    bool ok = unit.check(diags);
    analysis::PuzzleAnalysis& analysis = unit.analysis();
    // Patterns the code generator cannot encode (too many values, ...).
    std::vector<analysis::Coordinate> coordinates;
    ok = analysis::computeCoordinates(*puzzle, coordinates, diags) && ok;
    // Phased solvers: the plan must build (note [coset coordinates]). Not an
    // error: the definition stays usable with its other solvers, and
    // `pzc solve --solver NAME` reports the same problem as an error.
    if (ok) {
        for (size_t s = 0; s < puzzle->solvers.size(); ++s) {
            if (puzzle->solvers[s].kind != ir::Solver::Kind::Phased) continue;
            DiagnosticEngine planDiags;
            if (!unit.phasedPlan((int)s, planDiags))
                diags.warning(puzzle->file, puzzle->solvers[s].where,
                              (planDiags.all().empty() ? std::string("phased solver cannot be built")
                                                       : planDiags.all().front().message) +
                                  " (`pzc solve --solver " + puzzle->solvers[s].name + "` refuses it)");
        }
    }
    diags.print(std::cerr);
    if (!ok) return 1;
    // Report.
    if (json)
        printJson(*puzzle, analysis, std::cout);
    else
        printText(*puzzle, analysis, std::cout);
    return 0;
}

}  // namespace pz::driver
