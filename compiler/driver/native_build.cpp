#include "compiler/driver/native_build.hpp"

#include "compiler/driver/cache.hpp"
#include "compiler/driver/subprocess.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace pz::driver {

std::string cacheDirectory() {
    if (const char* d = std::getenv("PZC_CACHE_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/pzc";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/pzc";
    return "/tmp/pzc-cache";
}

// note [finding the runtime]
// Generated solvers include the runtime headers (pz/*.hpp), so pzc must find
// them wherever it runs, and no path is baked into the binary: an installed
// pzc works after its prefix is moved or copied, and does not need the
// source tree. In order:
//   1. $PZC_RUNTIME_INCLUDE, when set, as it is (tests point it at copies);
//   2. <exe dir>/../include, when it holds pz/solver_main.hpp: the installed
//      layout (<prefix>/bin/pzc beside <prefix>/include/pz/), whatever the
//      prefix; <exe> is /proc/self/exe, symlinks resolved;
//   3. the build tree: CMake writes <exe dir>/pzc.runtime-include, one line
//      naming the source tree's runtime/include (compiler/driver/CMakeLists.txt).
//      It is a file beside the build's binary, not a string inside it, and it
//      is not installed, so an installed pzc never looks at the source tree.
// Nothing found is an error naming every place searched.
static constexpr const char* kRuntimeMarker = "pz/solver_main.hpp";

bool hashFileInto(const std::string& path, ContentHasher& h, uintmax_t& size) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    static thread_local char buf[1 << 16];  // reused: no fresh pages per call
    size = 0;
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            return n == 0;
        }
        h.update(buf, static_cast<size_t>(n));
        size += static_cast<uintmax_t>(n);
    }
}

std::optional<std::string> runtimeIncludeDir(std::string* searched) {
    if (const char* d = std::getenv("PZC_RUNTIME_INCLUDE"); d && *d) return d;
    std::string tried = "$PZC_RUNTIME_INCLUDE (not set)";
    auto report = [&](std::optional<std::string> found) {
        if (!found && searched) *searched = tried;
        return found;
    };
    std::error_code ec;
    fs::path exe = fs::canonical("/proc/self/exe", ec);
    if (ec) {
        tried += "; /proc/self/exe (" + ec.message() + ")";
        return report(std::nullopt);
    }
    fs::path dir = exe.parent_path();
    fs::path installed = (dir.parent_path() / "include").lexically_normal();
    if (fs::is_regular_file(installed / kRuntimeMarker, ec)) return installed.string();
    tried += "; " + (installed / kRuntimeMarker).string() + " (missing)";
    fs::path marker = dir / "pzc.runtime-include";
    std::ifstream in(marker);
    std::string named;
    if (!in || !std::getline(in, named) || named.empty()) {
        tried += "; " + marker.string() + " (missing)";
        return report(std::nullopt);
    }
    if (fs::is_regular_file(fs::path(named) / kRuntimeMarker, ec)) return named;
    tried += "; " + (fs::path(named) / kRuntimeMarker).string() + " (named by " + marker.string() + ", missing)";
    return report(std::nullopt);
}

// A digest of every file under the runtime include directory (sorted by
// path), each named by its path relative to that directory (pz/tables/prune.hpp),
// not by its file name alone: two folders may hold headers of one name, and
// a header moved to another folder changes the digest. Computed once per
// process: several keys name it (the solver index, the search estimate,
// the binary cache).
std::string runtimeHeadersDigest() {
    static const std::string digest = [] {
    std::vector<fs::path> files;
    std::error_code ec;
    auto dir = runtimeIncludeDir();
    if (!dir) return contentHash("no runtime");  // nativeFlags() reports it
    const fs::path root = *dir;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file()) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    ContentHasher all;  // contentHash of every name and text, one after another
    for (const auto& f : files) {
        all.update(f.lexically_relative(root).generic_string() + "\n");
        uintmax_t size = 0;
        hashFileInto(f.string(), all, size);
    }
    return all.hex();
    }();
    return digest;
}

// note [build stamps]
// Beside each cached binary BIN, BIN.stamp holds "pzc-build-stamp 1 SIZE HASH"
// (HASH = contentHash of the binary's bytes), written before the binary is
// published. Before a cached binary is run its size and hash must match;
// otherwise (empty, truncated, overwritten, no stamp) it is rebuilt.
// Hashing a 2 MiB binary was 3 ms of every one-shot solve, so a binary that
// matched once gets a second line, "verified INODE SIZE MTIME CTIME" (ns):
// while its file status is exactly that, it has not been written since (any
// write, even one that restores the mtime, moves the ctime), and the hash
// is not recomputed. Any other status hashes it again.
static std::optional<std::string> fileDigest(const fs::path& file, uintmax_t& size) {
    ContentHasher h;
    if (!hashFileInto(file.string(), h, size)) return std::nullopt;
    return h.hex();
}

