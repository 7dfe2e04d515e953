"""Members-only leagues leak nothing to outsiders (decisions 0024, 0033): not a game, not a count, not a name.

Club A's league "Secret" is members-only; club B's "Open" is public. Zed and Bo played a finished game in
Secret (Zed's only game; it has a corridor move on the basic board); Ada and Bo played one in Open. Every
read that lists or counts games is asked by three people: nobody signed in, Nell (a recorder of club B:
a member of another club) and Mia (a member of club A). The first two must get what they would get if the
Secret game did not exist; Mia gets everything.
"""
from __future__ import annotations

import pytest

from projections import queries
from projections import statistics_queries as sq
from projections.league import implicit_player
from projections.runner import Worker
from tests.helpers import anonymous_client, client_as, token_for, wait_for
from tests.integration.test_statistics import PLAY_A, SETUP_A, facts
from web import create_app

SECRET_MOVE = [("CharacterMoved", 1, {"to_room": "slot-09", "corridor": 4}),
               ("RoomExplored", 1, {"room": "emergency_room", "token": {"effect": "silence", "items": 1}})]


def _game(archive, names, league, played_on, extra=()):
    header = {"ruleset": "lockdown", "mode": "standard", "strict": False, "played_on": played_on, "league": league,
              "players": [{"seat": i + 1, "name": n} for i, n in enumerate(names)], "options": {"board": "basic"}}
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts(SETUP_A + list(extra) + PLAY_A))
    return game.id


@pytest.fixture
def secret(fresh_archive):
    a = fresh_archive
    for club, league in (("Club A", "Secret"), ("Club B", "Open")):
        slug = club.lower().replace(" ", "-")
        a.leagues.found_club(club, slug)
        a.leagues.open_league(slug, league, league.lower())
        a.leagues.open_season(slug, league.lower(), "All", "all")
    a.leagues.set_members_only("club-a", "secret", True)
    for name in ("Mia", "Nell"):
        a.accounts.create(name, "a long password", player_id=a.leagues.register_player(name))
    a.leagues.grant_role("club-a", "Mia", "member")
    a.leagues.grant_role("club-b", "Nell", "recorder")
    worker = Worker(a.db, poll=0.2)
    worker.start_thread()
    try:
        hidden = _game(a, ["Zed", "Bo"], "Secret", "2026-02-01", SECRET_MOVE)
        shown = _game(a, ["Ada", "Bo"], "Open", "2026-02-02")
        head = a.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(a.db).values()))
    finally:
        worker.stop()
    app = create_app({"ARCHIVE": a, "TESTING": True, "WRITE_LIMIT": None})
    readers = {"nobody": anonymous_client(app),
               "other club": client_as(app, token_for(a.accounts, "Nell", site_admin=False)),
               "member": client_as(app, token_for(a.accounts, "Mia", site_admin=False))}
    return a, readers, hidden, shown


OUTSIDERS = ("nobody", "other club")


def test_the_players_table_counts_no_members_only_game(secret):
    a, readers, _hidden, _shown = secret
    everything = {p["player_key"]: p for p in queries.player_table(a.db)}
    assert everything["bo"]["played"] == 2 and "zed" in everything
    for who in OUTSIDERS:
        rows = {p["player_key"]: p for p in readers[who].get("/api/players").get_json()["players"]}
        assert set(rows) == {"ada", "bo"}, who
        assert (rows["bo"]["played"], rows["bo"]["finished"], rows["bo"]["lost"]) == (1, 1, 1), who
        assert readers[who].get("/api/players?player=Zed").get_json()["players"] == [], who
        page = readers[who].get("/players").get_data(as_text=True)
        assert "Zed" not in page and "Bo" in page, who
    rows = {p["player_key"]: p for p in readers["member"].get("/api/players").get_json()["players"]}
    assert rows == {k: {**v} for k, v in everything.items()}
    assert "Zed" in readers["member"].get("/players").get_data(as_text=True)


def test_corridor_proposals_learn_nothing_from_members_only_games(secret):
    _a, readers, _hidden, _shown = secret
    learned = ("isolation_room", "slot-09", 4)
    for who in OUTSIDERS:
        got = readers[who].get("/api/boards/basic/corridors").get_json()
        assert learned not in {(p["from_place"], p["to_place"], p["corridor"]) for p in got["proposals"]}, who
        assert "slot-09" not in readers[who].get("/boards/basic/corridors/fragment.json").get_data(as_text=True), who
    got = readers["member"].get("/api/boards/basic/corridors").get_json()
    assert learned in {(p["from_place"], p["to_place"], p["corridor"]) for p in got["proposals"]}


