"""Statistics doors (decision 0025): pages with charts and tables, CSV of every table, charts as SVG, JSON.

Overall at ``/statistics/<section>``, per league at ``/leagues/<club>/<league>/statistics/<section>``;
both take ``?season=`` (league only), ``?mode=`` and ``?players=``. A player's profile is
``/statistics/players/<player id>``. The JSON twins live under ``/api``.
"""
from __future__ import annotations

import csv
import io
from typing import Any, Callable

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from werkzeug.exceptions import NotFound

from projections import statistics_queries as sq
from service.errors import InvalidInput
from service.i18n import N_, _
from service.rules.registry import DEATH_CAUSES, ROUTES, shown
from web import charts
from web.league import _slug

stats = Blueprint("stats", __name__)
stats_api = Blueprint("stats_api", __name__)

SECTION_TITLES = {"characters": N_("Characters"), "deaths": N_("Deaths"), "escapes": N_("Escapes"),
                  "combat": N_("Kills"), "rooms": N_("Rooms")}
MODE_NAMES = {"standard": N_("Semi-co-op"), "coop": N_("Co-op"), "solo": N_("Solo")}


def _none() -> str:
    return _("none")


def _cause(v: str | None, short: bool = False) -> str:
    if v is None:
        return _none()
    if v.startswith("contingency:"):  # a chart's label names the plan alone
        plan = shown("contingency", v.split(":", 1)[1])
        return plan if short else f"{_('Contingency plan')}: {plan}"
    return _(DEATH_CAUSES[v]) if v in DEATH_CAUSES else v


def _round(v) -> str:
    return _("never") if v is None else str(v)


def _weapon(v: str | None) -> str:
    if v is None:
        return _("an effect")
    return _("melee") if v == "melee" else shown("item", v, v)


def _percent(v) -> str:
    return "–" if v is None else f"{100 * v:.0f}%"


# per table: (title, label of its key, how a key is named, [(column, heading, format)], chart)
Column = tuple[str, str, Callable[[Any], str] | None]
RATES = [("games", N_("Games"), None), ("wins", N_("Wins"), None), ("wins_rate", N_("Win rate"), _percent),
         ("survived", N_("Survived"), None), ("survived_rate", N_("Survival rate"), _percent),
         ("rounds", N_("Average rounds survived"), None)]
TABLES: dict[str, dict[str, Any]] = {
    "characters": {"title": N_("Win and survival rate by character"), "key": N_("Character"),
                   "name": lambda v: shown("character", v) if v else _("not chosen"), "columns": RATES,
                   "chart": ("wins_rate", N_("Win rate by character"), True)},
    "objectives": {"title": N_("By objective"), "key": N_("Objective"), "name": lambda v: shown("objective", v),
                   "columns": RATES},
    "plans": {"title": N_("By contingency plan"), "key": N_("Contingency plan"),
              "name": lambda v: shown("contingency", v), "columns": RATES},
    "death_causes": {"title": N_("Death causes"), "key": N_("Cause"), "name": _cause,
                     "short": lambda v: _cause(v, short=True),
                     "columns": [("deaths", N_("Deaths"), None), ("round", N_("Average round"), None)],
                     "chart": ("deaths", N_("Death causes"), False)},
    "rounds_survived": {"title": N_("Rounds survived"), "key": N_("Rounds"), "name": str,
                        "columns": [("characters", N_("Characters"), None), ("died", N_("Of them dead"), None)]},
    "first_death": {"title": N_("Round of the first death"), "key": N_("Round"), "name": _round,
                    "columns": [("games", N_("Games"), None)]},
    "power_lost": {"title": N_("Round the power was first lost"), "key": N_("Round"), "name": _round,
                   "columns": [("games", N_("Games"), None)]},
    "blackout": {"title": N_("Round the whole base went dark"), "key": N_("Round"), "name": _round,
                 "columns": [("games", N_("Games"), None)]},
    "routes": {"title": N_("Escape routes and their success"), "key": N_("Route"), "name": lambda v: _(ROUTES.get(v, v)),
               "columns": [("tried", N_("Characters"), None), ("survived", N_("Survived"), None),
                           ("survived_rate", N_("Survival rate"), _percent), ("wins", N_("Wins"), None),
                           ("wins_rate", N_("Win rate"), _percent)]},
    "kills": {"title": N_("Intruders killed by type"), "key": N_("Intruder"), "name": lambda v: shown("intruder", v),
              "columns": [("kills", N_("Kills"), None)], "chart": ("kills", N_("Intruders killed"), False)},
    "weapons": {"title": N_("Intruders killed by weapon"), "key": N_("Weapon"), "name": _weapon,
                "columns": [("kills", N_("Kills"), None)]},
    "rooms": {"title": N_("The most dangerous rooms"), "key": N_("Room"),
              "name": lambda v: _("unknown room") if v in (None, "unknown") else shown("room", v),
              "columns": [("deaths", N_("Deaths"), None), ("wounds", N_("Wounds"), None), ("attacks", N_("Attacks"), None)]},
}


