"""A circuit breaker in front of the database: once it is found unreachable, answer at once.

Without it, every request during an outage spends the whole connect-and-retry budget (about
3.5 s) holding one of the server's few threads, so a busy table's requests queue behind each
other and answer long after 5 s. With it, the first failure opens the circuit: for ``cooldown``
seconds every request that needs the database gets its 503 immediately; then a single request
is let through to try (half-open). Its success closes the circuit, its failure opens it again.
Static files and /healthz (which checks the database with its own timeouts) pass untouched.
"""
from __future__ import annotations

import threading
import time

from flask import Flask, g, request

PASS_THROUGH = frozenset({"static", "admin.healthz"})


class CircuitOpen(Exception):
    """The database was unreachable moments ago; this request was not sent to it."""


class Breaker:
    def __init__(self, cooldown: float = 2.0) -> None:
        self.cooldown = cooldown
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed
        self._trial = False
        self.refused = 0  # requests answered without asking the database (tests and /admin/status read it)

    @property
    def is_open(self) -> bool:
        return self._open_until is not None

    def admit(self) -> bool:
        """May this request use the database? Marks it as the trial when the circuit is half-open."""
        with self._lock:
            if self._open_until is None:
                return True
            if self._trial or time.monotonic() < self._open_until:
                self.refused += 1
                return False
            self._trial = g.breaker_trial = True
            return True

    def failed(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + self.cooldown
            self._trial = False
        g.breaker_trial = False

    def finished(self) -> None:
        """The end of an admitted request: a trial that did not fail closes the circuit."""
        if g.pop("breaker_trial", False):
            with self._lock:
                self._open_until, self._trial = None, False


def install(app: Flask, cooldown: float = 2.0) -> Breaker:
    breaker = app.extensions["db_breaker"] = Breaker(cooldown)

    @app.before_request
    def refuse_while_open():
        if request.endpoint not in PASS_THROUGH and not breaker.admit():
            raise CircuitOpen()

    @app.teardown_request
    def close_after_trial(_exc):
        breaker.finished()

    return breaker
