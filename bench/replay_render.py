"""Server render of one replay step (the page, and the panel the arrow keys fetch) at every step of a 400+-fact game.

A generated five-player game played to the end of the time track (the longest of --seeds: 400+
facts) is imported; then every step is rendered --runs times through the Flask app (test client,
no network, so the figures are the server's own work): the full page ``/games/<id>/step/<n>`` and
the panel ``…/panel`` that the arrow keys fetch, in the all-seeing and the public perspective, as a
browser that has shown a replay before asks for them (one board drawing, the wide one: the page
by the cookie replay.js keeps, the panel by ``?fit=wide``; decision 0015), and the page as a
browser's very first replay page gets it (both drawings, wide and narrow).
The replay of each (game, view, perspective) is folded once and cached (service/replay_cache.py, web/replays.py),
with its story and rendered log, so a warm step is a lookup plus the render of that step.

Figures per render: step 1 (the board just set up; the baseline of the ratio), p50 / p99 / max over
all the steps (a step's time is the median of its runs), the p50 CPU time of this process (the
server's Python work, which other jobs on a shared machine inflate less than wall time; PostgreSQL's
time is not in it), p50 / step 1, and "cold": the first request of the game (the replay cache
emptied first; fold + story + log + render), median over --cold requests at steps spread over the game.

    .venv/bin/python bench/replay_render.py [--database-url URL] [--seeds 30] [--runs 3] [--cold 5]
"""
from __future__ import annotations

import time

from common import MAX_ROUNDS, PLAYERS, load_note, log, median, parser, percentile, scratch_database, table

GOAL_MS = 10  # the goal: p50 of a step's server render at any step of a 400-fact game


def main(argv=None) -> None:
    from service.context import Archive
    from service.notation import import_parsed, parse
    from web import create_app
    from common import generated, notation

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=30, help="seeds to generate; the longest game is rendered")
    p.add_argument("--runs", type=int, default=3, help="renders per step (median)")
    p.add_argument("--cold", type=int, default=5, help="cold requests (replay cache emptied) per render")
    args = p.parse_args(argv)

    header, facts = max((generated(s, PLAYERS, MAX_ROUNDS) for s in range(1, args.seeds + 1)), key=lambda g: len(g[1]))
    rows, worst, first_p50 = [], 0.0, 0.0
    with scratch_database(args.database_url, "render") as db:
        archive = Archive(db)
        try:
            game, _ = import_parsed(archive.games, parse(notation(header, facts), "bench"))
            app = create_app({"ARCHIVE": archive})
            returning, first = app.test_client(), app.test_client()
            returning.set_cookie("board_fit", "wide")  # as replay.js leaves it after its first page on a wide screen
            log(f"game of {len(facts)} facts imported")

            def get(url: str, client=returning) -> tuple[float, float, int]:
                t, c = time.perf_counter(), time.process_time()
                r = client.get(url)
                wall, cpu = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
                assert r.status_code == 200, (url, r.status_code)
                return wall, cpu, len(r.data)

            renders = [(as_, kind, suffix, returning) for as_ in ("all", "public")
                       for kind, suffix in (("page", ""), ("panel", "/panel"))]
            renders.append(("all", "page, a browser's first (no cookie: wide + narrow board)", "", first))
            for as_, kind, suffix, client in renders:
                fit = "&fit=wide" if suffix else ""  # replay.js asks for its panels with the screen's layout
                url = lambda seq: f"/games/{game.id}/step/{seq}{suffix}?as={as_}{fit}"  # noqa: E731
                colds = []
                for i in range(args.cold):
                    archive.replays.clear()
                    colds.append(get(url(1 + i * len(facts) // args.cold), client)[0])
                get(url(0), client)  # warm: folded, told, log rendered
                per_step, cpu, sizes = [], [], []
                for seq in range(0, len(facts) + 1):
                    samples = [get(url(seq), client) for _ in range(args.runs)]
                    per_step.append(median([s[0] for s in samples]))
                    cpu.append(median([s[1] for s in samples]))
                    sizes.append(samples[0][2])
                step1, p50 = per_step[1], percentile(per_step, 50)
                slowest = max(range(len(per_step)), key=per_step.__getitem__)
                if client is returning:
                    worst = max(worst, p50)
                else:
                    first_p50 = p50
                rows.append([f"{kind} (`as={as_}`)", median(colds), step1, p50, percentile(per_step, 99),
                             f"{per_step[slowest]:.1f} (#{slowest})", percentile(cpu, 50),
                             f"**{p50 / step1:.2f}×**", f"{median(sizes) / 1024:.0f}"])
                log(f"{kind} {as_}: step 1 {step1:.2f} ms, p50 {p50:.2f} ms (cpu {percentile(cpu, 50):.2f} ms), "
                    f"cold {median(colds):.1f} ms")
        finally:
            archive.close()
    print(f"Every step (0–{len(facts)}) of a generated game of {len(facts)} facts ({PLAYERS} seats, to the end of the "
          f"time track), median of {args.runs} renders per step; Flask test client (no network)\n")
    print(table(["render", f"cold ms (first request, median of {args.cold})", "step 1 ms", "p50 ms", "p99 ms",
                 "max ms (step)", "p50 CPU ms", "p50 / step 1", "KiB"], rows))
    print(f"\n{load_note()}")
    print(f"\nGoal: p50 ≤ {GOAL_MS} ms at any step of a 400-fact game, no refold per request — "
          f"{'met' if worst <= GOAL_MS else 'NOT met'} for a step as a browser asks for it (page or panel, one drawing: "
          f"worst p50 {worst:.1f} ms); a browser's very first replay page (both drawings) p50 {first_p50:.1f} ms, "
          f"{'within' if first_p50 <= GOAL_MS else 'over'} the same {GOAL_MS} ms.")


if __name__ == "__main__":
    main()