def _db():
    return current_app.config["ARCHIVE"].db


def _scope(club: str | None = None, league: str | None = None) -> sq.Scope:
    args = request.args
    mode = args.get("mode") or None
    if mode is not None and mode not in sq.MODES:
        raise InvalidInput(f"mode must be one of {', '.join(sq.MODES)}, not {mode[:20]!r}", field="mode")
    players = args.get("players") or None
    if players is not None:
        if not (players.isascii() and players.isdigit()) or not 1 <= int(players) <= 5:
            raise InvalidInput(f"players must be a number 1–5, not {players[:20]!r}", field="players")
        players = int(players)
    season = args.get("season") or None
    if season is not None:
        if league is None:
            raise InvalidInput("season needs a league: use /leagues/<club>/<league>/statistics", field="season")
        _slug(season, "season")
    if club is not None:
        _slug(club, "club"), _slug(league, "league")
    from web.auth import hidden_games

    return sq.Scope(club, league, season, mode, players, tuple(hidden_games()))


def _section(name: str, scope: sq.Scope) -> dict[str, Any]:
    try:
        return sq.section(_db(), name, scope)
    except sq.NotFound as e:
        raise NotFound(str(e)) from None


def _filters(scope: sq.Scope) -> dict[str, Any]:
    return {k: v for k, v in (("season", scope.season), ("mode", scope.mode), ("players", scope.players)) if v}


def _url(endpoint: str, scope: sq.Scope, **kw) -> str:
    where = {"club": scope.club, "league_slug": scope.league} if scope.league else {}
    return url_for(("stats.league_" if scope.league else "stats.") + endpoint, **where, **kw, **_filters(scope))


def _shown(key: str, rows: list[dict]) -> dict[str, Any]:
    spec = TABLES[key]
    cols = spec["columns"]
    return {
        "key": key, "title": _(spec["title"]), "key_label": _(spec["key"]),
        "headings": [_(h) for _c, h, _f in cols],
        "rows": [{"name": spec["name"](r["key"]), "cells": [(f or _plain)(r[c]) for c, _h, f in cols]} for r in rows],
    }


def _plain(v) -> str:
    return "–" if v is None else str(v)


def _page(name: str, scope: sq.Scope):
    data = _section(name, scope)
    tables = []
    for key, rows in data["tables"].items():
        t = _shown(key, rows)
        t["csv"] = _url("table_csv", scope, section=name, table=key)
        if "chart" in TABLES[key] and rows:
            t["chart"] = _url("table_svg", scope, section=name, table=key)
            t["chart_title"] = _(TABLES[key]["chart"][1])
        tables.append(t)
    sections = [(s, _(title), _url("section_page", scope, section=s)) for s, title in SECTION_TITLES.items()]
    seasons = []
    if scope.league:
        from projections import league_queries as lq
        for c in lq.clubs(_db()):
            for lg in c["leagues"]:
                if c["slug"] == scope.club and lg["slug"] == scope.league:
                    seasons = [(s["slug"], s["name"]) for s in lg["seasons"]]
    return render_template("stats.html", data=data, tables=tables, section=name, sections=sections, scope=scope,
                           seasons=seasons, modes=[(m, _(n)) for m, n in MODE_NAMES.items()],
                           title=_(SECTION_TITLES[name]))


