"""Roles: the service's login may append and read events, and nothing else on them."""
from __future__ import annotations

import os
import re
import threading

import psycopg
import pytest

from service.roles import APP, OWNER, app_database, history_risk
from service.schema import alembic_config, current_and_head, upgrade

HEADER = {"ruleset": "lockdown", "mode": "standard", "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}]}


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games_events SET state = state",
        "DELETE FROM games_events",
        "TRUNCATE games_events",
        "ALTER TABLE games_events DISABLE TRIGGER games_events_immutable",
        "ALTER TABLE games_events DISABLE TRIGGER ALL",
        "DROP TRIGGER games_events_immutable ON games_events",
        "ALTER TABLE games_events ADD COLUMN note text",
        "DROP TABLE games_events",
        "SET session_replication_role = replica",
        "CREATE TABLE games_events_copy (x int)",
        "CREATE OR REPLACE FUNCTION public.nemesis_refuse_history_change() RETURNS trigger"
        " LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$",
        "SELECT setval('games_events_notification_id_seq', 1)",
        "UPDATE read_models SET active = 7",
        "UPDATE hash_chain_start SET last_unchained = 1000000",
    ],
)
def test_the_app_role_cannot_touch_history(archive, statement):
    archive.games.create_game(HEADER)
    with archive.db.connect() as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == APP
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(statement)


def test_the_app_role_appends_and_reads(archive):
    game = archive.games.create_game(HEADER)
    archive.games.record(game.id, [{"type": "BoardPrepared", "data": {"board": "basic"}}])
    assert archive.games.get_game(game.id).position == 1
    assert history_risk(archive.db) is None


def test_a_superuser_connection_is_named_as_a_risk(database):
    assert "superuser" in history_risk(database)


def test_tables_the_owner_makes_later_are_the_apps_to_use(fresh_database):
    with fresh_database.connect() as conn:
        conn.execute(f"SET ROLE {OWNER}")
        conn.execute("CREATE TABLE public.later_view (id int PRIMARY KEY, n int)")
    with app_database(fresh_database).connect() as conn:
        conn.execute("INSERT INTO public.later_view VALUES (1, 1)")
        conn.execute("UPDATE public.later_view SET n = 2")
        assert conn.execute("SELECT n FROM public.later_view").fetchone() == (2,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("DROP TABLE public.later_view")


def test_a_rebuilt_generation_belongs_to_the_owner(fresh_archive, fresh_database):
    from projections.runner import rebuild

    report = rebuild(fresh_archive.db, "gameindex")  # as the app role
    with fresh_database.connect() as conn:
        owner = conn.execute(
            "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = %s", (f"gameindex_g{report.generation}_games",)
        ).fetchone()
    assert owner == (OWNER,)
    with fresh_archive.db.connect() as conn, pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState, match="not 99"):
        conn.execute("SELECT public.nemesis_switch_generation('gameindex', 99, ARRAY['tracking', 'games'])")


def test_role_creation_is_safe_when_many_databases_race(pg_server):
    """The migration's DO block, run by several sessions at once, creates each role once and fails none."""
    import importlib.util

    from service.db import PROJECT_ROOT

    spec = importlib.util.spec_from_file_location("roles_migration", PROJECT_ROOT / "alembic" / "versions" / "0005_roles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    suffix = f"race_{os.getpid()}"
    sql = module.CREATE_ROLES.replace(OWNER, f"nemesis_{suffix}_owner").replace(APP, f"nemesis_{suffix}_app")
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def create() -> None:
        try:
            with pg_server.connect() as conn:
                barrier.wait()
                conn.execute(sql)
                conn.execute("SELECT pg_sleep(0.2)")  # hold the uncommitted role so others collide with it
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=create) for _ in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        with pg_server.connect() as conn:
            found = conn.execute("SELECT count(*) FROM pg_roles WHERE rolname LIKE %s", (f"nemesis_{suffix}_%",)).fetchone()
        assert found == (2,)
    finally:
        with pg_server.connect(autocommit=True) as conn:
            conn.execute(f"DROP ROLE IF EXISTS nemesis_{suffix}_owner")
            conn.execute(f"DROP ROLE IF EXISTS nemesis_{suffix}_app")


def test_databases_migrate_side_by_side(pg_server):
    """Separate processes (alembic is not thread-safe) migrating databases of one server at once."""
    import subprocess
    import sys

    from service.db import PROJECT_ROOT, drop_database, ensure_database

    names = [f"nemesis_test_{os.getpid()}_side_{i}" for i in range(3)]
    dbs = [ensure_database(pg_server, n) for n in names]
    try:
        procs = [
            subprocess.Popen([sys.executable, "-m", "web.cli", "--database-url", db.url, "migrate"], cwd=PROJECT_ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for db in dbs
        ]
        outputs = [p.communicate(timeout=120)[0] for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], outputs
        for db in dbs:
            current, head = current_and_head(db)
            assert current == head
            assert history_risk(app_database(db)) is None
    finally:
        for n in names:
            drop_database(pg_server, n)


def test_no_downgrade_drops_the_stored_events(fresh_archive, fresh_database):
    from alembic import command

    game = fresh_archive.games.create_game(HEADER)
    with pytest.raises(RuntimeError, match="refusing to downgrade below 0001: it would drop games_events"):
        command.downgrade(alembic_config(fresh_database), "base")
    with fresh_database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM games_events WHERE originator_id = %s", (game.id,)).fetchone() == (1,)
    upgrade(fresh_database)  # and the way back up works over what the downgrades left
    current, head = current_and_head(fresh_database)
    assert current == head
    fresh_archive.games.record(game.id, [{"type": "BoardPrepared", "data": {"board": "basic"}}])


def test_migrate_through_the_owner_url_and_serve_as_the_app(pg_server, database):  # database: the roles exist
    from click.testing import CliRunner

    from service.db import drop_database, ensure_database
    from web.cli import main as cli

    db = ensure_database(pg_server, f"nemesis_test_{os.getpid()}_owner_url")
    app = app_database(db)
    try:
        refused = CliRunner().invoke(cli, ["--database-url", app.url, "demo"])
        assert refused.exit_code == 1 and "nemesis-archive migrate" in refused.stderr
        done = CliRunner().invoke(cli, ["--database-url", app.url, "migrate", "--owner-url", db.url])
        assert done.exit_code == 0, done.stderr
        assert CliRunner().invoke(cli, ["--database-url", app.url, "demo"]).exit_code == 0
        verified = CliRunner().invoke(cli, ["--database-url", app.url, "verify"]).output
        assert re.search(r"verified (\d+) game\(s\), \d+ events: \1 intact", verified), verified  # demo games + league
    finally:
        drop_database(pg_server, db.name)


def test_a_login_that_does_not_exist_is_a_clear_error(pg_server):
    from click.testing import CliRunner
    from psycopg.conninfo import make_conninfo

    from web.cli import main as cli

    url = make_conninfo(pg_server.url, user="nemesis_nobody")
    result = CliRunner().invoke(cli, ["--database-url", url, "verify"])
    assert result.exit_code == 1 and "cannot open the database" in result.stderr and 'role "nemesis_nobody"' in result.stderr
