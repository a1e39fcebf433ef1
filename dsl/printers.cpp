// Placeholder until the printers land (next commit).
#include "dsl/frontend.hpp"

namespace pz {
std::string printPz(const ast::Puzzle&) { return {}; }
std::string printYaml(const ast::Puzzle&) { return {}; }
}  // namespace pz
