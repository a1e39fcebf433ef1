// pz/enumerate/enumerate_main.hpp — main() of the enumerators `pzc
// enumerate` compiles: the distance distribution of one pattern's space
// (the whole puzzle is a pattern of every piece), on one process or, built
// with PZ_WITH_MPI and started by mpirun, across MPI ranks (docs/distributed.md).
//
// Rank 0 prints; every rank parses the same arguments and so fails the
// same way. Options:
//   --threads N      threads per rank (0: the CPUs / the ranks on the machine)
//   --memory SIZE    the budget per rank (default: a quarter of RAM)
//   --checkpoint DIR each rank writes its slice after every level (note [bfs
//                    checkpoints]); --resume continues from DIR
//   --farthest N     print up to N values at the greatest distance
//   --max-depth D    stop after level D (a checkpoint can go on from there)
//   --table          4-bit distances up to 14 instead of 2-bit levels: rank 0
//                    gathers them and writes the pruning table file the
//                    solvers load (PruneTable's format, byte for byte) into
//                    --table-dir DIR (default: the cache's tables/)
//   --layout L       replicated: every rank holds the whole space in bits
//                    (note [replicated spaces]); partitioned: a slice each
//                    (note [rank slices]); auto (the default): replicated
//                    when it fits every rank's budget and no --checkpoint
//                    is asked for
//   --exchange E     how a partitioned forward level sends children: packed
//                    (sorted varint gaps, note [packed children]), plain
//                    (one index each), auto (the default): packed when the
//                    ranks are on more than one machine
//   --expect N       the states the analysis predicts: a different count is
//                    an internal error (exit 3)
//   --space LABEL    how the output names the space; --json; --progress
// A projected coset pattern's space is not walked: with --table its table is
// built as the solver builds it, the ranks sharing the work
// (projectedTableRun).
#pragma once

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "pz/enumerate/bfs.hpp"
#include "pz/enumerate/checkpoint.hpp"
#include "pz/enumerate/coset_classes.hpp"
#include "pz/enumerate/coset_space.hpp"
#include "pz/enumerate/replicated_bfs.hpp"
#include "pz/enumerate/transport.hpp"
#include "pz/state_text.hpp"
#include "pz/support/memory.hpp"

namespace pz::enumerate {

struct EnumerateOptions {
    int threads = 0;
    bool json = false, progress = false, table = false, resume = false;
    size_t farthest = 0;
    unsigned maxDepth = ~0u;
    std::string checkpointDir, tableDir, space;
    std::string layout = "auto";  // auto, replicated or partitioned (note [replicated spaces])
    std::string exchange = "auto";  // auto, packed or plain (note [packed children])
    std::optional<uint64_t> expect;
};

// Parses the enumerators' options (every rank alike) into `o`: an exit
// code when they are wrong, with a message from rank 0.
inline std::optional<int> parseEnumerateOptions(int argc, char** argv, bool root, EnumerateOptions& o) {
    auto usage = [&] {
        if (root)
            std::cerr << "usage: " << argv[0]
                      << " [--threads N] [--memory SIZE] [--checkpoint DIR [--resume]] [--farthest N] [--max-depth D]"
                         " [--table] [--table-dir DIR] [--layout auto|replicated|partitioned] [--exchange auto|packed|plain]"
                         " [--expect N] [--space LABEL]"
                         " [--json] [--progress]\n";
        return 2;
    };
    auto bad = [&](const std::string& msg) {
        if (root) std::cerr << argv[0] << ": error: " << msg << "\n";
        return 2;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--json") o.json = true;
        else if (a == "--progress") o.progress = true;
        else if (a == "--table") o.table = true;
        else if (a == "--resume") o.resume = true;
        else if (a == "--mpi") {  // pzc's flag, passed through
        } else if (!v) return usage();
        else if (++i; a == "--threads") {
            auto n = parseWholeNumber(v, 0, 1024);
            if (!n) return bad("--threads needs a whole number from 0 to 1024, not '" + std::string(v) + "'");
            o.threads = static_cast<int>(*n);
        } else if (a == "--farthest") {
            auto n = parseWholeNumber(v, 0, 1000000);
            if (!n) return bad("--farthest needs a whole number from 0 to 1000000, not '" + std::string(v) + "'");
            o.farthest = static_cast<size_t>(*n);
        } else if (a == "--max-depth") {
            auto n = parseWholeNumber(v, 0, 100000);
            if (!n) return bad("--max-depth needs a whole number from 0 to 100000, not '" + std::string(v) + "'");
            o.maxDepth = static_cast<unsigned>(*n);
        } else if (a == "--expect") {
            auto n = parseWholeNumber(v, 1, INT64_MAX);
            if (!n) return bad("--expect needs a whole number, not '" + std::string(v) + "'");
            o.expect = static_cast<uint64_t>(*n);
        } else if (a == "--memory") {
            auto bytes = parseMemorySize(v);
            if (!bytes || *bytes == 0) return bad(std::string("bad --memory '") + v + "': expected a size such as 512M or 2G");
            memoryBudget() = *bytes;
        } else if (a == "--checkpoint") o.checkpointDir = v;
        else if (a == "--table-dir") o.tableDir = v;
        else if (a == "--space") o.space = v;
        else if (a == "--layout") {
            o.layout = v;
            if (o.layout != "auto" && o.layout != "replicated" && o.layout != "partitioned")
                return bad("--layout is auto, replicated or partitioned, not '" + o.layout + "'");
        } else if (a == "--exchange") {
            o.exchange = v;
            if (o.exchange != "auto" && o.exchange != "packed" && o.exchange != "plain")
                return bad("--exchange is auto, packed or plain, not '" + o.exchange + "'");
        } else return usage();
    }
    if (o.resume && o.checkpointDir.empty()) return bad("--resume needs --checkpoint DIR");
    if (!o.checkpointDir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(o.checkpointDir, ec);
        if (ec) return bad("cannot create " + o.checkpointDir + ": " + ec.message());
    }
    return std::nullopt;
}

// The threads per rank: --threads, or the CPUs shared by the ranks on this machine.
template <class Transport>
int threadsPerRank(const Transport& net, const EnumerateOptions& o) {
    return o.threads > 0 ? o.threads
                         : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / std::max(1, net.localRanks()));
}

