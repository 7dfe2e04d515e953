"""Read side at 10,000 and 100,000 games: league standings and re-rating, the games list, name search and
per-player statistics, each against a trivial indexed SELECT round trip measured in the same run.

Set-up (untimed): ``--sources`` generated games (4 seats from a club of 40 players, dates over 2026, header
league "Bench") are imported through the archive and projected by a real rebuild of every view; a club,
league and open season "Year" are real league facts. Then each source game is cloned inside PostgreSQL
(``INSERT … SELECT``): its stored events under a new game id (so the event table holds as many facts as
that many real games) and its rows in every view under the same id (projecting identical games again
would give identical rows), until the archive holds ``--games``; the views' tracking moves to the head.
The league's ratings are then computed by the view's own code (timed: "rate the whole season").
The 100,000-game figures (``--big``) clone the list and player views' rows ten times more (not the
events, nor the league).

    .venv/bin/python bench/read_side.py [--games 10000] [--big 100000] [--runs 3] [--reads 30] [--database-url URL]
"""
from __future__ import annotations

import random
import time
from datetime import date, timedelta

from common import log, median, parser, scratch_database, table

PLAYERS = [f"Player {i}" for i in range(40)]


def sources(archive, n: int, seed: int = 7) -> list:
    from common import generated

    rng = random.Random(seed)
    ids = []
    for i in range(n):
        header, facts = generated(6000 + i, players=4, max_rounds=15)
        header["players"] = [{"seat": s + 1, "name": name} for s, name in enumerate(rng.sample(PLAYERS, 4))]
        header["played_on"] = (date(2026, 1, 1) + timedelta(days=rng.randrange(365))).isoformat()
        header["league"] = "Bench"
        header["title"] = f"club night {i}"
        ids.append(archive.games.import_game(header, facts).id)
    return ids


