"""Accounts and rights (decision 0024): who may record where, tokens, sign-in, CSRF, members-only leagues.

Real PostgreSQL, the real app: every refusal is checked to store nothing.
"""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from projections.runner import rebuild_views
from service.errors import InvalidInput
from tests.helpers import anonymous_client, client_as, generated, token_for
from web import create_app

HEADER, FACTS = generated(seed=24, players=2)


def _header(league=None):
    return {**HEADER, **({"league": league} if league else {})}


def _append(client, gid, position=0, command=None, **kw):
    body = {"expected_position": position, "command_id": command or f"c-{gid}-{position}", "facts": [FACTS[position]]}
    return client.post(f"/api/games/{gid}/facts", json=body, **kw)


@pytest.fixture
def world(fresh_archive):
    """Club A (league "League A") and club B (league "League B"); Alice records in A, Mia is a member of A,
    Nell has an account and no role; one game in each league and one in none."""
    a = fresh_archive
    for club, league in (("Club A", "League A"), ("Club B", "League B")):
        a.leagues.found_club(club)
        a.leagues.open_league(club.lower().replace(" ", "-"), league)
        a.leagues.open_season(club.lower().replace(" ", "-"), league.lower().replace(" ", "-"), "All")
    for name in ("Alice", "Mia", "Nell"):
        a.accounts.create(name, "a long password", player_id=a.leagues.register_player(name))
    a.leagues.grant_role("club-a", "Alice", "recorder")
    a.leagues.grant_role("club-a", "Mia", "member")
    games = {key: a.games.create_game(_header(league)).id
             for key, league in (("A", "League A"), ("B", "League B"), ("none", None))}
    rebuild_views(a.db, ["league"])
    app = create_app({"ARCHIVE": a, "TESTING": True, "WRITE_LIMIT": None})
    tokens = {name: token_for(a.accounts, name, site_admin=False) for name in ("Alice", "Mia", "Nell")}
    return a, app, games, tokens


def test_the_api_without_a_token_is_refused_and_stores_nothing(world):
    a, app, games, _tokens = world
    nobody = anonymous_client(app)
    r = nobody.post("/api/games", json=_header())
    assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith("Bearer")
    assert "sign" in r.get_json()["message"]
    assert _append(nobody, games["none"]).status_code == 401
    for bad in ("Bearer na_not-a-token", "Basic YWRtaW46YWRtaW4=", "Bearer "):
        r = nobody.post(f"/api/games/{games['none']}/facts", headers={"Authorization": bad},
                        json={"expected_position": 0, "command_id": "x", "facts": [FACTS[0]]})
        assert r.status_code == 401, bad
    assert a.games.get_game(games["none"]).position == 0
    assert nobody.get(f"/api/games/{games['A']}/state").status_code == 200  # reading a public league needs nobody


def test_a_member_cannot_write(world):
    a, app, games, tokens = world
    mia = client_as(app, tokens["Mia"])
    r = _append(mia, games["A"])
    assert r.status_code == 403 and "recorder" in r.get_json()["message"]
    assert mia.post("/api/games", json=_header("League A")).status_code == 403
    assert mia.post("/api/games", json=_header()).status_code == 403  # records nowhere: no game outside leagues either
    assert _append(mia, games["none"]).status_code == 403
    assert a.games.get_game(games["A"]).position == 0


def test_a_recorder_of_league_a_cannot_write_to_league_b(world):
    a, app, games, tokens = world
    alice = client_as(app, tokens["Alice"])
    assert _append(alice, games["B"]).status_code == 403
    assert alice.get(f"/games/{games['B']}/record/form/0").status_code == 403  # nor open its recorder's forms
    assert alice.post("/api/games", json=_header("League B")).status_code == 403
    assert a.games.get_game(games["B"]).position == 0
    assert _append(alice, games["A"]).status_code == 201
    assert alice.post("/api/games", json=_header("league a")).status_code == 201  # names compare as in 0020
    assert _append(alice, games["none"]).status_code == 201  # a game outside leagues: anyone who records somewhere
    nell = client_as(app, tokens["Nell"])
    assert _append(nell, games["none"], 1).status_code == 403


def test_a_revoked_role_or_token_stops_writing(world):
    a, app, games, tokens = world
    alice = client_as(app, tokens["Alice"])
    assert _append(alice, games["A"]).status_code == 201
    a.leagues.revoke_role("club-a", "Alice", "recorder")
    assert _append(alice, games["A"], 1).status_code == 403
    a.leagues.grant_role("club-a", "Alice", "admin")  # an admin records too
    assert _append(alice, games["A"], 1).status_code == 201
    token_id = a.accounts.tokens("Alice")[0]["token_id"]
    assert a.accounts.revoke_token(token_id)
    assert _append(alice, games["A"], 2).status_code == 401


