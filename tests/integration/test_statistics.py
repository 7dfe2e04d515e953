"""Statistics from the events (decision 0025): the "stats" view against small games counted by hand.

Game A (Bo, Cy; semi-co-op; a lenient record): Bo's Survivor kills an adult with the SMG (a double,
then an injury check of blood 2); Cy's Hacker takes 3 serious wounds in the Repository, where a breeder
placed there attacks with Blood Rage and kills her; sector S-01 loses power; the game ends on time:
Bo, in the base, is killed by the rapid response team. Both lose. All of it in round 1.
Game B (Ada alone, Lab Rat): escapes by pod B; plan "save all", objective knowledge ≥ 0: won.
Game C (Ada, in progress): counts nowhere.
"""
from __future__ import annotations

import pytest
from psycopg import sql
from psycopg.rows import dict_row

from projections import queries
from projections import statistics_queries as sq
from projections.generations import VIEW_TABLES, active_prefix, generations
from projections.runner import Worker, rebuild_views
from tests.helpers import wait_for

SETUP_A = [("BoardPrepared", None, {"board": "basic"}), ("CharacterChosen", 1, {"character": "survivor"}),
           ("CharacterChosen", 2, {"character": "hacker"}), ("SetupCompleted", None, {})]
PLAY_A = [
    ("IntruderPlaced", None, {"kind": "adult", "room": "isolation_room"}),
    ("ItemGained", 1, {"item": "SMG", "colour": "starting", "where": "hand", "ammo": 2}),
    ("CharacterShot", 1, {"target": "i1", "weapon": "SMG", "result": "double"}),
    ("InjuryCheckDrawn", None, {"blood": [2]}),
    ("IntruderPlaced", None, {"kind": "breeder", "room": "repository"}),
    ("WoundSuffered", 2, {"kind": "serious", "count": 3}),
    ("IntruderAttacked", None, {"intruder": "i2", "card": "blood_rage"}),
    ("PowerChanged", None, {"location": "S-01", "on": False}),
    ("GameEnded", None, {"ending": "time_out"}),
]
SOLO_SETUP = [("BoardPrepared", None, {"board": "basic"}), ("CharacterChosen", 1, {"character": "lab_rat"}),
              ("SetupCompleted", None, {})]
PLAY_B = [
    ("ObjectivesDealt", 1, {"objectives": ["knowledge_at_least:0", "unknown"]}),
    ("CharacterEscaped", 1, {"route": "pod", "pod": "B"}),
    ("ContingencyTokenRevealed", None, {"owner": "active", "token": "save_all"}),
    ("ObjectiveRevealed", 1, {"objective": "knowledge_at_least:0"}),
]


def facts(rows):
    return [{"type": t, "actor": a, "data": d} for t, a, d in rows]


def make(archive, names, mode, rows, played_on="2026-02-01", league="Tuesday"):
    header = {"ruleset": "lockdown", "mode": mode, "strict": False, "played_on": played_on, "league": league,
              "players": [{"seat": i + 1, "name": n} for i, n in enumerate(names)], "options": {"board": "basic"}}
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts(rows))
    return game


def record_all(archive):
    a = make(archive, ["Bo", "Cy"], "standard", SETUP_A + PLAY_A)
    b = make(archive, ["Ada"], "solo", SOLO_SETUP + PLAY_B, played_on="2026-03-01")
    c = make(archive, ["Ada"], "solo", SOLO_SETUP + [("WoundSuffered", 1, {"kind": "light"})])
    return a, b, c


def stats_tables(db):
    with db.connect() as conn:
        active = generations(conn)["stats"][0]
        return {t: sorted(conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(f"stats_g{active}_{t}"))).fetchall(),
                          key=repr) for t in VIEW_TABLES["stats"]}


def keyed(rows, *columns):
    return {r["key"]: tuple(r[c] for c in columns) for r in rows}


@pytest.fixture
def projected(fresh_archive):
    db = fresh_archive.db
    worker = Worker(db, poll=0.2)
    worker.start_thread()
    try:
        games = record_all(fresh_archive)
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(db).values()))
    finally:
        worker.stop()
    return fresh_archive, games


