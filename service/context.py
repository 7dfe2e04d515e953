"""Everything a door (web, CLI, worker) needs, opened once per process."""
from __future__ import annotations

import os
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

from service.accounts import Accounts
from service.archive import Games
from service.league_book import LeagueBook
from service.db import Database, bundled_majors, embedded_server, ensure_database, pg_version_of, resolve_data_dir
from service.readpool import close_pool, open_pool
from service.replay_cache import ReplayCache, ReplaySettings
from service.recorder import fail_fast_env
from service.roles import app_database
from service.schema import ensure_schema

EMBEDDED_DBNAME = "nemesis"


class Archive:
    """The database and the Games application over it (failing within seconds when the database is gone)."""

    def __init__(self, db: Database, read_connections: int | None = None,
                 replays: ReplaySettings | None = None) -> None:
        self.db = db
        self.games = Games(env=db.eventsourcing_env(AGGREGATE_CACHE_MAXSIZE="200", **fail_fast_env()))
        # same store (decision 0020); clubs cached and fast-forwarded, not rebuilt on every request (decision 0052)
        self.leagues = LeagueBook(env=db.eventsourcing_env(AGGREGATE_CACHE_MAXSIZE="500", **fail_fast_env()))
        self.accounts = Accounts(db)  # plain tables, not events (decision 0024)
        # read-model queries borrow from one pool (service/readpool.py; decision 0026)
        self.reads = open_pool(db, read_connections)
        # folded replays, extended fact by fact, with snapshots every K steps (decision 0031)
        self.replays = ReplayCache(db, replays)

    def close(self) -> None:
        self.replays.close()
        close_pool(self.db)
        self.leagues.close()
        self.games.close()


@contextmanager
def open_database(
    url: str | None = None, data_dir: Path | str | None = None, any_bundled_major: bool = False
) -> Iterator[Database]:
    """DATABASE_URL (or ``url``), or the embedded server's ``nemesis`` database; schema untouched.

    ``any_bundled_major`` lets a backup read a data folder written by an older PostgreSQL
    major that the installed wheel still ships (decision 0010); everything else runs the pinned one.
    """
    url = url or os.environ.get("DATABASE_URL")
    if url:
        yield Database(url)
        return
    major = None
    if any_bundled_major:
        found = pg_version_of(resolve_data_dir(data_dir)[0])
        major = found if found in bundled_majors() else None
    with embedded_server(data_dir, major=major) as server:
        yield ensure_database(server, EMBEDDED_DBNAME)


@contextmanager
def open_archive(
    url: str | None = None, migrate: bool | None = None, migrate_url: str | None = None,
    data_dir: Path | str | None = None,
) -> Iterator[Archive]:
    """Open DATABASE_URL (or ``url``), or the embedded server with its ``nemesis`` database.

    The embedded default migrates itself as the server's superuser (which becomes the owner
    role) and then serves as ``nemesis_app``, which may only append events. A named server
    must be migrated explicitly (``migrate=True`` forces it, as ``nemesis-archive migrate``
    does), through ``migrate_url`` (MIGRATE_DATABASE_URL) when one is given.
    """
    with ExitStack() as stack:
        db = stack.enter_context(open_database(url, data_dir))
        if db.embedded:  # migrated as the server's superuser, served as the app role
            ensure_schema(db, migrate=True if migrate is None else migrate)
            db = app_database(db)
        else:
            ensure_schema(Database(migrate_url) if migrate and migrate_url else db, migrate=bool(migrate))
        archive = Archive(db)
        stack.callback(archive.close)  # closed before the embedded server stops
        yield archive
