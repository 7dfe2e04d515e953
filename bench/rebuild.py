"""Full rebuild of each read model (projections.runner.rebuild) over ~100,000 stored facts
against a sequential read of the whole games_events table through psycopg (pages of 5,000).

    .venv/bin/python bench/rebuild.py [--facts 100000] [--runs 3] [--database-url URL]
"""
from __future__ import annotations

import time

from common import games_totalling, log, median, parser, scratch_database, table


def load(db, total_facts: int) -> int:
    """Store generated games (Games.import_game, untimed); returns the number of events."""
    from service.context import Archive

    archive = Archive(db)
    try:
        for header, facts in games_totalling(total_facts):
            archive.games.import_game(header, facts)
    finally:
        archive.close()
    with db.connect() as conn:
        return conn.execute("SELECT count(*) FROM games_events").fetchone()[0]


def sequential_read_seconds(db, page: int = 5000) -> tuple[float, int]:
    """Every row of games_events, in notification order, keyset pages of ``page`` rows."""
    t, n, last = time.perf_counter(), 0, 0
    with db.connect() as conn:
        while True:
            rows = conn.execute(
                "SELECT notification_id, originator_id, originator_version, topic, state FROM games_events"
                " WHERE notification_id > %s ORDER BY notification_id LIMIT %s", (last, page)
            ).fetchall()
            if not rows:
                break
            n += len(rows)
            last = rows[-1][0]
    return time.perf_counter() - t, n


def main(argv=None) -> None:
    from projections.runner import rebuild, rebuild_views
    from projections.views import VIEWS

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--facts", type=int, default=100_000, help="facts to store before rebuilding (whole games)")
    p.add_argument("--runs", type=int, default=3, help="runs of the (cheap) sequential-read baseline")
    p.add_argument("--views", nargs="*", default=list(VIEWS), help="views to rebuild")
    args = p.parse_args(argv)
    with scratch_database(args.database_url, "rebuild") as db:
        log(f"rebuild: storing {args.facts:,} facts")
        events = load(db, args.facts)
        reads = [sequential_read_seconds(db) for _ in range(args.runs)]
        assert all(n == events for _, n in reads)
        raw_rate = events / median([s for s, _ in reads])
        rows = []
        for view in args.views:
            log(f"rebuild: {view}")
            report = rebuild(db, view)
            assert report.events == events, (report.events, events)
            rows.append([f"rebuild `{view}`", f"{report.seconds:.1f}", report.rate, f"1/{raw_rate / report.rate:.0f}"])
        log("rebuild: all views in one pass")
        reports = rebuild_views(db, args.views)
        seconds = reports[0].seconds
        rate = events / seconds
        rows.append([f"rebuild all {len(args.views)} views in one pass (`nemesis-archive rebuild`)", f"{seconds:.1f}", rate,
                     f"1/{raw_rate / rate:.0f}"])
    rows.append([f"baseline: sequential SELECT, pages of 5,000 (median of {args.runs})", "", raw_rate, "1"])
    print(f"Full rebuild over {events:,} events (batches of 500, the CLI default)\n")
    print(table(["", "seconds", "events per second", "ratio to raw read"], rows))


if __name__ == "__main__":
    main()