static std::string stampText(uintmax_t size, const std::string& digest) {
    return "pzc-build-stamp 1 " + std::to_string(size) + " " + digest + "\n";
}

// "verified INODE SIZE MTIME CTIME" of `file` now, or "" when it cannot be read.
static std::string verifiedLine(const fs::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) return "";
    auto ns = [](const timespec& t) { return std::to_string(t.tv_sec) + std::to_string(1000000000L + t.tv_nsec).substr(1); };
    return "verified " + std::to_string(st.st_ino) + " " + std::to_string(st.st_size) + " " + ns(st.st_mtim) + " " +
           ns(st.st_ctim) + "\n";
}

// Writes `text` as the stamp, atomically (STAMP.TAG.tmp, renamed).
static bool replaceStamp(const fs::path& stamp, const std::string& text, const std::string& tag) {
    const fs::path tmp = stamp.string() + "." + tag + ".tmp";
    std::error_code ec;
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out.flush()) {
            fs::remove(tmp, ec);
            return false;
        }
    }
    fs::rename(tmp, stamp, ec);
    return !ec;
}

static bool stampMatches(const fs::path& bin, const fs::path& stamp, std::string& why) {
    std::ifstream in(stamp, std::ios::binary);
    std::string want((std::istreambuf_iterator<char>(in)), {});
    if (!in.is_open() || want.empty()) {
        why = "no build stamp";
        return false;
    }
    const size_t firstEnd = want.find('\n');
    const std::string first = want.substr(0, firstEnd == std::string::npos ? want.size() : firstEnd + 1);
    const std::string verified = firstEnd == std::string::npos ? "" : want.substr(firstEnd + 1);
    const std::string now = verifiedLine(bin);
    if (!verified.empty() && verified == now) return true;  // unchanged since it was hashed
    uintmax_t size = 0;
    auto digest = fileDigest(bin, size);
    if (!digest) {
        why = "cannot read it";
        return false;
    }
    if (stampText(size, *digest) != first) {
        why = size == 0 ? "empty file" : "its size or hash differs from its build stamp";
        return false;
    }
    // Hashed and sound: remember its status (a failure only costs a hash next time).
    if (!now.empty()) replaceStamp(stamp, first + now, std::to_string(::getpid()));
    return true;
}

static bool writeStamp(const fs::path& bin, const fs::path& stamp, const std::string& tag) {
    uintmax_t size = 0;
    auto digest = fileDigest(bin, size);
    return digest && replaceStamp(stamp, stampText(size, *digest), tag);
}

std::string firstCompilerError(const std::filesystem::path& log) {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
        if (line.find("error") == std::string::npos) continue;
        for (char& c : line)
            if (static_cast<unsigned char>(c) < 0x20) c = ' ';
        return line.size() > 200 ? line.substr(0, 200) + "..." : line;
    }
    return "";
}

std::string nativeCompiler() {
    const char* cxxEnv = std::getenv("CXX");
    return cxxEnv && *cxxEnv ? cxxEnv : "c++";
}