def test_a_game_moved_to_another_league_follows_its_new_league(world):
    a, app, games, tokens = world
    alice = client_as(app, tokens["Alice"])
    a.leagues.place_game(games["B"], "club-a", "league-a", "all", games=a.games)
    assert _append(alice, games["B"]).status_code == 201
    a.leagues.place_game(games["A"], "club-b", "league-b", "all", games=a.games)
    assert _append(alice, games["A"]).status_code == 403


def test_rights_changed_in_another_process_count_from_the_next_request(world):
    """Clubs and placements are cached in each process (decision 0052); every request still sees what another
    process changed a moment before (the cache reads the newer events first)."""
    from service.context import Archive

    a, app, games, tokens = world
    alice = client_as(app, tokens["Alice"])
    assert _append(alice, games["A"]).status_code == 201  # club A and the game's placement are cached now
    other = Archive(a.db)
    try:
        other.leagues.revoke_role("club-a", "Alice", "recorder")
        assert _append(alice, games["A"], 1).status_code == 403
        other.leagues.grant_role("club-a", "Alice", "recorder")
        assert _append(alice, games["A"], 1).status_code == 201
        other.leagues.place_game(games["A"], "club-b", "league-b", "all", games=other.games)
        assert _append(alice, games["A"], 2).status_code == 403
    finally:
        other.close()
    assert a.games.get_game(games["A"]).position == 2


def test_a_club_read_for_the_gate_is_not_changed_by_a_later_read(world):
    """The gate reads a shallow copy of the cached club, not the library's deep copy (decision 0053): a later
    read that brings the cached club up to date must not change a copy already lent to a request."""
    from service.context import Archive
    from service.league import club_id_for

    a = world[0]
    club_id = club_id_for("club-a")
    before = a.leagues.club_to_read(club_id)
    roles, seasons = set(before.roles), dict(before.seasons)
    other = Archive(a.db)
    try:
        other.leagues.grant_role("club-a", "Nell", "recorder")
        other.leagues.open_season("club-a", "league-a", "Later")
    finally:
        other.close()
    after = a.leagues.club_to_read(club_id)
    assert len(after.roles) == len(before.roles) + 1 and len(after.seasons) == len(seasons) + 1
    assert (before.roles, before.seasons) == (roles, seasons)
    assert a.leagues.club_to_read(club_id_for("no-such-club")) is None


def test_a_game_placed_in_a_new_club_is_recorded_before_the_views_know_the_club(world):
    """The placement names its club: the gate loads that club, not the list of clubs the read model knows
    (decision 0052), so a club's recorders record as soon as the game is placed."""
    a, app, games, tokens = world
    a.leagues.found_club("Club C")
    a.leagues.open_league("club-c", "League C")
    a.leagues.open_season("club-c", "league-c", "All")
    a.leagues.grant_role("club-c", "Nell", "recorder")
    a.leagues.place_game(games["none"], "club-c", "league-c", "all", games=a.games)  # no rebuild of the views
    nell = client_as(app, tokens["Nell"])
    assert _append(nell, games["none"]).status_code == 201
    alice = client_as(app, tokens["Alice"])
    assert _append(alice, games["none"], 1).status_code == 403


def test_recording_pages_need_signing_in(world):
    a, app, games, _tokens = world
    nobody = anonymous_client(app)
    r = nobody.get(f"/games/{games['A']}/record")
    assert r.status_code == 303 and r.headers["Location"].startswith("/sign-in?next=")
    assert nobody.get("/games/new").status_code == 303
    page = nobody.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    r = nobody.post("/games/new", data={"csrf_token": token, "ruleset": "lockdown", "player-1": "Ada", "seat-1": "1"})
    assert r.status_code == 401
    assert nobody.get(f"/games/{games['A']}/record/panel").status_code == 303
    assert nobody.get(f"/games/{games['A']}/record/form/0").status_code == 303  # a table effect's form, too
    assert nobody.get("/").status_code == 200 and nobody.get(f"/games/{games['A']}/step/0").status_code == 200


def _sign_in(client, name, password, next_="/"):
    page = client.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    return client.post("/sign-in", data={"csrf_token": token, "username": name, "password": password, "next": next_}), token


