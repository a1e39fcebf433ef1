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
#include "compiler/driver/mpi_batch.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#ifdef PZ_HAVE_MPI
#include <mpi.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "compiler/driver/result_protocol.hpp"
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
                const std::function<void(const std::string&)>&) {
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

void send(int dest, Tag tag, const std::string& text) {
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, dest, tag, MPI_COMM_WORLD);
}

// Waits for a message from `source` (MPI_ANY_SOURCE too); its text, tag and sender.
std::string receive(int source, int& tag, int& from) {
    MPI_Status status;
    for (int ready = 0;;) {
        MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
        if (ready) break;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    std::string text(static_cast<size_t>(count), '\0');
    MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    tag = status.MPI_TAG;
    from = status.MPI_SOURCE;
    return text;
}

// The solver, run once for the worker's whole life and fed chunk by chunk
// (runChild in subprocess.hpp takes all its input up front).
class Solver {
public:
    explicit Solver(const std::vector<std::string>& argv) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) return;
        pid_ = fork();
        if (pid_ == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);  // no solver outlives its worker
            dup2(in[0], STDIN_FILENO);
            dup2(out[1], STDOUT_FILENO);
            for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
            std::vector<char*> args;
            for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            execv(args[0], args.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        toChild_ = in[1];
        fromChild_ = fdopen(out[0], "r");
    }

    // Sends `lines` and reads one result line for each; false when the
    // solver ended first (then status() says how).
    bool solve(const std::vector<std::string>& lines, std::vector<std::string>& results) {
        if (pid_ <= 0) return false;
        std::string text;
        for (const auto& l : lines) text += l + "\n";
        for (size_t done = 0; done < text.size();) {
            ssize_t n = write(toChild_, text.data() + done, text.size() - done);
            if (n <= 0) return false;
            done += static_cast<size_t>(n);
        }
        char* buf = nullptr;
        size_t cap = 0;
        for (size_t i = 0; i < lines.size(); ++i) {
            ssize_t n = getline(&buf, &cap, fromChild_);
            if (n <= 0) {
                free(buf);
                return false;
            }
            results.emplace_back(buf, static_cast<size_t>(n) - (buf[n - 1] == '\n'));
        }
        free(buf);
        return true;
    }

    // Closes its input and waits for it.
    ChildStatus finish() {
        ChildStatus s;
        s.started = pid_ > 0;
        if (pid_ <= 0) {
            s.startError = "fork failed";
            return s;
        }
        if (toChild_ >= 0) close(toChild_);
        toChild_ = -1;
        waitpid(pid_, &s.status, 0);
        if (fromChild_) fclose(fromChild_);
        fromChild_ = nullptr;
        pid_ = -1;
        return s;
    }

    ~Solver() {
        if (pid_ > 0) finish();
    }

private:
    pid_t pid_ = -1;
    int toChild_ = -1;
    FILE* fromChild_ = nullptr;
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
    if (!initialised) MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    g_session = this;
}

Session::~Session() {
    // The workers wait for another START (or never had one: rank 0 stopped
    // on an error, or had nothing to solve).
    if (rank_ == 0)
        for (int w = 1; w < size_; ++w) send(w, kStop, "");
    g_session = nullptr;
    MPI_Finalize();
}

namespace {

// One batch on a worker: runs `argv` and solves chunks until DONE (or STOP).
// False when told to STOP.
bool workerBatch(Session& session, const std::vector<std::string>& argv) {
    Solver solver(argv);
    bool failed = false;
    int tag = 0, from = 0;
    send(0, kResults, "");
    for (;;) {
        std::string text = receive(0, tag, from);
        if (tag != kChunk) break;
        auto chunk = splitIndexed(text);
        std::vector<std::string> lines, results;
        for (const auto& [i, input] : chunk) lines.push_back(input);
        if (!failed && solver.solve(lines, results)) {
            std::string reply;
            for (size_t k = 0; k < chunk.size(); ++k) reply += std::to_string(chunk[k].first) + "\t" + results[k] + "\n";
            send(0, kResults, reply);
            continue;
        }
        failed = true;
        ChildStatus s = solver.finish();
        const bool refused = s.exited() && s.exitCode() == 4;  // its memory budget (as one process: exit 1)
        send(0, kFail, std::string(refused ? "4" : "3") + "\tpzc solve: " + (refused ? "error" : "internal error") +
                           ": the solver " + argv[0] + " on rank " + std::to_string(session.rank()) + " " +
                           describeSolverStatus(s));
    }
    solver.finish();
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

FarmResult farm(Session& session, const std::vector<std::string>& argv, const std::vector<std::string>& inputs,
                bool progress, const std::function<void(const std::string&)>& onLine) {
    constexpr size_t kChunkSize = 4;  // small: a slow position holds up only its chunk
    // Two chunks per worker: the next one waits in its queue while it
    // solves, so its solver never idles for a round trip to rank 0.
    constexpr int kInFlight = 2;
    std::vector<int> inFlight(session.size());
    std::vector<bool> asked(session.size());
    std::string start;
    for (const auto& a : argv) start += a + '\0';
    for (int w = 1; w < session.size(); ++w) send(w, kStart, start);
    std::vector<std::string> results(inputs.size());
    std::vector<bool> have(inputs.size());
    size_t next = 0, printed = 0, done = 0;
    int stopped = 0;
    FarmResult out;
    const auto begin = std::chrono::steady_clock::now();
    auto lastReport = begin;
    while (stopped < session.workers()) {
        int tag = 0, from = 0;
        std::string text = receive(MPI_ANY_SOURCE, tag, from);
        if (tag == kFail && out.ok) {
            size_t tab = text.find('\t');
            out = {false, std::stoi(text.substr(0, tab)), text.substr(tab + 1)};
        }
        for (auto& [i, line] : splitIndexed(text)) {
            if (tag != kResults || i >= inputs.size() || have[i]) continue;
            results[i] = withIndex(line, i);
            have[i] = true;
            ++done;
        }
        // In order; after a failure too, up to the first lost chunk (so --resume redoes less).
        for (; printed < inputs.size() && have[printed]; ++printed) onLine(results[printed]);
        // Each message answers one chunk, except a worker's first (a request).
        if (asked[from]) --inFlight[from];
        asked[from] = true;
        for (; out.ok && next < inputs.size() && inFlight[from] < kInFlight; ++inFlight[from]) {
            std::string chunk;
            for (size_t k = 0; k < kChunkSize && next < inputs.size(); ++k, ++next)
                chunk += std::to_string(next) + "\t" + inputs[next] + "\n";
            send(from, kChunk, chunk);
        }
        if (inFlight[from] == 0) {
            send(from, kDone, "");
            ++stopped;
        }
        const auto now = std::chrono::steady_clock::now();
        if (progress && tag == kResults && (now - lastReport > std::chrono::seconds(1) || done == inputs.size())) {
            lastReport = now;
            const double secs = std::chrono::duration<double>(now - begin).count();
            const double rate = secs > 0 ? done / secs : 0;
            char buf[160];
            std::snprintf(buf, sizeof buf, "pzc solve: %zu/%zu positions, %.1f/s, ETA %.0f s (%d ranks solving)\n",
                          done, inputs.size(), rate, rate > 0 ? (inputs.size() - done) / rate : 0.0,
                          session.workers());
            std::cerr << buf << std::flush;
        }
    }
    out.refusedFirst = !out.ok && out.exitCode == 4 && done == 0;
    if (out.exitCode == 4) out.exitCode = 1;
    return out;
}

#endif

}  // namespace pz::driver::mpi
