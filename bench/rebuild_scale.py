"""A full rebuild of every view at 10,000 games (about 3 M events) from the fold snapshots, against a sequential
decoded read of the same event table in the same run (issue 11 item 4; decisions 0032, 0041, 0044).

Set-up (untimed): ``--sources`` generated games (4 seats from a club of 40 players, dates over 2026, header league
"Bench", as bench/read_side.py makes them) are imported through the archive after a club, league and open season
"Year" (real league facts), and projected by a rebuild of every view that folds them (it writes their fold
snapshots). Then each source game is cloned inside PostgreSQL (``INSERT … SELECT``): its stored events under a new
game id, and its fold snapshot under the same id (what a rebuild of those games would have written), until the
archive holds ``--games`` games.

Measured, each the median of ``--runs``:

- baseline: every stored event read in notification order, pages of 500, each decoded into its domain event by the
  archive's own mapper (``select_notifications`` + ``to_domain_event``; bench/rebuild.py's baseline);
- a full rebuild of every view from the fold snapshots (``nemesis-archive rebuild``, its default batch), with where
  its time goes as the rebuild measures it (``RebuildReport.timings``).

    .venv/bin/python bench/rebuild_scale.py [--games 10000] [--sources 20] [--runs 3] [--database-url URL]
"""
from __future__ import annotations

import time

from common import log, median, parser, scratch_database, table


def load(db, sources: int) -> None:
    from projections.runner import rebuild_views
    from projections.views import VIEWS
    from read_side import sources as source_games
    from service.context import Archive

    archive = Archive(db)
    try:
        archive.leagues.found_club("Bench club", "bench")
        archive.leagues.open_league("bench", "Bench", "bench")
        archive.leagues.open_season("bench", "bench", "Year", "year")
        source_games(archive, sources)
    finally:
        archive.close()
    rebuild_views(db, list(VIEWS), snapshots=False)  # folds every game: writes its snapshot


def clone(db, copies: int) -> None:
    """Every source game ``copies`` times more under new ids: its events as stored, in order, and its snapshot."""
    new_id = "md5({}::text || ':' || k)::uuid"
    with db.connect() as conn:
        conn.execute(
            "INSERT INTO games_events (originator_id, originator_version, topic, state)"
            " SELECT " + new_id.format("e.originator_id") + ", e.originator_version, e.topic, e.state"
            " FROM games_events e, generate_series(1, %s) k WHERE e.topic LIKE 'service.game:%%'"
            " ORDER BY k, e.notification_id", (copies,))
        conn.execute(
            "INSERT INTO fold_snapshots (game_id, version, fingerprint, summary)"
            " SELECT " + new_id.format("s.game_id") + ", s.version, s.fingerprint,"
            " jsonb_set(s.summary::jsonb, '{id}', to_jsonb(" + new_id.format("s.game_id") + "::text))::json"
            " FROM fold_snapshots s, generate_series(1, %s) k", (copies,))
        conn.commit()
    with db.connect(autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def main(argv=None) -> None:
    from projections.runner import rebuild_views
    from projections.views import VIEWS
    from rebuild import count, decoded_read_seconds, games_count

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="games in the archive (clones of the sources)")
    p.add_argument("--sources", type=int, default=20, help="generated games imported, then cloned")
    p.add_argument("--runs", type=int, default=3, help="runs of each measurement (median)")
    args = p.parse_args(argv)
    started = time.perf_counter()
    with scratch_database(args.database_url, "rebuild_scale") as db:
        log(f"rebuild at scale: {args.sources} source games, folded once")
        load(db, args.sources)
        log(f"rebuild at scale: cloning into {args.games:,} games")
        clone(db, args.games // args.sources - 1)
        events, games = count(db), games_count(db)
        reads, rebuilds = [], []
        for i in range(args.runs):  # alternated, so both see the machine's load of the same minutes
            log(f"rebuild at scale: decoded read of {events:,} events ({i + 1}/{args.runs})")
            seconds, n = decoded_read_seconds(db)
            assert n == events
            reads.append(seconds)
            log(f"rebuild at scale: every view from the fold snapshots ({i + 1}/{args.runs})")
            report = rebuild_views(db, list(VIEWS))[0]
            assert report.events == events and report.timings.from_snapshots > 0
            rebuilds.append((report.seconds, report.timings))
    read_s = median(reads)
    build_s = median([s for s, _ in rebuilds])
    timings = sorted(rebuilds, key=lambda r: r[0])[len(rebuilds) // 2][1]
    per = build_s / events
    print(f"{events:,} events, {games:,} games ({args.sources} generated games of 4 seats in one league season, "
          f"cloned), every view ({', '.join(VIEWS)}); medians of {args.runs} runs, the read and the rebuild "
          f"alternated; {time.perf_counter() - started:.0f} s in all.\n")
    print(table(["", "seconds", "events per second", "µs per event", "ratio to decoded read"], [
        ["**baseline**: sequential decoded read (`select_notifications` + `to_domain_event`, pages of 500)",
         f"{read_s:.1f}", f"{events / read_s:,.0f}", f"{1e6 * read_s / events:.1f}", "1×"],
        ["rebuild every view from the fold snapshots (`nemesis-archive rebuild`)", f"{build_s:.1f}",
         f"{events / build_s:,.0f}", f"{1e6 * per:.1f}", f"**{read_s / build_s:.2f}×**"],
    ]))
    print(f"\nEach run: decoded read {', '.join(f'{s:.1f}' for s in reads)} s; rebuild "
          f"{', '.join(f'{s:.1f}' for s, _ in rebuilds)} s. At {1e6 * per:.1f} µs per event, 3,000,000 events "
          f"rebuild in {3e6 * per:.0f} s (goal: 90 s).\n")
    t = timings
    parts = [("waiting for the next batch (read on a second connection while the last one was written)", t.read),
             ("decode and fold (events no snapshot covers)", t.decode + t.fold + t.summarise),
             ("writing the views (each view in its own thread; wall time)", t.write),
             *((f"… `{v}` (its thread's time, overlapping the others)", s) for v, s in t.per_view.items()),
             ("fold snapshots written", t.snapshots)]
    rest = max(0.0, build_s - t.read - t.decode - t.fold - t.summarise - t.write - t.snapshots)
    parts.append(("the rest (starting and switching generations, building the entries)", rest))
    print("Where the time goes (the median run, measured inside the rebuild):\n")
    print(table(["", "seconds", "share"], [[name, f"{s:.1f}", f"{100 * s / build_s:.0f} %"] for name, s in parts]))


if __name__ == "__main__":
    main()
