"""Statistics view: the character page's query (win and survival by character, objective and plan) at N games.

N finished games (default 10,000; 2–5 seats each, 40 players, 8 characters, dates over a year) are written
straight into the "stats" view's rows and the league view's game and seat rows (one season holding all of
them), and the league view's kept counts are counted from them (decision 0035): the cost measured is the
statistics read, not folding games (bench/rebuild.py measures that). The character and deaths pages read the
kept counts; the same pages counted from the rows (as before decision 0035) are measured beside them and must
give the same tables. Baseline, in the same run: one plain ``count(*)`` over the same seat rows.

    .venv/bin/python bench/stats_view.py [--games 10000] [--runs 30] [--database-url URL]
"""
from __future__ import annotations

import random
import time
import uuid
from datetime import date, timedelta

from common import log, median, parser, percentile, scratch_database, table

CHARACTERS = ("survivor", "hacker", "lab_rat", "sentry", "janitor", "xenobiologist", "cook", "guard")
CAUSES = (None, None, "wounds", "attack", "infection", "time_out")


def fill(db, season_id, games: int) -> None:
    from psycopg import sql

    from projections.generations import active_prefix

    rng = random.Random(11)
    players = [f"Player {i}" for i in range(40)]
    start = date(2026, 1, 1)
    g_rows, s_rows, l_rows, ls_rows = [], [], [], []
    for _ in range(games):
        gid = uuid.UUID(int=rng.getrandbits(128))
        day = start + timedelta(days=rng.randrange(365))
        n = rng.choice((2, 3, 4, 4, 5))
        mode = rng.choice(("standard", "standard", "coop"))
        plan = rng.choice(("signal", "knowledge", "pods", "isolation", "save_all"))
        g_rows.append((gid, "lockdown", mode, n, "bench", day, f"{day}T20:00:00+00:00", True, "time_out", plan, 12, 1,
                       rng.choice((None, 8, 10)), rng.choice((None, 3, 5)), rng.randrange(4)))
        g = g_rows[-1]
        l_rows.append((gid, "lockdown", mode, None, "bench", day, f"{day}T20:00:00+00:00", True, True, "time_out",
                       season_id, "x", n, True, g[13], g[11], g[12]))
        for seat, name in enumerate(rng.sample(players, n), 1):
            cause = rng.choice(CAUSES)
            won = cause is None and rng.random() < .4
            s_rows.append((gid, seat, name, name.casefold(), mode, n, day, True, plan, rng.choice(CHARACTERS),
                           rng.choice(("send_signal", "destroy_nest", "knowledge_at_least")), "won" if won else "lost",
                           cause is None, rng.choice((None, "pod", "bunker")), cause, 6 if cause else None, None, None,
                           6 if cause else 12, rng.randrange(5), rng.randrange(3)))
            r = s_rows[-1]
            ls_rows.append((gid, seat, name, name.casefold(), r[11], r[12], False, cause, season_id, day, False, True, mode,
                            n, True, r[9], r[10], plan, r[18], r[14], r[15], r[13]))
    with db.connect() as conn:
        stats, league = active_prefix(conn, "stats"), active_prefix(conn, "league")
        with conn.cursor() as cur:
            with cur.copy(sql.SQL("COPY {} (game_id, ruleset, mode, players, league_key, played_on, created_at, finished,"
                                  " ending, plan, rounds, power_lost_round, blackout_round, first_death_round, kills)"
                                  " FROM STDIN").format(sql.Identifier(f"{stats}_games"))) as copy:
                for r in g_rows:
                    copy.write_row(r)
            with cur.copy(sql.SQL("COPY {} (game_id, seat, name, name_key, mode, players, played_on, finished, plan,"
                                  " character, objective, outcome, survived, route, death_cause, death_round, death_room,"
                                  " killer, rounds_survived, wounds, kills) FROM STDIN").format(
                    sql.Identifier(f"{stats}_seats"))) as copy:
                for r in s_rows:
                    copy.write_row(r)
            with cur.copy(sql.SQL("COPY {} (game_id, ruleset, mode, title, league_key, played_on, created_at, finished,"
                                  " decided, ending, season_id, signature, players, counted, first_death_round,"
                                  " power_lost_round, blackout_round) FROM STDIN").format(
                    sql.Identifier(f"{league}_games"))) as copy:
                for r in l_rows:
                    copy.write_row(r)
            with cur.copy(sql.SQL("COPY {} (game_id, seat, name, name_key, outcome, survived, objective, death_cause,"
                                  " season_id, played_on, hidden, finished, mode, players, counted, character,"
                                  " objective_type, plan, rounds_survived, died_of, death_round, route) FROM STDIN").format(
                    sql.Identifier(f"{league}_seats"))) as copy:
                for r in ls_rows:
                    copy.write_row(r)
        from psycopg.rows import dict_row

        from projections.league import tally

        with conn.cursor(row_factory=dict_row) as cur:
            tally(cur, lambda name: sql.Identifier(f"{league}_{name}"), None, +1)  # as the view keeps them
        conn.execute("ANALYZE")
        conn.commit()


