#include "compiler/driver/blocks/blocks_common.hpp"

#include <iostream>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/ir/blocks_level_reader.hpp"

namespace pz::driver {

bool readBlockLevels(const ir::BlockRules& rules, const std::string& file, std::vector<ir::BlockLayout>& levels,
                     DiagnosticEngine& diags) {
    auto read = readBlockLevelFile(file, rules, diags);
    if (!read) return false;
    levels.insert(levels.end(), read->begin(), read->end());
    return true;
}

bool selectBlockLevels(const ir::BlockRules& rules, const std::vector<std::string>& files,
                       std::vector<ir::BlockLayout>& levels, DiagnosticEngine& diags) {
    for (const auto& file : files.empty() ? rules.levelPaths : files) readBlockLevels(rules, file, levels, diags);
    if (files.empty() && rules.levelPaths.empty() && rules.board && !rules.boardIsSolved) {
        levels.push_back(*rules.board);
        if (levels.back().name.empty()) levels.back().name = "start";
    }
    return !diags.hasErrors();
}

std::optional<ir::BlockSolver> chooseBlockSolver(const ir::BlockRules& rules, const std::string& name,
                                                 const std::string& command) {
    if (!name.empty()) {
        for (const auto& s : rules.solvers)
            if (s.name == name) return s;
        std::string known;
        for (const auto& s : rules.solvers) known += (known.empty() ? "" : ", ") + s.name;
        std::cerr << "pzc " << command << ": error: the puzzle declares no solver '" << name << "'"
                  << (known.empty() ? std::string(" (it declares none)") : " (it declares " + known + ")") << "\n";
        return std::nullopt;
    }
    if (!rules.solvers.empty()) return rules.solvers.front();
    ir::BlockSolver solver;  // the built-in default, unnamed
    if (analysis::isTilePuzzle(rules)) {
        solver.heuristic = ir::BlockSolver::Heuristic::Manhattan;
        solver.conflicts = true;
    } else {
        solver.heuristic = ir::BlockSolver::Heuristic::Bfs;
    }
    return solver;
}

}  // namespace pz::driver
