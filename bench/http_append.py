"""Appending one fact: over HTTP to `nemesis-archive serve` (waitress) from client processes of their own,
and server-side (Games.record), against a raw psycopg single-row INSERT + commit measured in the same run.

    .venv/bin/python bench/http_append.py [--appends 2000] [--clients 20] [--per-client 100] [--runs 3]

The server is the production one, started as its own process exactly as a club runs it (as the
app role, waitress with --threads request threads, no projection worker in it); each client is a
separate process speaking plain HTTP/1.1 with keep-alive (http.client) and an API token.

Two floors are measured in the same run: the event store's insert function alone (the least a server-side
append can cost), and the same server and clients with a bare WSGI app that only does the raw INSERT + commit
(bench/wsgi_floor.py: the least an append over HTTP can cost with this server; decision 0053).
"""
from __future__ import annotations

import collections
import http.client
import json
import multiprocessing
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from common import RAW_TABLE, bench_admin, generated, log, median, parser, percentile, scratch_database, table

ROOT = Path(__file__).resolve().parents[1]
# WRITE LIMIT: the write limit (120/minute per client and game by default) is off: one client here appends hundreds
# of facts a minute to one game. A limit raised that high is no stand-in either: flask-limiter's
# in-memory moving window keeps one timestamp per write in the window and inserts at the front of a
# list, so at 1,000,000/minute its cost grew with every write of a run (milliseconds a write under cProfile), while
# at the production 120/minute it is a list of at most 120.


def raw_insert_latencies(db, n: int, run: int) -> list[float]:
    """Single-row INSERT + commit, one per row, ~200-byte bytea: the per-commit floor."""
    payload = os.urandom(200)
    name = f"raw_append_{run}"
    out = []
    with db.connect() as conn:
        conn.execute(RAW_TABLE.format(name=name))
        conn.commit()
        gid = uuid.uuid4()
        topic = "service.game:Game.FactRecorded"
        sql = f"INSERT INTO {name} (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)"
        for v in range(1, n + 1):
            t = time.perf_counter()
            conn.execute(sql, (gid, v, topic, payload))
            conn.commit()
            out.append(time.perf_counter() - t)
    return out


def store_insert_latencies(db, n: int) -> list[float]:
    """The event store's own insert of one such row (``es_insert_events_uuid``: its table lock, its NOTIFY), as
    Games.record sends it but with no Python work around it: the floor under a server-side append."""
    from service.context import Archive
    from service.roles import app_database

    archive = Archive(app_database(db))
    recorder, payload, gid, out = archive.games.recorder, os.urandom(200), uuid.uuid4(), []
    try:
        for v in range(1, n + 1):
            t = time.perf_counter()
            recorder.insert_rows([gid], [v], ["service.game:Game.FactRecorded"], [payload])
            out.append(time.perf_counter() - t)
    finally:
        archive.close()
    return out


def _games(first_seed: int, appends: int) -> list[tuple[dict, list[dict]]]:
    """Generated games (seeds first_seed, ...) holding at least ``appends`` facts between them."""
    games, n, seed = [], 0, first_seed
    while n < appends:
        games.append(generated(seed))
        n += len(games[-1][1])
        seed += 1
    return games


def server_side_latencies(db, n: int, first_seed: int) -> list[float]:
    """Games.record of one fact, as the API calls it (expected position, command id), n times."""
    from service.context import Archive
    from service.roles import app_database

    archive = Archive(app_database(db))
    out = []
    try:
        for seed, (header, facts) in enumerate(_games(first_seed, n), start=first_seed):
            game = archive.games.create_game(header)
            for pos, fact in enumerate(facts):
                if len(out) >= n:
                    break
                t = time.perf_counter()
                archive.games.record(game.id, [fact], expected_position=pos, command_id=f"s{seed}-{pos}",
                                     recorder="bench")
                out.append(time.perf_counter() - t)
    finally:
        archive.close()
    return out


# -- where the time goes: cProfile of the server's Python work per append ----------------------------------