def test_statistics_match_the_games_counted_by_hand(projected):
    archive, (a, b, c) = projected
    db = archive.db
    everything = sq.Scope()
    chars = sq.section(db, "characters", everything)
    assert chars["games"] == 2  # game C is still in progress
    t = chars["tables"]
    assert keyed(t["characters"], "games", "wins", "survived") == {"survivor": (1, 0, 0), "hacker": (1, 0, 0),
                                                                    "lab_rat": (1, 1, 1)}
    assert keyed(t["characters"], "wins_rate")["lab_rat"] == (1.0,)
    assert keyed(t["objectives"], "games", "wins") == {"knowledge_at_least": (1, 1)}
    assert keyed(t["plans"], "games", "wins") == {"save_all": (1, 1)}
    deaths = sq.section(db, "deaths", everything)["tables"]
    assert keyed(deaths["death_causes"], "deaths", "round") == {"attack": (1, 1.0), "rapid_response_team": (1, 1.0)}
    assert keyed(deaths["first_death"], "games") == {1: (1,), None: (1,)}
    assert keyed(deaths["power_lost"], "games") == {1: (1,), None: (1,)}
    assert keyed(deaths["blackout"], "games") == {None: (2,)}  # S-02 kept its power in game A
    assert keyed(deaths["rounds_survived"], "characters", "died") == {1: (3, 2)}
    escapes = sq.section(db, "escapes", everything)["tables"]
    assert keyed(escapes["routes"], "tried", "survived", "wins") == {"pod": (1, 1, 1)}
    combat = sq.section(db, "combat", everything)["tables"]
    assert keyed(combat["kills"], "kills") == {"adult": (1,)}
    assert keyed(combat["weapons"], "kills") == {"SMG": (1,)}
    rooms = keyed(sq.section(db, "rooms", everything)["tables"]["rooms"], "attacks", "wounds", "deaths")
    assert rooms == {"repository": (1, 3, 1), "isolation_room": (0, 0, 1)}


def test_filters_by_mode_players_and_season(projected):
    archive, _ = projected
    db = archive.db
    solo = sq.section(db, "characters", sq.Scope(mode="solo"))
    assert solo["games"] == 1 and keyed(solo["tables"]["characters"], "games") == {"lab_rat": (1,)}
    two = sq.section(db, "characters", sq.Scope(players=2))
    assert set(keyed(two["tables"]["characters"])) == {"survivor", "hacker"}
    archive.leagues.found_club("Test club", "test-club")
    archive.leagues.open_league("test-club", "Tuesday", "tuesday")
    archive.leagues.open_season("test-club", "tuesday", "February", "feb", "2026-02-01", "2026-02-28")
    rebuild_views(db, ["league"])
    feb = sq.section(db, "characters", sq.Scope("test-club", "tuesday", "feb"))
    assert feb["games"] == 1 and feb["scope"]["season"] == "February"
    assert set(keyed(feb["tables"]["characters"])) == {"survivor", "hacker"}
    with pytest.raises(sq.NotFound):
        sq.section(db, "characters", sq.Scope("test-club", "tuesday", "nope"))


def test_profile_names_the_nemesis_and_lists_the_games(projected):
    archive, _ = projected
    from projections.league import implicit_player

    cy = sq.profile(archive.db, str(implicit_player("cy")))
    assert cy["name"] == "Cy" and cy["nemesis"] == ["breeder"] and cy["finished"] == 1
    assert [g["character"] for g in cy["games"]] == ["hacker"] and cy["games"][0]["death_cause"] == "attack"
    ada = sq.profile(archive.db, str(implicit_player("ada")))
    assert len(ada["games"]) == 2 and ada["finished"] == 1 and ada["wins"] == 1 and ada["nemesis"] == []


def test_rebuild_equals_the_live_projection(projected):
    archive, _ = projected
    live = stats_tables(archive.db)
    assert live["seats"] and live["kills"] and live["rooms"]
    rebuild_views(archive.db, ["stats"], batch=3)
    assert stats_tables(archive.db) == live