def _csv(name: str, table: str, scope: sq.Scope) -> Response:
    if table not in sq.SECTIONS.get(name, ()):
        raise NotFound(f"no table {table!r} in section {name!r}")
    rows = _section(name, scope)["tables"][table]
    spec = TABLES[table]
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["key", _(spec["key"]), *[c for c, _h, _f in spec["columns"]]])
    for r in rows:
        w.writerow([r["key"] if r["key"] is not None else "", spec["name"](r["key"]), *[r[c] for c, _h, _f in spec["columns"]]])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{table}.csv"'
    return response


def _svg(name: str, table: str, scope: sq.Scope) -> Response:
    if table not in sq.SECTIONS.get(name, ()) or "chart" not in TABLES[table]:
        raise NotFound(f"no chart of {table!r} in section {name!r}")
    rows = _section(name, scope)["tables"][table]
    column, title, percent = TABLES[table]["chart"]
    spec = TABLES[table]
    values = [(100 * r[column] if percent else r[column]) or 0 for r in rows]
    name = spec.get("short", spec["name"])
    return charts.response(charts.bars(_(title), [name(r["key"]) for r in rows], values, percent=percent))


# -- overall ---------------------------------------------------------------------------------------


@stats.get("/statistics")
def index():
    return section_page("characters")


@stats.get("/statistics/<section>")
def section_page(section: str):
    if section not in sq.SECTIONS:
        raise NotFound(f"no statistics section {section!r}")
    return _page(section, _scope())


@stats.get("/statistics/<section>/<table>.csv")
def table_csv(section: str, table: str):
    return _csv(section, table, _scope())


@stats.get("/statistics/<section>/<table>.svg")
def table_svg(section: str, table: str):
    return _svg(section, table, _scope())


# -- per league --------------------------------------------------------------------------------------


@stats.get("/leagues/<club>/<league_slug>/statistics")
def league_index(club: str, league_slug: str):
    return league_section_page(club, league_slug, "characters")


@stats.get("/leagues/<club>/<league_slug>/statistics/<section>")
def league_section_page(club: str, league_slug: str, section: str):
    if section not in sq.SECTIONS:
        raise NotFound(f"no statistics section {section!r}")
    return _page(section, _scope(club, league_slug))


@stats.get("/leagues/<club>/<league_slug>/statistics/<section>/<table>.csv")
def league_table_csv(club: str, league_slug: str, section: str, table: str):
    return _csv(section, table, _scope(club, league_slug))


@stats.get("/leagues/<club>/<league_slug>/statistics/<section>/<table>.svg")
def league_table_svg(club: str, league_slug: str, section: str, table: str):
    return _svg(section, table, _scope(club, league_slug))


# -- a player's profile ------------------------------------------------------------------------------


def _profile(player_id: str) -> dict[str, Any]:
    from web.auth import hidden_games, hidden_leagues

    try:
        return sq.profile(_db(), player_id, exclude=hidden_games(), hidden_leagues=list(hidden_leagues()))
    except sq.NotFound as e:
        raise NotFound(str(e)) from None


@stats.get("/statistics/players/<player_id>")
def player_profile(player_id: str):
    p = _profile(player_id)
    characters = _shown("characters", p["characters"])
    characters["csv"] = url_for("stats.profile_csv", player_id=p["player_id"], table="characters")
    killers = {"title": _("Killed by"), "key_label": _("Intruder"), "headings": [_("Deaths")],
               "rows": [{"name": shown("intruder", k["key"]), "cells": [str(k["deaths"])]} for k in p["killers"]],
               "csv": url_for("stats.profile_csv", player_id=p["player_id"], table="killers")}
    ratings = [{"title": f"{s['league']} · {s['season']}",
                "rows": [{"name": r["played_on"], "cells": [f"{r['ordinal']:.1f}", f"{r['mu']:.1f}", f"{r['sigma']:.1f}"]}
                         for r in s["points"]]} for s in p["ratings"]]
    return render_template("stats_player.html", p=p, characters=characters, killers=killers, ratings=ratings,
                           nemesis=", ".join(shown("intruder", k) for k in p["nemesis"]),
                           name_of=lambda kind, v: shown(kind, v) if v else "–", cause=_cause, route=lambda v: _(ROUTES.get(v, v)) if v else "–")


