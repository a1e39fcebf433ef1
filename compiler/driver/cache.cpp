// The cache's bookkeeping (note [cache metadata] in cache.hpp).
#include "compiler/driver/cache.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/content_hash.hpp"
#include "compiler/driver/native_build.hpp"
#include "compiler/driver/solver_index.hpp"
#include "pz/support/memory.hpp"

namespace fs = std::filesystem;

namespace pz::driver {

namespace {

constexpr const char* kMetaMagic = "pzc-cache-meta 1";

const int64_t kStart = static_cast<int64_t>(::time(nullptr));

// A line value that cannot break the line format.
bool lineSafe(const std::string& s) { return s.find_first_of("\n\r\t") == std::string::npos; }

std::string readSmallFile(const fs::path& p, size_t limit = 1 << 20) {
    std::ifstream in(p, std::ios::binary);
    std::string text;
    char buf[4096];
    while (in && text.size() < limit) {
        in.read(buf, sizeof buf);
        text.append(buf, static_cast<size_t>(in.gcount()));
    }
    return text;
}

int64_t mtimeOf(const fs::path& p) {
    struct stat st{};
    if (::stat(p.c_str(), &st) != 0) return 0;
    return static_cast<int64_t>(st.st_mtime);
}

uint64_t sizeOf(const fs::path& p) {
    struct stat st{};
    if (::lstat(p.c_str(), &st) != 0) return 0;
    return static_cast<uint64_t>(st.st_size);
}

// "<name>.<pid>.<suffix>"-style temporaries: the pid, else 0.
long tempPid(const std::string& name) {
    // bin: KEY.PID.cpp, KEY.PID.tmp, KEY.stamp.PID.tmp; index: KEY.PID.tmp;
    // tables: NAME.pzt.tmp.PID.
    auto digits = [](const std::string& s) {
        return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
    };
    std::vector<std::string> parts;
    std::stringstream ss(name);
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    if (parts.size() >= 3 && parts[parts.size() - 2] == "tmp" && digits(parts.back())) return std::stol(parts.back());
    if (parts.size() >= 3 && (parts.back() == "tmp" || parts.back() == "cpp") && digits(parts[parts.size() - 2]))
        return std::stol(parts[parts.size() - 2]);
    return 0;
}

bool processAlive(long pid) { return pid > 0 && !(::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH); }

// Whether another process holds a lock on `path` (an exclusive lock fails).
bool lockedByOthers(const fs::path& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return false;
    bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return locked;
}

struct Meta {
    std::map<std::string, std::string> fields;
    bool has(const std::string& k) const { return fields.count(k) != 0; }
    std::string get(const std::string& k) const {
        auto it = fields.find(k);
        return it == fields.end() ? "" : it->second;
    }
};

// "key value" lines after the magic line (index entries: after "end").
std::optional<Meta> parseMeta(const std::string& text, bool afterEnd) {
    std::istringstream in(text);
    std::string line;
    if (afterEnd) {
        bool found = false;
        while (std::getline(in, line))
            if (line == "end") {
                found = true;
                break;
            }
        if (!found) return std::nullopt;
        if (!std::getline(in, line) || line != kMetaMagic) return std::nullopt;
    } else if (!std::getline(in, line) || line != kMetaMagic) {
        return std::nullopt;
    }
    Meta m;
    while (std::getline(in, line)) {
        size_t sp = line.find(' ');
        if (sp == std::string::npos) continue;
        m.fields[line.substr(0, sp)] = line.substr(sp + 1);
    }
    if (!m.has("pzc") || !m.has("runtime")) return std::nullopt;
    return m;
}

std::vector<int>& pinnedFds() {
    static std::vector<int> fds;
    return fds;
}

// The judge of current-ness: the running pzc's identity and the
// definitions' bytes (each read once).
struct Judge {
    std::string buildId = pzcBuildId();
    std::string runtime = runtimeHeadersDigest();
    std::map<std::string, std::optional<std::string>> hashes;

