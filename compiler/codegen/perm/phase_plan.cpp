#include "compiler/codegen/code_writer.hpp"
#include "compiler/codegen/perm/perm_emit.hpp"

#include <set>
#include <sstream>
#include <stdexcept>

#include "compiler/analysis/content_hash.hpp"
#include "compiler/ir/element.hpp"

namespace pz::codegen {

std::string identifierOf(const std::string& name) {
    std::string r;
    for (char c : name) r += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0]))) r = "p_" + r;
    return r;
}

namespace {

template <class V>
std::string list(const V& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s;
}

// The orbit's index in the traits' kOrbitShapes.
int shapeIndex(const SolverModel& m, int orbit) {
    for (size_t i = 0; i < m.layout.orbits.size(); ++i)
        if (m.layout.orbits[i].orbit == orbit) return static_cast<int>(i);
    throw std::logic_error("phase plan: orbit without a layout");
}

const char* kindName(analysis::PhasePart::Kind k) {
    switch (k) {
        case analysis::PhasePart::Kind::Membership: return "Membership";
        case analysis::PhasePart::Kind::Orientation: return "Orientation";
        case analysis::PhasePart::Kind::Parity: return "Parity";
        case analysis::PhasePart::Kind::SetPermutation: return "SetPermutation";
    }
    return "?";
}

// The statements setting the fields of `pz::PhasePartSpec c` for `part`,
// each line starting with `indent`.
void emitPartFields(std::ostringstream& s, const SolverModel& m, const analysis::PhasePart& part, uint64_t goal,
                    const std::string& indent) {
    s << indent << "c.kind = pz::PhasePartSpec::" << kindName(part.kind) << ";\n";
    switch (part.kind) {
        case analysis::PhasePart::Kind::Membership:
            s << indent << "c.orbit = " << shapeIndex(m, part.orbit) << ";\n";
            s << indent << "c.setOf = {" << list(part.setOf) << "};\n";
            s << indent << "c.sets = " << part.sets << ";\n";
            break;
        case analysis::PhasePart::Kind::Orientation:
            s << indent << "c.orbit = " << shapeIndex(m, part.orbit) << ";\n";
            s << indent << "c.modulus = " << part.modulus << ";\n";
            s << indent << "c.sumConstrained = " << (part.sumConstrained ? "true" : "false") << ";\n";
            if (!part.positions.empty()) {  // the digits it keeps (a projected coset pattern)
                s << indent << "c.positions = {" << list(part.positions) << "};\n";
                s << indent << "c.count = " << part.positions.size() << ";\n";
            }
            if (!part.frame.empty()) {
                s << indent << "c.frame = {" << list(part.frame) << "};\n";
                s << indent << "c.step = " << part.step << ";\n";
                s << indent << "c.framed = true;\n";
            }
            break;
        case analysis::PhasePart::Kind::Parity: {
            uint32_t mask = 0;
            for (int o : part.parityOrbits) mask |= 1u << shapeIndex(m, o);
            s << indent << "c.parityOrbits = " << mask << "u;\n";
            break;
        }
        case analysis::PhasePart::Kind::SetPermutation:
            s << indent << "c.orbit = " << shapeIndex(m, part.orbit) << ";\n";
            s << indent << "c.positions = {" << list(part.positions) << "};\n";
            s << indent << "c.count = " << part.positions.size() << ";\n";
            break;
    }
    s << indent << "c.size = " << part.size << "ULL;\n";
    s << indent << "c.goal = " << goal << "ULL;\n";
}

// One `pz::PhasePartSpec c` pushed onto `into` (a block at 8 spaces).
void emitPartSpec(std::ostringstream& s, const SolverModel& m, const analysis::PhasePart& part, uint64_t goal,
                  const std::string& label, const std::string& into) {
    const ir::Puzzle& p = *m.puzzle;
    s << "        {  // " << label << ": " << part.describe(p) << ", " << part.size << " values\n";
    s << "            pz::PhasePartSpec c;\n";
    emitPartFields(s, m, part, goal, "            ");
    s << "            " << into << ".push_back(c);\n";
    s << "        }\n";
}

// Part `part` as a constexpr function `name` (note [fixed ranks] in
// pz/search/phased.hpp: its value is a template argument).
void emitPartFunction(std::ostringstream& s, const SolverModel& m, const analysis::PhasePart& part, uint64_t goal,
                      const std::string& name) {
    s << "// " << part.describe(*m.puzzle) << ", " << part.size << " values\n";
    s << "inline constexpr pz::PhasePartSpec " << name << "() {\n";
    s << "    pz::PhasePartSpec c;\n";
    emitPartFields(s, m, part, goal, "    ");
    s << "    return c;\n";
    s << "}\n";
}

// The statements filling `pz::PhaseSpec& ph` (a block at 8 spaces) for phase
// plan `ph` (its moves index the model's search moves). Without
// `withAutomaton` the canonical automaton is left out (a coset pattern's
// table is built without it; the optimal search has its own).
void emitPhaseSpecFields(std::ostringstream& s, const SolverModel& m, const analysis::PhasePlan& ph,
                         bool withAutomaton = true) {
    const ir::Puzzle& p = *m.puzzle;
    // The phase automaton's moves are the phase's moves, in order.
    if (ph.canon.searchMoves.size() != ph.moves.size())
        throw std::logic_error("phase plan: automaton and move list differ");
    for (size_t j = 0; j < ph.moves.size(); ++j)
        if (ph.canon.searchMoves[j] != m.canon.searchMoves[ph.moves[j]])
            throw std::logic_error("phase plan: automaton moves out of order");
    s << "        ph.target = \"" << ph.target << "\";\n";
    std::string names;
    for (int i : ph.moves) names += " " + p.moves[m.canon.searchMoves[i]].name;
    s << "        //" << names << "\n";
    s << "        ph.moves = {" << list(ph.moves) << "};\n";
    if (withAutomaton) {
        s << "        ph.canonStart = " << ph.canon.start << ";\n";
        s << "        ph.canonNext = {\n";
        for (size_t st = 0; st < ph.canon.next.size(); ++st) s << "            " << list(ph.canon.next[st]) << ",\n";
        s << "        };\n";
    }
    for (size_t j = 0; j < ph.parts.size(); ++j)
        emitPartSpec(s, m, ph.parts[j], ph.goal[j], "part " + std::to_string(j), "ph.parts");
    s << "        ph.tables = {";
    for (size_t t = 0; t < ph.tables.size(); ++t)
        s << (t ? ", " : "") << "{" << ph.tables[t].first << ", " << ph.tables[t].second << "}";
    s << "};\n";
    if (!ph.symmetries.empty()) {
        // note [symmetry classes] in pz/search/phased.hpp
        std::string names;
        for (int sym : ph.symmetries)
            names += (names.empty() ? " " : ", ") + (m.symmetryNames[sym].empty() ? std::string("1") : m.symmetryNames[sym]);
        s << "        // symmetries:" << names << "\n";
        s << "        ph.symmetries = {" << list(ph.symmetries) << "};\n";
        s << "        ph.symInverse = {" << list(ph.symInverse) << "};\n";
        s << "        ph.reduced = {" << list(ph.reduced) << "};\n";
        s << "        ph.rest = {" << list(ph.rest) << "};\n";
    }
}

}  // namespace

