"""Who may do what in the database (decision 0009).

``nemesis_owner`` owns the schema and is who migrations run as; ``nemesis_app`` is who the
service logs in as and may only append events (migration 0005 grants exactly that).
"""
from __future__ import annotations

from psycopg.conninfo import make_conninfo

from service.db import Database

OWNER = "nemesis_owner"
APP = "nemesis_app"


def app_database(db: Database) -> Database:
    """The same database, logged in as the app role (the embedded server trusts its socket)."""
    return Database(make_conninfo(db.url, user=APP, password=""), db.embedded)


def become_owner(connection) -> bool:
    """Make the rest of a migration session run as the owner role, when it exists and we may.

    ``connection`` is alembic's SQLAlchemy connection. Objects later migrations create are
    then the owner's, so the default privileges of migration 0005 reach the app role.
    """
    state = connection.exec_driver_sql(
        f"SELECT current_user = '{OWNER}', r.oid IS NOT NULL AND pg_has_role(session_user, r.oid, 'MEMBER'),"
        f" r.oid IS NOT NULL AND has_schema_privilege(r.oid, 'public', 'CREATE')"
        f" FROM (SELECT 1) one LEFT JOIN pg_roles r ON r.rolname = '{OWNER}'"
    ).fetchone()
    already, may, can_create = state
    if already or not may:
        return bool(already)
    if not can_create:
        # a new database of a server whose roles exist: let the owner create in it
        connection.exec_driver_sql(f"GRANT USAGE, CREATE ON SCHEMA public TO {OWNER}")
    connection.exec_driver_sql(f"SET ROLE {OWNER}")
    return True


def history_risk(db: Database) -> str | None:
    """Why this connection could change stored events, or None when it can only append."""
    with db.connect() as conn:
        row = conn.execute(
            "SELECT current_user, r.rolsuper, pg_has_role(c.relowner, 'USAGE'),"
            " has_table_privilege(c.oid, 'UPDATE') OR has_table_privilege(c.oid, 'DELETE')"
            " OR has_table_privilege(c.oid, 'TRUNCATE')"
            " FROM pg_roles r, pg_class c WHERE r.rolname = current_user AND c.oid = 'public.games_events'::regclass"
        ).fetchone()
    user, superuser, owner, edit = row
    if superuser:
        return f"connected as {user}, a superuser"
    if owner:
        return f"connected as {user}, which owns the events table"
    if edit:
        return f"connected as {user}, which may UPDATE, DELETE or TRUNCATE stored events"
    return None
