// pzc check FILE [--json] for permutation puzzles: validate and analyse a
// definition (everything solve and build rely on), then print its summary:
// orbits, moves, family orders, inverses, commutation classes, the exact
// group order, the symmetry group, subgroups, patterns and solvers.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "compiler/analysis/perm/canonical_automaton.hpp"
#include "compiler/analysis/perm/coordinates.hpp"
#include "compiler/analysis/perm/default_patterns.hpp"
#include "compiler/analysis/perm/coset_coordinates.hpp"
#include "compiler/analysis/perm/distinct_states.hpp"
#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/analysis/perm/puzzle_summary.hpp"
#include "compiler/analysis/perm/sift_words.hpp"
#include "compiler/analysis/perm/table_estimates.hpp"
#include "compiler/driver/perm/perm_backend.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"
#include "compiler/pipeline/compilation_unit.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/result_json.hpp"

namespace pz::driver {

namespace {


using analysis::commutingFamilies, analysis::distinctLabels, analysis::inducedMoves, analysis::patternPartSize, analysis::patternStates,
    analysis::patternSize, analysis::patternTableBytes;

// A minimal deterministic JSON writer: two-space indentation, keys in the
// order written, arrays of scalars on one line.
//
// note [check json size]
// `pzc check --json` stays under 100 KB for any definition: every string
// value is cut at kMaxString bytes (on a UTF-8 boundary, then "..."), a list
// nested in an item lists at most kNestedItems entries, the group order at
// most kMaxOrderDigits digits (then "d.ddde+N" and "groupOrderExact": false),
// an orbit at most kMaxPositions position names, and each top-level section (orbits, moves,
// families, ...) stops adding items once it has written its byte share
// (kSection*). A cut list is followed by "<key>Truncated": true and
// "<key>Total": N. The shares plus one item per section (at most about
// 2 KB: kNestedItems strings of kMaxString bytes) add up to under 100 KB.
class JsonWriter {
public:
    static constexpr size_t kMaxString = 96, kNestedItems = 16, kMaxPositions = 64, kMaxOrderDigits = 3000;
    explicit JsonWriter(std::ostream& out) : stream_(out) {}
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
    // A number with two decimals (an estimate: more digits would claim too much).
    void value(double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f", v);
        scalarStart();
        out_ << buf;
    }
    // A decimal number as a string, exact up to kMaxOrderDigits digits.
    void bigValue(const std::string& digits) {
        scalarStart();
        if (digits.size() <= kMaxOrderDigits) out_ << '"' << digits << '"';
        else out_ << '"' << digits[0] << '.' << digits.substr(1, 15) << "e+" << digits.size() - 1 << '"';
    }
    void null() { scalarStart(); out_ << "null"; }
    template <class T>
    void field(const std::string& k, const T& v) { key(k); value(v); }
    // Bytes written so far.
    size_t size() { return (size_t)out_.tellp(); }
    // After a list of `total` items that showed `shown`: the truncation fields.
    void listEnd(const std::string& k, size_t shown, size_t total) {
        if (shown == total) return;
        field(k + "Truncated", true);
        field(k + "Total", total);
    }
    void finish() {
        out_ << '\n';
        stream_ << out_.str();
    }

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
    // Strings go through the runtime's one JSON escaper (pz/support/result_json.hpp),
    // cut at kMaxString bytes (note [check json size]).
    void quoted(const std::string& s) {
        if (s.size() <= kMaxString) {
            out_ << pz::json::quote(s);
            return;
        }
        size_t cut = kMaxString;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
        out_ << pz::json::quote(s.substr(0, cut) + "...");
    }
    std::ostream& stream_;
    std::ostringstream out_;
    std::vector<bool> first_, inline_;
    bool pendingKey_ = false;
};

// note [table estimates]: the fields beside a pattern's table-bytes.
void estimateFields(JsonWriter& j, const analysis::TableEstimate& e) {
    j.field("meanEntryEstimate", e.meanEntry);
    j.field("buildSecondsEstimate", e.buildSeconds);
    if (e.exactDepth > 0) {  // a projected coset table
        j.field("exactDepthEstimate", e.exactDepth);
        j.field("depthFirstNodesEstimate", e.depthFirstNodes);
    }
}

// One top-level section's share of the output (note [check json size]):
// whether another item fits.
class Section {
public:
    Section(JsonWriter& j, size_t share) : j_(j), limit_(j.size() + share) {}
    bool room() { return j_.size() < limit_; }

private:
    JsonWriter& j_;
    size_t limit_;
};

std::string positionName(const ir::Orbit& orbit, int p) {
    return p < (int)orbit.positionNames.size() ? orbit.positionNames[p] : std::to_string(p);
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

// With identical pieces: the number of distinct states (note [distinct
// states]); for distinct pieces it is the group order, not repeated.
void printDistinctStates(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, std::ostream& out) {
    if (!p.illegal.empty()) {
        out << "illegal placements: " << p.illegal.size() << " (states with one are never entered)\n";
        const auto d = analysis::countDistinctStates(a);
        if (d.known) out << "reachable states: " << d.count.get_str() << " (enumerated through legal states)\n";
        else out << "reachable states: unknown (" << d.reason << ")\n";
        return;
    }
    if (!analysis::hasIdenticalPieces(p)) return;
    const auto d = analysis::countDistinctStates(a);
    if (d.known)
        out << "distinct states: " << d.count.get_str() << " (identical pieces; group order / "
            << mpz_class(a.groupOrder() / d.count).get_str() << ")\n";
    else
        out << "distinct states: unknown (" << d.reason << ")\n";
}

const char* solverKind(ir::Solver::Kind kind) {
    switch (kind) {
        case ir::Solver::Kind::Optimal: return "optimal";
        case ir::Solver::Kind::Phased: return "phased";
        case ir::Solver::Kind::Sift: return "sift";
    }
    return "?";
}

// A phased solver's plan and its phases' symmetry class counts (note
// [class counts] in compiler/analysis/perm/coset_coordinates.hpp); no plan when
// the solver is not phased or cannot be built.
struct PhasedSolverInfo {
    const analysis::SolverPlan* plan = nullptr;
    std::vector<analysis::PhaseClassCount> classes;  // per phase
};

// A pattern's table: a coset pattern's plan and class count (note [coset
// patterns]; no plan for other patterns), and for every pattern the
// estimates of note [table estimates].
struct PatternTableInfo {
    std::optional<analysis::PhasePlan> plan;
    analysis::PhaseClassCount classes;
    analysis::TableEstimate estimate;
    uint64_t entries() const { return plan ? analysis::cosetPatternEntries(*plan, classes) : 0; }
    uint64_t tableBytes() const { return plan ? analysis::cosetPatternTableBytes(*plan, classes) : 0; }
};

// Bytes of an optimal solver's tables: the sum over its patterns of what
// the patterns' lines report (analysis::optimalSolverTableBytes computes the
// same from the plans; pzc solve --memory chooses by it).
uint64_t solverTableBytes(const ir::Puzzle& p, const ir::Solver& s, const std::vector<PatternTableInfo>& coset) {
    uint64_t bytes = 0;
    for (int i : s.patterns)
        bytes += p.patterns[i].cosetSubgroup < 0 ? analysis::patternTableBytes(p, p.patterns[i]).get_ui()
                                                 : coset[i].tableBytes();
    return bytes;
}

// "orientation of edges mod 2 (sum fixed) x membership of edges in 2 sets (4+8)"
std::string reducedPartsText(const ir::Puzzle& p, const analysis::PhasePlan& phase) {
    std::string text;
    for (int j : phase.reduced) text += (text.empty() ? "" : " x ") + phase.parts[j].describe(p);
    return text;
}

// The text summary stays small for big definitions (thousands of
// families); --json lists everything.
constexpr size_t kFamiliesListed = 64, kPartnersListed = 16;

// Each orbit: size, orientation, stickers of ignored pieces, position names.
void printOrbitsText(const ir::Puzzle& p, std::ostream& out) {
    out << "orbits: " << p.orbits.size() << '\n';
    for (const auto& o : p.orbits) {
        out << "  " << o.name << ": " << o.size << " positions, orientation " << o.orient;
        if (o.ignoredOrient > 1) out << " (mod " << o.ignoredOrient << " ignored)";
        if (o.stickerPieces > 0) {
            // note [ignored pieces] (compiler/ir/lower.cpp)
            out << " (stickers of " << o.stickerPieces << " pieces x " << o.stickerModulus
                << " orientations; orientation ignored on";
            for (int q : o.ignoredPieces) {
                const int slot = q * o.stickerModulus;
                out << ' ' << (o.positionNames.empty() ? std::to_string(q) : o.positionNames[slot].substr(0, o.positionNames[slot].size() - 2));
            }
            out << ')';
        }
        out << ", " << distinctLabels(o) << " distinct pieces";
        if (!o.positionNames.empty()) {
            out << " (";
            for (int i = 0; i < o.size; ++i) out << (i ? " " : "") << o.positionNames[i];
            out << ')';
        }
        out << '\n';
    }
}

// Each move family: its order, moves, inverses and the families it commutes with.
void printMovesText(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, std::ostream& out) {
    int metric = 0;
    for (const auto& m : p.moves) metric += m.inMetric;
    out << "moves: " << p.moves.size() << " (" << metric << " in the metric; * = not in the metric)\n";
    const auto& orders = a.familyOrders();
    const auto& inverse = a.inverseMove();
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
}

// The families grouped into classes of pairwise commuting ones.
void printCommutationClassesText(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, std::ostream& out) {
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
}

// The symmetry group and what each declared symmetry does to the moves.
void printSymmetriesText(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, std::ostream& out) {
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
}

// Each subgroup: order, index, the symmetries keeping it and its coset coordinate.
void printSubgroupsText(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, std::ostream& out) {
    const auto& sym = a.symmetries();
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
}

// Each pattern's values and table (coset patterns by their plan), then the
// default patterns when none is declared.
void printPatternsText(const ir::Puzzle& p, const std::vector<PatternTableInfo>& coset, std::ostream& out) {
    out << "patterns: " << p.patterns.size() << '\n';
    for (const auto& pat : p.patterns) {
        const size_t index = (size_t)(&pat - p.patterns.data());
        if (index < coset.size() && coset[index].plan) {
            // note [coset patterns]
            const auto& info = coset[index];
            const auto& plan = *info.plan;
            mpz_class values = 1;
            for (const auto& part : plan.parts) values *= (unsigned long)part.size;
            out << "  " << pat.name << ": coset coordinate of " << plan.target << ", " << values.get_str() << " values, ";
            if (plan.symmetries.empty()) {
                out << "one table";
            } else {
                out << reducedPartsText(p, plan) << " (" << plan.reducedSize << " values) by " << plan.symmetries.size()
                    << " symmetries: ";
                if (info.classes.classes) out << info.classes.classes << " classes";
                else out << "classes " << info.classes.why;
                if (!plan.rest.empty()) {
                    // note [projected coset patterns]: the table keeps plan.kept of the rest.
                    out << " x";
                    for (size_t i = 0; i < plan.rest.size(); ++i)
                        out << (i ? " x " : " ")
                            << (plan.kept.empty() ? plan.parts[plan.rest[i]] : plan.kept[i]).describe(p);
                    out << " (" << plan.restSize << " values)";
                    if (!plan.kept.empty()) out << ", projected: the least moves over the orientations not kept";
                    if (plan.exactDepth > 0) out << ", exact up to at least " << plan.exactDepth << " (declared)";
                }
            }
            out << "; " << (info.classes.classes || plan.symmetries.empty() ? "" : "at least ") << info.entries()
                << " entries, table " << tableBytesText(mpz_class((unsigned long)info.tableBytes()))
                << (plan.kept.empty() ? "" : " (2-bit entries)") << '\n';
            out << "    " << analysis::estimateText(info.estimate) << '\n';
            continue;
        }
        const mpz_class values = patternSize(p, pat), states = patternStates(p, pat);
        out << "  " << pat.name << ": " << values.get_str() << " values";
        if (states != values) out << " (" << states.get_str() << " of them states)";
        out << ", table " << tableBytesText(patternTableBytes(p, pat)) << ",";
        for (const auto& part : pat.parts) out << ' ' << partText(p, part);
        out << '\n';
        if (index < coset.size()) out << "    " << analysis::estimateText(coset[index].estimate) << '\n';
    }
    // None declared: the optimal search uses default patterns (analysis/perm/default_patterns.hpp).
    if (auto defaults = analysis::defaultPatterns(p); !defaults.empty()) {
        out << "  default patterns (none declared; at most " << analysis::kDefaultPatternValues
            << " values in all, or what pzc solve --memory SIZE allows):\n";
        for (const auto& pat : defaults) {
            out << "    " << pat.name << ": " << patternSize(p, pat).get_str() << " values, table "
                << tableBytesText(patternTableBytes(p, pat)) << ",";
            for (const auto& part : pat.parts) out << ' ' << partText(p, part);
            out << '\n';
        }
    }
}

// Each solver: kind, heuristic tables or phases, and a phased one's class counts.
void printSolversText(const ir::Puzzle& p, const std::vector<PhasedSolverInfo>& phased,
                      const std::vector<PatternTableInfo>& coset, std::ostream& out) {
    out << "solvers: " << p.solvers.size() << '\n';
    for (const auto& s : p.solvers) {
        out << "  " << s.name << ": " << solverKind(s.kind);
        if (!s.patterns.empty()) {
            out << ", heuristic max of";
            for (int i : s.patterns) out << ' ' << p.patterns[i].name;
            out << ", tables " << tableBytesText(mpz_class((unsigned long)solverTableBytes(p, s, coset)));
        }
        if (!s.phases.empty()) {
            out << ", phases";
            for (int i : s.phases) out << ' ' << p.subgroups[i].name;
            out << " solved";
        }
        if (s.kind == ir::Solver::Kind::Sift)
            out << ", places the pieces one at a time by stored sequences (bounded, not optimal)";
        out << '\n';
        const size_t index = (size_t)(&s - p.solvers.data());
        if (index >= phased.size() || !phased[index].plan) continue;
        const auto& plan = *phased[index].plan;
        for (size_t k = 0; k < plan.phases.size(); ++k) {
            const auto& phase = plan.phases[k];
            if (phase.symmetries.empty()) continue;
            const auto& c = phased[index].classes[k];
            out << "    phase " << k + 1 << " (to " << phase.target << "): " << reducedPartsText(p, phase) << ", "
                << phase.reducedSize << " values by " << phase.symmetries.size() << " symmetries: ";
            if (c.classes) out << c.classes << " classes\n";
            else out << "classes " << c.why << '\n';
        }
    }
}

// The summary of pzc check: one helper per section, in this order.
void printText(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, const std::vector<PhasedSolverInfo>& phased,
               const std::vector<PatternTableInfo>& coset,
               std::ostream& out) {
    out << "puzzle " << p.name << " (" << p.file << ")\n";
    printOrbitsText(p, out);
    printMovesText(p, a, out);
    printCommutationClassesText(p, a, out);
    out << "group order: " << a.groupOrder().get_str() << '\n';
    printDistinctStates(p, a, out);
    printSymmetriesText(p, a, out);
    printSubgroupsText(p, a, out);
    printPatternsText(p, coset, out);
    printSolversText(p, phased, coset, out);
}

// Byte shares of the JSON sections (note [check json size]).
constexpr size_t kOrbitsShare = 4096, kMovesShare = 8192, kFamiliesShare = 14336, kClassesShare = 4096,
                 kSymmetriesShare = 6144, kSubgroupsShare = 6144, kPatternsShare = 6144, kSolversShare = 4096;
constexpr size_t kNested = JsonWriter::kNestedItems;

// A nested list of names: at most kNested.
void writeNames(JsonWriter& j, const std::string& key, const std::vector<std::string>& list) {
    j.key(key);
    j.beginArray(true);
    size_t shown = 0;
    for (; shown < list.size() && shown < kNested; ++shown) j.value(list[shown]);
    j.endArray();
    j.listEnd(key, shown, list.size());
}

// The orbits: size, orientation, stickers, distinct pieces, position names.
void writeOrbitsJson(JsonWriter& j, const ir::Puzzle& p) {
    j.key("orbits");
    j.beginArray();
    size_t shown = 0;
    for (Section sec(j, kOrbitsShare); shown < p.orbits.size() && sec.room(); ++shown) {
        const auto& o = p.orbits[shown];
        j.beginObject();
        j.field("name", o.name);
        j.field("size", o.size);
        j.field("orientation", o.orient);
        if (o.ignoredOrient > 1) j.field("ignoredOrientation", o.ignoredOrient);
        if (o.stickerPieces > 0) {
            j.field("stickerPieces", o.stickerPieces);
            j.field("stickerModulus", o.stickerModulus);
        }
        j.field("distinctPieces", distinctLabels(o));
        std::vector<std::string> positions;
        for (int i = 0; i < o.size && i < (int)JsonWriter::kMaxPositions; ++i) positions.push_back(positionName(o, i));
        j.key("positions");
        j.beginArray(true);
        for (const auto& name : positions) j.value(name);
        j.endArray();
        j.listEnd("positions", positions.size(), (size_t)o.size);
        j.endObject();
    }
    j.endArray();
    j.listEnd("orbits", shown, p.orbits.size());
}

// The moves with their family, power and inverse, and the metric's count.
void writeMovesJson(JsonWriter& j, const ir::Puzzle& p, analysis::PuzzleAnalysis& a) {
    const auto& inverse = a.inverseMove();
    j.key("moves");
    j.beginArray();
    size_t shown = 0;
    for (Section sec(j, kMovesShare); shown < p.moves.size() && sec.room(); ++shown) {
        const auto& mv = p.moves[shown];
        j.beginObject();
        j.field("name", mv.name);
        j.field("family", p.families[mv.family].name);
        j.field("power", mv.power);
        j.field("inMetric", mv.inMetric);
        j.key("inverse");
        if (inverse[shown] < 0) j.null(); else j.value(p.moves[inverse[shown]].name);
        j.endObject();
    }
    j.endArray();
    j.listEnd("moves", shown, p.moves.size());
    int metric = 0;
    for (const auto& m : p.moves) metric += m.inMetric;
    j.field("metricMoves", metric);
}

// The move families: order, moves, and the families each commutes with.
void writeFamiliesJson(JsonWriter& j, const ir::Puzzle& p, analysis::PuzzleAnalysis& a) {
    j.key("families");
    j.beginArray();
    size_t shown = 0;
    for (Section sec(j, kFamiliesShare); shown < p.families.size() && sec.room(); ++shown) {
        const size_t f = shown;
        j.beginObject();
        j.field("name", p.families[f].name);
        j.field("order", a.familyOrders()[f]);
        std::vector<std::string> moves;
        for (const auto& m : p.moves)
            if (m.family == (int)f) moves.push_back(m.name);
        writeNames(j, "moves", moves);
        // Big definitions (over 64 families) list the smaller side: the
        // families that commute with f, or those that do not
        // ("commutesWithAllBut"), so the report stays small.
        const auto partners = commutingFamilies(p, a, (int)f);
        const bool listOthers = p.families.size() > 64 && 2 * partners.size() > p.families.size();
        std::vector<std::string> listed;
        if (listOthers) {
            std::vector<bool> commuting(p.families.size(), false);
            for (int g : partners) commuting[g] = true;
            for (size_t g = 0; g < p.families.size(); ++g)
                if (g != f && !commuting[g]) listed.push_back(p.families[g].name);
        } else {
            for (int g : partners) listed.push_back(p.families[g].name);
        }
        writeNames(j, listOthers ? "commutesWithAllBut" : "commutesWith", listed);
        j.endObject();
    }
    j.endArray();
    j.listEnd("families", shown, p.families.size());
}

// The classes of pairwise commuting families (and their sizes when cut).
void writeCommutationClassesJson(JsonWriter& j, const ir::Puzzle& p, analysis::PuzzleAnalysis& a) {
    j.key("commutationClasses");
    j.beginArray();
    const auto& classes = a.commutationClasses();
    size_t shown = 0;
    for (Section sec(j, kClassesShare); shown < classes.size() && sec.room(); ++shown) {
        j.beginArray(true);
        size_t k = 0;
        for (; k < classes[shown].size() && k < kNested; ++k) j.value(p.families[classes[shown][k]].name);
        j.endArray();
    }
    j.endArray();
    j.listEnd("commutationClasses", shown, classes.size());
    // Classes cut at kNested families: the count of each (all of them, as
    // numbers: a few bytes per class).
    if (std::any_of(classes.begin(), classes.end(), [&](const auto& c) { return c.size() > kNested; })) {
        j.key("commutationClassSizes");
        j.beginArray(true);
        for (size_t c = 0; c < shown; ++c) j.value(classes[c].size());
        j.endArray();
    }
}

// The group order and the number of distinct states, as big numbers.
void writeGroupOrderJson(JsonWriter& j, analysis::PuzzleAnalysis& a) {
    const std::string order = a.groupOrder().get_str();
    j.key("groupOrder");
    j.bigValue(order);
    if (order.size() > JsonWriter::kMaxOrderDigits) {
        j.field("groupOrderExact", false);
        j.field("groupOrderDigits", order.size());
    }
    {
        // note [distinct states]: always present; "unknown" with a reason when not exact.
        const auto d = analysis::countDistinctStates(a);
        // A count is a big number like the group order (exact up to kMaxOrderDigits), never cut as a string.
        j.key("distinctStates");
        if (d.known) j.bigValue(d.count.get_str());
        else j.value(std::string("unknown"));
        if (!d.known) j.field("distinctStatesUnknown", d.reason);
    }
}

// The symmetry group's order and each declared symmetry's effect on the moves.
void writeSymmetriesJson(JsonWriter& j, const ir::Puzzle& p, analysis::PuzzleAnalysis& a) {
    const auto& sym = a.symmetries();
    j.key("symmetries");
    j.beginObject();
    j.field("order", sym.elements.size());
    j.key("declared");
    j.beginArray();
    size_t shown = 0;
    for (Section sec(j, kSymmetriesShare); shown < p.symmetries.size() && sec.room(); ++shown) {
        const size_t d = shown;
        const auto& s = p.symmetries[d];
        j.beginObject();
        j.field("name", s.name);
        j.field("mirror", s.effect.mirror);
        j.field("order", ir::order(s.effect, p.orbits));
        const auto induced = inducedMoves(p, sym, (int)d);
        j.key("moves");
        j.beginObject();
        size_t k = 0;
        for (; k < induced.size() && k < kNested; ++k) j.field(induced[k].first, induced[k].second);
        j.endObject();
        j.listEnd("moves", k, induced.size());
        j.endObject();
    }
    j.endArray();
    j.listEnd("declared", shown, p.symmetries.size());
    j.endObject();
}

// The subgroups: order, index, generators, symmetries and coset coordinate.
void writeSubgroupsJson(JsonWriter& j, const ir::Puzzle& p, analysis::PuzzleAnalysis& a) {
    j.key("subgroups");
    j.beginArray();
    size_t shown = 0;
    for (Section sec(j, kSubgroupsShare); shown < p.subgroups.size() && sec.room(); ++shown) {
        const size_t i = shown;
        const auto& sub = p.subgroups[i];
        const auto& info = a.subgroup((int)i);
        j.beginObject();
        j.field("name", sub.name);
        j.key("order");
        j.bigValue(info.order.get_str());
        j.key("index");
        j.bigValue(info.index.get_str());
        writeNames(j, "generators", sub.generatorText);
        j.field("invariants", !sub.keepIn.empty() || !sub.oriented.empty());
        j.field("symmetries", a.subgroupSymmetries((int)i).size());
        const auto c = analysis::cosetCoordinate(a, (int)i);
        j.key("cosetCoordinate");
        j.beginObject();
        j.key("size");
        j.bigValue(c.size.get_str());
        j.field("exact", c.exact);
        j.field("derived", c.invariants.derived);
        if (!c.problem.empty()) j.field("problem", c.problem);
        j.key("parts");
        j.beginArray();
        size_t k = 0;
        for (; k < c.parts.size() && k < kNested; ++k) {
            const auto& part = c.parts[k];
            j.beginObject();
            j.field("kind", part.kindName());
            j.field("description", part.describe(p));
            j.field("size", (size_t)part.size);
            j.endObject();
        }
        j.endArray();
        j.listEnd("parts", k, c.parts.size());
        j.endObject();
        j.endObject();
    }
    j.endArray();
    j.listEnd("subgroups", shown, p.subgroups.size());
}

// The patterns: a coset pattern's plan and classes, else the values, table
// bytes and parts, with the estimates of note [table estimates].
void writePatternsJson(JsonWriter& j, const ir::Puzzle& p, const std::vector<PatternTableInfo>& coset) {
    j.key("patterns");
    j.beginArray();
    size_t shown = 0;
    for (Section sec(j, kPatternsShare); shown < p.patterns.size() && sec.room(); ++shown) {
        const auto& pat = p.patterns[shown];
        j.beginObject();
        j.field("name", pat.name);
        if (shown < coset.size() && coset[shown].plan) {
            // note [coset patterns]: the subgroup, symmetries, classes, entries.
            const auto& info = coset[shown];
            const auto& plan = *info.plan;
            j.field("coset", plan.target);
            std::vector<std::string> parts, reduced;
            for (const auto& part : plan.parts) parts.push_back(part.describe(p));
            for (int r : plan.reduced) reduced.push_back(plan.parts[r].describe(p));
            writeNames(j, "cosetParts", parts);
            writeNames(j, "reducedParts", reduced);
            if (!plan.kept.empty()) {  // note [projected coset patterns]
                std::vector<std::string> kept;
                for (const auto& part : plan.kept) kept.push_back(part.describe(p));
                writeNames(j, "keptParts", kept);
                if (plan.exactDepth > 0) j.field("exactDepth", plan.exactDepth);
            }
            j.field("symmetries", (uint64_t)plan.symmetries.size());
            j.field("classes", info.classes.classes);
            j.field("entries", info.entries());
            j.field("table-bytes", info.tableBytes());
            estimateFields(j, info.estimate);
            j.endObject();
            continue;
        }
        j.key("size");
        j.bigValue(patternSize(p, pat).get_str());
        j.key("states");  // note [parts on one orbit]: the values that are states
        j.bigValue(patternStates(p, pat).get_str());
        j.key("table-bytes");
        j.bigValue(patternTableBytes(p, pat).get_str());
        if (shown < coset.size()) estimateFields(j, coset[shown].estimate);
        j.key("parts");
        j.beginArray();
        size_t k = 0;
        for (; k < pat.parts.size() && k < kNested; ++k) {
            const auto& part = pat.parts[k];
            j.beginObject();
            j.field("orbit", p.orbits[part.orbit].name);
            j.field("pieces", part.pieces.empty() ? p.orbits[part.orbit].size : (int)part.pieces.size());
            j.field("positions", part.positions);
            j.field("orientations", part.orientations);
            j.field("unordered", part.unordered);
            j.key("size");
            j.bigValue(patternPartSize(p, part).get_str());
            j.endObject();
        }
        j.endArray();
        j.listEnd("parts", k, pat.parts.size());
        j.endObject();
    }
    j.endArray();
    j.listEnd("patterns", shown, p.patterns.size());
}

// The solvers: kind, patterns or phases, table bytes and a phased plan's classes.
void writeSolversJson(JsonWriter& j, const ir::Puzzle& p, analysis::PuzzleAnalysis& a,
                      const std::vector<PhasedSolverInfo>& phased, const std::vector<PatternTableInfo>& coset) {
    j.key("solvers");
    j.beginArray();
    size_t shown = 0;
    for (Section sec(j, kSolversShare); shown < p.solvers.size() && sec.room(); ++shown) {
        const auto& s = p.solvers[shown];
        j.beginObject();
        j.field("name", s.name);
        j.field("kind", solverKind(s.kind));
        std::vector<std::string> patterns, phases;
        for (int i : s.patterns) patterns.push_back(p.patterns[i].name);
        for (int i : s.phases) phases.push_back(p.subgroups[i].name);
        writeNames(j, "patterns", patterns);
        writeNames(j, "phases", phases);
        if (s.kind == ir::Solver::Kind::Optimal && !s.patterns.empty())
            j.field("table-bytes", solverTableBytes(p, s, coset));
        if (shown < phased.size() && phased[shown].plan) {
            // Per phase: the symmetry-reduced parts and their class count (0: left to the table build).
            const auto& plan = *phased[shown].plan;
            j.key("phasePlan");
            j.beginArray();
            size_t k = 0;
            for (; k < plan.phases.size() && k < kNested; ++k) {
                const auto& phase = plan.phases[k];
                j.beginObject();
                j.field("target", phase.target);
                std::vector<std::string> reduced, symmetries;
                for (int r : phase.reduced) reduced.push_back(phase.parts[r].describe(p));
                for (int sym : phase.symmetries) symmetries.push_back(a.symmetries().names[sym].empty() ? "1" : a.symmetries().names[sym]);
                writeNames(j, "reducedParts", reduced);
                j.field("reducedValues", phase.reducedSize);
                j.field("symmetries", (uint64_t)phase.symmetries.size());
                writeNames(j, "symmetryNames", symmetries);
                const auto& c = phased[shown].classes[k];
                j.field("classes", c.classes);
                if (!c.classes) j.field("classesWhy", c.why);
                j.endObject();
            }
            j.endArray();
            j.listEnd("phasePlan", k, plan.phases.size());
        }
        j.endObject();
    }
    j.endArray();
    j.listEnd("solvers", shown, p.solvers.size());
}

// pzc check --json: one object, one helper per section, in this order.
void printJson(const ir::Puzzle& p, analysis::PuzzleAnalysis& a, const std::vector<PhasedSolverInfo>& phased,
               const std::vector<PatternTableInfo>& coset,
               std::ostream& stream) {
    JsonWriter j(stream);
    j.beginObject();
    j.field("puzzle", p.name);
    j.field("file", p.file);
    writeOrbitsJson(j, p);
    writeMovesJson(j, p, a);
    writeFamiliesJson(j, p, a);
    writeCommutationClassesJson(j, p, a);
    writeGroupOrderJson(j, a);
    writeSymmetriesJson(j, p, a);
    writeSubgroupsJson(j, p, a);
    writePatternsJson(j, p, coset);
    writeSolversJson(j, p, a, phased, coset);
    j.endObject();
    j.finish();
}
}  // namespace

int PermutationBackend::check(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const Args& rest) const {
    const ir::Puzzle* puzzle = &unit.puzzle();
    bool json = false;
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
    // What the permutation back end needs beyond that (check is the contract
    // of solve/build): the state layout.
    ok = unit.stateLayout(diags) != nullptr && ok;
    // Phased solvers: the plan must build (note [coset coordinates]). `check`
    // is the contract of `solve`/`build`: a declared solver the back end
    // cannot build is a located error naming the reason, the same one
    // `pzc solve --solver NAME` gives.
    std::vector<PhasedSolverInfo> phased(puzzle->solvers.size());
    if (ok) {
        for (size_t s = 0; s < puzzle->solvers.size(); ++s) {
            if (puzzle->solvers[s].kind != ir::Solver::Kind::Phased) continue;
            DiagnosticEngine planDiags;
            phased[s].plan = unit.phasedPlan((int)s, planDiags);
            if (phased[s].plan)
                for (const auto& phase : phased[s].plan->phases)
                    phased[s].classes.push_back(analysis::countPhaseClasses(analysis, phase));
            if (!phased[s].plan) {
                diags.error(puzzle->file, puzzle->solvers[s].where,
                            (planDiags.all().empty() ? std::string("phased solver cannot be built")
                                                     : planDiags.all().front().message) +
                                " (`pzc solve --solver " + puzzle->solvers[s].name + "` refuses it)");
                ok = false;
            }
        }
    }
    // Sift solvers: the limits of note [sift words], checked without the table.
    for (const auto& s : puzzle->solvers) {
        if (s.kind != ir::Solver::Kind::Sift) continue;
        if (auto why = analysis::siftRefusal(*puzzle, unit.metricMoves())) {
            diags.error(puzzle->file, s.where,
                        "sift solver cannot be built: " + *why + " (`pzc solve --solver " + s.name + "` refuses it)");
            ok = false;
        }
    }
    // Coset patterns (note [coset patterns]): the plan must build.
    std::vector<PatternTableInfo> coset(puzzle->patterns.size());
    if (ok) {
        for (size_t i = 0; i < puzzle->patterns.size(); ++i) {
            if (puzzle->patterns[i].cosetSubgroup < 0) continue;
            analysis::PhasePlan plan;
            if (!analysis::buildCosetPatternPlan(analysis, (int)i, unit.metricMoves(), plan, diags)) {
                ok = false;
                continue;
            }
            coset[i].classes = plan.symmetries.empty() ? analysis::PhaseClassCount{}
                                                       : analysis::countPhaseClasses(analysis, plan);
            coset[i].plan = std::move(plan);
        }
    }
    diags.print(std::cerr);
    if (!ok) return 1;
    // note [table estimates]: every pattern's mean entry and build time.
    const auto sequences =
        analysis::canonicalSequenceCounts(analysis::buildCanonicalAutomaton(*puzzle, analysis), analysis::kEstimateLengths);
    const int moves = static_cast<int>(unit.metricMoves().size());
    for (size_t i = 0; i < puzzle->patterns.size(); ++i) {
        if (coset[i].plan) {
            coset[i].estimate =
                analysis::estimateCosetTable(*coset[i].plan, static_cast<double>(coset[i].entries()), moves, sequences);
        } else if (puzzle->patterns[i].cosetSubgroup < 0) {
            const double values = patternSize(*puzzle, puzzle->patterns[i]).get_d();
            const auto kind = analysis::tracksLabels(*puzzle, puzzle->patterns[i]) ? analysis::TableKind::LabelledPattern
                                                                                   : analysis::TableKind::Pattern;
            coset[i].estimate = analysis::estimateTable(kind, values, values, moves, sequences);
        }
    }
    // Report.
    if (json)
        printJson(*puzzle, analysis, phased, coset, std::cout);
    else
        printText(*puzzle, analysis, phased, coset, std::cout);
    return 0;
}

}  // namespace pz::driver