def clone(db, copies: int, views_only: tuple[str, ...] | None = None) -> None:
    """Clone every source game ``copies`` times: events (unless ``views_only``) and view rows, one transaction."""
    from psycopg import sql

    from projections.generations import active_prefix

    with db.connect() as conn:
        p = {v: active_prefix(conn, v) for v in ("gameindex", "gamestate", "playerresults", "corridors", "league")}
        new_id = "md5(%s::text || ':" + ("v" if views_only else "e") + ":' || k)::uuid"
        k = sql.SQL("generate_series(1, {}) k").format(sql.Literal(copies))
        src = "(SELECT game_id FROM {}_games)".format(p["gameindex"])  # the sources: games of the index now
        if views_only is None:
            conn.execute(sql.SQL(
                "INSERT INTO games_events (originator_id, originator_version, topic, state)"
                " SELECT " + new_id % "e.originator_id" + ", e.originator_version, e.topic, e.state"
                " FROM games_events e, {k} WHERE e.originator_id IN " + src
                + " ORDER BY k, e.notification_id").format(k=k))
        tables = {
            "gameindex": [("games", "game_id")],
            "gamestate": [("states", "game_id")],
            "playerresults": [("results", "game_id")],
            "corridors": [("observations", "game_id")],
            "league": [("games", "game_id"), ("seats", "game_id")],
        }
        for view, names in tables.items():
            if views_only is not None and view not in views_only:
                continue
            for name, key in names:
                ident = f"{p[view]}_{name}"
                cols = [r[0] for r in conn.execute(
                    "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped"
                    " ORDER BY attnum", (ident,)).fetchall()]
                select = ", ".join(new_id % f"t.{c}" if c == key else f"t.{c}" for c in cols)
                conn.execute(sql.SQL("INSERT INTO {} ({}) SELECT " + select + " FROM {} t, {k} WHERE t.{} IN " + src).format(
                    sql.Identifier(ident), sql.SQL(", ").join(map(sql.Identifier, cols)), sql.Identifier(ident),
                    sql.Identifier(key), k=k))
        if views_only is None or "league" in views_only:  # the league view's kept counts, as it keeps them (0035)
            from psycopg.rows import dict_row

            from projections.league import tally

            with conn.cursor(row_factory=dict_row) as cur:
                tally(cur, lambda name: sql.Identifier(f"{p['league']}_{name}"), None, +1)
        players = f"{p['playerresults']}_players"
        conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(players)))
        conn.execute(sql.SQL(
            "INSERT INTO {} SELECT player_key, min(player), count(*), count(*) FILTER (WHERE finished AND NOT incomplete),"
            " count(*) FILTER (WHERE outcome = 'won' AND NOT incomplete), count(*) FILTER (WHERE outcome = 'lost' AND NOT incomplete),"
            " count(*) FILTER (WHERE finished AND NOT incomplete AND outcome = 'undetermined'), count(*) FILTER (WHERE incomplete)"
            " FROM {} GROUP BY player_key").format(sql.Identifier(players), sql.Identifier(f"{p['playerresults']}_results")))
        (head,) = conn.execute("SELECT max(notification_id) FROM games_events").fetchone()
        for view, pre in p.items():
            conn.execute(sql.SQL("UPDATE {} SET notification_id = %s WHERE application_name = 'Games'").format(
                sql.Identifier(f"{pre}_tracking")), (head,))
        conn.commit()
    with db.connect(autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def rerate(db, season_id, since) -> float:
    from projections.league import Resolver
    from projections.runner import open_view

    with db.connect() as conn:
        (active,) = conn.execute("SELECT active FROM read_models WHERE view = 'league'").fetchone()
    view = open_view(db, "league", active)
    try:
        t = time.perf_counter()
        with view.datastore.transaction(commit=True) as curs:
            view.rate_season(curs, season_id, since, Resolver.load(curs, view.table))
        return time.perf_counter() - t
    finally:
        view.datastore.close()


def season_games(db, season_id) -> list[tuple]:
    """(key, mode, seats) of the season's rated games in rating order, for the in-memory baseline."""
    from projections.generations import active_prefix

    with db.connect() as conn:
        pre = active_prefix(conn, "league")
        return conn.execute(
            f"SELECT g.played_on, g.created_at, g.game_id, array_agg(s.name_key ORDER BY s.seat),"
            f" array_agg(s.outcome ORDER BY s.seat) FROM {pre}_games g JOIN {pre}_seats s ON s.game_id = g.game_id"
            f" WHERE g.season_id = %s AND g.decided AND NOT g.hidden GROUP BY g.game_id ORDER BY 1, 2, 3",
            (season_id,)).fetchall()


def openskill_in_memory(games) -> float:
    """openskill itself (PlackettLuce.rate) over the same games, ratings in a dict."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    t = time.perf_counter()
    ratings = {}
    for *_, keys, outcomes in games:
        teams = [[model.rating(*ratings.get(k, (25.0, 25 / 3)))] for k in keys]
        for k, team in zip(keys, model.rate(teams, ranks=[1 if o == "won" else 2 for o in outcomes])):
            ratings[k] = (team[0].mu, team[0].sigma)
    return time.perf_counter() - t


def p50(fn, reads: int) -> float:
    times = []
    for _ in range(reads):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return median(times)


def read_cases(db, client, big: bool) -> dict:
    from projections import league_queries as lq
    from projections import queries
    from projections.generations import active_prefix
    from service.readpool import reading

    with db.connect() as conn:
        some = conn.execute(f"SELECT game_id FROM {active_prefix(conn, 'gameindex')}_games LIMIT 1").fetchone()[0]

    def baseline():
        with reading(db) as conn:
            conn.execute(f"SELECT game_id FROM {active_prefix(conn, 'gameindex')}_games WHERE game_id = %s", (some,)).fetchone()

    cases = {"baseline: one indexed SELECT by key through the pool (with the view lookup)": baseline}
    if not big:
        cases |= {
            "standings now (`league_queries.standings`)": lambda: lq.standings(db, "bench", "bench", "year"),
            "standings as of 2026-07-01": lambda: lq.standings(db, "bench", "bench", "year", as_of=date(2026, 7, 1)),
            "season page (HTTP, standings + the newest 50 games, rendered)":
                lambda: client.get("/leagues/bench/bench/year").status_code == 200 or 1 / 0,
            "character statistics page (HTTP, every game, rendered)":
                lambda: client.get("/statistics").status_code == 200 or 1 / 0,
        }
    cases |= {
        "games list, first page (50)": lambda: queries.list_games(db),
        "games list, page 20": lambda: queries.list_games(db, offset=950),
        "search a name: 'player 17' (few of the names)": lambda: queries.list_games(db, player="player 17"),
        "search a common part: 'player'": lambda: queries.list_games(db, player="player"),
        "player statistics, every player": lambda: queries.player_table(db),
        "player statistics, one player": lambda: queries.player_table(db, "Player 7"),
        "games list page (HTTP, rendered)": lambda: client.get("/").status_code == 200 or 1 / 0,
    }
    return cases


def measure_reads(db, client, runs: int, reads: int, big: bool) -> dict:
    cases = read_cases(db, client, big)
    for fn in cases.values():  # warm: the pool's connections, prepared plans, the page templates
        fn()
    got = {label: [] for label in cases}
    for _ in range(runs):
        for label, fn in cases.items():
            got[label].append(p50(fn, reads))
    return {label: median(v) for label, v in got.items()}


def main(argv=None) -> None:
    from projections.runner import rebuild_views
    from projections.views import VIEWS
    from service.context import Archive
    from web import create_app

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--big", type=int, default=100_000, help="games for the second read measurement (0: skip)")
    p.add_argument("--sources", type=int, default=50, help="generated games cloned to make the archive")
    p.add_argument("--runs", type=int, default=3, help="runs; each figure is the median of the runs")
    p.add_argument("--reads", type=int, default=30, help="reads per case and run (its p50 is the run's figure)")
    args = p.parse_args(argv)
    out = {}
    with scratch_database(args.database_url, "readside") as db:
        archive = Archive(db)
        try:
            archive.leagues.found_club("Bench club", "bench")
            archive.leagues.open_league("bench", "Bench", "bench")
            season_id = archive.leagues.open_season("bench", "bench", "Year", "year")
            log(f"read side: {args.sources} source games")
            sources(archive, args.sources)
        finally:
            archive.close()
        rebuild_views(db, list(VIEWS))
        copies = args.games // args.sources - 1
        log(f"read side: cloning into {args.games:,} games")
        t = time.perf_counter()
        clone(db, copies)
        out["clone_seconds"] = time.perf_counter() - t
        with db.connect() as conn:
            out["events"] = conn.execute("SELECT count(*) FROM games_events").fetchone()[0]
        games = season_games(db, season_id)
        out["rated_games"] = len(games)
        log("read side: rating")
        full = [rerate(db, season_id, None) for _ in range(args.runs)]
        mid = games[len(games) // 2][:3]
        late = games[len(games) * 11 // 12][:3]
        out["rerate"] = {
            "rate the whole season again (a registry change)": median(full),
            f"re-rate after a late game dated {mid[0]} (half the season)":
                median([rerate(db, season_id, mid) for _ in range(args.runs)]),
            f"re-rate after a late game dated {late[0]} (the last month)":
                median([rerate(db, season_id, late) for _ in range(args.runs)]),
        }
        out["openskill"] = median([openskill_in_memory(games) for _ in range(args.runs)])
        archive = Archive(db)  # as the server runs: its read pool open
        try:
            client = create_app({"ARCHIVE": archive}).test_client()
            log("read side: reads at", f"{args.games:,}")
            out["reads"] = measure_reads(db, client, args.runs, args.reads, big=False)
            if args.big:
                log(f"read side: cloning the list and player views to {args.big:,} games")
                clone(db, args.big // args.games - 1, views_only=("gameindex", "playerresults"))
                out["reads_big"] = measure_reads(db, client, args.runs, args.reads, big=True)
        finally:
            archive.close()
    report(args, out)


def report(args, out) -> None:
    base = out["openskill"]
    print(f"League view, one season of {out['rated_games']:,} rated games (4 seats, 40 players); "
          f"{out['events']:,} stored events; medians of {args.runs} runs\n")
    rows = [[label, f"{s * 1000:.0f}", f"{s / base:.2f}"] for label, s in out["rerate"].items()]
    rows.append([f"baseline: openskill's own `rate` over the same {out['rated_games']:,} games in memory",
                 f"{base * 1000:.0f}", "1"])
    print(table(["", "ms", "ratio to baseline"], rows))
    print()
    big = out.get("reads_big", {})
    headers = ["read (p50 of {} reads, median of {} runs)".format(args.reads, args.runs), f"{args.games:,} games ms",
               "ratio"] + ([f"{args.big:,} games ms", "ratio"] if big else [])
    b0 = next(v for k, v in out["reads"].items() if k.startswith("baseline"))
    b1 = next((v for k, v in big.items() if k.startswith("baseline")), None)
    rows = []
    for label, v in out["reads"].items():
        row = [label, f"{v * 1000:.2f}", f"{v / b0:.1f}"]
        if big:
            w = big.get(label)
            row += ["", ""] if w is None else [f"{w * 1000:.2f}", f"{w / b1:.1f}"]
        rows.append(row)
    print(table(headers, rows))
    log(f"cloning took {out['clone_seconds']:.0f} s")


if __name__ == "__main__":
    main()