@stats.get("/statistics/players/<player_id>/<table>.csv")
def profile_csv(player_id: str, table: str):
    p = _profile(player_id)
    out = io.StringIO()
    w = csv.writer(out)
    if table == "characters":
        w.writerow(["key", _("Character"), "games", "wins", "wins_rate", "survived", "survived_rate"])
        for r in p["characters"]:
            w.writerow([r["key"] or "", shown("character", r["key"]) if r["key"] else "", r["games"], r["wins"],
                        r["wins_rate"], r["survived"], r["survived_rate"]])
    elif table == "killers":
        w.writerow(["key", _("Intruder"), "deaths"])
        for r in p["killers"]:
            w.writerow([r["key"], shown("intruder", r["key"]), r["deaths"]])
    elif table == "ratings":
        w.writerow(["league", "season", "game_id", "played_on", "mu", "sigma", "ordinal"])
        for s in p["ratings"]:
            for r in s["points"]:
                w.writerow([s["league"], s["season"], r["game_id"], r["played_on"], r["mu"], r["sigma"], r["ordinal"]])
    else:
        raise NotFound(f"no table {table!r} on a player's profile")
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{table}.csv"'
    return response


@stats.get("/statistics/players/<player_id>/ratings.svg")
def profile_ratings_svg(player_id: str):
    p = _profile(player_id)
    if not p["ratings"]:
        raise NotFound("no rated games")
    dates = sorted({r["played_on"] for s in p["ratings"] for r in s["points"]})
    series = []
    for s in p["ratings"]:
        last: dict[str, float] = {}
        for r in s["points"]:
            last[r["played_on"]] = r["ordinal"]  # the rating at the end of each day
        series.append((f"{s['league']} · {s['season']}", [last.get(d) for d in dates]))
    return charts.response(charts.lines(_("Rating (μ − 3σ) after each game day"), series, dates))


# -- JSON -----------------------------------------------------------------------------------------------


@stats_api.get("/statistics/<section>")
def api_section(section: str):
    return jsonify(_section(section, _scope()))


@stats_api.get("/clubs/<club>/leagues/<league_slug>/statistics/<section>")
def api_league_section(club: str, league_slug: str, section: str):
    return jsonify(_section(section, _scope(club, league_slug)))


@stats_api.get("/players/<player_id>/profile")
def api_profile(player_id: str):
    return jsonify(_profile(player_id))


# -- what a pending game would change (issue 9, item 5) -------------------------------------------------------


def _preview(club: str, league_slug: str, season: str, game_id: str) -> dict[str, Any]:
    from projections.league_preview import preview

    _slug(club, "club"), _slug(league_slug, "league"), _slug(season, "season")
    chosen = {}
    for key, value in request.args.items():
        if key.startswith("seat") and key[4:].isascii() and key[4:].isdigit() and value:
            chosen[int(key[4:])] = value
        elif key.startswith("seat"):
            raise InvalidInput(f"{key[:20]!r}: a seat's result is given as seatN=won or seatN=lost", field=key[:20])
    try:
        return preview(_db(), club, league_slug, season, game_id, chosen)
    except sq.NotFound as e:
        raise NotFound(str(e)) from None
    except ValueError as e:
        raise InvalidInput(str(e), field="seat") from None


@stats.get("/leagues/<club>/<league_slug>/<season>/preview/<game_id>")
def preview_page(club: str, league_slug: str, season: str, game_id: str):
    p = _preview(club, league_slug, season, game_id)
    return render_template("league_preview.html", p=p)


@stats_api.get("/clubs/<club>/leagues/<league_slug>/seasons/<season>/preview/<game_id>")
def api_preview(club: str, league_slug: str, season: str, game_id: str):
    return jsonify(_preview(club, league_slug, season, game_id))
