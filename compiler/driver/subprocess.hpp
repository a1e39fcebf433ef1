// Running a child process without a shell: the program and its arguments as
// a vector (fork + execv), input through a pipe to its stdin, its stdout read
// line by line. While the child runs, SIGINT/SIGTERM/SIGHUP sent to pzc are
// forwarded to it (then pzc dies of the same signal, after its caller has
// cleaned up), and the child is
// killed if pzc dies (PR_SET_PDEATHSIG), so no solver outlives its pzc.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace pz::driver {

struct ChildRun {
    std::vector<std::string> argv;  // argv[0] is the program's path (no PATH search unless searchPath)
    bool searchPath = false;        // look argv[0] up in $PATH (the system compiler)
    std::string input;              // written to the child's stdin, then closed
    // Called for every line of the child's stdout (without the newline);
    // ignored when outputFile is set.
    std::function<void(const std::string&)> onLine;
    // Called after each read's whole lines went to onLine: the child has
    // said all it has for now, so a caller that prints what it reads
    // flushes here (one write per read, not per line; as soon, though).
    std::function<void()> onLines;
    std::string outputFile;         // when set: stdout and stderr go to this file
    // note [no wait at exit]: called when the child's stdout ends; true when
    // everything it was run for has arrived. pzc then does not wait for the
    // child to exit (a solver unmapping a 247 MiB table took 25-40 ms after
    // its last answer): the status reads as "exited 0" and the child, past
    // its work, is left to end (it dies with pzc: PR_SET_PDEATHSIG).
    std::function<bool()> complete;
};

struct ChildStatus {
    bool started = false;
    std::string startError;  // why it could not be started (e.g. "Exec format error")
    int status = 0;          // waitpid status
    int interrupted = 0;     // a signal pzc received (and forwarded) while the child ran
    bool exited() const;     // exited normally
    int exitCode() const;    // when exited()
    // "exited with status 3", "was killed by signal 11 (Segmentation fault)", ...
    std::string describe() const;
};

// Runs the child to its end. If pzc was sent SIGINT/SIGTERM/SIGHUP meanwhile
// (forwarded to the child), the result says so in `interrupted`, and the
// caller cleans up and calls dieOfSignal.
ChildStatus runChild(const ChildRun& run);

// Ends pzc by `sig` with the default action (as if it had not been caught).
[[noreturn]] void dieOfSignal(int sig);

// runChild, then dieOfSignal if pzc was interrupted: for callers with
// nothing to clean up.
ChildStatus runChildOrDie(const ChildRun& run);

}  // namespace pz::driver
