"""Every error is JSON under /api (HTML elsewhere) and names what was wrong; never a 500 for a caller's mistake."""
from __future__ import annotations

import html

import psycopg
from eventsourcing import persistence
from flask import Flask, jsonify, render_template, request
from flask_limiter.errors import RateLimitExceeded
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, SecurityError

from service.errors import ArchiveError
from service.schemas import flatten_errors
from web.posture import retry_after

# Connection-level failures: the library's wrappers and psycopg's own (a pool timeout is one).
DATABASE_DOWN = (persistence.OperationalError, persistence.InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
RETRY_AFTER_DOWN = "5"


def _wants_json() -> bool:
    return request.path.startswith("/api")


def _unreachable(e: Exception) -> bool:
    """A lost server (no SQLSTATE, class 08, or shut down) rather than a busy one (lock timeout, cancel)."""
    cause = e.__cause__ if isinstance(e, persistence.PersistenceError) and e.__cause__ else e
    state = getattr(cause, "sqlstate", None)
    return state is None or state.startswith("08") or state in {"57P01", "57P02", "57P03"}


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ArchiveError)
    def archive_error(e: ArchiveError):
        if _wants_json():
            return jsonify(e.as_dict()), e.status
        return render_template("error.html", status=e.status, message=e.message), e.status

    @app.errorhandler(ValidationError)
    def validation_error(e: ValidationError):
        fields = flatten_errors(e.messages)
        first = next(iter(fields.items()))
        body = {"error": "InvalidInput", "message": f"{first[0]}: {first[1][0]}", "fields": fields}
        return jsonify(body), 400

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if _wants_json():
            message = e.description or e.name
            if e.code == 400 and "JSON" in (e.description or ""):
                message = "the request body is not valid JSON"
            return jsonify({"error": e.name.replace(" ", ""), "message": message}), e.code
        return render_template("error.html", status=e.code, message=e.description), e.code

    def database_down(e: Exception):
        app.logger.warning("database unavailable for %s %s: %s", request.method, request.path, e)
        if _unreachable(e):
            message = "the database is unreachable; try again shortly"
        else:
            message = "the database is too busy to answer in time; try again shortly"
        if request.method not in ("GET", "HEAD"):
            message += " (a write retried with the same command_id is never stored twice)"
        headers = {"Retry-After": RETRY_AFTER_DOWN}
        if _wants_json():
            return jsonify({"error": "DatabaseUnavailable", "message": message}), 503, headers
        return render_template("error.html", status=503, message=message), 503, headers

    for exc in DATABASE_DOWN:
        app.register_error_handler(exc, database_down)

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(e: RateLimitExceeded):
        wait = retry_after()
        message = f"too many writes from this address to this game (at most {e.description}); try again in {wait} s"
        headers = {"Retry-After": str(wait)}
        if _wants_json():
            return jsonify({"error": "TooManyRequests", "message": message, "limit": e.description}), 429, headers
        return render_template("error.html", status=429, message=message), 429, headers

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
