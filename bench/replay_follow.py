"""Replays from the fold cache: a cold step of a 400-fact game, and a live game followed fact by fact.

A generated five-player game played to the end of the time track (the longest of --seeds: 400+ facts)
is imported. **Cold step**: ``GET /api/games/<id>/state?step=N`` at step 1, the middle and the end, as
the first request of a process that has the game in neither its aggregate cache nor its replay cache
(both emptied before each request; the snapshot rows in PostgreSQL written by an earlier fold, one every
--every steps), through the Flask app's test client (no network: the server's own time); beside it the
same with the aggregate still cached, with snapshots off (the cache folds the whole game once), and the
path before decision 0031 (the game's head folded on load, then the whole replay folded again). The
baseline, measured in the same run: a plain ``fold()`` of the whole game.

**Following a live game**: the game is recorded again fact by fact (``Games.record``), and after each
fact a follower asks for the state at the head (``GET …/state``), with the replay cache on (the replay
of the previous fact extended by the new one) and off (a replay cache of its own, empty, per request:
the whole game folded, as before decision 0031 every new fact threw the cached replay away). Each
figure is the median over a bucket of 25 facts and --runs runs; "fold work" is the fold alone (the
cache's extension against a fresh fold of the whole game so far).

    .venv/bin/python bench/replay_follow.py [--database-url URL] [--seeds 30] [--runs 3] [--every 50] [--facts N]
"""
from __future__ import annotations

import time
import tracemalloc
from uuid import uuid4

from common import MAX_ROUNDS, PLAYERS, load_note, log, median, parser, scratch_database, table

GOAL_MS = 8  # the goal: cold state at any step of a 400-fact game, server time
BUCKET = 25


