// pz::noDelayOnTcpSockets (pz/support/launcher_sockets.hpp, note [launcher
// sockets]): a connected loopback TCP pair gets TCP_NODELAY on both ends,
// a listening TCP socket too; a Unix-domain stream pair and a UDP socket
// are left alone (the option is TCP's).
#include "pz/support/launcher_sockets.hpp"

#include <arpa/inet.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>

namespace {

int noDelay(int fd) {
    int value = -1;
    socklen_t length = sizeof value;
    REQUIRE(::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, &length) == 0);
    return value;
}

}  // namespace

TEST_CASE("noDelayOnTcpSockets: TCP streams only", "[launcher_sockets]") {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;  // any free port
    REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener, 1) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    const int client = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(::connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    const int server = ::accept(listener, nullptr, nullptr);
    REQUIRE(server >= 0);
    int unixPair[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, unixPair) == 0);
    const int udp = ::socket(AF_INET, SOCK_DGRAM, 0);
    REQUIRE(udp >= 0);

    CHECK(noDelay(client) == 0);  // Linux's default: Nagle on
    CHECK(noDelay(server) == 0);
    CHECK(pz::noDelayOnTcpSockets() >= 3);  // the listener, client and server (the test runner may hold more)
    CHECK(noDelay(client) != 0);
    CHECK(noDelay(server) != 0);
    CHECK(noDelay(listener) != 0);
    // Not TCP: no option set (getsockopt TCP_NODELAY fails on them).
    int value = 0;
    socklen_t size = sizeof value;
    CHECK(::getsockopt(unixPair[0], IPPROTO_TCP, TCP_NODELAY, &value, &size) != 0);
    // The helper runs over them without failing, and they still work.
    CHECK(::write(unixPair[0], "x", 1) == 1);
    char c = 0;
    CHECK(::read(unixPair[1], &c, 1) == 1);
    CHECK(c == 'x');
    for (int fd : {client, server, listener, unixPair[0], unixPair[1], udp}) ::close(fd);
}
