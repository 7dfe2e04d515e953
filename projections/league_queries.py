"""Reading the league view: clubs, leagues and seasons; standings and ratings as of a date.

Standings are summed when asked from the view's kept counts per season, day and name (decision 0035),
so any date works; ratings
come from the rating history (one row per rated game and player, keyed by the game's date):
the latest row on or before the date is the rating as it stood then.
"""
from __future__ import annotations

from datetime import date
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql
from projections.generations import active_prefix
from projections.league import Resolver
from service.readpool import read_rows, reading
from service.db import Database
from service.league import DEFAULT_POINTS, name_key
from service.ratings import THE_GAME, ordinal, points


class NotFound(LookupError):
    pass


class _Tables:
    def __init__(self, conn) -> None:
        self.prefix = active_prefix(conn, "league")

    def __call__(self, name: str) -> sql.Identifier:
        return sql.Identifier(f"{self.prefix}_{name}")


def clubs(db: Database) -> list[dict[str, Any]]:
    """Every club with its leagues and their seasons (with how many games count in each)."""
    with reading(db) as conn:
        t = _Tables(conn)
        club_rows = conn.execute(sql.SQL("SELECT club_id, slug, name FROM {} ORDER BY name, slug").format(t("clubs"))).fetchall()
        leagues = conn.execute(sql.SQL("SELECT league_id, club_id, slug, name, points, rate_solo FROM {} ORDER BY opened").format(
            t("leagues"))).fetchall()
        seasons = conn.execute(sql.SQL(
            "SELECT s.season_id, s.league_id, s.slug, s.name, s.starts_on, s.ends_on,"
            " (SELECT count(*) FROM {games} g WHERE g.season_id = s.season_id AND NOT g.hidden) AS games"
            " FROM {seasons} s ORDER BY s.starts_on NULLS FIRST, s.opened").format(games=t("games"), seasons=t("seasons"))).fetchall()
    by_league: dict[UUID, list] = {}
    for s in seasons:
        by_league.setdefault(s["league_id"], []).append(
            {"id": str(s["season_id"]), "slug": s["slug"], "name": s["name"], "games": s["games"],
             "starts_on": _iso(s["starts_on"]), "ends_on": _iso(s["ends_on"])})
    by_club: dict[UUID, list] = {}
    for l in leagues:
        by_club.setdefault(l["club_id"], []).append(
            {"id": str(l["league_id"]), "slug": l["slug"], "name": l["name"], "points": l["points"],
             "rate_solo": l["rate_solo"], "seasons": by_league.get(l["league_id"], [])})
    return [{"id": str(c["club_id"]), "slug": c["slug"], "name": c["name"], "leagues": by_club.get(c["club_id"], [])}
            for c in club_rows]


def season(conn, club: str, league: str, season_slug: str) -> dict[str, Any]:
    t = _Tables(conn)
    row = conn.execute(sql.SQL(
        "SELECT s.season_id, s.slug, s.name, s.starts_on, s.ends_on, l.league_id, l.slug AS league_slug,"
        " l.name AS league_name, l.points, l.rate_solo, c.club_id, c.slug AS club_slug, c.name AS club_name"
        " FROM {s} s JOIN {l} l ON l.league_id = s.league_id JOIN {c} c ON c.club_id = l.club_id"
        " WHERE c.slug = %s AND l.slug = %s AND s.slug = %s").format(s=t("seasons"), l=t("leagues"), c=t("clubs")),
        (club, league, season_slug)).fetchone()
    if row is None:
        raise NotFound(f"no season {club}/{league}/{season_slug}")
    return row


def _season_info(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "club": {"slug": row["club_slug"], "name": row["club_name"]},
        "league": {"slug": row["league_slug"], "name": row["league_name"], "points": {**DEFAULT_POINTS, **row["points"]},
                   "rate_solo": row["rate_solo"]},
        "season": {"id": str(row["season_id"]), "slug": row["slug"], "name": row["name"],
                   "starts_on": _iso(row["starts_on"]), "ends_on": _iso(row["ends_on"])},
    }


