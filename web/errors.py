"""Every error is JSON under /api (HTML elsewhere) and names what was wrong; never a 500 for a caller's mistake."""
from __future__ import annotations

import logging

import psycopg
from eventsourcing.persistence import OperationalError
from flask import Flask, jsonify, render_template, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from service import hygiene
from service.errors import ArchiveError
from service.schemas import flatten_errors


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


def register_error_handlers(app: Flask) -> None:
    app.before_request(check_request_text)

    @app.errorhandler(ArchiveError)
    def archive_error(e: ArchiveError):
        headers = {"Retry-After": str(e.details.get("retry_after", 1))} if e.status == 503 else {}
        if _wants_json():
            return jsonify(e.as_dict()), e.status, headers
        return render_template("error.html", status=e.status, message=e.message), e.status, headers

    @app.errorhandler(OperationalError)
    @app.errorhandler(psycopg.OperationalError)
    def store_unavailable(e: Exception):
        """The database is unreachable or timed out: nothing was stored, and trying again later is right."""
        logging.getLogger(__name__).warning("store unavailable: %s", e)
        message = "the archive's database is unavailable or busy; nothing was stored; retry in a moment"
        headers = {"Retry-After": "5"}
        if _wants_json():
            return jsonify({"error": "StoreUnavailable", "message": message, "retry_after": 5}), 503, headers
        return render_template("error.html", status=503, message=message), 503, headers

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
