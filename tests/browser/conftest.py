"""A served archive with the demo games, and Debian's Chromium driven by Playwright."""
from __future__ import annotations

import shutil
import threading

import pytest

from projections.runner import rebuild
from projections.views import VIEWS
from service.context import Archive
from service.demo import HERE as DEMO_DIR
from service.notation import import_parsed, read_file
from service.roles import app_database

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
    for view in VIEWS:
        rebuild(db, view)
    server = make_server("127.0.0.1", 0, create_app({"ARCHIVE": archive}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", {g.title: g for g in games}
    server.shutdown()
    archive.close()
    drop_database(pg_server, admin.name)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    assert executable, "Debian's chromium is needed for the browser tests: `make test` installs it (apt-get install chromium)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()
