#include "compiler/driver/http_server.hpp"

#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <iostream>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include "compiler/driver/http_request.hpp"

namespace pz::driver::http {

namespace {

constexpr size_t kMaxHead = 16 * 1024;     // a request head longer than this is refused
constexpr size_t kMaxConnections = 128;    // beyond: 503, so a flood cannot spawn unbounded threads
constexpr int kIdleSeconds = 15;           // an idle keep-alive connection is closed after this
constexpr int kStallSeconds = 60;          // a reader that takes nothing for this long is dropped

// The connections being served, so that stopping can end them (shutdown
// wakes a thread blocked in recv or sendfile) and wait for their threads.
struct Connections {
    std::mutex mutex;
    std::condition_variable idle;
    std::set<int> open;
};

std::mutex logMutex;

bool sendAll(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
}

// The file's bytes, streamed by the kernel: no copy of a large file in memory.
bool sendFile(int sock, int file, off_t size) {
    off_t offset = 0;
    while (offset < size) {
        const ssize_t n = ::sendfile(sock, file, &offset, static_cast<size_t>(size - offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;  // the peer left, stalled past kStallSeconds, or the file shrank
    }
    return true;
}

const char* reason(int status) {
    switch (status) {
        case 200: return "OK";
        case 301: return "Moved Permanently";
        case 400: return "Bad Request";
        case 403: return "Forbidden";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 431: return "Request Header Fields Too Large";
        case 503: return "Service Unavailable";
        default: return "Error";
    }
}

// The status line and the headers every response carries. The two
// cross-origin headers make the page cross-origin isolated, which a page
// needs for SharedArrayBuffer (threads in WebAssembly); no-cache: a
// rebuilt solver is fetched again, not taken from the browser's cache.
std::string headers(int status, std::string_view type, uintmax_t length, bool keepAlive,
                    const std::string& extra = "") {
    std::string h = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
    h += "Content-Type: " + std::string(type) + "\r\n";
    h += "Content-Length: " + std::to_string(length) + "\r\n";
    h += "Cache-Control: no-cache\r\n";
    h += "Cross-Origin-Opener-Policy: same-origin\r\n";
    h += "Cross-Origin-Embedder-Policy: require-corp\r\n";
    h += "X-Content-Type-Options: nosniff\r\n";
    h += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    return h + extra + "\r\n";
}

struct Request {
    const RequestHead& head;
    bool keepAlive;
    bool log;
};

void logLine(const Request& r, int status) {
    if (!r.log) return;
    std::lock_guard lock(logMutex);
    std::cerr << r.head.method << ' ' << r.head.target << ' ' << status << '\n';
}

bool respondError(int sock, const Request& r, int status, const std::string& extra = "") {
    logLine(r, status);
    const std::string body = std::to_string(status) + " " + reason(status) + "\n";
    std::string out = headers(status, "text/plain; charset=utf-8", body.size(), r.keepAlive, extra);
    if (r.head.method != "HEAD") out += body;
    return sendAll(sock, out);
}

// GET or HEAD of a file under root. Returns whether the connection may go on.
bool respondFile(int sock, const std::string& root, const Request& r) {
    const auto path = targetPath(r.head.target);
    if (!path) return respondError(sock, r, 400);
    std::string file = root + "/" + *path;
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        // A directory's URL ends in '/', so the relative links of its
        // index.html resolve inside it: redirect /dir to /dir/.
        const std::string_view target = r.head.target;
        const size_t end = target.find_first_of("?#");
        if (target.substr(0, end).back() != '/') {
            const std::string query(end == std::string_view::npos ? "" : target.substr(end));
            const std::string location(target.substr(0, end));
            return respondError(sock, r, 301, "Location: " + location + "/" + query + "\r\n");
        }
        file += "/index.html";
    }
    // O_NONBLOCK: a FIFO under the root must not hang the connection in open (it is then refused as not a regular file).
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return respondError(sock, r, errno == EACCES ? 403 : 404);
    bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (!ok) {
        ::close(fd);
        return respondError(sock, r, 404);
    }
    logLine(r, 200);
    ok = sendAll(sock, headers(200, mimeType(file), static_cast<uintmax_t>(st.st_size), r.keepAlive));
    if (ok && r.head.method == "GET") ok = sendFile(sock, fd, st.st_size);
    ::close(fd);
    return ok;
}

// The requests of one connection, in turn, until it closes, idles past
// kIdleSeconds, or a response ends it.
void serveConnection(int sock, const std::string& root, bool log) {
    timeval idle{kIdleSeconds, 0}, stall{kStallSeconds, 0};
    ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &idle, sizeof idle);
    ::setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &stall, sizeof stall);
    // The headers and a small body go out as two segments: with Nagle's
    // algorithm the second waited for the browser's delayed ACK of the
    // first, 40 ms a file (the page's first drawing took 0.8-1 s, 0.X s without).
    const int one = 1;
    ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::string buffer;
    char chunk[4096];
    for (;;) {
        size_t end;
        while ((end = buffer.find("\r\n\r\n")) == std::string::npos && buffer.size() <= kMaxHead) {
            const ssize_t n = ::recv(sock, chunk, sizeof chunk, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;  // closed, idle, or stopping
            buffer.append(chunk, static_cast<size_t>(n));
        }
        const RequestHead none;
        if (end == std::string::npos || end > kMaxHead) {
            respondError(sock, {none, false, log}, 431);
            return;
        }
        const auto head = parseHead(std::string_view(buffer).substr(0, end));
        if (!head) {
            respondError(sock, {none, false, log}, 400);
            return;
        }
        buffer.erase(0, end + 4);
        // HTTP/1.1 keeps the connection unless told "close"; 1.0 closes it
        // unless told "keep-alive" (the header is a comma-separated list).
        std::string connection = head->header("connection") ? *head->header("connection") : "";
        for (char& c : connection) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        bool keepAlive = head->version == "HTTP/1.1" ? connection.find("close") == std::string::npos
                                                      : connection.find("keep-alive") != std::string::npos;
        // Bodies are not read (GET and HEAD have none): a request with one
        // is answered, then the connection ends rather than misread it.
        if (head->header("content-length") || head->header("transfer-encoding")) keepAlive = false;
        const Request request{*head, keepAlive, log};
        bool ok;
        if (head->method == "GET" || head->method == "HEAD") ok = respondFile(sock, root, request);
        else ok = respondError(sock, request, 405, "Allow: GET, HEAD\r\n");
        if (!ok || !keepAlive) return;
    }
}

}  // namespace

Server::~Server() {
    if (fd_ >= 0) ::close(fd_);
}

namespace {

// The address to bind: a numeric IPv4 or IPv6 address, or "localhost".
// No name lookup (getaddrinfo): a statically linked pzc (note [static
// dependencies]) would need glibc's shared NSS libraries at run time for it.
std::optional<sockaddr_storage> parseAddress(const std::string& host, unsigned port, socklen_t& length) {
    sockaddr_storage address{};
    const std::string numeric = host == "localhost" ? "127.0.0.1" : host;
    auto* v4 = reinterpret_cast<sockaddr_in*>(&address);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&address);
    if (::inet_pton(AF_INET, numeric.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(static_cast<uint16_t>(port));
        length = sizeof *v4;
    } else if (::inet_pton(AF_INET6, numeric.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(static_cast<uint16_t>(port));
        length = sizeof *v6;
    } else {
        return std::nullopt;
    }
    return address;
}

}  // namespace

std::optional<std::string> Server::listen(const std::string& host, unsigned port) {
    const std::string where = host + ":" + std::to_string(port);
    socklen_t length = 0;
    const auto address = parseAddress(host, port, length);
    if (!address) return "cannot listen on " + where + ": not an IP address (give one such as 127.0.0.1, ::1 or 0.0.0.0)";
    const int fd = ::socket(address->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return "cannot listen on " + where + ": " + std::strerror(errno);
    // A restarted server may take its port back from connections still in
    // TIME_WAIT; a port a live server listens on stays refused.
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&*address), length) != 0 || ::listen(fd, 64) != 0) {
        const int error = errno;
        ::close(fd);
        std::string message = "cannot listen on " + where + ": " + std::strerror(error);
        if (error == EADDRINUSE) message += " (another server is running there; --port 0 picks a free port)";
        return message;
    }
    fd_ = fd;
    sockaddr_storage bound{};
    socklen_t boundLength = sizeof bound;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &boundLength);
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    host_ = host;
    return std::nullopt;
}

