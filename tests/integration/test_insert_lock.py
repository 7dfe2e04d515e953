"""No skipped facts: the insert function serializes writers, so ids become visible in commit order."""
from __future__ import annotations

import os
import threading
import time
from uuid import uuid4

import psycopg
import pytest
from psycopg import sql

from projections import queries
from projections.runner import Worker
from service.archive import Games
from tests.helpers import generated, wait_for


def _held_append(archive, seed: int):
    """Start appending a new game's events in a transaction that stays open; return (conn, game, facts)."""
    games = archive.games
    header, facts = generated(seed=seed, max_rounds=1)
    game = games._new_game({**header, "id": uuid4()})
    game.record(facts[:5])
    stored = [games.mapper.to_stored_event(e) for e in game.collect_events()]
    conn = archive.db.connect()  # a transaction opens with the first statement and stays open
    rows = sql.SQL(", ").join(sql.SQL("ROW(%s, %s, %s, %s)::public.stored_event_uuid") for _ in stored)
    conn.execute(
        sql.SQL("SELECT * FROM public.es_insert_events_uuid(ARRAY[{}])").format(rows),
        [v for s in stored for v in (s.originator_id, s.originator_version, s.topic, s.state)],
    ).fetchall()
    return conn, game


def test_a_fact_committed_late_is_not_skipped_by_the_live_view(fresh_archive):
    db = fresh_archive.db
    worker = Worker(db, poll=0.2)
    thread = worker.start_thread()
    try:
        first = fresh_archive.games.create_game(generated(seed=91, max_rounds=1)[0])
        wait_for(lambda: queries.tracking_positions(db)["gameindex"] >= 1, timeout=30)
        held, late = _held_append(fresh_archive, seed=92)  # holds notification ids, not committed
        later: dict[int, object] = {}

        def append(seed: int) -> None:
            header, facts = generated(seed=seed, max_rounds=1)
            game = fresh_archive.games.create_game(header)
            fresh_archive.games.record(game.id, facts[:3])
            later[seed] = game

        writers = [threading.Thread(target=append, args=(s,)) for s in (93, 94, 95)]
        for w in writers:
            w.start()
        time.sleep(1.5)  # without the lock these would commit now, ahead of the held transaction
        assert not later, "a later append committed while an earlier one was still open"
        held.commit()
        held.close()
        for w in writers:
            w.join(timeout=30)
        assert len(later) == 3
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(db).values()), timeout=30)
        listed = {g["game_id"]: g["facts"] for g in queries.list_games(db)}
        expected = {first.id: 0, late.id: 5, **{g.id: 3 for g in later.values()}}
        assert listed == expected  # every game present, every fact counted
        for gid, facts in expected.items():
            assert queries.game_state(db, gid)["position"] == facts
    finally:
        worker.stop()
        thread.join(timeout=20)


@pytest.fixture
def insert_only_role(fresh_database):
    """A login role with only SELECT and INSERT on the events table (what a least-privilege service gets)."""
    role = f"nemesis_test_writer_{os.getpid()}"
    with fresh_database.connect(autocommit=True) as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("GRANT SELECT, INSERT ON public.games_events TO {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("GRANT SELECT ON public.games_snapshots TO {}").format(sql.Identifier(role)))
        # the insert function is not PUBLIC (migration 0005): a writer is granted it by name, as nemesis_app is
        conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION public.es_insert_events_uuid(public.stored_event_uuid[]) TO {}")
                     .format(sql.Identifier(role)))
    try:
        yield role
    finally:
        with fresh_database.connect(autocommit=True) as conn:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def test_an_insert_only_role_appends_through_the_locking_function(fresh_database, insert_only_role):
    db = fresh_database
    as_role = psycopg.conninfo.make_conninfo(db.url, user=insert_only_role)
    with psycopg.connect(as_role) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("LOCK TABLE public.games_events IN EXCLUSIVE MODE")  # it may not lock by itself
    games = Games(env=db.eventsourcing_env(POSTGRES_USER=insert_only_role))
    try:
        game = games.create_game(generated(seed=96, max_rounds=1)[0])  # ... but the function locks for it
        assert games.get_game(game.id).version == 1
    finally:
        games.close()
    with db.connect(autocommit=True) as conn:
        conn.execute(sql.SQL("REVOKE INSERT ON public.games_events FROM {}").format(sql.Identifier(insert_only_role)))
    games = Games(env=db.eventsourcing_env(POSTGRES_USER=insert_only_role))
    try:
        with pytest.raises(Exception, match="permission denied for table games_events"):
            games.create_game(generated(seed=97, max_rounds=1)[0])  # the definer widens no privilege
    finally:
        games.close()
