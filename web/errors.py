"""Every error is JSON under /api (HTML elsewhere) and names what was wrong; never a 500 for a caller's mistake."""
from __future__ import annotations

import html

import psycopg
from eventsourcing import persistence
from flask import Flask, jsonify, render_template, request
from flask_limiter.errors import RateLimitExceeded
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, SecurityError

from service import hygiene
from service.errors import ArchiveError
from service.i18n import N_, _
from service.schemas import flatten_errors
from web.breaker import CircuitOpen
from web.breaker import install as install_breaker
from web.posture import retry_after

# Connection-level failures: the library's wrappers and psycopg's own (a pool timeout is one).
DATABASE_DOWN = (persistence.OperationalError, persistence.InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
RETRY_AFTER_DOWN = "5"


def _wants_json() -> bool:
    return request.path.startswith("/api")


def check_request_text() -> None:
    """Query and path parameters go through the same hygiene as bodies (NUL, surrogates, length)."""
    for key, value in request.args.items(multi=True):
        hygiene.check_text(key, "query", hygiene.MAX_QUERY)
        hygiene.check_text(value, key, hygiene.MAX_QUERY)
    for key, value in (request.view_args or {}).items():
        if isinstance(value, str):
            hygiene.check_text(value, key, hygiene.MAX_QUERY)


# Headers an error response keeps from werkzeug's exception (405 must say what is allowed).
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")


def _unreachable(e: Exception) -> bool:
    """A lost server (no SQLSTATE, class 08, or shut down) rather than a busy one (lock timeout, cancel)."""
    cause = e.__cause__ if isinstance(e, persistence.PersistenceError) and e.__cause__ else e
    state = getattr(cause, "sqlstate", None)
    return state is None or state.startswith("08") or state in {"57P01", "57P02", "57P03"}


def register_error_handlers(app: Flask) -> None:
    app.before_request(check_request_text)
    install_breaker(app)

    @app.errorhandler(ArchiveError)
    def archive_error(e: ArchiveError):
        headers = {"Retry-After": str(e.details.get("retry_after", 1))} if e.status == 503 else {}
        if _wants_json():
            return jsonify(e.as_dict()), e.status, headers
        return render_template("error.html", status=e.status, message=e.message), e.status, headers

    @app.errorhandler(ValidationError)
    def validation_error(e: ValidationError):
        fields = flatten_errors(e.messages)
        first = next(iter(fields.items()))
        body = {"error": "InvalidInput", "message": f"{first[0]}: {first[1][0]}", "fields": fields}
        return jsonify(body), 400

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        headers = {k: v for k, v in e.get_headers() if k in _KEPT_HEADERS}
        if _wants_json():
            message = e.description or e.name
            if e.code == 400 and "JSON" in (e.description or ""):
                message = "the request body is not valid JSON"
            if e.code == 413:
                limit = app.config.get("MAX_CONTENT_LENGTH") or hygiene.MAX_BODY_BYTES
                message = f"the request body is larger than {limit:,} bytes; send fewer facts per request"
            return jsonify({"error": e.name.replace(" ", ""), "message": message}), e.code, headers
        return render_template("error.html", status=e.code, message=e.description), e.code, headers

    def database_down(e: Exception):
        if isinstance(e, CircuitOpen):
            unreachable = True  # found so moments ago: not asked again (web/breaker.py)
        else:
            app.logger.warning("database unavailable for %s %s: %s", request.method, request.path, e)
            unreachable = _unreachable(e)
            if unreachable:
                app.extensions["db_breaker"].failed()
        if unreachable:
            reason = N_("the database is unreachable; try again shortly")
        else:
            reason = N_("the database is too busy to answer in time; try again shortly")
        write = N_(" (a write retried with the same command_id is never stored twice)") \
            if request.method not in ("GET", "HEAD") else ""
        message = reason + write
        headers = {"Retry-After": RETRY_AFTER_DOWN}
        if _wants_json():
            return jsonify({"error": "DatabaseUnavailable", "message": message}), 503, headers
        return render_template("error.html", status=503, message=_(reason) + _(write)), 503, headers

    for exc in (*DATABASE_DOWN, CircuitOpen):
        app.register_error_handler(exc, database_down)

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(e: RateLimitExceeded):
        wait = retry_after()
        message = f"too many writes from this address to this game (at most {e.description}); try again in {wait} s"
        headers = {"Retry-After": str(wait)}
        if _wants_json():
            return jsonify({"error": "TooManyRequests", "message": message, "limit": e.description}), 429, headers
        shown = _("too many writes from this address to this game (at most %(limit)s); try again in %(s)s s") % {
            "limit": e.description, "s": wait}
        return render_template("error.html", status=429, message=shown), 429, headers

    @app.errorhandler(SecurityError)
    def untrusted_host(e: SecurityError):
        # No URL can be built for an untrusted host, so no template: a plain answer.
        host = request.environ.get("HTTP_HOST", "")
        message = (f"this server does not answer to host {host!r}; its operator can add the name with"
                   " `nemesis-archive serve --trusted-host NAME` (or NEMESIS_TRUSTED_HOSTS)")
        if _wants_json():
            return jsonify({"error": "UntrustedHost", "message": message}), 400
        body = f"<!doctype html><title>400 · Nemesis Archive</title><h1>400</h1><p>{html.escape(message)}</p>"
        return body, 400, {"Content-Type": "text/html; charset=utf-8"}
