"""The circuit breaker in front of the database (web/breaker.py), on a real Flask app."""
from __future__ import annotations

import time

import psycopg
from flask import Flask

from web.errors import register_error_handlers


def make_app(cooldown: float):
    app = Flask(__name__)
    state = {"down": True, "asked": 0}

    @app.get("/api/thing")
    def thing():
        state["asked"] += 1
        if state["down"]:
            raise psycopg.OperationalError("connection refused")
        return {"ok": True}

    register_error_handlers(app)
    app.extensions["db_breaker"].cooldown = cooldown
    return app.test_client(), state


def test_after_a_lost_database_requests_are_refused_at_once_until_one_trial_succeeds():
    client, state = make_app(cooldown=0.3)
    first = client.get("/api/thing")
    assert first.status_code == 503 and state["asked"] == 1
    for _ in range(5):  # open: answered without asking the database
        r = client.get("/api/thing")
        assert r.status_code == 503 and r.json["error"] == "DatabaseUnavailable" and r.headers["Retry-After"] == "5"
    assert state["asked"] == 1
    time.sleep(0.35)
    assert client.get("/api/thing").status_code == 503 and state["asked"] == 2  # the trial failed: open again
    assert client.get("/api/thing").status_code == 503 and state["asked"] == 2
    state["down"] = False
    time.sleep(0.35)
    assert client.get("/api/thing").status_code == 200 and state["asked"] == 3  # the trial closes the circuit
    assert client.get("/api/thing").status_code == 200 and state["asked"] == 4


def test_a_busy_database_does_not_open_the_circuit():
    client, state = make_app(cooldown=60)
    app = client.application

    @app.get("/api/busy")
    def busy():
        raise psycopg.errors.LockNotAvailable("lock timeout")

    assert client.get("/api/busy").status_code == 503
    state["down"] = False
    assert client.get("/api/thing").status_code == 200
