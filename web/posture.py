"""What every response carries and every request must pass: security headers, trusted hosts, write limits.

Settings (``create_app`` config; ``nemesis-archive serve`` fills them from its options):

- ``TRUSTED_HOSTS`` — the ``Host`` names this server answers to (Flask's own check; any other
  gets a 400). Default: ``LOCAL_HOSTS``. ``None`` answers to any host.
- ``WRITE_LIMIT`` — writes (any method but GET/HEAD/OPTIONS) allowed per client address and
  game, per route, e.g. ``"120/minute"``; ``None`` turns the limit off. Reads are never limited.
"""
from __future__ import annotations

import base64
import hashlib
import math
import time

from flask import Flask, current_app, request
from flask_limiter import Limiter

LOCAL_HOSTS = ["localhost", "127.0.0.1"]
DEFAULT_WRITE_LIMIT = "120/minute"
SERVER_NAME = "nemesis-archive"  # the Server header: names the product, not the software versions under it


def _style_hashes() -> str:
    """CSP sources admitting exactly the rulesets' board stylesheets (the ``<style>`` inside their SVG)."""
    from service.rules.registry import RULESETS

    digests = (base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
               for ruleset in RULESETS.values() for text in ruleset.drawing_styles)
    return "".join(f" 'sha256-{d}'" for d in digests)


# Pages load their scripts and styles from the server only (/static, and a ruleset's drawing stylesheet
# for the inline boards, decision 0015); board.svg, opened alone, carries that stylesheet inline,
# admitted by its hash, so no other inline style runs.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'" + _style_hashes(),
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def install(app: Flask, config: dict) -> None:
    """Apply the posture to ``app``; ``config`` is what the caller of ``create_app`` passed."""
    app.config["TRUSTED_HOSTS"] = config.get("TRUSTED_HOSTS", LOCAL_HOSTS)
    app.config["WRITE_LIMIT"] = config.get("WRITE_LIMIT", DEFAULT_WRITE_LIMIT)

    @app.after_request
    def security_headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    if app.config["WRITE_LIMIT"]:
        _limit_writes(app, app.config["WRITE_LIMIT"])


def client_and_game() -> str:
    """The rate-limit key: who writes, and to which game (one busy table does not throttle another)."""
    game = (request.view_args or {}).get("game_id", "")
    return f"{request.remote_addr}/{game}"


def _limit_writes(app: Flask, limit: str) -> None:
    # One limiter per app, counting in this process's memory: the server is one process
    # (threads), so the counts are exact; several processes would need a shared storage.
    Limiter(
        key_func=client_and_game,
        app=app,
        storage_uri="memory://",
        strategy="moving-window",
        headers_enabled=False,  # Retry-After goes on the 429 only (web.errors), not on every write
        default_limits=[limit],
        default_limits_exempt_when=lambda: request.method in READ_METHODS,
    )


def retry_after() -> int:
    """Whole seconds until the breached limit of this request lets a write through again."""
    for limiter in current_app.extensions.get("limiter", ()):
        if (current := limiter.current_limit) is not None:
            return max(1, math.ceil(current.reset_at - time.time()))
    return 60
