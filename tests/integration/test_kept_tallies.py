"""Kept tallies (decision 0035): the league view's counts per season, day and name (standings) and per season,
mode, player count and key (the character and deaths pages) always equal the counts of the rows they summarise — live,
after a game is hidden, moved to another season, corrected, and after a rebuild.

Games (tests/integration/test_statistics.py's, counted by hand there): A (Bo, Cy; both lose) on 2026-02-01 and
D (the same play by Ada and Bo) on 2026-02-10 in season "feb"; B (Ada alone, wins) on 2026-03-01 in "mar";
C in progress.
"""
from __future__ import annotations

from datetime import date

import pytest
from psycopg import sql

from projections import league_queries as lq
from projections import queries
from projections import statistics_queries as sq
from projections.generations import active_prefix
from projections.league import tally
from projections.runner import Worker, rebuild_views
from tests.helpers import wait_for
from tests.integration.test_statistics import PLAY_A, PLAY_B, SETUP_A, SOLO_SETUP, make

CLUB, LEAGUE = "test-club", "tuesday"
KEPT = ("days", "season_days", "characters")


def project(archive):
    worker = Worker(archive.db, poll=0.2)
    worker.start_thread()
    try:
        head = archive.games.recorder.max_notification_id()
        wait_for(lambda: all(p >= head for p in queries.tracking_positions(archive.db).values()))
    finally:
        worker.stop()


def kept(db) -> dict[str, list]:
    with db.connect() as conn:
        p = active_prefix(conn, "league")
        return {name: sorted(map(tuple, conn.execute(sql.SQL("SELECT * FROM {}").format(
            sql.Identifier(f"{p}_{name}"))).fetchall())) for name in KEPT}


def recounted(db) -> dict[str, list]:
    """The tallies counted again from scratch from the view's rows, in a transaction rolled back."""
    from psycopg.rows import dict_row

    with db.connect() as conn:
        p = active_prefix(conn, "league")
        with conn.cursor(row_factory=dict_row) as curs:
            tally(curs, lambda name: sql.Identifier(f"{p}_{name}"), None, +1)
        out = {name: sorted(map(tuple, conn.execute(sql.SQL("SELECT * FROM {}").format(
            sql.Identifier(f"{p}_{name}"))).fetchall())) for name in KEPT}
        conn.rollback()
    return out


def seat_standings(db, season: str, as_of: date | None = None) -> tuple[int, dict]:
    """Standings counted from the seat rows (the query the kept counts replaced)."""
    with db.connect() as conn:
        p = active_prefix(conn, "league")
        (sid,) = conn.execute(sql.SQL("SELECT season_id FROM {} WHERE slug = %s").format(
            sql.Identifier(f"{p}_seasons")), (season,)).fetchone()
        when = sql.SQL("" if as_of is None else " AND played_on <= %s")
        args = (sid,) if as_of is None else (sid, as_of)
        rows = conn.execute(sql.SQL(
            "SELECT name_key, count(*), count(*) FILTER (WHERE outcome = 'won'), count(*) FILTER (WHERE survived),"
            " count(*) FILTER (WHERE objective), max(played_on) FROM {} WHERE season_id = %s AND NOT hidden AND finished"
        ).format(sql.Identifier(f"{p}_seats")) + when + sql.SQL(" GROUP BY name_key"), args).fetchall()
        (games,) = conn.execute(sql.SQL("SELECT count(*) FROM {} WHERE season_id = %s AND NOT hidden AND finished").format(
            sql.Identifier(f"{p}_games")) + when, args).fetchone()
    return games, {r[0]: (r[1], r[2], r[3], r[4], r[5].isoformat()) for r in rows}


def standings(db, season: str, as_of: date | None = None) -> tuple[int, dict]:
    t = lq.standings(db, CLUB, LEAGUE, season, as_of=as_of)
    return t["games"], {r["name"].casefold(): (r["games"], r["wins"], r["survived"], r["objectives"], r["last_played"])
                        for r in t["standings"]}


SCOPES = [sq.Scope(), sq.Scope(mode="solo"), sq.Scope(mode="standard", players=2), sq.Scope(players=1),
          sq.Scope(CLUB, LEAGUE), sq.Scope(CLUB, LEAGUE, "feb"), sq.Scope(CLUB, LEAGUE, "mar"),
          sq.Scope(CLUB, LEAGUE, "feb", mode="standard", players=2)]


def assert_exact(db, exclude=()):
    assert kept(db) == recounted(db)
    for scope in SCOPES + [sq.Scope(s.club, s.league, s.season, s.mode, s.players, tuple(exclude)) for s in SCOPES]:
        for section in sq.KEPT_SECTIONS:
            assert sq.section(db, section, scope) == sq.section(db, section, scope, from_seats=True), (section, scope)
    for season in ("feb", "mar"):
        for as_of in (None, date(2026, 2, 5), date(2026, 2, 28), date(2026, 3, 1)):
            assert standings(db, season, as_of) == seat_standings(db, season, as_of), (season, as_of)


@pytest.fixture
def league(fresh_archive):
    a = fresh_archive
    a.leagues.found_club("Test club", CLUB)
    a.leagues.open_league(CLUB, "Tuesday", LEAGUE)
    a.leagues.open_season(CLUB, LEAGUE, "February", "feb", "2026-02-01", "2026-02-28")
    a.leagues.open_season(CLUB, LEAGUE, "March", "mar", "2026-03-01", "2026-03-31")
    games = {"a": make(a, ["Bo", "Cy"], "standard", SETUP_A + PLAY_A),
             "d": make(a, ["Ada", "Bo"], "standard", SETUP_A + PLAY_A, played_on="2026-02-10"),
             "b": make(a, ["Ada"], "solo", SOLO_SETUP + PLAY_B, played_on="2026-03-01"),
             "c": make(a, ["Ada"], "solo", SOLO_SETUP + [("WoundSuffered", 1, {"kind": "light"})])}
    project(a)
    return a, games


