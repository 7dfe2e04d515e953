"""Backups: one consistent snapshot of the event store, with every game in notation beside it.

A backup is one tar file (decision 0010)::

    manifest.json       what is inside: counts, versions, times, and the sha256 of every other part
    events.dump         pg_dump -Fc --data-only of the event store tables (the only data not derived)
    games/<id>.jsonl    every game in notation as of the same snapshot: a copy a person can read

The read models are not in it: they are derived, and a restore rebuilds them. pg_dump runs
inside the snapshot of a REPEATABLE READ transaction (``pg_export_snapshot``), and the
notation and the counts are read in that same transaction, so all three show one moment.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version as package_version
from pathlib import Path
from typing import Any, Callable
from uuid import UUID

import psycopg
from eventsourcing.utils import get_topic
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service import notation
from service.archive import Games
from service.db import Database
from service.game import Game
from service.pgtools import PgTool, pg_dump_for, pg_restore_for, server_version

FORMAT = "nemesis-archive-backup"
VERSION = 1
MANIFEST = "manifest.json"
DUMP = "events.dump"
# The event store: every other table is derived from it (read models) or made by alembic...
EVENT_STORE_TABLES = ("games_events", "games_snapshots")
# ...except these one-row facts about it, kept in the manifest and put back by restore.
# the worker's own state: restore rebuilds every view, which parks again what it cannot project and
# beats again while it runs, so neither is backed up
# and the accounts (decision 0024): password hashes, sessions and token hashes are secrets a backup file
# should not carry; after a restore the operator makes the accounts again (roles are facts: they come back)
# and the replay snapshots (decision 0031) and fold snapshots (decision 0032): caches of folded states, written
# again by the next fold or rebuild
OPERATIONAL_TABLES = ("parked_events", "projection_heartbeats", "accounts", "account_sessions", "api_tokens",
                      "replay_snapshots", "fold_snapshots")
KEPT_IN_MANIFEST = ("hash_chain_start",)  # the last event stored before hash chains began (0005)
MEMBER_RE = re.compile(r"^(manifest\.json|events\.dump|games/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl)$")

Say = Callable[[str], None]
Progress = Callable[[int, int], None]


class BackupError(RuntimeError):
    """A backup or restore that cannot go on; the message says why and what to do."""


@dataclass
class Snapshot:
    """What the snapshot saw: the numbers a restore must find again."""

    events: int
    snapshots: int
    aggregates: int
    max_notification_id: int
    games: dict[str, int]  # game id -> its version (number of events)
    hash_chain_start: int | None = None  # None: the schema predates hash chains

    def as_dict(self) -> dict[str, Any]:
        return {
            "events": self.events,
            "snapshots": self.snapshots,
            "aggregates": self.aggregates,
            "max_notification_id": self.max_notification_id,
            "hash_chain_start": self.hash_chain_start,
        }


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _libpq(db: Database) -> tuple[str, dict[str, str]]:
    """A connection string without the password, and the environment that carries it (not argv)."""
    params = conninfo_to_dict(db.url)
    env = dict(os.environ)
    password = params.pop("password", None)
    if password:
        env["PGPASSWORD"] = str(password)
    return make_conninfo(**params), env


def _run(tool: PgTool, args: list[str], db: Database, what: str) -> None:
    conninfo, env = _libpq(db)
    done = subprocess.run([str(tool.path), *args, "--dbname", conninfo], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise BackupError(f"{what} failed ({tool}, exit {done.returncode}):\n{done.stderr.strip()}")


def _app_version() -> str:
    try:
        return package_version("nemesis-archive")
    except PackageNotFoundError:
        return "unknown"


def _read_snapshot(conn: psycopg.Connection) -> Snapshot:
    events, aggregates, max_id = conn.execute(
        "SELECT count(*), count(DISTINCT originator_id), coalesce(max(notification_id), 0) FROM games_events"
    ).fetchone()
    (snapshots,) = conn.execute("SELECT count(*) FROM games_snapshots").fetchone()
    games = conn.execute(
        "SELECT e.originator_id, max(e.originator_version) FROM games_events e"
        " WHERE e.originator_id IN (SELECT originator_id FROM games_events WHERE originator_version = 1 AND topic = %s)"
        " GROUP BY e.originator_id ORDER BY e.originator_id",
        (get_topic(Game.Created),),
    ).fetchall()
    chain_start = None
    if conn.execute("SELECT to_regclass('public.hash_chain_start') IS NOT NULL").fetchone()[0]:
        row = conn.execute("SELECT max(last_unchained) FROM hash_chain_start").fetchone()
        chain_start = row[0] if row else None
    return Snapshot(events, snapshots, aggregates, max_id, {str(gid): v for gid, v in games}, chain_start)


def schema_revision(conn: psycopg.Connection) -> str | None:
    exists = conn.execute("SELECT to_regclass('public.alembic_version') IS NOT NULL").fetchone()[0]
    if not exists:
        return None
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return row[0] if row else None


def create_backup(db: Database, path: Path, say: Say = lambda s: None, progress: Progress | None = None) -> dict[str, Any]:
    """Write a backup of ``db`` to ``path`` (a new file); return its manifest.

    The file appears only when complete (written beside it, then renamed); an existing file
    is never overwritten.
    """
    path = Path(path)
    if path.exists():
        raise BackupError(f"{path} already exists: a backup never overwrites a file; choose another name")
    if not path.parent.is_dir():
        raise BackupError(f"{path.parent} is not a folder: the backup cannot be written there")
    pg_dump, server_major, server_version = pg_dump_for(db)
    work = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
    try:
        with db.connect() as conn:
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            conn.read_only = True
            with conn.transaction():
                revision = schema_revision(conn)
                if revision is None:
                    raise BackupError(f"database {db.name!r} holds no Nemesis Archive (no schema revision): nothing to back up")
                (snapshot_id,) = conn.execute("SELECT pg_export_snapshot()").fetchone()
                taken_at = datetime.now(timezone.utc)
                say(f"dumping the event store with {pg_dump}")
                _run(
                    pg_dump,
                    ["--format=custom", "--data-only", "--no-owner", "--no-privileges", f"--snapshot={snapshot_id}",
                     *(f"--table=public.{t}" for t in EVENT_STORE_TABLES), f"--file={work / DUMP}"],
                    db,
                    "pg_dump",
                )
                snapshot = _read_snapshot(conn)
                games = _export_games(db, snapshot, work, say, progress)
        files = {}
        for member in [DUMP] + [g["file"] for g in games]:
            f = work / member
            files[member] = {"sha256": _sha256(f), "bytes": f.stat().st_size}
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "created_at": taken_at.isoformat(timespec="seconds"),
            "nemesis_archive": _app_version(),
            "schema_revision": revision,
            "server": {"postgresql": server_version, "major": server_major, "embedded": db.embedded},
            "pg_dump": {"version": pg_dump.version, "major": pg_dump.major},
            "tables": list(EVENT_STORE_TABLES),
            "snapshot": snapshot.as_dict(),
            "notation": {"format": notation.FORMAT, "version": notation.VERSION},
            "games": games,
            "files": files,
        }
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        say(f"writing {path}")
        partial = path.with_name(path.name + ".partial")
        with tarfile.open(partial, "w", format=tarfile.PAX_FORMAT) as tar:
            for member in [MANIFEST, DUMP] + [g["file"] for g in games]:
                tar.add(work / member, arcname=member, recursive=False)
        with open(partial, "rb") as f:
            os.fsync(f.fileno())
        os.replace(partial, path)
        return manifest
    finally:
        shutil.rmtree(work, ignore_errors=True)
        path.with_name(path.name + ".partial").unlink(missing_ok=True)


def _export_games(db: Database, snapshot: Snapshot, work: Path, say: Say, progress: Progress | None) -> list[dict]:
    """Each game in notation at the version the snapshot saw (stored events never change)."""
    (work / "games").mkdir()
    say(f"writing {len(snapshot.games)} game(s) in notation")
    games = Games(env=db.eventsourcing_env())
    out = []
    try:
        for done, (gid, version) in enumerate(snapshot.games.items(), start=1):
            try:
                text = notation.write_game(games.get_game(UUID(gid), version=version))
            except Exception as e:  # noqa: BLE001 - name the game; the backup is not written
                raise BackupError(f"game {gid} (version {version}) cannot be written in notation: {e}") from e
            name = f"games/{gid}.jsonl"
            (work / name).write_text(text, encoding="utf-8")
            out.append({"game": gid, "events": version, "facts": text.count("\n") - 1, "file": name})
            if progress:
                progress(done, len(snapshot.games))
    finally:
        games.close()
    return out


# --- restore -------------------------------------------------------------------------------


def read_backup(path: Path, work: Path) -> dict[str, Any]:
    """Unpack ``path`` into ``work`` and check it whole (sha256 of every part); return the manifest."""
    path = Path(path)
    try:
        tar = tarfile.open(path, "r:*")
    except (OSError, tarfile.TarError) as e:
        raise BackupError(f"{path} is not a readable backup ({e}); nothing was restored") from None
    hashes: dict[str, str] = {}
    with tar:
        try:
            for member in tar:
                if not member.isfile() or not MEMBER_RE.match(member.name) or member.name in hashes:
                    raise BackupError(f"{path}: unexpected entry {member.name!r} (not written by nemesis-archive backup); nothing was restored")
                target = work / member.name
                target.parent.mkdir(parents=True, exist_ok=True)
                h = hashlib.sha256()
                with tar.extractfile(member) as src, open(target, "wb") as dst:
                    for chunk in iter(lambda: src.read(1 << 20), b""):
                        h.update(chunk)
                        dst.write(chunk)
                hashes[member.name] = h.hexdigest()
        except (OSError, tarfile.TarError, EOFError) as e:
            raise BackupError(f"{path} is damaged or cut short ({e}); nothing was restored") from None
    if MANIFEST not in hashes:
        raise BackupError(f"{path} has no {MANIFEST}: not a nemesis-archive backup; nothing was restored")
    try:
        manifest = json.loads((work / MANIFEST).read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise BackupError(f"{path}: {MANIFEST} is damaged ({e}); nothing was restored") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{path}: {MANIFEST} is not a nemesis-archive backup manifest; nothing was restored")
    if not isinstance(manifest.get("version"), int) or manifest["version"] > VERSION:
        raise BackupError(f"{path} is backup format version {manifest.get('version')!r}; this build reads 1..{VERSION}: "
                          "restore it with a newer nemesis-archive")
    try:  # every field restore and verify read, so a damaged manifest is named here and nowhere later
        files = {str(name): {"sha256": str(meta["sha256"])} for name, meta in manifest["files"].items()}
        game_files = {str(g["file"]) for g in manifest["games"] if str(g["game"]) and int(g["events"]) >= 0}
        str(manifest["schema_revision"]), int(manifest["pg_dump"]["major"]), int(manifest["server"]["major"])
        [int(manifest["snapshot"][k]) for k in ("events", "snapshots", "aggregates", "max_notification_id")]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise BackupError(f"{path}: {MANIFEST} is damaged (missing or wrong field {e}); nothing was restored") from None
    for name, meta in sorted(files.items()):
        if name not in hashes:
            raise BackupError(f"{path} is incomplete: {name} is missing; nothing was restored")
        if hashes[name] != meta.get("sha256"):
            raise BackupError(
                f"{path} is damaged: {name} has sha256 {hashes[name]}, but the manifest says {meta.get('sha256')}; "
                "nothing was restored (use another copy of the backup)"
            )
    extra = sorted(set(hashes) - set(files) - {MANIFEST})
    if extra or DUMP not in files or game_files != set(files) - {DUMP}:
        raise BackupError(f"{path}: its parts and its manifest disagree ({', '.join(extra) or 'game list'}); nothing was restored")
    return manifest


def non_empty(db: Database) -> list[str]:
    """Tables, views and sequences of ``db`` outside PostgreSQL's own schemas (and extensions)."""
    with db.connect() as conn:
        rows = conn.execute(
            "SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')"
            " AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'"
            " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass"
            "                 AND d.objid = c.oid AND d.deptype = 'e')"
            " ORDER BY 1"
        ).fetchall()
    return [r[0] for r in rows]


