"""Everything a door (web, CLI, worker) needs, opened once per process."""
from __future__ import annotations

import os
from contextlib import ExitStack, contextmanager
from typing import Iterator

from service.archive import Games
from service.db import Database, embedded_server, ensure_database
from service.recorder import fail_fast_env
from service.schema import ensure_schema

EMBEDDED_DBNAME = "nemesis"


class Archive:
    """The database and the Games application over it (failing within seconds when the database is gone)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.games = Games(env=db.eventsourcing_env(AGGREGATE_CACHE_MAXSIZE="200", **fail_fast_env()))

    def close(self) -> None:
        self.games.close()


@contextmanager
def open_archive(url: str | None = None, migrate: bool | None = None) -> Iterator[Archive]:
    """Open DATABASE_URL (or ``url``), or the embedded server with its ``nemesis`` database.

    The embedded default migrates itself; a named server must be migrated explicitly
    (``migrate=True`` forces it, as ``nemesis-archive migrate`` does).
    """
    url = url or os.environ.get("DATABASE_URL")
    with ExitStack() as stack:
        if url:
            db = Database(url)
            ensure_schema(db, migrate=bool(migrate))
        else:
            db = ensure_database(stack.enter_context(embedded_server()), EMBEDDED_DBNAME)
            ensure_schema(db, migrate=True if migrate is None else migrate)
        archive = Archive(db)
        stack.callback(archive.close)  # closed before the embedded server stops
        yield archive
