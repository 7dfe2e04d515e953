"""Flask doors: the replay viewer and the JSON API."""
from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(config: dict[str, Any]) -> Flask:
    """Build the app. ``config["ARCHIVE"]`` is an open :class:`service.context.Archive`.

    ``TRUSTED_HOSTS`` and ``WRITE_LIMIT`` have safe defaults (see :mod:`web.posture`).
    """
    from service.hygiene import MAX_BODY_BYTES

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES  # larger bodies get a JSON 413 before being read
    app.config.update(config)
    app.json.sort_keys = False

    from web import auth, csrf, posture
    from web.admin import admin
    from web.api import api
    from web.errors import register_error_handlers
    from web.i18n import install as install_languages
    from web.league import league, league_api
    from web.record import record
    from web.replay import replay
    from web.stats import stats, stats_api

    install_languages(app)
    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(replay)
    app.register_blueprint(admin)
    app.register_blueprint(record)
    app.register_blueprint(league)
    app.register_blueprint(league_api, url_prefix="/api")
    app.register_blueprint(stats)
    app.register_blueprint(stats_api, url_prefix="/api")
    register_error_handlers(app)
    posture.install(app, config)
    auth.install(app)  # who is asking, and may they (decision 0024); before the CSRF check, which reads it
    csrf.install(app)  # forms and the pages' scripts send a token back (decision 0017)
    return app