std::optional<std::vector<std::string>> nativeFlags(DiagnosticEngine& diags, bool shared) {
    // PZC_MARCH: the -march= target (default native), e.g. x86-64 for the
    // portable lane path of pz/lanes.hpp (docs/language.md, State layout).
    std::string march = "native";
    if (const char* m = std::getenv("PZC_MARCH"); m && *m) {
        march = m;
        if (march.size() > 64 || march.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_.") != std::string::npos) {
            diags.error("PZC_MARCH", {}, "'" + march.substr(0, 64) + "' is not a -march= value (letters, digits, - _ .)");
            return std::nullopt;
        }
    }
    // PZC_OPT_LEVEL: the -O level (default 3), e.g. 1 for a third of the
    // compile time. The test suite keeps -O3: at -O1 its table-building
    // cases ran slower than the compiles saved.
    std::string opt = "-O3";
    if (const char* o = std::getenv("PZC_OPT_LEVEL"); o && *o) {
        const std::string level = o;
        if (level != "0" && level != "1" && level != "2" && level != "3") {
            diags.error("PZC_OPT_LEVEL", {}, "'" + level.substr(0, 16) + "' is not an optimisation level (0, 1, 2 or 3)");
            return std::nullopt;
        }
        opt = "-O" + level;
    }
    std::string searched;
    auto runtime = runtimeIncludeDir(&searched);
    if (!runtime) {
        diags.error("pzc", {},
                    std::string("cannot find the runtime headers (") + kRuntimeMarker + ") that generated solvers include; searched: " +
                        searched + ". Set PZC_RUNTIME_INCLUDE to the directory that holds pz/");
        return std::nullopt;
    }
    // A shared object is loaded into a program that has its own libstdc++
    // (Python's extension): C++ objects cross between them, so it links the
    // same one dynamically. Hidden symbols: two plugins' generated code
    // never binds to the other's, and only the entry points are exported.
    if (shared)
        return std::vector<std::string>{"-std=c++20", opt,      "-march=" + march,  "-DNDEBUG",
                                        "-I" + *runtime, "-pthread", "-shared", "-fPIC", "-fvisibility=hidden"};
    // Linked statically (libc.a comes with libc6-dev, which the compiler
    // needs anyway), with no position independence: no dynamic loader runs
    // at each solver start. libstdc++ and libgcc alone linked in took
    // slide4's start from 11.3 to 10.0 ms; libc too, 16 -> 12 ms (median of
    // 30 on a busy machine; note [static dependencies]).
    return std::vector<std::string>{"-std=c++20", opt,       "-march=" + march, "-DNDEBUG",
                                    "-I" + *runtime, "-pthread", "-no-pie",         "-static"};
}

bool cachedBinaryIntact(const std::string& bin, std::string& why) {
    return stampMatches(bin, bin + ".stamp", why);
}

