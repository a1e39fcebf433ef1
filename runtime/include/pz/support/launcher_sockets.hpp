// pz/support/launcher_sockets.hpp — no Nagle delay on the MPI launcher's
// TCP connection.
//
// note [launcher sockets]
// Open MPI 4.1's ranks talk to their launcher (mpirun, or Slurm's PMIx
// server) over a TCP connection that PMIx opens without TCP_NODELAY. Its
// messages are tens of bytes; MPI_Finalize sends four in a row, so the
// second waits (Nagle) for the first's acknowledgement, which the launcher
// delays by the kernel's 40 ms minimum (delayed ACK): strace of an empty
// 2-rank job here showed the fence message leave the rank 40 ms before
// mpirun read it, and every rank's MPI_Finalize took 43-46 ms of a 0.10 s
// job. With TCP_NODELAY set on that socket after MPI_Init, finalize takes
// ~2 ms and the job 0.05 s. The socket is not ours to name, so every
// connected TCP stream socket of the process gets the option: at MPI_Init
// the only ones are MPI's own (PMIx, and Open MPI's TCP transports, which
// set it themselves), and TCP_NODELAY changes no message, only when it
// leaves.
#pragma once

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>

namespace pz {

// Sets TCP_NODELAY on every TCP stream socket open in this process (call
// right after MPI_Init); how many it set.
inline int noDelayOnTcpSockets() {
    rlimit files{};
    const int top = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
                        ? static_cast<int>(std::min<rlim_t>(files.rlim_cur, 4096))
                        : 1024;
    int set = 0;
    for (int fd = 0; fd < top; ++fd) {
        int type = 0;
        socklen_t length = sizeof type;
        if (::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM) continue;
        sockaddr_storage address{};
        socklen_t addressLength = sizeof address;
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &addressLength) != 0) continue;
        if (address.ss_family != AF_INET && address.ss_family != AF_INET6) continue;
        const int one = 1;
        if (::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0) ++set;
    }
    return set;
}

}  // namespace pz
