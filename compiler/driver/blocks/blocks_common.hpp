// What the sliding-block back end's commands share (blocks_backend.hpp).
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/blocks.hpp"
#include "dsl/diagnostics.hpp"

namespace pz::driver {

// Reads every level of a level file (one or many: a Rush Hour database file
// holds one per line) and appends them; diagnostics for a bad file.
bool readBlockLevels(const ir::BlockRules& rules, const std::string& file, std::vector<ir::BlockLayout>& levels,
                     DiagnosticEngine& diags);

// The levels a command works on: those of `files`, else those the
// definition lists, else its start board (named "start"); diagnostics for
// bad files. False after an error.
bool selectBlockLevels(const ir::BlockRules& rules, const std::vector<std::string>& files,
                       std::vector<ir::BlockLayout>& levels, DiagnosticEngine& diags);

// "IDA*, additive pattern databases a (7 tiles, ...)": check and inspect.
std::string describeBlockSolver(const ir::BlockRules& rules, const ir::BlockSolver& solver);

// The solver `name` names, or the default one: the first declared, else
// the built-in default (n-puzzles: Manhattan with linear conflicts; other
// boards: breadth-first). nullopt (and a message printed) for an unknown name.
std::optional<ir::BlockSolver> chooseBlockSolver(const ir::BlockRules& rules, const std::string& name,
                                                 const std::string& command);

}  // namespace pz::driver
