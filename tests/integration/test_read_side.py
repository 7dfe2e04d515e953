"""The read side at scale (decision 0026): one pool of connections for the read models, a table of
per-player counts kept by the view, and indexes under every list, sort and filter query.

The index test fills the views' tables with many synthetic rows (a big archive's shape: thousands
of games over many players, a league of ten seasons), runs each query function of the web pages
and the API through a pool whose cursors ask PostgreSQL for the plan first (EXPLAIN, the real
planner on the real tables), and fails on a sequential scan of a big table.
"""
from __future__ import annotations

import threading
from datetime import date

import psycopg
import pytest
from psycopg import sql
from psycopg_pool import ConnectionPool

from projections import league_queries as lq
from projections import queries
from projections.generations import active_prefix
from service.readpool import APPLICATION_NAME, close_pool, open_pool, pool_of, read_rows, reading
from projections.runner import rebuild_views
from service.context import Archive
from service.roles import app_database
from tests.helpers import generated

BIG = ("gameindex_games", "gamestate_states", "playerresults_results", "corridors_observations", "league_games",
       "league_seats", "league_ratings")


def _pool_sessions(db) -> int:
    with db.connect() as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
                            (db.name, APPLICATION_NAME)).fetchone()[0]


def test_page_loads_borrow_from_one_pool_no_larger_than_configured(fresh_database):
    from web import create_app

    archive = Archive(app_database(fresh_database), read_connections=2)
    try:
        client = create_app({"ARCHIVE": archive}).test_client()
        pages = ["/", "/players", "/api/games", "/api/games?player=ada", "/api/players", "/leagues", "/api/clubs",
                 "/api/player-registry"]
        seen, failures = [], []

        def load(n):
            for i in range(n):
                r = client.get(pages[i % len(pages)])
                if r.status_code != 200:
                    failures.append((pages[i % len(pages)], r.status_code))
                seen.append(_pool_sessions(fresh_database))

        threads = [threading.Thread(target=load, args=(16,)) for _ in range(6)]  # 96 page loads, 6 at a time
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures
        assert 1 <= max(seen) <= 2 and _pool_sessions(fresh_database) <= 2
        assert pool_of(archive.db).get_stats()["connections_num"] <= 2
    finally:
        archive.close()
    assert pool_of(archive.db) is None and _pool_sessions(fresh_database) == 0  # closed with the archive


def test_the_pool_survives_a_dropped_session(fresh_database):
    """A pooled connection the server ended (a restart, an idle timeout) is replaced, not handed out."""
    db = app_database(fresh_database)
    open_pool(db, 1)
    try:
        assert queries.list_games(db) == []
        with fresh_database.connect(autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s"
                         " AND application_name = %s", (db.name, APPLICATION_NAME))
        assert queries.list_games(db) == []
    finally:
        close_pool(db)


def _ended_sessions(db, owner) -> None:
    with owner.connect(autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s"
                     " AND application_name = %s", (db.name, APPLICATION_NAME))


def test_read_rows_lends_a_connection_unchecked_and_survives_a_dropped_session(fresh_database, monkeypatch):
    """``read_rows`` (who asks and where the game counts, on every write: decision 0052) lends the pooled
    connection without the pool's check, its statements committed as they run; a connection the server ended
    meanwhile costs a second try on a checked one, not a failed request."""
    db = app_database(fresh_database)
    open_pool(db, 1)
    try:
        checks = []
        check = ConnectionPool.check_connection
        monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(lambda conn: (checks.append(1), check(conn))))
        assert read_rows(db, [("SELECT 1 AS a", None), ("SELECT %s::int AS b", (2,))]) == [[{"a": 1}], [{"b": 2}]]
        assert read_rows(db, [("SELECT 3 AS c", None)]) == [[{"c": 3}]]
        assert checks == []  # lent unchecked
        with reading(db) as conn:  # any other borrower: checked, in a transaction, as before
            conn.execute("SELECT 1")
            assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        assert len(checks) == 1
        _ended_sessions(db, fresh_database)
        checks.clear()
        assert read_rows(db, [("SELECT 4 AS d", None), ("SELECT 5 AS e", None)]) == [[{"d": 4}], [{"e": 5}]]
        assert len(checks) == 1  # the second try, on a checked connection
        with pytest.raises(psycopg.errors.UndefinedTable):  # a statement's own error is not tried again
            read_rows(db, [("SELECT * FROM no_such_table", None)])
        assert read_rows(db, [("SELECT 6 AS f", None)]) == [[{"f": 6}]]  # and the connection is fine after it
    finally:
        close_pool(db)


