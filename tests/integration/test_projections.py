"""Read models: live worker, exactly-once tracking, blue/green rebuilds that survive a kill."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest
from eventsourcing.persistence import IntegrityError, Tracking
from psycopg import sql

from projections import queries
from projections.generations import VIEW_TABLES, generations
from projections.runner import Worker, open_view, rebuild, rebuild_views
from projections.views import VIEWS
from tests.helpers import generated, wait_for


def rows(db, view: str) -> list[tuple]:
    with db.connect() as conn:
        active, _ = generations(conn)[view]
        table = f"{view}_g{active}_{VIEW_TABLES[view][0]}"
        found = conn.execute(sql.SQL("SELECT * FROM {} ORDER BY 1, 2").format(sql.Identifier(table))).fetchall()
        return sorted(found, key=repr)  # views with several rows per (game, ...) prefix, e.g. corridors


def load_games(archive, seeds, rounds=2):
    ids = []
    for seed in seeds:
        header, facts = generated(seed=seed, max_rounds=rounds)
        game = archive.games.create_game(header)
        archive.games.record(game.id, facts[:20])
        archive.games.record(game.id, facts[20:])
        ids.append(game.id)
    return ids


def test_the_worker_keeps_every_view_up_to_date(fresh_archive, caplog):
    db = fresh_archive.db
    worker = Worker(db, poll=0.2)
    thread = worker.start_thread()
    try:
        ids = load_games(fresh_archive, [21, 22])
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(db).values()))
        listed = {g["game_id"]: g for g in queries.list_games(db)}
        for gid in ids:
            game = fresh_archive.games.get_game(gid)
            assert listed[gid]["facts"] == game.position
            assert listed[gid]["status"] == "finished"
            state = queries.game_state(db, gid)
            assert state["position"] == game.position
            assert state["state"] == game.ruleset.describe(game.head_state)
        players = {p["player_key"]: p for p in queries.player_table(db)}
        assert players["player 1 #21"]["played"] == 1 and players["player 1 #21"]["finished"] == 1
        assert [g["game_id"] for g in queries.list_games(db, player="PLAYER 2 #22")] == [ids[1]]

        # a rebuild switches generation under the running worker, which follows it
        before = rows(db, "gameindex")
        rebuild(db, "gameindex")
        assert rows(db, "gameindex") == before
        more = load_games(fresh_archive, [23])
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: queries.tracking_positions(db)["gameindex"] >= head)
        assert more[0] in {g["game_id"] for g in queries.list_games(db)}
    finally:
        worker.stop()
        thread.join(timeout=10)
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


def test_tracking_makes_each_event_count_once(fresh_archive):
    db = fresh_archive.db
    (gid,) = load_games(fresh_archive, [31])
    view = open_view(db, "gameindex", 1)
    game = fresh_archive.games.get_game(gid)
    view.process([game], Tracking("Games", 10**6))
    with pytest.raises(IntegrityError):
        view.process([game], Tracking("Games", 10**6))
    view.datastore.close()


def test_rebuild_switches_generation_and_drops_the_old_tables(fresh_archive):
    db = fresh_archive.db
    load_games(fresh_archive, [41, 42])
    for view in VIEWS:
        report = rebuild(db, view, batch=7)
        assert report.generation == 2 and report.events == fresh_archive.games.recorder.max_notification_id()
    with db.connect() as conn:
        assert {v: a for v, (a, b) in generations(conn).items()} == {v: 2 for v in VIEWS}
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert not any(t.startswith(tuple(f"{v}_g1_" for v in VIEWS)) for t in tables)
    assert len(rows(db, "playerresults")) == 6
    # all views in one pass (the events folded once) give the same rows
    before = {v: rows(db, v) for v in VIEWS}
    reports = rebuild_views(db, list(VIEWS), batch=11)
    assert [r.generation for r in reports] == [3] * len(VIEWS)
    assert {v: rows(db, v) for v in VIEWS} == before


def test_a_rebuild_killed_midway_resumes_to_the_same_result(fresh_archive):
    db = fresh_archive.db
    load_games(fresh_archive, [51, 52, 53], rounds=3)
    rebuild(db, "gamestate")  # the clean result to compare with
    clean = rows(db, "gamestate")

    cmd = [sys.executable, "-m", "web.cli", "--database-url", db.url, "rebuild", "gamestate", "--batch", "5", "--pause", "0.1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def tracked() -> int:
            with db.connect() as conn:
                building = generations(conn)["gamestate"][1]
                if building is None:
                    return 0
                row = conn.execute(
                    sql.SQL("SELECT notification_id FROM {} WHERE application_name = 'Games'").format(
                        sql.Identifier(f"gamestate_g{building}_tracking")
                    )
                ).fetchone()
                return row[0] if row else 0

        wait_for(lambda: tracked() >= 20, timeout=60)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    with db.connect() as conn:
        active, building = generations(conn)["gamestate"]
    assert building == active + 1  # interrupted: the new generation is still being built
    report = rebuild(db, "gamestate")
    assert report.generation == building
    assert 0 < report.events < fresh_archive.games.recorder.max_notification_id()  # resumed, not restarted
    assert rows(db, "gamestate") == clean


def test_cli_rebuild_reports_progress_and_rate(fresh_archive):
    from click.testing import CliRunner

    from web.cli import main as cli

    load_games(fresh_archive, [81])
    result = CliRunner().invoke(cli, ["--database-url", fresh_archive.db.url, "rebuild"])
    assert result.exit_code == 0, result.output
    for view in VIEWS:
        assert re.search(rf"rebuilt {view} as generation 2: \d+ events in [\d.]+ s \([\d,]+ events/s\)", result.output)
    result = CliRunner().invoke(cli, ["--database-url", fresh_archive.db.url, "rebuild", "nonsense"])
    assert result.exit_code == 1 and "unknown view 'nonsense'" in result.output


def test_player_results_record_verdict_survival_death_and_objective(fresh_archive):
    from service.demo import HERE as DEMO_DIR
    from service.notation import import_parsed, read_file

    games = [import_parsed(fresh_archive.games, read_file(p))[0] for p in sorted(DEMO_DIR.glob("*.jsonl"))]
    rebuild_views(fresh_archive.db, list(VIEWS))
    with fresh_archive.db.connect() as conn:
        active = generations(conn)["playerresults"][0]
        stored = {
            (str(r[0]), r[1]): r[2:]
            for r in conn.execute(
                sql.SQL("SELECT game_id, seat, finished, outcome, survival, death_cause, objective FROM {}").format(
                    sql.Identifier(f"playerresults_g{active}_results")
                )
            )
        }
    expected_won = 0
    for game in games:
        result = game.ruleset.score(game.head_state)
        for p in result.players:
            assert stored[(str(game.id), p.seat)] == (True, p.outcome, p.survival, p.death_cause, p.objective)
            expected_won += p.outcome == "won"
    table = queries.player_table(fresh_archive.db)
    assert sum(p["won"] for p in table) == expected_won > 0
    assert sum(p["lost"] for p in table) == sum(1 for v in stored.values() if v[1] == "lost")
