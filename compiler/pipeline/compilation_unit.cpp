// The compilation unit (note [compilation unit] in compilation_unit.hpp).
#include "compiler/pipeline/compilation_unit.hpp"

#include "compiler/codegen/code_writer.hpp"
#include "compiler/codegen/perm/perm_emit.hpp"
#include "compiler/ir/lower.hpp"

namespace pz::pipeline {

bool CompilationUnit::load(DiagnosticEngine& diags) {
    auto loaded = ir::loadPuzzle(file_, diags);
    if (!loaded) return false;
    puzzle_ = std::make_unique<ir::Puzzle>(std::move(*loaded));
    return true;
}

analysis::PuzzleAnalysis& CompilationUnit::analysis() {
    if (!analysis_) analysis_ = std::make_unique<analysis::PuzzleAnalysis>(*puzzle_);
    return *analysis_;
}

analysis::ColouringMembership& CompilationUnit::membership() {
    if (!membership_) membership_ = std::make_unique<analysis::ColouringMembership>(analysis());
    return *membership_;
}

const analysis::StateLayout* CompilationUnit::stateLayout(DiagnosticEngine& diags) {
    if (!layoutBuilt_) layoutBuilt_ = analysis::computeStateLayout(*puzzle_, layout_, diags);
    return *layoutBuilt_ ? &layout_ : nullptr;
}

bool CompilationUnit::check(DiagnosticEngine& diags) {
    if (!checked_) checked_ = analysis().check(diags);
    return *checked_;
}

int CompilationUnit::defaultOptimalSolver() const {
    for (size_t i = 0; i < puzzle_->solvers.size(); ++i)
        if (puzzle_->solvers[i].kind == ir::Solver::Kind::Optimal) return static_cast<int>(i);
    return -1;
}

int CompilationUnit::modelKey(int solver) const {
    if (solver < 0 || solver == defaultOptimalSolver()) return -1;
    return puzzle_->solvers.at(solver).kind == ir::Solver::Kind::Optimal ? solver : -1;
}

const analysis::SolverModel* CompilationUnit::solverModel(DiagnosticEngine& diags, int solver) {
    const int key = modelKey(solver);
    auto it = models_.find(key);
    if (it == models_.end()) {
        std::optional<analysis::SolverModel> model;
        analysis::SolverModel built;
        if (check(diags) && analysis::buildSolverModel(*puzzle_, analysis(), built, diags, key, defaultPatternValues_))
            model = std::move(built);
        it = models_.emplace(key, std::move(model)).first;
    }
    return it->second ? &*it->second : nullptr;
}

void CompilationUnit::setDefaultPatternValues(uint64_t values) {
    if (values == defaultPatternValues_) return;
    defaultPatternValues_ = values;
    models_.clear();  // built with the old budget
}

const std::vector<int>& CompilationUnit::metricMoves() {
    if (!metricMoves_) {
        metricMoves_.emplace();
        for (size_t m = 0; m < puzzle_->moves.size(); ++m)
            if (puzzle_->moves[m].inMetric) metricMoves_->push_back(static_cast<int>(m));
    }
    return *metricMoves_;
}

const analysis::SolverPlan* CompilationUnit::phasedPlan(int solver, DiagnosticEngine& diags) {
    auto it = plans_.find(solver);
    if (it == plans_.end()) {
        std::optional<analysis::SolverPlan> plan;
        analysis::SolverPlan built;
        if (check(diags) && analysis::buildSolverPlan(analysis(), solver, metricMoves(), built, diags))
            plan = std::move(built);
        it = plans_.emplace(solver, std::move(plan)).first;
    }
    return it->second ? &*it->second : nullptr;
}

const analysis::SiftWords* CompilationUnit::siftWords(std::string& why) {
    // buildSiftWords checks siftRefusal first: the limits cost no group analysis.
    if (!sift_) {
        if (auto refused = analysis::siftRefusal(*puzzle_, metricMoves())) {
            siftWhy_ = *refused;
            sift_.emplace(std::nullopt);
        } else {
            sift_.emplace(analysis::buildSiftWords(analysis(), metricMoves(), siftWhy_));
        }
    }
    if (!*sift_) {
        why = siftWhy_;
        return nullptr;
    }
    return &**sift_;
}

std::string CompilationUnit::solverSource(int solver) const {
    if (solver < 0 || puzzle_->solvers.at(solver).kind == ir::Solver::Kind::Optimal)
        return codegen::emitSolverMain(*models_.at(modelKey(solver)), "", file_);
    return codegen::emitPhasedSolverMain(*models_.at(-1), *plans_.at(solver), file_);
}

std::string CompilationUnit::solverStem(int solver) const {
    const std::string scope = codegen::scopeIdentifier(puzzle_->name);
    return solver < 0 || solver == defaultOptimalSolver() ? scope : scope + "_" + puzzle_->solvers.at(solver).name;
}

int CompilationUnit::addWholePattern() {
    ir::Pattern whole;
    whole.name = "whole";
    for (const auto& p : puzzle_->patterns)
        if (p.name == whole.name) whole.name = "whole_puzzle";
    for (size_t o = 0; o < puzzle_->orbits.size(); ++o) {
        const auto& orbit = puzzle_->orbits[o];
        // Positions only where a move permutes them (a pyraminx's centres
        // only turn), orientations only where there are any.
        bool permuted = false;
        for (const auto& m : puzzle_->moves)
            for (int v = 0; v < orbit.size && !permuted; ++v) permuted = m.effect.perm[o][v] != v;
        if (!permuted && orbit.orient < 2) continue;  // nothing that changes
        ir::PatternPart part;
        part.orbit = static_cast<int>(o);
        for (int v = 0; v < orbit.size; ++v) part.pieces.push_back(v);
        part.positions = permuted;
        part.orientations = orbit.orient > 1;
        whole.parts.push_back(part);
    }
    puzzle_->patterns.push_back(std::move(whole));
    return static_cast<int>(puzzle_->patterns.size() - 1);
}

int CompilationUnit::addCosetPattern(int subgroup) {
    // A declared plain coset pattern of the subgroup is the same space (and
    // the same compiled enumerator).
    for (size_t p = 0; p < puzzle_->patterns.size(); ++p)
        if (puzzle_->patterns[p].cosetSubgroup == subgroup && puzzle_->patterns[p].parts.empty()) return static_cast<int>(p);
    ir::Pattern coset;
    coset.name = "coset_" + puzzle_->subgroups.at(subgroup).name;
    for (bool taken = true; taken;) {
        taken = false;
        for (const auto& p : puzzle_->patterns) taken = taken || p.name == coset.name;
        if (taken) coset.name += "_";
    }
    coset.cosetSubgroup = subgroup;
    coset.where = puzzle_->subgroups.at(subgroup).where;  // its diagnostics point at the subgroup
    puzzle_->patterns.push_back(std::move(coset));
    return static_cast<int>(puzzle_->patterns.size() - 1);
}

int CompilationUnit::addEnumerationSolver(int pattern) {
    ir::Solver s;
    s.name = "enumerate_" + puzzle_->patterns.at(pattern).name;
    s.kind = ir::Solver::Kind::Optimal;
    s.patterns = {pattern};
    puzzle_->solvers.push_back(std::move(s));
    return static_cast<int>(puzzle_->solvers.size() - 1);
}

std::string CompilationUnit::enumeratorSource(int solver) const {
    return codegen::emitEnumeratorMain(*models_.at(modelKey(solver)), file_);
}

}  // namespace pz::pipeline
