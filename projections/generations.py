"""Which generation of each view serves readers, and how a new generation is made.

A view's tables are ``{view}_g{N}_{table}``. The active generation serves readers and the
live worker; a rebuild fills generation N+1 beside it, then switches ``read_models.active``
in one transaction and drops generation N (and the events parked by it).
"""
from __future__ import annotations

from psycopg import Connection
from psycopg.rows import tuple_row

VIEW_TABLES = {
    "gameindex": ("games",),
    "gamestate": ("states",),
    "playerresults": ("results", "players"),
    "corridors": ("observations",),
    "league": ("games", "seats", "players", "names", "clubs", "leagues", "seasons", "roles", "placements", "ratings",
               "current", "days", "season_days", "characters"),
    "stats": ("games", "seats", "kills", "rooms"),
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


def _tables(view: str) -> list[str]:
    return ["tracking", *VIEW_TABLES[view]]


def start_building(conn: Connection, view: str) -> int:
    """Create (or resume) the next generation of ``view``; return its number.

    The tables are made by the owner role (migration 0005): the app role runs no DDL itself.
    A fresh generation starts with no parked events; a resumed one keeps those it parked.
    """
    (resuming,) = conn.execute("SELECT building FROM read_models WHERE view = %s", (view,)).fetchone()
    (new,) = conn.execute("SELECT public.nemesis_start_building(%s, %s)", (view, _tables(view))).fetchone()
    if resuming is None:
        conn.execute("DELETE FROM parked_events WHERE view = %s AND generation = %s", (view, new))
    return new


def switch(conn: Connection, view: str, new: int) -> None:
    """Make generation ``new`` the active one and drop the old tables (one transaction)."""
    (active,) = conn.execute("SELECT active FROM read_models WHERE view = %s", (view,)).fetchone()
    conn.execute("SELECT public.nemesis_switch_generation(%s, %s, %s)", (view, new, _tables(view)))
    conn.execute("DELETE FROM parked_events WHERE view = %s AND generation = %s", (view, active))