std::string Server::url() const {
    const bool v6 = host_.find(':') != std::string::npos;
    return "http://" + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_) + "/";
}

void Server::run(const std::string& root, int stopFd, bool log) {
    Connections connections;
    pollfd fds[2] = {{fd_, POLLIN, 0}, {stopFd, POLLIN, 0}};
    for (;;) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents) break;
        if (!(fds[0].revents & POLLIN)) continue;
        const int sock = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (sock < 0) continue;  // the peer gave up already, or out of descriptors for now
        std::lock_guard lock(connections.mutex);
        if (connections.open.size() >= kMaxConnections) {
            const RequestHead none;
            respondError(sock, {none, false, false}, 503);
            ::close(sock);
            continue;
        }
        connections.open.insert(sock);
        try {
            std::thread([sock, &root, log, &connections] {
                serveConnection(sock, root, log);
                std::lock_guard lock(connections.mutex);
                connections.open.erase(sock);
                ::close(sock);
                connections.idle.notify_all();
            }).detach();
        } catch (const std::system_error&) {  // no thread to be had: this connection goes unanswered
            connections.open.erase(sock);
            ::close(sock);
        }
    }
    ::close(fd_);
    fd_ = -1;
    // End every connection and wait for its thread: they refer to root and
    // to connections, which end with this function.
    std::unique_lock lock(connections.mutex);
    for (int sock : connections.open) ::shutdown(sock, SHUT_RDWR);
    connections.idle.wait(lock, [&] { return connections.open.empty(); });
}

}  // namespace pz::driver::http
