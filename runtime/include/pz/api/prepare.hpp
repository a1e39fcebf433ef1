// pz/api/prepare.hpp — what every library Solver's prepare() shares
// (pz/api/solver.hpp): the scope of the solver's options while its tables
// load or build, the wording of its failures, and its table directory.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <new>
#include <string>

#include "pz/api/solver.hpp"
#include "pz/support/memory.hpp"
#include "pz/tables/prune.hpp"

namespace pz::api {

// For the duration of a prepare(): this thread's memory budget, table check
// level, table sharing and progress sink are the solver's options (note [no global state]).
class PrepareScope {
public:
    explicit PrepareScope(const SolverOptions& o)
        : budget_(memoryBudget()), verification_(tableVerification()), shared_(sharedTables()), progress_(&sink_) {
        memoryBudget() = o.memoryBytes ? o.memoryBytes : defaultMemoryBudget();
        tableVerification() = o.verifyTables ? TableVerification::Full : TableVerification::Sampled;
        sharedTables() = o.sharedTables;
        sink_.report = o.progress;
        sink_.cancelled = o.cancel ? o.cancel->flag() : nullptr;
        // No sink: builds print on stderr (Progress's own behaviour).
        if (!o.progress && !o.cancel && o.printProgress) progressSink() = nullptr;
    }
    ~PrepareScope() {
        memoryBudget() = budget_;
        tableVerification() = verification_;
        sharedTables() = shared_;
    }
    PrepareScope(const PrepareScope&) = delete;
    PrepareScope& operator=(const PrepareScope&) = delete;

private:
    uint64_t budget_;
    TableVerification verification_;
    bool shared_;
    ProgressSink sink_;
    ProgressScope progress_;
};

// The messages of prepare()'s failures, as the command line words them.
// `outOfMemory`: the message of a failed allocation ("" for the default).
template <class F>
Status preparing(const char* what, F&& build, const std::string& outOfMemory = "") {
    try {
        build();
        return {};
    } catch (const BuildCancelled&) {
        return makeError(ErrorCode::Cancelled, std::string(what) + ": cancelled");
    } catch (const MemoryBudgetError& e) {
        return makeError(ErrorCode::OutOfMemory, e.what());
    } catch (const TableCorruptError& e) {
        return makeError(ErrorCode::CorruptTables, e.what());
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::OutOfMemory,
                         outOfMemory.empty() ? std::string("out of memory while building or loading the ") + what : outOfMemory);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string(what) + ": " + e.what());
    }
}

// The options' table directory; "" when they build tables in memory only.
inline std::string tablesDirectory(const SolverOptions& o) {
    if (!o.cacheTables) return "";
    return o.tableDir.empty() ? cacheDirectory() + "/tables" : o.tableDir;
}

// The table directory exists (made if need be) and is writable: else an
// error before any build, rather than tables built and then not kept.
inline Status checkTablesDirectory(const SolverOptions& o) {
    const std::string dir = tablesDirectory(o);
    if (dir.empty()) return {};
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || ::access(dir.c_str(), W_OK | X_OK) != 0)
        return makeError(ErrorCode::TablesUnwritable,
                         "cannot write the tables directory " + dir + ": " +
                             (ec ? ec.message() : std::string(std::strerror(errno))) +
                             " (choose another tableDir, or set cacheTables = false to build in memory)");
    return {};
}

}  // namespace pz::api
