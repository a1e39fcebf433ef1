// The static HTTP/1.1 file server of `pzc serve` (cmd_serve.cpp; docs/web.md):
// GET and HEAD of the files under one root, a thread per connection,
// keep-alive, files streamed with sendfile (tables can be hundreds of MB).
// What a request names, and its MIME type, is http_request.hpp's.
#pragma once

#include <optional>
#include <string>

namespace pz::driver::http {

class Server {
public:
    Server() = default;
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;
    ~Server();

    // Binds host:port (port 0: a free one) and listens. The error, one
    // line, when that fails (the port in use, an unknown host).
    std::optional<std::string> listen(const std::string& host, unsigned port);
    unsigned port() const { return port_; }
    std::string url() const;  // http://HOST:PORT/

    // Serves the files under `root` until `stopFd` becomes readable (a
    // signalfd), then ends the open connections and returns. `log`: a
    // line per request on stderr.
    void run(const std::string& root, int stopFd, bool log);

private:
    int fd_ = -1;
    unsigned port_ = 0;
    std::string host_;
};

}  // namespace pz::driver::http