def main(argv=None) -> None:
    from projections import statistics_queries as sq
    from projections.runner import rebuild_views
    from service.context import Archive

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--runs", type=int, default=30, help="reads per case")
    args = p.parse_args(argv)
    with scratch_database(args.database_url, "stats") as db:
        archive = Archive(db)
        try:
            archive.leagues.found_club("Bench club", "bench")
            archive.leagues.open_league("bench", "Bench", "bench")
            season_id = archive.leagues.open_season("bench", "bench", "Year", "year")
        finally:
            archive.close()
        rebuild_views(db, ["league", "stats"])
        log(f"statistics: {args.games:,} games")
        fill(db, season_id, args.games)
        cases = {
            "characters, every game": ("characters", sq.Scope(), False),
            "characters, 4 players, semi-co-op": ("characters", sq.Scope(mode="standard", players=4), False),
            "characters, one season": ("characters", sq.Scope("bench", "bench", "year"), False),
            "characters, every game, from the seat rows (before 0035)": ("characters", sq.Scope(), True),
            "characters, one season, from the seat rows (before 0035)": ("characters", sq.Scope("bench", "bench", "year"), True),
            "deaths, every game": ("deaths", sq.Scope(), False),
            "deaths, every game, from the rows (before 0035)": ("deaths", sq.Scope(), True),
            "escapes, every game": ("escapes", sq.Scope(), False),
            "escapes, every game, from the seat rows (before 0040)": ("escapes", sq.Scope(), True),
        }
        for label, (section, scope, _seats) in cases.items():
            if not _seats:
                kept, counted = sq.section(db, section, scope), sq.section(db, section, scope, from_seats=True)
                assert kept == counted, f"{label}: the kept counts differ from the seat rows"
        reads = {}
        for label, (section, scope, from_seats) in cases.items():
            sq.section(db, section, scope, from_seats=from_seats)  # warm
            times = []
            for _ in range(args.runs):
                t = time.perf_counter()
                sq.section(db, section, scope, from_seats=from_seats)
                times.append(time.perf_counter() - t)
            reads[label] = times
        base = []
        with db.connect() as conn:
            (stats,) = conn.execute("SELECT active FROM read_models WHERE view = 'stats'").fetchone()
            for _ in range(args.runs):
                t = time.perf_counter()
                conn.execute(f"SELECT count(*) FROM stats_g{stats}_seats").fetchone()
                base.append(time.perf_counter() - t)
    b = median(base)
    print(f"Statistics view, {args.games:,} finished games (2–5 seats, 40 players)\n")
    print(table(["read", "p50 ms", "p90 ms", "p50 / count(*) of the seats"],
                [[k, f"{median(v) * 1000:.1f}", f"{percentile(v, 90) * 1000:.1f}", f"{median(v) / b:.1f}"]
                 for k, v in reads.items()] + [["baseline: count(*) of the seat rows", f"{b * 1000:.1f}", "", "1"]]))


if __name__ == "__main__":
    main()