    std::optional<std::string> definitionHash(const std::string& path) {
        auto it = hashes.find(path);
        if (it != hashes.end()) return it->second;
        std::ifstream in(path, std::ios::binary);
        std::optional<std::string> h;
        if (in) h = contentHash(std::string(std::istreambuf_iterator<char>(in), {}));
        return hashes[path] = h;
    }
    // Empty: current; else why not.
    std::string verdict(const Meta& m) {
        if (m.get("pzc") != buildId) return "built by another pzc";
        if (m.get("runtime") != runtime) return "built against other runtime headers";
        if (m.has("definition")) {
            auto h = definitionHash(m.get("definition"));
            if (!h) return "its definition " + m.get("definition") + " is gone";
            if (*h != m.get("definition-hash")) return "its definition " + m.get("definition") + " has changed";
        }
        return "";
    }
};

bool removeFileLocked(const fs::path& path, std::string& why) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT) return true;
        // A symlink or unreadable file: removed without a lock.
        std::error_code ec;
        fs::remove(path, ec);
        if (ec) why = ec.message();
        return !ec;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        why = "in use";
        return false;
    }
    bool ok = ::unlink(path.c_str()) == 0 || errno == ENOENT;
    if (!ok) why = std::strerror(errno);
    ::close(fd);
    return ok;
}

}  // namespace

int64_t processStartTime() { return kStart; }

const char* statusName(EntryStatus s) {
    switch (s) {
        case EntryStatus::Current: return "current";
        case EntryStatus::Pending: return "pending";
        case EntryStatus::Unknown: return "unknown";
        case EntryStatus::Stale: return "stale";
    }
    return "?";
}

std::string cacheMetaText(const SolverOrigin* o) {
    std::string text = std::string(kMetaMagic) + "\npzc " + pzcBuildId() + "\nruntime " + runtimeHeadersDigest() + "\n";
    if (o && lineSafe(o->variant) && lineSafe(o->definition) && lineSafe(o->definitionHash))
        text += "variant " + o->variant + "\ndefinition-hash " + o->definitionHash + "\ndefinition " + o->definition + "\n";
    return text;
}

void recordBinaryUse(const std::string& bin, const SolverOrigin* origin) {
    static std::set<std::string> done;  // at most once a process for each (binary, origin)
    if (!done.insert(bin + "\n" + (origin ? origin->definitionHash + origin->variant + origin->definition : "")).second)
        return;
    const fs::path meta = bin + ".meta";
    if (!origin) {
        if (auto m = parseMeta(readSmallFile(meta), false);
            m && m->get("pzc") == pzcBuildId() && m->get("runtime") == runtimeHeadersDigest()) {
            ::utimensat(AT_FDCWD, meta.c_str(), nullptr, 0);
            return;
        }
    }
    const fs::path tmp = bin + ".meta." + std::to_string(::getpid()) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << cacheMetaText(origin);
        if (!out.flush()) {
            out.close();
            std::error_code ec;
            fs::remove(tmp, ec);
            return;
        }
    }
    std::error_code ec;
    fs::rename(tmp, meta, ec);
    if (ec) fs::remove(tmp, ec);
}

void setCacheUser(const SolverOrigin& o) {
    if (!lineSafe(o.definition) || !lineSafe(o.variant)) return;
    ::setenv("PZC_CACHE_USER", (o.definitionHash + "\t" + o.variant + "\t" + o.definition).c_str(), 1);
}

bool pinCacheFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    // Blocking: a remover holds its exclusive lock only while it unlinks.
    while (::flock(fd, LOCK_SH) != 0 && errno == EINTR) {
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0 || st.st_nlink == 0) {  // removed before we locked it
        ::close(fd);
        return false;
    }
    pinnedFds().push_back(fd);
    return true;
}

namespace {

// One scan of the cache (scanCache): binaries first, since index entries
// and tables are judged by the binaries they name.
class CacheScanner {
public:
    std::vector<CacheEntry> scan() {
        scanBinaries();
        scanIndex();
        scanTables();
        scanPrecompiled();
        std::stable_sort(entries_.begin(), entries_.end(),
                         [](const CacheEntry& a, const CacheEntry& b) { return a.lastUse < b.lastUse; });
        return std::move(entries_);
    }

private:
    struct CurrentSolver {
        std::string definition, hash, variant;
        bool operator<(const CurrentSolver& o) const {
            return std::tie(definition, hash, variant) < std::tie(o.definition, o.hash, o.variant);
        }
    };

    static std::vector<std::string> listDir(const fs::path& dir) {
        std::vector<std::string> names;
        std::error_code e;
        for (fs::directory_iterator it(dir, e), end; !e && it != end; it.increment(e)) {
            std::error_code t;
            if (it->symlink_status(t).type() == fs::file_type::directory) continue;  // not pzc's
            names.push_back(it->path().filename().string());
        }
        std::sort(names.begin(), names.end());
        return names;
    }

