"""Run migrations on the database the caller names (config attribute ``url``) or DATABASE_URL.

Migrations are plain SQL: the read models are hand-written SQL, so there is no ORM metadata.
"""
import os

import psycopg
from alembic import context
from sqlalchemy import create_engine, pool

url = context.config.attributes.get("url") or os.environ.get("DATABASE_URL")
if not url:
    raise SystemExit("no database: run `nemesis-archive migrate` (embedded default) or set DATABASE_URL")

engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(url), poolclass=pool.NullPool)
with engine.connect() as connection:
    context.configure(connection=connection, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()
