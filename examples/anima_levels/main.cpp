// anima_levels [LEVEL...]: solves Anima levels (every level compiled in, or
// those named) optimally by A* and prints "LEVEL: N moves: up left ...".
#include <iostream>

#include "anima.hpp"

int main(int argc, char** argv) {
    auto made = anima::makeSolver();
    if (!made) {
        std::cerr << "error: " << made.error().message << "\n";
        return 1;
    }
    pz::api::Solver& solver = **made;
    std::vector<std::string> names(argv + 1, argv + argc);
    if (names.empty()) names = solver.info().levels;
    int status = 0;
    for (const auto& name : names) {
        auto level = solver.parseLevel(name);
        auto solution = level ? solver.solve(*level) : pz::api::Result<pz::api::Solution>(level.error());
        if (!solution) {
            std::cerr << name << ": error: " << solution.error().message << "\n";
            status = 1;
            continue;
        }
        std::cout << name << ": " << solution->length << " moves" << (solution->optimal ? " (optimal)" : "") << ": "
                  << solution->text() << "\n";
    }
    return status;
}