def test_pages_csv_and_charts_in_both_languages(projected):
    archive, (a, b, c) = projected
    from projections.league import implicit_player
    from web import create_app

    client = create_app({"ARCHIVE": archive}).test_client()
    for lang in ("en", "pl"):
        client.get(f"/language/{lang}")
        for section in ("characters", "deaths", "escapes", "combat", "rooms"):
            page = client.get(f"/statistics/{section}?mode=standard")
            assert page.status_code == 200, (lang, section)
        page = client.get(f"/statistics/players/{implicit_player('cy')}")
        assert page.status_code == 200
    client.get("/language/en")
    page = client.get("/statistics/deaths").get_data(as_text=True)
    assert "Rapid response team" in page and "/statistics/deaths/death_causes.svg" in page
    assert "/statistics/deaths/death_causes.csv" in page
    rows = client.get("/statistics/characters/characters.csv?players=2").get_data(as_text=True).splitlines()
    assert rows[0].startswith("key,Character,games,wins") and len(rows) == 3
    svg = client.get("/statistics/characters/characters.svg")
    assert svg.mimetype == "image/svg+xml" and b"<script" not in svg.data and b'style="' not in svg.data
    assert "style-src 'sha256-" in svg.headers["Content-Security-Policy"] and "Lab Rat" in svg.get_data(as_text=True)
    assert client.get("/statistics/characters?mode=nope").status_code == 400
    assert client.get("/statistics/nothing").status_code == 404
    api = client.get("/api/statistics/combat?players=2").get_json()
    assert api["games"] == 1 and api["tables"]["kills"] == [{"key": "adult", "kills": 1}]
    assert client.get(f"/api/players/{implicit_player('cy')}/profile").get_json()["nemesis"] == ["breeder"]


def test_preview_of_a_pending_game(projected):
    """Game C is in progress (Ada alive): as it stands she wins; game A, hidden, would rate Bo and Cy's draw."""
    from projections.league_preview import preview
    from web import create_app

    archive, (a, b, c) = projected
    db = archive.db
    archive.leagues.found_club("Test club", "test-club")
    archive.leagues.open_league("test-club", "Tuesday", "tuesday")
    archive.leagues.open_season("test-club", "tuesday", "2026", "y2026", "2026-01-01", "2026-12-31")
    archive.leagues.hide_game(a.id, "a test game", games=archive.games)
    rebuild_views(db, ["league"])
    args = ("test-club", "tuesday", "y2026")
    p = preview(db, *args, str(c.id))
    assert not p["counted"] and not p["rated"]  # solo games are not rated in this league
    assert p["seats"] == [{"seat": 1, "name": "Ada", "outcome": "won", "survived": True, "objective": False,
                           "how": "as it stands"}]
    (ada,) = p["standings"]
    assert ada["points_before"] == 3 + 1 + 1 and ada["points"] == 3 + 1 + 1 + 3 + 1  # game B, then a win survived
    lost = preview(db, *args, str(c.id), {1: "lost"})
    assert lost["standings"][0]["points"] == 5 and lost["seats"][0]["how"] == "chosen"
    hidden = preview(db, *args, str(a.id))
    assert hidden["rated"] and [r["name"] for r in hidden["standings"]] == ["Ada", "Bo", "Cy"]
    bo = hidden["standings"][1]
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    (drawn,), _ = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])  # both lost: a draw
    assert bo["rank_before"] is None and bo["points"] == 0
    assert bo["rating"] == pytest.approx(drawn.mu - 3 * drawn.sigma)
    counted = preview(db, *args, str(b.id))
    assert counted["counted"] and counted["standings"][0]["points"] == counted["standings"][0]["points_before"]
    client = create_app({"ARCHIVE": archive}).test_client()
    page = client.get(f"/leagues/test-club/tuesday/y2026/preview/{c.id}?seat1=lost")
    assert page.status_code == 200 and 'value="lost" selected' in page.get_data(as_text=True)
    assert client.get(f"/leagues/test-club/tuesday/y2026/preview/{c.id}?seat1=maybe").status_code == 400
    assert client.get(f"/api/clubs/test-club/leagues/tuesday/seasons/y2026/preview/{a.id}").get_json()["rated"]
    season = client.get("/leagues/test-club/tuesday/y2026").get_data(as_text=True)
    assert f"/leagues/test-club/tuesday/y2026/preview/{c.id}" in season