def check_empty(db: Database) -> None:
    found = non_empty(db)
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise BackupError(
            f"database {db.name!r} is not empty (it has {shown}); restore only goes into an empty database, "
            "so nothing was changed. Restore into a new one: with the embedded server, a new --data-dir "
            "(or move the current data folder aside); with a server, `createdb NEW` and DATABASE_URL=.../NEW."
        )


def load(db: Database, work: Path, manifest: dict[str, Any], say: Say = lambda s: None) -> PgTool:
    """Schema at the backup's revision, the events into it (one transaction), then the schema to head."""
    from alembic.util import CommandError

    from service.schema import alembic_config, upgrade

    revision = manifest["schema_revision"]
    try:
        from alembic.script import ScriptDirectory

        ScriptDirectory.from_config(alembic_config(db)).get_revision(revision)
    except CommandError:
        raise BackupError(
            f"the backup's schema revision {revision!r} is unknown to this build: it was made by a newer "
            f"nemesis-archive ({manifest.get('nemesis_archive')}); restore it with that version or newer"
        ) from None
    archive_major = manifest["pg_dump"]["major"]
    server_major, _ = server_version(db)
    if server_major < archive_major:  # pg_restore emits settings an older server does not know
        raise BackupError(
            f"the backup was dumped by pg_dump {manifest['pg_dump']['version']} (PostgreSQL {manifest['server']['major']}) "
            f"and database {db.name!r} runs PostgreSQL {server_major}: PostgreSQL restores dumps only into its own "
            f"major or a newer one, so nothing was changed. Restore into PostgreSQL {archive_major} or newer, or import "
            "the backup's notation copy instead: tar xf BACKUP games && nemesis-archive import games/*.jsonl"
        )
    pg_restore, _ = pg_restore_for(db, archive_major)
    listed = subprocess.run([str(pg_restore.path), "--list", str(work / DUMP)], capture_output=True, text=True)
    if listed.returncode != 0:  # read the archive before anything is created
        raise BackupError(f"{pg_restore} cannot read {DUMP}: {listed.stderr.strip()}; nothing was changed")
    say(f"creating the schema at the backup's revision {revision}")
    upgrade(db, revision)
    events = manifest["snapshot"]["events"]
    say(f"loading {events:,} event(s) with {pg_restore}")
    with db.connect() as conn:  # insert as the schema's owner role where there is one (decision 0009)
        as_owner = conn.execute(
            "SELECT pg_has_role(current_user, oid, 'MEMBER') FROM pg_roles WHERE rolname = 'nemesis_owner'"
        ).fetchone()
    try:
        _run(pg_restore, ["--data-only", "--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges",
                          *(["--role=nemesis_owner"] if as_owner and as_owner[0] else []), str(work / DUMP)],
             db, "pg_restore")
    except BackupError as e:
        raise BackupError(
            f"{e}\nNothing of the events was loaded (one transaction), but database {db.name!r} now holds the empty "
            "schema: drop and create it again (or use a new --data-dir) before trying again."
        ) from None
    _put_back_chain_start(db, manifest["snapshot"].get("hash_chain_start"))
    say("migrating the schema to this build's head")
    upgrade(db)
    return pg_restore


