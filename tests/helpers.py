"""Shared helpers for the integration tests: generated games as API payloads."""
from __future__ import annotations

import time
import urllib.request

from service.samples import generated  # noqa: F401  (re-exported for the tests)


def wait_for(predicate, timeout: float = 60.0, interval: float = 0.05):
    """Poll until ``predicate()`` is truthy (read models are eventually consistent)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(interval)


def connections(db) -> int:
    """Other sessions open on ``db`` (to show a worker leaks none)."""
    with db.connect() as conn:
        return conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (db.name,)
        ).fetchone()[0]


# -- accounts (decision 0024) --------------------------------------------------------------------------------
# Every Flask test client is signed in (tests/conftest.py installs SignedInClient): it sends the API token of
# the archive's test admin, a site admin who may write everywhere. A test about refusals makes its own client
# with anonymous_client(app), or signs in as someone else with as_user(app, accounts, name).

TEST_ADMIN = "test-admin"
_tokens: dict[tuple[str, str], str] = {}


def token_for(accounts, username: str = TEST_ADMIN, *, site_admin: bool = True) -> str:
    """An API token of ``username`` in ``accounts``' database (the account is made on first use)."""
    from service.errors import InvalidInput

    key = (accounts.db.url, username)
    if key not in _tokens:
        try:
            accounts.create(username, None, site_admin=site_admin)
        except InvalidInput:
            pass  # made by an earlier test on the shared database
        _tokens[key] = accounts.issue_token(username, "tests")[1]
    return _tokens[key]


def anonymous_client(app, **kwargs):
    """A test client nobody signed in to (no token, no session)."""
    from flask.testing import FlaskClient

    return FlaskClient(app, app.response_class, **kwargs)


def client_as(app, token: str, **kwargs):
    """A test client sending ``token`` as ``Authorization: Bearer``."""
    client = anonymous_client(app, **kwargs)
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


class SignedInHandler(urllib.request.BaseHandler):
    """A urllib handler adding the served archive's test-admin token to requests for it (tests/browser/conftest.py
    installs one as urllib's default opener; an opener a test builds itself adds ``SignedInHandler()``)."""

    handler_order = 100
    served: dict[str, str] = {}  # "url" and "token", set by the served fixture

    def http_request(self, req):
        base = self.served.get("url")
        if base and req.full_url.startswith(base) and not req.has_header("Authorization"):
            req.add_unredirected_header("Authorization", f"Bearer {self.served['token']}")
        return req
