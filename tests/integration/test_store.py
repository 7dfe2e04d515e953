"""The event store: library tables made by alembic, immutable history, pinned topics."""
from __future__ import annotations

import psycopg
import pytest
from eventsourcing.utils import get_topic

from service.game import Game
from service.schema import SchemaOutOfDate, current_and_head, ensure_schema

HEADER = {"ruleset": "lockdown", "mode": "standard", "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}]}


def test_stored_event_topics_are_pinned():
    # Topics are stored with every event: renaming these classes needs register_topic.
    assert get_topic(Game.Created) == "service.game:Game.Created"
    assert get_topic(Game.FactRecorded) == "service.game:Game.FactRecorded"


def test_migrations_bring_an_empty_database_to_head(fresh_database):
    current, head = current_and_head(fresh_database)
    assert current == head
    with fresh_database.connect() as conn:
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert {"games_events", "read_models", "gameindex_g1_games", "gamestate_g1_states", "playerresults_g1_results"} <= tables


def test_an_unmigrated_database_is_refused_with_the_command_to_run(pg_server):
    from service.db import drop_database, ensure_database

    db = ensure_database(pg_server, "nemesis_test_unmigrated")
    try:
        with pytest.raises(SchemaOutOfDate, match="nemesis-archive migrate"):
            ensure_schema(db, migrate=False)
        ensure_schema(db, migrate=True)
        assert current_and_head(db)[0] == current_and_head(db)[1]
    finally:
        drop_database(pg_server, db.name)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games_events SET topic = 'x'",
        "DELETE FROM games_events",
        "TRUNCATE games_events",
    ],
)
def test_stored_events_cannot_be_changed_by_the_service_connection(archive, statement):
    game = archive.games.create_game(HEADER)
    with archive.db.connect() as conn:
        before = conn.execute("SELECT count(*), md5(string_agg(state::text, ',' ORDER BY notification_id)) FROM games_events").fetchone()
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied for table games_events"):
            conn.execute(statement)
        conn.rollback()
        after = conn.execute("SELECT count(*), md5(string_agg(state::text, ',' ORDER BY notification_id)) FROM games_events").fetchone()
    assert before == after
    assert archive.games.get_game(game.id).version == 1


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games_events SET topic = 'x'",
        "DELETE FROM games_events",
        "TRUNCATE games_events",
    ],
)
def test_the_triggers_refuse_even_the_owner(archive, database, statement):
    archive.games.create_game(HEADER)
    with database.connect() as conn:
        conn.execute("SET ROLE nemesis_owner")
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="immutable"):
            conn.execute(statement)


def test_events_inserted_as_arrays_are_read_back_by_the_library_byte_for_byte(archive):
    """The recorder sends an insert's rows as four binary arrays (service/recorder.py), not the library's array of
    composites: what the library reads back is the very stored event it was given, in order, with its ids."""
    from uuid import uuid4

    from eventsourcing.persistence import IntegrityError

    from service.recorder import FailFastRecorder
    from tests.helpers import generated

    games = archive.games
    assert isinstance(games.recorder, FailFastRecorder) and games.recorder.datastore.enable_db_functions
    header, facts = generated(seed=7, max_rounds=2)
    game = games._new_game({**header, "id": uuid4()})
    game.record(facts[:40])
    game.record([{"type": "Commented", "data": {"text": "quote \" backslash \\ é ✓ {} [] , ( ) NULL"}}])
    stored = [games.mapper.to_stored_event(e) for e in game.collect_events()]
    ids = games.recorder.insert_events(stored)
    assert len(ids) == len(stored) and ids == sorted(ids) and len(set(ids)) == len(ids)
    back = games.recorder.select_events(game.id)
    assert [(e.originator_id, e.originator_version, e.topic, e.state) for e in back] == \
        [(e.originator_id, e.originator_version, e.topic, e.state) for e in stored]
    notes = games.recorder.select_notifications(ids[0], len(ids))
    assert [n.id for n in notes] == ids and [n.state for n in notes] == [e.state for e in stored]
    loaded = games.get_game(game.id)
    assert loaded.version == game.version and loaded.chain == game.chain and loaded.facts == game.facts
    with pytest.raises(IntegrityError):  # the (game, version) key still refuses a second writer
        games.recorder.insert_events(stored[-1:])


def test_the_array_insert_keeps_large_versions_and_any_bytes(fresh_archive):
    """Versions past int2/int4 and states of every byte value survive the binary arrays unchanged."""
    from uuid import uuid4

    from eventsourcing.persistence import StoredEvent

    recorder = fresh_archive.games.recorder  # a database of its own: no other test reads these raw events
    gid = uuid4()
    versions = [1, 32767, 32768, 2**31 + 5]
    stored = [StoredEvent(gid, v, "tests:Raw", bytes(range(256)) + str(v).encode()) for v in versions]
    recorder.insert_events(stored)
    back = recorder.select_events(gid)
    assert [(e.originator_version, e.topic, e.state) for e in back] == [(e.originator_version, e.topic, e.state) for e in stored]
