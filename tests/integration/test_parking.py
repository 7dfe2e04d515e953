"""A view never stops on one event: what it cannot process is parked, counted, retried after a fix."""
from __future__ import annotations

import json
import re
from uuid import uuid4

from click.testing import CliRunner
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from projections import queries
from projections.generations import generations
from projections.retry import retry_parked
from projections.runner import Worker, rebuild_views
from projections.status import parked_events, projection_status
from projections.views import VIEWS, GameIndexView
from service.game import Game
from tests.helpers import connections, generated, wait_for

MARK = "~NUL~"


def store_raw(archive, seed=61, facts=0, mark=None, replace=None) -> Game:
    """Store a game's events straight into the event store, as an old or hostile writer could have.

    ``mark`` in a player's name becomes a JSON-escaped NUL (\\u0000) in the stored bytes: text and
    jsonb columns cannot hold it, so every view writing the name fails on every event of the game.
    ``replace`` maps stored bytes to what is stored instead.
    """
    games = archive.games
    header, all_facts = generated(seed=seed, max_rounds=2 if facts <= 30 else 8)
    assert len(all_facts) >= facts
    header = {**header, "id": uuid4()}
    replace = dict(replace or {})
    if mark:
        header["players"] = [{**p, "name": p["name"] + mark} if i == 0 else p for i, p in enumerate(header["players"])]
        replace[mark.encode()] = b"\\u0000"
    game = games._new_game(header)
    if facts:
        game.record(all_facts[:facts])
    stored = [games.mapper.to_stored_event(e) for e in game.collect_events()]
    for old, new in replace.items():
        stored = [StoredEvent(s.originator_id, s.originator_version, s.topic, s.state.replace(old, new)) for s in stored]
    games.recorder.insert_events(stored)
    return game


def store_undecodable(archive, game_id) -> None:
    games = archive.games
    version = games.get_game(game_id).version + 1
    games.recorder.insert_events([StoredEvent(game_id, version, get_topic(Game.FactRecorded), b"{not json")])


def caught_up(db, head) -> bool:
    return all(p >= head for p in queries.tracking_positions(db).values())


def parked_rows(db, view):
    with db.connect() as conn:
        active = generations(conn)[view][0]
        return conn.execute(
            "SELECT notification_id, game_id, error, attempts FROM parked_events WHERE view = %s AND generation = %s"
            " ORDER BY notification_id", (view, active),
        ).fetchall()


def test_poison_events_are_parked_and_every_later_game_is_projected(fresh_archive, monkeypatch):
    db, games = fresh_archive.db, fresh_archive.games
    worker = Worker(db, poll=0.2)
    thread = worker.start_thread()
    try:
        good = store_raw(fresh_archive, seed=62, facts=8)
        poison = store_raw(fresh_archive, seed=63, facts=5, mark=MARK)  # 6 events, a NUL in a name
        store_undecodable(fresh_archive, good.id)  # bytes that are not an event
        unfoldable = store_raw(fresh_archive, seed=64, replace={b'"ruleset":"lockdown"': b'"ruleset":"nonexistent"'})
        later = store_raw(fresh_archive, seed=65, facts=12)
        head = games.recorder.max_notification_id()
        wait_for(lambda: caught_up(db, head), timeout=30)

        listed = {g["game_id"]: g for g in queries.list_games(db)}
        assert listed[later.id]["facts"] == 12  # the views went on past every poison event
        assert listed[good.id]["facts"] == 8 and poison.id not in listed and unfoldable.id not in listed
        parked = parked_rows(db, "gameindex")
        assert [r[1] for r in parked] == [poison.id] * 6 + [good.id, unfoldable.id]
        assert all(r[3] == 1 for r in parked)
        assert "NUL" in parked[0][2] or "\\u0000" in parked[0][2]
        assert "MapperDeserialisationError" in parked[6][2]
        assert "nonexistent" in parked[7][2]
        # corridors store no names and learn only from the rulesets whose steps they read: only the undecodable
        # event is parked there (a game of an unknown ruleset teaches no corridor; the other views park it)
        assert [r[1] for r in parked_rows(db, "corridors")] == [good.id]
        assert worker.errors == 0  # nothing restarted

        status = projection_status(db)
        assert status["views"]["gameindex"]["parked"] == 8 and status["views"]["gameindex"]["lag"] == 0
        assert status["views"]["gameindex"]["last_error"]["error"].startswith("parked event: ")
        assert status["status"] == "degraded"
    finally:
        worker.stop()
        thread.join(timeout=20)

    # a retry without a fix fails again: counted, still parked
    [report] = retry_parked(db, "gameindex")
    assert (report.retried, report.fixed) == (3, 0)
    assert {r[3] for r in parked_rows(db, "gameindex")} == {2}

    # the fix: the view stores names without NUL; a retry projects the game as the view's position has it
    write = GameIndexView.write

    def fixed(self, curs, game):
        game.players = [{**p, "name": p["name"].replace("\x00", "")} for p in game.players]
        write(self, curs, game)

    monkeypatch.setattr(GameIndexView, "write", fixed)
    result = CliRunner().invoke(_cli(), ["--database-url", db.url, "retry-parked", "gameindex"])
    assert result.exit_code == 1, result.output  # two games still cannot be read
    assert "3 game(s) retried, 1 projected (6 parked event(s) cleared), 2 still parked" in result.output
    listed = {g["game_id"]: g for g in queries.list_games(db)}
    assert listed[poison.id]["facts"] == 5
    assert listed[good.id]["facts"] == 8  # not rolled back to an older state by the retry
    assert [r[1] for r in parked_rows(db, "gameindex")] == [good.id, unfoldable.id]
    assert len(parked_rows(db, "playerresults")) == 8  # other views keep theirs until retried


