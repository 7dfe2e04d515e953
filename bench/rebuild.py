"""Full rebuild of every read model (projections.runner.rebuild_views, one fold per event for all views)
against a sequential decoded read of the same event table in the same run, then the same at scale.

Set-up (untimed): ``--facts`` facts of generated games imported through the archive. Measured, each the
median of ``--runs``:

- baseline: every stored event read in notification order, pages of 500 (the rebuild's page), each
  decoded into its domain event by the archive's own mapper (``select_notifications`` +
  ``to_domain_event``); also the plain SELECT of the rows without decoding;
- a full rebuild of every view with every game folded from its events (``snapshots=False``): where
  its time goes (read, decode, fold, write, snapshot writes) is measured inside the rebuild;
- the same rebuild again from the fold snapshots the first one wrote (decision 0032), and one view
  (``stats``) rebuilt folded and from snapshots.

Scaled run (``--scale-seconds``, 0 to skip): the stored games are cloned inside PostgreSQL (``INSERT …
SELECT`` of their events under new game ids) until a full folded rebuild should take about that long
at the rate just measured; then one decoded read and one full rebuild of that many events, and the
time per fact extrapolated to 10,000 games.

    .venv/bin/python bench/rebuild.py [--facts 100000] [--runs 3] [--scale-seconds 300] [--database-url URL]
"""
from __future__ import annotations

import math
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
    return count(db)


def count(db) -> int:
    with db.connect() as conn:
        return conn.execute("SELECT count(*) FROM games_events").fetchone()[0]


def games_count(db) -> int:
    with db.connect() as conn:
        return conn.execute("SELECT count(*) FROM games_events WHERE originator_version = 1").fetchone()[0]


def sequential_read_seconds(db, page: int = 5000) -> tuple[float, int]:
    """Every row of games_events, in notification order, keyset pages of ``page`` rows, not decoded."""
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


def decoded_read_seconds(db, page: int = 500) -> tuple[float, int]:
    """Every stored event in notification order, pages of ``page``, each decoded into its domain event."""
    from service.archive import Games

    games = Games(env=db.eventsourcing_env())
    try:
        t, n, start = time.perf_counter(), 0, 0
        while True:
            notes = games.recorder.select_notifications(start=start, limit=page, topics=(), inclusive_of_start=False)
            if not notes:
                break
            for note in notes:
                games.mapper.to_domain_event(note)
            n += len(notes)
            start = notes[-1].id
        return time.perf_counter() - t, n
    finally:
        games.close()


