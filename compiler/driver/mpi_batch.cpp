// note [mpi batch]
// Messages (all text, MPI_CHAR) between rank 0 and a worker:
//   START  0 -> w  the solver's argv, '\0'-separated (sent once)
//   CHUNK  0 -> w  lines "INDEX\tINPUT" (a few positions)
//   DONE   0 -> w  this batch is over: the worker closes its solver and
//                  waits for another START (the next memory candidate)
//   STOP   0 -> w  the worker exits (sent by rank 0's Session at its end)
//   RESULTS w -> 0 lines "INDEX\tRESULT" for the last chunk; the first one
//                  is empty: each RESULTS asks for more (rank 0 keeps two
//                  chunks in flight per worker, so the next one is queued)
//   FAIL   w -> 0  "CODE\tMESSAGE": the worker's solver failed, with the
//                  exit code 4 (refused its memory budget) or 3; it answers
//                  the chunks it holds with FAIL too, then waits for DONE
// Every receive polls (MPI_Iprobe, then a short sleep) rather than blocking:
// Open MPI's blocking receive spins a core, which rank 0 and waiting
// workers would take from the solvers and the compiler.
// Rank 0 solves too: it runs the same solver as a child and takes chunks
// from the same queue, two in flight as for a worker. Its loop must wait on
// neither MPI nor that solver: the solver's pipes are non-blocking (input
// queued until the pipe takes it, output read as it comes and cut into
// whole lines), each turn pumps the pipes and probes MPI, and an idle turn
// sleeps in ppoll on the pipes (woken by the solver's answers; at most
// 1 ms, for MPI). Its solver ending before answering all it holds is a
// worker's FAIL from rank 0: the same message ("on rank 0"), exit codes
// and memory hand-over.
#include "compiler/driver/mpi_batch.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <list>
#include <sstream>

#ifdef PZ_HAVE_MPI
#include <fcntl.h>
#include <mpi.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "compiler/driver/result_protocol.hpp"
#include "compiler/driver/timeline.hpp"
#include "pz/support/launcher_sockets.hpp"
#endif

