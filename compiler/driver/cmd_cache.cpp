// pzc cache list|prune|clear: what the cache ($PZC_CACHE_DIR) holds, and
// removing what no current key names (note [cache metadata] in cache.hpp).
#include <algorithm>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "compiler/driver/cache.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/options.hpp"
#include "pz/support/memory.hpp"

namespace pz::driver {

namespace {

constexpr const char* kUsage =
    "usage: pzc cache list [--json]\n"
    "       pzc cache prune [--dry-run] [--max-size SIZE]\n"
    "       pzc cache clear [--dry-run]\n"
    "\n"
    "The cache is $PZC_CACHE_DIR (else $XDG_CACHE_HOME/pzc, else ~/.cache/pzc).\n"
    "  list   every cached solver binary, solver index entry and table: its status\n"
    "         (current, pending, unknown, stale), size, last use, solver or pattern,\n"
    "         definition; totals at the end\n"
    "  prune  remove the stale entries (no current key names them); with --max-size\n"
    "         SIZE (2G, 512M, ...) then the least recently used ones until the cache fits\n"
    "  clear  remove every entry\n"
    "Files in use (a solver's mapped table, a binary pzc is running) are never removed.\n"
    "$PZC_CACHE_MAX_SIZE=SIZE: after each pzc solve, solve-dir and build, the least\n"
    "recently used entries are removed until the cache fits (README, \"The cache\").\n";

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
        else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += static_cast<char>(c);
    }
    return out + "\"";
}

std::string when(int64_t t) {
    if (t <= 0) return "-";
    std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    ::localtime_r(&tt, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
    return buf;
}

std::string describe(const CacheEntry& e) {
    std::string text = e.kind + " " + e.name + " (" + formatBytes(e.bytes) + ")";
    return text;
}

int list(bool json) {
    auto entries = scanCache();
    uint64_t total = 0;
    uint64_t bytesBy[4] = {}, countBy[4] = {};
    for (const auto& e : entries) {
        total += e.bytes;
        bytesBy[static_cast<int>(e.status)] += e.bytes;
        ++countBy[static_cast<int>(e.status)];
    }
    const EntryStatus all[] = {EntryStatus::Current, EntryStatus::Pending, EntryStatus::Unknown, EntryStatus::Stale};
    if (json) {
        std::cout << "{\"cache\": " << jsonString(cacheDirectory()) << ", \"entries\": [";
        for (size_t i = 0; i < entries.size(); ++i) {
            const auto& e = entries[i];
            std::cout << (i ? ",\n  " : "\n  ") << "{\"kind\": " << jsonString(e.kind) << ", \"name\": " << jsonString(e.name)
                      << ", \"status\": " << jsonString(statusName(e.status)) << ", \"bytes\": " << e.bytes
                      << ", \"last-use\": " << e.lastUse << ", \"in-use\": " << (e.inUse ? "true" : "false")
                      << ", \"solver\": " << jsonString(e.solver) << ", \"definition\": " << jsonString(e.definition)
                      << ", \"why\": " << jsonString(e.why) << ", \"path\": " << jsonString(e.files.front()) << "}";
        }
        std::cout << (entries.empty() ? "" : "\n") << "], \"total-bytes\": " << total;
        for (auto s : all)
            std::cout << ", \"" << statusName(s) << "\": {\"entries\": " << countBy[static_cast<int>(s)]
                      << ", \"bytes\": " << bytesBy[static_cast<int>(s)] << "}";
        std::cout << "}\n";
        return 0;
    }
    std::cout << "cache " << cacheDirectory() << "\n";
    for (const auto& e : entries) {
        std::cout << std::left << std::setw(8) << statusName(e.status) << std::setw(7) << e.kind << std::right
                  << std::setw(11) << formatBytes(e.bytes) << "  " << when(e.lastUse) << "  " << e.name;
        std::string info;
        if (!e.solver.empty()) info += e.solver;
        if (!e.definition.empty()) info += (info.empty() ? "" : ", ") + std::string("from ") + e.definition;
        if (e.inUse) info += (info.empty() ? "" : ", ") + std::string("in use");
        if (!e.why.empty() && e.status != EntryStatus::Current) info += (info.empty() ? "" : "; ") + e.why;
        if (!info.empty()) std::cout << "  [" << info << "]";
        std::cout << "\n";
    }
    std::cout << "total: " << entries.size() << " entries, " << formatBytes(total);
    for (auto s : all)
        std::cout << "; " << statusName(s) << ": " << countBy[static_cast<int>(s)] << ", "
                  << formatBytes(bytesBy[static_cast<int>(s)]);
    std::cout << "\n";
    return 0;
}

// Removes `entries` (or says what it would remove); in-use ones are kept.
int removeAll(const std::vector<CacheEntry>& entries, bool dryRun, const char* reasonPrefix, uint64_t& removedBytes,
              size_t& removedCount) {
    int rc = 0;
    for (const auto& e : entries) {
        if (e.inUse) {
            std::cout << "kept " << describe(e) << ": in use\n";
            continue;
        }
        std::string why;
        if (!dryRun && !removeCacheEntry(e, why)) {
            std::cout << "kept " << describe(e) << ": " << why << "\n";
            if (why != "in use") rc = 1;
            continue;
        }
        std::cout << (dryRun ? "would remove " : "removed ") << describe(e);
        if (*reasonPrefix) std::cout << ": " << reasonPrefix;
        else if (!e.why.empty()) std::cout << ": " << e.why;
        std::cout << "\n";
        removedBytes += e.bytes;
        ++removedCount;
    }
    return rc;
}

}  // namespace

