"""Who is asking, and may they: sign-in sessions, API tokens, and one place that checks rights (decision 0024).

Every request is looked at once, before its route runs (:func:`guard`), by endpoint name:

- ``WRITE_GAME`` endpoints (append facts, the recorder and its panel/preview) need an account that
  may write that game (:func:`can_write_game`); ``NEW_GAME`` endpoints (the new-game form, creating,
  importing) need one that may write in the league the header names (none named: anyone who records).
- Reads of a game or a league's tables answer 404 — not 403 — to whoever may not see a members-only
  league (:func:`can_read_league`), so its existence does not leak.

Unsigned: the API answers 401 with ``WWW-Authenticate: Bearer``; a page redirects to the sign-in page
(a GET) or answers 401 with a link to it. Signed in without the right: 403 naming the role needed.

How a request proves who it is: ``Authorization: Bearer <token>`` (an API token, CLI-issued; no CSRF
asked, a browser never adds that header by itself), or the ``nemesis_session`` cookie set by the
sign-in form (HttpOnly, SameSite=Lax; every write it authorises needs the CSRF token, the API's
included — web/csrf.py).
"""
from __future__ import annotations

import time
from typing import Any
from uuid import UUID

from flask import Flask, current_app, g, redirect, request, url_for
from werkzeug.exceptions import Forbidden, NotFound, Unauthorized

from projections import league_queries as lq
from service import hygiene
from service.accounts import WRITE_ROLES, Account
from service.errors import ArchiveError
from service.i18n import N_, _
from service.league import name_key
from service.readpool import read_rows

SESSION_COOKIE = "nemesis_session"
SESSION_MAX_AGE = 30 * 24 * 3600

WRITE_GAME = frozenset({"api.append_facts", "record.recorder", "record.panel", "record.preview", "record.offer_form"})
NEW_GAME = frozenset({"api.create_game", "record.new_game", "record.create_game", "record.import_game"})
READ_GAME = frozenset({
    "api.get_game", "api.get_facts", "api.get_state", "api.export_game",
    "replay.game", "replay.game_step", "replay.game_step_panel", "replay.game_step_board", "replay.game_step_details",
})
READ_LEAGUE = frozenset({
    "league.season_page", "league.player_page", "league_api.api_standings", "league_api.api_ratings",
    "league.season_ratings_svg", "league.season_ratings_csv",
    "stats.league_index", "stats.league_section_page", "stats.league_table_csv", "stats.league_table_svg",
    "stats_api.api_league_section", "stats.preview_page", "stats_api.api_preview",
})
PREVIEW = frozenset({"stats.preview_page", "stats_api.api_preview"})  # name a game too: it must be readable
SITE_ADMIN = frozenset({"admin.status"})  # the operator's page: parked events name games and quote their data


class SignInNeeded(Unauthorized):
    """No account: 401 (the API) or the sign-in page (a page)."""

    def get_headers(self, environ=None, scope=None):
        return [*super().get_headers(environ, scope), ("WWW-Authenticate", 'Bearer realm="nemesis-archive"')]


_UNSET = object()


def current(game=None) -> Account | None:
    """Who is asking (None: nobody signed in), looked up on first use and kept for the request.

    A read that never asks costs no lookup; a bad token is refused wherever an account is asked for. ``game``:
    the game the request writes to, whose placement is read on the same connection (decision 0052)."""
    account = g.get("account", _UNSET)
    if account is _UNSET:
        g.account = None  # an error page drawn after a refused token asks again: nobody
        account = g.account = _load_account(game)
    return account


def shown_account() -> Account | None:
    """Who the page header names: never an error of its own (an error page drawn because the database is
    down, or after a refused token, shows "Sign in" rather than failing again)."""
    import psycopg
    from eventsourcing.persistence import PersistenceError
    from werkzeug.exceptions import HTTPException

    try:
        return current()
    except (HTTPException, psycopg.Error, PersistenceError):
        return None


def _accounts():
    return getattr(current_app.config.get("ARCHIVE"), "accounts", None)


def _load_account(game=None) -> Account | None:
    """The account of a bearer token or of the session cookie (and ``game``'s placement, read with it)."""
    accounts = _accounts()
    if accounts is None:
        return None
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _sep, secret = header.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise SignInNeeded("the Authorization header must be 'Bearer <token>' (nemesis-archive token issue USER)")
        account = _look_up(accounts, "token", secret.strip(), game)
        if account is None:
            raise SignInNeeded("this API token is unknown or revoked; ask an admin for a new one")
        return account
    secret = request.cookies.get(SESSION_COOKIE)
    if secret:
        account = _look_up(accounts, "session", secret, game)
        g.stale_session = account is None
        return account
    return None


