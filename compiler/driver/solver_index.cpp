// The solver index (note [solver index] in solver_index.hpp).
#include "compiler/driver/solver_index.hpp"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "compiler/analysis/content_hash.hpp"
#include "compiler/driver/cache.hpp"
#include "compiler/driver/native_build.hpp"

namespace fs = std::filesystem;

namespace pz::driver {

namespace {

constexpr const char* kIndexMagic = "pzc-solver-index 1";

// The NT_GNU_BUILD_ID note of the main program (the first object listed).
int readBuildId(dl_phdr_info* info, size_t, void* data) {
    auto& out = *static_cast<std::string*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE) continue;
        const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
        const char* end = p + ph.p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const char* name = p + sizeof(ElfW(Nhdr));
            const char* desc = name + ((note->n_namesz + 3) & ~3u);
            if (desc + note->n_descsz > end) break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                static const char* hex = "0123456789abcdef";
                for (unsigned k = 0; k < note->n_descsz; ++k) {
                    unsigned char b = static_cast<unsigned char>(desc[k]);
                    out += hex[b >> 4];
                    out += hex[b & 15];
                }
                return 1;
            }
            p = desc + ((note->n_descsz + 3) & ~3u);
        }
    }
    return 1;  // only the main program
}

// What each key computed in this process was computed from (note [cache
// metadata]): written into the entry, the binary's sidecar and the
// environment of the solver pzc runs.
std::map<std::string, SolverOrigin>& origins() {
    static std::map<std::string, SolverOrigin> m;
    return m;
}

const SolverOrigin* originOf(const std::string& key) {
    auto it = origins().find(key);
    return it == origins().end() ? nullptr : &it->second;
}

// A use of the binary of the entry `key`: its sidecar, PZC_CACHE_USER.
void noteSolverUse(const std::string& key, const std::string& binary) {
    const SolverOrigin* origin = originOf(key);
    recordBinaryUse(binary, origin);
    if (origin) setCacheUser(*origin);
}

std::string indexPath(const std::string& key) { return (fs::path(cacheDirectory()) / "index" / key).string(); }

// Writes an index entry atomically (a temporary file renamed); failures are
// ignored: the index is only a shortcut.
void writeEntry(const std::string& key, const std::string& text) {
    std::error_code ec;
    const fs::path path = indexPath(key);
    fs::create_directories(path.parent_path(), ec);
    if (ec) return;
    const fs::path tmp = path.string() + "." + std::to_string(::getpid()) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out.flush()) {
            out.close();
            fs::remove(tmp, ec);
            return;
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) fs::remove(tmp, ec);
}

}  // namespace

const std::string& pzcBuildId() {
    static const std::string id = [] {
        std::string buildId;
        dl_iterate_phdr(readBuildId, &buildId);
        if (!buildId.empty()) return "build-id " + buildId;
        // No build id (a linker without --build-id): the executable's bytes.
        std::ifstream in("/proc/self/exe", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        return "exe " + contentHash(bytes) + " " + std::to_string(bytes.size());
    }();
    return id;
}

std::string solverIndexKey(const std::string& file, const std::string& definitionBytes, const std::string& variant) {
    std::string text = std::string(kIndexMagic) + "\n" + pzcBuildId() + "\n" + nativeCompiler() + "\n" +
                       runtimeHeadersDigest() + "\n";
    DiagnosticEngine unused;  // a bad PZC_MARCH: no entry matches; the full path reports it
    if (auto flags = nativeFlags(unused))
        for (const auto& f : *flags) text += f + "\n";
    else
        text += "bad flags\n";
    text += variant + "\n" + std::to_string(file.size()) + ":" + file + "\n" + definitionBytes;
    std::string key = contentHash(text);
    // Absolute: `pzc cache` may run from another directory.
    std::error_code ec;
    fs::path absolute = fs::absolute(file, ec);
    origins()[key] = SolverOrigin{ec ? file : absolute.lexically_normal().string(), contentHash(definitionBytes), variant};
    return key;
}

std::optional<IndexedSolver> lookupIndexedSolver(const std::string& key) {
    std::ifstream in(indexPath(key));
    if (!in) return std::nullopt;
    std::string magic, word, name;
    size_t count = 0;
    if (!std::getline(in, magic) || magic != kIndexMagic) return std::nullopt;
    if (!(in >> word >> name) || word != "binary" || name.empty() || name.find('/') != std::string::npos ||
        name[0] == '.')
        return std::nullopt;
    if (!(in >> word >> count) || word != "moves" || count > 4096) return std::nullopt;
    IndexedSolver solver;
    for (size_t i = 0; i < count; ++i) {
        int m = -1;
        if (!(in >> m) || m < 0) return std::nullopt;
        solver.searchMoves.push_back(m);
    }
    if (!(in >> word) || word != "end") return std::nullopt;
    solver.binary = (fs::path(cacheDirectory()) / "bin" / name).string();
    std::string why;
    // Pinned first (note [cache metadata]): `pzc cache` cannot remove it now.
    if (!pinCacheFile(solver.binary)) return std::nullopt;
    if (!cachedBinaryIntact(solver.binary, why)) return std::nullopt;  // the full path reports and rebuilds it
    noteSolverUse(key, solver.binary);
    return solver;
}

void recordIndexedSolver(const std::string& key, const IndexedSolver& solver) {
    std::ostringstream text;
    text << kIndexMagic << "\nbinary " << fs::path(solver.binary).filename().string() << "\nmoves "
         << solver.searchMoves.size();
    for (int m : solver.searchMoves) text << ' ' << m;
    text << "\nend\n" << cacheMetaText(originOf(key));
    writeEntry(key, text.str());
    noteSolverUse(key, solver.binary);
}

std::optional<std::vector<uint64_t>> lookupIndexedNumbers(const std::string& key) {
    std::ifstream in(indexPath(key));
    if (!in) return std::nullopt;
    std::string magic, word;
    size_t count = 0;
    if (!std::getline(in, magic) || magic != kIndexMagic) return std::nullopt;
    if (!(in >> word >> count) || word != "numbers" || count > 4096) return std::nullopt;
    std::vector<uint64_t> numbers(count);
    for (auto& n : numbers)
        if (!(in >> n)) return std::nullopt;
    if (!(in >> word) || word != "end") return std::nullopt;
    return numbers;
}

void recordIndexedNumbers(const std::string& key, const std::vector<uint64_t>& numbers) {
    std::ostringstream text;
    text << kIndexMagic << "\nnumbers " << numbers.size();
    for (uint64_t n : numbers) text << ' ' << n;
    text << "\nend\n" << cacheMetaText(originOf(key));
    writeEntry(key, text.str());
}

}  // namespace pz::driver
