// Korf's 100 random 15-puzzle instances (korf100.txt: id, optimal length,
// IDA*-with-Manhattan nodes of Korf 1985, the 16 cells) solved with the 7-8
// additive tables + the reflected lookup (Felner, Korf & Hanan 2004: 36,710
// nodes per instance on average), one thread; then Manhattan only on the
// instances whose published Manhattan search was small.
//   bench_fifteen [--table-dir DIR] [--threads T] [--only N] [--md-limit NODES] [--no-md] [--no-lookahead]
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pz/blocks/tiles.hpp"
#include "tiles_fixtures.hpp"

using namespace pz::blocks;

namespace {
struct Instance {
    int id = 0, length = 0;
    unsigned long long mdNodes = 0;
    std::string cells;
};
long rssPeakKiB() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}
std::string loadAverage() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a + " " + b + " " + c;
}
}  // namespace

int main(int argc, char** argv) {
    std::string tableDir = pz::cacheDirectory() + "/tables";
    int threads = 2, only = 100;
    unsigned long long mdLimit = 20000000;
    bool md = true, lookahead = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--table-dir" && i + 1 < argc) tableDir = argv[++i];
        else if (a == "--threads" && i + 1 < argc) threads = std::stoi(argv[++i]);
        else if (a == "--only" && i + 1 < argc) only = std::stoi(argv[++i]);
        else if (a == "--md-limit" && i + 1 < argc) mdLimit = std::stoull(argv[++i]);
        else if (a == "--no-md") md = false;
        else if (a == "--no-lookahead") lookahead = false;
        else {
            std::fprintf(stderr, "usage: %s [--table-dir DIR] [--threads T] [--only N] [--md-limit NODES] [--no-md] [--no-lookahead]\n", argv[0]);
            return 2;
        }
    }
    std::vector<Instance> instances;
    std::ifstream in(PZ_KORF100);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream s(line);
        Instance k;
        s >> k.id >> k.length >> k.mdNodes;
        std::getline(s, k.cells);
        instances.push_back(k);
    }
    if (static_cast<int>(instances.size()) > only) instances.resize(static_cast<size_t>(only));
    std::printf("load average at start: %s\n", loadAverage().c_str());

    using T = tiles_fixtures::Fifteen78;
    TileTables<T> tables;
    tables.loadOrBuild(tableDir, threads);
    std::printf("7-8 tables: %s (%llu bytes), %s in %.2f s on %d threads; peak RSS %.1f MiB\n",
                pz::formatBytes(tables.bytes()).c_str(), static_cast<unsigned long long>(tables.bytes()),
                tables.loadedFromCache() ? "loaded and verified" : "built", tables.loadedFromCache() ? tables.loadSeconds() : tables.buildSeconds(),
                threads, rssPeakKiB() / 1024.0);
    for (int p = 0; p < T::kPatterns; ++p) {
        const auto counts = tables.depthCounts(p);
        double sum = 0, n = 0;
        for (size_t d = 0; d < counts.size(); ++d) sum += double(d) * double(counts[d]), n += double(counts[d]);
        unsigned largest = 0;
        for (uint64_t i = 0; i < pz::blocks::Board<T>::patterns[p].entries; ++i) largest = std::max(largest, tables.halfExcess(p, i));
        std::printf("  pattern %d: max %zu, mean %.3f; %d-bit entries (value - Manhattan) / 2, the largest %u\n", p + 1,
                    counts.size() - 1, sum / n, tables.bitsPerEntry(p), largest);
    }

    TileSolver<T> solver(&tables);
    solver.setLookahead(lookahead);
    std::printf("grandchildren prefetched: %s\n", lookahead ? "yes" : "no (--no-lookahead)");
    double totalTime = 0, maxTime = 0, totalCpu = 0, maxCpu = 0;
    unsigned long long totalNodes = 0;
    int wrong = 0;
    std::printf("%4s %4s %10s %10s %10s\n", "id", "len", "nodes", "seconds", "cpu-s");
    for (const auto& k : instances) {
        Cells<T> c;
        std::string why;
        if (!parseCells<T>(k.cells, c, why)) {
            std::printf("%4d bad instance: %s\n", k.id, why.c_str());
            return 1;
        }
        const auto r = solver.solve(c);
        const bool ok = r.solved && static_cast<int>(r.moves.size()) == k.length && replaySolves<T>(c, r.moves);
        wrong += !ok;
        totalTime += r.seconds, maxTime = std::max(maxTime, r.seconds), totalNodes += r.nodes;
        totalCpu += r.cpuSeconds, maxCpu = std::max(maxCpu, r.cpuSeconds);
        std::printf("%4d %4zu %10llu %10.6f %10.6f%s\n", k.id, r.moves.size(), static_cast<unsigned long long>(r.nodes), r.seconds, r.cpuSeconds,
                    ok ? "" : "  WRONG");
    }
    const double n = static_cast<double>(instances.size());
    std::printf("7-8 + reflection, %zu instances, 1 thread: %d wrong; mean %.0f nodes (published 36,710), "
                "wall: mean %.3f ms, max %.3f ms, %.2f M nodes/s; CPU: mean %.3f ms, max %.3f ms, %.2f M nodes/s; load average now %s\n",
                instances.size(), wrong, double(totalNodes) / n, 1000 * totalTime / n, 1000 * maxTime,
                double(totalNodes) / totalTime / 1e6, 1000 * totalCpu / n, 1000 * maxCpu, double(totalNodes) / totalCpu / 1e6,
                loadAverage().c_str());

    if (md) {
        using M = tiles_fixtures::FifteenMd;
        TileSolver<M> mds(nullptr);
        double mt = 0;
        unsigned long long mn = 0, pub = 0;
        int count = 0;
        std::printf("Manhattan only, instances with at most %llu published nodes:\n%4s %4s %12s %12s %10s\n", mdLimit, "id",
                    "len", "nodes", "published", "seconds");
        for (const auto& k : instances) {
            if (k.mdNodes > mdLimit) continue;
            Cells<M> c;
            std::string why;
            parseCells<M>(k.cells, c, why);
            const auto r = mds.solve(c);
            const bool ok = r.solved && static_cast<int>(r.moves.size()) == k.length;
            wrong += !ok;
            std::printf("%4d %4zu %12llu %12llu %10.3f%s\n", k.id, r.moves.size(), static_cast<unsigned long long>(r.nodes),
                        k.mdNodes, r.seconds, ok ? "" : "  WRONG");
            mt += r.seconds, mn += r.nodes, pub += k.mdNodes, ++count;
        }
        std::printf("Manhattan only, %d instances: %llu nodes (published %llu), %.3f s, %.2f M nodes/s\n", count, mn, pub, mt,
                    double(mn) / mt / 1e6);
    }
    return wrong == 0 ? 0 : 1;
}