def clone_events(db, copies: int) -> None:
    """Every stored game ``copies`` times more, under new ids (its events as stored, in order)."""
    with db.connect() as conn:
        conn.execute(
            "INSERT INTO games_events (originator_id, originator_version, topic, state)"
            " SELECT md5(e.originator_id::text || ':' || k)::uuid, e.originator_version, e.topic, e.state"
            " FROM games_events e, generate_series(1, %s) k ORDER BY k, e.notification_id", (copies,))
        conn.commit()
    with db.connect(autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE games_events")


def fold_split(runs: int, seeds: int = 3) -> dict[str, float]:
    """µs per fact of the shared folder over generated games (no database), and of its parts: the rules'
    ``apply`` alone over the same facts, and the folder without the views' digest (corridors, tally)."""
    from common import generated

    from projections.folding import GameFolder
    from service.archive import Games, _fact_part

    events, facts = [], []
    for seed in range(1, seeds + 1):
        header, raw = generated(seed)
        game = Games._new_game(header)
        game.record([_fact_part(f) for f in raw])
        events += game.collect_events()
        facts.append((game.ruleset, game.setup, [r.fact for r in game.recorded]))
    n = sum(len(f) for _, _, f in facts)

    def rules():
        for ruleset, setup, fs in facts:
            state = ruleset.initial_state(setup)
            for f in fs:
                state, _ = ruleset.apply(state, f)

    def folder(digests):
        def run():
            fold = GameFolder(lambda: None, digests=digests)
            for e in events:
                fold.advance(e)
        return run

    def timed(fn):
        out = []
        for _ in range(runs):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
        return 1e6 * median(out) / n

    return {"facts": n, "rules": timed(rules), "head": timed(folder(False)), "all": timed(folder(True))}


def rebuild_all(db, views, snapshots: bool):
    from projections.runner import rebuild_views

    reports = rebuild_views(db, views, snapshots=snapshots)
    return reports[0].seconds, reports[0].timings, reports[0].events


def main(argv=None) -> None:
    from projections.runner import rebuild
    from projections.views import VIEWS

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--facts", type=int, default=100_000, help="facts to store before rebuilding (whole games)")
    p.add_argument("--runs", type=int, default=3, help="runs of each measurement (median)")
    p.add_argument("--scale-seconds", type=float, default=300, help="aim of the scaled rebuild's length (0: skip it)")
    p.add_argument("--views", nargs="*", default=list(VIEWS), help="views to rebuild")
    args = p.parse_args(argv)
    with scratch_database(args.database_url, "rebuild") as db:
        log(f"rebuild: storing {args.facts:,} facts")
        events = load(db, args.facts)
        games = games_count(db)
        decoded = [decoded_read_seconds(db) for _ in range(args.runs)]
        raw = [sequential_read_seconds(db) for _ in range(args.runs)]
        assert all(n == events for _, n in decoded + raw)
        decoded_s, raw_s = median([s for s, _ in decoded]), median([s for s, _ in raw])
        cold, warm = [], []
        for i in range(args.runs):
            log(f"rebuild: every view, folded ({i + 1}/{args.runs})")
            cold.append(rebuild_all(db, args.views, snapshots=False))
        for i in range(args.runs):
            log(f"rebuild: every view, from snapshots ({i + 1}/{args.runs})")
            warm.append(rebuild_all(db, args.views, snapshots=True))
        assert all(n == events for _, _, n in cold + warm)
        cold_s, warm_s = median([s for s, _, _ in cold]), median([s for s, _, _ in warm])
        cold_t = sorted(cold, key=lambda r: r[0])[len(cold) // 2][1]
        warm_t = sorted(warm, key=lambda r: r[0])[len(warm) // 2][1]
        log("rebuild: one view (stats), folded and from snapshots")
        one_cold = rebuild(db, "stats", snapshots=False)
        one_warm = rebuild(db, "stats", snapshots=True)

        scaled = None
        if args.scale_seconds > 0:
            rate = events / cold_s
            copies = max(1, math.ceil(args.scale_seconds * rate / events) - 1)
            log(f"rebuild: cloning the {games} games {copies} times (about {events * (copies + 1):,} events)")
            clone_events(db, copies)
            big = count(db)
            big_games = games_count(db)
            log("rebuild: scaled decoded read")
            big_read, n = decoded_read_seconds(db)
            assert n == big
            log(f"rebuild: scaled rebuild of every view over {big:,} events")
            big_s, big_t, n = rebuild_all(db, args.views, snapshots=False)
            assert n == big
            scaled = (big, big_games, big_read, big_s, big_t)

    log("rebuild: the fold's parts, without a database")
    split = fold_split(args.runs)
    dec_rate, raw_rate = events / decoded_s, events / raw_s
    v = len(args.views)

    def row(label, seconds):
        rate = events / seconds
        return [label, f"{seconds:.1f}", f"{rate:,.0f}", f"**{rate / dec_rate:.2f}×**", f"{rate / raw_rate:.3f}×"]

    print(f"{events:,} events ({games} generated games of 5 seats played to the end of the time track), "
          f"views: {', '.join(args.views)}; batches of 5,000 events to fold per transaction, up to 50,000 from the snapshots (the CLI default, decision 0044). Medians of {args.runs} runs; "
          "the ratio is the rebuild's events per second over the baseline's, so 1× would be as fast as "
          "reading the events.\n")
    print(table(["", "seconds", "events per second", "ratio to decoded read", "ratio to plain SELECT"], [
        [f"**baseline**: sequential decoded read (`select_notifications` + `to_domain_event`, pages of 500)",
         f"{decoded_s:.1f}", f"{dec_rate:,.0f}", "1×", f"{dec_rate / raw_rate:.3f}×"],
        ["plain SELECT of the rows, pages of 5,000 (not decoded)", f"{raw_s:.1f}", f"{raw_rate:,.0f}",
         f"{raw_rate / dec_rate:.2f}×", "1×"],
        row(f"rebuild all {v} views, every game folded (`nemesis-archive rebuild --no-snapshots`)", cold_s),
        row(f"rebuild all {v} views from the fold snapshots (`nemesis-archive rebuild`)", warm_s),
        row("rebuild `stats` alone, every game folded", one_cold.seconds),
        row("rebuild `stats` alone from the fold snapshots", one_warm.seconds),
    ]))
    print()

    def where(t, seconds):
        rest = max(0.0, seconds - t.read - t.decode - t.fold - t.summarise - t.write - t.snapshots)
        parts = [("read pages (`select_notifications`)", t.read), ("decode events", t.decode),
                 ("fold: the rules' `apply` once per event, corridors observed and statistics tallied from that step, "
                  "the Game aggregate's own bookkeeping", t.fold),
                 ("summarise: the rules' position, score and description of each game's last state in a page", t.summarise),
                 ("write the views (one transaction per view per batch, with tracking)", t.write),
                 *((f"… of which `{v}`", s) for v, s in t.per_view.items()),
                 ("fold snapshots (JSON, one upsert per page; read back)", t.snapshots),
                 ("the rest (starting and switching generations)", rest)]
        return [[name, f"{s:.1f}", f"{100 * s / seconds:.0f} %"] for name, s in parts]

    print("Where the time goes (the median run of each, measured inside the rebuild):\n")
    print(table(["every game folded", "seconds", "share"], where(cold_t, cold_s)))
    print()
    print(table(["from the fold snapshots", "seconds", "share"], where(warm_t, warm_s)))
    print()
    rules = cold_t.fold + cold_t.summarise
    fold_free = cold_s - rules
    print(f"The rules' work (fold and summarise) is {100 * rules / cold_s:.0f} % of a full rebuild: "
          f"{1e6 * rules / events:.0f} µs per event, of which the fold {1e6 * cold_t.fold / events:.0f} µs (the "
          f"rules' `apply` once, the corridors observed and the statistics tallied from that same step). "
          f"Everything else costs {1e6 * fold_free / events:.0f} µs per event, so with a fold that cost "
          f"nothing the ratio would be {events / fold_free / dec_rate:.2f}×; each µs taken off the fold per event "
          f"moves it towards that. From the snapshots (no decoding or folding of a game that did not change) the "
          f"ratio is {events / warm_s / dec_rate:.2f}×.")
    print()
    print(f"The fold's parts, measured apart over {split['facts']:,} facts of 3 generated games (no database, "
          f"median of {args.runs}):\n")
    print(table(["", "µs per fact", "share of the folder"], [
        ["the rules' `apply` alone, fact after fact", f"{split['rules']:.0f}", f"{100 * split['rules'] / split['all']:.0f} %"],
        ["the folder, head only (`apply` + the Game aggregate's event bookkeeping)", f"{split['head']:.0f}",
         f"{100 * split['head'] / split['all']:.0f} %"],
        ["the folder with the views' digest (corridors observed, statistics tallied): what a rebuild runs",
         f"{split['all']:.0f}", "100 %"],
    ]))
    if scaled:
        big, big_games, big_read, big_s, big_t = scaled
        per = big_s / big
        print()
        print(f"Scaled: the games above cloned to {big_games:,} games, {big:,} events (the clone keeps each game's "
              f"facts; a clone is folded like any game).\n")
        print(table(["", "seconds", "events per second", "µs per event", "ratio to decoded read"], [
            ["**baseline**: sequential decoded read", f"{big_read:.1f}", f"{big / big_read:,.0f}",
             f"{1e6 * big_read / big:.0f}", "1×"],
            [f"rebuild all {v} views, every game folded", f"{big_s:.1f}", f"{big / big_s:,.0f}", f"{1e6 * per:.0f}",
             f"**{big_read / big_s:.2f}×**"],
            ["of which the fold", f"{big_t.fold:.1f}", "", f"{1e6 * big_t.fold / big:.0f}", ""],
            ["of which the writes", f"{big_t.write:.1f}", "", f"{1e6 * big_t.write / big:.0f}", ""],
        ]))
        per_game = big / big_games
        print(f"\nExtrapolated at {1e6 * per:.0f} µs per event: 10,000 such games ({10_000 * per_game:,.0f} events) "
              f"rebuild in {10_000 * per_game * per:.0f} s; 3,000,000 events in {3e6 * per:.0f} s (goal: 90 s).")


if __name__ == "__main__":
    main()