def _put_back_chain_start(db: Database, value: int | None) -> None:
    """Migration 0005 dated the start of hash chains at this (empty) database's creation; the
    backup knows the archive's real one. Set it back, in the database this restore just made;
    the row is immutable otherwise, so its trigger is off for this one transaction only."""
    with db.connect() as conn:
        if value is None or not conn.execute("SELECT to_regclass('public.hash_chain_start') IS NOT NULL").fetchone()[0]:
            return  # a backup from before hash chains: migrating to head dates them as it would have live
        member = conn.execute(
            "SELECT pg_has_role(current_user, oid, 'MEMBER') FROM pg_roles WHERE rolname = 'nemesis_owner'"
        ).fetchone()
        if member and member[0]:
            conn.execute("SET LOCAL ROLE nemesis_owner")
        conn.execute("ALTER TABLE public.hash_chain_start DISABLE TRIGGER hash_chain_start_immutable")
        conn.execute("UPDATE public.hash_chain_start SET last_unchained = %s", (value,))
        conn.execute("ALTER TABLE public.hash_chain_start ENABLE TRIGGER hash_chain_start_immutable")


def verify(db: Database, manifest: dict[str, Any]) -> Snapshot:
    """The restored event store holds what the manifest counted, game by game."""
    with db.connect() as conn:
        found = _read_snapshot(conn)
    expected = manifest["snapshot"]
    problems = [
        f"{key}: {getattr(found, key)} restored, {expected[key]} in the backup"
        for key in ("events", "snapshots", "aggregates", "max_notification_id", "hash_chain_start")
        if key in expected and getattr(found, key) != expected[key]
    ]
    want = {g["game"]: g["events"] for g in manifest["games"]}
    for gid in sorted(set(want) | set(found.games)):
        if want.get(gid) != found.games.get(gid):
            problems.append(f"game {gid}: {found.games.get(gid)} event(s) restored, {want.get(gid)} in the backup")
    if problems:
        raise BackupError(f"the restored database {db.name!r} does not match the backup: " + "; ".join(problems[:10]))
    return found
