// The back-end interface: what a family of puzzles (ir::Puzzle::Kind)
// implements to be checked, built, solved and inspected by pzc.
//
// note [back ends]
// A command (cmd_<name>.cpp) parses what every family shares (the
// definition, -o BIN, the sequence of `run`), loads the compilation unit and
// hands it to the back end registered for the unit's kind (backends.cpp,
// backendFor). The back end reads the rest of the options, which are its
// own (`--level` for grid puzzles, `--scramble` for permutation puzzles),
// and runs the stages of its family: plan and emit (compiler/analysis,
// compiler/codegen/<family>/), build (native_build), run the generated solver
// and read its results (result_protocol), print.
// A command a family does not support answers with one error naming the
// family and what to use instead (Backend::refuse), exit code 1.
//
// The families and their folders:
//   permutation  compiler/driver/perm/  PermutationBackend  (codegen/perm/, runtime pz/solver_main.hpp)
//   grid-actor   compiler/driver/grid/  GridBackend         (codegen/grid/, runtime pz/grid_main.hpp)
//   sliding-block compiler/driver/blocks/ BlocksBackend     (codegen/blocks/, runtime pz/blocks/)
// A new family: a Kind in compiler/ir/puzzle.hpp and its lowering, a folder
// here implementing Backend, one row in backends.cpp (docs/architecture.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/codegen/library.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/ir/puzzle.hpp"
#include "compiler/pipeline/compilation_unit.hpp"

namespace pz::driver {

// pzc generate's request (note [library sources] in compiler/codegen/library.hpp).
struct GenerateRequest {
    std::string outputDir;             // NAME.hpp and NAME.cpp go here
    std::string name;                  // the library (its files, and its namespace by default)
    std::string ns;                    // the C++ namespace
    std::vector<std::string> solvers;  // declared solvers to hold; empty: every one
    std::vector<std::string> levelFiles, levelDirs;  // grid-actor puzzles: --level / --levels
    std::vector<std::string>* inputs = nullptr;      // out: the files read besides the definition
    std::vector<std::string>* held = nullptr;        // out (if set): the solvers the library holds, default first
    std::string command = "generate";                // the command messages name (pzc build: --shared, --target wasm)
    // Set: the sources are stored here instead of written (pzc build --shared).
    codegen::LibrarySources* capture = nullptr;
};

// pzc draw's request (note [drawing] in compiler/render/drawing.hpp): the
// position and moves to draw; the back end fills `svg`, the command writes it.
struct DrawRequest {
    std::string file;                                    // the definition as given (the header comment)
    std::optional<std::string> scramble, state, level;  // the position; none: the solved state
    std::optional<std::string> solution;                 // moves: a strip of frames
    std::string* svg = nullptr;                          // out: the document
};

// pzc inspect's request: what to show.
struct InspectRequest {
    std::string solver;   // a declared solver, or empty for the default one
    bool header = false;  // the generated code instead of the report
};

// pzc enumerate's request (docs/distributed.md): the space and the run.
struct EnumerateRequest {
    bool whole = false;       // --whole: every piece (note [enumeration spaces])
    std::string pattern;      // --pattern P
    std::string coset;        // --coset H: a subgroup's cosets
    bool mpi = false, table = false, json = false, progress = false, resume = false;
    unsigned long long threads = 0, farthest = 0;
    std::optional<unsigned long long> maxDepth;
    std::string memory, checkpoint, tableDir;
    std::string layout = "auto";  // --layout (note [replicated spaces] in pz/enumerate/replicated_bfs.hpp)
    std::string exchange = "auto";  // --exchange (note [packed children] in pz/enumerate/packed_children.hpp)
};

class Backend {
public:
    virtual ~Backend() = default;
    // How messages name the family: "permutation puzzle", "grid-actor puzzle".
    virtual const char* family() const = 0;
    // The usage of `pzc solve` for this family (printed by `pzc solve --help`).
    virtual const char* solveUsage() const = 0;

    // Every method receives a loaded unit (CompilationUnit::load succeeded)
    // and returns the exit code: 0 success, 1 input rejected, 2 usage error.
    // `args` are the command's arguments the command did not consume.

    // pzc check: validate what the back end will need and print the summary
    // (--json: as JSON). `args` are the options without the definition;
    // `diags` holds the loading's diagnostics (warnings), printed with the
    // back end's own in one list.
    virtual int check(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const Args& args) const;
    // pzc solve: `args` are the command's arguments, the definition first.
    virtual int solve(pipeline::CompilationUnit& unit, const Args& args) const;
    // pzc solve-dir: `args` are the level folders or files and the options.
    virtual int solveFolder(pipeline::CompilationUnit& unit, const Args& args) const;
    // pzc build -o BIN [--solver NAME]: the default solver (`solver` empty)
    // or a declared one, compiled and written to `output`.
    virtual int build(pipeline::CompilationUnit& unit, const std::string& output, const std::string& solver) const;
    // pzc generate: the library's sources written to request.outputDir.
    virtual int generate(pipeline::CompilationUnit& unit, const GenerateRequest& request) const;
    // pzc inspect: the plan, or the generated code.
    virtual int inspect(pipeline::CompilationUnit& unit, const InspectRequest& request) const;
    // pzc run: a move sequence applied to the solved state by the interpreter.
    // `diags` as for check.
    virtual int run(pipeline::CompilationUnit& unit, DiagnosticEngine& diags, const std::string& sequence) const;
    // pzc draw: the position (and a solution's frames) as SVG in *request.svg.
    virtual int draw(pipeline::CompilationUnit& unit, const DrawRequest& request) const;

    // pzc enumerate: the distance distribution of a space (runs the
    // generated enumerator in place of pzc: only returns on an error).
    virtual int enumerate(pipeline::CompilationUnit& unit, const EnumerateRequest& request) const;

protected:
    // The error of a command the family does not support: "pzc COMMAND:
    // error: NAME is a FAMILY; HINT". Returns 1.
    int refuse(const char* command, const pipeline::CompilationUnit& unit, const std::string& hint) const;
};

// The back end registered for a family, and all of them (backends.cpp).
const Backend& backendFor(ir::Puzzle::Kind kind);
std::vector<const Backend*> allBackends();
inline const Backend& backendFor(const pipeline::CompilationUnit& unit) { return backendFor(unit.puzzle().kind); }

// Writes a library's NAME.hpp, NAME.cpp (source and C entry) and NAME_c.h
// into request.outputDir, each only when its bytes changed (a build
// depending on them is not redone for nothing), or stores them in
// request.capture when that is set. Returns the exit code.
int writeLibrarySources(const GenerateRequest& request, const codegen::LibrarySources& sources);

// Parse + lower, diagnostics printed to stderr; false on error.
bool loadUnit(pipeline::CompilationUnit& unit);

}  // namespace pz::driver