# (label, file suffix, function name): cumulative time of each, per append. Nested rows are indented.
SERVER_SIDE = [
    ("Games.record, all of it", "service/archive.py", "record"),
    ("  reading new events back (fast-forward SELECT)", "eventsourcing/postgres.py", "select_events"),
    ("  copying the game out of the cache", "copy.py", "deepcopy"),
    ("  Game.record: check the fact, fold it, make the event", "service/game.py", "record"),
    ("    the rules' check and fold of the fact", "service/rules/lockdown/ruleset.py", "checked_apply"),
    ("    the hash chain", "service/chain.py", "link"),
    ("  save(): encode + insert + commit", "eventsourcing/application.py", "save"),
    ("    encoding the event (mapper)", "eventsourcing/persistence.py", "to_stored_event"),
    ("    the insert: es_insert_events_uuid, one round trip", "service/recorder.py", "_insert_rows_once"),
]
HTTP_SIDE = [
    ("the request in Flask, all of it", "flask/app.py", "full_dispatch_request"),
    ("  the rights gate (before_request)", "web/auth.py", "guard"),
    ("    the game's header (Games.header: cached)", "web/auth.py", "_game_or_none"),
    ("    who asks and the game's placement (read_rows: two statements)", "web/auth.py", "_load_account"),
    ("    where the game counts (the placement read, its club or league)", "web/auth.py", "league_of_game"),
    ("  the body: JSON + AppendSchema", "marshmallow/schema.py", "load"),
    ("  Games.record", "service/archive.py", "record"),
]


def _per_call(stats, rows, n: int) -> list[list]:
    out = []
    for label, suffix, name in rows:
        ct = sum(v[3] for (f, _, fn), v in stats.stats.items() if fn == name and f.endswith(suffix))
        out.append([label, ct / n * 1000])
    # every statement goes through psycopg's Cursor.execute (Connection.execute calls it): one round trip each
    sent = sum(v[1] for (f, _, fn), v in stats.stats.items() if fn == "execute" and f.endswith("psycopg/cursor.py"))
    out.append(["statements sent to PostgreSQL per append (round trips)", f"{sent / n:.2f}"])
    return out


def where_time_goes(db, n: int, first_seed: int) -> str:
    """cProfile of ``n`` server-side appends (Games.record) and of ``n`` API appends through the Flask app
    (its test client: the server's own Python work, without waitress and the socket)."""
    import cProfile
    import pstats

    from service.context import Archive
    from service.roles import app_database
    from web import create_app

    archive = Archive(app_database(db))
    app = create_app({"ARCHIVE": archive, "WRITE_LIMIT": None})  # see WRITE LIMIT at the top
    token = bench_admin(db)[1]
    games = _games(first_seed, 2 * n + 20)
    facts = [f for _, fs in games for f in fs]
    try:
        def series(append) -> pstats.Stats:
            prof = cProfile.Profile()
            done = 0
            for g, (header, fs) in enumerate(games):
                game = archive.games.create_game(header)
                for pos, fact in enumerate(fs):
                    if done >= n + 10:
                        return pstats.Stats(prof)
                    if done >= 10:  # the first appends of a process warm its caches
                        prof.enable()
                    append(game.id, pos, fact, f"{g}-{pos}-{id(prof)}")
                    prof.disable()
                    done += 1
            return pstats.Stats(prof)

        side = series(lambda gid, pos, fact, cid: archive.games.record(
            gid, [fact], expected_position=pos, command_id=cid, recorder="bench"))
        http = app.test_client()
        headers = {"Authorization": f"Bearer {token}"}

        def post(gid, pos, fact, cid):
            r = http.post(f"/api/games/{gid}/facts", headers=headers,
                          json={"expected_position": pos, "command_id": cid, "recorder": "bench", "facts": [fact]})
            if r.status_code != 201:
                raise RuntimeError(f"append refused: {r.status_code} {r.get_data(as_text=True)[:300]}")

        api = series(post)
    finally:
        archive.close()
    del facts
    head = ["", "ms per append (cProfile, inflated by its own overhead)"]
    return "\n".join([
        f"Where the time goes: cProfile of {n} appends, server-side (`Games.record`) and through the Flask app "
        "(the server's Python work per request, without waitress and the socket):",
        "",
        table(head, _per_call(side, SERVER_SIDE, n)),
        "",
        table(head, _per_call(api, HTTP_SIDE, n)),
    ])


