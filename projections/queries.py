"""Reading the views (never the event store): what the web pages and the API list."""
from __future__ import annotations

from datetime import date
from typing import Any

from psycopg import sql
from psycopg.rows import tuple_row

from projections.generations import active_prefix
from service.readpool import reading
from service.db import Database


def _t(conn, view: str, table: str) -> sql.Identifier:
    return sql.Identifier(f"{active_prefix(conn, view)}_{table}")


SEARCH_BY_NAMES = 0.01  # names found hold at most this share of all seats: fetch their games by name, else walk the list


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def list_games(
    db: Database,
    player: str | None = None,
    played_from: date | None = None,
    played_to: date | None = None,
    ruleset: str | None = None,
    limit: int = 50,
    offset: int = 0,
    exclude: list | None = None,
) -> list[dict[str, Any]]:
    """Games newest first; ``player`` matches any part of any player's name, case-insensitively.

    A name search first finds the names that match in the per-player table (one row per name,
    kept by the ``playerresults`` view), with how many games each played. Few (at most the share
    ``SEARCH_BY_NAMES`` of all seats): those games are fetched by name through the seats' index.
    More: the list is walked newest first through its index, keeping the games whose names match,
    which fills a page after about 1/share rows because matches are then that dense. Either way no query reads every game
    (decision 0026; PostgreSQL's pg_trgm would do it in one index, but the embedded server
    ships without it). ``exclude``: game ids left out (a members-only league's, for those outside
    it: decision 0024).
    """
    where, args = [], []
    if exclude:
        where.append("NOT (g.game_id = ANY(%s))")
        args.append(list(exclude))
    if played_from:
        where.append("g.played_on >= %s")
        args.append(played_from)
    if played_to:
        where.append("g.played_on <= %s")
        args.append(played_to)
    if ruleset:
        where.append("g.ruleset = %s")
        args.append(ruleset)
    with reading(db) as conn:
        games = _t(conn, "gameindex", "games")
        if player:
            pattern = _like(player.casefold())
            found = conn.execute(sql.SQL(
                "SELECT player_key, played, (SELECT sum(played) FROM {p}) AS seats FROM {p} WHERE player_key LIKE %s").format(
                p=_t(conn, "playerresults", "players")), (pattern,)).fetchall()
            if not found:
                return []
            if sum(r["played"] for r in found) <= SEARCH_BY_NAMES * found[0]["seats"]:
                where.append(sql.SQL("g.game_id IN (SELECT r.game_id FROM {} r WHERE r.player_key = ANY(%s))").format(
                    _t(conn, "playerresults", "results")).as_string(conn))
                args.append([r["player_key"] for r in found])
            else:
                where.append("g.player_search LIKE %s")
                args.append(pattern)
        query = sql.SQL(
            "SELECT g.game_id, g.ruleset, g.mode, g.title, g.league, g.tags, g.played_on, g.players, g.strict,"
            " g.status, g.round, g.facts, g.created_at, g.updated_at FROM {games} g {where}"
            " ORDER BY g.played_on DESC NULLS LAST, g.created_at DESC LIMIT %s OFFSET %s"
        ).format(
            games=games,
            where=sql.SQL("WHERE " + " AND ".join(where) if where else ""),
        )
        return conn.execute(query, [*args, limit, offset]).fetchall()


def game_state(db: Database, game_id) -> dict[str, Any] | None:
    with reading(db) as conn:
        return conn.execute(
            sql.SQL("SELECT * FROM {} WHERE game_id = %s").format(_t(conn, "gamestate", "states")), (game_id,)
        ).fetchone()