// note [streamed tables]
// Rank 0 writes the table file from every rank's 4-bit slice, gathered a
// window at a time (kWindowWords words of each slice: ranks x 256 KiB on rank
// 0) and written as it comes (TableFileWriter in pz/tables/prune.hpp), so no
// rank ever holds the whole table: the memory a table build needs per rank
// is its slice, whatever the table's size. Local block j of rank r is global
// block j * ranks + r (note [rank slices]), so a window of local words
// [first, first + n) on every rank is global words [first * ranks, (first +
// n) * ranks): each window is interleaved block by block and appended. A
// coset pattern's table (note [coset class spaces] in coset_classes.hpp) is
// made by the solver's own build from every entry at once, so its entries
// are gathered in full.
inline constexpr uint64_t kWindowWords = uint64_t{1} << 15;

template <class T, class P, class Transport>
bool writeGatheredTable(Transport& net, SpaceBfs<T, P, DepthNibbles, Transport>& bfs, const std::string& dir,
                        int threads, std::string& path, std::string& why) {
    const Partition& part = bfs.partition();
    constexpr uint64_t kBlockWords = Partition::kBlock / 16;
    static_assert(kWindowWords % kBlockWords == 0);
    const uint64_t words = (P::kSize + 15) / 16;
    const bool root = net.rank() == 0;
    const uint64_t ranks = static_cast<uint64_t>(part.ranks);
    std::vector<uint64_t> window(root ? static_cast<size_t>(kWindowWords * ranks) : 0);
    // Hands take(global first word, words, n) each window of the table in order.
    auto gather = [&](auto&& take) {
        net.gatherWindows(bfs.store().data(), bfs.store().words(), kWindowWords,
                          [&](uint64_t first, const uint64_t* parts, uint64_t n) {
                              for (uint64_t j = 0; j < n / kBlockWords; ++j)
                                  for (uint64_t r = 0; r < ranks; ++r)
                                      std::memcpy(window.data() + (j * ranks + r) * kBlockWords,
                                                  parts + r * n + j * kBlockWords, kBlockWords * 8);
                              const uint64_t at = first * ranks;
                              if (at < words) take(at, window.data(), std::min(n * ranks, words - at));
                          });
    };
    if constexpr (requires { P::saveTable; }) {
        std::vector<uint64_t> entries(root ? words : 0);
        gather([&](uint64_t at, const uint64_t* w, uint64_t n) { std::copy(w, w + n, entries.begin() + at); });
        if (!root) return true;
        return P::saveTable(std::move(entries), bfs.counts(), dir, threads, path, why);
    } else {
        std::array<uint64_t, 16> counts{};
        for (size_t d = 0; d < bfs.counts().size() && d < 16; ++d) counts[d] = bfs.counts()[d];
        TableFileWriter out;
        bool ok = true;
        if (root) {
            std::error_code ec;
            std::filesystem::create_directories(dir, ec);
            path = dir + "/" + PruneTable<T, P>::fileName();
            ok = out.open(path, why);
        }
        // Every rank gathers every window, even after rank 0 failed to write one.
        gather([&](uint64_t, const uint64_t* w, uint64_t n) { ok = ok && out.append(w, n * 8, why); });
        if (!root) return true;
        if (ok && out.bytes() != PruneTable<T, P>::bytes())
            return (why = "internal: " + std::to_string(out.bytes()) + " bytes gathered for a table of " +
                          std::to_string(PruneTable<T, P>::bytes()),
                    false);
        return ok && out.finish([&](const std::vector<uint64_t>& hashes) { return PruneTable<T, P>::headerPage(counts, hashes); },
                                why);
    }
}

