// pzc serve [--port N] [--root DIR] [--host ADDR]: serve a folder (by default
// the web page, web/) over HTTP on localhost, for the browser solver page
// (docs/web.md). A static file server and nothing more (http_server.hpp):
// no dependency, and the headers WebAssembly needs (application/wasm,
// cross-origin isolation).
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "compiler/driver/http_server.hpp"
#include "compiler/driver/options.hpp"

namespace pz::driver {

namespace fs = std::filesystem;

namespace {

// note [finding the web page]
// The folder `pzc serve` serves without --root, found the way the runtime
// headers are (note [finding the runtime] in native_build.cpp), with no
// path baked into the binary:
//   1. <exe dir>/../share/pzc/web: the installed layout (cmake/pzcPackaging.cmake);
//   2. the build tree: CMake writes <exe dir>/pzc.web-root, one line naming
//      the source tree's web/ (compiler/driver/CMakeLists.txt); not installed.
// Nothing found is an error naming the places searched.
std::optional<std::string> defaultWebRoot(std::string& searched) {
    std::error_code ec;
    const fs::path exe = fs::canonical("/proc/self/exe", ec);
    if (ec) {
        searched = "/proc/self/exe (" + ec.message() + ")";
        return std::nullopt;
    }
    const fs::path dir = exe.parent_path();
    const fs::path installed = (dir.parent_path() / "share" / "pzc" / "web").lexically_normal();
    if (fs::is_directory(installed, ec)) return installed.string();
    searched = installed.string() + " (missing)";
    const fs::path marker = dir / "pzc.web-root";
    std::ifstream in(marker);
    std::string named;
    if (!in || !std::getline(in, named) || named.empty()) {
        searched += "; " + marker.string() + " (missing)";
        return std::nullopt;
    }
    if (fs::is_directory(named, ec)) return named;
    searched += "; " + named + " (named by " + marker.string() + ", missing)";
    return std::nullopt;
}

// SIGINT, SIGTERM and SIGHUP, blocked in every thread and read from a
// signalfd the accept loop polls: the server stops between requests, its
// connections ended, instead of dying in the middle of a write.
class StopSignals {
public:
    StopSignals() {
        sigemptyset(&set_);
        for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set_, s);
        ::pthread_sigmask(SIG_BLOCK, &set_, &old_);
        fd_ = ::signalfd(-1, &set_, SFD_CLOEXEC);
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ignore, &oldPipe_);  // a browser that leaves mid-file is no reason to die
    }
    ~StopSignals() {
        if (fd_ >= 0) ::close(fd_);
        ::sigaction(SIGPIPE, &oldPipe_, nullptr);
        ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
    }
    int fd() const { return fd_; }
    // The signal that stopped the server (after run() returned), 0 if none.
    int received() const {
        signalfd_siginfo info{};
        return ::read(fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info) ? static_cast<int>(info.ssi_signo) : 0;
    }

private:
    sigset_t set_{}, old_{};
    struct sigaction oldPipe_ {};
    int fd_ = -1;
};

}  // namespace

int runServe(const Args& args) {
    std::string root, host = "127.0.0.1";
    unsigned long long port = 8048;
    bool quiet = false;
    OptionParser options("serve",
                         "usage: pzc serve [--port N] [--root DIR] [--host ADDR] [--quiet]\n"
                         "Serves the files under DIR over HTTP (GET, HEAD) until Ctrl-C.\n"
                         "--port N     the port (default 8048; 0: a free one, printed)\n"
                         "--root DIR   the folder served (default: the installed web page, or the source's web/)\n"
                         "--host ADDR  the address to listen on (default 127.0.0.1: this machine only)\n"
                         "--quiet      no line per request on stderr\n");
    options.number("--port", port, 0, 65535)
        .value("--root", root)
        .value("--host", host)
        .flag("--quiet", quiet);
    if (auto rc = options.parse(args)) return *rc;
    if (root.empty()) {
        std::string searched;
        auto found = defaultWebRoot(searched);
        if (!found) {
            std::cerr << "pzc serve: error: no web page found (searched " << searched << "); give --root DIR\n";
            return 1;
        }
        root = *found;
    }
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        std::cerr << "pzc serve: error: " << root << " is not a directory\n";
        return 1;
    }
    root = fs::canonical(root, ec).string();
    http::Server server;
    if (auto error = server.listen(host, static_cast<unsigned>(port))) {
        std::cerr << "pzc serve: error: " << *error << '\n';
        return 1;
    }
    StopSignals stop;
    // One line, flushed: scripts and tests read the port from it (--port 0).
    std::cout << "serving " << root << " at " << server.url() << std::endl;
    server.run(root, stop.fd(), !quiet);
    if (const int signal = stop.received()) std::cerr << "pzc serve: stopped (" << ::strsignal(signal) << ")\n";
    return 0;
}

}  // namespace pz::driver