def standings(db: Database, club: str, league: str, season_slug: str, as_of: date | None = None) -> dict[str, Any]:
    """The season's table as it stood at the end of ``as_of`` (default: now)."""
    with reading(db) as conn:
        t = _Tables(conn)
        s = season(conn, club, league, season_slug)
        scheme = {**DEFAULT_POINTS, **s["points"]}
        with conn.cursor() as curs:
            resolver = Resolver.load(curs, t)
        when = sql.SQL("" if as_of is None else " AND played_on <= %s")
        args = (s["season_id"],) if as_of is None else (s["season_id"], as_of)
        # the kept counts per day and name (decision 0035): a season of 10,000 games is a few thousand rows,
        # and as of a date the same rows up to that day; names are joined per player below
        seats = conn.execute(sql.SQL(
            "SELECT name_key, min(name) AS name, sum(games)::int AS games, sum(wins)::int AS wins,"
            " sum(undetermined)::int AS undetermined, sum(survived)::int AS survived,"
            " sum(objectives)::int AS objectives, max(played_on) AS last_played"
            " FROM {} WHERE season_id = %s").format(t("days")) + when + sql.SQL(" GROUP BY name_key"), args).fetchall()
        if as_of is None:  # today's ratings: the row per player the view keeps
            ratings = conn.execute(sql.SQL("SELECT player_id, mu, sigma, rated FROM {} WHERE season_id = %s").format(
                t("current")), (s["season_id"],)).fetchall()
        else:  # each player's latest rating row on or before the date: one index probe per player
            keys = [r["name_key"] for r in seats]
            ids = list({resolver.resolve(k, k)[0] for k in keys} | {THE_GAME})
            ratings = conn.execute(sql.SQL(
                "SELECT p.player_id, r.mu, r.sigma, r.rated FROM unnest(%s::uuid[]) AS p(player_id)"
                " CROSS JOIN LATERAL (SELECT mu, sigma, rated FROM {} r WHERE r.season_id = %s AND r.player_id = p.player_id"
                " AND r.played_on <= %s"
                " ORDER BY r.played_on DESC, r.created_at DESC, r.game_id DESC LIMIT 1) r").format(t("ratings")),
                (ids, *args)).fetchall()
        (games_count,) = conn.execute(sql.SQL(
            "SELECT coalesce(sum(games), 0)::int AS n FROM {} WHERE season_id = %s").format(t("season_days")) + when,
            args).fetchone().values()
    table: dict[UUID, dict[str, Any]] = {}
    for r in seats:
        pid, name, registered = resolver.resolve(r["name_key"], r["name"])
        row = table.setdefault(pid, {"player_id": str(pid), "name": name, "registered": registered, "games": 0, "wins": 0,
                                     "survived": 0, "objectives": 0, "undetermined": 0, "last_played": None})
        for key in ("games", "wins", "undetermined", "survived", "objectives"):
            row[key] += r[key]
        row["last_played"] = max(filter(None, (row["last_played"], r["last_played"])))
    rated = {r["player_id"]: r for r in ratings}
    for pid, row in table.items():
        n = row["games"]
        row["win_rate"] = row["wins"] / n if n else None
        row["survival_rate"] = row["survived"] / n if n else None
        row["objective_rate"] = row["objectives"] / n if n else None
        row["points"] = points(scheme, games=n, wins=row["wins"], survived=row["survived"], objectives=row["objectives"])
        r = rated.get(pid)
        row["rating"] = None if r is None else {"mu": r["mu"], "sigma": r["sigma"], "ordinal": ordinal(r["mu"], r["sigma"]),
                                                "rated_games": r["rated"]}
        row["last_played"] = _iso(row["last_played"])
    rows = sorted(table.values(), key=lambda r: (-r["points"], -(r["rating"]["ordinal"] if r["rating"] else -1e9),
                                                  -r["wins"], r["name"].casefold()))
    for i, row in enumerate(rows, 1):
        row["rank"] = i
    the_game = rated.get(THE_GAME)
    return {
        **_season_info(s),
        "as_of": _iso(as_of),
        "games": games_count,
        "standings": rows,
        "the_game": None if the_game is None else {"mu": the_game["mu"], "sigma": the_game["sigma"],
                                                   "ordinal": ordinal(the_game["mu"], the_game["sigma"]),
                                                   "rated_games": the_game["rated"]},
    }


