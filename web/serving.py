"""The HTTP server ``nemesis-archive serve`` runs: waitress by default, Werkzeug's with ``--dev``.

One process, many threads: the embedded PostgreSQL and the projection worker live in the
serving process, so a forking server (one copy of each per child) does not fit; waitress is a
pure-Python threaded server made for production. Both stop on KeyboardInterrupt in the main
thread (Ctrl+C, or SIGTERM turned into one by the caller).
"""
from __future__ import annotations

from flask import Flask

from web.posture import SERVER_NAME


class ProductionServer:
    """waitress with ``threads`` worker threads; the Server header names the product only.

    Behind a reverse proxy at ``trusted_proxy`` (an address), the client address, host and
    scheme come from its X-Forwarded-* headers (so write limits count each client, and the
    trusted-host check sees the public name); from anyone else those headers are dropped.
    """

    def __init__(self, app: Flask, host: str, port: int, threads: int, trusted_proxy: str | None = None) -> None:
        from waitress import create_server

        proxy = {}
        if trusted_proxy:
            proxy = {"trusted_proxy": trusted_proxy, "trusted_proxy_count": 1,
                     "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-host", "x-forwarded-proto"}}
        self._server = create_server(app, host=host, port=port, threads=threads, ident=SERVER_NAME, **proxy)
        self.port = self._server.effective_port

    def run(self) -> None:
        self._server.run()  # returns after KeyboardInterrupt, once the running requests finished (5 s at most)

    def close(self) -> None:
        self._server.close()


class DevelopmentServer:
    """Werkzeug's threaded development server (reloader and debugger off)."""

    def __init__(self, app: Flask, host: str, port: int) -> None:
        from werkzeug.serving import WSGIRequestHandler, make_server

        class Handler(WSGIRequestHandler):
            def version_string(self) -> str:
                return SERVER_NAME

        self._server = make_server(host, port, app, threaded=True, request_handler=Handler)
        self.port = self._server.server_port

    def run(self) -> None:
        try:
            self._server.serve_forever()
        except KeyboardInterrupt:
            pass

    def close(self) -> None:
        self._server.server_close()
