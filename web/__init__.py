"""Flask doors: the replay viewer and the JSON API."""
from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(config: dict[str, Any]) -> Flask:
    """Build the app. ``config["ARCHIVE"]`` is an open :class:`service.context.Archive`.

    ``TRUSTED_HOSTS`` and ``WRITE_LIMIT`` have safe defaults (see :mod:`web.posture`).
    """
    app = Flask(__name__)
    app.config.update(config)
    app.json.sort_keys = False

    from web import posture
    from web.api import api
    from web.errors import register_error_handlers
    from web.replay import replay

    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(replay)
    register_error_handlers(app)
    posture.install(app, config)
    return app