// note [precompiled runtime]
// Most of a solver's compile is the same work: parsing the runtime headers
// it includes (2.7 s of loopover3's 7.5 s at -O1, a fifth at -O3). pzc
// precompiles exactly the source's runtime includes, once per compiler,
// flags and runtime digest, into $PZC_CACHE_DIR/pch/<key>/pz_runtime.hpp.gch
// and compiles the source with `-include` of that header (its own includes
// of the same headers are then no-ops: #pragma once). GCC only: clang's
// precompiled headers work differently. Any failure (another compiler, a
// header that does not precompile, a full disk) compiles without it, and
// GCC itself falls back to the text when the .gch does not match. The key
// of the binary does not change: the code is the same either way.
// PZC_NO_PCH=1 turns it off; PZC_PCH_DIR puts the folders elsewhere (the
// test suite shares one among the caches of its cases; several pzc, of
// several runtimes, may share it, so no cache command touches it). `pzc
// cache` lists those in the cache (kind "pch"); prune removes those of
// other runtime digests, clear all of them.
namespace {

// An exclusive flock on `path` (created), held until release() or the end
// of its scope (note [one compile per key]).
class CompileLock {
public:
    explicit CompileLock(std::string path) : path_(std::move(path)) {
        fd_ = ::open(path_.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
        while (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
        }
        held() = this;
    }
    ~CompileLock() { release(); }
    CompileLock(const CompileLock&) = delete;
    CompileLock& operator=(const CompileLock&) = delete;
    void release() {
        if (fd_ < 0) return;
        ::unlink(path_.c_str());
        ::close(fd_);
        fd_ = -1;
        if (held() == this) held() = nullptr;
    }
    // The lock this process holds, released by dieCleanly.
    static CompileLock*& held() {
        static CompileLock* lock = nullptr;
        return lock;
    }

private:
    std::string path_;
    int fd_ = -1;
};

// pzc was interrupted while compiling: the lock file goes too (an
// interrupted build leaves nothing in the cache), then the signal's death.
[[noreturn]] void dieCleanly(int sig) {
    if (CompileLock::held()) CompileLock::held()->release();
    dieOfSignal(sig);
}

}  // namespace

static bool compilerIsGcc(const std::string& cxx) {
    static std::map<std::string, bool> known;
    if (auto it = known.find(cxx); it != known.end()) return it->second;
    ChildRun run;
    run.argv = {cxx, "--version"};
    run.searchPath = true;
    std::string first;
    run.onLine = [&](const std::string& line) {
        if (first.empty()) first = line;
    };
    ChildStatus rc = runChild(run);
    if (rc.interrupted) dieCleanly(rc.interrupted);
    // "c++ (Debian 12.2.0-14) 12.2.0", "g++-12 (...)": GCC names itself so;
    // clang says "clang version" or "Debian clang version".
    const bool gcc = rc.exited() && rc.exitCode() == 0 && first.find("clang") == std::string::npos &&
                     (first.find("g++") != std::string::npos || first.find("c++") != std::string::npos ||
                      first.find("GCC") != std::string::npos);
    known[cxx] = gcc;
    return gcc;
}

static std::optional<fs::path> precompiledRuntime(const std::string& cxx, const std::vector<std::string>& flags,
                                                  const std::string& source) {
    if (const char* off = std::getenv("PZC_NO_PCH"); off && *off && std::string(off) != "0") return std::nullopt;
    std::string includes;
    std::istringstream lines(source);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("#include \"pz/", 0) == 0) includes += line + "\n";
    if (includes.empty() || !compilerIsGcc(cxx)) return std::nullopt;
    std::string keyText = cxx + "\n" + runtimeHeadersDigest() + "\n" + includes;
    for (const auto& f : flags) keyText += f + "\n";
    std::error_code ec;
    const char* pchRoot = std::getenv("PZC_PCH_DIR");  // the test suite's: shared by its cases' caches
    const fs::path dir = (pchRoot && *pchRoot ? fs::path(pchRoot) : fs::path(cacheDirectory()) / "pch") /
                         (runtimeHeadersDigest().substr(0, 16) + "-" + contentHash(keyText).substr(0, 16));
    const fs::path header = dir / "pz_runtime.hpp", gch = dir / "pz_runtime.hpp.gch";
    if (fs::exists(gch, ec)) {
        fs::last_write_time(gch, fs::file_time_type::clock::now(), ec);  // its last use, for pzc cache
        return header;
    }
    fs::create_directories(dir, ec);
    if (ec) return std::nullopt;
    const std::string tag = std::to_string(::getpid());
    const fs::path headerTmp = dir / ("pz_runtime.hpp." + tag), gchTmp = dir / ("pz_runtime.hpp.gch." + tag);
    {
        std::ofstream out(headerTmp, std::ios::binary);
        out << "// The runtime headers of generated solvers, precompiled by pzc (note [precompiled runtime]).\n"
            << includes;
        if (!out.flush()) return std::nullopt;
    }
    fs::rename(headerTmp, header, ec);
    ChildRun run;
    run.argv.push_back(cxx);
    for (const auto& f : flags)
        if (f != "-static" && f != "-no-pie" && f != "-shared") run.argv.push_back(f);
    run.argv.insert(run.argv.end(), {"-x", "c++-header", header.string(), "-o", gchTmp.string()});
    run.searchPath = true;
    run.outputFile = (dir / ("log." + tag)).string();
    ChildStatus rc = runChild(run);
    fs::remove(dir / ("log." + tag), ec);
    if (rc.interrupted) {
        fs::remove(gchTmp, ec);
        dieCleanly(rc.interrupted);
    }
    if (!rc.exited() || rc.exitCode() != 0) {
        fs::remove(gchTmp, ec);
        return std::nullopt;
    }
    fs::rename(gchTmp, gch, ec);  // atomic: a reader sees the whole file or none
    if (ec) {
        fs::remove(gchTmp, ec);
        return std::nullopt;
    }
    return header;
}