def rating_history(db: Database, club: str, league: str, season_slug: str, player: str | None = None,
                   as_of: date | None = None) -> dict[str, Any]:
    """Every rating change of the season in game order (one player's, given an id or a name)."""
    with reading(db) as conn:
        t = _Tables(conn)
        s = season(conn, club, league, season_slug)
        where, args = [sql.SQL("season_id = %s")], [s["season_id"]]
        if player:
            with conn.cursor() as curs:
                resolver = Resolver.load(curs, t)
            try:
                pid = resolver.root(UUID(player))
            except ValueError:
                from service.league import name_key
                pid, _, _ = resolver.resolve(name_key(player), player)
            where.append(sql.SQL("player_id = %s"))
            args.append(pid)
        if as_of is not None:
            where.append(sql.SQL("played_on <= %s"))
            args.append(as_of)
        rows = conn.execute(sql.SQL(
            "SELECT game_id, played_on, player_id, name, outcome, mu_before, sigma_before, mu, sigma FROM {} WHERE ").format(
            t("ratings")) + sql.SQL(" AND ").join(where) + sql.SQL(" ORDER BY played_on, created_at, game_id, name"),
            args).fetchall()
    return {
        **_season_info(s),
        "history": [{"game_id": str(r["game_id"]), "played_on": _iso(r["played_on"]), "player_id": str(r["player_id"]),
                     "name": r["name"], "outcome": r["outcome"], "mu_before": r["mu_before"], "sigma_before": r["sigma_before"],
                     "mu": r["mu"], "sigma": r["sigma"], "ordinal": ordinal(r["mu"], r["sigma"])} for r in rows],
    }


def season_games(db: Database, club: str, league: str, season_slug: str, limit: int | None = None,
                 as_of: date | None = None) -> list[dict[str, Any]]:
    """The games counted in the season (hidden ones flagged), newest first (the first ``limit``), played on or
    before ``as_of`` when given (the page beside standings as of a date lists no later game)."""
    with reading(db) as conn:
        t = _Tables(conn)
        s = season(conn, club, league, season_slug)
        rows = conn.execute(sql.SQL(
            "SELECT g.game_id, g.title, g.mode, g.played_on, g.finished, g.decided, g.hidden, p.reason, x.seats"
            " FROM (SELECT * FROM {g} WHERE season_id = %s AND (%s::date IS NULL OR played_on <= %s::date)"
            "  ORDER BY played_on DESC, created_at DESC LIMIT %s) g"
            " CROSS JOIN LATERAL (SELECT json_agg(json_build_object('seat', x.seat, 'name', x.name, 'outcome', x.outcome)"
            "  ORDER BY x.seat) AS seats FROM {x} x WHERE x.game_id = g.game_id) x"
            " LEFT JOIN {p} p ON p.game_id = g.game_id ORDER BY g.played_on DESC, g.created_at DESC").format(
            g=t("games"), x=t("seats"), p=t("placements")), (s["season_id"], as_of, as_of, limit)).fetchall()
    return [{**r, "game_id": str(r["game_id"]), "played_on": _iso(r["played_on"])} for r in rows]


def players(db: Database, exclude: list[UUID] | None = None) -> list[dict[str, Any]]:
    """Registered players with their names and aliases, and who a merged player joined.

    ``exclude``: games the asker may not see (a members-only league's, decision 0033). A name seen only in
    them is secret: an alias that is secret is left out, and so is a player all of whose names that were
    ever seated are secret (a registered player who never played is shown: registering names no league)."""
    with reading(db) as conn:
        t = _Tables(conn)
        rows = conn.execute(sql.SQL(
            "SELECT p.player_id, p.name, p.merged_into, coalesce(array_agg(n.name ORDER BY n.name)"
            " FILTER (WHERE n.name IS NOT NULL AND n.name_key <> lower(p.name)), '{{}}') AS aliases,"
            " coalesce(array_agg(n.name_key) FILTER (WHERE n.name_key IS NOT NULL), '{{}}') AS keys"
            " FROM {p} p LEFT JOIN {n} n ON n.player_id = p.player_id GROUP BY p.player_id ORDER BY p.name").format(
            p=t("players"), n=t("names"))).fetchall()
        secret: set[str] = set()
        seated: set[str] = set()
        if exclude:
            secret = {r["name_key"] for r in conn.execute(sql.SQL(
                "SELECT DISTINCT h.name_key FROM {x} h WHERE h.game_id = ANY(%(ex)s) AND NOT EXISTS ("
                " SELECT 1 FROM {x} x WHERE x.name_key = h.name_key AND NOT (x.game_id = ANY(%(ex)s)))").format(
                x=t("seats")), {"ex": list(exclude)}).fetchall()}
            keys = list({k for r in rows for k in r["keys"]} - secret)
            seated = {r["name_key"] for r in conn.execute(sql.SQL(
                "SELECT k.name_key FROM unnest(%s::text[]) k(name_key)"
                " WHERE EXISTS (SELECT 1 FROM {x} x WHERE x.name_key = k.name_key)").format(x=t("seats")),
                (keys,)).fetchall()} if secret else set()
    shown = []
    for r in rows:
        if secret & set(r["keys"]) and not seated & set(r["keys"]):
            continue  # known only from games the asker may not see
        aliases = [a for a in r["aliases"] if name_key(a) not in secret]
        shown.append({"id": str(r["player_id"]), "name": r["name"], "aliases": aliases,
                      "merged_into": str(r["merged_into"]) if r["merged_into"] else None})
    return shown


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


