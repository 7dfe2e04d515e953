"""Bringing a database to the schema this code needs (alembic), and checking it is there."""
from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, pool

from service.db import PROJECT_ROOT, Database


class SchemaOutOfDate(RuntimeError):
    pass


def alembic_config(db: Database) -> Config:
    cfg = Config(str(PROJECT_ROOT / "alembic.ini"))
    cfg.attributes["url"] = db.url
    return cfg


def upgrade(db: Database, revision: str = "head") -> None:
    command.upgrade(alembic_config(db), revision)


def current_and_head(db: Database) -> tuple[str | None, str]:
    head = ScriptDirectory.from_config(alembic_config(db)).get_current_head()
    engine = create_engine("postgresql+psycopg://", creator=lambda: db.connect(), poolclass=pool.NullPool)
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    engine.dispose()
    return current, head


def ensure_schema(db: Database, migrate: bool) -> None:
    """Migrate (embedded default) or refuse with the command to run."""
    current, head = current_and_head(db)
    if current == head:
        return
    if migrate:
        upgrade(db)
        return
    raise SchemaOutOfDate(
        f"the database schema is at {current or 'nothing (empty database)'} but this code needs {head}: "
        "run `nemesis-archive migrate` (with the same DATABASE_URL) first"
    )