def _cli():
    from web.cli import main

    return main


def test_fifty_failing_events_leak_no_connection(fresh_archive):
    db = fresh_archive.db
    worker = Worker(db, poll=0.2)
    thread = worker.start_thread()
    try:
        store_raw(fresh_archive, seed=66, facts=10)
        wait_for(lambda: caught_up(db, fresh_archive.games.recorder.max_notification_id()), timeout=30)
        before = connections(db)
        store_raw(fresh_archive, seed=67, facts=49, mark=MARK)  # 50 events, each failing
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: caught_up(db, head), timeout=60)
        after = connections(db)
        assert len(parked_rows(db, "gameindex")) == 50
        assert worker.errors == 0
        assert abs(after - before) <= 3, (before, after)
    finally:
        worker.stop()
        thread.join(timeout=20)


def test_worker_restarts_after_lost_connections_leak_none(fresh_archive):
    db = fresh_archive.db
    worker = Worker(db, poll=0.2, backoff=(0.1, 1.0))
    thread = worker.start_thread()
    try:
        store_raw(fresh_archive, seed=68, facts=4)
        wait_for(lambda: caught_up(db, fresh_archive.games.recorder.max_notification_id()), timeout=30)
        before = connections(db)
        for round_ in range(1, 6):
            with db.connect(autocommit=True) as conn:  # as a server restart or a network cut would
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
                    " AND backend_type = 'client backend' AND usename = current_user",
                    (db.name,),
                )
            wait_for(lambda: worker.errors >= round_, timeout=30)
            more = store_raw(fresh_archive, seed=68 + round_, facts=3)
            head = fresh_archive.games.recorder.max_notification_id()
            wait_for(lambda: caught_up(db, head), timeout=60)
            assert more.id in {g["game_id"] for g in queries.list_games(db)}
        assert connections(db) <= before + 3, (before, connections(db))
    finally:
        worker.stop()
        thread.join(timeout=20)


def test_rebuild_parks_instead_of_failing(fresh_archive):
    db = fresh_archive.db
    good = store_raw(fresh_archive, seed=71, facts=6)
    poison = store_raw(fresh_archive, seed=72, facts=6, mark=MARK)
    store_undecodable(fresh_archive, good.id)
    later = store_raw(fresh_archive, seed=73, facts=6)
    reports = rebuild_views(db, list(VIEWS), batch=4)
    assert [r.generation for r in reports] == [2] * len(VIEWS)
    assert {r.view: r.parked for r in reports} == {"corridors": 1, "gameindex": 8, "gamestate": 8, "playerresults": 8,
                                                  "league": 8, "stats": 8}
    listed = {g["game_id"]: g for g in queries.list_games(db)}
    assert set(listed) == {good.id, later.id} and listed[good.id]["facts"] == 6
    assert [r[1] for r in parked_rows(db, "gameindex")] == [poison.id] * 7 + [good.id]
    assert [p["generation"] for p in parked_events(db, "gameindex")] == [2] * 8
    # a second rebuild parks them again in its own generation and forgets the old one's
    rebuild_views(db, ["gameindex"], batch=100)
    with db.connect() as conn:
        assert conn.execute("SELECT DISTINCT generation FROM parked_events WHERE view = 'gameindex'").fetchall() == [(3,)]


