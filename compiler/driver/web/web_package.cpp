#include "compiler/driver/web/web_package.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <utility>

#include "compiler/analysis/blocks/blocks_analysis.hpp"
#include "compiler/analysis/perm/puzzle_summary.hpp"
#include "compiler/codegen/library.hpp"
#include "compiler/driver/backend.hpp"
#include "compiler/driver/blocks/blocks_backend.hpp"
#include "compiler/driver/blocks/blocks_engines.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/perm/perm_build.hpp"
#include "compiler/driver/subprocess.hpp"
#include "compiler/driver/web/wasm_build.hpp"
#include "pz/support/memory.hpp"
#include "pz/support/result_json.hpp"

namespace pz::driver {

bool runTablePreparer(std::vector<std::string> argv, const std::string& solverName) {
    ChildRun run;
    run.argv = std::move(argv);
    run.onLine = [](const std::string&) {};
    ChildStatus rc = runChildOrDie(run);
    if (!rc.exited() || rc.exitCode() != 0) {
        std::cerr << "pzc build: error: preparing the tables of solver '" << solverName << "' " << rc.describe() << "\n";
        return false;
    }
    return true;
}

struct EmbeddedFile {
    const char* name;
    const char* text;
};
extern const EmbeddedFile kWebRuntimeFiles[];  // runtime/web/*.mjs (cmake/embed_files.cmake)
extern const size_t kWebRuntimeFileCount;

namespace fs = std::filesystem;

// note [web package]
// What `pzc build FILE --target wasm -o DIR` writes, for any static server:
//   solver.mjs, solver.wasm   the generated library and pz/web/wasm_api.hpp
//                             (note [webassembly target] in wasm_build.cpp)
//   pzc.mjs, pzc-worker.mjs,  the JavaScript API (runtime/web/): positions and
//   pzc-draw.mjs              pictures on the page, prepare/solve in a worker
//   puzzle.json               the manifest: puzzle, solvers, tables, picture
//   solved.svg                `pzc draw`'s picture of the solved state (a
//                             puzzle with a layout), which pzc-draw.mjs recolours
//   levels/NAME.svg           grid-actor puzzles and sliding-block boards: each
//                             level's start (an n-puzzle: solved.svg)
//   tables/*.pzt              with --tables: the solvers' table files, built
//                             natively (a browser builds them ~2-3x slower,
//                             on one thread); without, the page builds them.
// A table file is the same bytes natively and in WebAssembly (little-endian
// both, sizes fixed-width), found under the same name. Tables beyond what a
// 32-bit WebAssembly heap holds beside the search are refused here.
constexpr uint64_t kWasmTableBudget = uint64_t{1792} << 20;  // the module's memoryBytes (wasm_api.hpp)

namespace {

constexpr const char* kLibraryName = "pzweb";

bool writeText(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) {
        std::cerr << "pzc build: error: cannot write '" << path.string() << "'\n";
        return false;
    }
    return true;
}

struct TableFile {
    std::string solver, file;
    uint64_t bytes = 0;
};

// Leaves in DIR/tables exactly the files solver `name` loads, by running
// its native binary on that folder (`prepare`). The user's cached tables
// are hard-linked in first (no copy, no rebuild), or symbolically linked
// where the cache is on another file system; those the solver did not use
// (no .used sidecar, pz/tables/prune.hpp noteTableUse) are removed, and a
// symbolic link it used becomes a copy (pruneTables).
// `prepare` runs the solver on a folder of tables (false after printing why).
template <class Prepare>
bool nativeTables(pipeline::CompilationUnit& unit, const std::string& name, const fs::path& dir, std::vector<TableFile>& out,
                  Prepare&& prepare) {
    std::error_code ec;
    const fs::path tables = dir / "tables";
    fs::create_directories(tables, ec);
    const std::string prefix = unit.puzzle().name + "-";
    for (const auto& e : fs::directory_iterator(fs::path(cacheDirectory()) / "tables", ec)) {
        const std::string f = e.path().filename().string();
        if (f.rfind(prefix, 0) != 0 || e.path().extension() != ".pzt" || fs::exists(tables / f)) continue;
        fs::create_hard_link(e.path(), tables / f, ec);
        if (ec) fs::create_symlink(fs::absolute(e.path()), tables / f, ec);  // else the solver builds it
    }
    if (!prepare(tables.string())) return false;
    std::set<std::string> mine;
    for (const auto& t : out) mine.insert(t.file);
    for (const auto& e : fs::directory_iterator(tables, ec)) {
        const fs::path p = e.path();
        if (p.extension() != ".pzt" || mine.count(p.filename().string())) continue;
        if (fs::exists(p.string() + ".used")) out.push_back({name, p.filename().string(), fs::file_size(p, ec)});
    }
    return true;
}

// A permutation solver's preparer: its binary with `--tables`.
bool permTables(pipeline::CompilationUnit& unit, int index, const std::string& name, const std::string& tables) {
    auto bin = compileSolver(unit, index);
    return bin && runTablePreparer({*bin, "--tables", "--table-dir", tables}, name);
}

// Removes the sidecars and the linked files no solver used; a symbolic
// link kept becomes a copy (the folder must stand alone).
bool pruneTables(const fs::path& dir, const std::vector<TableFile>& kept) {
    std::error_code ec;
    std::set<std::string> keep;
    for (const auto& t : kept) keep.insert(t.file);
    std::vector<fs::path> gone, linked;
    for (const auto& e : fs::directory_iterator(dir / "tables", ec)) {
        if (!keep.count(e.path().filename().string())) gone.push_back(e.path());
        else if (fs::is_symlink(e.symlink_status(ec))) linked.push_back(e.path());
    }
    for (const auto& p : gone) fs::remove(p, ec);
    for (const auto& p : linked) {
        const fs::path tmp = p.string() + ".copy";
        fs::copy_file(p, tmp, fs::copy_options::overwrite_existing, ec);
        if (!ec) fs::rename(tmp, p, ec);
        if (ec) {
            std::cerr << "pzc build: error: cannot copy the table " << p.string() << ": " << ec.message() << "\n";
            return false;
        }
    }
    return true;
}

uint64_t total(const std::vector<TableFile>& tables) {
    uint64_t bytes = 0;
    for (const auto& t : tables) bytes += t.bytes;
    return bytes;
}

std::string tablesJson(const std::vector<std::string>& solvers, const std::vector<TableFile>& tables) {
    std::string out = "{";
    for (size_t i = 0; i < solvers.size(); ++i) {
        out += (i ? ", " : "") + json::quote(solvers[i]) + ": [";
        bool first = true;
        for (const auto& t : tables)
            if (t.solver == solvers[i]) {
                out += (first ? "" : ", ") + json::Line().field("file", t.file).field("bytes", t.bytes).str();
                first = false;
            }
        out += "]";
    }
    return out + "}";
}

}  // namespace