def _look_up(accounts, via: str, secret: str, game) -> Account | None:
    """The account of ``secret``; with a ``game``, its placement too, read on the same unchecked connection (a
    write's gate needs both before anything else: decision 0052)."""
    lookup = accounts.lookup_statement(via, secret)
    if lookup is None:
        return None
    if game is None:
        return accounts.run_lookup(lookup)
    statement, via = lookup
    leagues = current_app.config["ARCHIVE"].leagues
    rows, placement_rows = read_rows(accounts.db, [statement, leagues.placement_statement(game.id)])
    g.setdefault("placements", {})[game.id] = leagues.placement_of(game.id, placement_rows)
    return accounts.account_of(rows, via)


def _placement(game_id: UUID):
    """The game's placement, read once per request (perhaps already, with the account: decision 0052)."""
    known = g.setdefault("placements", {})
    if game_id not in known:
        known[game_id] = current_app.config["ARCHIVE"].leagues.placement(game_id)
    return known[game_id]


# -- where a game counts, and who may do what there --------------------------------------------------------


def _db():
    return current_app.config["ARCHIVE"].db


def _clubs():
    """Every club aggregate that has opened a league."""
    return [club for club in map(_club, lq.club_ids(_db())) if club is not None]


def _club(club_id: UUID):
    """The club to read (never to change), loaded once per request: the gate asks for the same club several times
    (decisions 0052, 0053)."""
    loaded = g.setdefault("clubs", {})
    if club_id not in loaded:
        loaded[club_id] = current_app.config["ARCHIVE"].leagues.club_to_read(club_id)
    return loaded[club_id]


def league_of_header(league: Any) -> tuple[UUID, UUID] | None:
    """(club id, league id) of the first-opened league of that name (decision 0020's rule), or None."""
    if not isinstance(league, str) or not league.strip():
        return None
    try:
        hygiene.check_text(league, "league", hygiene.MAX_LEAGUE)
    except ArchiveError:
        return None  # the route refuses it, naming the field
    return lq.league_named(_db(), name_key(league))


def league_of_game(game) -> tuple[UUID, UUID] | None:
    """Where ``game`` counts: its latest placement, else the league its header names (None: no league)."""
    placement = _placement(game.id)
    if placement.placed:
        if placement.season_id is None:
            return None
        # the placement names its club: one club loaded, not every club through the read model (decision 0052)
        club = _club(placement.club_id) if placement.club_id is not None else None
        for club in [club] if club is not None else _clubs():
            if placement.season_id in club.seasons:
                return club.id, club.seasons[placement.season_id]["league_id"]
        return None
    return league_of_header(game.league)


def records_somewhere(account: Account) -> bool:
    if account.site_admin:
        return True
    if account.player_id is None:
        return False
    return lq.holds_role(_db(), account.player_id, list(WRITE_ROLES))


def can_write_league(account: Account | None, where: tuple[UUID, UUID] | None) -> bool:
    """May ``account`` record in that league (None: a game outside every league)?"""
    if account is None:
        return False
    if account.site_admin:
        return True
    if where is None:
        return records_somewhere(account)
    club = _club(where[0])
    return club is not None and bool(club.roles_of(account.player_id) & WRITE_ROLES)


MEMBERS_ONLY_TTL = 5.0  # seconds a page may go on showing a league just made members-only


def members_only_leagues() -> frozenset[UUID]:
    """The members-only leagues, known again every few seconds: an archive without any (most) pays nothing
    on its reads, so the replay keeps its speed (decision 0015)."""
    cache = current_app.extensions.setdefault("members_only_leagues", {"at": float("-inf"), "ids": frozenset()})
    now = time.monotonic()
    if now - cache["at"] > MEMBERS_ONLY_TTL:
        ids = set()
        for club in _clubs():
            ids.update(lid for lid, league in club.leagues.items() if league.get("members_only"))
        cache.update(at=now, ids=frozenset(ids))
    return cache["ids"]


def can_read_league(account, where: tuple[UUID, UUID] | None) -> bool:
    """May ``account`` (or a callable giving it, asked only for a members-only league) see that league?"""
    if where is None:
        return True
    club = _club(where[0])
    if club is None or not club.leagues.get(where[1], {}).get("members_only"):
        return True
    if callable(account):
        account = account()
    if account is None:
        return False
    return account.site_admin or bool(club.roles_of(account.player_id))


def can_write(game) -> bool:
    """The one check every write to an existing game goes through."""
    return can_write_league(current(), league_of_game(game))


def can_read(game) -> bool:
    if not members_only_leagues():
        return True
    return can_read_league(current, league_of_game(game))


def hidden_leagues() -> set[UUID]:
    """Members-only leagues the asker may not see (empty for most archives: then nothing else is asked)."""
    if "hidden_leagues" in g:
        return g.hidden_leagues
    hidden: set[UUID] = set()
    if _accounts() is not None and members_only_leagues():
        for club in _clubs():
            for lid, league in club.leagues.items():
                if league.get("members_only") and not can_read_league(current, (club.id, lid)):
                    hidden.add(lid)
    g.hidden_leagues = hidden
    return hidden