    void addTemp(const fs::path& file, long pid) {
        if (processAlive(pid)) return;  // a live writer's: never touched
        addStaleFile("temp", file, "a temporary file of a dead writer");
    }

    // One file that is stale on its own (a dead writer's, an orphan sidecar).
    void addStaleFile(const char* kind, const fs::path& file, const char* why) {
        CacheEntry e;
        e.kind = kind;
        e.name = file.filename().string();
        e.files = {file.string()};
        e.bytes = sizeOf(file);
        e.lastUse = mtimeOf(file);
        e.status = EntryStatus::Stale;
        e.why = why;
        entries_.push_back(std::move(e));
    }

    // Binaries: grouped by key (the name up to its first dot).
    void scanBinaries() {
        std::map<std::string, std::vector<std::string>> groups;
        for (const auto& name : listDir(binDir_)) {
            if (long pid = tempPid(name)) {
                addTemp(binDir_ / name, pid);
                continue;
            }
            groups[name.substr(0, name.find('.'))].push_back(name);
        }
        for (auto& [key, names] : groups) addBinary(key, names);
    }

    void addBinary(const std::string& key, const std::vector<std::string>& names) {
        std::error_code ec;
        CacheEntry e;
        e.kind = "binary";
        e.name = key;
        const fs::path bin = binDir_ / key;
        bool hasBinary = std::find(names.begin(), names.end(), key) != names.end();
        if (hasBinary) e.files.push_back(bin.string());
        for (const auto& n : names)
            if (n != key) e.files.push_back((binDir_ / n).string());
        for (const auto& f : e.files) e.bytes += sizeOf(f);
        e.solver = key.substr(0, key.rfind('-'));
        e.lastUse = mtimeOf(fs::exists(bin.string() + ".meta", ec) ? fs::path(bin.string() + ".meta") : bin);
        if (!hasBinary) {
            e.status = EntryStatus::Stale;
            e.lastUse = mtimeOf(e.files.front());
            e.why = "left over without its binary";
        } else if (auto m = parseMeta(readSmallFile(bin.string() + ".meta"), false)) {
            e.definition = m->get("definition");
            if (m->has("variant")) e.solver += " (" + m->get("variant") + ")";
            e.why = judge_.verdict(*m);
            e.status = e.why.empty() ? EntryStatus::Current : EntryStatus::Stale;
            if (e.status == EntryStatus::Current && m->has("definition"))
                currentSolvers_.insert({m->get("definition"), m->get("definition-hash"), m->get("variant")});
        } else {
            e.status = EntryStatus::Unknown;
            e.why = "no metadata (an older pzc)";
        }
        e.inUse = hasBinary && lockedByOthers(bin);
        binaryAt_[key] = entries_.size();
        entries_.push_back(std::move(e));
    }

    // Index entries: current while their metadata and their binary are.
    void scanIndex() {
        const fs::path indexDir = root_ / "index";
        for (const auto& name : listDir(indexDir)) {
            const fs::path file = indexDir / name;
            if (long pid = tempPid(name)) {
                addTemp(file, pid);
                continue;
            }
            CacheEntry e;
            e.kind = "index";
            e.name = name;
            e.files = {file.string()};
            e.bytes = sizeOf(file);
            e.lastUse = mtimeOf(file);
            const std::string text = readSmallFile(file);
            std::string binary;
            {
                std::istringstream in(text);
                std::string line;
                std::getline(in, line);
                if (std::getline(in, line) && line.rfind("binary ", 0) == 0) binary = line.substr(7);
                else e.solver = "numbers";
            }
            if (auto m = parseMeta(text, true)) {
                e.definition = m->get("definition");
                if (m->has("variant")) e.solver = (binary.empty() ? "numbers: " : "") + m->get("variant");
                e.why = judge_.verdict(*m);
                if (e.why.empty() && !binary.empty()) e.why = binaryVerdict(binary);
                e.status = e.why.empty() ? EntryStatus::Current : EntryStatus::Stale;
            } else {
                // Index entries are only shortcuts: one without metadata is stale.
                e.status = EntryStatus::Stale;
                e.why = "no metadata (an older pzc)";
            }
            entries_.push_back(std::move(e));
        }
    }

    // Why an index entry naming `binary` is stale ("" when it is not).
    std::string binaryVerdict(const std::string& binary) const {
        auto it = binaryAt_.find(binary);
        if (it == binaryAt_.end() || entries_[it->second].files.empty() ||
            entries_[it->second].files.front() != (binDir_ / binary).string())
            return "its binary " + binary + " is gone";
        if (entries_[it->second].status == EntryStatus::Stale) return "its binary " + binary + " is stale";
        return "";
    }

