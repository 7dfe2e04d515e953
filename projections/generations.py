"""Which generation of each view serves readers, and how a new generation is made.

A view's tables are ``{view}_g{N}_{table}``. The active generation serves readers and the
live worker; a rebuild fills generation N+1 beside it, then switches ``read_models.active``
in one transaction and drops generation N (and the events parked by it).
"""
from __future__ import annotations

from psycopg import Connection, sql
from psycopg.rows import tuple_row

VIEW_TABLES = {
    "gameindex": ("games",),
    "gamestate": ("states",),
    "playerresults": ("results",),
    "corridors": ("observations",),
}


def prefix(view: str, generation: int) -> str:
    return f"{view}_g{generation}"


def generations(conn: Connection) -> dict[str, tuple[int, int | None]]:
    """``{view: (active, building)}``."""
    rows = conn.execute("SELECT view, active, building FROM read_models").fetchall()
    return {view: (active, building) for view, active, building in rows}


def active_prefix(conn: Connection, view: str) -> str:
    row = conn.cursor(row_factory=tuple_row).execute("SELECT active FROM read_models WHERE view = %s", (view,)).fetchone()
    if row is None:
        raise LookupError(f"unknown view {view!r}; known: {', '.join(VIEW_TABLES)}")
    return prefix(view, row[0])


def start_building(conn: Connection, view: str) -> int:
    """Create (or resume) the next generation of ``view``; return its number."""
    active, building = conn.execute(
        "SELECT active, building FROM read_models WHERE view = %s FOR UPDATE", (view,)
    ).fetchone()
    if building is not None:
        return building  # an interrupted rebuild resumes where its tracking says
    new = active + 1
    old_p, new_p = prefix(view, active), prefix(view, new)
    for table in ("tracking",) + VIEW_TABLES[view]:
        conn.execute(
            sql.SQL("DROP TABLE IF EXISTS {new}; CREATE TABLE {new} (LIKE {old} INCLUDING ALL)").format(
                new=sql.Identifier(f"{new_p}_{table}"), old=sql.Identifier(f"{old_p}_{table}")
            )
        )
    conn.execute(
        sql.SQL("INSERT INTO {} VALUES ('__migration__', 1)").format(sql.Identifier(f"{new_p}_tracking"))
    )
    conn.execute("DELETE FROM parked_events WHERE view = %s AND generation = %s", (view, new))
    conn.execute(
        "UPDATE read_models SET building = %s, building_started = now() WHERE view = %s", (new, view)
    )
    return new


def switch(conn: Connection, view: str, new: int) -> None:
    """Make generation ``new`` the active one and drop the old tables (one transaction)."""
    (active,) = conn.execute("SELECT active FROM read_models WHERE view = %s FOR UPDATE", (view,)).fetchone()
    conn.execute(
        "UPDATE read_models SET active = %s, building = NULL, building_started = NULL, rebuilt_at = now()"
        " WHERE view = %s",
        (new, view),
    )
    for table in ("tracking",) + VIEW_TABLES[view]:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(f"{prefix(view, active)}_{table}")))
    conn.execute("DELETE FROM parked_events WHERE view = %s AND generation = %s", (view, active))
