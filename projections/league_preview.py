"""What a pending game would change in a season: standings and ratings if it counted there (decision 0025).

A game is pending in a season when it does not count there yet: still in progress, finished but
placed elsewhere or nowhere, or hidden. Its result is the victory check's when the game is finished;
for a game in progress it is what the table chose, else "as it stands": a character already dead
loses, the others are counted as winners who survived (every seat's result can be chosen).
Nothing is written: the preview adds the game to the season's current table in memory and rates it
where it would stand in rating order (date, created, id), from each player's rating just before it,
then rates every later game of the season again, as the league view would once the game counted: a
game dated before others shows how the ratings after it change (``rerated``: each later game's
ratings as they are and as they would be), not only its own.
"""
from __future__ import annotations

from typing import Any, Mapping
from uuid import UUID

from psycopg import sql
from psycopg.rows import dict_row

from projections import league_queries as lq
from projections.generations import active_prefix
from projections.league import LeagueView, Resolver, rated_games, ratings_before
from service.db import Database
from service.league import DEFAULT_POINTS
from service.ratings import DECIDED, MODEL, THE_GAME, is_rated, ordinal, points, rate_game

OUTCOMES = DECIDED
RERATED_SHOWN = 100  # later games listed with their ratings (a season may hold thousands after an early game)


