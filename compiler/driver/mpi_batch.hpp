// Batch solving across MPI ranks (docs/distributed.md): `mpirun -np N pzc
// solve FILE --scrambles F --mpi`. Rank 0 reads the positions, builds the
// solver, replays and prints every result; every rank, rank 0 too, runs the
// solver binary once and solves the chunks rank 0 hands out from one
// dynamic queue (solve times differ by orders of magnitude: no static
// split), so N ranks run N solvers. Nothing here knows a puzzle: positions
// are the solver's input lines, results its JSON result lines.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace pz::driver::mpi {

// True when pzc was built with MPI (PZ_HAVE_MPI).
bool available();

// How a generated program is compiled with MPI (pzc enumerate --mpi): the
// include directories and libraries CMake's FindMPI found when pzc-mpi was
// built. Empty without MPI.
struct BuildFlags {
    std::vector<std::string> includeDirs, libraries;
};
BuildFlags buildFlags();

// MPI for one `pzc solve --mpi`: MPI_Init on construction; on destruction,
// rank 0 tells every worker to stop, then MPI_Finalize. Only
// constructed when available().
class Session {
public:
    Session();
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    int rank() const { return rank_; }
    int size() const { return size_; }
    int workers() const { return size_ - 1; }
    int localRanks() const { return localRanks_; }  // on this rank's machine (MPI_COMM_TYPE_SHARED)

private:
    int rank_ = 0, size_ = 1, localRanks_ = 1;
};

// The session of this process, or nullptr (no --mpi, or one rank only).
Session* current();

// A worker rank's whole life: waits for the solver's argv, runs it once,
// solves chunks until told to stop. The process's exit code.
int runWorker(Session& session);

struct FarmResult {
    bool ok = true;
    int exitCode = 0;     // when !ok: as the single-process path (1: the solver refused its budget, 3 otherwise)
    std::string message;  // when !ok: the whole diagnostic line
    bool refusedFirst = false;  // a solver refused its memory budget before any answer (try another)
};

// Rank 0: `inputs` (one solver input line each) solved by rank 0's own
// solver and the workers', each running `argv` (note [threads per rank]:
// with "--threads" added by each rank when `argv` has none); onLine gets every result
// line in input order, its "index" the input's; onLines after each run of
// them (where the caller flushes what it printed). `progress`: positions
// done, rate and ETA on stderr.
FarmResult farm(Session& session, const std::vector<std::string>& argv, const std::vector<std::string>& inputs,
                bool progress, const std::function<void(const std::string&)>& onLine,
                const std::function<void()>& onLines);

}  // namespace pz::driver::mpi
