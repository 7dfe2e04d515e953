"""Which database failures read as "unreachable" (server lost) and which as "busy" (server slow)."""
from __future__ import annotations

import psycopg
import pytest
from eventsourcing import persistence
from psycopg import errors
from psycopg_pool import PoolTimeout

from web.errors import DATABASE_DOWN, _unreachable


def wrapped(cause: Exception) -> Exception:
    """As the library raises it: its own OperationalError from psycopg's."""
    try:
        raise persistence.OperationalError(str(cause)) from cause
    except persistence.OperationalError as e:
        return e


@pytest.mark.parametrize("cause", [
    PoolTimeout("couldn't get a connection after 1.00 sec"),
    psycopg.OperationalError("connection is lost"),
    errors.AdminShutdown("terminating connection due to administrator command"),
    errors.CannotConnectNow("the database system is starting up"),
    errors.ConnectionFailure("connection failure"),
])
def test_a_lost_server_is_unreachable(cause):
    assert isinstance(cause, DATABASE_DOWN)
    assert _unreachable(cause) and _unreachable(wrapped(cause))


@pytest.mark.parametrize("cause", [
    errors.LockNotAvailable("canceling statement due to lock timeout"),
    errors.QueryCanceled("canceling statement due to statement timeout"),
])
def test_a_slow_server_is_busy_not_unreachable(cause):
    assert isinstance(cause, DATABASE_DOWN)
    assert not _unreachable(cause) and not _unreachable(wrapped(cause))
