"""A small HTTP/1.1 server for nbridge's fetch tests, on 127.0.0.1 and a free port.

Prints "port N" on its first line, then one line "request METHOD PATH" per request it sees.
Routes: /hello, /echo (the request's method, headers and body as JSON), /redirect/N (a chain
of N 302s ending at /hello), /see-other (303 to /echo), /status/N, /slow (answers after 30 s),
/big/N (N MiB of 'x'), /json, /chunked (a body of 40,000 bytes in chunks, no Content-Length,
a header value in UTF-8). With --tls, HTTPS with selfsigned-cert.pem (a certificate no
client trusts: the tests check that fetch refuses it).
"""
import os
import ssl
import base64
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


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
        print("request", self.command, self.path, flush=True)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path = self.path
        if path == "/hello":
            return self.reply(200, b"hello from the server")
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
        if path == "/slow":
            time.sleep(30)
            return self.reply(200, b"too late")
        if path.startswith("/big/"):
            mib = int(path.split("/")[2])
            return self.reply(200, b"x" * (mib * 1024 * 1024), "application/octet-stream")
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
