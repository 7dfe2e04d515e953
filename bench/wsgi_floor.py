"""The floor under an append over HTTP: the same server (waitress, as many threads) and the same clients as
`nemesis-archive serve` gets in bench/http_append.py, but a bare WSGI app whose only work per fact is the
benchmark's raw INSERT + commit. Whatever an append over HTTP costs above this row is the app's own work.

    .venv/bin/python bench/wsgi_floor.py DATABASE_URL TABLE THREADS

Prints "serving on http://127.0.0.1:PORT/" and one more line, as `nemesis-archive serve` does, then serves
until it is terminated. It answers what a client of http_append.py sends: POST /api/games (a game id) and
POST /api/games/<id>/facts (the body's "expected_position" + 1 becomes the row's version).
"""
from __future__ import annotations

import json
import sys
import threading
import uuid

import psycopg
from waitress.server import create_server

TOPIC = "service.game:Game.FactRecorded"


def app_for(url: str, table: str):
    local = threading.local()
    insert = f"INSERT INTO {table} (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)"

    def app(environ, start_response):
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        parts = environ["PATH_INFO"].strip("/").split("/")  # api, games[, id, facts]
        if len(parts) == 2:
            status, answer = "201 Created", {"id": str(uuid.uuid4())}
        else:
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = local.conn = psycopg.connect(url)
            position = json.loads(body)["expected_position"]
            conn.execute(insert, (uuid.UUID(parts[2]), position + 1, TOPIC, body))
            conn.commit()
            status, answer = "201 Created", {"position": position + 1}
        out = json.dumps(answer).encode()
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(out)))])
        return [out]

    return app


def main(argv: list[str]) -> None:
    url, table, threads = argv
    server = create_server(app_for(url, table), host="127.0.0.1", port=0, threads=int(threads))
    print(f"serving on http://127.0.0.1:{server.effective_port}/", flush=True)
    print("a bare WSGI app: one raw INSERT + commit per fact", flush=True)
    server.run()


if __name__ == "__main__":
    main(sys.argv[1:])
