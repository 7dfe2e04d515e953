"""Cross-site request forgery: a double-submit token for the HTML forms and the pages' own scripts.

Every page gets a random token in an HttpOnly, ``SameSite=Strict`` cookie and the same token in the
page (``<meta name="csrf-token">`` and a hidden ``csrf_token`` field in each form). A write to a form
route must send the token back (form field or ``X-CSRF-Token`` header) equal to the cookie: another
site can make a browser post a form here, but it cannot read our page to learn the token.

The JSON API (``/api``) is used by scripts and keeps working for them without a token, whether or
not they keep cookies: it accepts only ``Content-Type: application/json`` bodies (a cross-site form
cannot send that without a CORS preflight, which this server never grants) and nothing in it is
authorised by a cookie — except a write signed by the sign-in session's cookie (decision 0024): that
one needs the token like a form. The recorder sends the header. Any write
that a browser marks ``Sec-Fetch-Site: cross-site`` is refused outright. A request no route takes
gets its 404/405 first. Decision 0017.
"""
from __future__ import annotations

import hmac
import re
import secrets

from flask import Flask, g, request
from werkzeug.exceptions import BadRequest, Forbidden

COOKIE = "nemesis_csrf"
HEADER = "X-CSRF-Token"
FIELD = "csrf_token"
MAX_AGE = 365 * 24 * 3600  # a tablet left on the club's shelf for months keeps its queue sendable
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}\Z")  # secrets.token_urlsafe(32)


class CsrfRefused(Forbidden):
    """A write without the page's token: 403 with a message saying what to do."""


def token() -> str:
    """This request's token (the cookie's, or a new one the response will set)."""
    if "csrf_token" not in g:
        sent = request.cookies.get(COOKIE, "")
        g.csrf_token = sent if _TOKEN.match(sent) else secrets.token_urlsafe(32)
        g.csrf_new = g.csrf_token != sent
    return g.csrf_token


def _matches(sent: str | None) -> bool:
    cookie = request.cookies.get(COOKIE, "")
    return bool(sent) and bool(_TOKEN.match(cookie)) and hmac.compare_digest(sent, cookie)


def _signed_by_cookie() -> bool:
    from web.auth import current

    account = current()
    return account is not None and account.via == "session"


def check() -> None:
    """Refuse a forged write; a no-op for reads and for the JSON API's scripts."""
    if request.method in SAFE or request.routing_exception is not None:
        return
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise CsrfRefused("a write from another site is refused (cross-site request)")
    if request.blueprint == "api" and not _signed_by_cookie():
        return  # JSON only, authorised by a token or nothing: see the module's docstring
    try:
        sent = request.headers.get(HEADER) or request.form.get(FIELD)
    except BadRequest:
        sent = None
    if not _matches(sent):
        raise CsrfRefused("the form's security token is missing or out of date: reload the page and send it again "
                          "(what you typed is still in the page if you go back)")


def install(app: Flask) -> None:
    app.before_request(check)
    app.jinja_env.globals["csrf_token"] = token

    @app.after_request
    def set_cookie(response):
        if g.get("csrf_new"):
            response.set_cookie(COOKIE, g.csrf_token, max_age=MAX_AGE, path="/", httponly=True, samesite="Strict",
                                secure=request.is_secure)
        return response