// The search's options from the command's; `progress` is rank 0's line
// per level with --progress.
inline BfsOptions bfsOptions(const EnumerateOptions& o, int threads, bool root, const char* program,
                             std::optional<Progress>& progress) {
    if (root && o.progress) progress.emplace(std::string(program) + ": " + o.space);
    BfsOptions bo;
    bo.threads = threads;
    bo.maxDepth = o.maxDepth;
    bo.progress = progress ? &*progress : nullptr;
    return bo;
}

// Whether a partitioned run sends its children packed (note [packed
// children]): asked for, or (auto) when the ranks are on more than one
// machine; on one, the exchange is a copy through shared memory and the
// sort costs more than the bytes it saves.
template <class Transport>
bool packsChildren(const Transport& net, const EnumerateOptions& o) {
    if (o.exchange != "auto") return o.exchange == "packed";
    return net.localRanks() < net.ranks();
}

// A coset space's move tables (note [coset spaces] in coset_space.hpp), 0 for a pattern.
template <class P>
uint64_t extraBytesOf() {
    if constexpr (requires { P::extraBytes(); }) return P::extraBytes();
    return 0;
}

// What an enumeration found, as rank 0 reports it.
struct Enumerated {
    std::vector<uint64_t> counts, farthest;
    uint64_t states = 0, exchanged = 0;
    double seconds = 0;
    int threads = 1;
    unsigned resumedAt = 0;
    unsigned depthLimit = ~0u;  // the deepest level kept (a 4-bit table's 14), ~0u: none
    std::string tablePath;
    const char* layout = "partitioned";  // note [replicated spaces] in replicated_bfs.hpp
    const char* exchange = nullptr;      // a partitioned run on ranks: "packed" or "plain"
};