std::optional<std::string> buildNative(const NativeBuild& build, DiagnosticEngine& diags,
                                       const std::string& outputPath) {
    const std::string cxx = nativeCompiler();
    auto baseFlags = nativeFlags(diags, build.shared);
    if (!baseFlags) return std::nullopt;
    std::vector<std::string> flags = *baseFlags;
    for (const auto& f : build.extraFlags) flags.push_back(f);
    if (!build.libraries.empty()) std::erase(flags, std::string("-static"));

    // The key covers the compiler, the flags, the source and every runtime
    // header the source may include, so a changed runtime is a new binary.
    std::string keyText = cxx + "\n" + runtimeHeadersDigest() + "\n";
    for (const auto& f : flags) keyText += f + "\n";
    for (const auto& l : build.libraries) keyText += l + "\n";
    keyText += build.source;
    std::string key = build.stem + "-" + contentHash(keyText);

    std::error_code ec;
    fs::path dir = fs::path(cacheDirectory()) / "bin";
    fs::create_directories(dir, ec);
    if (ec) {
        diags.error(dir.string(), {}, "cannot create cache directory: " + ec.message());
        return std::nullopt;
    }
    fs::path bin = dir / key;
    fs::path stamp = dir / (key + ".stamp");
    std::string damage;
    // Pinned (note [cache metadata]) before it is checked, so that `pzc cache`
    // never removes it between the check and the run; one unlinked before
    // the pin is missing.
    const bool pinned = fs::exists(bin, ec) && pinCacheFile(bin.string());
    if (pinned && !stampMatches(bin, stamp, damage)) {
        // A cached binary that is not the one pzc built (empty, truncated,
        // overwritten, or without its stamp): reported and rebuilt.
        std::cerr << "pzc: note: the cached solver " << bin.string() << " is unusable (" << damage
                  << "); rebuilding\n";
        fs::remove(bin, ec);
    }
    // note [one compile per key]: processes that need one binary at once
    // (the ranks of `mpirun pzc enumerate --mpi`, parallel tests) compile it
    // once. Each takes an exclusive lock on KEY.lock; one that then finds the
    // binary published uses it. The lock file is removed after the compile:
    // a process that locked the removed file finds the binary too, or at
    // worst compiles again (the publishing rename keeps that safe).
    std::optional<CompileLock> lock;
    bool have = pinned && fs::exists(bin, ec);
    if (!have) {
        lock.emplace((dir / (key + ".lock")).string());
        have = fs::exists(bin, ec) && pinCacheFile(bin.string()) && stampMatches(bin, stamp, damage);
    }
    if (!have) {
        // Before the source is written: an interrupted precompile leaves
        // nothing in bin/.
        const auto pch = precompiledRuntime(cxx, flags, build.source);
        std::string tag = std::to_string(::getpid());
        fs::path src = dir / (key + "." + tag + ".cpp");
        fs::path tmp = dir / (key + "." + tag + ".tmp");
        fs::path log = dir / (key + ".log");
        {
            std::ofstream out(src, std::ios::binary);
            out << build.source;
            if (!out.flush()) {
                out.close();
                fs::remove(src, ec);
                diags.error(src.string(), {}, "cannot write generated source");
                return std::nullopt;
            }
        }
        // The compiler runs without a shell: an argument vector, output to the log.
        ChildRun run;
        run.argv.push_back(cxx);
        run.argv.insert(run.argv.end(), flags.begin(), flags.end());
        if (pch) run.argv.insert(run.argv.end(), {"-include", pch->string()});
        run.argv.insert(run.argv.end(), {src.string(), "-o", tmp.string()});
        run.argv.insert(run.argv.end(), build.libraries.begin(), build.libraries.end());
        run.searchPath = true;
        run.outputFile = log.string();
        ChildStatus rc = runChild(run);
        if (rc.interrupted) {  // pzc was interrupted: leave nothing behind
            for (const auto& f : {src, tmp, log}) fs::remove(f, ec);
            dieCleanly(rc.interrupted);
        }
        if (!rc.exited() || rc.exitCode() != 0 || !fs::exists(tmp, ec)) {
            // An internal error, said in one line: the compiler's output stays
            // in the log (its first error quoted), the source is removed.
            fs::remove(tmp, ec);
            fs::remove(src, ec);
            std::string first = firstCompilerError(log);
            diags.error(bin.string(), {},
                        "internal error: the C++ compiler (" + cxx + ") " +
                            (rc.started ? rc.describe() : "could not be run: " + rc.startError) +
                            " on the generated code" + (first.empty() ? "" : ": " + first) +
                            "; full output in " + log.string());
            return std::nullopt;
        }
        fs::remove(log, ec);
        // Stamp first, then publish the binary by an atomic rename: a binary
        // without a matching stamp is never trusted.
        if (!writeStamp(tmp, stamp, tag)) {
            fs::remove(tmp, ec);
            fs::remove(src, ec);
            diags.error(stamp.string(), {}, "cannot write the build stamp");
            return std::nullopt;
        }
        pinCacheFile(tmp.string());  // the lock follows the file to its name
        fs::rename(tmp, bin, ec);  // atomic publish
        fs::rename(src, dir / (key + ".cpp"), ec);
        if (ec) fs::remove(src, ec);
    }
    if (lock) lock->release();
    recordBinaryUse(bin.string(), nullptr);
    if (!outputPath.empty()) {
        fs::copy_file(bin, outputPath, fs::copy_options::overwrite_existing, ec);
        if (ec) {
            diags.error(outputPath, {}, "cannot write output: " + ec.message());
            return std::nullopt;
        }
    }
    return bin.string();
}

}  // namespace pz::driver