def player_table(db: Database, player: str | None = None, exclude: list | None = None) -> list[dict[str, Any]]:
    """Per player across games: played, finished, won, lost, undetermined, incomplete.

    A game whose record is incomplete (a coarse record that stops before the end, decision 0018)
    counts as played and as ``incomplete``, never as finished, won, lost or undetermined: its
    known deaths and escapes stay in its own result, but a win rate counts complete games only.
    Read from the per-player table the ``playerresults`` view keeps (decision 0026).

    ``exclude``: game ids whose seats must not count (a members-only league's, for those outside it:
    decision 0033). Their share is taken off the kept counts (the same share the view adds per seat),
    and a player left with no game is not listed, so neither a count nor a name from them shows.
    """
    with reading(db) as conn:
        players = _t(conn, "playerresults", "players")
        one = sql.SQL("WHERE p.player_key = %s" if player else "")
        args: list[Any] = [player.casefold()] if player else []
        if not exclude:
            query = sql.SQL(
                "SELECT p.player, p.player_key, p.played, p.finished, p.won, p.lost, p.undetermined, p.incomplete"
                " FROM {} p {} ORDER BY p.won DESC, p.played DESC, p.player_key").format(players, one)
            return conn.execute(query, args).fetchall()
        query = sql.SQL(
            "SELECT * FROM (SELECT p.player, p.player_key, p.played - coalesce(h.played, 0) AS played,"
            " p.finished - coalesce(h.finished, 0) AS finished, p.won - coalesce(h.won, 0) AS won,"
            " p.lost - coalesce(h.lost, 0) AS lost, p.undetermined - coalesce(h.undetermined, 0) AS undetermined,"
            " p.incomplete - coalesce(h.incomplete, 0) AS incomplete FROM {players} p LEFT JOIN ("
            "  SELECT r.player_key, count(*) AS played,"
            "  count(*) FILTER (WHERE r.finished AND NOT r.incomplete) AS finished,"
            "  count(*) FILTER (WHERE r.outcome = 'won' AND NOT r.incomplete) AS won,"
            "  count(*) FILTER (WHERE r.outcome = 'lost' AND NOT r.incomplete) AS lost,"
            "  count(*) FILTER (WHERE r.finished AND NOT r.incomplete AND r.outcome = 'undetermined') AS undetermined,"
            "  count(*) FILTER (WHERE r.incomplete) AS incomplete"
            "  FROM {results} r WHERE r.game_id = ANY(%s) GROUP BY r.player_key) h ON h.player_key = p.player_key {one}"
            ") x WHERE x.played > 0 ORDER BY x.won DESC, x.played DESC, x.player_key"
        ).format(players=players, results=_t(conn, "playerresults", "results"), one=one)
        return conn.execute(query, [list(exclude), *args]).fetchall()


def tracking_positions(db: Database) -> dict[str, int]:
    """How far each active view has read (``Games`` notification id)."""
    out = {}
    with reading(db, row_factory=tuple_row) as conn:
        for (view,) in conn.execute("SELECT view FROM read_models ORDER BY view").fetchall():
            row = conn.execute(
                sql.SQL("SELECT notification_id FROM {} WHERE application_name = 'Games'").format(
                    _t(conn, view, "tracking")
                )
            ).fetchone()
            out[view] = row[0] if row else 0
    return out


def _corridor_value(text: str):
    return int(text) if text.isdigit() else text


def corridor_proposals(db: Database, board: str, exclude: list | None = None) -> dict[str, Any]:
    """Corridors of ``board`` learned from recorded moves, across games, with their conflicts.

    A proposal is "from place A the figure entered place B through corridor n" (n as printed at
    B, or "path"), with how many games and moves say so. A conflict is flagged when B's corridor n
    was entered from different places: with one corridor per number and room, at most one is
    right (unless that corridor forks on the physical board). Corridor numbers belong to the room
    entered, so "from A through n" leading to different rooms is no conflict. Paths are unnumbered
    and never conflict. ``exclude``: game ids whose moves must not count (decision 0033).
    """
    with reading(db) as conn:
        rows = conn.execute(
            sql.SQL(
                "SELECT from_place, to_place, corridor, count(DISTINCT game_id) AS games, sum(moves)::int AS moves,"
                " sum(character_moves)::int AS character_moves, sum(intruder_moves)::int AS intruder_moves,"
                " min(first_seen) AS first_seen, max(last_seen) AS last_seen"
                " FROM {} WHERE board = %s AND NOT (game_id = ANY(%s)) GROUP BY from_place, to_place, corridor"
                " ORDER BY from_place, corridor, moves DESC, to_place"
            ).format(_t(conn, "corridors", "observations")),
            (board, list(exclude or [])),
        ).fetchall()
    proposals = []
    for r in rows:
        proposals.append({
            "from_place": r["from_place"],
            "to_place": r["to_place"],
            "corridor": _corridor_value(r["corridor"]),
            "games": r["games"],
            "moves": r["moves"],
            "character_moves": r["character_moves"],
            "intruder_moves": r["intruder_moves"],
            "first_seen": r["first_seen"].isoformat() if r["first_seen"] else None,
            "last_seen": r["last_seen"].isoformat() if r["last_seen"] else None,
            "conflict": False,
        })
    conflicts = []
    groups: dict[tuple, list[dict]] = {}
    for p in proposals:
        if p["corridor"] != "path":
            groups.setdefault((p["to_place"], p["corridor"]), []).append(p)
    for (place, corridor), group in sorted(groups.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        if len({p["from_place"] for p in group}) > 1:
            for p in group:
                p["conflict"] = True
            conflicts.append({
                "kind": "same_to",
                "place": place,
                "corridor": corridor,
                "entered_from": [
                    {"place": p["from_place"], "games": p["games"], "moves": p["moves"]}
                    for p in sorted(group, key=lambda p: (-p["moves"], p["from_place"]))
                ],
            })
    return {"board": board, "proposals": proposals, "conflicts": conflicts}
