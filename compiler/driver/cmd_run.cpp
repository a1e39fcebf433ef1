// pzc run FILE [SEQUENCE]: apply a move sequence to the solved state with the
// reference interpreter and print the resulting state, whether it is solved
// and its order as a group element.
#include <iostream>

#include "compiler/driver/commands.hpp"
#include "compiler/driver/options.hpp"
#include "compiler/interp/interpreter.hpp"
#include "compiler/ir/element.hpp"
#include "compiler/ir/lower.hpp"
#include "compiler/pipeline/compilation_unit.hpp"

namespace pz::driver {

int runRun(const Args& args) {
    std::vector<std::string> words;
    OptionParser options("run", "usage: pzc run FILE [\"SEQUENCE\"]   e.g. pzc run puzzles/cube3.pz \"R U R' U'\"\n");
    options.positionals(words, 1, 2, "FILE");
    if (auto rc = options.parse(args)) return *rc;
    // Parse and lower the definition.
    DiagnosticEngine diags;
    pipeline::CompilationUnit unit(words[0]);
    if (!unit.load(diags)) {
        diags.print(std::cerr);
        return 1;
    }
    const ir::Puzzle* puzzle = &unit.puzzle();
    if (puzzle->kind != ir::Puzzle::Kind::Permutation) {
        diags.print(std::cerr);
        std::cerr << "pzc run: error: " << puzzle->name
                  << " is a grid-actor puzzle; 'pzc run' interprets permutation puzzles\n";
        return 1;
    }
    // Evaluate the sequence over the puzzle's names (moves, powers, macros).
    const std::string text = words.size() > 1 ? words[1] : "";
    auto element = ir::evaluateText(*puzzle, text, "<sequence>", diags);
    diags.print(std::cerr);
    if (!element) return 1;
    if (element->mirror) {
        std::cerr << "pzc run: error: the sequence is a mirror symmetry, not a state\n";
        return 1;
    }
    // Interpret: apply it to the solved state.
    interp::Interpreter interpreter(*puzzle);
    const interp::State state = interpreter.apply(interpreter.solved(), *element);
    std::cout << interpreter.format(state);
    std::cout << "solved: " << (interpreter.isSolved(state) ? "yes" : "no") << '\n';
    std::cout << "order: " << ir::order(*element, puzzle->orbits) << '\n';
    return 0;
}

}  // namespace pz::driver
