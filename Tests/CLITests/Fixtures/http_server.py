"""A small HTTP/1.1 server for nbridge's fetch tests, on 127.0.0.1 and a free port.

Prints "port N" on its first line, then one line "request METHOD PATH" per request it sees.
Routes: /hello, /whole (a 5-byte body written in one piece with its head), /echo (the
request's method, headers and body as JSON), /redirect/N (a chain of N 302s ending at /hello), /see-other (303 to /echo), /status/N, /slow (answers after 30 s),
/seen/PATH (waits, 30 s at most, until a request for /PATH has arrived; answers "yes" or
"no"), /big/N (N MiB of 'x'), /json, /chunked (a body of 40,000 bytes in chunks, no Content-Length,
a header value in UTF-8), /endless (see Endless) and /endless-state/EVENT. With --tls, HTTPS with selfsigned-cert.pem (a certificate no
client trusts: the tests check that fetch refuses it).
"""
import os
import ssl
import base64
import json
import select
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


OUTPUT = threading.Lock()


def say(line):
    """Prints `line` whole: print() writes its pieces one by one, and two handler threads
    printing at once made one line of two ("request request GET /slow")."""
    with OUTPUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Endless:
    """The state of the last /endless?total=MiB&pause=MiB body: 'x' bytes written in 64 KiB
    pieces (a body delimited by the connection's close), until `total` MiB (then it ends),
    else up to CAP (then the server closes it: a client that read it all did not stall). It
    notes `paused` when it stops at `pause` MiB to wait for the close, `stalled` when the client
    has read nothing for a second (its socket's buffers are full), `closed` when the client
    closed the connection. GET /endless-state/EVENT waits (30 s at most) for EVENT (stalled is
    also satisfied by capped or ended) and answers the state as JSON."""

    CAP = 128 * 1024 * 1024
    lock = threading.Condition()
    state = {}

    @classmethod
    def note(cls, **changes):
        with cls.lock:
            cls.state.update(changes)
            cls.lock.notify_all()

    @classmethod
    def wait(cls, event):
        wanted = ("stalled", "capped", "ended") if event == "stalled" else (event,)
        with cls.lock:
            cls.lock.wait_for(lambda: any(cls.state.get(name) for name in wanted), timeout=30)
            return dict(cls.state)

    @classmethod
    def serve(cls, handler, total, pause):
        cls.note(written=0, stalled=False, capped=False, ended=False, closed=False, paused=False)
        handler.send_response(200)
        handler.send_header("Content-Type", "application/octet-stream")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.wfile.flush()
        handler.close_connection = True
        sock = handler.connection
        sock.setblocking(False)
        piece = b"x" * 65536
        limit = total or cls.CAP
        written = 0
        poller = select.poll()
        poller.register(sock, select.POLLOUT)
        deadline = time.monotonic() + 120
        try:
            while written < limit and time.monotonic() < deadline:
                if pause and written >= pause:
                    cls.note(paused=True)
                    cls.wait_for_close(sock, deadline)
                    return
                if not poller.poll(1000):
                    cls.note(stalled=True)
                    continue
                try:
                    written += sock.send(piece[: min(len(piece), limit - written)])
                except BlockingIOError:
                    continue
                cls.note(written=written)
            cls.note(**({"ended": True} if total else {"capped": True}))
        except OSError:
            cls.note(closed=True)

    @classmethod
    def wait_for_close(cls, sock, deadline):
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        while time.monotonic() < deadline:
            if not poller.poll(1000):
                continue
            try:
                if sock.recv(65536) == b"":
                    break
            except BlockingIOError:
                continue
            except OSError:
                break
        cls.note(closed=True)


class Seen:
    """The paths requested so far, for /seen/PATH to wait on."""

    lock = threading.Condition()
    paths = set()

    @classmethod
    def note(cls, path):
        with cls.lock:
            cls.paths.add(path)
            cls.lock.notify_all()

    @classmethod
    def wait(cls, path):
        with cls.lock:
            return cls.lock.wait_for(lambda: path in cls.paths, timeout=30)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="text/plain; charset=utf-8", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        say("request %s %s" % (self.command, self.path))
        Seen.note(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path = self.path
        if path == "/hello":
            return self.reply(200, b"hello from the server")
        if path == "/whole":
            head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n"
            return self.wfile.write(head + b"whole")
        if path == "/json":
            return self.reply(200, b'{"answer": 42, "list": [1, 2]}', "application/json")
        if path == "/echo":
            info = {
                "method": self.command,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": base64.b64encode(body).decode(),
            }
            return self.reply(200, json.dumps(info).encode(), "application/json")
        if path.startswith("/redirect/"):
            n = int(path.split("/")[2])
            target = "/hello" if n <= 1 else "/redirect/%d" % (n - 1)
            return self.reply(302, b"", headers=[("Location", target)])
        if path == "/see-other":
            return self.reply(303, b"", headers=[("Location", "/echo")])
        if path.startswith("/status/"):
            code = int(path.split("/")[2])
            return self.reply(code, ("status %d" % code).encode())
        if path.startswith("/seen/"):
            return self.reply(200, b"yes" if Seen.wait(path[len("/seen"):]) else b"no")
        if path == "/slow":
            time.sleep(30)
            return self.reply(200, b"too late")
        if path.startswith("/big/"):
            mib = int(path.split("/")[2])
            return self.reply(200, b"x" * (mib * 1024 * 1024), "application/octet-stream")
        if path.startswith("/endless?") or path == "/endless":
            query = dict(p.split("=") for p in path.partition("?")[2].split("&") if "=" in p)
            mib = 1024 * 1024
            return Endless.serve(self, int(query.get("total", 0)) * mib, int(query.get("pause", 0)) * mib)
        if path.startswith("/endless-state/"):
            state = Endless.wait(path.split("/")[2])
            return self.reply(200, json.dumps(state).encode(), "application/json")
        if path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self._headers_buffer.append(b"X-Text: caf\xc3\xa9\r\n")
            self.end_headers()
            for chunk in (b"a" * 30000, b"b" * 10000):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
            return
        return self.reply(404, b"no route " + path.encode())

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = handle_any


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if "--tls" in sys.argv:
    here = os.path.dirname(os.path.abspath(__file__))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(here, "selfsigned-cert.pem"), os.path.join(here, "selfsigned-key.pem"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
print("port", server.server_address[1], flush=True)
server.serve_forever()
