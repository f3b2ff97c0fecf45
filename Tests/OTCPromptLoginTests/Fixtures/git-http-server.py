#!/usr/bin/env python3
"""A git remote over HTTP on 127.0.0.1 that asks for credentials (Basic auth), for otc-prompt's tests.

Usage: git-http-server.py PORT PROJECT_ROOT USER PASSWORD
Every request without the right Authorization header gets 401 and a WWW-Authenticate challenge;
the others are handed to `git http-backend` as CGI. Serves until killed.
"""
import base64
import http.server
import subprocess
import sys
import urllib.parse

PORT, ROOT, USER, PASSWORD = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
EXPECTED = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        self.serve()

    def do_POST(self):
        self.serve()

    def serve(self):
        if self.headers.get("Authorization") != EXPECTED:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="otc-prompt test"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        url = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        environment = {
            "GIT_PROJECT_ROOT": ROOT,
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": urllib.parse.unquote(url.path),
            "QUERY_STRING": url.query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(length),
            "REMOTE_USER": USER,
            "REMOTE_ADDR": "127.0.0.1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "PATH": "/usr/bin:/bin",
        }
        if self.headers.get("Git-Protocol"):
            environment["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        result = subprocess.run(
            ["git", "http-backend"], input=body, env=environment, capture_output=True, timeout=30
        )
        head, _, payload = result.stdout.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format, *args):
        sys.stderr.write("%s\n" % (format % args))


http.server.HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