    // Tables, with their use sidecars (NAME.pzt.used).
    void scanTables() {
        const fs::path tableDir = root_ / "tables";
        std::error_code binEc;
        binCanonical_ = fs::weakly_canonical(binDir_, binEc);
        std::vector<std::string> names = listDir(tableDir);
        std::set<std::string> present(names.begin(), names.end());
        for (const auto& name : names) {
            const fs::path file = tableDir / name;
            if (long pid = tempPid(name)) {
                addTemp(file, pid);
                continue;
            }
            const bool sidecar = name.size() > 5 && name.compare(name.size() - 5, 5, ".used") == 0;
            if (!sidecar) {
                addTable(file, present.count(name + ".used") != 0);
            } else if (!present.count(name.substr(0, name.size() - 5))) {
                addStaleFile("table", file, "a sidecar without its table");
            }
        }
    }

    // Precompiled runtime headers (note [precompiled runtime] in
    // native_build.cpp): a folder each, named by the runtime digest it was
    // built from; current while that is this pzc's runtime.
    void scanPrecompiled() {
        const fs::path pchDir = root_ / "pch";
        std::error_code e;
        const std::string current = runtimeHeadersDigest().substr(0, 16) + "-";
        for (fs::directory_iterator it(pchDir, e), end; !e && it != end; it.increment(e)) {
            std::error_code t;
            if (it->symlink_status(t).type() != fs::file_type::directory) continue;
            CacheEntry entry;
            entry.kind = "pch";
            entry.name = it->path().filename().string();
            const fs::path gch = it->path() / "pz_runtime.hpp.gch";
            for (const auto& name : listDir(it->path())) {
                entry.files.push_back((it->path() / name).string());
                entry.bytes += sizeOf(it->path() / name);
            }
            // The .gch first (it is the entry's main file), the folder last.
            std::stable_partition(entry.files.begin(), entry.files.end(),
                                  [&](const std::string& f) { return f == gch.string(); });
            entry.files.push_back(it->path().string());
            entry.lastUse = mtimeOf(fs::exists(gch, t) ? gch : it->path());
            const bool fresh = entry.name.rfind(current, 0) == 0;
            entry.status = fresh ? EntryStatus::Current : EntryStatus::Stale;
            entry.why = fresh ? "" : "precompiled from other runtime headers";
            entries_.push_back(std::move(entry));
        }
    }

    void addTable(const fs::path& file, bool hasUsed) {
        const std::string name = file.filename().string();
        CacheEntry e;
        e.kind = "table";
        e.name = name;
        e.files = {file.string()};
        const fs::path used = file.string() + ".used";
        if (hasUsed) e.files.push_back(used.string());
        for (const auto& f : e.files) e.bytes += sizeOf(f);
        e.lastUse = mtimeOf(hasUsed ? used : file);
        const std::string stem =
            name.size() > 4 && name.compare(name.size() - 4, 4, ".pzt") == 0 ? name.substr(0, name.size() - 4) : name;
        e.solver = stem.substr(0, stem.rfind('-'));
        e.inUse = lockedByOthers(file);
        if (!hasUsed) {
            e.status = EntryStatus::Unknown;
            e.why = "no metadata (not used since an older pzc)";
        } else {
            judgeTable(e, used);
        }
        entries_.push_back(std::move(e));
    }

