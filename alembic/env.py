"""Run migrations on the database the caller names (config attribute ``url``) or DATABASE_URL.

Migrations are plain SQL: the read models are hand-written SQL, so there is no ORM metadata.
Once the owner role exists (migration 0005) every migration runs as it, so what they create
belongs to ``nemesis_owner`` and the app role's default privileges apply (decision 0009).
"""
import os

import psycopg
from alembic import context
from sqlalchemy import create_engine, pool

from service.roles import become_owner

url = context.config.attributes.get("url") or os.environ.get("DATABASE_URL")
if not url:
    raise SystemExit("no database: run `nemesis-archive migrate` (embedded default) or set DATABASE_URL")

engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(url), poolclass=pool.NullPool)
with engine.connect() as connection:
    become_owner(connection)
    connection.commit()
    context.configure(
        connection=connection,
        transaction_per_migration=True,
        on_version_apply=lambda ctx, **_: become_owner(ctx.connection),
    )
    with context.begin_transaction():
        context.run_migrations()