def test_search_finds_no_members_only_game(secret):
    _a, readers, hidden, shown = secret
    for who in OUTSIDERS:
        assert readers[who].get("/api/games?player=zed").get_json()["games"] == [], who
        found = [g["game_id"] for g in readers[who].get("/api/games?player=bo").get_json()["games"]]
        assert found == [str(shown)], who
        assert str(hidden) not in readers[who].get("/?player=bo").get_data(as_text=True), who
    found = {g["game_id"] for g in readers["member"].get("/api/games?player=bo").get_json()["games"]}
    assert found == {str(hidden), str(shown)}
    assert [g["game_id"] for g in readers["member"].get("/api/games?player=zed").get_json()["games"]] == [str(hidden)]


def test_statistics_count_no_members_only_game(secret):
    a, readers, hidden, _shown = secret
    alone = sq.section(a.db, "characters", sq.Scope(exclude=(hidden,)))
    both = sq.section(a.db, "characters", sq.Scope())
    assert (alone["games"], both["games"]) == (1, 2)
    for who in OUTSIDERS:
        for section in sq.SECTIONS:
            got = readers[who].get(f"/api/statistics/{section}").get_json()
            assert got == sq.section(a.db, section, sq.Scope(exclude=(hidden,))), (who, section)
        assert "2 finished games" not in readers[who].get("/statistics").get_data(as_text=True), who
        assert ",2," not in readers[who].get("/statistics/characters/characters.csv").get_data(as_text=True), who
        for path in ("/leagues/club-a/secret/statistics", "/leagues/club-a/secret/statistics/deaths",
                     "/leagues/club-a/secret/statistics/characters/characters.csv",
                     "/leagues/club-a/secret/statistics/characters/characters.svg",
                     "/api/clubs/club-a/leagues/secret/statistics/characters"):
            assert readers[who].get(path).status_code == 404, (who, path)
    assert readers["member"].get("/api/statistics/characters").get_json() == both
    assert readers["member"].get("/api/clubs/club-a/leagues/secret/statistics/characters").get_json()["games"] == 1
    assert readers["member"].get("/leagues/club-a/secret/statistics").status_code == 200


def test_a_players_profile_shows_no_members_only_game(secret):
    a, readers, hidden, shown = secret
    zed, bo = implicit_player("zed"), implicit_player("bo")
    for who in OUTSIDERS:
        assert readers[who].get(f"/api/players/{zed}/profile").status_code == 404, who
        assert readers[who].get(f"/statistics/players/{zed}").status_code == 404, who
        p = readers[who].get(f"/api/players/{bo}/profile").get_json()
        assert [g["game_id"] for g in p["games"]] == [str(shown)], who
        assert p["finished"] == 1 and sum(c["games"] for c in p["characters"]) == 1, who
        assert [s["league"] for s in p["ratings"]] == ["Open"], who
        page = readers[who].get(f"/statistics/players/{bo}").get_data(as_text=True)
        assert str(hidden) not in page and "Secret" not in page, who
        assert "Secret" not in readers[who].get(f"/statistics/players/{bo}/ratings.csv").get_data(as_text=True), who
    p = readers["member"].get(f"/api/players/{bo}/profile").get_json()
    assert {g["game_id"] for g in p["games"]} == {str(hidden), str(shown)}
    assert sorted(s["league"] for s in p["ratings"]) == ["Open", "Secret"]
    assert readers["member"].get(f"/api/players/{zed}/profile").status_code == 200


def test_previews_of_members_only_games_and_seasons_are_not_found(secret):
    _a, readers, hidden, shown = secret
    paths = [f"/leagues/club-b/open/all/preview/{hidden}",  # a public season, a secret game
             f"/api/clubs/club-b/leagues/open/seasons/all/preview/{hidden}",
             f"/leagues/club-a/secret/all/preview/{shown}",  # a secret season
             f"/api/clubs/club-a/leagues/secret/seasons/all/preview/{shown}"]
    for path in paths:
        for who in OUTSIDERS:
            assert readers[who].get(path).status_code == 404, (who, path)
        assert readers["member"].get(path).status_code == 200, path
    assert readers["nobody"].get(f"/leagues/club-b/open/all/preview/{shown}").status_code == 200


