#include "compiler/driver/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iterator>
#include <cstring>

namespace pz::driver {

namespace {

volatile sig_atomic_t gChild = 0;     // the running child's pid, 0 if none
volatile sig_atomic_t gSignalled = 0;  // the signal pzc received while it ran

void forward(int sig) {
    gSignalled = sig;
    if (gChild > 0) ::kill(static_cast<pid_t>(gChild), sig);
}

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

// Installs the forwarding handlers for the child's lifetime; restores the
// previous ones after and reports the signal that arrived, if any.
class SignalForwarding {
public:
    explicit SignalForwarding() {
        struct sigaction sa {};
        sa.sa_handler = forward;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < std::size(kForwarded); ++i) ::sigaction(kForwarded[i], &sa, &old_[i]);
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ignore, &oldPipe_);  // a child that exits early must not kill pzc
    }
    // The signal received while installed (0 if none).
    int finish() {
        gChild = 0;
        for (size_t i = 0; i < std::size(kForwarded); ++i) ::sigaction(kForwarded[i], &old_[i], nullptr);
        ::sigaction(SIGPIPE, &oldPipe_, nullptr);
        int sig = gSignalled;
        gSignalled = 0;
        return sig;
    }
    ~SignalForwarding() { finish(); }

private:
    struct sigaction old_[std::size(kForwarded)] {};
    struct sigaction oldPipe_ {};
};

// Writes what the (non-blocking) pipe takes now; -1 when the reader is gone.
ssize_t writeSome(int fd, const char* p, size_t n) {
    while (true) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        return w < 0 ? -1 : w;
    }
}

}  // namespace

bool ChildStatus::exited() const { return started && WIFEXITED(status); }
int ChildStatus::exitCode() const { return WEXITSTATUS(status); }

std::string ChildStatus::describe() const {
    if (!started) return "could not be started (" + startError + ")";
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char* name = ::strsignal(sig);
        return "was killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
    }
    return "ended with wait status " + std::to_string(status);
}

ChildStatus runChild(const ChildRun& run) {
    ChildStatus result;
    std::vector<char*> argv;
    for (const auto& a : run.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    int in[2], out[2] = {-1, -1}, err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        result.startError = std::strerror(errno);
        return result;
    }
    int outFile = -1;
    if (!run.outputFile.empty()) {
        outFile = ::open(run.outputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (outFile < 0) {
            result.startError = run.outputFile + ": " + std::strerror(errno);
            for (int fd : {in[0], in[1], err[0], err[1]}) ::close(fd);
            return result;
        }
    } else if (::pipe2(out, O_CLOEXEC) != 0) {
        result.startError = std::strerror(errno);
        for (int fd : {in[0], in[1], err[0], err[1]}) ::close(fd);
        return result;
    }

    SignalForwarding forwarding;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        // The child: die with pzc, wire stdin/stdout, exec (no shell).
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        for (int sig : kForwarded) ::signal(sig, SIG_DFL);
        ::signal(SIGPIPE, SIG_DFL);
        ::dup2(in[0], 0);
        ::dup2(outFile >= 0 ? outFile : out[1], 1);
        if (outFile >= 0) ::dup2(outFile, 2);
        if (run.searchPath) ::execvp(argv[0], argv.data());
        else ::execv(argv[0], argv.data());
        int e = errno;
        (void)!::write(err[1], &e, sizeof e);
        ::_exit(127);
    }
    ::close(in[0]);
    ::close(err[1]);
    if (out[1] >= 0) ::close(out[1]);
    if (outFile >= 0) ::close(outFile);
    if (pid < 0) {
        result.startError = std::strerror(errno);
        for (int fd : {in[1], err[0], out[0]})
            if (fd >= 0) ::close(fd);
        return result;
    }
    gChild = pid;
    if (int sig = gSignalled) ::kill(pid, sig);  // arrived between fork and here

    // Did exec succeed? The error pipe closes on exec, or carries errno.
    int execErrno = 0;
    ssize_t got;
    while ((got = ::read(err[0], &execErrno, sizeof execErrno)) < 0 && errno == EINTR) {
    }
    ::close(err[0]);
    if (got == sizeof execErrno) {
        ::close(in[1]);
        if (out[0] >= 0) ::close(out[0]);
        while (::waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
        }
        result.startError = std::strerror(execErrno);
        result.interrupted = forwarding.finish();
        return result;
    }
    result.started = true;

    // Feed stdin and read stdout together (poll), so neither pipe can fill
    // up and block the other side.
    size_t written = 0;
    int inFd = in[1];
    if (run.input.empty()) ::close(inFd), inFd = -1;
    else ::fcntl(inFd, F_SETFL, ::fcntl(inFd, F_GETFL) | O_NONBLOCK);
    int outFd = out[0];
    std::string pending;
    char buffer[1 << 16];
    while (inFd >= 0 || outFd >= 0) {
        pollfd fds[2];
        int n = 0;
        if (outFd >= 0) fds[n++] = {outFd, POLLIN, 0};
        if (inFd >= 0) fds[n++] = {inFd, POLLOUT, 0};
        if (::poll(fds, n, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int k = 0; k < n; ++k) {
            if (!fds[k].revents) continue;
            if (fds[k].fd == outFd) {
                ssize_t r = ::read(outFd, buffer, sizeof buffer);
                if (r < 0 && errno == EINTR) continue;
                if (r <= 0) {
                    ::close(outFd);
                    outFd = -1;
                    continue;
                }
                pending.append(buffer, static_cast<size_t>(r));
                size_t start = 0;
                for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
                    if (run.onLine) run.onLine(pending.substr(start, nl - start));
                pending.erase(0, start);
                if (start && run.onLines) run.onLines();
            } else {
                ssize_t w = (fds[k].revents & POLLOUT)
                                ? writeSome(inFd, run.input.data() + written, run.input.size() - written)
                                : -1;
                if (w > 0) written += static_cast<size_t>(w);
                if (w < 0 || written == run.input.size()) {
                    ::close(inFd);
                    inFd = -1;
                }
            }
        }
    }
    if (!pending.empty() && run.onLine) run.onLine(pending);
    // note [no wait at exit]: a child that has said all it was run for is
    // not waited for while it tears down, unless it is gone already.
    if (run.complete && run.complete() && !gSignalled) {
        pid_t done;
        while ((done = ::waitpid(pid, &result.status, WNOHANG)) < 0 && errno == EINTR) {
        }
        if (done == 0) result.status = 0;  // still tearing down: as "exited with status 0"
        result.interrupted = forwarding.finish();
        return result;
    }
    while (::waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
    }
    result.interrupted = forwarding.finish();
    return result;
}

void dieOfSignal(int sig) {
    std::fflush(nullptr);
    ::signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
    ::_exit(128 + sig);
}

ChildStatus runChildOrDie(const ChildRun& run) {
    ChildStatus status = runChild(run);
    if (status.interrupted) dieOfSignal(status.interrupted);
    return status;
}

}  // namespace pz::driver
