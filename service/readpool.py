"""One pool of connections for read-model queries, per open archive (decision 0026).

Opening a PostgreSQL connection costs a few milliseconds (2.2 ms a page, measured in issue 11),
as much as the query a page makes. :class:`service.context.Archive` opens a pool for its database
when it opens and closes it when it closes; every read-model query takes its connection through
:func:`reading`, which borrows from that pool. Code that runs without an open archive (a CLI
command, a test reading a view directly) still works: it gets a connection of its own.

The pool holds at most ``size`` connections (``NEMESIS_READ_CONNECTIONS``, default 4),
opened on demand and checked before each use, so a database restart costs
no failed page; a borrower waits at most a few seconds for one, then gets the database error.
:func:`read_rows` (a request's first statements) skips the check and tries again on a broken connection.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager, suppress
from typing import Any, Iterator

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from service.db import CONNECT_TIMEOUT, Database

DEFAULT_SIZE = 4
APPLICATION_NAME = "nemesis-archive reads"  # how the pool's sessions show in pg_stat_activity
WAIT = CONNECT_TIMEOUT + 1.0  # seconds a page waits for a connection (the server gone: fail within seconds)

_lock = threading.Lock()
_pools: dict[str, tuple[ConnectionPool, int]] = {}  # url -> (pool, archives sharing it)


def configured_size() -> int:
    value = os.environ.get("NEMESIS_READ_CONNECTIONS", "")
    try:
        size = int(value) if value else DEFAULT_SIZE
    except ValueError:
        raise ValueError(f"NEMESIS_READ_CONNECTIONS must be a whole number of connections, not {value[:20]!r}") from None
    if not 1 <= size <= 100:
        raise ValueError(f"NEMESIS_READ_CONNECTIONS must be between 1 and 100, not {size}")
    return size


def open_pool(db: Database, size: int | None = None, **kwargs) -> ConnectionPool:
    """Open (or share) the read pool of ``db``; each call needs its :func:`close_pool`.

    ``kwargs`` go to every pooled connection (``psycopg.connect``), e.g. a ``cursor_factory``.
    """
    size = size or configured_size()
    with _lock:
        if db.url in _pools:
            pool, users = _pools[db.url]
            _pools[db.url] = (pool, users + 1)
            return pool
        connect = {"connect_timeout": CONNECT_TIMEOUT} if "connect_timeout" not in db.params else {}
        connect["application_name"] = APPLICATION_NAME
        pool = ConnectionPool(
            db.url, kwargs={**connect, **kwargs}, min_size=0, max_size=size, open=True, timeout=WAIT,
            check=_check, num_workers=1, name=f"reads-{db.name}", max_idle=60.0,
        )
        _pools[db.url] = (pool, 1)
        return pool


def close_pool(db: Database) -> None:
    with _lock:
        if db.url not in _pools:
            return
        pool, users = _pools[db.url]
        if users > 1:
            _pools[db.url] = (pool, users - 1)
            return
        del _pools[db.url]
    pool.close()


_unchecked = threading.local()  # .on: this thread's next borrow skips the pool's check (read_rows)


def _check(conn: psycopg.Connection) -> None:
    """The pool's check before it lends a connection (one round trip), unless :func:`read_rows` takes the risk."""
    if not getattr(_unchecked, "on", False):
        ConnectionPool.check_connection(conn)


def pool_of(db: Database) -> ConnectionPool | None:
    found = _pools.get(db.url)
    return found[0] if found else None


@contextmanager
def reading(db: Database, row_factory=dict_row) -> Iterator[psycopg.Connection]:
    """A connection to read views with: borrowed from the archive's pool, else opened for this use.

    Its transaction ends (committed) when the block ends; rows come as ``row_factory`` makes them. The block's
    statements read one snapshot of the database. (Statements that need no snapshot and come first in a request:
    :func:`read_rows`.)
    """
    pool = pool_of(db)
    if pool is None:
        with db.connect(row_factory=row_factory) as conn:
            yield conn
        return
    with pool.connection() as conn:
        conn.row_factory = row_factory
        yield conn


def read_rows(db: Database, statements: list[tuple[str, Any]], row_factory=dict_row) -> list[list[Any]]:
    """The rows of each of ``statements`` ((query, params) pairs), on one pooled connection, each committed as it
    runs: what every request asks before anything else (who asks, where the game counts), at the cost of a
    round trip per statement, without the pool's check or a COMMIT (decision 0052).

    The pooled connection is lent without its check; if it turns out broken (the server restarted or ended
    the session while it was idle) the statements go again, once, on a checked connection, so a restart
    still costs no failed page. Only for statements that may run twice: reads, and writes that say the same
    again (the token's "last used" time).
    """
    pool = pool_of(db)
    if pool is None:
        with db.connect(row_factory=row_factory, autocommit=True) as conn:
            return _send(conn, statements)
    rows = _lent(pool, statements, row_factory, unchecked=True)
    return _lent(pool, statements, row_factory, unchecked=False) if rows is _BROKEN else rows


_BROKEN = object()  # what _lent answers when the connection it was lent unchecked turned out broken


def _lent(pool: ConnectionPool, statements: list[tuple[str, Any]], row_factory, unchecked: bool):
    _unchecked.on = unchecked
    try:
        with pool.connection() as conn:
            _unchecked.on = False
            try:
                conn.row_factory = row_factory
                conn.autocommit = True  # idle as the pool lends it: a local setting, no round trip
                return _send(conn, statements)
            except psycopg.OperationalError:
                if unchecked and (conn.broken or conn.closed):
                    return _BROKEN  # the pool drops it as it takes it back; the next one is checked
                raise
            finally:
                with suppress(psycopg.Error):  # the next borrower reads in a transaction again
                    conn.autocommit = False
    finally:
        _unchecked.on = False


def _send(conn: psycopg.Connection, statements: list[tuple[str, Any]]) -> list[list[Any]]:
    # one after the other: psycopg's pipeline mode, which sends them all before the first answer, measured slower
    # for two short statements on a local server (0.36-0.46 ms against 0.31-0.41 ms; decision 0052)
    return [conn.execute(query, params).fetchall() for query, params in statements]
