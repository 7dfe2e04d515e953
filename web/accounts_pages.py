"""Sign in, sign out, and a club's roles page for its admins (decision 0024)."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, render_template, request, url_for
from werkzeug.exceptions import Forbidden, NotFound

from service.errors import ArchiveError
from service.i18n import N_, _
from service.league import ROLES, club_id_for

pages = Blueprint("auth", __name__)
ROLE_NAMES = (N_("admin"), N_("recorder"), N_("member"))  # the roles page names them in the reader's language


def _safe_next(target: str | None) -> str:
    """Only a path on this site (never another host, never ``//host``)."""
    if not target or not target.startswith("/") or target.startswith("//") or urlsplit(target).netloc or "\\" in target:
        return url_for("replay.games")
    return target


@pages.get("/sign-in")
def sign_in():
    return render_template("sign_in.html", next=_safe_next(request.args.get("next")), error=None, username="")


@pages.post("/sign-in")
def sign_in_post():
    from web.auth import SESSION_COOKIE, SESSION_MAX_AGE

    username = request.form.get("username", "")[:200]
    password = request.form.get("password", "")[:1000]
    target = _safe_next(request.form.get("next"))
    secret = current_app.config["ARCHIVE"].accounts.sign_in(username, password) if username and password else None
    if secret is None:
        return render_template("sign_in.html", next=target, username=username,
                               error=_("that name and password do not match an account")), 401
    response = redirect(target, 303)
    response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_MAX_AGE, path="/", httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


@pages.post("/sign-out")
def sign_out():
    from web.auth import SESSION_COOKIE

    secret = request.cookies.get(SESSION_COOKIE)
    if secret:
        current_app.config["ARCHIVE"].accounts.sign_out(secret)
    response = redirect(url_for("replay.games"), 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _club_for_admin(slug: str):
    from web.auth import _club, current

    account = current()
    if account is None:
        return None
    club = _club(club_id_for(slug))
    if club is None:
        raise NotFound(_("no club %(club)s") % {"club": slug})
    if not (account.site_admin or "admin" in club.roles_of(account.player_id)):
        raise Forbidden(_("only an admin of this club may change its roles"))
    return club


def _roles_page(slug: str, club, error=None, status=200):
    registry = current_app.config["ARCHIVE"].leagues.registry()
    rows = sorted(((registry.players.get(pid, {}).get("name", str(pid)), role) for pid, role in club.roles),
                  key=lambda r: (r[0].casefold(), ROLES.index(r[1])))
    return render_template("club_roles.html", club=club, slug=slug, rows=rows, roles=ROLES, error=error), status


@pages.get("/clubs/<slug>/roles")
def club_roles(slug: str):
    club = _club_for_admin(slug)
    if club is None:
        return redirect(url_for("auth.sign_in", next=request.path), 303)
    return _roles_page(slug, club)


@pages.post("/clubs/<slug>/roles")
def club_roles_post(slug: str):
    club = _club_for_admin(slug)
    if club is None:
        return redirect(url_for("auth.sign_in", next=request.path), 303)
    player, role, action = request.form.get("player", "").strip(), request.form.get("role", ""), request.form.get("action")
    book = current_app.config["ARCHIVE"].leagues
    try:
        if role not in ROLES:
            raise Forbidden(_("choose a role"))
        if action == "revoke":
            book.revoke_role(slug, player, role)
        else:
            book.grant_role(slug, player, role)
    except ArchiveError as e:
        return _roles_page(slug, club, error=e.message, status=e.status)
    return redirect(url_for("auth.club_roles", slug=slug), 303)


__all__ = ["pages", "g"]