namespace pz::driver::mpi {

namespace {
Session* g_session = nullptr;
}

Session* current() { return g_session && g_session->size() > 1 ? g_session : nullptr; }

#ifndef PZ_HAVE_MPI

bool available() { return false; }
BuildFlags buildFlags() { return {}; }
Session::Session() {}
Session::~Session() {}
int runWorker(Session&) { return 3; }
FarmResult farm(Session&, const std::vector<std::string>&, const std::vector<std::string>&, bool,
                const std::function<void(const std::string&)>&, const std::function<void()>&) {
    return {false, 3, "pzc solve: internal error: pzc was built without MPI"};
}

#else

bool available() { return true; }

BuildFlags buildFlags() {
    // '|'-separated lists (compiler/driver/CMakeLists.txt).
    auto split = [](const std::string& text) {
        std::vector<std::string> out;
        for (size_t at = 0; at <= text.size();) {
            size_t end = text.find('|', at);
            if (end == std::string::npos) end = text.size();
            if (end > at) out.push_back(text.substr(at, end - at));
            at = end + 1;
        }
        return out;
    };
    return {split(PZC_MPI_INCLUDE_DIRS), split(PZC_MPI_LIBRARIES)};
}

namespace {

enum Tag { kStart = 1, kChunk, kDone, kStop, kResults, kFail };

// Note [sends do not wait]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Open MPI's shared-memory transport (vader) completes a blocking MPI_Send
// of more than a few dozen bytes only once the receiver next calls MPI,
// and spins a core until then: a worker sending its results spun until
// rank 0 woke (up to 1 ms), and rank 0 sending a chunk to a worker that was
// already waiting on its solver spun for that whole solve. perf of a
// 2-rank slide4 batch had both pzc ranks ~4% of a core in opal_progress
// under MPI_Send, taken from the solvers. So every message is sent with
// MPI_Isend and kept here until it completes, which the next MPI call on
// either side brings about; nothing waits for it but the end of the job.
class Outbox {
public:
    void send(int dest, Tag tag, std::string text) {
        reap();
        pending_.push_back({std::move(text), MPI_REQUEST_NULL});
        auto& [buffer, request] = pending_.back();  // a list node: its text stays put
        MPI_Isend(buffer.data(), static_cast<int>(buffer.size()), MPI_CHAR, dest, tag, MPI_COMM_WORLD, &request);
    }
    // Forgets the sends that completed.
    void reap() {
        for (auto it = pending_.begin(); it != pending_.end();) {
            int done = 0;
            MPI_Test(&it->second, &done, MPI_STATUS_IGNORE);
            it = done ? pending_.erase(it) : std::next(it);
        }
    }
    // Waits for every send (before MPI_Finalize, or before a worker ends:
    // its receiver, rank 0, is in its polling loop or finalising).
    void drain() {
        for (auto& [buffer, request] : pending_) MPI_Wait(&request, MPI_STATUS_IGNORE);
        pending_.clear();
    }

private:
    std::list<std::pair<std::string, MPI_Request>> pending_;
};

Outbox& outbox() {
    static Outbox box;
    return box;
}

void send(int dest, Tag tag, std::string text) { outbox().send(dest, tag, std::move(text)); }

// The message MPI_Iprobe found: its text, tag and sender.
std::string receiveProbed(const MPI_Status& status, int& tag, int& from) {
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    std::string text(static_cast<size_t>(count), '\0');
    MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    tag = status.MPI_TAG;
    from = status.MPI_SOURCE;
    return text;
}

// Waits for a message from `source`; its text, tag and sender.
std::string receive(int source, int& tag, int& from) {
    MPI_Status status;
    for (int ready = 0;;) {
        MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
        if (ready) break;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return receiveProbed(status, tag, from);
}

// The solver, run once for a batch and fed chunk by chunk (runChild in
// subprocess.hpp takes all its input up front), through non-blocking pipes.
// A worker's waits in solve(); rank 0's own is driven by queue() and pump()
// from its polling loop, which must never wait on it (note [mpi batch]).
class Solver {
public:
    explicit Solver(const std::vector<std::string>& argv) {
        int in[2], out[2];
        if (pipe2(in, O_CLOEXEC) != 0) return;
        if (pipe2(out, O_CLOEXEC) != 0) {
            close(in[0]);
            close(in[1]);
            return;
        }
        const pid_t parent = getpid();
        pid_ = fork();
        if (pid_ == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);  // no solver outlives its rank
            if (getppid() != parent) _exit(127);
            signal(SIGPIPE, SIG_DFL);
            dup2(in[0], STDIN_FILENO);
            dup2(out[1], STDOUT_FILENO);
            std::vector<char*> args;
            for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            execv(args[0], args.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        if (pid_ < 0) {
            close(in[1]);
            close(out[0]);
            return;
        }
        toChild_ = in[1];
        fromChild_ = out[0];
        for (int fd : {toChild_, fromChild_}) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }

    // Sends `lines` and reads one result line for each; false when the
    // solver ended first (then finish() says how). Writes and reads as each
    // pipe is ready: a chunk's input and results
    // may each pass a pipe's 64 KiB, and the solver stops reading while
    // its results wait to be read.
    bool solve(const std::vector<std::string>& lines, std::vector<std::string>& results) {
        if (pid_ <= 0) return false;
        for (const auto& l : lines) queue(l + "\n");
        const size_t want = results.size() + lines.size();
        for (;;) {
            const bool alive = pump(results);
            if (results.size() >= want) return true;
            if (!alive) return false;
            pollfd fds[2] = {{outputFd(), POLLIN, 0}, {inputFd(), POLLOUT, 0}};  // -1: ignored
            poll(fds, 2, -1);
        }
    }

    // Input for the solver, written by solve() or pump().
    void queue(const std::string& text) { pendingIn_ += text; }

    // Writes what its stdin takes now of the queued input and reads what it
    // has printed, each whole line into `lines`; never waits. False once
    // the solver has ended (its stdout closed, or its stdin refused).
    bool pump(std::vector<std::string>& lines) {
        if (pid_ <= 0 || toChild_ < 0) return false;
        const bool wrote = pendingIn_.empty() || writeSome();
        const bool open = readSome();  // what it printed before it ended counts too
        for (std::string line; takeLine(line);) lines.push_back(std::move(line));
        return wrote && open;
    }

    // What to poll(): its stdout, and its stdin while input waits.
    int outputFd() const { return fromChild_; }
    int inputFd() const { return pendingIn_.empty() ? -1 : toChild_; }

    // Closes its input (it ends when it has answered it); finish() reaps it.
    void closeInput() {
        if (toChild_ >= 0) close(toChild_);
        toChild_ = -1;
    }

    // Closes its input and waits for it.
    ChildStatus finish() {
        if (finished_) return status_;
        ChildStatus s;
        s.started = pid_ > 0;
        if (!s.started) {
            s.startError = "fork failed";
            return s;
        }
        closeInput();
        while (waitpid(pid_, &s.status, 0) < 0 && errno == EINTR) {
        }
        if (fromChild_ >= 0) close(fromChild_);
        fromChild_ = -1;
        pid_ = -1;
        finished_ = true;
        status_ = s;
        return s;
    }

    // note [no wait at exit] (subprocess.hpp): once it has answered all it
    // was given, the rank does not wait for it to unmap its tables and end
    // (8 ms after rank 0's last answer here); its input is closed, so it
    // ends on its own, or dies with the rank (PR_SET_PDEATHSIG).
    void leave() {
        closeInput();
        if (fromChild_ >= 0) close(fromChild_);
        fromChild_ = -1;
        pid_ = -1;
    }

    ~Solver() {
        if (pid_ > 0) finish();
    }

private:
    // Writes what the pipe takes now of the queued input; false when the
    // solver is gone.
    bool writeSome() {
        ssize_t n = write(toChild_, pendingIn_.data(), pendingIn_.size());
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return true;
        if (n <= 0) return false;
        pendingIn_.erase(0, static_cast<size_t>(n));
        return true;
    }
    // Reads what it has printed so far; false at its end.
    bool readSome() {
        if (fromChild_ < 0) return false;
        char buffer[1 << 16];
        ssize_t n;
        while ((n = read(fromChild_, buffer, sizeof buffer)) < 0 && errno == EINTR) {
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
        if (n <= 0) return false;
        pendingOut_.append(buffer, static_cast<size_t>(n));
        return true;
    }
    // The first whole line it printed, if any (a torn last line never is).
    bool takeLine(std::string& line) {
        size_t nl = pendingOut_.find('\n');
        if (nl == std::string::npos) return false;
        line = pendingOut_.substr(0, nl);
        pendingOut_.erase(0, nl + 1);
        return true;
    }

    pid_t pid_ = -1;
    int toChild_ = -1, fromChild_ = -1;
    std::string pendingIn_, pendingOut_;
    bool finished_ = false;
    ChildStatus status_;
};

// "INDEX\tTEXT" lines.
std::vector<std::pair<size_t, std::string>> splitIndexed(const std::string& text) {
    std::vector<std::pair<size_t, std::string>> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        size_t tab = line.find('\t');
        if (tab == std::string::npos) continue;
        out.emplace_back(std::stoull(line.substr(0, tab)), line.substr(tab + 1));
    }
    return out;
}

// A result line with its "index" set to `index` (the solver numbers the
// positions it was given; rank 0 knows them by their place in the batch).
std::string withIndex(const std::string& line, size_t index) {
    const std::string key = "\"index\":";  // then its number, after spaces
    size_t at = line.find(key);
    if (at == std::string::npos) return line;
    at = line.find_first_not_of(' ', at + key.size());
    if (at == std::string::npos) return line;
    size_t end = line.find_first_not_of("0123456789", at);
    return line.substr(0, at) + std::to_string(index) + line.substr(end == std::string::npos ? line.size() : end);
}

}  // namespace

Session::Session() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    // note [batch messaging layer]: a batch's messages are a few hundred
    // bytes (positions out, JSON lines back), which Open MPI's ob1 layer
    // carries over shared memory or TCP as well as any; its default probes
    // UCX devices first, 0.2 of the 0.3 s an MPI start took here (an empty
    // 2-rank job: 0.30 s, 0.10 s with ob1). Each rank picks it for itself,
    // before MPI_Init, unless the user chose a layer (OMPI_MCA_pml).
    // The enumerator, whose exchanges are gigabytes, keeps the default.
    if (!initialised) {
        ::setenv("OMPI_MCA_pml", "ob1", 0);
        MPI_Init(nullptr, nullptr);
        noDelayOnTcpSockets();  // note [launcher sockets]: MPI_Finalize 45 -> 2 ms
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &localRanks_);
    MPI_Comm_free(&node);
    g_session = this;
    timeline::mark("MPI initialized");
}

Session::~Session() {
    // The workers wait for another START (or never had one: rank 0 stopped
    // on an error, or had nothing to solve).
    if (rank_ == 0)
        for (int w = 1; w < size_; ++w) send(w, kStop, "");
    outbox().drain();
    g_session = nullptr;
    MPI_Finalize();
    timeline::mark("MPI finalized");
}

namespace {

// A FAIL message's text: "CODE\tMESSAGE" for a solver that ended before
// answering all it was given.
std::string failure(const std::vector<std::string>& argv, int rank, const ChildStatus& s) {
    const bool refused = s.exited() && s.exitCode() == 4;  // its memory budget (as one process: exit 1)
    return std::string(refused ? "4" : "3") + "\tpzc solve: " + (refused ? "error" : "internal error") +
           ": the solver " + argv[0] + " on rank " + std::to_string(rank) + " " + describeSolverStatus(s);
}

// Note [threads per rank]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Without --threads, a solver searches on every CPU of its machine; N ranks
// of one machine would then run N solvers of that many threads each. So
// each rank gives its solver its share, the machine's CPUs over the ranks
// on it (at least 1), as `pzc enumerate --mpi` does (threadsPerRank in
// pz/enumerate/enumerate_main.hpp). Each rank works it out for its own
// machine: nodes may differ. An explicit --threads is kept as given.
std::vector<std::string> withThreadShare(std::vector<std::string> argv, const Session& session) {
    if (std::find(argv.begin(), argv.end(), "--threads") != argv.end()) return argv;
    const int cpus = static_cast<int>(std::thread::hardware_concurrency());
    argv.insert(argv.end(), {"--threads", std::to_string(std::max(1, cpus / std::max(1, session.localRanks())))});
    return argv;
}

// One batch on a worker: runs `argv` and solves chunks until DONE (or STOP).
// False when told to STOP.
bool workerBatch(Session& session, const std::vector<std::string>& given) {
    const std::vector<std::string> argv = withThreadShare(given, session);
    timeline::mark("solver start");
    Solver solver(argv);
    bool failed = false;
    size_t answered = 0;  // chunks (note [timeline]: the first is marked)
    int tag = 0, from = 0;
    send(0, kResults, "");
    for (;;) {
        std::string text = receive(0, tag, from);
        if (tag != kChunk) break;
        auto chunk = splitIndexed(text);
        std::vector<std::string> lines, results;
        for (const auto& [i, input] : chunk) lines.push_back(input);
        if (!failed && solver.solve(lines, results)) {
            if (!answered++) timeline::mark("first results");
            std::string reply;
            for (size_t k = 0; k < chunk.size(); ++k) reply += std::to_string(chunk[k].first) + "\t" + results[k] + "\n";
            send(0, kResults, reply);
            continue;
        }
        failed = true;
        send(0, kFail, failure(argv, session.rank(), solver.finish()));
    }
    if (failed)
        solver.finish();
    else
        solver.leave();  // it answered every chunk: rank 0 sends DONE only then
    timeline::mark("solver left");
    return tag == kDone;
}

}  // namespace

int runWorker(Session& session) {
    signal(SIGPIPE, SIG_IGN);  // a dead solver is reported, not fatal
    // One batch per solver rank 0 tries (note [memory choice] may try several).
    for (;;) {
        int tag = 0, from = 0;
        std::string text = receive(0, tag, from);
        if (tag != kStart) return 0;
        std::vector<std::string> argv;
        for (size_t at = 0; at < text.size();) {
            size_t end = text.find('\0', at);
            if (end == std::string::npos) end = text.size();
            argv.push_back(text.substr(at, end - at));
            at = end + 1;
        }
        if (!workerBatch(session, argv)) return 0;
    }
}

namespace {

// Note [batch tail]
// ~~~~~~~~~~~~~~~~~
// Every solver holds kInFlight chunks, so when the queue runs dry each
// still has up to kInFlight chunks to answer, and the batch ends when the
// most loaded one does. Chunks of 4 left the last rank up to 8 positions
// (~30 ms of slide4) behind the first. So a chunk is at most the queue's
// share of 4 chunks per solver: `most` positions while the queue is long,
// 1 at its end (one message per position then: a few tens of microseconds
// against milliseconds of search).
size_t chunkSize(size_t queued, size_t solvers, size_t most) {
    return std::clamp<size_t>(queued / (4 * solvers), 1, most);
}

// Note [chunk size]
// ~~~~~~~~~~~~~~~~~
// `most`: 4 positions, or as many as the solvers answer in ~10 ms at the
// rate measured so far (all solvers' positions per second of the batch),
// up to 4096. Positions that take microseconds (the 2x2x2's 40 us) in
// chunks of 4 made every chunk a round trip through rank 0, whose loop
// wakes once a millisecond: a worker idled most of the time and 2 ranks
// ran slower than one process. Slide4's 3.5 ms positions keep chunks of 4.
size_t chunkMost(size_t done, double seconds, size_t solvers) {
    constexpr size_t kLeast = 4, kMost = 4096;
    constexpr double kChunkSeconds = 0.010;
    if (done == 0 || seconds <= 0) return kLeast;
    const double perPosition = seconds * static_cast<double>(solvers) / static_cast<double>(done);
    return std::clamp<size_t>(static_cast<size_t>(kChunkSeconds / perPosition), kLeast, kMost);
}

}  // namespace

FarmResult farm(Session& session, const std::vector<std::string>& given, const std::vector<std::string>& inputs,
                bool progress, const std::function<void(const std::string&)>& onLine,
                const std::function<void()>& onLines) {
    const std::vector<std::string> argv = withThreadShare(given, session);  // rank 0's own solver
    // note [batch tail], note [chunk size]: chunks of up to ~10 ms of
    // solving while the queue is long, single positions at its end.
    // Two chunks per solver: the next one waits in its queue while it
    // solves, so it never idles for a round trip to rank 0.
    constexpr int kInFlight = 2;
    // A solver that ends early is reported, not fatal (restored at the end).
    struct sigaction ignorePipe {}, oldPipe {};
    ignorePipe.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignorePipe, &oldPipe);
    const auto begin = std::chrono::steady_clock::now();  // of the batch: its rate (progress, note [chunk size])
    std::vector<int> inFlight(session.size());
    std::vector<bool> asked(session.size());
    std::string start;
    for (const auto& a : given) start += a + '\0';
    for (int w = 1; w < session.size(); ++w) send(w, kStart, start);
    std::vector<std::string> results(inputs.size());
    std::vector<bool> have(inputs.size());
    size_t next = 0, printed = 0, done = 0;
    int stopped = 0;
    FarmResult out;
    auto fail = [&](const std::string& text) {
        if (!out.ok) return;  // the first failure is the one reported
        size_t tab = text.find('\t');
        out = {false, std::stoi(text.substr(0, tab)), text.substr(tab + 1)};
    };
    auto accept = [&](size_t i, const std::string& line) {
        if (i >= inputs.size() || have[i]) return;
        results[i] = withIndex(line, i);
        have[i] = true;
        ++done;
    };
    // The next chunk from the queue: its positions' indices.
    auto takeChunk = [&] {
        const size_t solvers = static_cast<size_t>(session.size());
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        const size_t size = chunkSize(inputs.size() - next, solvers, chunkMost(done, seconds, solvers));
        std::vector<size_t> chunk;
        for (; chunk.size() < size && next < inputs.size(); ++next) chunk.push_back(next);
        return chunk;
    };
    // Rank 0's own solver: the chunks it holds, in the order it answers them.
    timeline::mark("solver start");
    Solver local(argv);
    std::deque<std::vector<size_t>> localChunks;
    size_t localAnswered = 0;  // of the first chunk
    size_t localAnswers = 0;    // in all (note [timeline]: its first is marked)
    bool localRunning = true;
    auto feedLocal = [&] {
        for (; out.ok && next < inputs.size() && localChunks.size() < static_cast<size_t>(kInFlight);) {
            localChunks.push_back(takeChunk());
            for (size_t i : localChunks.back()) local.queue(inputs[i] + "\n");
        }
        if (localChunks.empty()) {  // nothing more for it: it ends while the workers finish
            local.closeInput();
            localRunning = false;
            timeline::mark("rank 0 solver done");
        }
    };
    feedLocal();
    auto lastReport = begin;
    while (stopped < session.workers() || localRunning) {
        const size_t doneBefore = done;
        bool busy = false;  // something happened: look again before sleeping
        if (localRunning) {
            std::vector<std::string> lines;
            const bool alive = local.pump(lines);
            busy = !lines.empty();
            for (const auto& line : lines) {
                if (localChunks.empty()) break;  // more lines than positions: not a result
                if (localAnswers++ == 0) timeline::mark("rank 0 result");
                accept(localChunks.front()[localAnswered], line);
                if (++localAnswered == localChunks.front().size()) {
                    localChunks.pop_front();
                    localAnswered = 0;
                }
            }
            if (!alive) {
                // Ended unasked: as a worker's FAIL, the chunks it held are lost.
                ChildStatus s = local.finish();
                if (!localChunks.empty() || (out.ok && next < inputs.size())) fail(failure(argv, 0, s));
                localChunks.clear();
                localRunning = false;
                busy = true;
            } else {
                feedLocal();
            }
        }
        int ready = 0;
        MPI_Status status;
        if (stopped < session.workers()) MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
        if (ready) {
            busy = true;
            int tag = 0, from = 0;
            std::string text = receiveProbed(status, tag, from);
            if (tag == kFail) fail(text);
            if (tag == kResults)
                for (auto& [i, line] : splitIndexed(text)) accept(i, line);
            // Each message answers one chunk, except a worker's first (a request).
            if (asked[from]) --inFlight[from];
            asked[from] = true;
            for (; out.ok && next < inputs.size() && inFlight[from] < kInFlight; ++inFlight[from]) {
                std::string chunk;
                for (size_t i : takeChunk()) chunk += std::to_string(i) + "\t" + inputs[i] + "\n";
                send(from, kChunk, chunk);
            }
            if (inFlight[from] == 0) {
                send(from, kDone, "");
                if (++stopped == session.workers()) timeline::mark("workers done");
            }
        }
        // In order; after a failure too, up to the first lost chunk (so --resume redoes less).
        const size_t printedBefore = printed;
        for (; printed < inputs.size() && have[printed]; ++printed) onLine(results[printed]);
        if (printed > printedBefore) onLines();
        const auto now = std::chrono::steady_clock::now();
        if (progress && done > doneBefore && (now - lastReport > std::chrono::seconds(1) || done == inputs.size())) {
            lastReport = now;
            const double secs = std::chrono::duration<double>(now - begin).count();
            const double rate = secs > 0 ? done / secs : 0;
            char buf[160];
            std::snprintf(buf, sizeof buf, "pzc solve: %zu/%zu positions, %.1f/s, ETA %.0f s (%d ranks solving)\n",
                          done, inputs.size(), rate, rate > 0 ? (inputs.size() - done) / rate : 0.0, session.size());
            std::cerr << buf << std::flush;
        }
        if (busy) continue;
        // Nothing yet: wait a little, or less if rank 0's solver prints (or can take its input).
        pollfd fds[2];
        nfds_t n = 0;
        if (localRunning) {
            fds[n++] = {local.outputFd(), POLLIN, 0};
            if (local.inputFd() >= 0) fds[n++] = {local.inputFd(), POLLOUT, 0};
        }
        // 1 ms: every solver has its next chunk queued (note [batch tail]),
        // so a worker's answer waiting that long idles nobody, and rank 0,
        // sharing a core with the solvers, wakes 1,000 times a second, not 5,000.
        const timespec pause{0, 1000 * 1000};
        ppoll(fds, n, &pause, nullptr);
    }
    timeline::mark("results");
    local.leave();  // answered all it held, or already finished (failed)
    sigaction(SIGPIPE, &oldPipe, nullptr);
    out.refusedFirst = !out.ok && out.exitCode == 4 && done == 0;
    if (out.exitCode == 4) out.exitCode = 1;
    return out;
}

#endif

}  // namespace pz::driver::mpi