    // A table is current when a current binary (or a program outside the
    // cache that still exists) used it; pending when a definition that still
    // has its bytes has no current solver yet; else stale.
    void judgeTable(CacheEntry& e, const fs::path& used) {
        // Each line: "<executable>\t<hash>\t<variant>\t<definition>" (the
        // last three empty when the solver was not run by pzc solve).
        std::istringstream in(readSmallFile(used, 64 << 10));
        bool current = false, pending = false;
        std::string pendingDef;
        std::set<std::string> definitions;
        for (std::string line; std::getline(in, line);) {
            std::vector<std::string> f;
            size_t at = 0;
            for (int i = 0; i < 3; ++i) {
                size_t tab = line.find('\t', at);
                if (tab == std::string::npos) break;
                f.push_back(line.substr(at, tab - at));
                at = tab + 1;
            }
            f.push_back(line.substr(at));
            std::string exe = f[0];
            const bool deleted = exe.size() > 10 && exe.compare(exe.size() - 10, 10, " (deleted)") == 0;
            if (deleted) exe.resize(exe.size() - 10);
            const fs::path exePath(exe);
            std::error_code pe;
            const bool inCache =
                fs::weakly_canonical(exePath.parent_path(), pe) == binCanonical_ && !binCanonical_.empty();
            if (f.size() == 4 && !f[3].empty()) definitions.insert(f[3]);
            if (inCache) {
                auto it = binaryAt_.find(exePath.filename().string());
                if (!deleted && it != binaryAt_.end() && entries_[it->second].status == EntryStatus::Current &&
                    fs::exists(exePath, pe))
                    current = true;
            } else if (!deleted && fs::exists(exePath, pe)) {
                current = true;  // a program outside the cache (pzc build -o): kept while it exists
                e.why = "used by " + exe;
            }
            if (f.size() == 4 && !f[3].empty()) {
                auto h = judge_.definitionHash(f[3]);
                if (h && *h == f[1] && !currentSolvers_.count({f[3], f[1], f[2]})) {
                    pending = true;
                    pendingDef = f[3];
                }
            }
        }
        if (!definitions.empty())
            e.definition = *definitions.begin() +
                           (definitions.size() > 1 ? " (+" + std::to_string(definitions.size() - 1) + ")" : "");
        if (current) {
            e.status = EntryStatus::Current;
        } else if (pending) {
            e.status = EntryStatus::Pending;
            e.why = "the current pzc has no solver for " + pendingDef + " yet; kept until one has run";
        } else {
            e.status = EntryStatus::Stale;
            e.why = "no current program uses it";
        }
    }

    const fs::path root_ = cacheDirectory();
    const fs::path binDir_ = root_ / "bin";
    fs::path binCanonical_;
    Judge judge_;
    std::vector<CacheEntry> entries_;
    std::map<std::string, size_t> binaryAt_;  // key -> index in entries_
    std::set<CurrentSolver> currentSolvers_;
};

}  // namespace

std::vector<CacheEntry> scanCache() { return CacheScanner().scan(); }

bool removeCacheEntry(const CacheEntry& entry, std::string& why) {
    // The main file under an exclusive lock first: in use, nothing is removed.
    if (entry.files.empty()) return true;
    if (!removeFileLocked(entry.files.front(), why)) return false;
    bool ok = true;
    for (size_t i = 1; i < entry.files.size(); ++i) {
        std::error_code ec;
        fs::remove(entry.files[i], ec);
        if (ec) ok = false, why = ec.message();
    }
    return ok;
}

uint64_t evictToFit(std::vector<CacheEntry>& entries, uint64_t limit, int64_t since, bool dryRun,
                    std::vector<CacheEntry>& removed, std::vector<std::string>& skipped) {
    uint64_t total = 0;
    for (const auto& e : entries) total += e.bytes;
    // Oldest use first (scanCache's order); index entries follow their binaries.
    for (auto& e : entries) {
        if (total <= limit) break;
        if (e.kind == "index" || e.bytes == 0) continue;
        if (e.lastUse >= since) {
            skipped.push_back(e.name + ": used by this command");
            continue;
        }
        if (e.inUse) {
            skipped.push_back(e.name + ": in use");
            continue;
        }
        std::string why;
        if (!dryRun && !removeCacheEntry(e, why)) {
            skipped.push_back(e.name + ": " + why);
            continue;
        }
        total -= e.bytes;
        removed.push_back(e);
        e.bytes = 0;
    }
    return total;
}

void enforceCacheCapFromEnvironment() {
    const char* v = std::getenv("PZC_CACHE_MAX_SIZE");
    if (!v || !*v) return;
    auto limit = parseMemorySize(v);
    if (!limit) {
        std::cerr << "pzc: warning: PZC_CACHE_MAX_SIZE='" << v << "' is not a size (e.g. 2G, 512M); ignored\n";
        return;
    }
    auto entries = scanCache();
    std::vector<CacheEntry> removed;
    std::vector<std::string> skipped;
    // Everything this command used (a sidecar touched since pzc started) stays.
    uint64_t total = evictToFit(entries, *limit, processStartTime(), false, removed, skipped);
    if (total > *limit)
        std::cerr << "pzc: note: the cache holds " << formatBytes(total) << ", over PZC_CACHE_MAX_SIZE=" << v
                  << ", but the rest is in use\n";
}

}  // namespace pz::driver