def main(argv=None) -> None:
    from common import generated, notation
    from service.context import Archive
    from service.notation import import_parsed, parse
    from service.replay_cache import GameFacts, ReplayCache, ReplaySettings
    from service.rules.replay import Folding, fold, step_seqs
    from web import create_app

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=30, help="seeds to generate; the longest game is used")
    p.add_argument("--runs", type=int, default=3, help="runs (median)")
    p.add_argument("--every", type=int, default=50, help="K: a snapshot every K steps")
    p.add_argument("--facts", type=int, default=0, help="follow only the first N facts (0: all)")
    args = p.parse_args(argv)

    header, facts = max((generated(s, PLAYERS, MAX_ROUNDS) for s in range(1, args.seeds + 1)), key=lambda g: len(g[1]))
    n = len(facts)
    with scratch_database(args.database_url, "follow") as db:
        archive = Archive(db, replays=ReplaySettings(snapshot_every=args.every))
        try:
            game, _ = import_parsed(archive.games, parse(notation(header, facts), "bench"))
            app = create_app({"ARCHIVE": archive})
            client = app.test_client()
            games, cache = archive.games, archive.replays
            log(f"game of {n} facts imported")

            def empty_aggregates() -> None:
                games.repository.cache = type(games.repository.cache)(maxsize=200)
                games.forget_headers()  # a process's first request knows no header either (decision 0041)

            def cpu_ms(fn) -> float:
                return timed(fn)[1]

            def timed(fn) -> tuple[float, float]:
                t, c = time.perf_counter(), time.process_time()
                fn()
                return (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000

            def get(url: str) -> None:
                r = client.get(url)
                assert r.status_code == 200, (url, r.status_code, r.data[:300])

            # the snapshot rows, as the first fold of the game writes them
            cache.entry(games.get_game(game.id))
            cache.flush()
            total_steps = len(step_seqs(GameFacts(games.get_game(game.id).recorded)))
            loaded = games.get_game(game.id)
            steps = {"step 1": 1, "middle": n // 2, "end": n}

            # -- cold step: every variant once per run, interleaved, so a burst of load hits them alike --
            def before(seq: int) -> None:  # the path before decision 0031: the head folded on load, the replay again
                g = games.get_game(game.id)
                g.head_state
                fold(g.ruleset, g.setup, g.facts).at(seq)

            variants = (("process", lambda: (cache.clear(), empty_aggregates()), args.every),
                        ("replay", cache.clear, args.every),
                        ("no snapshots", lambda: (cache.clear(), empty_aggregates()), 0))
            samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
            for _ in range(args.runs):
                samples.setdefault(("", "baseline"), []).append(
                    timed(lambda: fold(loaded.ruleset, loaded.setup, loaded.facts)))
                for label, seq in steps.items():
                    url = f"/api/games/{game.id}/state?step={seq}"
                    for name, prepare, every in variants:
                        cache.configure(snapshot_every=every)
                        prepare()
                        samples.setdefault((label, name), []).append(timed(lambda: get(url)))
                    cache.configure(snapshot_every=args.every)
                    empty_aggregates()
                    samples.setdefault((label, "before"), []).append(timed(lambda: before(seq)))
            wall = {k: median([x[0] for x in v]) for k, v in samples.items()}
            cpu = {k: median([x[1] for x in v]) for k, v in samples.items()}
            whole, whole_cpu = wall[("", "baseline")], cpu[("", "baseline")]
            cold_rows, worst = [], 0.0
            for label, seq in steps.items():
                c = wall[(label, "process")]
                worst = max(worst, c)
                cold_rows.append([f"{label} (#{seq})", c, cpu[(label, "process")], wall[(label, "replay")],
                                  wall[(label, "no snapshots")], wall[(label, "before")], whole,
                                  f"**{c / whole:.2f}×**", f"{cpu[(label, 'process')] / whole_cpu:.2f}×",
                                  f"{c / wall[(label, 'before')]:.2f}×"])
                log(f"cold {label}: {c:.2f} ms (cpu {cpu[(label, 'process')]:.2f}), before {wall[(label, 'before')]:.1f} ms, "
                    f"whole fold {whole:.1f} ms")

            # -- where the time of a cold step at the end goes ------------------------------------
            from service.replay_snapshots import decode, rules_fingerprint
            from service.rules.replay import Checkpoint, effective_facts

            parts = {k: [] for k in ("load", "seqs", "snapshot", "applies", "all")}
            g0 = games.get_game(game.id)
            for _ in range(args.runs):
                empty_aggregates()
                cache.clear()
                parts["all"].append(cpu_ms(lambda: get(f"/api/games/{game.id}/state?step={n}")))
                empty_aggregates()
                found = []
                # decision 0041's cold step: the header, the nearest row and the facts after it in one query
                parts["load"].append(cpu_ms(lambda: found.append(games.cold_read(
                    game.id, [rules_fingerprint(g0.ruleset.name)], True, "all", n))))
                head, row, suffix = found[0]
                seqs = []
                parts["seqs"].append(cpu_ms(lambda: seqs.extend(
                    f.seq for f, _, _ in effective_facts(suffix) if f.type != "FactAnnotated")))
                at = []
                parts["snapshot"].append(cpu_ms(lambda: at.append(Checkpoint(row.index, row.seq, *decode(
                    cache.store.initial_state(g0.ruleset, head.setup), row.state)))))
                parts["applies"].append(cpu_ms(lambda: Folding.resumed(g0.ruleset, head.setup, suffix, at[0],
                                                                       row.index + len(seqs))))
            applied = len(seqs)
            split = {k: median(v) for k, v in parts.items()}
            end_total = split.pop("all")

            # -- following a live game -------------------------------------------------------------
            follow = min(n, args.facts) if args.facts else n
            buckets: dict[int, dict[str, list[float]]] = {}
            for run in range(args.runs):
                live = archive.games.create_game({**parse(notation(header, []), "bench").header, "id": uuid4()})
                mirror = ReplayCache(None, ReplaySettings(snapshot_every=0))  # the fold alone, extended
                for i in range(follow):
                    games.record(live.id, [{k: facts[i][k] for k in ("type", "actor", "data", "visibility") if k in facts[i]}])
                    url = f"/api/games/{live.id}/state"
                    on = cpu_ms(lambda: get(url))
                    archive.replays = ReplayCache(None, ReplaySettings(snapshot_every=0))  # cache off: empty each time
                    off = cpu_ms(lambda: get(url))
                    archive.replays = cache
                    g = games.get_game(live.id)
                    work_on = cpu_ms(lambda: mirror.entry(g))
                    work_off = cpu_ms(lambda: Folding.start(g.ruleset, g.setup).extended(GameFacts(g.recorded)))
                    b = buckets.setdefault(min(i // BUCKET, (follow - 1) // BUCKET), {"on": [], "off": [], "won": [], "woff": []})
                    b["on"].append(on)
                    b["off"].append(off)
                    b["won"].append(work_on)
                    b["woff"].append(work_off)
                log(f"follow run {run + 1}: {follow} facts")
            follow_rows = []
            for k in sorted(buckets):
                b = buckets[k]
                lo, hi = k * BUCKET + 1, min((k + 1) * BUCKET, follow) if k < max(buckets) else follow
                follow_rows.append([f"{lo}–{hi}", median(b["on"]), median(b["off"]), median(b["won"]) * 1000,
                                    median(b["woff"]), f"{median(b['off']) / median(b['on']):.1f}×"])
            first, last = buckets[min(buckets)], buckets[max(buckets)]
            growth_on = median(last["won"]) / median(first["won"])
            growth_off = median(last["woff"]) / median(first["woff"])
            growth_req_on = median(last["on"]) / median(first["on"])

            # -- memory: one cached replay of the whole game --------------------------------------
            g = games.get_game(game.id)
            tracemalloc.start()
            before_mem = tracemalloc.get_traced_memory()[0]
            kept = Folding.start(g.ruleset, g.setup).extended(GameFacts(g.recorded))
            size = tracemalloc.get_traced_memory()[0] - before_mem
            tracemalloc.stop()
            per_step = size / len(kept.replay.steps)
        finally:
            archive.close()

    print(f"A generated game of {n} facts ({PLAYERS} seats, to the end of the time track, {total_steps} steps); "
          f"snapshot rows every {args.every} steps; median of {args.runs} runs; Flask test client (no network)\n")
    print("**A cold step** — `GET /api/games/<id>/state?step=N`, the first request for the game in a process:\n")
    print(table(["step", "cold ms (nothing cached; snapshots)", "CPU ms", "ms (game cached, replay not)",
                 "ms (snapshots off: one fold)", "ms before 0031 (head fold + replay fold)",
                 "baseline: plain fold() of the whole game, ms", "cold / baseline", "CPU / baseline CPU",
                 "cold / before"], cold_rows))
    print(f"\nGoal: ≤ {GOAL_MS} ms server time for a cold step anywhere in a 400-fact game — "
          f"{'met' if worst <= GOAL_MS else 'NOT met'} on this run (worst {worst:.1f} ms; the plain fold of the whole game "
          f"took {whole:.1f} ms in the same run). The issue measured the path before 0031 at 33 ms, so the goal is "
          f"about 0.24× of it: the last column.\n")
    print(f"Where the CPU time of the cold step at the end goes ({end_total:.1f} ms of this process's CPU, median of "
          f"{args.runs}; PostgreSQL's own time is not in it): one query for the header, the nearest snapshot row and "
          f"the {applied} facts after it, read as rows and decoded (decision 0041; the game is not loaded) "
          f"{split['load']:.1f} ms; the steps after the row (which facts are voided or replaced) "
          f"{split['seqs']:.2f} ms; the row's state decoded "
          f"{split['snapshot']:.1f} ms; the {applied} facts after it applied {split['applies']:.1f} ms; the rest (the "
          f"state described, the next inputs, the score, JSON, Flask) about "
          f"{max(end_total - sum(split.values()), 0):.1f} ms.\n")
    print(f"**Following a live game** — after each new fact, `GET /api/games/<id>/state` (the head); CPU time of "
          f"this process, median over {BUCKET} facts × {args.runs} runs:\n")
    print(table(["facts in the game", "request CPU ms, cache on", "request CPU ms, cache off",
                 "fold work µs, cache on (extend)", "fold work ms, cache off (whole game)", "request off / on"],
                follow_rows))
    print(f"\nFrom the first {BUCKET} facts to the last, the fold work per new fact grows {growth_on:.2f}× with the cache "
          f"(O(1): one fact applied) and {growth_off:.1f}× without it (O(n): the whole game refolded); the request "
          f"with the cache grows {growth_req_on:.2f}× (loading the game's new event and copying its fact list).\n")
    print(f"Memory: one cached replay of the whole game holds {size / 1024 / 1024:.1f} MiB ({per_step / 1024:.1f} KiB a "
          f"step, states sharing what did not change); the default bound of "
          f"{ReplaySettings().steps:,} steps is about {ReplaySettings().steps * per_step / 1024 / 1024:.0f} MiB.\n")
    print(load_note())


if __name__ == "__main__":
    main()