def test_a_worker_on_changed_code_retries_parked_events(fresh_archive, monkeypatch):
    from projections import parking

    db = fresh_archive.db
    poison = store_raw(fresh_archive, seed=74, facts=3, mark=MARK)
    rebuild_views(db, ["gameindex"])
    assert len(parked_rows(db, "gameindex")) == 4
    assert retry_parked(db, changed_code_only=True) == []  # same code: nothing to retry on start
    write = GameIndexView.write
    monkeypatch.setattr(GameIndexView, "write", lambda self, curs, game: write(
        self, curs, _without_nul(game)))
    monkeypatch.setattr(parking, "code_version", lambda: "a-new-version")
    worker = Worker(db, poll=0.2)
    thread = worker.start_thread()
    try:
        wait_for(lambda: not parked_rows(db, "gameindex"), timeout=30)
        assert {g["game_id"] for g in queries.list_games(db)} == {poison.id}
    finally:
        worker.stop()
        thread.join(timeout=20)


def _without_nul(game):
    game.players = [{**p, "name": p["name"].replace("\x00", "")} for p in game.players]
    return game


def test_status_command_and_operator_page_show_parked_events(fresh_archive):
    from web import create_app

    db = fresh_archive.db
    poison = store_raw(fresh_archive, seed=75, facts=2, mark=MARK)
    store_raw(fresh_archive, seed=76, facts=2)
    rebuild_views(db, list(VIEWS))
    result = CliRunner().invoke(_cli(), ["--database-url", db.url, "status"])
    assert result.exit_code == 0, result.output
    assert "event store head at 6 (degraded)" in result.output
    assert re.search(r"gameindex\s+2\s+6\s+0\s+3\s+NOT RUNNING \(never seen\)", result.output)
    assert f"gameindex #1 game {poison.id} v1: 1 attempt(s)" in result.output
    report = json.loads(CliRunner().invoke(_cli(), ["--database-url", db.url, "status", "--json"]).output)
    assert report["views"]["gameindex"]["parked"] == 3 and report["head"] == 6
    assert {p["notification_id"] for p in report["parked_events"] if p["view"] == "gameindex"} == {1, 2, 3}

    page = create_app({"ARCHIVE": fresh_archive}).test_client().get("/admin/status")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert str(poison.id) in html and "PostgreSQL text fields cannot contain NUL" in html
    assert "nemesis-archive retry-parked" in html


def test_status_command_says_when_the_database_is_unreachable():
    result = CliRunner().invoke(_cli(), ["--database-url", "postgresql://nobody@127.0.0.1:1/none", "status", "--json"])
    assert result.exit_code == 2
    assert json.loads(result.output)["database"] == "unreachable"


def test_a_rebuild_batch_that_fails_is_split_in_halves_before_one_event_per_transaction(fresh_archive, monkeypatch):
    """Decision 0041: a batch of many games is one transaction per view; when one game cannot be written, the
    halves without it are still written whole, and only the part holding it goes one event at a time."""
    from service.archive import Games

    db = fresh_archive.db
    first = [store_raw(fresh_archive, seed=s, facts=30) for s in (75, 76)]
    poison = store_raw(fresh_archive, seed=77, facts=30, mark=MARK)
    last = store_raw(fresh_archive, seed=78, facts=30)
    one_by_one = []
    real = Games.get_game
    monkeypatch.setattr(Games, "get_game", lambda self, gid, version=None: (
        one_by_one.append(gid) if version is not None else None, real(self, gid, version))[1])
    (report,) = rebuild_views(db, ["gameindex"], batch=1000)  # all 124 events in one batch
    assert report.events == 124 and report.parked == 31  # the poisoned game's events, each parked once
    assert {g["game_id"] for g in queries.list_games(db)} == {*(g.id for g in first), last.id}
    assert [r[1] for r in parked_rows(db, "gameindex")] == [poison.id] * 31
    # the half with the first two games went whole; only the half with the poisoned game went event by event
    assert set(one_by_one) == {poison.id, last.id} and len(one_by_one) == 62