// Rank 0 prints the distribution (--json: one object); exit 3 when the
// count is not the analysis's prediction (--expect).
template <class T, class P, class Transport>
int reportEnumeration(Transport& net, const EnumerateOptions& o, const Enumerated& r, const char* program) {
    auto fail = [&](int code, const std::string& msg) {
        std::cerr << program << ": " << (code == 3 ? "internal error: " : "error: ") << msg << "\n";
        return code;
    };
    const auto& counts = r.counts;
    const uint64_t states = r.states, exchanged = r.exchanged;
    const double seconds = r.seconds;
    const int threads = r.threads;
    const unsigned resumedAt = r.resumedAt;
    const auto& farthest = r.farthest;
    const std::string& tablePath = r.tablePath;
    const unsigned maximum = static_cast<unsigned>(counts.size() - 1);
    // Stopped by --max-depth: the counts so far, no maximum claimed.
    const bool cut = maximum == o.maxDepth && states < P::kSize;
    uint64_t newStates = 0;
    for (size_t d = resumedAt + 1; d < counts.size(); ++d) newStates += counts[d];
    const double rate = seconds > 0 ? newStates / seconds : 0;
    // A state as the solver's --state reads it (a puzzle's own text, if it has one).
    auto stateText = [&](uint64_t i) {
        if constexpr (requires { T::stateText(P::unrank(i)); }) {
            return T::stateText(P::unrank(i));
        } else {
            std::ostringstream s;
            const auto nums = stateNumbers<T>(P::unrank(i));
            for (size_t k = 0; k < nums.size(); ++k) s << (k ? " " : "") << nums[k];
            return s.str();
        }
    };
    std::ostringstream out;
    if (o.json) {
        out << "{\"puzzle\": \"" << T::kName << "\", \"space\": \"" << o.space << "\", \"values\": " << P::kSize
            << ", \"ranks\": " << net.ranks() << ", \"threads\": " << threads << ", \"depths\": [";
        for (size_t d = 0; d < counts.size(); ++d) out << (d ? ", " : "") << counts[d];
        out << "], \"states\": " << states << ", \"maximum\": " << maximum << ", \"complete\": " << (cut ? "false" : "true")
            << ", \"farthest\": [";
        for (size_t k = 0; k < farthest.size(); ++k)
            out << (k ? ", " : "") << "{\"index\": " << farthest[k] << ", \"state\": \"" << stateText(farthest[k]) << "\"}";
        out << "], \"seconds\": " << seconds << ", \"bytes_exchanged\": " << exchanged << ", \"layout\": \"" << r.layout << "\"";
        if (r.exchange) out << ", \"exchange\": \"" << r.exchange << "\"";
        if (o.resume) out << ", \"resumed_at\": " << resumedAt;
        if (o.table) out << ", \"table\": \"" << tablePath << "\"";
        out << "}\n";
    } else {
        out << T::kName << " " << o.space << ": " << P::kSize << " values, " << net.ranks() << " rank(s) x " << threads
            << " thread(s)" << (o.resume ? ", resumed after depth " + std::to_string(resumedAt) : "") << "\n";
        for (size_t d = 0; d < counts.size(); ++d) out << "depth " << d << ": " << counts[d] << "\n";
        out << "states: " << states;
        if (o.expect && !cut) out << (*o.expect == states ? " (as the analysis predicts)" : "");
        if (cut)
            out << "\nstopped after depth " << maximum << " (--max-depth)";
        else
            out << "\nmaximum distance: " << maximum << " (" << counts[maximum] << " states)";
        if (r.depthLimit != ~0u && maximum == r.depthLimit && states < P::kSize)
            out << " — the table stops at " << r.depthLimit << "; farther values read as 15";
        out << "\n";
        for (uint64_t i : farthest) out << (cut ? "deepest" : "farthest") << ": index " << i << ": " << stateText(i) << "\n";
        char line[256];
        std::snprintf(line, sizeof line, "time: %.3f s, %.3g states/s (%.3g per rank); exchanged %s, %.2f bytes per state\n",
                      seconds, rate, rate / net.ranks(), formatBytes(exchanged).c_str(),
                      newStates ? double(exchanged) / double(newStates) : 0.0);
        out << line;
        out << "layout: " << r.layout << "\n";
        if (r.exchange) out << "exchange: " << r.exchange << "\n";
        if (o.table) out << "table: " << (tablePath.empty() ? "not written (stopped by --max-depth)" : tablePath) << "\n";
    }
    std::cout << out.str() << std::flush;
    if (o.expect && !cut && *o.expect != states)
        return fail(3, "the enumeration reached " + std::to_string(states) + " states; the analysis predicts " +
                           std::to_string(*o.expect));
    return 0;
}

