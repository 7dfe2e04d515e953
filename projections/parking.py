"""Events a view cannot process are parked, not retried forever (docs/decisions/0008).

A view that fails on one event would otherwise stop on it for good: events are immutable,
so the poison event is never going away. The worker and the rebuild park such an event in
``parked_events`` in the same transaction that advances the view's tracking past it, and
go on. ``retry_parked`` projects the parked games again after a fix.

An error of the database itself (connection lost, server shutting down, disk full, missing
privilege or table) is not the event's fault: it is raised, never parked, and the worker
backs off and tries again.
"""
from __future__ import annotations

import hashlib
import traceback
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from uuid import UUID

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError

APPLICATION = "Games"
ROOT = Path(__file__).resolve().parents[1]
ERROR_MAX = 2000

# SQLSTATE classes and codes that say "the database cannot do it now", whatever the event.
_INFRASTRUCTURE_CLASSES = ("08", "53", "57", "58", "25", "40", "55", "HV", "XX")
_INFRASTRUCTURE_CODES = ("42501", "42P01", "42883", "3D000", "3F000")


@dataclass(frozen=True)
class Parked:
    notification_id: int
    game_id: UUID
    version: int  # of the game's stream: 1 is its Created event, n + 1 its fact #n
    error: str


def is_infrastructure(error: BaseException) -> bool:
    """True when ``error`` comes from the database being unavailable, not from the event."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)):
            return True
        state = getattr(seen, "sqlstate", None)
        if state and (state[:2] in _INFRASTRUCTURE_CLASSES or state in _INFRASTRUCTURE_CODES):
            return True
        seen = seen.__cause__
    return False


def _ours(filename: str) -> bool:
    return filename.startswith(str(ROOT)) and "site-packages" not in filename


def describe(error: BaseException) -> str:
    """One line naming the error and where in our code it was raised (no NUL, bounded length)."""
    text = f"{type(error).__name__}: {error}".strip()
    where = None
    seen: BaseException | None = error
    while seen is not None:  # the deepest cause that passed through our code says where
        ours = [f for f in traceback.extract_tb(seen.__traceback__) if _ours(f.filename)]
        if ours:
            where = ours[-1]
        seen = seen.__cause__
    if where is not None:
        text += f" (at {Path(where.filename).relative_to(ROOT)}:{where.lineno} in {where.name})"
    text = " ".join(text.replace("\x00", "\\x00").split())
    return text if len(text) <= ERROR_MAX else text[: ERROR_MAX - 1] + "…"


@lru_cache(maxsize=1)
def code_version() -> str:
    """A fingerprint of the code that projects events: parked events are retried when it changes."""
    root = ROOT
    digest = hashlib.sha256()
    for package in ("projections", "service"):
        for path in sorted((root / package).rglob("*")):
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def park(curs, view: str, generation: int, parked: Parked) -> None:
    """Record (or count again) a parked event; run inside the tracking transaction."""
    curs.execute(
        "INSERT INTO public.parked_events (view, generation, notification_id, game_id, version, error, code)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (view, generation, notification_id) DO UPDATE SET error = EXCLUDED.error,"
        " code = EXCLUDED.code, last_failed = now(), attempts = public.parked_events.attempts + 1",
        (view, generation, parked.notification_id, parked.game_id, parked.version, parked.error, code_version()),
    )