# -- where a game counts, for the rights gate (web/auth.py; decision 0024) ----------------------------------


def _view(conn, name: str) -> sql.Identifier:
    return sql.Identifier(f"{active_prefix(conn, 'league')}_{name}")


_leagues_table: dict[str, sql.Identifier] = {}  # database url -> the active generation's leagues table, as last seen


def league_named(db: Database, key: str) -> tuple[UUID, UUID] | None:
    """(club id, league id) of the first-opened league whose name key is ``key`` (decision 0020's rule).

    The write gate asks it on every write to a game its header puts in a league: one statement on an unchecked
    connection (``read_rows``), against the leagues table of the generation last seen active. A rebuild's switch
    drops that table in the same transaction that activates the next one, so a stale name fails at once, and
    the statement goes again with the active generation asked first (decision 0052)."""
    table = _leagues_table.get(db.url)
    if table is not None:
        try:
            return _league_in(db, table, key)
        except psycopg.errors.UndefinedTable:
            pass  # a rebuild has switched generations since
    with reading(db) as conn:
        table = _leagues_table[db.url] = _view(conn, "leagues")
    return _league_in(db, table, key)


def _league_in(db: Database, table: sql.Identifier, key: str) -> tuple[UUID, UUID] | None:
    query = sql.SQL("SELECT club_id, league_id FROM {} WHERE name_key = %s ORDER BY opened LIMIT 1").format(table)
    rows = read_rows(db, [(query, (key,))])[0]
    return (rows[0]["club_id"], rows[0]["league_id"]) if rows else None


def club_ids(db: Database) -> list[UUID]:
    """Every club that has opened a league."""
    with reading(db) as conn:
        return [r["club_id"] for r in conn.execute(
            sql.SQL("SELECT DISTINCT club_id FROM {}").format(_view(conn, "leagues"))).fetchall()]


def holds_role(db: Database, player_id: UUID, roles: list[str]) -> bool:
    """Does the player hold one of ``roles`` in any club?"""
    with reading(db) as conn:
        return conn.execute(sql.SQL("SELECT 1 FROM {} WHERE player_id = %s AND role = ANY(%s) LIMIT 1")
                            .format(_view(conn, "roles")), (player_id, roles)).fetchone() is not None


def games_counting_in(db: Database, league_ids: list[UUID]) -> list[UUID]:
    """Games that count in one of these leagues: placed in one of their seasons, or unplaced and naming one."""
    with reading(db) as conn:
        rows = conn.execute(sql.SQL(
            "SELECT g.game_id FROM {games} g LEFT JOIN {seasons} s ON s.season_id = g.season_id"
            " LEFT JOIN {placements} p ON p.game_id = g.game_id"
            " WHERE s.league_id = ANY(%(ids)s) OR (g.season_id IS NULL AND NOT coalesce(p.placed, false)"
            "  AND g.league_key IN (SELECT l.name_key FROM {leagues} l WHERE l.league_id = ANY(%(ids)s)))"
        ).format(**{t: _view(conn, t) for t in ("games", "seasons", "placements", "leagues")}),
            {"ids": league_ids}).fetchall()
    return [r["game_id"] for r in rows]