template <class T, class P, class Store, class Transport>
int enumerateWith(Transport& net, const EnumerateOptions& o, const char* program) {
    const bool root = net.rank() == 0;
    auto fail = [&](int code, const std::string& msg) {
        std::cerr << program << ": " << (code == 3 ? "internal error: " : "error: ") << msg
                  << (root ? "" : " (rank " + std::to_string(net.rank()) + ")") << "\n";
        return code;
    };
    const int threads = threadsPerRank(net, o);
    Partition part(P::kSize, net.ranks(), net.rank());
    const uint64_t slice = (part.localEntries() * Store::kBits + 63) / 64 * 8;
    // Rank 0's window of the gathered table (note [streamed tables]); a
    // coset pattern's entries in full, copied into the solver's build, which
    // then lays out its blob: three copies at the peak.
    uint64_t tableBytes = o.table && root ? kWindowWords * 8 * static_cast<uint64_t>(net.ranks()) : 0;
    if constexpr (requires { P::saveTable; }) tableBytes = o.table && root ? (P::kSize + 15) / 16 * 8 * 3 : 0;
    const uint64_t extraBytes = extraBytesOf<P>();
    // The ranks decide together: rank 0 needs more than the others with
    // --table, and machines' default budgets differ; a rank that stopped
    // alone would leave the rest waiting in their first collective. The
    // lowest rank over its budget says why.
    const uint64_t need = slice + tableBytes + extraBytes;
    const bool over = need > memoryBudget();
    const int firstOver = net.firstWhere(over);
    if (firstOver >= 0) {
        std::string where = " per rank";
        if (root && tableBytes) {
            where = " on rank 0 (";
            if constexpr (requires { P::saveTable; }) where += "it holds the whole table)";
            else where += formatBytes(tableBytes) + " of it to gather the table)";
        }
        if (firstOver == net.rank())
            fail(1, "the space " + o.space + " (" + std::to_string(P::kSize) + " values) needs " + formatBytes(need) +
                        where + (extraBytes ? " (" + formatBytes(extraBytes) + " of move tables)" : "") + " with " +
                        std::to_string(net.ranks()) + " rank(s), more than the memory budget of " +
                        formatBytes(memoryBudget()) + " (--memory; or use more ranks)");
        return 1;
    }
    if constexpr (requires { P::build(); }) P::build();
    const std::string key = std::string(T::kName) + "-" + P::kName + "-" + P::kHash + (o.table ? "-table" : "");
    std::optional<Progress> progress;
    BfsOptions bo = bfsOptions(o, threads, root, program, progress);
    bo.packed = packsChildren(net, o);
    // A lost rank, for tests/enumerate rank-dies: PZ_ENUMERATE_KILL=R:D
    // kills rank R (SIGKILL, as the kernel or a scheduler would) right
    // after its checkpoint of level D.
    int killRank = -1;
    unsigned killLevel = 0;
    if (const char* v = std::getenv("PZ_ENUMERATE_KILL")) std::sscanf(v, "%d:%u", &killRank, &killLevel);
    SpaceBfs<T, P, Store, Transport>* self = nullptr;
    if (!o.checkpointDir.empty())
        bo.levelDone = [&](unsigned level) {
            std::string why;
            const bool ok = writeCheckpoint(o.checkpointDir, key, net.rank(), net.ranks(), Store::kBits, P::kSize,
                                            self->counts(), self->store().data(), self->store().bytes(), why);
            if (!ok) {
                fail(1, "checkpoint: " + why);
                net.abortAll(1);
            }
            if (net.rank() == killRank && level == killLevel) ::raise(SIGKILL);
        };
    SpaceBfs<T, P, Store, Transport> bfs(net, bo);
    self = &bfs;
    unsigned resumedAt = 0;
    if (o.resume) {
        std::string others, why;
        const long newest = newestCheckpoint(o.checkpointDir, key, net.rank(), net.ranks(), others);
        const long agreed = static_cast<long>(net.min(static_cast<uint64_t>(newest + 1))) - 1;
        bool ok = agreed >= 0;
        if (!ok)
            why = "no checkpoint of " + o.space + " by " + std::to_string(net.ranks()) + " rank(s) in " + o.checkpointDir +
                  (others.empty() ? "" : " (it holds " + others + ": resume with the number of ranks that wrote it)");
        else
            ok = readCheckpoint(o.checkpointDir, key, net.rank(), net.ranks(), Store::kBits, P::kSize,
                                static_cast<unsigned>(agreed), bfs.store().data(), bfs.store().bytes(), bfs.counts(),
                                why);
        if (net.min(ok ? 1 : 0) == 0) {
            if (!ok && (root || agreed >= 0)) fail(1, "cannot resume: " + why);
            return 1;
        }
        resumedAt = static_cast<unsigned>(agreed);
    }
    const auto start = std::chrono::steady_clock::now();
    bfs.run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress->done();
    const uint64_t exchanged = net.sum(net.bytesSent());
    const std::vector<uint64_t> farthest = bfs.farthest(o.farthest);
    std::string tablePath, why;
    // A table stopped by --max-depth is not written: farther entries would
    // read as 15, over-estimates.
    if constexpr (std::is_same_v<Store, DepthNibbles>)
        if (o.maxDepth == ~0u && !writeGatheredTable(net, bfs, o.tableDir, threads, tablePath, why))
            return fail(1, "cannot write the table: " + why);
    if (!root) return 0;
    Enumerated r;
    r.counts = bfs.counts();
    r.states = bfs.reached();
    r.farthest = farthest;
    r.seconds = seconds;
    r.exchanged = exchanged;
    r.threads = threads;
    r.resumedAt = resumedAt;
    r.depthLimit = Store::kMaxDepth;
    r.tablePath = tablePath;
    r.layout = "partitioned";
    if (net.ranks() > 1) r.exchange = bo.packed ? "packed" : "plain";
    return reportEnumeration<T, P>(net, o, r, program);
}