# -- the HTTP side: a served process and client processes --------------------------------------------------

LEAGUE = "Bench League"


def league_recorder(db) -> str:
    """An API token of a club's recorder (no site admin), whose club's league ``LEAGUE`` has 12 seasons and 40
    other recorders: the gate of a league game loads the club and the game's placement (decision 0052)."""
    from projections.runner import rebuild_views
    from service.context import Archive
    from service.roles import app_database

    archive = Archive(app_database(db))
    try:
        leagues = archive.leagues
        leagues.found_club("Bench Club", "bench")
        leagues.open_league("bench", LEAGUE, "bench-league")
        for k in range(12):
            leagues.open_season("bench", "bench-league", f"Season {k + 1}", f"s{k + 1}")
        for k in range(40):
            leagues.grant_role("bench", leagues.register_player(f"Recorder {k + 1}"), "recorder")
        me = leagues.register_player("Bench Recorder")
        leagues.grant_role("bench", me, "recorder")
        archive.accounts.create("bench-recorder", None, player_id=me)
        token = archive.accounts.issue_token("bench-recorder", "benchmarks")[1]
    finally:
        archive.close()
    rebuild_views(db, ["league"])  # the server runs no worker: the league's name is known from this rebuild
    return token

def start_server(db, threads: int) -> tuple[subprocess.Popen, int]:
    from service.roles import app_database

    env = {**os.environ, "DATABASE_URL": app_database(db).url, "PYTHONUNBUFFERED": "1"}
    return _started([sys.executable, "-m", "web.cli", "serve", "--port", "0", "--no-worker", "--threads", str(threads),
                     "--write-limit", "off"], env)  # see WRITE LIMIT at the top


def start_floor(db, threads: int) -> tuple[subprocess.Popen, int]:
    """bench/wsgi_floor.py: the same server and clients, a bare app doing only the raw INSERT + commit."""
    name = "raw_floor"
    with db.connect() as conn:
        conn.execute(RAW_TABLE.format(name=name))
        conn.commit()
    return _started([sys.executable, str(Path(__file__).with_name("wsgi_floor.py")), db.url, name, str(threads)],
                    {**os.environ, "PYTHONUNBUFFERED": "1"})


def _started(command: list[str], env: dict) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    match = re.search(r"serving on http://[^:]+:(\d+)/", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"{command[1]} did not start: {line}{proc.stdout.read()}")
    proc.stdout.readline()  # the second banner line
    # Keep reading what it says (waitress's queue warnings, say): a full pipe would block the server.
    proc.said, proc.queued = collections.deque(maxlen=20), [0]

    def drain() -> None:
        for line in proc.stdout:
            proc.said.append(line)
            proc.queued[0] += "queue depth" in line

    threading.Thread(target=drain, daemon=True).start()
    return proc, int(match.group(1))