std::string emitPhasePlan(const SolverModel& m, const analysis::SolverPlan& plan) {
    const ir::Puzzle& p = *m.puzzle;
    std::ostringstream s;
    s << "// ---- phased solver " << plan.solver << " (see runtime/include/pz/search/phased.hpp) ----\n";
    s << "inline std::vector<pz::PhaseSpec> phasePlan_" << identifierOf(plan.solver) << "() {\n";
    s << "    std::vector<pz::PhaseSpec> phases(" << plan.phases.size() << ");\n";
    for (size_t k = 0; k < plan.phases.size(); ++k) {
        const auto& ph = plan.phases[k];
        s << "    {  // phase " << k + 1 << ": to " << ph.target << "\n";
        s << "        pz::PhaseSpec& ph = phases[" << k << "];\n";
        emitPhaseSpecFields(s, m, ph);
        s << "    }\n";
    }
    s << "    return phases;\n";
    s << "}\n";
    // Directions (note [phased directions]): symmetry, inverse, and the
    // symmetry's move map (S m S^-1) over the traits' moves.
    s << "inline std::vector<pz::PhaseDirection> phaseDirections_" << identifierOf(plan.solver) << "() {\n";
    s << "    std::vector<pz::PhaseDirection> d(" << plan.directions.size() << ");\n";
    for (size_t i = 0; i < plan.directions.size(); ++i) {
        const auto& dir = plan.directions[i];
        s << "    d[" << i << "].symmetry = " << dir.symmetry << ";  // " << m.symmetryNames[dir.symmetry]
          << (dir.inverse ? ", inverse" : "") << "\n";
        if (dir.inverse) s << "    d[" << i << "].inverse = true;\n";
        if (dir.symmetry != 0) {
            std::vector<int> map;
            for (int mi : m.canon.searchMoves) {
                const int image = m.symmetryMoveMap[dir.symmetry][mi];
                int traits = -1;
                for (size_t j = 0; j < m.canon.searchMoves.size(); ++j)
                    if (m.canon.searchMoves[j] == image) traits = static_cast<int>(j);
                if (traits < 0) throw std::logic_error("phase plan: a direction's symmetry maps a move outside the metric");
                map.push_back(traits);
            }
            s << "    d[" << i << "].moveMap = {" << list(map) << "};\n";
        }
    }
    s << "    return d;\n}\n";
    std::vector<int> families;
    for (int mi : m.canon.searchMoves) families.push_back(p.moves[mi].family);
    s << "inline std::vector<int> moveFamilies() { return {" << list(families) << "}; }\n";
    return s.str();
}