int runCache(const Args& args) {
    std::vector<std::string> words;
    bool json = false, dryRun = false;
    std::string maxSize;
    OptionParser options("cache", kUsage);
    options.positionals(words, 1, 1, "list|prune|clear").flag("--json", json).flag("--dry-run", dryRun).value("--max-size", maxSize);
    if (auto rc = options.parse(args)) return *rc;
    const std::string& sub = words[0];
    if (sub != "list" && sub != "prune" && sub != "clear")
        return options.fail("unknown cache command '" + sub + "' (list, prune or clear)");
    if (json && sub != "list") return options.fail("--json is an option of 'pzc cache list'");
    if (dryRun && sub == "list") return options.fail("--dry-run is an option of 'pzc cache prune' and 'clear'");
    if (options.given("--max-size") && sub != "prune") return options.fail("--max-size is an option of 'pzc cache prune'");
    std::optional<uint64_t> limit;
    if (options.given("--max-size")) {
        limit = parseMemorySize(maxSize);
        if (!limit) return options.fail("--max-size needs a size such as 2G, 512M or 100K, not '" + maxSize + "'");
    }
    if (sub == "list") return list(json);

    auto entries = scanCache();
    uint64_t removedBytes = 0, total = 0;
    size_t removedCount = 0;
    for (const auto& e : entries) total += e.bytes;
    int rc = 0;
    if (sub == "clear") {
        rc = removeAll(entries, dryRun, "", removedBytes, removedCount);
    } else {
        std::vector<CacheEntry> stale, rest;
        for (auto& e : entries) (e.status == EntryStatus::Stale ? stale : rest).push_back(e);
        rc = removeAll(stale, dryRun, "", removedBytes, removedCount);
        for (const auto& e : stale)
            if (e.inUse) rest.push_back(e);
        if (limit) {
            std::vector<CacheEntry> evicted;
            std::vector<std::string> skipped;
            // Least recently used first; nothing is "used by this command".
            std::stable_sort(rest.begin(), rest.end(),
                             [](const CacheEntry& a, const CacheEntry& b) { return a.lastUse < b.lastUse; });
            // Entries already counted as removed are not in `rest`.
            uint64_t left = total - removedBytes;
            uint64_t restBytes = 0;
            for (const auto& e : rest) restBytes += e.bytes;
            // Bytes outside `rest` (none, normally) still count against the cap.
            const uint64_t outside = left - restBytes;
            const uint64_t cap = *limit > outside ? *limit - outside : 0;
            uint64_t after = evictToFit(rest, cap, std::numeric_limits<int64_t>::max(), dryRun, evicted, skipped);
            for (const auto& e : evicted) {
                std::cout << (dryRun ? "would remove " : "removed ") << describe(e) << ": least recently used ("
                          << when(e.lastUse) << "), over --max-size " << maxSize << "\n";
                removedBytes += e.bytes;
                ++removedCount;
            }
            for (const auto& s : skipped) std::cout << "kept " << s << "\n";
            if (after + outside > *limit)
                std::cout << "note: the cache still holds " << formatBytes(after + outside) << ", over --max-size "
                          << maxSize << ": the rest is in use\n";
        }
    }
    std::cout << (dryRun ? "would remove " : "removed ") << removedCount << " entries, " << formatBytes(removedBytes)
              << "; the cache " << (dryRun ? "would hold " : "holds ") << formatBytes(total - removedBytes) << "\n";
    return rc;
}

}  // namespace pz::driver
