"""The event-store recorder the doors use: the library's own, but giving up within seconds.

The library retries every read and write ten times on a connection error, and each try waits
for the pool (``POSTGRES_CONNECT_TIMEOUT``) first: with the database gone a request hung for
minutes before it failed. A person at a table, or a tablet's retry loop, needs a prompt "the
database is unreachable" instead. So the same retry stays (it rides over a dropped pooled
connection or a server restart) but stops once ``RETRY_BUDGET`` seconds have passed.

Its insert calls the same insert function (``es_insert_events_uuid``: the table lock, the NOTIFY,
the insert) with the same rows, but sends them as four arrays of plain values in binary, rebuilt
into the function's array of ``stored_event_uuid`` by the server, instead of one array of
composites: psycopg writes an array of composites as text, escaping every state byte in Python,
which was most of storing an imported game (docs/benchmarks.md §2). The rows stored are the same
bytes; the library reads them back as always (tests/integration/test_store.py).
"""
from __future__ import annotations

import time
from functools import wraps
from typing import Any, Callable, Sequence

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.sql import SQL, Identifier

RETRY_BUDGET = 2.5  # seconds after which no new try starts; the last one waits POOL_TIMEOUT at most
RETRY_WAIT = 0.2  # the library's own pause between tries
POOL_TIMEOUT = 1  # seconds a try waits for a pooled connection (whole seconds: the library's setting)
RECONNECT_TIMEOUT = 1.0  # seconds the pool keeps re-dialling in the background before the next request dials anew


def _within_budget(method: Callable[..., Any]) -> Callable[..., Any]:
    once = getattr(method, "__wrapped__", method)  # the library's method without its ten-try retry

    @wraps(once)
    def call(*args: Any, **kwargs: Any) -> Any:
        deadline = time.monotonic() + RETRY_BUDGET
        while True:
            try:
                return once(*args, **kwargs)
            except (InterfaceError, OperationalError):
                if time.monotonic() + RETRY_WAIT >= deadline:
                    raise
                time.sleep(RETRY_WAIT)

    return call


class FailFastRecorder(PostgresApplicationRecorder):
    """``PostgresApplicationRecorder`` whose retries end after ``RETRY_BUDGET`` seconds."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The pool re-dials a lost server with exponential backoff for five minutes by default, so
        # after a long outage it came back up to minutes after the server did. Giving up a
        # background attempt after a second lets the next request dial at once instead.
        self.datastore.pool.reconnect_timeout = RECONNECT_TIMEOUT
        schema = Identifier(self.datastore.schema)
        # the rows in their order (WITH ORDINALITY): notification ids are handed out in that order, as before
        self._insert_arrays = SQL(
            "SELECT * FROM {schema}.{function}(ARRAY(SELECT ROW(i, v, t, s)::{schema}.{type}"
            " FROM unnest(%b::uuid[], %b::bigint[], %b::text[], %b::bytea[]) WITH ORDINALITY AS e(i, v, t, s, n)"
            " ORDER BY n))"
        ).format(schema=schema, function=Identifier(self.pg_function_name_insert_events),
                 type=Identifier(self.stored_event_type_name))

    def _insert_events_once(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not self.datastore.enable_db_functions or not stored_events:
            return PostgresApplicationRecorder.insert_events.__wrapped__(self, stored_events, **kwargs)
        return self._insert_rows_once(
            [e.originator_id for e in stored_events],
            [e.originator_version for e in stored_events],
            [e.topic for e in stored_events],
            [e.state for e in stored_events],
        )

    def _insert_rows_once(self, ids: list, versions: list[int], topics: list[str], states: list[bytes]) -> list[int]:
        if not self.datastore.enable_db_functions:
            return PostgresApplicationRecorder.insert_events.__wrapped__(
                self, [StoredEvent(*row) for row in zip(ids, versions, topics, states)])
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            # %b: the arrays go in binary, unescaped
            curs.execute(self._insert_arrays, (ids, versions, topics, states), prepare=True)
            return [r[self.pg_function_name_insert_events] for r in curs.fetchall()]

    insert_events = _within_budget(_insert_events_once)
    #: ``insert_events`` of the stored events given as four columns (an import's worker sends them so: plain
    #: values, no object per event to rebuild here); the same insert, the same transaction
    insert_rows = _within_budget(_insert_rows_once)
    select_events = _within_budget(PostgresApplicationRecorder.select_events)
    select_notifications = _within_budget(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _within_budget(PostgresApplicationRecorder.max_notification_id)


def fail_fast_env() -> dict[str, str]:
    """Library settings that put :class:`FailFastRecorder` behind an application."""
    return {
        "APPLICATION_RECORDER_TOPIC": f"{__name__}:{FailFastRecorder.__name__}",
        "POSTGRES_CONNECT_TIMEOUT": str(POOL_TIMEOUT),
    }
