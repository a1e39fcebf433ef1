#!/usr/bin/env python3
"""pzc serve (docs/web.md) over real sockets: MIME types, index.html, 404,
405, 400, path traversal refused however it is spelled, HEAD, keep-alive,
a 50 MB file streamed intact, concurrent connections, the port in use,
a clean stop on SIGTERM, and the default root of a build tree and of an
installed layout.

usage: serve_test.py PZC
"""
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PZC = os.path.abspath(sys.argv[1])
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


class Server:
    """pzc serve --port 0 on a root; the port read from its first line."""

    def __init__(self, root=None, pzc=PZC, extra=()):
        args = [pzc, "serve", "--port", "0"] + (["--root", root] if root else []) + list(extra)
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.line = self.proc.stdout.readline().strip()
        if not self.line.startswith("serving "):
            raise SystemExit("pzc serve did not start: %r %s" % (self.line, self.proc.stderr.read()))
        self.port = int(self.line.rsplit(":", 1)[1].rstrip("/"))

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


class Connection:
    """A client connection that reads responses one at a time (keep-alive:
    bytes past one response stay buffered for the next)."""

    def __init__(self, port, timeout=30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = bytearray()  # appended in place: a 50 MB body in 64 KB reads stays linear

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        self.buffer += chunk
        return bool(chunk)

    def response(self, head_only=False):
        """(status, headers dict lower-cased, body bytes)."""
        while b"\r\n\r\n" not in self.buffer and self._fill():
            pass
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        self.buffer = bytearray(rest)
        lines = bytes(head).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = 0 if head_only else int(headers.get("content-length", "0"))
        while len(self.buffer) < length and self._fill():
            pass
        body = bytes(self.buffer[:length])
        del self.buffer[:length]
        return status, headers, body

    def close(self):
        self.sock.close()


def request(port, raw, head_only=False):
    """Sends raw (the request exactly as written, no normalisation)."""
    conn = Connection(port)
    try:
        conn.sock.sendall(raw.encode("latin-1"))
        return conn.response(head_only)
    finally:
        conn.close()


def get(port, path, method="GET"):
    return request(port, "%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % (method, path), method == "HEAD")


def make_root(tmp):
    root = os.path.join(tmp, "root")
    os.makedirs(os.path.join(root, "sub"))
    os.makedirs(os.path.join(root, "noindex"))
    files = {"index.html": b"<!doctype html><title>t</title>", "sub/index.html": b"<p>sub</p>",
             "a.js": b"1", "m.mjs": b"2", "s.css": b"3", "d.json": b"{}", "i.svg": b"<svg/>",
             "p.png": b"\x89PNG", "w.wasm": b"\0asm\1\0\0\0", "t.txt": b"text", "x.pzt": b"\1\2",
             "space name.txt": b"spaced", "noext": b"?"}
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    os.mkfifo(os.path.join(root, "pipe.txt"))  # opening it for reading would wait for a writer
    with open(os.path.join(tmp, "secret.txt"), "wb") as f:  # beside the root: never served
        f.write(b"secret")
    return root, files


def test_files(port, files):
    types = {"html": "text/html", "js": "text/javascript", "mjs": "text/javascript", "css": "text/css",
             "json": "application/json", "svg": "image/svg+xml", "png": "image/png", "wasm": "application/wasm",
             "txt": "text/plain", "pzt": "application/octet-stream"}
    for ext, mime in types.items():
        name = next(n for n in files if n.endswith("." + ext))
        status, headers, body = get(port, "/" + name.replace(" ", "%20"))
        check(status == 200 and headers["content-type"].split(";")[0] == mime and body == files[name],
              "GET /%s: 200 %s (got %d %s)" % (name, mime, status, headers.get("content-type")))
    status, headers, body = get(port, "/")
    check(status == 200 and body == files["index.html"], "GET / serves index.html")
    check(headers.get("cross-origin-opener-policy") == "same-origin", "Cross-Origin-Opener-Policy: same-origin")
    check(headers.get("cross-origin-embedder-policy") == "require-corp", "Cross-Origin-Embedder-Policy: require-corp")
    check(headers.get("cache-control") == "no-cache", "Cache-Control: no-cache")
    check(headers.get("content-length") == str(len(files["index.html"])), "Content-Length")
    status, headers, _ = get(port, "/sub?x=1")
    check(status == 301 and headers.get("location") == "/sub/?x=1", "GET /sub redirects to /sub/ (query kept)")
    check(get(port, "/sub/")[2] == files["sub/index.html"], "GET /sub/ serves sub/index.html")
    check(get(port, "/space%20name.txt")[2] == b"spaced", "percent-encoded name")
    check(get(port, "/noext")[1]["content-type"] == "application/octet-stream", "unknown type: octet-stream")
    status, headers, body = get(port, "/t.txt", "HEAD")
    check(status == 200 and headers.get("content-length") == "4", "HEAD: 200 with the Content-Length")
    conn = Connection(port, timeout=10)  # HEAD sends no body: the next response follows the head
    conn.sock.sendall(b"HEAD /t.txt HTTP/1.1\r\nHost: x\r\n\r\nGET /a.js HTTP/1.1\r\nHost: x\r\n\r\n")
    first, second = conn.response(head_only=True), conn.response()
    conn.close()
    check(first[0] == 200 and second[0] == 200 and second[2] == b"1",
          "keep-alive: HEAD then GET on one connection (no body after HEAD)")


def test_errors(port):
    check(get(port, "/missing.html")[0] == 404, "404 for a missing file")
    check(get(port, "/noindex/")[0] == 404, "404 for a folder without index.html")
    check(get(port, "/pipe.txt")[0] == 404, "404 for a FIFO (not a regular file), at once")
    check(get(port, "/", "POST")[0] == 405 and get(port, "/", "DELETE")[1].get("allow") == "GET, HEAD",
          "405 for POST, DELETE (Allow: GET, HEAD)")
    for target in ["/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
                   "/sub%2f..%2f..%2fsecret.txt", "/.%2e/secret.txt", "http://127.0.0.1/../secret.txt",
                   "secret.txt", "/%zz", "/a%00.js"]:
        status, _, body = get(port, target)
        check(status == 400 and b"secret" not in body, "400 for %s" % target)
    check(request(port, "GARBAGE\r\n\r\n")[0] == 400, "400 for a malformed request line")
    check(request(port, "GET / HTTP/1.1\r\n" + "X: y\r\n" * 5000 + "\r\n")[0] == 431, "431 for an oversized head")


def test_large_file(port, root):
    path = os.path.join(root, "big.pzt")
    digest = hashlib.sha256()
    with open(path, "wb") as f:
        block = os.urandom(1 << 20)
        for i in range(50):
            chunk = bytes([i]) + block[1:]
            digest.update(chunk)
            f.write(chunk)
    started = time.time()
    status, headers, body = get(port, "/big.pzt")
    seconds = time.time() - started
    check(status == 200 and len(body) == 50 << 20 and hashlib.sha256(body).hexdigest() == digest.hexdigest(),
          "a 50 MB file streamed intact (sha256; %.2f s)" % seconds)


def test_concurrency(port):
    idle = Connection(port, timeout=10)  # holds its connection open
    idle.sock.sendall(b"GET /a.js HTTP/1.1\r\nHost: x\r\n")  # an unfinished head
    check(get(port, "/a.js")[0] == 200, "a request is answered while another connection waits")
    idle.sock.sendall(b"\r\n")
    check(idle.response()[2] == b"1", "the waiting connection is answered when its head completes")
    idle.close()


def test_port_in_use(port):
    run = subprocess.run([PZC, "serve", "--port", str(port), "--root", "/"], capture_output=True, text=True,
                         timeout=30)
    check(run.returncode == 1 and "in use" in run.stderr, "port in use: exit 1, %r" % run.stderr.strip())


def test_default_roots(tmp):
    source_web = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web")
    server = Server()
    check(os.path.samefile(server.line.split(" ")[1], source_web), "build tree: serves the source's web/ by default")
    server.stop()
    prefix = os.path.join(tmp, "prefix")  # the installed layout: bin/pzc beside share/pzc/web
    os.makedirs(os.path.join(prefix, "bin"))
    os.makedirs(os.path.join(prefix, "share", "pzc", "web"))
    shutil.copy(PZC, os.path.join(prefix, "bin", "pzc"))
    server = Server(pzc=os.path.join(prefix, "bin", "pzc"))
    check(server.line.split(" ")[1] == os.path.realpath(os.path.join(prefix, "share", "pzc", "web")),
          "installed: serves <prefix>/share/pzc/web by default")
    server.stop()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        root, files = make_root(tmp)
        server = Server(root, extra=["--quiet"])
        check(server.line == "serving %s at http://127.0.0.1:%d/" % (os.path.realpath(root), server.port),
              "prints 'serving DIR at URL': %r" % server.line)
        try:
            test_files(server.port, files)
            test_errors(server.port)
            test_large_file(server.port, root)
            test_concurrency(server.port)
            test_port_in_use(server.port)
        finally:
            held = Connection(server.port)  # a keep-alive connection left open must not hold the stop up
            held.sock.sendall(b"GET /a.js HTTP/1.1\r\nHost: x\r\n\r\n")
            held.response()
            started = time.time()
            rc = server.stop()
            held.close()
        check(rc == 0 and time.time() - started < 5,
              "SIGTERM stops it, a connection open (exit %s, %.2f s)" % (rc, time.time() - started))
        check("stopped" in server.proc.stderr.read(), "says it stopped")
        test_default_roots(tmp)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
