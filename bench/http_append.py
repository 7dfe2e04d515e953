"""Appending one fact through the HTTP API (real Flask app, werkzeug threaded server, keep-alive)
against a raw psycopg single-row INSERT + commit into a table of the same shape.

    .venv/bin/python bench/http_append.py [--appends 2000] [--database-url URL]
"""
from __future__ import annotations

import logging
import os
import threading
import time
import uuid

from common import RAW_TABLE, bench_admin, generated, log, parser, percentile, scratch_database, send_token, table


def raw_insert_latencies(db, n: int) -> list[float]:
    """Single-row INSERT + commit, one per row, ~200-byte bytea: the per-commit floor."""
    payload = os.urandom(200)
    out = []
    with db.connect() as conn:
        conn.execute(RAW_TABLE.format(name="raw_append"))
        conn.commit()
        gid = uuid.uuid4()
        topic = "service.game:Game.FactRecorded"
        for v in range(1, n + 1):
            t = time.perf_counter()
            conn.execute("INSERT INTO raw_append (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)",
                         (gid, v, topic, payload))
            conn.commit()
            out.append(time.perf_counter() - t)
    return out


def api_append_latencies(db, n: int, warmup: int) -> list[tuple[int, float]]:
    """POST /api/games/<id>/facts with one fact, n times (after warmup), over games from seeds 1, 2, ...

    Returns (position in its game before the append, seconds) per timed POST.
    """
    import requests
    from werkzeug.serving import make_server

    from service.context import Archive
    from web import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    archive = Archive(db)
    # The write limit stays on (its cost is part of an append) but far above this one client's pace.
    app = create_app({"ARCHIVE": archive, "WRITE_LIMIT": "1000000/minute"})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{srv.server_port}/api"
    send_token(base, bench_admin(db)[1])  # writes need an account (decision 0024); the token's check is part of an append
    out: list[tuple[int, float]] = []
    try:
        with requests.Session() as http:
            seed = 0
            while len(out) < n + warmup:
                seed += 1
                header, facts = generated(seed)
                r = http.post(f"{base}/games", json=header)
                r.raise_for_status()
                url = f"{base}/games/{r.json()['id']}/facts"
                for pos, fact in enumerate(facts):
                    if len(out) >= n + warmup:
                        break
                    body = {"expected_position": pos, "command_id": f"bench-{seed}-{pos}", "facts": [fact]}
                    t = time.perf_counter()
                    r = http.post(url, json=body)
                    out.append((pos, time.perf_counter() - t))
                    if r.status_code != 201:
                        raise RuntimeError(f"append refused: {r.status_code} {r.text}")
            log(f"http_append: {seed} game(s) used")
    finally:
        srv.shutdown()
        thread.join()
        archive.close()
    return out[warmup:]


def main(argv=None) -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--appends", type=int, default=2000, help="timed POSTs of one fact each")
    p.add_argument("--warmup", type=int, default=50, help="untimed POSTs first")
    args = p.parse_args(argv)
    with scratch_database(args.database_url, "http") as db:
        raw = raw_insert_latencies(db, args.appends)
        timed = api_append_latencies(db, args.appends, args.warmup)
    api = [s for _, s in timed]
    early, late = [s for p, s in timed if p < 100], [s for p, s in timed if p >= 200]
    ms = lambda xs, q: percentile(xs, q) * 1000  # noqa: E731
    rows = [
        ["API: POST one fact (HTTP, keep-alive)", ms(api, 50), ms(api, 99), len(api) / sum(api)],
        [f"… facts #1–100 of a game ({len(early)})", ms(early, 50), ms(early, 99), len(early) / sum(early)],
        [f"… facts #201+ of a game ({len(late)})", ms(late, 50), ms(late, 99), len(late) / sum(late)],
        ["baseline: raw INSERT + commit", ms(raw, 50), ms(raw, 99), len(raw) / sum(raw)],
        ["**ratio API / raw**", f"**{ms(api, 50) / ms(raw, 50):.1f}×**", f"**{ms(api, 99) / ms(raw, 99):.1f}×**",
         f"{(len(raw) / sum(raw)) / (len(api) / sum(api)):.1f}× slower"],
    ]
    print(f"Append one fact, N = {args.appends:,} (after {args.warmup} warm-up)\n")
    print(table(["", "p50 ms", "p99 ms", "per second (serial)"], rows))


if __name__ == "__main__":
    main()
