// pzc — the puzzle compiler driver. Dispatches to one subcommand (the table
// in commands.cpp); each loads the definition and hands it to the back end
// of its family (note [back ends] in backend.hpp).
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <string>

#include "compiler/driver/cache.hpp"
#include "compiler/driver/commands.hpp"
#include "compiler/driver/timeline.hpp"

namespace {

using namespace pz::driver;

void usage(std::ostream& out) {
    out << "usage: pzc <command> [args]\n\ncommands:\n";
    size_t width = 0;
    for (const auto& c : commands()) width = std::max(width, std::strlen(c.name));
    for (const auto& c : commands())
        out << "  " << c.name << std::string(width + 2 - std::strlen(c.name), ' ') << c.summary << '\n';
    out << "\nRun 'pzc <command> --help' for the options of one command; 'pzc --version' prints the version.\n";
}

// note [pzc-mpi] (compiler/driver/CMakeLists.txt): pzc without MPI hands a
// command with --mpi to pzc-mpi beside it, when that was built.
void handOverToMpi(char** argv) {
#ifndef PZ_HAVE_MPI
    bool mpi = false;
    for (char** a = argv + 1; *a; ++a) mpi |= !std::strcmp(*a, "--mpi");
    if (!mpi) return;
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return;
    self[n] = '\0';
    std::string other = std::string(self, n);
    other = other.substr(0, other.rfind('/') + 1) + "pzc-mpi";
    if (::access(other.c_str(), X_OK) != 0) return;  // the command says --mpi is not built
    ::execv(other.c_str(), argv);
#else
    (void)argv;
#endif
}

}  // namespace

int main(int argc, char** argv) {
    handOverToMpi(argv);
    pz::driver::timeline::mark("main");  // note [timeline]
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        usage(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? 2 : 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "pzc " << PZC_VERSION << '\n';
        return 0;
    }
    Args args(argv + 2, argv + argc);
    for (const auto& c : commands())
        if (!std::strcmp(argv[1], c.name)) {
            const int rc = c.run(args);
            // $PZC_CACHE_MAX_SIZE after the commands that write to the cache
            // (note [cache metadata] in cache.hpp).
            if (!std::strcmp(c.name, "solve") || !std::strcmp(c.name, "solve-dir") || !std::strcmp(c.name, "build"))
                enforceCacheCapFromEnvironment();
            pz::driver::timeline::print();
            return rc;
        }
    std::cerr << "pzc: error: unknown command '" << argv[1] << "'\n";
    usage(std::cerr);
    return 2;
}