def test_per_player_counts_are_kept_as_the_group_by_would_count_them(fresh_archive):
    db = fresh_archive.db
    for seed, names in ((5005, ["Ada", "Bo", "Cy"]), (5003, ["ada", "Dee", "Cy"]), (5011, ["Bo", "Eve", "Ada"])):
        header, facts = generated(seed, players=3)
        header["players"] = [{"seat": i + 1, "name": n} for i, n in enumerate(names)]
        game = fresh_archive.games.create_game(header)
        fresh_archive.games.record(game.id, facts[: len(facts) // 2])  # in progress first ...
        rebuild_views(db, ["playerresults"])
        fresh_archive.games.record(game.id, facts[len(facts) // 2:])  # ... then finished
    header, facts = generated(5000, players=3)
    header["players"] = [{"seat": i + 1, "name": n} for i, n in enumerate(["Zed", "Bo", "Cy"])]
    unfinished = fresh_archive.games.create_game(header)
    fresh_archive.games.record(unfinished.id, facts[:40])

    def grouped():
        with db.connect() as conn:
            t = active_prefix(conn, "playerresults")
            return conn.execute(sql.SQL(
                "SELECT min(player), player_key, count(*), count(*) FILTER (WHERE finished AND NOT incomplete),"
                " count(*) FILTER (WHERE outcome = 'won' AND NOT incomplete),"
                " count(*) FILTER (WHERE outcome = 'lost' AND NOT incomplete),"
                " count(*) FILTER (WHERE finished AND NOT incomplete AND outcome = 'undetermined'),"
                " count(*) FILTER (WHERE incomplete) FROM {} GROUP BY player_key ORDER BY player_key").format(
                sql.Identifier(f"{t}_results"))).fetchall()

    from projections.runner import Worker
    from tests.helpers import wait_for

    worker = Worker(db, poll=0.2)
    worker.start_thread()
    try:  # the live worker adds the rest of each game on top of the rebuilt first halves
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: queries.tracking_positions(db)["playerresults"] >= head, timeout=120)
    finally:
        worker.stop()
    kept = sorted(tuple(r.values()) for r in queries.player_table(db))
    assert kept == sorted(tuple(r) for r in grouped())
    assert {r["player_key"] for r in queries.player_table(db)} == {"ada", "bo", "cy", "dee", "eve", "zed"}
    assert queries.player_table(db, "ADA")[0]["played"] == 3
    rebuild_views(db, ["playerresults"])
    assert sorted(tuple(r.values()) for r in queries.player_table(db)) == kept


def test_name_search_finds_part_of_any_name_either_way(fresh_archive, monkeypatch):
    db = fresh_archive.db
    ids = {}
    for seed, names in ((5005, ["Ada Lovelace", "Bo", "Cy"]), (5003, ["Dee", "Cy", "Eve_1"])):
        header, facts = generated(seed, players=3)
        header["players"] = [{"seat": i + 1, "name": n} for i, n in enumerate(names)]
        ids[seed] = fresh_archive.games.create_game(header).id
    rebuild_views(db, ["gameindex", "playerresults"])
    for by_names in (1.0, 0.0):  # fetched by the names found, or the list walked with the pattern
        monkeypatch.setattr(queries, "SEARCH_BY_NAMES", by_names)
        assert {g["game_id"] for g in queries.list_games(db, player="LOVE")} == {ids[5005]}
        assert {g["game_id"] for g in queries.list_games(db, player="cy")} == {ids[5005], ids[5003]}
        assert {g["game_id"] for g in queries.list_games(db, player="e_1")} == {ids[5003]}
        assert queries.list_games(db, player="e%1") == []  # % and _ are letters here, not patterns
        assert queries.list_games(db, player="nobody") == []


# -- every list, sort and filter query on big tables uses an index -----------------------------------

FILL = """
INSERT INTO {gi} (game_id, ruleset, mode, title, league, tags, played_on, players, player_search, strict, status, round,
                  facts, created_at, updated_at)
SELECT md5('g' || i)::uuid, CASE WHEN i % 10 = 0 THEN 'other' ELSE 'lockdown' END, 'standard', 'Game ' || i, NULL, '{{}}',
       CASE WHEN i % 97 = 0 THEN NULL ELSE date '2024-01-01' + (i % 900) END, '[]',
       'player ' || (i % 400) || ' player ' || ((i + 7) % 400) || ' player ' || ((i + 91) % 400), true, 'finished', 15, 300,
       timestamptz '2024-01-01' + i * interval '1 minute', timestamptz '2024-01-01' + i * interval '1 minute'
FROM generate_series(1, 8000) i;
INSERT INTO {gs} (game_id, position, round, phase, acting, finished, ending, flagged, state, updated_at)
SELECT md5('g' || i)::uuid, 300, 15, 'end', NULL, true, 'time_out', 0, '{{}}', now() FROM generate_series(1, 8000) i;
INSERT INTO {pr} (game_id, seat, player, player_key, ruleset, mode, played_on, finished, outcome, incomplete)
SELECT md5('g' || i)::uuid, s, 'Player ' || ((i + s * s * 7) % 400), 'player ' || ((i + s * s * 7) % 400), 'lockdown',
       'standard', date '2024-01-01' + (i % 900), true, CASE WHEN (i + s) % 3 = 0 THEN 'won' ELSE 'lost' END, false
FROM generate_series(1, 8000) i, generate_series(1, 3) s;
INSERT INTO {pp} SELECT player_key, min(player), count(*), count(*), count(*) FILTER (WHERE outcome = 'won'),
       count(*) FILTER (WHERE outcome = 'lost'), 0, 0 FROM {pr} GROUP BY player_key;
INSERT INTO {co} (game_id, board, from_place, to_place, corridor, moves, character_moves, intruder_moves)
SELECT md5('g' || i)::uuid, 'board' || (i % 20), 'room' || (i % 30), 'room' || ((i + 1) % 30), '1', 1, 1, 0
FROM generate_series(1, 8000) i;
INSERT INTO {lc} VALUES (md5('club')::uuid, 'club', 'Club');
INSERT INTO {ll} VALUES (md5('league')::uuid, md5('club')::uuid, 'league', 'League', 'league', '{{}}', false, 1);
INSERT INTO {ls} SELECT md5('season' || k)::uuid, md5('league')::uuid, 'season-' || k, 'Season ' || k, NULL, NULL, k
FROM generate_series(1, 10) k;
INSERT INTO {lg} (game_id, ruleset, mode, title, league_key, played_on, created_at, finished, decided, ending, season_id,
                  hidden, signature)
SELECT md5('g' || i)::uuid, 'lockdown', 'standard', NULL, 'league', date '2024-01-01' + (i % 900),
       timestamptz '2024-01-01' + i * interval '1 minute', true, true, 'time_out', md5('season' || (i % 10 + 1))::uuid,
       false, 'x' FROM generate_series(1, 8000) i;
INSERT INTO {lx} (game_id, seat, name, name_key, outcome, survived, objective)
SELECT md5('g' || i)::uuid, s, 'Player ' || ((i + s * s * 7) % 40), 'player ' || ((i + s * s * 7) % 40),
       CASE WHEN (i + s) % 3 = 0 THEN 'won' ELSE 'lost' END, s = 1, s = 2
FROM generate_series(1, 8000) i, generate_series(1, 3) s;
UPDATE {lx} x SET season_id = g.season_id, played_on = g.played_on, hidden = g.hidden, finished = g.finished
FROM {lg} g WHERE g.game_id = x.game_id;
INSERT INTO {lr} (season_id, game_id, played_on, created_at, player_id, name, outcome, mu_before, sigma_before, mu, sigma, rated)
SELECT g.season_id, g.game_id, g.played_on, g.created_at, md5(x.name_key)::uuid, x.name, x.outcome, 25, 8, 25, 8, 1
FROM {lg} g JOIN {lx} x ON x.game_id = g.game_id;
INSERT INTO {lcur} SELECT DISTINCT ON (season_id, player_id) season_id, player_id, mu, sigma, rated FROM {lr}
ORDER BY season_id, player_id, played_on DESC, created_at DESC, game_id DESC;
"""


class Explaining(psycopg.Cursor):
    """Asks the planner for each SELECT's plan before running it, and keeps the plans."""

    plans: list = []

    def execute(self, query, params=None, **kwargs):
        text = query.as_string(self.connection) if not isinstance(query, str) else query
        if text.lstrip().upper().startswith(("SELECT", "WITH")) and "read_models" not in text:
            with self.connection.cursor(row_factory=psycopg.rows.tuple_row) as c:
                c.execute("EXPLAIN (FORMAT JSON) " + text, params)
                Explaining.plans.append((text, c.fetchone()[0][0]["Plan"]))
        return super().execute(query, params, **kwargs)


def _nodes(plan):
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


@pytest.fixture
def big_archive(fresh_database):
    db = fresh_database
    with db.connect() as conn:
        names = {}
        for key, view, table in (("gi", "gameindex", "games"), ("gs", "gamestate", "states"),
                                 ("pr", "playerresults", "results"), ("pp", "playerresults", "players"),
                                 ("co", "corridors", "observations"), ("lc", "league", "clubs"),
                                 ("ll", "league", "leagues"), ("ls", "league", "seasons"), ("lg", "league", "games"),
                                 ("lx", "league", "seats"), ("lr", "league", "ratings"), ("lcur", "league", "current")):
            names[key] = sql.Identifier(f"{active_prefix(conn, view)}_{table}").as_string(conn)
        conn.execute(FILL.format(**names))
        conn.commit()
    with db.connect(autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return db


def test_every_list_sort_and_filter_query_uses_an_index(big_archive):
    db = app_database(big_archive)
    Explaining.plans = []
    open_pool(db, 1, cursor_factory=Explaining)
    try:
        with db.connect() as conn:
            some_game = conn.execute(sql.SQL("SELECT game_id FROM {} LIMIT 1").format(
                sql.Identifier(f"{active_prefix(conn, 'gameindex')}_games"))).fetchone()[0]
            hidden = [r[0] for r in conn.execute(sql.SQL("SELECT game_id FROM {} LIMIT 20").format(
                sql.Identifier(f"{active_prefix(conn, 'gameindex')}_games"))).fetchall()]  # a members-only league
        runs = {
            "games list": lambda: queries.list_games(db),
            "games list, page 5": lambda: queries.list_games(db, offset=200),
            "games list, dates": lambda: queries.list_games(db, played_from=date(2024, 3, 1), played_to=date(2024, 3, 9)),
            "games list, ruleset": lambda: queries.list_games(db, ruleset="other"),
            "search, a rare name": lambda: queries.list_games(db, player="player 17"),
            "search, a common part": lambda: queries.list_games(db, player="player"),
            "game state": lambda: queries.game_state(db, some_game),
            "players": lambda: queries.player_table(db),
            "a player": lambda: queries.player_table(db, "Player 7"),
            "corridors": lambda: queries.corridor_proposals(db, "board3"),
            "players, outside a members-only league": lambda: queries.player_table(db, exclude=hidden),
            "a player, outside a members-only league": lambda: queries.player_table(db, "Player 7", exclude=hidden),
            "corridors, outside a members-only league": lambda: queries.corridor_proposals(db, "board3", exclude=hidden),
            "clubs": lambda: lq.clubs(db),
            "standings": lambda: lq.standings(db, "club", "league", "season-3"),
            "standings as of": lambda: lq.standings(db, "club", "league", "season-3", as_of=date(2024, 6, 1)),
            "rating history": lambda: lq.rating_history(db, "club", "league", "season-3"),
            "a player's history": lambda: lq.rating_history(db, "club", "league", "season-3", player="Player 5"),
            "season games": lambda: lq.season_games(db, "club", "league", "season-3", limit=50),
            "registry": lambda: lq.players(db),
        }
        scans = []
        for label, run in runs.items():
            Explaining.plans = []
            run()
            assert Explaining.plans, label
            for text, plan in Explaining.plans:
                for node in _nodes(plan):
                    rel = node.get("Relation Name", "")
                    if node["Node Type"] == "Seq Scan" and any(rel.endswith(b.split("_", 1)[1]) and rel.startswith(
                            b.split("_", 1)[0]) for b in BIG):
                        scans.append((label, rel, text))
            if label == "games list":  # the index gives the list's order: no sort of the whole table
                assert not any(n["Node Type"] == "Sort" for _, p in Explaining.plans for n in _nodes(p)), label
        assert not scans, "\n".join(f"{label}: Seq Scan on {rel}\n  {text}" for label, rel, text in scans)
    finally:
        close_pool(db)
