"""Shared helpers for the integration tests: generated games as API payloads."""
from __future__ import annotations

import time

from service.samples import generated  # noqa: F401  (re-exported for the tests)


def wait_for(predicate, timeout: float = 15.0, interval: float = 0.05):
    """Poll until ``predicate()`` is truthy (read models are eventually consistent)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(interval)


def connections(db) -> int:
    """Other sessions open on ``db`` (to show a worker leaks none)."""
    with db.connect() as conn:
        return conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (db.name,)
        ).fetchone()[0]
