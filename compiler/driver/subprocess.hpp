// Running a child process without a shell: the program and its arguments as
// a vector (fork + execv), input through a pipe to its stdin, its stdout read
// line by line. While the child runs, SIGINT/SIGTERM/SIGHUP sent to pzc are
// forwarded to it (then pzc dies of the same signal), and the child is
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
    std::string outputFile;         // when set: stdout and stderr go to this file
};

struct ChildStatus {
    bool started = false;
    std::string startError;  // why it could not be started (e.g. "Exec format error")
    int status = 0;          // waitpid status
    bool exited() const;     // exited normally
    int exitCode() const;    // when exited()
    // "exited with status 3", "was killed by signal 11 (Segmentation fault)", ...
    std::string describe() const;
};

ChildStatus runChild(const ChildRun& run);

}  // namespace pz::driver
