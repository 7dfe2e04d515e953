"""Reading the "stats" view: statistics of the finished games, overall or in a league or season.

The character, deaths and escapes sections sum the league view's kept counts (per season, mode, player count,
kind and key; decision 0035). Every other table is one aggregate over the view's per-seat (or per-kill,
per-room, per-game) rows, filtered by mode and player count (columns of those rows) and by league or
season (the league view's games, joined by id). Games hidden from their league (a test game, a
duplicate) never count. Ties are ordered by key in code-point order (``COLLATE "C"``, as Python sorts the kept
counts), whatever collation the database was created with.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg import sql
from psycopg.rows import dict_row

from projections.generations import active_prefix
from projections.league import Resolver, implicit_player
from projections.league_queries import NotFound, season as find_season
from service.readpool import reading
from service.db import Database
from service.ratings import ordinal

MODES = ("standard", "coop", "solo")
SECTIONS = {
    "characters": ("characters", "objectives", "plans"),
    "deaths": ("death_causes", "rounds_survived", "first_death", "power_lost", "blackout"),
    "escapes": ("routes",),
    "combat": ("kills", "weapons"),
    "rooms": ("rooms",),
}


@dataclass(frozen=True)
class Scope:
    """Which games count: a league (club and league slugs) or everything; a season of it; mode; players.

    ``exclude``: games that must not count for this reader (a members-only league's: decision 0033)."""

    club: str | None = None
    league: str | None = None
    season: str | None = None
    mode: str | None = None
    players: int | None = None
    exclude: tuple[UUID, ...] = ()


class _T:
    def __init__(self, conn) -> None:
        self.stats = active_prefix(conn, "stats")
        self.league = active_prefix(conn, "league")

    def __call__(self, name: str) -> sql.Identifier:
        return sql.Identifier(f"{self.stats}_{name}")

    def lg(self, name: str) -> sql.Identifier:
        return sql.Identifier(f"{self.league}_{name}")


def _find_league(conn, t, scope):
    """The scope's league (id, name, club's name), or NotFound."""
    row = conn.execute(sql.SQL(
        "SELECT l.league_id, l.name, c.name AS club_name FROM {l} l JOIN {c} c ON c.club_id = l.club_id"
        " WHERE c.slug = %s AND l.slug = %s").format(l=t.lg("leagues"), c=t.lg("clubs")),
        (scope.club, scope.league)).fetchone()
    if row is None:
        raise NotFound(f"no league {scope.club}/{scope.league}")
    return row


def _where(conn, t: _T, scope: Scope, alias: str = "x", finished: bool = True) -> tuple[sql.Composable, list, dict]:
    """The WHERE clause of rows ``alias`` (with game_id, and mode/players unless a kill or room row)."""
    parts: list[sql.Composable] = []
    args: list[Any] = []
    info: dict[str, Any] = {}
    a = sql.Identifier(alias)
    if finished:
        parts.append(sql.SQL("{}.finished").format(a))
    if scope.mode:
        parts.append(sql.SQL("{}.mode = %s").format(a))
        args.append(scope.mode)
    if scope.players:
        parts.append(sql.SQL("{}.players = %s").format(a))
        args.append(scope.players)
    if scope.exclude:
        parts.append(sql.SQL("NOT ({}.game_id = ANY(%s))").format(a))
        args.append(list(scope.exclude))
    if scope.league:
        if scope.season:
            s = find_season(conn, scope.club, scope.league, scope.season)
            info = {"league": s["league_name"], "season": s["name"], "club": s["club_name"]}
            parts.append(sql.SQL("{}.game_id IN (SELECT game_id FROM {} WHERE season_id = %s AND NOT hidden)").format(
                a, t.lg("games")))
            args.append(s["season_id"])
        else:
            row = _find_league(conn, t, scope)
            info = {"league": row["name"], "club": row["club_name"]}
            parts.append(sql.SQL(
                "{}.game_id IN (SELECT g.game_id FROM {} g JOIN {} s ON s.season_id = g.season_id"
                " WHERE s.league_id = %s AND NOT g.hidden)").format(a, t.lg("games"), t.lg("seasons")))
            args.append(row["league_id"])
    else:  # every game but the hidden ones: few, read once (an anti-join per seat row costs more than the scan)
        hidden = [r["game_id"] for r in conn.execute(sql.SQL("SELECT game_id FROM {} WHERE hidden").format(
            t.lg("games"))).fetchall()]
        if hidden:
            parts.append(sql.SQL("NOT ({}.game_id = ANY(%s))").format(a))
            args.append(hidden)
    return (sql.SQL(" AND ").join(parts) if parts else sql.SQL("true")), args, info


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _rates(rows: list[dict], whole: str = "games", parts: tuple[str, ...] = ("wins", "survived")) -> list[dict]:
    for r in rows:
        for p in parts:
            r[f"{p}_rate"] = _rate(r[p], r[whole])
    return rows


def _by(conn, t, where, args, column: str) -> list[dict]:
    """Win and survival by one seat column (character, objective, plan)."""
    return _rates(conn.execute(sql.SQL(
        "SELECT {c} COLLATE \"C\" AS key, count(*) AS games, count(*) FILTER (WHERE x.outcome = 'won') AS wins,"
        " count(*) FILTER (WHERE x.survived) AS survived, round(avg(x.rounds_survived), 1)::float AS rounds"
        " FROM {s} x WHERE ").format(c=sql.Identifier("x", column), s=t("seats")) + where
        + sql.SQL(" GROUP BY 1 ORDER BY games DESC, key NULLS LAST"), args).fetchall())


def _by_all(conn, t, where, args) -> dict[str, list[dict]]:
    """Win and survival by character, by objective and by plan, in one scan (GROUPING SETS)."""
    rows = conn.execute(sql.SQL(
        "SELECT GROUPING(x.character) AS gc, GROUPING(x.objective) AS go, x.character, x.objective, x.plan,"
        " count(*) AS games, count(*) FILTER (WHERE x.outcome = 'won') AS wins,"
        " count(*) FILTER (WHERE x.survived) AS survived, round(avg(x.rounds_survived), 1)::float AS rounds"
        " FROM {} x WHERE ").format(t("seats")) + where
        + sql.SQL(" GROUP BY GROUPING SETS ((x.character), (x.objective), (x.plan))"), args).fetchall()
    out: dict[str, list[dict]] = {"characters": [], "objectives": [], "plans": []}
    for r in rows:
        if r["gc"] == 0:
            table, key = "characters", r["character"]
        elif r["go"] == 0:
            table, key = "objectives", r["objective"]
        else:
            table, key = "plans", r["plan"]
        if key is None and table != "characters":
            continue
        out[table].append({"key": key, "games": r["games"], "wins": r["wins"], "survived": r["survived"],
                           "rounds": r["rounds"]})
    for table in out.values():
        table.sort(key=lambda r: (-r["games"], r["key"] is None, r["key"] or ""))
        _rates(table)
    return out


def section(db: Database, name: str, scope: Scope, from_seats: bool = False) -> dict[str, Any]:
    """The tables of one statistics section (SECTIONS), each ``{key, rows}``, plus the count of games.

    The character, deaths and escapes sections sum the league view's kept counts; ``from_seats``: count the "stats"
    view's rows instead (what the kept counts must equal: the tests' and the benchmark's reference)."""
    if name not in SECTIONS:
        raise NotFound(f"no statistics section {name!r}; known: {', '.join(SECTIONS)}")
    with reading(db) as conn:
        t = _T(conn)
        if name in KEPT_SECTIONS and not from_seats:  # the league view's kept counts (decision 0035)
            games, tables, info = _kept(conn, t, scope, name)
            return {"section": name, "scope": info, "games": games, "tables": tables}
        where, args, info = _where(conn, t, scope)
        gwhere, gargs, _ = _where(conn, t, scope, "g")
        (games,) = conn.execute(sql.SQL("SELECT count(*) AS n FROM {} g WHERE ").format(t("games")) + gwhere,
                                gargs).fetchone().values()
        if name == "characters":  # its three tables in one pass over the seats
            tables = _by_all(conn, t, where, args)
        else:
            tables = {key: _table(conn, t, key, scope, where, args, gwhere, gargs) for key in SECTIONS[name]}
    return {"section": name, "scope": info, "games": games, "tables": tables}


NO_SEASON = "00000000-0000-0000-0000-000000000000"
KEPT_SECTIONS = {"characters": ("games", "character", "objective", "plan"),
                 "deaths": ("games", "death_cause", "rounds_survived", "rounds_died", "first_death", "power_lost",
                            "blackout"),
                 "escapes": ("games", "route")}


def _mean(total: int, n: int) -> float | None:
    """``round(avg(…), 1)`` as PostgreSQL rounds it (half away from zero), from a kept sum and count."""
    from decimal import ROUND_HALF_UP, Decimal

    return None if not n else float((Decimal(total) / Decimal(n)).quantize(Decimal("0.1"), ROUND_HALF_UP))


def _round_key(key: str) -> int | None:
    return int(key) if key else None


def _kept(conn, t: _T, scope: Scope, section: str) -> tuple[int, dict[str, list[dict]], dict[str, Any]]:
    """A section from the league view's ``characters`` counts (per season, mode, player count, kind and key),
    less the share of the games the reader may not see (read from their own rows, as the view counts them)."""
    from projections.league import GAME_KINDS, SEAT_KINDS

    parts, args, info = ["k.kind = ANY(%s)"], [list(KEPT_SECTIONS[section])], {}  # {season}: the row's season
    season_of = sql.SQL("season_id")
    if scope.league:
        if scope.season:
            s = find_season(conn, scope.club, scope.league, scope.season)
            info = {"league": s["league_name"], "season": s["name"], "club": s["club_name"]}
            parts.append("{season} = %s")
            args.append(s["season_id"])
        else:
            row = _find_league(conn, t, scope)
            info = {"league": row["name"], "club": row["club_name"]}
            parts.append("{season} IN (SELECT season_id FROM {seasons} WHERE league_id = %s)")
            args.append(row["league_id"])
    if scope.mode:
        parts.append("mode = %s")
        args.append(scope.mode)
    if scope.players:
        parts.append("players = %s")
        args.append(scope.players)

    def where(season_column: sql.Composable) -> sql.Composable:
        return sql.SQL(" AND ".join(parts)).format(season=season_column, seasons=t.lg("seasons"))

    totals: dict[tuple[str, str], list[int]] = {}
    for r in conn.execute(sql.SQL(
            "SELECT k.kind, k.key, sum(games)::int AS games, sum(wins)::int AS wins, sum(survived)::int AS survived,"
            " sum(rounds)::bigint AS rounds, sum(rounded)::int AS rounded FROM {} k WHERE ").format(t.lg("characters"))
            + where(season_of) + sql.SQL(" GROUP BY k.kind, k.key"), args).fetchall():
        totals[(r["kind"], r["key"])] = [r["games"], r["wins"], r["survived"], r["rounds"], r["rounded"]]
    if scope.exclude:  # the hidden share, counted from its own rows as the view counts them
        ex = list(scope.exclude)
        x_season = sql.SQL("coalesce(x.season_id, {})").format(sql.Literal(NO_SEASON))
        g_season = sql.SQL("coalesce(g.season_id, {})").format(sql.Literal(NO_SEASON))
        less = conn.execute(sql.SQL(
            "SELECT k.kind, k.key, count(*) AS games, count(*) FILTER (WHERE x.outcome = 'won') AS wins,"
            " count(*) FILTER (WHERE x.survived) AS survived, coalesce(sum(k.value), 0) AS rounds,"
            " count(k.value) AS rounded FROM (SELECT * FROM {x} WHERE game_id = ANY(%s)) x"
            " CROSS JOIN LATERAL " + SEAT_KINDS + " WHERE x.counted AND NOT x.hidden AND x.finished AND k.key IS NOT NULL AND ").format(x=t.lg("seats"))
            + where(x_season)
            + sql.SQL(" GROUP BY 1, 2 UNION ALL SELECT k.kind, k.key, count(*), 0, 0, 0, 0"
                      " FROM (SELECT * FROM {g} WHERE game_id = ANY(%s)) g CROSS JOIN LATERAL " + GAME_KINDS
                      + " WHERE g.counted AND NOT g.hidden AND g.finished AND ").format(g=t.lg("games")) + where(g_season)
            + sql.SQL(" GROUP BY 1, 2"),
            [ex, *args, ex, *args]).fetchall()
        for r in less:
            row = totals.setdefault((r["kind"], r["key"]), [0, 0, 0, 0, 0])
            for i, column in enumerate(("games", "wins", "survived", "rounds", "rounded")):
                row[i] -= r[column]
    rows: dict[str, dict[str, list[int]]] = {}
    for (kind, key), counts in totals.items():
        if counts[0] > 0:
            rows.setdefault(kind, {})[key] = counts
    games = rows.get("games", {}).get("", [0])[0]
    out: dict[str, list[dict]] = {}
    if section == "characters":
        for kind, table in (("character", "characters"), ("objective", "objectives"), ("plan", "plans")):
            out[table] = _rates(sorted(
                ({"key": key or None, "games": n, "wins": wins, "survived": survived, "rounds": _mean(total, summed)}
                 for key, (n, wins, survived, total, summed) in rows.get(kind, {}).items()),
                key=lambda r: (-r["games"], r["key"] is None, r["key"] or "")))
        return games, out, info
    if section == "escapes":  # characters who tried each route, of them survived and won
        out["routes"] = _rates(sorted(
            ({"key": key, "tried": n, "survived": survived, "wins": wins}
             for key, (n, wins, survived, _total, _summed) in rows.get("route", {}).items()),
            key=lambda r: (-r["tried"], r["key"])), "tried")
        return games, out, info
    last = (1, 0)  # NULL keys sort last, as ORDER BY … NULLS LAST
    out["death_causes"] = sorted(
        ({"key": key, "deaths": c[0], "round": _mean(c[3], c[4])} for key, c in rows.get("death_cause", {}).items()),
        key=lambda r: (-r["deaths"], r["key"]))
    died = rows.get("rounds_died", {})
    out["rounds_survived"] = sorted(
        ({"key": _round_key(key), "characters": c[0], "died": died.get(key, [0])[0]}
         for key, c in rows.get("rounds_survived", {}).items()),
        key=lambda r: last if r["key"] is None else (0, r["key"]))
    for kind in ("first_death", "power_lost", "blackout"):
        out[kind] = sorted(({"key": _round_key(key), "games": c[0]} for key, c in rows.get(kind, {}).items()),
                           key=lambda r: last if r["key"] is None else (0, r["key"]))
    return games, out, info


def _table(conn, t: _T, key: str, scope: Scope, where, args, gwhere, gargs) -> list[dict]:
    q = conn.execute
    if key == "characters":
        return _by(conn, t, where, args, "character")
    if key == "objectives":
        return _by(conn, t, sql.SQL("x.objective IS NOT NULL AND ") + where, args, "objective")
    if key == "plans":
        return _by(conn, t, sql.SQL("x.plan IS NOT NULL AND ") + where, args, "plan")
    if key == "death_causes":
        return q(sql.SQL("SELECT x.death_cause COLLATE \"C\" AS key, count(*) AS deaths, round(avg(x.death_round), 1)::float AS round"
                         " FROM {} x WHERE x.death_cause IS NOT NULL AND ").format(t("seats")) + where
                 + sql.SQL(" GROUP BY 1 ORDER BY deaths DESC, key"), args).fetchall()
    if key == "rounds_survived":
        return q(sql.SQL("SELECT x.rounds_survived AS key, count(*) AS characters,"
                         " count(*) FILTER (WHERE x.death_cause IS NOT NULL) AS died"
                         " FROM {} x WHERE ").format(t("seats")) + where + sql.SQL(" GROUP BY 1 ORDER BY 1"),
                 args).fetchall()
    if key == "first_death":
        return q(sql.SQL("SELECT g.first_death_round AS key, count(*) AS games FROM {} g WHERE ").format(t("games"))
                 + gwhere + sql.SQL(" GROUP BY 1 ORDER BY 1 NULLS LAST"), gargs).fetchall()
    if key in ("power_lost", "blackout"):
        return q(sql.SQL("SELECT g.{} AS key, count(*) AS games FROM {} g WHERE ").format(
            sql.Identifier(f"{key}_round" if key == "blackout" else "power_lost_round"), t("games"))
                 + gwhere + sql.SQL(" GROUP BY 1 ORDER BY 1 NULLS LAST"), gargs).fetchall()
    if key == "routes":
        return _rates(q(sql.SQL(
            "SELECT x.route COLLATE \"C\" AS key, count(*) AS tried, count(*) FILTER (WHERE x.survived) AS survived,"
            " count(*) FILTER (WHERE x.outcome = 'won') AS wins FROM {} x WHERE x.route IS NOT NULL AND ").format(
            t("seats")) + where + sql.SQL(" GROUP BY 1 ORDER BY tried DESC, key"), args).fetchall(), "tried")
    if key in ("kills", "weapons"):
        column = "kind" if key == "kills" else "weapon"
        return q(sql.SQL("SELECT k.{} COLLATE \"C\" AS key, count(*) AS kills FROM {} k JOIN {} g ON g.game_id = k.game_id WHERE ").format(
            sql.Identifier(column), t("kills"), t("games")) + gwhere
            + sql.SQL(" GROUP BY 1 ORDER BY kills DESC, key NULLS LAST"), gargs).fetchall()
    if key == "rooms":
        return q(sql.SQL("SELECT r.room COLLATE \"C\" AS key, sum(r.attacks)::int AS attacks, sum(r.wounds)::int AS wounds,"
                         " sum(r.deaths)::int AS deaths FROM {} r JOIN {} g ON g.game_id = r.game_id WHERE ").format(
            t("rooms"), t("games")) + gwhere
            + sql.SQL(" GROUP BY 1 ORDER BY deaths DESC, wounds DESC, attacks DESC, key"), gargs).fetchall()
    raise NotFound(f"no statistics table {key!r}")


# -- a player's profile ---------------------------------------------------------------------------------


def profile(db: Database, player_id: str, exclude: list | None = None,
            hidden_leagues: list | None = None) -> dict[str, Any]:
    """A player's games, characters, ratings over time (every season) and nemesis, across the archive.

    ``player_id``: a registered player's id, or the id the league view gives an unregistered name.
    ``exclude`` (games) and ``hidden_leagues`` (their seasons' ratings) are left out for a reader outside
    a members-only league (decision 0033): a name known only from such games is not found.
    """
    exclude, hidden_leagues = list(exclude or []), list(hidden_leagues or [])
    try:
        pid = UUID(player_id)
    except ValueError:
        raise NotFound(f"{player_id[:40]!r} is not a player id") from None
    with reading(db) as conn:
        t = _T(conn)
        with conn.cursor() as curs:
            resolver = Resolver.load(curs, t.lg)
        pid = resolver.root(pid)
        keys = [k for k, p in resolver.names.items() if resolver.root(p) == pid]
        name = resolver.players[pid][0] if pid in resolver.players else None
        if not keys:  # an unregistered name: find it by its derived id among the seat names
            rows = conn.execute(sql.SQL("SELECT DISTINCT name_key, name FROM {} WHERE NOT (game_id = ANY(%s))").format(
                t("seats")), (exclude,)).fetchall()
            found = [r for r in rows if implicit_player(r["name_key"]) == pid and r["name_key"] not in resolver.names]
            keys, name = [r["name_key"] for r in found], (found[0]["name"] if found else None)
        if not keys:
            raise NotFound(f"no player {player_id}")
        hidden = sql.SQL("NOT EXISTS (SELECT 1 FROM {} h WHERE h.game_id = x.game_id AND h.hidden)").format(t.lg("games"))
        if exclude:
            hidden = hidden + sql.SQL(" AND NOT (x.game_id = ANY({}))").format(sql.Literal(exclude))
        games = conn.execute(sql.SQL(
            "SELECT x.game_id, x.seat, x.name, x.mode, x.players, x.played_on, x.finished, x.character, x.objective,"
            " x.outcome, x.survived, x.route, x.death_cause, x.death_round, x.killer, x.kills, x.wounds,"
            " x.rounds_survived, gi.title FROM {s} x LEFT JOIN {gi} gi ON gi.game_id = x.game_id"
            " WHERE x.name_key = ANY(%s) AND ").format(
            s=t("seats"), gi=sql.Identifier(f"{active_prefix(conn, 'gameindex')}_games")) + hidden
            + sql.SQL(" ORDER BY x.played_on DESC, x.game_id"), (keys,)).fetchall()
        finished = sql.SQL(" AND x.finished AND ") + hidden
        characters = _rates(conn.execute(sql.SQL(
            "SELECT x.character COLLATE \"C\" AS key, count(*) AS games, count(*) FILTER (WHERE x.outcome = 'won') AS wins,"
            " count(*) FILTER (WHERE x.survived) AS survived, round(avg(x.rounds_survived), 1)::float AS rounds"
            " FROM {} x WHERE x.name_key = ANY(%s)").format(t("seats"))
            + finished + sql.SQL(" GROUP BY 1 ORDER BY games DESC, key NULLS LAST"), (keys,)).fetchall())
        killers = conn.execute(sql.SQL(
            "SELECT x.killer COLLATE \"C\" AS key, count(*) AS deaths FROM {} x WHERE x.name_key = ANY(%s) AND x.killer IS NOT NULL").format(
            t("seats")) + finished + sql.SQL(" GROUP BY 1 ORDER BY deaths DESC, key"), (keys,)).fetchall()
        ratings = conn.execute(sql.SQL(
            "SELECT r.season_id, s.name AS season, l.name AS league, r.game_id, r.played_on, r.mu, r.sigma"
            " FROM {r} r JOIN {s} s ON s.season_id = r.season_id JOIN {l} l ON l.league_id = s.league_id"
            " WHERE r.player_id = %s AND NOT (l.league_id = ANY(%s)) ORDER BY l.name, s.starts_on NULLS FIRST, s.opened, r.played_on, r.created_at,"
            " r.game_id").format(r=t.lg("ratings"), s=t.lg("seasons"), l=t.lg("leagues")), (pid, hidden_leagues)).fetchall()
    seasons: dict[Any, dict[str, Any]] = {}
    for r in ratings:
        s = seasons.setdefault(r["season_id"], {"season_id": str(r["season_id"]), "league": r["league"],
                                                "season": r["season"], "points": []})
        s["points"].append({"game_id": str(r["game_id"]), "played_on": r["played_on"].isoformat(), "mu": r["mu"],
                            "sigma": r["sigma"], "ordinal": ordinal(r["mu"], r["sigma"])})
    done = [g for g in games if g["finished"]]
    return {
        "player_id": str(pid), "name": name or (games[0]["name"] if games else ""),
        "games": [{**g, "game_id": str(g["game_id"]), "played_on": g["played_on"].isoformat()} for g in games],
        "finished": len(done), "wins": sum(1 for g in done if g["outcome"] == "won"),
        "survived": sum(1 for g in done if g["survived"]),
        "characters": characters, "killers": killers,
        # the intruder type that killed them most (several when tied)
        "nemesis": [k["key"] for k in killers if k["deaths"] == killers[0]["deaths"]] if killers else [],
        "ratings": list(seasons.values()),
    }
