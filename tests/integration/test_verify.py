"""`nemesis-archive verify`: the hash chains recomputed from the stored rows, after real tampering."""
from __future__ import annotations

import json
from contextlib import closing

from click.testing import CliRunner

from service.schema import upgrade
from tests.helpers import generated
from web.cli import main as cli


def import_games(archive, seeds=(11, 12), facts=15):
    games = []
    for seed in seeds:
        header, generated_facts = generated(seed=seed)
        games.append(archive.games.import_game(header, generated_facts[:facts]))
    return games


def run_verify(archive, *args):
    return CliRunner().invoke(cli, ["--database-url", archive.db.url, "verify", *args])


def tamper(superuser_db, statement, params=()):
    """What someone with the superuser's password could do: switch the guard off, edit, switch it on."""
    with superuser_db.connect() as conn:
        conn.execute("ALTER TABLE games_events DISABLE TRIGGER games_events_immutable")
        conn.execute(statement, params)
        conn.execute("ALTER TABLE games_events ENABLE TRIGGER games_events_immutable")


def test_an_untouched_archive_verifies_clean(fresh_archive):
    games = import_games(fresh_archive)
    result = run_verify(fresh_archive, "--heads")
    assert result.exit_code == 0, result.output + result.stderr
    assert "verified 2 game(s), 32 events: 2 intact" in result.output
    for g in games:
        assert f"{g.id} 16 events ok: head {fresh_archive.games.get_game(g.id).chain}" in result.output
    one = run_verify(fresh_archive, str(games[0].id))
    assert one.exit_code == 0 and "verified 1 game(s), 16 events: 1 intact" in one.output


def test_an_edited_value_is_reported_with_game_and_step(fresh_archive, fresh_database):
    victim, bystander = import_games(fresh_archive)
    with fresh_database.connect() as conn:
        (state,) = conn.execute(
            "SELECT state FROM games_events WHERE originator_id = %s AND originator_version = 6", (victim.id,)
        ).fetchone()
    body = json.loads(bytes(state))
    body["data"] = {**body["data"], "tampered": True}
    tamper(
        fresh_database,
        "UPDATE games_events SET state = %s WHERE originator_id = %s AND originator_version = 6",
        (json.dumps(body).encode(), victim.id),
    )
    result = run_verify(fresh_archive)
    assert result.exit_code == 1
    assert f"game {victim.id}: event 6 (fact #5): hash does not match the stored content" in result.stderr
    assert f"found {body['chain']}" in result.stderr
    assert str(bystander.id) not in result.stderr
    assert f"1 BROKEN: {victim.id}" in result.output
    assert run_verify(fresh_archive, str(bystander.id)).exit_code == 0


def test_a_deleted_event_is_reported_as_a_gap(fresh_archive, fresh_database):
    victim, _ = import_games(fresh_archive)
    tamper(fresh_database, "DELETE FROM games_events WHERE originator_id = %s AND originator_version = 9", (victim.id,))
    result = run_verify(fresh_archive, str(victim.id))
    assert result.exit_code == 1
    assert f"game {victim.id}: event 9 (fact #8): missing" in result.stderr


def test_an_unknown_game_is_an_error(fresh_archive):
    result = run_verify(fresh_archive, "00000000-0000-4000-8000-000000000000")
    assert result.exit_code == 1 and "no game 00000000-0000-4000-8000-000000000000" in result.stderr


def legacy(state: bytes) -> bytes:
    body = json.loads(bytes(state))
    body.pop("chain")
    body.pop("class_version")
    return json.dumps(body).encode()


def test_games_stored_before_chains_are_an_unchained_prefix(pg_server, tmp_path):
    """A database at 0003 with events as the build before chains stored them, migrated to head."""
    from service.context import Archive
    from service.db import drop_database, ensure_database
    from service.roles import app_database

    db = ensure_database(pg_server, f"nemesis_test_legacy_{tmp_path.name[-20:]}")
    try:
        upgrade(db)
        with closing(Archive(db)) as source:  # events as this build makes them, then stripped of their chain
            (game,) = import_games(source, seeds=(21,), facts=6)
            with db.connect() as conn:
                rows = conn.execute(
                    "SELECT originator_id, originator_version, topic, state FROM games_events ORDER BY notification_id"
                ).fetchall()
        drop_database(pg_server, db.name)
        db = ensure_database(pg_server, db.name)
        upgrade(db, "0003")
        with db.connect() as conn:
            for gid, version, topic, state in rows:
                conn.execute("INSERT INTO games_events (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)",
                             (gid, version, topic, legacy(state)))
        upgrade(db)
        with closing(Archive(app_database(db))) as archive:
            result = run_verify(archive)
            assert result.exit_code == 0, result.stderr
            assert "verified 1 game(s), 7 events: 1 intact (1 recorded before hash chains, unchained)" in result.output
            # the old game loads, grows, and its new facts are chained
            _, facts = generated(seed=21)
            archive.games.record(game.id, facts[6:8])
            assert archive.games.get_game(game.id).chain is not None
            result = run_verify(archive, "--heads")
            assert result.exit_code == 0 and "9 events ok (after an unchained prefix)" in result.output
    finally:
        drop_database(pg_server, db.name)
