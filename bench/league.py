"""League view: re-rating a season after a late game, and reading its standings as of a date.

A season of N decided games (default 10,000; 4 seats each from a club of 40 players, dates over a
year) is written straight into the league view's game and seat rows — the cost measured is the
rating and standings step, not folding games (bench/rebuild.py measures that). The club, league
and season are real facts. Baseline, in the same run: openskill rating the same games in memory.

    .venv/bin/python bench/league.py [--games 10000] [--runs 20] [--database-url URL]
"""
from __future__ import annotations

import random
import time
import uuid
from datetime import date, datetime, timedelta, timezone

from common import log, median, parser, percentile, scratch_database, table


def fill(db, season_id, games: int) -> list[tuple]:
    """Synthetic decided games in the season (rows of the view, as the projection writes them)."""
    from psycopg import sql

    from projections.generations import active_prefix

    rng = random.Random(9)
    players = [f"Player {i}" for i in range(40)]
    start = date(2026, 1, 1)
    rows, seats, played = [], [], []
    for i in range(games):
        gid = uuid.UUID(int=rng.getrandbits(128))
        day = start + timedelta(days=rng.randrange(365))
        names = rng.sample(players, 4)
        winners = set(rng.sample(range(4), rng.choice((0, 1, 1, 2))))
        rows.append((gid, "lockdown", "standard", None, "bench", day, f"{day}T20:00:00+00:00", True, True, "time_out",
                     season_id, "x"))
        for s, n in enumerate(names):
            seats.append((gid, s + 1, n, n.casefold(), "won" if s in winners else "lost", s in winners, s in winners, None,
                          season_id, day, False, True))
        played.append((day, gid, [(n.casefold(), "won" if s in winners else "lost") for s, n in enumerate(names)]))
    with db.connect() as conn:
        prefix = active_prefix(conn, "league")
        with conn.cursor() as cur:
            cur.executemany(sql.SQL(
                "INSERT INTO {} (game_id, ruleset, mode, title, league_key, played_on, created_at, finished, decided, ending,"
                " season_id, signature) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)").format(sql.Identifier(f"{prefix}_games")), rows)
            cur.executemany(sql.SQL(
                "INSERT INTO {} (game_id, seat, name, name_key, outcome, survived, objective, death_cause, season_id,"
                " played_on, hidden, finished) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)").format(
                sql.Identifier(f"{prefix}_seats")), seats)
        from psycopg.rows import dict_row

        from projections.league import tally

        with conn.cursor(row_factory=dict_row) as cur:
            tally(cur, lambda name: sql.Identifier(f"{prefix}_{name}"), None, +1)  # the kept counts (decision 0035)
        conn.commit()
    with db.connect(autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")  # as autovacuum would have by the time anyone reads a season this big
    return sorted(played, key=lambda p: (p[0], p[1]))


def in_memory(played) -> float:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    t = time.perf_counter()
    ratings = {}
    for _, _, seats in played:  # openskill's own rate (the view now does its arithmetic without the objects)
        teams = [[model.rating(*ratings.get(k, (25.0, 25 / 3)))] for k, _ in seats]
        for (k, _), team in zip(seats, model.rate(teams, ranks=[1 if o == "won" else 2 for _, o in seats])):
            ratings[k] = (team[0].mu, team[0].sigma)
    return time.perf_counter() - t


def rerate(db, season_id, since: date | None) -> float:
    """Re-rate from the first game dated ``since`` (the view rates from a game's (date, created, id))."""
    from projections.league import Resolver
    from projections.runner import open_view

    with db.connect() as conn:
        (active,) = conn.execute("SELECT active FROM read_models WHERE view = 'league'").fetchone()
    view = open_view(db, "league", active)
    try:
        t = time.perf_counter()
        with view.datastore.transaction(commit=True) as curs:
            key = None if since is None else (since, datetime(1970, 1, 1, tzinfo=timezone.utc), uuid.UUID(int=0))
            view.rate_season(curs, season_id, key, Resolver.load(curs, view.table))
        return time.perf_counter() - t
    finally:
        view.datastore.close()


def main(argv=None) -> None:
    from psycopg import sql

    from projections import league_queries as lq
    from projections.generations import active_prefix
    from service.readpool import reading
    from projections.runner import rebuild_views
    from service.context import Archive

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--runs", type=int, default=20, help="standings reads per case")
    args = p.parse_args(argv)
    with scratch_database(args.database_url, "league") as db:
        archive = Archive(db)
        try:
            archive.leagues.found_club("Bench club", "bench")
            archive.leagues.open_league("bench", "Bench", "bench")
            season_id = archive.leagues.open_season("bench", "bench", "Year", "year")
        finally:
            archive.close()
        rebuild_views(db, ["league"])
        log(f"league: {args.games:,} games")
        played = fill(db, season_id, args.games)
        baseline = min(in_memory(played) for _ in range(3))
        full = rerate(db, season_id, None)
        late = min(rerate(db, season_id, date(2026, 12, 1)) for _ in range(3))  # a game of the last month
        mid = min(rerate(db, season_id, date(2026, 7, 1)) for _ in range(3))  # a game half a year late
        reads = {}
        archive = Archive(db)  # as the server reads: through its pool
        with db.connect() as conn:
            some = conn.execute(sql.SQL("SELECT game_id FROM {} LIMIT 1").format(
                sql.Identifier(f"{active_prefix(conn, 'league')}_games"))).fetchone()[0]

        def round_trip():
            with reading(db) as conn:
                conn.execute(sql.SQL("SELECT game_id FROM {} WHERE game_id = %s").format(
                    sql.Identifier(f"{active_prefix(conn, 'league')}_games")), (some,)).fetchone()

        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            round_trip()
            times.append(time.perf_counter() - t)
        reads["baseline: one indexed SELECT by key through the read pool"] = times
        for label, as_of in (("now", None), ("as of 2026-07-01", date(2026, 7, 1))):
            times = []
            for _ in range(args.runs):
                t = time.perf_counter()
                lq.standings(db, "bench", "bench", "year", as_of=as_of)
                times.append(time.perf_counter() - t)
            reads[label] = times

        def seat_count(as_of):  # the seat-row aggregate standings ran before decision 0035 (its SQL part alone)
            with reading(db) as conn:
                seats = sql.Identifier(f"{active_prefix(conn, 'league')}_seats")
                conn.execute(sql.SQL(
                    "SELECT x.name_key, min(x.name), count(*), count(*) FILTER (WHERE x.outcome = 'won'),"
                    " count(*) FILTER (WHERE x.outcome IS DISTINCT FROM 'won' AND x.outcome IS DISTINCT FROM 'lost'),"
                    " count(*) FILTER (WHERE x.survived), count(*) FILTER (WHERE x.objective), max(x.played_on)"
                    " FROM {} x WHERE x.season_id = %s AND NOT x.hidden AND x.finished AND x.played_on <= %s"
                    " GROUP BY x.name_key").format(seats), (season_id, as_of or date(9999, 1, 1))).fetchall()

        for label, as_of in (("now, counted from the seat rows (SQL alone, before 0035)", None),
                             ("as of 2026-07-01, counted from the seat rows (SQL alone, before 0035)", date(2026, 7, 1))):
            times = []
            for _ in range(args.runs):
                t = time.perf_counter()
                seat_count(as_of)
                times.append(time.perf_counter() - t)
            reads[label] = times
        archive.close()
    rows = [
        ["rate the whole season again (a registry change)", f"{full * 1000:.0f}", f"{full / baseline:.1f}"],
        ["re-rate after a late game dated 2026-07-01 (half the season)", f"{mid * 1000:.0f}", f"{mid / baseline:.1f}"],
        ["re-rate after a late game dated 2026-12-01 (the last month)", f"{late * 1000:.0f}", f"{late / baseline:.1f}"],
        [f"baseline: openskill over the same {args.games:,} games in memory", f"{baseline * 1000:.0f}", "1"],
    ]
    print(f"League view, one season of {args.games:,} games, 4 seats each, 40 players\n")
    print(table(["", "ms", "ratio to baseline"], rows))
    print()
    b = median(next(iter(reads.values())))
    print(table(["standings read", "p50 ms", "p90 ms", "p50 / baseline"],
                [[k, f"{median(v) * 1000:.1f}", f"{percentile(v, 90) * 1000:.1f}", f"{median(v) / b:.1f}"]
                 for k, v in reads.items()]))


if __name__ == "__main__":
    main()