// Traits::cosetRank (note [fixed ranks] in pz/search/phased.hpp): each projected
// coset pattern's reduced and kept parts as constants, ranked by
// pz::rankFixedParts.
static void emitFixedRanks(std::ostringstream& s, const SolverModel& m) {
    if (!hasProjectedCosetPattern(m)) return;
    std::ostringstream cases, conjugated;
    std::set<int> laneOrbits;
    for (size_t i = 0; i < m.cosetPatterns.size(); ++i) {
        const auto& ph = m.cosetPatterns[i];
        if (ph.kept.empty()) continue;
        const std::string stem = "cosetPart_" + identifierOf(m.cosetPatternNames[i]);
        std::string reduced, kept;
        for (int j : ph.reduced) {
            const std::string name = stem + "_" + std::to_string(j);
            emitPartFunction(s, m, ph.parts[static_cast<size_t>(j)], ph.goal[static_cast<size_t>(j)], name);
            reduced += ", " + name + "()";
        }
        for (size_t j = 0; j < ph.kept.size(); ++j) {
            const std::string name = stem + "_kept_" + std::to_string(j);
            emitPartFunction(s, m, ph.kept[j], analysis::referencePartRank(ph.kept[j], ir::identity(m.puzzle->orbits)),
                             name);
            kept += ", " + name + "()";
        }
        cases << "        case " << 2 * i << ": return pz::rankFixedParts<Traits" << reduced << ">(s);  // "
              << m.cosetPatternNames[i] << ", reduced parts\n";
        cases << "        case " << 2 * i + 1 << ": return pz::rankFixedParts<Traits" << kept << ">(s);  // "
              << m.cosetPatternNames[i] << ", kept parts\n";
        // The kept parts of a conjugate (note [conjugated kept ranks]): from
        // bytes when they can, else only the orbits they read are conjugated.
        unsigned orbits = 0;
        for (const auto& part : ph.kept) orbits |= 1u << part.orbit;
        const int laneOrbit = ph.kept.front().orbit;  // the byte path's one orbit (note [conjugated kept ranks])
        laneOrbits.insert(laneOrbit);
        conjugated << "        case " << i << ": return pz::rankFixedPartsAt<Traits, " << orbits << "u" << kept
                   << ">(s, sym, kSymmetryLanesOrbit" << laneOrbit << "[sym], kSymmetryMirror[sym]);  // "
                   << m.cosetPatternNames[i] << "\n";
    }
    s << "inline uint64_t Traits::cosetRank(int pattern, pz::CosetRanks which, const State& s) {\n";
    s << "    switch (2 * pattern + (which == pz::CosetRanks::Kept ? 1 : 0)) {\n";
    s << cases.str();
    s << "    }\n";
    s << "    pz::noGeneratedRanks(\"cosetRank\", pattern);\n";
    s << "}\n";
    for (int orbit : laneOrbits) {
        const std::string shape = "Traits::kOrbitShapes[" + std::to_string(orbit) + "]";
        s << "// The symmetries' and their inverses' words of orbit " << orbit
          << " a byte a lane, read by the kept ranks (note [conjugated kept ranks]).\n";
        s << "inline constexpr auto kSymmetryLanesOrbit" << orbit << " = pz::symmetryOrbitLanes(kSymmetryInverseStates, kSymmetryStates, "
          << shape << ".permWord, " << shape << ".oriWord);\n";
    }
    s << "inline uint64_t Traits::cosetKeptRankAt(int pattern, const State& s, int sym) {\n";
    s << "    switch (pattern) {\n";
    s << conjugated.str();
    s << "    }\n";
    s << "    pz::noGeneratedRanks(\"cosetKeptRankAt\", pattern);\n";
    s << "}\n";
}