def characters(db, scope):
    return {r["key"]: (r["games"], r["wins"], r["survived"]) for r in
            sq.section(db, "characters", scope)["tables"]["characters"]}


def test_kept_counts_equal_the_rows_as_games_are_hidden_moved_corrected_and_rebuilt(league):
    a, g = league
    db = a.db
    # counted by hand: February holds A and D (Bo twice, both lost), March holds B (Ada won)
    assert standings(db, "feb") == (2, {"bo": (2, 0, 0, 0, "2026-02-10"), "cy": (1, 0, 0, 0, "2026-02-01"),
                                        "ada": (1, 0, 0, 0, "2026-02-10")})
    assert standings(db, "feb", date(2026, 2, 5)) == (1, {"bo": (1, 0, 0, 0, "2026-02-01"), "cy": (1, 0, 0, 0, "2026-02-01")})
    assert standings(db, "mar") == (1, {"ada": (1, 1, 1, 1, "2026-03-01")})
    assert characters(db, sq.Scope(CLUB, LEAGUE, "feb")) == {"survivor": (2, 0, 0), "hacker": (2, 0, 0)}
    assert characters(db, sq.Scope()) == {"survivor": (2, 0, 0), "hacker": (2, 0, 0), "lab_rat": (1, 1, 1)}
    routes = sq.section(db, "escapes", sq.Scope())["tables"]["routes"]  # kept counts (0040): B's pod
    assert [(r["key"], r["tried"], r["survived"], r["wins"], r["wins_rate"]) for r in routes] == [("pod", 1, 1, 1, 1.0)]
    assert sq.section(db, "escapes", sq.Scope(CLUB, LEAGUE, "feb"))["tables"]["routes"] == []
    deaths = sq.section(db, "deaths", sq.Scope(CLUB, LEAGUE, "feb"))["tables"]
    assert {r["key"]: (r["deaths"], r["round"]) for r in deaths["death_causes"]} == {
        "attack": (2, 1.0), "rapid_response_team": (2, 1.0)}
    assert deaths["rounds_survived"] == [{"key": 1, "characters": 4, "died": 4}]
    assert deaths["first_death"] == [{"key": 1, "games": 2}] and deaths["blackout"] == [{"key": None, "games": 2}]
    assert_exact(db, exclude=[g["d"].id])

    a.leagues.hide_game(g["a"].id, "a test game", games=a.games)
    project(a)
    assert standings(db, "feb")[0] == 1 and "cy" not in standings(db, "feb")[1]
    assert characters(db, sq.Scope()) == {"survivor": (1, 0, 0), "hacker": (1, 0, 0), "lab_rat": (1, 1, 1)}
    assert_exact(db, exclude=[g["b"].id])

    a.leagues.show_game(g["a"].id, games=a.games)
    a.leagues.place_game(g["d"].id, CLUB, LEAGUE, "mar", "played in March really", games=a.games)  # moved
    project(a)
    assert standings(db, "feb") == (1, {"bo": (1, 0, 0, 0, "2026-02-01"), "cy": (1, 0, 0, 0, "2026-02-01")})
    assert standings(db, "mar")[0] == 2 and standings(db, "mar")[1]["ada"][0] == 2
    assert characters(db, sq.Scope(CLUB, LEAGUE, "mar")) == {"survivor": (1, 0, 0), "hacker": (1, 0, 0),
                                                            "lab_rat": (1, 1, 1)}
    assert_exact(db, exclude=[g["a"].id, g["d"].id])

    a.games.record(g["a"].id, [{"type": "FactVoided", "data": {"seqs": [13], "reason": "the game went on"}}])
    project(a)  # corrected: A no longer ended, so it counts nowhere
    assert standings(db, "feb") == (0, {})
    assert characters(db, sq.Scope(CLUB, LEAGUE, "feb")) == {}
    assert_exact(db, exclude=[g["d"].id])

    before = kept(db)
    rebuild_views(db, ["league", "stats"])
    assert kept(db) == before
    assert_exact(db, exclude=[g["b"].id, g["d"].id])


def test_the_migration_counts_the_rows_already_projected(league, fresh_database):
    """Migrations 0014 and 0015 (the escapes page's routes) on a database projected before them: the new seat
    columns come from the "stats" view's rows and the counts from the rows, equal to what the view keeps live."""
    from alembic import command

    from service.schema import alembic_config

    a, g = league
    a.leagues.place_game(g["d"].id, CLUB, LEAGUE, "mar", games=a.games)
    project(a)
    live = kept(a.db)
    a.close()  # the read pool: no session in the way of the DDL
    command.downgrade(alembic_config(fresh_database), "0013")  # as the owner role, as migrations run
    with a.db.connect() as conn:
        assert conn.execute("SELECT to_regclass('league_g1_days')").fetchone() == (None,)
    command.upgrade(alembic_config(fresh_database), "0015")
    assert kept(a.db) == live
    assert_exact(a.db, exclude=[g["b"].id])


def test_a_rebuild_from_snapshots_without_the_steps_digest_folds_the_games_again(league):
    """A rebuild of views that read no steps (the games list) stores fold snapshots without the statistics
    tally; a later rebuild of the league view must not take them, or its character counts would lose the games."""
    a, _g = league
    before = characters(a.db, sq.Scope())
    assert before
    rebuild_views(a.db, ["gameindex"])
    rebuild_views(a.db, ["league"])
    assert characters(a.db, sq.Scope()) == before
    assert_exact(a.db)