def hidden_games() -> list[UUID]:
    """Games counting in a league the asker may not see (decisions 0024, 0033): lists leave them out, counts
    and statistics do not count them, their pages answer 404. Asked once per request."""
    if "hidden_games" not in g:
        hidden = hidden_leagues()
        g.hidden_games = lq.games_counting_in(_db(), list(hidden)) if hidden else []
    return g.hidden_games


def visible_clubs(clubs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The clubs list without the members-only leagues the asker may not see."""
    hidden = {str(lid) for lid in hidden_leagues()}
    if not hidden:
        return clubs
    return [{**c, "leagues": [l for l in c["leagues"] if l["id"] not in hidden]} for c in clubs]


# -- the gate --------------------------------------------------------------------------------------------


def _needs_sign_in():
    if request.blueprint not in ("api", "league_api") and request.method == "GET":
        return redirect(url_for("auth.sign_in", next=request.full_path.rstrip("?")), 303)
    raise SignInNeeded(_("recording needs signing in: sign in on the sign-in page, or send an API token"))


def _credential_sent() -> bool:
    return bool(request.headers.get("Authorization") or request.cookies.get(SESSION_COOKIE))


def _game_or_none(game_id: str):
    from service.errors import ArchiveError

    try:
        return current_app.config["ARCHIVE"].games.header(UUID(game_id))  # id and league: no round trip when cached
    except (ValueError, ArchiveError):
        return None  # the route itself names the bad id or the missing game


def _header_league() -> Any:
    if request.endpoint == "api.create_game":
        try:
            body = hygiene.loads(request.get_data(cache=True))
        except (ArchiveError, ValueError, RecursionError):
            return None  # the route refuses the body, naming what is wrong
        return body.get("league") if isinstance(body, dict) else None
    if request.endpoint == "record.create_game":
        return request.form.get("league")
    if request.endpoint == "record.import_game":
        upload = request.files.get("file")
        if upload is None:
            return None
        first = upload.stream.read(64 * 1024)
        upload.stream.seek(0)
        import json

        try:
            header = json.loads(first.decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0])
        except (ValueError, RecursionError):
            return None  # the import names the bad line
        return header.get("league") if isinstance(header, dict) else None
    return None


def guard():
    endpoint = request.endpoint
    if endpoint is None or request.routing_exception is not None or _accounts() is None:
        return None
    if endpoint in SITE_ADMIN:
        account = current()
        if account is None:
            return _needs_sign_in()
        if not account.site_admin:
            raise Forbidden(_("only a site admin may see the archive's status page (/healthz answers everyone)"))
        return None
    if endpoint in WRITE_GAME or endpoint in NEW_GAME:
        game = None
        if endpoint in WRITE_GAME and _credential_sent():  # nobody signed in: refused without reading the game
            game = _game_or_none((request.view_args or {}).get("game_id", ""))
        account = current(game)  # who asks, and where the game counts, on one connection (decision 0052)
        if account is None:
            return _needs_sign_in()
        if endpoint in WRITE_GAME:
            if game is None:
                return None
            where = league_of_game(game)
            if not can_read_league(account, where):
                raise NotFound(_("no game %(id)s") % {"id": game.id})
            if not can_write_league(account, where):
                raise Forbidden(_("only a recorder or an admin of this game's league may record in it"))
            return None
        where = league_of_header(_header_league())
        if not can_write_league(account, where):
            raise Forbidden(_("only a recorder or an admin of a club may start a game (in a league: of that league's club)"))
        return None
    if endpoint in READ_GAME:
        game = _game_or_none((request.view_args or {}).get("game_id", ""))
        if game is not None and not can_read(game):  # asks for the account only in a members-only league
            raise NotFound(_("no game %(id)s") % {"id": game.id})
    elif endpoint in READ_LEAGUE and members_only_leagues():
        args = request.view_args or {}
        from service.league import club_id_for

        club = _club(club_id_for(args.get("club", "")))
        if club is not None:
            for lid, league in club.leagues.items():
                if league["slug"] == args.get("league_slug") and not can_read_league(current, (club.id, lid)):
                    raise NotFound(_("no league %(league)s") % {"league": args.get("league_slug")})
        if endpoint in PREVIEW:  # a public season's preview of a members-only league's game shows that game
            game = _game_or_none(args.get("game_id", ""))
            if game is not None and not can_read(game):
                raise NotFound(_("no game %(id)s") % {"id": game.id})
    return None


def install(app: Flask) -> None:
    from web.accounts_pages import pages

    app.register_blueprint(pages)
    app.before_request(guard)
    app.jinja_env.globals["current_account"] = shown_account

    @app.after_request
    def forget_stale_session(response):
        if g.get("stale_session"):
            response.delete_cookie(SESSION_COOKIE, path="/")
        return response


__all__ = ["install", "can_write", "can_read", "current", "N_"]
