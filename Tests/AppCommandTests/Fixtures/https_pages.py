"""Serves a folder over HTTPS on 127.0.0.1 and a free port, for nbridge's remote-page tests.

Usage: https_pages.py CERT KEY FOLDER. Prints "port N" on its first line, then one line
"request PATH" per request.
"""
import functools
import ssl
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer


OUTPUT = threading.Lock()


class Handler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def do_GET(self):
        # One write a line, under a lock: print() writes the text and its newline apart, and
        # two handler threads printing at once could run two lines together.
        with OUTPUT:
            sys.stdout.write("request " + self.path + "\n")
            sys.stdout.flush()
        super().do_GET()


def main():
    cert, key, folder = sys.argv[1:4]
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


main()