int buildWebPackage(pipeline::CompilationUnit& unit, const WebPackageRequest& request) {
    const ir::Puzzle& puzzle = unit.puzzle();
    const bool perm = puzzle.kind == ir::Puzzle::Kind::Permutation;
    const bool blocks = puzzle.kind == ir::Puzzle::Kind::Blocks;
    // The solvers: as named, else the default one.
    std::vector<std::string> solvers = request.solvers;
    if (solvers.empty() && !blocks) solvers.push_back(perm ? defaultSolverName(puzzle) : "");
    std::vector<int> indices;
    if (perm) {
        for (const auto& s : solvers) {
            auto index = declaredSolver(puzzle, s, "build");
            if (!index) return 2;
            if (*index >= 0 && puzzle.solvers[*index].kind == ir::Solver::Kind::Sift) {
                std::cerr << "pzc build: error: sift solver '" << s << "' runs inside pzc solve only\n";
                return 2;
            }
            indices.push_back(*index);
        }
    } else if (request.tables && !(blocks && analysis::isTilePuzzle(puzzle.blocks))) {
        std::cerr << "pzc build: error: --tables: a " << backendFor(unit).family()
                  << (blocks ? " other than an n-puzzle" : "") << " has no tables\n";
        return 2;
    }
    // Tables past the module's memory are refused before anything is compiled.
    for (size_t i = 0; perm && i < indices.size(); ++i) {
        if (indices[i] < 0 || puzzle.solvers[indices[i]].kind != ir::Solver::Kind::Optimal) continue;
        auto bytes = analysis::optimalSolverTableBytes(unit.analysis(), indices[i], unit.metricMoves());
        if (bytes && *bytes > kWasmTableBudget) {
            std::cerr << "pzc build: error: the tables of solver '" << solvers[i] << "' need " << formatBytes(*bytes)
                      << ", more than a WebAssembly module holds (" << formatBytes(kWasmTableBudget)
                      << " of its 2 GiB memory)\n";
            return 1;
        }
    }

    // The module: the library (as `pzc generate` writes it) and its exports.
    codegen::LibrarySources sources;
    GenerateRequest generate;
    generate.name = generate.ns = kLibraryName;
    generate.capture = &sources;
    generate.command = "build";
    generate.levelFiles = request.levelFiles;
    generate.levelDirs = request.levelDirs;
    std::vector<std::string> levelFiles;  // the levels compiled in (grid-actor puzzles)
    generate.inputs = &levelFiles;
    std::vector<std::string> held;  // the solvers the library holds (sliding-block puzzles)
    if (perm || blocks) generate.solvers = solvers;
    if (blocks) generate.held = &held;
    if (int rc = backendFor(unit).generate(unit, generate)) return rc;
    if (blocks) solvers = held;
    // A sliding-block library's solvers are known once generated (the
    // default included); still nothing is compiled.
    for (const auto& name : blocks ? solvers : std::vector<std::string>{}) {
        const uint64_t bytes = blocksTableBytes(puzzle, name);
        if (bytes > kWasmTableBudget) {
            std::cerr << "pzc build: error: the tables of solver '" << name << "' need " << formatBytes(bytes)
                      << ", more than a WebAssembly module holds (" << formatBytes(kWasmTableBudget) << " of its 2 GiB memory)\n";
            return 1;
        }
    }
    // Nothing is written before the library is generated (its solvers checked).
    std::error_code ec;
    const fs::path dir = request.outputDir;
    fs::create_directories(dir, ec);
    if (ec) {
        std::cerr << "pzc build: error: cannot create '" << dir.string() << "': " << ec.message() << "\n";
        return 1;
    }
    const std::string source = codegen::libraryTranslationUnit(sources, kLibraryName) + "\n#define PZ_WEB_LIBRARY " +
                               kLibraryName + "\n#include \"pz/web/wasm_api.hpp\"\n";
    DiagnosticEngine diags;
    const bool built = buildWasm(source, dir.string(), diags);
    diags.print(std::cerr);
    if (!built) return 1;

    // The picture of the solved state: stickers to recolour (a layout), or
    // the schematic's cells to rebuild (pzc-draw.mjs).
    std::string picture = "null";
    if (perm) {
        std::string svg;
        DrawRequest draw;
        draw.file = request.file;
        draw.svg = &svg;
        if (int rc = backendFor(unit).draw(unit, draw)) return rc;
        if (!writeText(dir / "solved.svg", svg)) return 1;
        const bool stickers = svg.find("class=\"sticker\"") != std::string::npos;
        picture = json::Line().field("kind", stickers ? "stickers" : "schematic").field("file", "solved.svg").str();
    }

    if (blocks)
        if (int rc = writeBlocksWebPictures(unit, request.file, request.levelFiles, dir, picture)) return rc;

    if (puzzle.kind == ir::Puzzle::Kind::Grid && !levelFiles.empty()) {
        // Each level's start, named as the library names the level (its file's stem).
        fs::create_directories(dir / "levels", ec);
        std::string files = "{";
        for (size_t i = 0; i < levelFiles.size(); ++i) {
            std::string svg;
            DrawRequest draw;
            draw.file = request.file;
            draw.level = levelFiles[i];
            draw.svg = &svg;
            if (int rc = backendFor(unit).draw(unit, draw)) return rc;
            const std::string name = fs::path(levelFiles[i]).stem().string();
            if (!writeText(dir / "levels" / (name + ".svg"), svg)) return 1;
            files += (i ? ", " : "") + json::quote(name) + ": " + json::quote("levels/" + name + ".svg");
        }
        picture = json::Line().field("kind", "levels").raw("files", files + "}").str();
    }

    std::vector<TableFile> tables;
    if (request.tables) {
        for (size_t i = 0; i < solvers.size(); ++i) {
            const std::string& name = solvers[i];
            const bool ok = blocks ? nativeTables(unit, name, dir, tables,
                                                  [&](const std::string& t) { return blocksNativeTables(unit, name, t); })
                                   : nativeTables(unit, name, dir, tables,
                                                  [&](const std::string& t) { return permTables(unit, indices[i], name, t); });
            if (!ok) return 1;
        }
        if (!pruneTables(dir, tables)) return 1;
        if (total(tables) > kWasmTableBudget) {
            std::cerr << "pzc build: error: the tables need " << formatBytes(total(tables))
                      << ", more than a WebAssembly module holds (" << formatBytes(kWasmTableBudget) << ")\n";
            return 1;
        }
    }

    for (size_t i = 0; i < kWebRuntimeFileCount; ++i)
        if (!writeText(dir / kWebRuntimeFiles[i].name, kWebRuntimeFiles[i].text)) return 1;
    std::string names = "[";
    for (size_t i = 0; i < solvers.size(); ++i) names += (i ? ", " : "") + json::quote(solvers[i]);
    names += "]";
    const std::string manifest = json::Line()
                                     .field("generatedBy", "pzc build " + request.file + " --target wasm")
                                     .field("puzzle", puzzle.name)
                                     .raw("solvers", names)
                                     .field("defaultSolver", solvers.front())
                                     .raw("tables", tablesJson(solvers, tables))
                                     .raw("picture", picture)
                                     .str();
    if (!writeText(dir / "puzzle.json", manifest + "\n")) return 1;
    std::cout << "wrote " << dir.string() << "/ (solver.mjs, solver.wasm, pzc.mjs"
              << (tables.empty() ? "" : ", " + std::to_string(tables.size()) + " table files of " + formatBytes(total(tables)))
              << ")\n";
    return 0;
}

}  // namespace pz::driver
