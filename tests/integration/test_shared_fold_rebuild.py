"""A rebuild folds each event once for every view, and a fold snapshot stands in for a game that did not change
(decision 0032): the rows are those of one view rebuilt at a time, folded from the events."""
from __future__ import annotations

import pytest
from psycopg import sql

from projections.generations import VIEW_TABLES, generations
from projections.runner import rebuild, rebuild_views
from projections.views import VIEWS
from service.demo import HERE as DEMO_DIR
from service.demo.league import load_demo_league
from service.notation import import_parsed, read_file
from tests.helpers import generated


def every_row(db, view: str) -> dict[str, list]:
    """Every table of the view's active generation, rows in a stable order."""
    out = {}
    with db.connect() as conn:
        active, _ = generations(conn)[view]
        for table in VIEW_TABLES[view]:
            found = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(f"{view}_g{active}_{table}"))).fetchall()
            out[table] = sorted(found, key=repr)
    return out


def snapshot_count(db) -> int:
    with db.connect() as conn:
        return conn.execute("SELECT count(*) FROM fold_snapshots").fetchone()[0]


@pytest.fixture
def archive_of_games(fresh_archive):
    """The demo games, a league night or two with league facts, generated games (one corrected, with remarks)."""
    for path in sorted(DEMO_DIR.glob("*.jsonl")):
        import_parsed(fresh_archive.games, read_file(path))
    load_demo_league(fresh_archive.games, fresh_archive.leagues, count=2)
    for seed in (61, 62):
        header, facts = generated(seed=seed, players=4, max_rounds=3)
        game = fresh_archive.games.create_game(header)
        fresh_archive.games.record(game.id, facts[:25])
        if seed == 62:
            fresh_archive.games.record(game.id, [{"type": "FactVoided", "data": {"seqs": [25], "reason": "not so"}},
                                                 {"type": "Commented", "data": {"text": "a pause"}}])
            fresh_archive.games.record(game.id, facts[24:])
        else:
            fresh_archive.games.record(game.id, facts[25:])
    return fresh_archive


@pytest.mark.slow
def test_one_fold_for_every_view_and_snapshots_give_the_rows_of_each_view_folded_alone(archive_of_games):
    archive = archive_of_games
    db = archive.db
    events = archive.games.recorder.max_notification_id()
    alone = {}
    for view in VIEWS:
        report = rebuild(db, view, snapshots=False, batch=97)
        assert report.parked == 0 and report.timings.from_snapshots == 0
        alone[view] = every_row(db, view)
    assert alone["corridors"]["observations"] and alone["stats"]["kills"] and alone["league"]["ratings"]

    with db.connect() as conn:
        conn.execute("DELETE FROM fold_snapshots")
        games, game_events = conn.execute("SELECT count(DISTINCT originator_id), count(*) FROM games_events"
                                          " WHERE topic LIKE 'service.game:%%'").fetchone()
    reports = rebuild_views(db, list(VIEWS), batch=53, snapshots=False)
    assert {r.view: every_row(db, r.view) for r in reports} == alone
    assert snapshot_count(db) == games  # every game folded once left its snapshot

    reports = rebuild_views(db, list(VIEWS), batch=53)  # from the snapshots: nothing folded
    assert reports[0].timings.from_snapshots == game_events < events
    assert {r.view: every_row(db, r.view) for r in reports} == alone  # league facts still come from the events

    # a game that changed since its snapshot is folded again from its events; the others are not
    with db.connect() as conn:
        (gid,) = conn.execute("SELECT originator_id FROM games_events WHERE topic = 'service.game:Game.Created'"
                              " ORDER BY notification_id LIMIT 1").fetchone()
    archive.games.record(gid, [{"type": "Commented", "data": {"text": "looked at again"}}])
    report = rebuild(db, "stats")
    assert 0 < report.timings.from_snapshots < events
    changed = every_row(db, "stats")
    report = rebuild(db, "stats", snapshots=False)
    assert every_row(db, "stats") == changed


def test_a_rebuild_gives_every_row_the_live_worker_built(fresh_archive):
    """Decision 0044: a rebuild reads a snapshot's games as one entry per batch, writes each view in its own
    thread, and places, counts and rates the league once at its end; every table of every view must still hold
    exactly the rows the live worker built event by event (league facts after some games, late games that
    re-rate a season, a correction, a remark), folded and from the snapshots, in small batches and in one."""
    from projections import queries
    from projections.runner import Worker
    from service.demo.league import MEMBERS
    from tests.helpers import wait_for

    archive = fresh_archive
    db = archive.db
    load_demo_league(archive.games, archive.leagues, count=3)  # games first, then the club, league and season
    for i, seed in enumerate((71, 72, 73)):  # then games of the season, each dated before the one before it
        header, facts = generated(seed=seed, players=3, max_rounds=2)
        header["players"] = [{"seat": p["seat"], "name": MEMBERS[(i + p["seat"]) % len(MEMBERS)]}
                             for p in header["players"]]
        header["league"], header["played_on"] = "Demo league", f"2026-10-{20 - 5 * i:02d}"
        game = archive.games.create_game(header)
        archive.games.record(game.id, facts[:15])
        if seed == 72:
            archive.games.record(game.id, [{"type": "FactVoided", "data": {"seqs": [15], "reason": "not so"}},
                                           {"type": "Commented", "data": {"text": "a pause"}}])
            archive.games.record(game.id, facts[14:])
        else:
            archive.games.record(game.id, facts[15:])
    worker = Worker(db, poll=0.1)
    thread = worker.start_thread()
    try:
        head = archive.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(db).values()), timeout=120)
    finally:
        worker.stop()
        thread.join(timeout=10)
    live = {view: every_row(db, view) for view in VIEWS}
    assert live["league"]["ratings"] and live["league"]["characters"] and live["corridors"]["observations"]

    with db.connect() as conn:
        conn.execute("DELETE FROM fold_snapshots")
    reports = rebuild_views(db, list(VIEWS), batch=41, snapshots=False)
    assert reports[0].timings.from_snapshots == 0
    assert {view: every_row(db, view) for view in VIEWS} == live
    reports = rebuild_views(db, list(VIEWS), batch=41)  # from the snapshots, a few games per batch
    assert reports[0].timings.from_snapshots > 0
    assert {view: every_row(db, view) for view in VIEWS} == live
    reports = rebuild_views(db, list(VIEWS))  # from the snapshots, every event in one batch
    assert {r.events for r in reports} == {head}
    assert {view: every_row(db, view) for view in VIEWS} == live
