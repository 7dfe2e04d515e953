"""The event-store recorder the doors use: the library's own, but giving up within seconds.

The library retries every read and write ten times on a connection error, and each try waits
for the pool (``POSTGRES_CONNECT_TIMEOUT``) first: with the database gone a request hung for
minutes before it failed. A person at a table, or a tablet's retry loop, needs a prompt "the
database is unreachable" instead. So the same retry stays (it rides over a dropped pooled
connection or a server restart) but stops once ``RETRY_BUDGET`` seconds have passed.
"""
from __future__ import annotations

import time
from functools import wraps
from typing import Any, Callable

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import PostgresApplicationRecorder

RETRY_BUDGET = 2.5  # seconds after which no new try starts; the last one waits POOL_TIMEOUT at most
RETRY_WAIT = 0.2  # the library's own pause between tries
POOL_TIMEOUT = 1  # seconds a try waits for a pooled connection (whole seconds: the library's setting)
RECONNECT_TIMEOUT = 1.0  # seconds the pool keeps re-dialling in the background before the next request dials anew


def _within_budget(method: Callable[..., Any]) -> Callable[..., Any]:
    once = method.__wrapped__  # the library's method without its ten-try retry

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

    insert_events = _within_budget(PostgresApplicationRecorder.insert_events)
    select_events = _within_budget(PostgresApplicationRecorder.select_events)
    select_notifications = _within_budget(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _within_budget(PostgresApplicationRecorder.max_notification_id)


def fail_fast_env() -> dict[str, str]:
    """Library settings that put :class:`FailFastRecorder` behind an application."""
    return {
        "APPLICATION_RECORDER_TOPIC": f"{__name__}:{FailFastRecorder.__name__}",
        "POSTGRES_CONNECT_TIMEOUT": str(POOL_TIMEOUT),
    }