def test_sign_in_records_with_the_csrf_token_and_sign_out_ends_it(world):
    a, app, games, _tokens = world
    browser = anonymous_client(app)
    r, _csrf = _sign_in(browser, "alice", "wrong password!")
    assert r.status_code == 401 and "do not match" in r.get_data(as_text=True)
    r, csrf = _sign_in(browser, "alice", "a long password", f"/games/{games['A']}/record")
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{games['A']}/record"
    cookie = browser.get_cookie("nemesis_session")
    assert cookie.http_only and cookie.same_site == "Lax"
    page = browser.get(f"/games/{games['A']}/record")
    assert page.status_code == 200 and "Alice" in page.get_data(as_text=True)  # the header says who is signed in
    # the session's cookie authorises the API only with the page's CSRF token
    assert _append(browser, games["A"]).status_code == 403
    assert _append(browser, games["A"], headers={"X-CSRF-Token": csrf}).status_code == 201
    assert _append(browser, games["B"], 0, "b0", headers={"X-CSRF-Token": csrf}).status_code == 403
    # sign-out needs the token too, then the cookie is worth nothing
    assert browser.post("/sign-out").status_code == 403
    assert browser.post("/sign-out", data={"csrf_token": csrf}).status_code == 303
    assert _append(browser, games["A"], 1, headers={"X-CSRF-Token": csrf}).status_code == 401


def test_sign_in_goes_back_only_to_this_site(world):
    _a, app, _games, _tokens = world
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example"):
        r, _ = _sign_in(anonymous_client(app), "Alice", "a long password", target)
        assert r.headers["Location"] == "/", target


def test_members_only_league_is_not_found_by_outsiders(world):
    from web.cli import main

    a, app, games, tokens = world
    out = CliRunner().invoke(main, ["--database-url", a.db.url, "league", "visibility", "club-a", "league-a", "members"])
    assert out.exit_code == 0, out.output
    nobody, nell, mia = anonymous_client(app), client_as(app, tokens["Nell"]), client_as(app, tokens["Mia"])
    gid = games["A"]
    a.replays.clear()  # a step asked cold is read from rows without loading the game (decision 0041): gated all the same
    paths = [f"/api/games/{gid}", f"/api/games/{gid}/state?step=2", f"/api/games/{gid}/state", f"/api/games/{gid}/facts",
             f"/api/games/{gid}/export",
             f"/games/{gid}/step/0", "/api/clubs/club-a/leagues/league-a/seasons/all/standings",
             "/leagues/club-a/league-a/all"]
    for path in paths:
        assert nobody.get(path).status_code == 404, path
        assert nell.get(path).status_code == 404, path
        assert mia.get(path).status_code == 200, path  # a member of the club sees it
    assert nobody.get(f"/api/games/{games['B']}").status_code == 200  # other leagues stay public
    rebuild_views(a.db, ["gameindex"])
    listed = {g["game_id"] for g in nobody.get("/api/games").get_json()["games"]}
    assert str(gid) not in listed and str(games["B"]) in listed  # lists leave it out
    assert str(gid) in {g["game_id"] for g in mia.get("/api/games").get_json()["games"]}
    assert str(gid) not in nobody.get("/").get_data(as_text=True)
    leagues = [l["slug"] for c in nobody.get("/api/clubs").get_json()["clubs"] for l in c["leagues"]]
    assert "league-a" not in leagues and "league-b" in leagues
    assert "league-a" in [l["slug"] for c in mia.get("/api/clubs").get_json()["clubs"] for l in c["leagues"]]
    assert _append(nell, gid).status_code == 404  # a write does not reveal it either
    a.leagues.set_members_only("club-a", "league-a", False)
    assert nobody.get(f"/api/games/{gid}").status_code == 200


def test_a_club_admin_grants_roles_on_the_roles_page(world):
    a, app, _games, _tokens = world
    a.leagues.grant_role("club-a", "Nell", "admin")
    nell = anonymous_client(app)
    _r, csrf = _sign_in(nell, "Nell", "a long password")
    page = nell.get("/clubs/club-a/roles")
    assert page.status_code == 200 and "Alice" in page.get_data(as_text=True)
    assert nell.post("/clubs/club-a/roles", data={"player": "Mia", "role": "recorder", "action": "grant"}).status_code == 403
    r = nell.post("/clubs/club-a/roles", data={"csrf_token": csrf, "player": "Mia", "role": "recorder", "action": "grant"})
    assert r.status_code == 303
    assert "recorder" in a.leagues.club("club-a").roles_of(a.leagues.registry().find("Mia"))
    assert nell.get("/clubs/club-b/roles").status_code == 403  # not an admin there
    mia = anonymous_client(app)
    _sign_in(mia, "Mia", "a long password")
    assert mia.get("/clubs/club-a/roles").status_code == 403