// What this rank needs to hold the space replicated (note [replicated
// spaces]): its bitmaps, rank 0's table with --table, a coset space's move tables.
template <class T, class P, class Transport>
uint64_t replicatedBytes(const Transport& net, const EnumerateOptions& o) {
    return ReplicatedBfs<T, P, Transport>::bytesNeeded(o.table && net.rank() == 0) + extraBytesOf<P>();
}

// A pattern's space or a coset space with every rank holding it whole (note
// [replicated spaces] in replicated_bfs.hpp): the same counts, farthest
// states and table file as enumerateWith's partitioned run.
template <class T, class P, class Transport>
int enumerateReplicated(Transport& net, const EnumerateOptions& o, const char* program) {
    if (o.exchange != "auto") {
        if (net.rank() == 0)
            std::cerr << program << ": error: --exchange " << o.exchange
                      << " chooses how the partitioned layout sends children; this run is replicated "
                         "(it ORs bitmaps): add --layout partitioned\n";
        return 2;
    }
    using Bfs = ReplicatedBfs<T, P, Transport>;
    const bool root = net.rank() == 0;
    const uint64_t need = replicatedBytes<T, P>(net, o);
    const int firstOver = net.firstWhere(need > memoryBudget());
    if (firstOver >= 0) {
        if (firstOver == net.rank())
            std::cerr << program << ": error: the space " << o.space << " (" << P::kSize << " values) needs "
                      << formatBytes(need) << (root && o.table ? " on rank 0 (its table included)" : " per rank")
                      << " replicated" << (extraBytesOf<P>() ? " (" + formatBytes(extraBytesOf<P>()) + " of move tables)" : "")
                      << ", more than the memory budget of " << formatBytes(memoryBudget())
                      << " (--memory; or --layout partitioned to split it across ranks)"
                      << (root ? "" : " (rank " + std::to_string(net.rank()) + ")") << "\n";
        return 1;
    }
    if constexpr (requires { P::build(); }) P::build();
    const int threads = threadsPerRank(net, o);
    std::optional<Progress> progress;
    Bfs bfs(net, bfsOptions(o, threads, root, program, progress), o.table);
    const auto start = std::chrono::steady_clock::now();
    bfs.run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress->done();
    const uint64_t exchanged = net.sum(net.bytesSent());
    if (!root) return 0;
    Enumerated r;
    r.counts = bfs.counts();
    r.states = bfs.reached();
    r.farthest = bfs.farthest(o.farthest);
    r.seconds = seconds;
    r.exchanged = exchanged;
    r.threads = threads;
    r.depthLimit = o.table ? Bfs::kTableDepth : ~0u;
    r.layout = "replicated";
    // A table stopped by --max-depth is not written: farther entries would
    // read as 15, over-estimates.
    if (o.table && o.maxDepth == ~0u) {
        std::array<uint64_t, 16> counts{};
        for (size_t d = 0; d < r.counts.size() && d < 16; ++d) counts[d] = r.counts[d];
        std::string why;
        std::error_code ec;
        std::filesystem::create_directories(o.tableDir, ec);
        r.tablePath = o.tableDir + "/" + PruneTable<T, P>::fileName();
        TableFileWriter out;
        const bool ok = out.open(r.tablePath, why) && out.append(bfs.nibbles(), bfs.nibbleWords() * 8, why) &&
                        out.finish([&](const std::vector<uint64_t>& hashes) { return PruneTable<T, P>::headerPage(counts, hashes); },
                                   why);
        if (!ok) {
            std::cerr << program << ": error: cannot write the table: " << why << "\n";
            return 1;
        }
    }
    return reportEnumeration<T, P>(net, o, r, program);
}

// Whether a pattern's or coset space runs replicated (note [replicated
// spaces]): asked for, or by default without checkpoints when it fits
// every rank's budget. Every rank decides alike (the same
// options; the budget check is collective).
template <class T, class P, class Transport>
bool runsReplicated(Transport& net, const EnumerateOptions& o) {
    if (o.layout != "auto") return o.layout == "replicated";
    if (!o.checkpointDir.empty()) return false;
    return net.firstWhere(replicatedBytes<T, P>(net, o) > memoryBudget()) < 0;
}

