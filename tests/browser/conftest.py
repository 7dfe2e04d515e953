"""A served archive with the demo games, and Debian's Chromium driven by Playwright.

Every browser context is signed in to the served archive as its test admin (a site admin, through the
sign-in session's cookie, as a person's browser would be): tests that record need nothing more
(decision 0024). ``browser.new_context(..., signed_in=False)`` makes a context nobody signed in to.
The tests' own ``urllib.request.urlopen`` calls to the served archive send its API token; an opener a test
builds itself adds ``tests.helpers.SignedInHandler()``.
"""
from __future__ import annotations

import shutil
import threading
import urllib.request

import pytest

from projections.runner import rebuild
from projections.views import VIEWS
from service.context import Archive
from service.demo import HERE as DEMO_DIR
from service.notation import import_parsed, read_file
from service.roles import app_database
from tests.helpers import TEST_ADMIN, SignedInHandler

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def served(pg_server):
    """Base URL of a live server over its own database holding the demo games."""
    from werkzeug.serving import make_server

    from service.db import drop_database
    from tests.conftest import _new_database
    from web import create_app

    admin = _new_database(pg_server)
    db = app_database(admin)  # served as the service runs: nemesis_app
    archive = Archive(db)
    games = [import_parsed(archive.games, read_file(p))[0] for p in sorted(DEMO_DIR.glob("*.jsonl"))]
    SERVED_ARCHIVE.append(archive)
    archive.accounts.create(TEST_ADMIN, None, site_admin=True)
    SIGNED_IN["session"] = archive.accounts.open_session(TEST_ADMIN)
    SignedInHandler.served["token"] = archive.accounts.issue_token(TEST_ADMIN, "browser tests")[1]
    for view in VIEWS:
        rebuild(db, view)
    server = make_server("127.0.0.1", 0, create_app({"ARCHIVE": archive}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    SIGNED_IN["url"] = SignedInHandler.served["url"] = f"http://127.0.0.1:{server.server_port}"
    urllib.request.install_opener(urllib.request.build_opener(SignedInHandler()))  # the tests' own API calls
    yield SIGNED_IN["url"], {g.title: g for g in games}
    server.shutdown()
    archive.close()
    drop_database(pg_server, admin.name)


SIGNED_IN: dict[str, str] = {}  # the served archive's URL and its test admin's session
SERVED_ARCHIVE: list = []  # the served archive, for tests that make accounts in it


class SignedInBrowser:
    """Playwright's Browser whose new contexts carry the served archive's test-admin session cookie."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, *args, signed_in: bool = True, **kwargs):
        context = self._browser.new_context(*args, **kwargs)
        if signed_in and SIGNED_IN:
            from web.auth import SESSION_COOKIE

            context.add_cookies([{"name": SESSION_COOKIE, "value": SIGNED_IN["session"], "url": SIGNED_IN["url"],
                                  "httpOnly": True, "sameSite": "Lax"}])
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser(served):
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    assert executable, "Debian's chromium is needed for the browser tests: `make test` installs it (apt-get install chromium)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield SignedInBrowser(b)
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()