def test_a_name_nobody_registered_gets_a_role_only_after_the_admin_says_register(world):
    """A name seen in games but never registered is asked about first (a typo must not become a player); saying
    "register" registers it and grants the role; a bad role registers nobody."""
    a, app, _games, _tokens = world
    a.leagues.grant_role("club-a", "Nell", "admin")
    nell = anonymous_client(app)
    _r, csrf = _sign_in(nell, "Nell", "a long password")
    page = nell.get("/clubs/club-a/roles").get_data(as_text=True)
    assert '<option value="Alice">' in page and '<option value="Greta">' not in page  # the names to pick from
    asked = nell.post("/clubs/club-a/roles", data={"csrf_token": csrf, "player": "Greta", "role": "recorder",
                                                   "action": "grant"})
    text = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Nobody called “Greta” is registered yet" in text
    assert '<option value="recorder" selected>' in text
    assert a.leagues.registry().find("Greta") is None
    for bad_name, says in (("Gr\x00eta", "player: contains a NUL character"), ("G" * 500, "player: is 500 characters")):
        refused = nell.post("/clubs/club-a/roles", data={"csrf_token": csrf, "player": bad_name, "role": "recorder",
                                                         "action": "grant"})
        assert refused.status_code == 400 and says in refused.get_data(as_text=True)
    bad = nell.post("/clubs/club-a/roles", data={"csrf_token": csrf, "player": "Greta", "role": "owner",
                                                 "action": "register"})
    assert bad.status_code == 403 and a.leagues.registry().find("Greta") is None
    with pytest.raises(InvalidInput):
        a.leagues.grant_role("club-a", "Greta", "owner", register=True)
    assert a.leagues.registry().find("Greta") is None
    done = nell.post("/clubs/club-a/roles", data={"csrf_token": csrf, "player": "Greta", "role": "recorder",
                                                  "action": "register"})
    assert done.status_code == 303
    greta = a.leagues.registry().find("Greta")
    assert greta is not None and a.leagues.club("club-a").roles_of(greta) == {"recorder"}
    assert "Greta" in nell.get("/clubs/club-a/roles").get_data(as_text=True)


def test_the_cli_makes_users_grants_roles_and_issues_tokens(world):
    from web.cli import main

    a, app, games, _tokens = world
    run = CliRunner()
    url = ["--database-url", a.db.url]
    out = run.invoke(main, [*url, "user", "add", "Zoe", "--generate"])
    assert out.exit_code == 0, out.output
    password = re.search(r"password \(shown once\): (\S+)", out.output).group(1)
    assert a.accounts.sign_in("zoe", password) is not None
    assert run.invoke(main, [*url, "user", "grant", "Zoe", "club-b", "recorder"]).exit_code == 0
    out = run.invoke(main, [*url, "token", "issue", "Zoe", "--label", "tablet"])
    token = out.output.strip().splitlines()[-1]
    zoe = client_as(app, token)
    assert _append(zoe, games["B"]).status_code == 201
    assert _append(zoe, games["A"]).status_code == 403
    token_id = re.search(r"token (\S+) ", out.output).group(1)
    assert run.invoke(main, [*url, "token", "revoke", token_id]).exit_code == 0
    assert _append(zoe, games["B"], 1).status_code == 401
    assert run.invoke(main, [*url, "user", "add", "zoe", "--generate"]).exit_code == 1  # names are unique


def test_the_demo_admin_gets_a_fresh_password_printed_once(fresh_archive, capsys):
    from web.cli import _demo_admin

    _demo_admin(fresh_archive)
    first = re.search(r"password (\S+)", capsys.readouterr().out).group(1)
    assert fresh_archive.accounts.sign_in("admin", first)
    _demo_admin(fresh_archive)
    second = re.search(r"password (\S+)", capsys.readouterr().out).group(1)
    assert second != first and fresh_archive.accounts.sign_in("admin", second)
    assert fresh_archive.accounts.sign_in("admin", first) is None


def test_passwords_are_argon2_and_secrets_are_stored_hashed(world):
    a, _app, _games, tokens = world
    with a.db.connect() as conn:
        (hashed,) = conn.execute("SELECT password_hash FROM accounts WHERE username = 'Alice'").fetchone()
        stored = [r[0] for r in conn.execute("SELECT token_hash FROM api_tokens").fetchall()]
    assert hashed.startswith("$argon2id$")
    assert tokens["Alice"] not in stored and all(len(s) == 64 for s in stored)


def test_serve_binds_to_localhost_by_default():
    from web.cli import serve

    host = next(p for p in serve.params if p.name == "host")
    assert host.default == "127.0.0.1"


def test_the_demo_serves_only_once_its_views_are_counted(fresh_archive, capsys):
    """serve --demo waits for the worker (decision 0033); without one it says the pages will fill in later."""
    from projections import queries
    from projections.runner import Worker
    from web.cli import _wait_for_views

    fresh_archive.games.create_game(_header())
    _wait_for_views(fresh_archive, timeout=0.5)  # no worker: it gives up and says so
    assert "still catching up" in capsys.readouterr().err
    worker = Worker(fresh_archive.db, poll=0.2)
    worker.start_thread()
    try:
        _wait_for_views(fresh_archive)
        head = fresh_archive.games.recorder.max_notification_id()
        assert all(p >= head for v, p in queries.tracking_positions(fresh_archive.db).items() if v != "corridors")
    finally:
        worker.stop()