def preview(db: Database, club: str, league: str, season_slug: str, game_id: str,
            chosen: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The season's table now and with the game counted (see the module doc). ``chosen``: seat → won/lost."""
    try:
        gid = UUID(game_id)
    except ValueError:
        raise lq.NotFound(f"{game_id[:40]!r} is not a game id") from None
    table = lq.standings(db, club, league, season_slug)
    with db.connect(row_factory=dict_row) as conn:
        t = lq._Tables(conn)
        s = lq.season(conn, club, league, season_slug)
        game = conn.execute(sql.SQL("SELECT game_id, title, mode, played_on, created_at, finished, decided, season_id, hidden"
                                    " FROM {}"
                                    " WHERE game_id = %s").format(t("games")), (gid,)).fetchone()
        if game is None:
            raise lq.NotFound(f"no game {game_id}")
        seats = conn.execute(sql.SQL("SELECT seat, name, name_key, outcome, survived, objective FROM {} WHERE game_id = %s"
                                     " ORDER BY seat").format(t("seats")), (gid,)).fetchall()
        dead = {r["seat"] for r in conn.execute(sql.SQL(
            "SELECT seat FROM {} WHERE game_id = %s AND death_cause IS NOT NULL").format(
            sql.Identifier(f"{active_prefix(conn, 'stats')}_seats")), (gid,)).fetchall()}
        with conn.cursor() as curs:
            resolver = Resolver.load(curs, t)
    counted = game["season_id"] == s["season_id"] and not game["hidden"] and game["finished"]
    scheme = {**DEFAULT_POINTS, **s["points"]}
    chosen = dict(chosen or {})
    bad = [seat for seat, o in chosen.items() if o not in OUTCOMES or seat not in {r["seat"] for r in seats}]
    if bad:
        raise ValueError(f"seat {bad[0]}: a result is won or lost, for a seat of this game")
    result = []
    for r in seats:
        if game["finished"]:
            outcome, survived, objective, how = r["outcome"], r["survived"], r["objective"], "verdict"
        elif r["seat"] in chosen:
            outcome, how = chosen[r["seat"]], "chosen"
            survived, objective = outcome == "won" and r["seat"] not in dead, False
        else:
            outcome = "lost" if r["seat"] in dead else "won"
            survived, objective, how = r["seat"] not in dead, False, "as it stands"
        result.append({"seat": r["seat"], "name": r["name"], "name_key": r["name_key"], "outcome": outcome,
                       "survived": survived, "objective": objective, "how": how})
    rows = {row["player_id"]: {**row} for row in table["standings"]}
    before = {pid: dict(row) for pid, row in rows.items()}
    seen = set()
    for r in result:
        pid, name, registered = resolver.resolve(r["name_key"], r["name"])
        key = str(pid)
        if key in seen:  # one player on two seats (an unmerged duplicate) counts once
            continue
        seen.add(key)
        row = rows.setdefault(key, {"player_id": key, "name": name, "registered": registered, "games": 0, "wins": 0, "points": 0,
                                    "survived": 0, "objectives": 0, "undetermined": 0, "rating": None, "rank": None})
        r["player_id"] = key
        if counted:
            continue
        row["games"] += 1
        row["wins"] += r["outcome"] == "won"
        row["undetermined"] += r["outcome"] not in OUTCOMES
        row["survived"] += bool(r["survived"])
        row["objectives"] += bool(r["objective"])
        row["points"] = points(scheme, games=row["games"], wins=row["wins"], survived=row["survived"],
                               objectives=row["objectives"])
    rated = not counted and is_rated(game["mode"], [r["outcome"] for r in result], s["rate_solo"])
    rerated: list[dict[str, Any]] = []
    if rated:
        since = (game["played_on"], game["created_at"], game["game_id"])
        with db.connect(row_factory=dict_row) as conn, conn.cursor() as curs:
            ratings, counts = ratings_before(curs, t, s["season_id"], since)
            later = [g for g in rated_games(curs, t, s["season_id"], since) if g["game_id"] != gid]
            curs.execute(sql.SQL("SELECT r.game_id, r.player_id, r.name, r.mu, r.sigma FROM {} r WHERE r.season_id = %s"
                                 " AND (r.played_on, r.created_at, r.game_id) >= (%s, %s, %s)").format(t("ratings")),
                         (s["season_id"], *since))
            was = {(r["game_id"], r["player_id"]): r for r in curs.fetchall()}
            titles = {r["game_id"]: r["title"] for r in curs.execute(sql.SQL(
                "SELECT game_id, title FROM {} WHERE game_id = ANY(%s)").format(t("games")),
                ([g["game_id"] for g in later],)).fetchall()}
        pending = {"game_id": gid, "played_on": game["played_on"], "created_at": game["created_at"], "mode": game["mode"],
                   "keys": [r["name_key"] for r in result], "names": [r["name"] for r in result],
                   "outcomes": [r["outcome"] for r in result]}
        by_game: dict[UUID, list] = {}
        for row in LeagueView._rate_games([pending, *later], s["season_id"], s["rate_solo"], resolver, ratings, counts):
            by_game.setdefault(row[1], []).append(row)
        for g in later:
            changes = []
            for _season, _gid, _on, _at, pid, name, _outcome, _mb, _sb, mu, sigma, _n in by_game.get(g["game_id"], []):
                old = was.get((g["game_id"], pid))
                now, then = ordinal(mu, sigma), ordinal(old["mu"], old["sigma"]) if old else None
                changes.append({"player_id": str(pid), "name": name, "rating": now, "rating_before": then,
                                "moves": then is None or round(now, 1) != round(then, 1)})  # as the page shows it
            if changes:
                rerated.append({"game_id": str(g["game_id"]), "title": titles.get(g["game_id"]),
                                "played_on": g["played_on"].isoformat(), "ratings": changes})
        for pid, (mu, sigma) in ratings.items():
            if pid == THE_GAME:
                continue
            row = rows.get(str(pid))
            if row is not None:
                row["rating"] = {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma), "rated_games": counts[pid]}
    ordered = sorted(rows.values(), key=lambda r: (-r["points"], -(r["rating"]["ordinal"] if r["rating"] else -1e9),
                                                   -r["wins"], r["name"].casefold()))
    out = []
    for rank, row in enumerate(ordered, 1):
        old = before.get(row["player_id"])
        out.append({"player_id": row["player_id"], "name": row["name"], "rank": rank,
                    "rank_before": old["rank"] if old else None, "points": row["points"],
                    "points_before": old["points"] if old else None,
                    "rating": row["rating"]["ordinal"] if row["rating"] else None,
                    "rating_before": old["rating"]["ordinal"] if old and old["rating"] else None,
                    "mu": row["rating"]["mu"] if row["rating"] else None,
                    "sigma": row["rating"]["sigma"] if row["rating"] else None,
                    "in_game": row["player_id"] in seen})
    last = max((r["last_played"] for r in table["standings"] if r["last_played"]), default=None)
    return {
        "club": table["club"], "league": table["league"], "season": table["season"],
        "game": {"id": str(gid), "title": game["title"], "mode": game["mode"], "played_on": game["played_on"].isoformat(),
                 "finished": game["finished"], "decided": game["decided"]},
        "counted": counted, "rated": rated,
        "earlier_than_counted": bool(last and game["played_on"].isoformat() < last),
        "seats": [{k: r[k] for k in ("seat", "name", "outcome", "survived", "objective", "how")} for r in result],
        "standings": out,
        "rerated": rerated[:RERATED_SHOWN], "rerated_total": len(rerated),
        "defaults": {"mu": MODEL.mu, "sigma": MODEL.sigma},
    }
