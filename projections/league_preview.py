"""What a pending game would change in a season: standings and ratings if it counted there (decision 0025).

A game is pending in a season when it does not count there yet: still in progress, finished but
placed elsewhere or nowhere, or hidden. Its result is the victory check's when the game is finished;
for a game in progress it is what the table chose, else "as it stands": a character already dead
loses, the others are counted as winners who survived (every seat's result can be chosen).
Nothing is written: the preview adds the game to the season's current table in memory and rates it
with the players' current ratings, as the season's latest game (a game dated before later games
would, once counted, re-rate those too: the preview says so).
"""
from __future__ import annotations

from typing import Any, Mapping
from uuid import UUID

from psycopg import sql
from psycopg.rows import dict_row

from projections import league_queries as lq
from projections.generations import active_prefix
from projections.league import Resolver
from service.db import Database
from service.league import DEFAULT_POINTS
from service.ratings import DECIDED, MODEL, THE_GAME, is_rated, ordinal, points, rate_game

OUTCOMES = DECIDED


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
        game = conn.execute(sql.SQL("SELECT game_id, title, mode, played_on, finished, decided, season_id, hidden FROM {}"
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
    if rated:
        current = {UUID(pid): (row["rating"]["mu"], row["rating"]["sigma"]) for pid, row in rows.items() if row["rating"]}
        if table["the_game"]:
            current[THE_GAME] = (table["the_game"]["mu"], table["the_game"]["sigma"])
        new = rate_game(game["mode"], [(UUID(r["player_id"]), r["outcome"]) for r in result], current)
        for pid, (mu, sigma) in new.items():
            if pid == THE_GAME:
                continue
            row = rows[str(pid)]
            old = row["rating"] or {"rated_games": 0}
            row["rating"] = {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma), "rated_games": old["rated_games"] + 1}
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
        "defaults": {"mu": MODEL.mu, "sigma": MODEL.sigma},
    }