template <class T, class P, class Transport>
int enumerateRun(Transport& net, int argc, char** argv) {
    EnumerateOptions o;
    o.tableDir = cacheDirectory() + "/tables";
    o.space = P::kName;
    const bool root = net.rank() == 0;
    auto bad = [&](const std::string& msg) {
        if (root) std::cerr << argv[0] << ": error: " << msg << "\n";
        return 2;
    };
    if (auto code = parseEnumerateOptions(argc, argv, root, o)) return *code;
    if constexpr (requires { P::saveTable; }) {
        // A coset pattern's classes: enumerated to build its table only.
        if (!o.table) return bad("a coset pattern's classes are enumerated for its --table only");
        if (o.layout == "replicated") return bad("--layout replicated takes a pattern's space, the whole puzzle or a subgroup's cosets, not a coset "
                       "pattern's classes (each child's images are claimed together: partitioned only)");
        return enumerateWith<T, P, DepthNibbles>(net, o, argv[0]);
    } else if constexpr (requires { P::build(); }) {
        // A coset space's table is the coset pattern's own (symmetry classes:
        // CosetClasses), not a pattern table's nibbles.
        if (o.table) return bad("--table writes a pattern's table, not a coset space's");
        if (o.layout == "replicated" && !o.checkpointDir.empty())
            return bad("--layout replicated keeps no checkpoints (a slice per rank is the partitioned layout's)");
        if (runsReplicated<T, P>(net, o)) return enumerateReplicated<T, P>(net, o, argv[0]);
        return enumerateWith<T, P, LevelBits>(net, o, argv[0]);
    } else {
        if (o.layout == "replicated" && !o.checkpointDir.empty())
            return bad("--layout replicated keeps no checkpoints (a slice per rank is the partitioned layout's)");
        if (runsReplicated<T, P>(net, o)) return enumerateReplicated<T, P>(net, o, argv[0]);
        return o.table ? enumerateWith<T, P, DepthNibbles>(net, o, argv[0]) : enumerateWith<T, P, LevelBits>(net, o, argv[0]);
    }
}

// run(net) on this process's transport (MPI_COMM_WORLD, built with
// PZ_WITH_MPI); an exception on any rank ends every rank.
template <class Run>
int onTransport(int argc, char** argv, Run&& run) {
#ifdef PZ_WITH_MPI
    MpiTransport net(&argc, &argv);
#else
    LocalTransport net;
#endif
    try {
        return run(net, argc, argv);
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": error: " << e.what() << "\n";
        net.abortAll(1);
    }
}

template <class T, class P>
int enumerateMain(int argc, char** argv) {
    return onTransport(argc, argv, [](auto& net, int n, char** args) { return enumerateRun<T, P>(net, n, args); });
}