def test_the_new_game_form_suggests_no_name_from_members_only_games(secret):
    _a, readers, _hidden, _shown = secret
    page = readers["other club"].get("/games/new").get_data(as_text=True)
    assert 'value="Ada"' in page and 'value="Zed"' not in page


def test_the_seasons_rating_chart_and_csv_follow_the_season_pages_rights(secret):
    a, readers, hidden, shown = secret
    page = readers["nobody"].get("/leagues/club-b/open/all").get_data(as_text=True)
    assert 'src="/leagues/club-b/open/all/ratings.svg' in page and 'href="/leagues/club-b/open/all/ratings.csv' in page
    rows = readers["nobody"].get("/leagues/club-b/open/all/ratings.csv").get_data(as_text=True).splitlines()
    assert rows[0].startswith("game_id,played_on,player_id,name") and len(rows) == 3  # Ada and Bo after one game
    assert all(r.startswith(str(shown)) for r in rows[1:])
    chart = readers["nobody"].get("/leagues/club-b/open/all/ratings.svg")
    assert chart.mimetype == "image/svg+xml" and "Ada" in chart.get_data(as_text=True)
    for path in ("/leagues/club-a/secret/all/ratings.svg", "/leagues/club-a/secret/all/ratings.csv"):
        for who in OUTSIDERS:
            assert readers[who].get(path).status_code == 404, (who, path)
        assert readers["member"].get(path).status_code == 200, path
    assert str(hidden) in readers["member"].get("/leagues/club-a/secret/all/ratings.csv").get_data(as_text=True)


def _project(a):
    worker = Worker(a.db, poll=0.2)
    worker.start_thread()
    try:
        head = a.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(a.db).values()))
    finally:
        worker.stop()


def test_the_player_registry_names_no_one_known_only_from_members_only_games(secret):
    a, readers, _hidden, _shown = secret
    a.leagues.register_player("Zed")  # seated only in the Secret game
    a.leagues.add_alias("Zed", "Zee")
    a.leagues.register_player("Bo")  # seated in both
    a.leagues.add_alias("Bo", "Bobby")  # never seated: an alias names no league
    a.leagues.register_player("Una")  # never played
    _project(a)
    for who in OUTSIDERS:
        got = {p["name"]: p for p in readers[who].get("/api/player-registry").get_json()["players"]}
        assert "Zed" not in got and {"Bo", "Una", "Mia", "Nell"} <= set(got), who
        assert got["Bo"]["aliases"] == ["Bobby"], who
        assert readers[who].get("/api/player-registry?name=ze").get_json()["players"] == [], who
    got = {p["name"]: p for p in readers["member"].get("/api/player-registry").get_json()["players"]}
    assert got["Zed"]["aliases"] == ["Zee"] and "Bo" in got
    assert [p["name"] for p in readers["member"].get("/api/player-registry?name=zee").get_json()["players"]] == ["Zed"]


def test_the_status_page_needs_a_site_admin_and_healthz_quotes_no_error_to_others(secret):
    a, readers, _hidden, _shown = secret
    assert readers["nobody"].get("/admin/status").status_code == 303  # to the sign-in page
    assert "/sign-in" in readers["nobody"].get("/admin/status").headers["Location"]
    for who in ("other club", "member"):
        assert readers[who].get("/admin/status").status_code == 403, who
    app = create_app({"ARCHIVE": a, "TESTING": True, "WRITE_LIMIT": None})
    admin = client_as(app, token_for(a.accounts))
    assert admin.get("/admin/status").status_code == 200
    with a.db.connect() as conn:  # a view's last error, as the worker records it (quoting what failed)
        conn.execute("INSERT INTO projection_heartbeats (view, generation, worker, started_at, beat_at, last_error,"
                     " last_error_at) VALUES ('gameindex', 1, 'w', now(), now(), 'game Zed secret data', now())"
                     " ON CONFLICT (view) DO UPDATE SET last_error = EXCLUDED.last_error, last_error_at = now()")
        conn.commit()
    for who in ("nobody", "member"):
        health = readers[who].get("/healthz")
        assert health.status_code == 200 and "Zed" not in health.get_data(as_text=True), who
        assert health.get_json()["views"]["gameindex"]["last_error"]["error"] is None, who
    assert "Zed" in admin.get("/healthz").get_json()["views"]["gameindex"]["last_error"]["error"]