bool hasProjectedCosetPattern(const SolverModel& m) {
    for (const auto& ph : m.cosetPatterns)
        if (!ph.kept.empty()) return true;
    return false;
}

std::string emitCosetPatterns(const SolverModel& m, const std::string& core) {
    if (m.cosetPatterns.empty()) return "";
    std::ostringstream s;
    s << "// ---- coset patterns (note [coset patterns]; runtime/include/pz/coset_pattern.hpp) ----\n";
    emitFixedRanks(s, m);
    s << "inline std::vector<pz::CosetPatternSpec> Traits::cosetPatterns() {\n";
    s << "    std::vector<pz::CosetPatternSpec> patterns(" << m.cosetPatterns.size() << ");\n";
    std::string inverses;  // the moves' inverses (Traits::kMoveInverse) are read by the builds
    for (int i : m.moveInverse) inverses += std::to_string(i) + " ";
    for (size_t i = 0; i < m.cosetPatterns.size(); ++i) {
        const auto& ph = m.cosetPatterns[i];
        std::ostringstream block;
        block << "    {  // pattern " << m.cosetPatternNames[i] << ": the coset coordinate of " << ph.target << "\n";
        block << "        patterns[" << i << "].name = \"" << m.cosetPatternNames[i] << "\";\n";
        block << "        pz::PhaseSpec& ph = patterns[" << i << "].phase;\n";
        // A projected table's build walks depth first with the automaton.
        emitPhaseSpecFields(block, m, ph, /*withAutomaton=*/!ph.kept.empty());
        if (!ph.kept.empty()) {
            // note [projected coset patterns]: what the table keeps of ph.rest.
            block << "        std::vector<pz::PhasePartSpec>& kept = patterns[" << i << "].kept;\n";
            for (size_t j = 0; j < ph.kept.size(); ++j)
                emitPartSpec(block, m, ph.kept[j], analysis::referencePartRank(ph.kept[j], ir::identity(m.puzzle->orbits)),
                             "kept " + std::to_string(j), "kept");
            // note [declared exact depth]: part of the plan, so of the cache key.
            if (ph.exactDepth > 0)
                block << "        patterns[" << i << "].exactDepth = " << ph.exactDepth << ";  // declared: exact " << ph.exactDepth << "\n";
        }
        // The table's cache key (note [coset table keys]): its plan (the
        // block without the line naming its index) on the core traits.
        std::string plan = block.str();
        const std::string index = "patterns[" + std::to_string(i) + "]";
        for (size_t at = plan.find(index); at != std::string::npos; at = plan.find(index, at))
            plan.replace(at, index.size(), "patterns[_]");
        block << "        patterns[" << i << "].hash = \"" << contentHash(core + inverses + plan) << "\";\n";
        block << "    }\n";
        s << block.str();
    }
    // Read at these conjugates (note [coset pattern lookups]); not part of
    // the tables' key: the table is the same however it is read.
    for (size_t i = 0; i < m.cosetPatterns.size(); ++i) {
        const auto& ph = m.cosetPatterns[i];
        s << "    patterns[" << i << "].lookups = {" << list(ph.lookups) << "};\n";
        if (!ph.kept.empty()) s << "    patterns[" << i << "].fixedRanks = " << i << ";  // Traits::cosetRank\n";
        // note [moves in the subgroup]
        s << "    patterns[" << i << "].movesInSubgroup = {";
        for (size_t l = 0; l < ph.lookupMovesInSubgroup.size(); ++l)
            s << (l ? ", " : "") << "{" << list(ph.lookupMovesInSubgroup[l]) << "}";
        s << "};\n";
    }
    s << "    return patterns;\n";
    s << "}\n";
    return s.str();
}

namespace {
std::string phasedBody(const SolverModel& m, const analysis::SolverPlan& plan) {
    const std::string ns = scopeIdentifier(m.puzzle->name);
    std::ostringstream body;
    body << "#include <vector>\n\n#include \"pz/phased_main.hpp\"\n\n";
    body << "namespace pzgen::" << ns << " {\n\n";
    body << emitPhasePlan(m, plan);
    body << "\n}  // namespace pzgen::" << ns << "\n\n";
    return body.str();
}
}  // namespace

