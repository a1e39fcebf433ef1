// pzc enumerate FILE (--whole | --pattern P | --coset H) [--mpi] [options]
// The distance distribution of a space, by a breadth-first enumeration in a
// generated program (runtime pz/enumerate/; docs/distributed.md): on one
// process, or across MPI ranks when started by mpirun with --mpi.
#include <iostream>

#include "compiler/driver/backend.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

namespace {

const char* kEnumerateUsage =
    "usage: pzc enumerate FILE (--whole | --pattern P | --coset H) [--mpi] [--threads N] [--memory SIZE]\n"
    "                     [--checkpoint DIR [--resume]] [--farthest N] [--max-depth D]\n"
    "                     [--table [--table-dir DIR]] [--layout auto|replicated|partitioned]\n"
    "                     [--exchange auto|packed|plain] [--json] [--progress]\n"
    "  counts the states at each distance from solved, of the whole puzzle (--whole: every piece),\n"
    "  of a declared pattern's space (--pattern), or of a declared subgroup's cosets (--coset: a coset's\n"
    "  distance is the fewest moves that bring its states into the subgroup)\n"
    "  --mpi: across the ranks of mpirun (or srun); each rank holds the space or a slice (--layout)\n"
    "  --threads: per rank (default: the CPUs shared by the ranks on a machine)\n"
    "  --memory: the budget per rank (default: a quarter of RAM)\n"
    "  --checkpoint DIR: each rank writes its slice after every level; --resume continues from DIR\n"
    "  --farthest N: print up to N states at the greatest distance\n"
    "  --max-depth D: stop after depth D (with --checkpoint, --resume goes on from there)\n"
    "  --table: write the pattern's pruning table (distances up to 14), byte for byte the table\n"
    "           a solver builds, into the cache (or --table-dir DIR); a projected coset pattern's\n"
    "           table is built as the solver builds it, the ranks sharing its depth-first step\n"
    "  --layout: how ranks hold the space: replicated (each the whole space in 3 bits per value,\n"
    "            exchanging one bitmap per level), partitioned (a slice each, exchanging the children),\n"
    "            or auto (default: replicated when it fits --memory and no --checkpoint)\n"
    "  --exchange: how the partitioned layout sends children to other ranks: packed (sorted, as\n"
    "              varint gaps: fewer bytes, more CPU), plain (an index each), or auto (default:\n"
    "              packed when the ranks are on more than one machine)\n";

}  // namespace

int runEnumerate(const Args& args) {
    std::vector<std::string> words;
    EnumerateRequest request;
    unsigned long long maxDepth = 0;
    OptionParser options("enumerate", kEnumerateUsage);
    options.positionals(words, 1, 1, "FILE")
        .flag("--whole", request.whole)
        .value("--pattern", request.pattern)
        .value("--coset", request.coset)
        .flag("--mpi", request.mpi)
        .number("--threads", request.threads, 0, 1024)
        .value("--memory", request.memory)
        .value("--checkpoint", request.checkpoint)
        .flag("--resume", request.resume)
        .number("--farthest", request.farthest, 0, 1000000)
        .number("--max-depth", maxDepth, 0, 100000)
        .flag("--table", request.table)
        .value("--table-dir", request.tableDir)
        .value("--layout", request.layout)
        .value("--exchange", request.exchange)
        .flag("--json", request.json)
        .flag("--progress", request.progress)
        .exclusive({"--whole", "--pattern", "--coset"});
    if (auto rc = options.parse(args)) return *rc;
    if (!request.whole && !options.given("--pattern") && !options.given("--coset"))
        return options.fail("say which space: --whole, --pattern P or --coset H");
    if (options.given("--max-depth")) request.maxDepth = maxDepth;
    if (request.resume && request.checkpoint.empty()) return options.fail("--resume needs --checkpoint DIR");
    if (request.table && !options.given("--pattern")) return options.fail("--table needs --pattern P (a solver's table)");
    if (options.given("--table-dir") && !request.table) return options.fail("--table-dir needs --table");
    if (options.given("--layout") && request.layout != "auto" && request.layout != "replicated" && request.layout != "partitioned")
        return options.fail("--layout is auto, replicated or partitioned, not '" + request.layout + "'");
    if (request.layout == "replicated" && !request.checkpoint.empty())
        return options.fail("--layout replicated keeps no checkpoints: use --layout partitioned");
    if (options.given("--exchange") && request.exchange != "auto" && request.exchange != "packed" && request.exchange != "plain")
        return options.fail("--exchange is auto, packed or plain, not '" + request.exchange + "'");
    if (request.exchange != "auto" && request.layout == "replicated")
        return options.fail("--exchange chooses how the partitioned layout sends children: not with --layout replicated");
    // A table cut short would read as 15 beyond the cut: an over-estimate.
    if (request.table && request.maxDepth)
        return options.fail("--table builds the whole table: --max-depth would leave it unfinished");
    pipeline::CompilationUnit unit(words[0]);
    if (!loadUnit(unit)) return 1;
    return backendFor(unit).enumerate(unit, request);
}

}  // namespace pz::driver