def client(port: int, token: str, games: list, appends: int, tag: str, barrier, results, league=None) -> None:
    """One client process: create its games (in ``league``, if named), wait for the others, then POST one fact at
    a time."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def post(path: str, body: dict) -> tuple[int, bytes]:
        conn.request("POST", path, json.dumps(body), headers)
        r = conn.getresponse()
        return r.status, r.read()

    urls = []
    for header, _ in games:
        status, body = post("/api/games", {**header, "league": league} if league else header)
        if status != 201:
            raise RuntimeError(f"create refused: {status} {body[:300]!r}")
        urls.append(f"/api/games/{json.loads(body)['id']}/facts")
    barrier.wait()
    lat, started = [], time.monotonic()
    for g, ((_, facts), url) in enumerate(zip(games, urls)):
        for pos, fact in enumerate(facts):
            if len(lat) >= appends:
                break
            body = {"expected_position": pos, "command_id": f"{tag}-{g}-{pos}", "recorder": "bench", "facts": [fact]}
            t = time.perf_counter()
            status, answer = post(url, body)
            lat.append(time.perf_counter() - t)
            if status != 201:
                raise RuntimeError(f"append refused: {status} {answer[:300]!r}")
    results.put((lat, started, time.monotonic()))
    conn.close()


def http_latencies(port: int, token: str, clients: int, appends: int, first_seed: int, tag: str, league=None):
    """``clients`` client processes, each on games of its own, all appending at once.

    Returns (every latency, wall seconds from the first start to the last finish).
    """
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(clients), ctx.Queue()
    procs = [ctx.Process(target=client, args=(port, token, _games(first_seed + 1000 * c, appends), appends,
                                               f"{tag}c{c}", barrier, results, league))
             for c in range(clients)]
    for p in procs:
        p.start()
    got = [results.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode:
            raise RuntimeError(f"a client process failed (exit {p.exitcode})")
    return [s for lat, _, _ in got for s in lat], max(e for *_, e in got) - min(s for _, s, _ in got)


def main(argv=None) -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--appends", type=int, default=2000, help="timed appends of one fact each, per serial series")
    p.add_argument("--clients", type=int, default=20, help="client processes appending at once, one game each")
    p.add_argument("--per-client", type=int, default=100, help="appends of each concurrent client")
    p.add_argument("--threads", type=int, default=8, help="the server's request threads (serve --threads)")
    p.add_argument("--runs", type=int, default=3, help="runs; each figure is the median over them")
    p.add_argument("--profile", type=int, default=300, help="appends profiled for 'where the time goes' (0: none)")
    p.add_argument("--profile-only", action="store_true", help="print only the profile")
    args = p.parse_args(argv)
    ms = lambda xs, q: percentile(xs, q) * 1000  # noqa: E731
    per_run = []
    with scratch_database(args.database_url, "http") as db:
        if args.profile_only:
            print(where_time_goes(db, args.profile, 500))
            return
        token = bench_admin(db)[1]
        recorder = league_recorder(db)
        servers = []
        try:
            servers.append(start_server(db, args.threads))
            servers.append(start_floor(db, args.threads))
            (proc, port), (_, floor_port) = servers
            for run in range(args.runs):
                log(f"http_append: run {run + 1}/{args.runs}")
                raw = raw_insert_latencies(db, args.appends, run)
                store = store_insert_latencies(db, args.appends)
                side = server_side_latencies(db, args.appends, 1 + 100 * run)
                floor, _ = http_latencies(floor_port, token, 1, args.appends, 30 + 100 * run, f"r{run}f")
                serial, _ = http_latencies(port, token, 1, args.appends, 50 + 100 * run, f"r{run}s")
                league, _ = http_latencies(port, recorder, 1, args.appends, 70 + 100 * run, f"r{run}l", LEAGUE)
                many, wall = http_latencies(port, token, args.clients, args.per_client, 10_000 * (run + 1), f"r{run}m")
                per_run.append({
                    "raw": (ms(raw, 50), ms(raw, 99), len(raw) / sum(raw)),
                    "store": (ms(store, 50), ms(store, 99), len(store) / sum(store)),
                    "side": (ms(side, 50), ms(side, 99), len(side) / sum(side)),
                    "floor": (ms(floor, 50), ms(floor, 99), len(floor) / sum(floor)),
                    "http": (ms(serial, 50), ms(serial, 99), len(serial) / sum(serial)),
                    "league": (ms(league, 50), ms(league, 99), len(league) / sum(league)),
                    "many": (ms(many, 50), ms(many, 99), len(many) / wall),
                })
        finally:
            for server, _ in servers:
                server.terminate()
                server.wait(timeout=30)
        queued = proc.queued[0]
        for line in list(proc.said)[-5:]:
            log(f"http_append: the server said: {line.rstrip()}")
        profile = where_time_goes(db, args.profile, 500) if args.profile else ""

    def med(key: str, i: int) -> float:
        return median([r[key][i] for r in per_run])

    def ratio(key: str, i: int) -> float:  # the median of the per-run ratios (each against its own run's baseline)
        return median([r[key][i] / r["raw"][i] for r in per_run])

    rows = [
        ["baseline: raw INSERT + commit", med("raw", 0), med("raw", 1), med("raw", 2), "1", "1"],
        ["floor: the event store's insert function alone (es_insert_events_uuid, one row)", med("store", 0),
         med("store", 1), med("store", 2), f"{ratio('store', 0):.1f}×", f"{ratio('store', 1):.1f}×"],
        ["server-side: Games.record (in process)", med("side", 0), med("side", 1), med("side", 2),
         f"**{ratio('side', 0):.1f}×**", f"**{ratio('side', 1):.1f}×**"],
        ["floor: the same server and client, a bare WSGI app doing only the raw INSERT + commit", med("floor", 0),
         med("floor", 1), med("floor", 2), f"{ratio('floor', 0):.1f}×", f"{ratio('floor', 1):.1f}×"],
        ["HTTP: POST one fact, 1 client", med("http", 0), med("http", 1), med("http", 2),
         f"**{ratio('http', 0):.1f}×**", f"**{ratio('http', 1):.1f}×**"],
        ["HTTP: the same in a league game, as its club's recorder", med("league", 0), med("league", 1),
         med("league", 2), f"**{ratio('league', 0):.1f}×**", f"**{ratio('league', 1):.1f}×**"],
        [f"HTTP: {args.clients} clients on {args.clients} games at once", med("many", 0), med("many", 1),
         med("many", 2), f"{ratio('many', 0):.1f}×", f"{ratio('many', 1):.1f}×"],
    ]
    print(f"Append one fact: N = {args.appends:,} per serial series; {args.clients} clients × {args.per_client} "
          f"appends at once; server: `nemesis-archive serve` (waitress, {args.threads} threads, as the app role, "
          f"no worker); clients: separate processes (http.client, keep-alive). Median of {args.runs} runs; "
          "ratios are the median of each run's ratio to that run's raw INSERT + commit.\n")
    print(table(["", "p50 ms", "p99 ms", "appends/s", "p50 / raw", "p99 / raw"], rows))
    if queued:
        print(f"\nwaitress warned {queued} times that requests were queued for a thread (more clients than threads).")
    print()
    print("Per run (p50 / p99 ratios to the same run's raw INSERT + commit; appends/s):\n")
    heads = ["run", "raw p50 ms", "store's insert alone", "Games.record", "floor (bare WSGI app)", "HTTP 1 client", "HTTP league game",
             f"HTTP {args.clients} clients", f"{args.clients} clients appends/s"]
    print(table(heads, [
        [i + 1, r["raw"][0], f"{r['store'][0] / r['raw'][0]:.1f}× / {r['store'][1] / r['raw'][1]:.1f}×",
         f"{r['side'][0] / r['raw'][0]:.1f}× / {r['side'][1] / r['raw'][1]:.1f}×",
         f"{r['floor'][0] / r['raw'][0]:.1f}× / {r['floor'][1] / r['raw'][1]:.1f}×",
         f"{r['http'][0] / r['raw'][0]:.1f}× / {r['http'][1] / r['raw'][1]:.1f}×",
         f"{r['league'][0] / r['raw'][0]:.1f}× / {r['league'][1] / r['raw'][1]:.1f}×",
         f"{r['many'][0] / r['raw'][0]:.1f}× / {r['many'][1] / r['raw'][1]:.1f}×", r["many"][2]]
        for i, r in enumerate(per_run)]))
    if profile:
        print()
        print(profile)


if __name__ == "__main__":
    main()
