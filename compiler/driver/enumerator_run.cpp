// Building and starting a generated enumerator (enumerator_run.hpp).
#include "compiler/driver/enumerator_run.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <utility>
#include <vector>

#include "compiler/driver/mpi_batch.hpp"
#include "compiler/driver/native_build.hpp"

namespace pz::driver {

int runEnumerator(const std::string& source, const std::string& stem, const EnumerateRequest& request,
                  const std::string& space, const std::string& expect) {
    if (request.mpi && !mpi::available()) {
        std::cerr << "pzc enumerate: error: pzc was built without MPI (install Open MPI and rebuild); "
                     "run without --mpi for one process\n";
        return 2;
    }
    if (!request.mpi)
        for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"})
            if (const char* v = std::getenv(var); v && std::atoi(v) > 1) {
                std::cerr << "pzc enumerate: warning: started as one of " << v
                          << " MPI tasks without --mpi: every task enumerates the whole space\n";
                break;
            }
    NativeBuild build;
    build.source = source;
    build.stem = stem + (request.mpi ? "_mpi" : "");
    if (request.mpi) {
        const auto flags = mpi::buildFlags();
        build.extraFlags.push_back("-DPZ_WITH_MPI");
        for (const auto& dir : flags.includeDirs) build.extraFlags.push_back("-I" + dir);
        build.libraries = flags.libraries;
    }
    DiagnosticEngine diags;
    const auto bin = buildNative(build, diags);
    diags.print(std::cerr);
    if (!bin) return 1;

    std::vector<std::string> argv = {"pzc enumerate", "--space", space, "--threads", std::to_string(request.threads)};
    // The enumerator counts in 64 bits: a larger prediction cannot be its count.
    if (!expect.empty() && expect.size() <= 19) argv.insert(argv.end(), {"--expect", expect});
    if (request.farthest) argv.insert(argv.end(), {"--farthest", std::to_string(request.farthest)});
    if (request.maxDepth) argv.insert(argv.end(), {"--max-depth", std::to_string(*request.maxDepth)});
    if (!request.memory.empty()) argv.insert(argv.end(), {"--memory", request.memory});
    if (!request.checkpoint.empty()) argv.insert(argv.end(), {"--checkpoint", request.checkpoint});
    if (!request.tableDir.empty()) argv.insert(argv.end(), {"--table-dir", request.tableDir});
    if (request.layout != "auto") argv.insert(argv.end(), {"--layout", request.layout});
    if (request.exchange != "auto") argv.insert(argv.end(), {"--exchange", request.exchange});
    for (auto [on, flag] : {std::pair{request.resume, "--resume"}, {request.table, "--table"},
                            {request.json, "--json"}, {request.progress, "--progress"}})
        if (on) argv.push_back(flag);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    std::cout.flush();
    ::execv(bin->c_str(), args.data());
    std::cerr << "pzc enumerate: error: cannot run " << *bin << ": " << std::strerror(errno) << "\n";
    return 1;
}

}  // namespace pz::driver