std::string phasedTablesHash(const SolverModel& m, const analysis::SolverPlan& plan, const std::string& source) {
    // The plan and the traits (kernels, symmetries) it runs on, not the lines
    // above `#pragma once` that name the definition's path.
    const std::string header = emitTraitsHeader(m, source);
    return contentHash(header.substr(header.find("#pragma once")) + phasedBody(m, plan));
}

std::string emitPhasedSolverMain(const SolverModel& m, const analysis::SolverPlan& plan, const std::string& source) {
    const std::string ns = scopeIdentifier(m.puzzle->name);
    const std::string header = emitTraitsHeader(m, source);
    const std::string tablesHash = phasedTablesHash(m, plan, source);
    std::ostringstream body;
    body << phasedBody(m, plan);
    std::ostringstream s;
    s << header << body.str();
    s << "int main(int argc, char** argv) {\n";
    s << "    return pz::phasedMain<pzgen::" << ns << "::Traits>(argc, argv, \"" << plan.solver
      << "\", \"" << tablesHash << "\", pzgen::" << ns << "::phasePlan_" << identifierOf(plan.solver) << "(), pzgen::" << ns
      << "::moveFamilies(), pzgen::" << ns << "::phaseDirections_" << identifierOf(plan.solver) << "());\n";
    s << "}\n";
    return s.str();
}

std::string describePlan(const ir::Puzzle& p, const analysis::SolverPlan& plan,
                         const std::vector<analysis::PhaseClassCount>* classCounts,
                         const std::vector<std::string>* symmetryNames) {
    std::ostringstream s;
    s << "phased solver " << plan.solver << ": " << plan.phases.size() << " phases\n";
    for (size_t k = 0; k < plan.phases.size(); ++k) {
        const auto& ph = plan.phases[k];
        s << "  phase " << k + 1 << " to " << ph.target << ": " << ph.moves.size() << " moves,";
        for (int mi : ph.canon.searchMoves) s << ' ' << p.moves[mi].name;
        s << "; " << ph.canon.next.size() << " automaton states\n";
        for (size_t j = 0; j < ph.parts.size(); ++j)
            s << "    part " << j << ": " << ph.parts[j].describe(p) << ", " << ph.parts[j].size << " values\n";
        for (size_t t = 0; t < ph.tables.size(); ++t) {
            s << "    table " << t << ": part " << ph.tables[t].first;
            if (ph.tables[t].second >= 0) s << " x part " << ph.tables[t].second;
            s << ", " << ph.tableEntries(t) << " entries, " << (ph.tableEntries(t) + 1) / 2 << " bytes\n";
        }
        if (!ph.symmetries.empty()) {
            const uint64_t n = ph.symmetries.size();
            const analysis::PhaseClassCount* count =
                classCounts && k < classCounts->size() && (*classCounts)[k].classes ? &(*classCounts)[k] : nullptr;
            const uint64_t classes = count ? count->classes : (ph.reducedSize + n - 1) / n;
            const char* atLeast = count ? "" : "at least ";
            s << "    symmetry-reduced table: part";
            for (int j : ph.reduced) s << ' ' << j;
            s << " (" << ph.reducedSize << " values) by " << n << " symmetries (" << atLeast << classes << " classes)";
            if (!ph.rest.empty()) {
                s << " x part";
                for (int j : ph.rest) s << ' ' << j;
                s << " (" << ph.restSize << " values)";
            }
            s << ", " << atLeast << classes * ph.restSize << " entries, " << (classes * ph.restSize + 1) / 2
              << " bytes; " << (count ? "depths" : "exact counts and depths") << ": the solver's --tables\n";
            if (symmetryNames) {
                s << "      symmetries:";
                for (size_t i = 0; i < ph.symmetries.size(); ++i) {
                    const int sym = ph.symmetries[i];
                    s << (i ? ", " : " ")
                      << (sym < (int)symmetryNames->size() && !(*symmetryNames)[sym].empty() ? (*symmetryNames)[sym] : "1");
                }
                s << "\n";
            }
            if (classCounts && k < classCounts->size() && !count)
                s << "      classes: " << (*classCounts)[k].why << "\n";
        }
    }
    return s.str();
}

}  // namespace pz::codegen
