"""Sign in, sign out, a club's roles page for its admins (decision 0024), and one's own account page
(decision 0033): change the password, list, create and revoke one's API tokens, see one's club roles."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, render_template, request, url_for
from werkzeug.exceptions import Forbidden, NotFound

from service.errors import ArchiveError, InvalidInput
from service.accounts import MIN_PASSWORD
from service.i18n import N_, _
from service.league import ROLES, clean_name, club_id_for

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


def _roles_page(slug: str, club, error=None, status=200, unknown=None, role=None):
    """``unknown``: a name to grant ``role`` to that nobody registered; the page asks before registering it."""
    registry = current_app.config["ARCHIVE"].leagues.registry()
    rows = sorted(((registry.players.get(pid, {}).get("name", str(pid)), held) for pid, held in club.roles),
                  key=lambda r: (r[0].casefold(), ROLES.index(r[1])))
    known = sorted((p["name"] for p in registry.players.values() if p["merged_into"] is None), key=str.casefold)
    return render_template("club_roles.html", club=club, slug=slug, rows=rows, roles=ROLES, error=error,
                           known=known, unknown=unknown, role=role), status


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
        elif action == "register":  # the organiser said yes to registering a new name (below)
            book.grant_role(slug, player, role, register=True)
        elif player and book.registry().find(player) is None:
            clean_name(player, "player")  # a name that could never be registered is refused now, not after asking
            return _roles_page(slug, club, unknown=player, role=role)  # ask first: a typo must not become a player
        else:
            book.grant_role(slug, player, role)
    except ArchiveError as e:
        return _roles_page(slug, club, error=e.message, status=e.status)
    return redirect(url_for("auth.club_roles", slug=slug), 303)


# -- one's own account (decision 0033) ------------------------------------------------------------------


def _me():
    """The signed-in account, or None (the routes send the sign-in page instead)."""
    from web.auth import current

    return current()


def _my_roles(account) -> list[dict]:
    """The clubs where the account's player holds a role, with those roles (the club's admins see its roles page)."""
    from web.auth import _clubs

    if account.player_id is None:
        return []
    rows = []
    for club in _clubs():
        held = club.roles_of(account.player_id)
        if held:
            rows.append({"name": club.name, "slug": club.slug, "roles": [r for r in ROLES if r in held],
                         "admin": "admin" in held})
    return sorted(rows, key=lambda r: r["name"].casefold())


def _account_page(account, *, status=200, error=None, where=None, new_token=None, done=None):
    accounts = current_app.config["ARCHIVE"].accounts
    tokens = [t for t in accounts.tokens(account.username) if t["revoked_at"] is None]
    response = current_app.make_response((render_template(
        "account.html", account=account, tokens=tokens, roles=_my_roles(account), error=error, min_password=MIN_PASSWORD,
        where=where, new_token=new_token, done=done), status))
    response.headers["Cache-Control"] = "no-store"  # a new token is on this page once: never cached
    return response


def _said(error: ArchiveError) -> str:
    """What went wrong, in the reader's language (the service's messages are English, one per field)."""
    from service.hygiene import MAX_NAME

    field = error.details.get("field")
    if field == "old_password":
        return _("the current password is not right")
    if field == "new_password":
        return _("the new password needs at least %(n)s characters") % {"n": MIN_PASSWORD}
    if field == "label":
        return _("name the token (what will use it: a script, a tablet), in plain text of at most %(n)s characters") % {
            "n": MAX_NAME}
    return error.message


def _signed_in_or_redirect():
    account = _me()
    if account is None:
        return None, redirect(url_for("auth.sign_in", next=url_for("auth.account")), 303)
    return account, None


@pages.get("/account")
def account():
    me, away = _signed_in_or_redirect()
    if away:
        return away
    done = {"password": _("Your password is changed; your other sign-ins have ended."),
            "revoked": _("The token is revoked: it no longer works.")}.get(request.args.get("done", ""))
    return _account_page(me, done=done)


@pages.post("/account/password")
def account_password():
    from web.auth import SESSION_COOKIE

    me, away = _signed_in_or_redirect()
    if away:
        return away
    old, new, again = (request.form.get(k, "")[:1001] for k in ("old_password", "new_password", "new_password_again"))
    if new != again:
        return _account_page(me, status=400, error=_("the two new passwords differ: type the same one twice"),
                             where="password")
    try:
        current_app.config["ARCHIVE"].accounts.change_password(me.account_id, old, new,
                                                              keep_session=request.cookies.get(SESSION_COOKIE))
    except ArchiveError as e:
        return _account_page(me, status=e.status, error=_said(e), where="password")
    return redirect(url_for("auth.account", done="password"), 303)


@pages.post("/account/tokens")
def account_token_new():
    me, away = _signed_in_or_redirect()
    if away:
        return away
    label = request.form.get("label", "").strip()[:200]
    try:
        if not label:
            raise InvalidInput("a token needs a name", field="label")
        _token_id, secret = current_app.config["ARCHIVE"].accounts.issue_token(me.username, label)
    except ArchiveError as e:
        return _account_page(me, status=e.status, error=_said(e), where="token")
    return _account_page(me, status=201, new_token={"label": " ".join(label.split()), "secret": secret})


@pages.post("/account/tokens/<token_id>/revoke")
def account_token_revoke(token_id: str):
    from uuid import UUID

    me, away = _signed_in_or_redirect()
    if away:
        return away
    try:
        tid = UUID(token_id)
    except ValueError:
        raise NotFound(_("no token %(id)s") % {"id": token_id[:40]}) from None
    if not current_app.config["ARCHIVE"].accounts.revoke_token(tid, account_id=me.account_id):
        raise NotFound(_("no token %(id)s") % {"id": tid})  # another's token, or one already revoked
    return redirect(url_for("auth.account", done="revoked"), 303)


__all__ = ["pages", "g"]
