"""Every error is JSON under /api (HTML elsewhere) and names what was wrong; never a 500 for a caller's mistake."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from service.errors import ArchiveError
from service.schemas import flatten_errors


def _wants_json() -> bool:
    return request.path.startswith("/api")


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