# Power (issue 9): the setup leaves tokens 3 and 4 off (lockdown.md §3.1 step 7, seed L971) — no loss; the first
# time-track move enters space 14, a red threshold (gaps_filled.md §13.2), so power drops in round 1 unless the
# time token is blue. Game P turns emergency power on in round 1: the red thresholds 14 and 13 keep the power and
# the blue one into 11 drops token 2 (S-02) in round 4. Game N has emergency power and ends in round 4 before
# its event phase: power never lost, though S-03 and the elevator were dark from the setup.
EMERGENCY_ON = [("PowerChanged", None, {"emergency": True, "on": True})]
A_ROUND = [("Passed", 1, {"discarded": 0}), ("TimeAdvanced", None, {}), ("NoiseMarkersCleared", None, {"removed": []}),
           ("EventCardDrawn", None, {"card": "lurking", "corridors": [2]}), ("ColonyTokenDrawn", None, {"token": "blank"}),
           ("FirstPlayerPassed", 1, {"to": 1})]
ENDED = [("GameEnded", None, {"ending": "time_out"})]


def test_power_lost_counts_the_first_drop_in_play_not_the_setup(fresh_archive):
    db = fresh_archive.db
    make(fresh_archive, ["Ada"], "solo", SOLO_SETUP + EMERGENCY_ON + A_ROUND * 4 + ENDED)  # P: lost in round 4
    make(fresh_archive, ["Bo"], "solo", SOLO_SETUP + EMERGENCY_ON + A_ROUND * 3 + ENDED)  # N: never lost
    make(fresh_archive, ["Cy"], "solo", SOLO_SETUP + A_ROUND + ENDED)  # the usual game: the red threshold in round 1
    worker = Worker(db, poll=0.2)
    worker.start_thread()
    try:
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(db).values()))
    finally:
        worker.stop()
    from projections.statistics import GAME_COLUMNS

    column = {c: i for i, c in enumerate(GAME_COLUMNS)}
    rows = {r[column["rounds"]]: (r[column["power_lost_round"]], r[column["blackout_round"]])
            for r in stats_tables(db)["games"]}
    assert rows == {5: (4, None), 4: (None, None), 2: (1, None)}
    for from_seats in (False, True):  # the kept counts and the rows they summarise
        deaths = sq.section(db, "deaths", sq.Scope(), from_seats=from_seats)["tables"]
        assert keyed(deaths["power_lost"], "games") == {1: (1,), 4: (1,), None: (1,)}


def test_ties_sort_by_code_point_whatever_the_collation(projected, fresh_database):
    """Issue 9: ties on the deaths page come in the same order from the kept counts (sorted in Python) and from the
    rows (SQL), even when the database sorts text by a language's rules (simulated by an ICU column collation,
    under which 'a' < 'B'; by code point 'B' < 'a')."""
    from projections.league import tally

    archive, _ = projected
    db = archive.db
    with fresh_database.connect() as conn:  # the owner (the archive's role may not alter the view's tables)
        # a language's collation, as this server has one: ICU's, else the C library's English one
        collation = conn.execute("SELECT collname FROM pg_collation WHERE collname IN ('en-US-x-icu', 'und-x-icu', "
                                 "'en_US.utf8', 'en_US.UTF-8', 'en_US') ORDER BY collprovider DESC, collname "
                                 "LIMIT 1").fetchone()
        if collation is None:
            pytest.skip("this PostgreSQL has no ICU nor English C-library collation to sort by a language's rules")
        stats, league = active_prefix(conn, "stats"), active_prefix(conn, "league")
        for table, column in ((f"{stats}_seats", "death_cause"), (f"{league}_seats", "died_of")):
            conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN {} TYPE text COLLATE {}").format(
                sql.Identifier(table), sql.Identifier(column), sql.Identifier(collation[0])))
            for old, new in (("rapid_response_team", "B"), ("attack", "a")):
                conn.execute(sql.SQL("UPDATE {} SET {} = %s WHERE {} = %s").format(
                    sql.Identifier(table), sql.Identifier(column), sql.Identifier(column)), (new, old))
        with conn.cursor(row_factory=dict_row) as curs:
            tally(curs, lambda name: sql.Identifier(f"{league}_{name}"), None, +1)
        assert [r[0] for r in conn.execute(sql.SQL("SELECT {c} FROM {t} WHERE {c} IS NOT NULL ORDER BY 1").format(
            c=sql.Identifier("death_cause"), t=sql.Identifier(f"{stats}_seats"))).fetchall()] == ["a", "B"]
        conn.commit()
    for from_seats in (False, True):
        causes = sq.section(db, "deaths", sq.Scope(), from_seats=from_seats)["tables"]["death_causes"]
        assert [(r["key"], r["deaths"]) for r in causes] == [("B", 1), ("a", 1)], from_seats