// A projected coset pattern's table (pzc enumerate --pattern P --table;
// note [projected tables across ranks] in pz/tables/projected_coset.hpp):
// the space is a projection of a coordinate too big to walk, so the table
// is built as the solver builds it, the ranks sharing its depth-first step.
// Rank 0 writes the file the solver loads and prints its entries per distance.
template <class T, class Transport>
int projectedTableRun(Transport& net, const CosetPatternSpec& spec, int argc, char** argv) {
    EnumerateOptions o;
    o.tableDir = cacheDirectory() + "/tables";
    o.space = "pattern " + spec.name;
    const bool root = net.rank() == 0;
    auto bad = [&](const std::string& msg) {
        if (root) std::cerr << argv[0] << ": error: " << msg << "\n";
        return 2;
    };
    if (auto code = parseEnumerateOptions(argc, argv, root, o)) return *code;
    if (!o.table) return bad("'" + spec.name + "' is a projected coset pattern: its space is not walked, its table is built (--table)");
    if (o.layout != "auto" || o.exchange != "auto")
        return bad("a projected coset pattern's table has no --layout or --exchange to choose: every rank holds it whole "
                   "(note [projected tables across ranks])");
    if (!o.checkpointDir.empty() || o.farthest || o.maxDepth != ~0u || o.expect)
        return bad("a projected coset pattern's table is not built level by level: --checkpoint, --resume, --farthest, "
                   "--max-depth and --expect do not apply");
    const int threads = threadsPerRank(net, o);
    // The build's progress on rank 0 with --progress only, as the BFS's.
    const ProgressSink silent{[](const BuildProgress&) {}, nullptr};
    std::optional<ProgressScope> quiet;
    if (!root || !o.progress) quiet.emplace(&silent);
    CosetPattern<T> pattern(spec);
    const ProjectedShare share{net.rank(), net.ranks(), [&](uint64_t* w, uint64_t n) { net.reduceMinNibbles(w, n); },
                               [&](bool over) { return net.firstWhere(over); }};
    std::string path, why;
    const auto start = std::chrono::steady_clock::now();
    bool written = false;
    try {
        written = pattern.buildAcrossRanks(o.tableDir, threads, share, path, why);
    } catch (const StoppedByAnotherRank&) {
        return 1;
    } catch (const MemoryBudgetError& e) {
        std::cerr << argv[0] << ": error: " << e.what() << (root ? "" : " (rank " + std::to_string(net.rank()) + ")")
                  << "\n";
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const uint64_t exchanged = net.sum(net.bytesSent());
    if (!root) return 0;
    if (!written) {
        std::cerr << argv[0] << ": error: cannot write the table: " << why << "\n";
        return 1;
    }
    const auto sum = pattern.summary();
    size_t deepest = 0;
    for (size_t d = 0; d < sum.counts.size(); ++d)
        if (sum.counts[d]) deepest = d;
    std::ostringstream out;
    if (o.json) {
        out << "{\"puzzle\": \"" << T::kName << "\", \"space\": \"" << o.space << "\", \"entries\": " << sum.entries
            << ", \"classes\": " << sum.classes << ", \"ranks\": " << net.ranks() << ", \"threads\": " << threads
            << ", \"depths\": [";
        for (size_t d = 0; d <= deepest; ++d) out << (d ? ", " : "") << sum.counts[d];
        out << "], \"exact_depth\": ";
        if (sum.exactDepth >= 0) out << sum.exactDepth;
        else out << "null";
        out << ", \"seconds\": " << seconds << ", \"bytes_exchanged\": " << exchanged << ", \"table\": \"" << path << "\"}\n";
    } else {
        out << T::kName << " " << o.space << " (projected coset table): " << sum.entries << " entries (" << sum.classes
            << " classes), " << net.ranks() << " rank(s) x " << threads << " thread(s)\n";
        for (size_t d = 0; d <= deepest; ++d) out << "depth " << d << ": " << sum.counts[d] << "\n";
        out << "entries: " << sum.entries << "\n";
        if (sum.exactDepth >= 0)
            out << "exact up to depth " << sum.exactDepth << ": " << sum.counts[static_cast<size_t>(sum.exactDepth) + 1]
                << " entries farther, read as " << sum.exactDepth + 1 << "\n";
        else
            out << "every entry exact\n";
        char line[160];
        std::snprintf(line, sizeof line, "time: %.3f s; exchanged %s\n", seconds, formatBytes(exchanged).c_str());
        out << line << "table: " << path << "\n";
    }
    std::cout << out.str() << std::flush;
    return 0;
}

// The coset space of traits T's one coset pattern (pzc enumerate --coset H;
// note [coset spaces] in coset_space.hpp), or with --table its symmetry
// classes, whose distances are the pattern's table (note [coset class
// spaces] in coset_classes.hpp).
template <class T>
int enumerateCosetMain(int argc, char** argv) {
    const std::vector<CosetPatternSpec> patterns = T::cosetPatterns();
    if (patterns.size() != 1) {
        std::cerr << argv[0] << ": internal error: a coset enumerator needs one coset pattern, not " << patterns.size() << "\n";
        return 3;
    }
    if (!patterns[0].kept.empty())
        return onTransport(argc, argv, [&](auto& net, int n, char** args) {
            return projectedTableRun<T>(net, patterns[0], n, args);
        });
    bool table = false;
    for (int i = 1; i < argc; ++i) table = table || std::string(argv[i]) == "--table";
    try {
        if (table) {
            CosetClasses<T>::describe(patterns[0]);
            return enumerateMain<CosetClassMoves<T>, CosetClasses<T>>(argc, argv);
        }
        CosetCoordinate<T>::describe(patterns[0]);
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": error: " << e.what() << "\n";
        return 1;
    }
    return enumerateMain<CosetMoves<T>, CosetCoordinate<T>>(argc, argv);
}

}  // namespace pz::enumerate
