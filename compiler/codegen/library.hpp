// The sources of a solver library (pzc generate, cmake's pzc_generate()):
// a header declaring the library's factory over the runtime's Solver
// interface (pz/api/solver.hpp), and the translation unit defining it with
// the generated code of every solver it holds.
//
// note [library sources]
// The header NAME.hpp is all a user includes: the namespace NS (the library
// name unless --namespace says otherwise) holds kPuzzle, kSolvers (the
// default solver first) and makeSolver(options, solver). The source NAME.cpp
// holds the generated code: a permutation puzzle's traits once per search
// model (the default model in pzgen::<puzzle>, as `pzc solve` builds it; each
// other optimal solver's in pzgen::<puzzle>_<solver>, since its patterns make
// other traits), each phased solver's plan in its own namespace, and the
// factory; a grid-actor puzzle's levels in NS::levels. NAME_c.h declares
// the C entry NAME_solver_new (pz/pz_c.h), defined at the end of NAME.cpp. Table keys do not
// depend on the namespace, so the library and the command line share cached
// tables. Different puzzles' libraries link into one program (their
// namespaces differ); two libraries of the same puzzle define the same
// pzgen::<puzzle> code, identical token for token, which C++ allows.
#pragma once

#include <string>
#include <vector>

namespace pz::codegen {

struct LibrarySolver {
    std::string name;  // as declared ("" for the default optimal search)
    std::string kind;  // optimal | phased | levels
};

struct LibrarySources {
    std::string header;   // NAME.hpp
    std::string source;   // NAME.cpp, then cEntry
    std::string cHeader;  // NAME_c.h
    std::string cEntry;   // NAME_solver_new (needs the C ABI's library, pzc::c)
};

// The library NAME as one translation unit: the header in place of its
// #include (without its #pragma once), then the source (pzc build --shared
// and --target wasm compile it so).
std::string libraryTranslationUnit(const LibrarySources& sources, const std::string& name);

// NAME_c.h: the library's C entry, NAME_solver_new (pz/pz_c.h).
std::string emitLibraryCHeader(const std::string& name, const std::string& puzzle,
                               const std::vector<LibrarySolver>& solvers, const std::string& source);
// Its definition, the last lines of NAME.cpp (over NS::makeSolver).
std::string emitCFactory(const std::string& name, const std::string& ns);

// The header: `name` (its file is name.hpp), `ns` the C++ namespace,
// `solvers` the default first.
std::string emitLibraryHeader(const std::string& name, const std::string& ns, const std::string& puzzle,
                              const std::string& family, const std::vector<LibrarySolver>& solvers,
                              const std::string& source);

// The factory's opening lines in NAME.cpp: the table of the solvers' infos.
std::string emitSolverInfos(const std::vector<LibrarySolver>& solvers);

// The error for a solver name the library does not hold (the factory's last line).
std::string emitUnknownSolver(const std::string& puzzle, const std::vector<LibrarySolver>& solvers);

}  // namespace pz::codegen
