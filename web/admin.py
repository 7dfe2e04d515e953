"""Operator doors: /healthz (JSON, for a load balancer or a monitor) and /admin/status (HTML).

/admin/status needs a signed-in site admin (web/auth.py ``SITE_ADMIN``; decision 0035): its parked events name
games and quote their data, a members-only league's included. /healthz answers everyone, since a monitor holds no
account, but only a site admin reads the views' last error messages (they quote the same data); others get when.
"""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template

from projections.status import DatabaseUnavailable, parked_events, projection_status

admin = Blueprint("admin", __name__)


def _status():
    archive = current_app.config["ARCHIVE"]
    return archive.db, projection_status(archive.db, worker=current_app.config.get("WORKER"))


@admin.get("/healthz")
def healthz():
    """200 with per-view lag while the database answers; 503 (within about 5 s) when it does not."""
    try:
        _, report = _status()
    except DatabaseUnavailable as e:
        return jsonify({"status": "unavailable", "database": "unreachable", "error": str(e)}), 503
    from web.auth import shown_account

    account = shown_account()
    if account is None or not account.site_admin:
        for view in report["views"].values():
            if view.get("last_error"):
                view["last_error"] = {"at": view["last_error"]["at"], "error": None}
    return jsonify(report), 200


@admin.get("/admin/status")
def status():
    try:
        db, report = _status()
        parked = parked_events(db)
    except DatabaseUnavailable as e:
        return render_template("admin_status.html", report=None, parked=[], error=str(e)), 503
    return render_template("admin_status.html", report=report, parked=parked, error=None)
