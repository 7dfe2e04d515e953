"""League doors: the standings page (as of any date) and the league part of the JSON API (read-only).

Writes (clubs, leagues, seasons, players, placing games) go through ``nemesis-archive league …``
until accounts and rights exist (decision 0020): the API takes none yet.
"""
from __future__ import annotations

import re
from datetime import date

from flask import Blueprint, current_app, jsonify, render_template, request
from werkzeug.exceptions import NotFound

from projections import league_queries as lq
from service import hygiene
from service.errors import InvalidInput

league = Blueprint("league", __name__)
league_api = Blueprint("league_api", __name__)

SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
SEASON_GAMES_SHOWN = 50  # the season page lists its newest games only (a season may hold 10,000)


def _db():
    return current_app.config["ARCHIVE"].db


def _slug(value: str, field: str) -> str:
    if len(value) > 60 or not SLUG.fullmatch(value):
        raise InvalidInput(f"{field} {value[:60]!r} is not a slug (lower-case letters and digits joined by '-')", field=field)
    return value


def _as_of() -> date | None:
    value = request.args.get("as_of", "")
    if not value:
        return None
    try:
        return date.fromisoformat(value) if len(value) == 10 else _bad_date(value)
    except ValueError:
        return _bad_date(value)


def _bad_date(value: str):
    raise InvalidInput(f"as_of must be a date like 2026-03-01, not {value[:40]!r}", field="as_of")


def _season_args(club: str, league_slug: str, season: str) -> tuple[str, str, str]:
    return _slug(club, "club"), _slug(league_slug, "league"), _slug(season, "season")


# -- pages ------------------------------------------------------------------------------------------


@league.get("/leagues")
def leagues_page():
    from web.auth import visible_clubs

    return render_template("leagues.html", clubs=visible_clubs(lq.clubs(_db())))


@league.get("/leagues/<club>/<league_slug>/<season>")
def season_page(club: str, league_slug: str, season: str):
    args = _season_args(club, league_slug, season)
    error = None
    try:
        as_of = _as_of()
    except InvalidInput as e:
        as_of, error = None, e.message
    try:
        table = lq.standings(_db(), *args, as_of=as_of)
    except lq.NotFound as e:
        raise NotFound(str(e)) from None
    rated = any(r["rating"] for r in table["standings"])
    return render_template("league.html", t=table, rated=rated, games=lq.season_games(_db(), *args, limit=SEASON_GAMES_SHOWN, as_of=as_of),
                           shown=SEASON_GAMES_SHOWN, error=error,
                           as_of=request.args.get("as_of", "") if error else (as_of.isoformat() if as_of else ""))


@league.get("/leagues/<club>/<league_slug>/<season>/players/<player_id>")
def player_page(club: str, league_slug: str, season: str, player_id: str):
    from uuid import UUID

    args = _season_args(club, league_slug, season)
    try:
        UUID(player_id)
    except ValueError:
        raise NotFound(f"{player_id[:40]!r} is not a player id") from None
    as_of = _as_of()
    try:
        history = lq.rating_history(_db(), *args, player=player_id, as_of=as_of)
        table = lq.standings(_db(), *args, as_of=as_of)
    except lq.NotFound as e:
        raise NotFound(str(e)) from None
    row = next((r for r in table["standings"] if r["player_id"] == player_id), None)
    if row is None and not history["history"]:
        raise NotFound(f"player {player_id} has no games in this season")
    return render_template("league_player.html", t=table, h=history, row=row,
                           name=row["name"] if row else history["history"][-1]["name"])


def _season_ratings(club: str, league_slug: str, season: str) -> tuple[list[str], list[tuple[str, list]], dict]:
    """The season's ratings after each game day (as of ``?as_of=``): the dates, one series per player (their
    latest μ − 3σ on or before each date, None before their first rated game), and the history itself."""
    args = _season_args(club, league_slug, season)
    try:
        history = lq.rating_history(_db(), *args, as_of=_as_of())
    except lq.NotFound as e:
        raise NotFound(str(e)) from None
    from service.ratings import THE_GAME

    rows = [h for h in history["history"] if h["player_id"] != str(THE_GAME)]
    dates = sorted({h["played_on"] for h in rows})
    by_player: dict[str, dict[str, float]] = {}
    names: dict[str, str] = {}
    for h in rows:  # in game order: the last row of a day is the rating at its end
        by_player.setdefault(h["player_id"], {})[h["played_on"]] = h["ordinal"]
        names.setdefault(h["player_id"], h["name"])
    series = []
    for pid, points in by_player.items():
        last, values = None, []
        for d in dates:
            last = points.get(d, last)
            values.append(last)
        series.append((names[pid], values))
    series.sort(key=lambda s: -(s[1][-1] if s[1] and s[1][-1] is not None else -1e9))  # the legend in table order
    return dates, series, history


@league.get("/leagues/<club>/<league_slug>/<season>/ratings.svg")
def season_ratings_svg(club: str, league_slug: str, season: str):
    from service.i18n import _
    from web import charts

    dates, series, _history = _season_ratings(club, league_slug, season)
    if not dates:
        raise NotFound("no rated games in this season")
    return charts.response(charts.lines(_("Rating (μ − 3σ) after each game day"), series, dates))


@league.get("/leagues/<club>/<league_slug>/<season>/ratings.csv")
def season_ratings_csv(club: str, league_slug: str, season: str):
    import csv
    import io

    from flask import Response

    _dates, _series, history = _season_ratings(club, league_slug, season)
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["game_id", "played_on", "player_id", "name", "outcome", "mu_before", "sigma_before", "mu", "sigma",
                "ordinal"])
    for h in history["history"]:
        w.writerow([h[k] for k in ("game_id", "played_on", "player_id", "name", "outcome", "mu_before", "sigma_before",
                                   "mu", "sigma", "ordinal")])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="ratings-{season}.csv"'
    return response


# -- JSON API ---------------------------------------------------------------------------------------


@league_api.get("/clubs")
def api_clubs():
    club = request.args.get("club") or None
    if club is not None:
        _slug(club, "club")
    from web.auth import visible_clubs

    return jsonify({"clubs": [c for c in visible_clubs(lq.clubs(_db())) if club is None or c["slug"] == club]})


@league_api.get("/clubs/<club>/leagues/<league_slug>/seasons/<season>/standings")
def api_standings(club: str, league_slug: str, season: str):
    args = _season_args(club, league_slug, season)
    as_of = _as_of()
    try:
        return jsonify(lq.standings(_db(), *args, as_of=as_of))
    except lq.NotFound as e:
        raise NotFound(str(e)) from None


@league_api.get("/clubs/<club>/leagues/<league_slug>/seasons/<season>/ratings")
def api_ratings(club: str, league_slug: str, season: str):
    args = _season_args(club, league_slug, season)
    as_of = _as_of()
    player = request.args.get("player") or None
    if player is not None:
        hygiene.check_text(player, "player", hygiene.MAX_NAME)
    try:
        return jsonify(lq.rating_history(_db(), *args, player=player, as_of=as_of))
    except lq.NotFound as e:
        raise NotFound(str(e)) from None


@league_api.get("/player-registry")
def api_player_registry():
    name = request.args.get("name") or None
    if name is not None:
        hygiene.check_text(name, "name", hygiene.MAX_NAME)
    from web.auth import hidden_games

    found = lq.players(_db(), exclude=hidden_games())
    if name:
        key = name.casefold()
        found = [p for p in found if key in p["name"].casefold() or any(key in a.casefold() for a in p["aliases"])]
    return jsonify({"players": found})
