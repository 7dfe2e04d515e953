"""Reading the views (never the event store): what the web pages and the API list."""
from __future__ import annotations

from datetime import date
from typing import Any

from psycopg import sql
from psycopg.rows import dict_row

from projections.generations import active_prefix
from service.db import Database


def _t(conn, view: str, table: str) -> sql.Identifier:
    return sql.Identifier(f"{active_prefix(conn, view)}_{table}")


def list_games(
    db: Database,
    player: str | None = None,
    played_from: date | None = None,
    played_to: date | None = None,
    ruleset: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> list[dict[str, Any]]:
    """Games newest first; ``player`` matches any part of any player's name, case-insensitively."""
    where, args = [], []
    if player:
        where.append("g.player_search LIKE %s")
        args.append("%" + player.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    if played_from:
        where.append("g.played_on >= %s")
        args.append(played_from)
    if played_to:
        where.append("g.played_on <= %s")
        args.append(played_to)
    if ruleset:
        where.append("g.ruleset = %s")
        args.append(ruleset)
    with db.connect(row_factory=dict_row) as conn:
        query = sql.SQL(
            "SELECT g.game_id, g.ruleset, g.mode, g.title, g.league, g.tags, g.played_on, g.players, g.strict,"
            " g.status, g.round, g.facts, g.created_at, g.updated_at FROM {games} g {where}"
            " ORDER BY g.played_on DESC NULLS LAST, g.created_at DESC LIMIT %s OFFSET %s"
        ).format(
            games=_t(conn, "gameindex", "games"),
            where=sql.SQL("WHERE " + " AND ".join(where) if where else ""),
        )
        return conn.execute(query, [*args, limit, offset]).fetchall()


def game_state(db: Database, game_id) -> dict[str, Any] | None:
    with db.connect(row_factory=dict_row) as conn:
        return conn.execute(
            sql.SQL("SELECT * FROM {} WHERE game_id = %s").format(_t(conn, "gamestate", "states")), (game_id,)
        ).fetchone()


def player_table(db: Database, player: str | None = None) -> list[dict[str, Any]]:
    """Per player across games: played, finished, won, lost, undetermined."""
    with db.connect(row_factory=dict_row) as conn:
        query = sql.SQL(
            "SELECT min(player) AS player, player_key, count(*) AS played,"
            " count(*) FILTER (WHERE finished) AS finished,"
            " count(*) FILTER (WHERE outcome = 'won') AS won,"
            " count(*) FILTER (WHERE outcome = 'lost') AS lost,"
            " count(*) FILTER (WHERE finished AND outcome = 'undetermined') AS undetermined"
            " FROM {} {} GROUP BY player_key ORDER BY won DESC, played DESC, player_key"
        ).format(
            _t(conn, "playerresults", "results"), sql.SQL("WHERE player_key = %s" if player else "")
        )
        return conn.execute(query, [player.casefold()] if player else []).fetchall()


def tracking_positions(db: Database) -> dict[str, int]:
    """How far each active view has read (``Games`` notification id)."""
    out = {}
    with db.connect() as conn:
        for (view,) in conn.execute("SELECT view FROM read_models ORDER BY view").fetchall():
            row = conn.execute(
                sql.SQL("SELECT notification_id FROM {} WHERE application_name = 'Games'").format(
                    _t(conn, view, "tracking")
                )
            ).fetchone()
            out[view] = row[0] if row else 0
    return out
