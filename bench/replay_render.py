"""Server render of one replay step (the page and the panel the keys fetch), at every step of a long game.

A generated five-player game played to the end of the time track (the longest of --seeds: 400+
facts) is imported; then every step is rendered twice through the Flask app (test client, no
network): the full page ``/games/<id>/step/<n>`` and the panel ``…/panel`` that arrow keys fetch,
in the all-seeing and the public perspective. The replay of each (view, perspective) is folded once
and cached (web/replays.py); the first request of each is reported apart as "cold".
Figures: p50 / p99 wall time per step; the p50 CPU time of this process (the server's Python work,
which a machine shared with other jobs inflates less than wall time; the database's time is not in
it); and the median of the last tenth of the steps over that of the first tenth (a render that grew
with the step would show it).

    .venv/bin/python bench/replay_render.py [--database-url URL] [--seeds 30] [--runs 3]
"""
from __future__ import annotations

import time

from common import MAX_ROUNDS, PLAYERS, log, median, parser, percentile, scratch_database, table


def main(argv=None) -> None:
    from service.context import Archive
    from service.notation import import_parsed, parse
    from web import create_app
    from common import generated, notation

    p = parser(__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=30, help="seeds to generate; the longest game is rendered")
    p.add_argument("--runs", type=int, default=3, help="renders per step (median)")
    args = p.parse_args(argv)

    header, facts = max((generated(s, PLAYERS, MAX_ROUNDS) for s in range(1, args.seeds + 1)), key=lambda g: len(g[1]))
    with scratch_database(args.database_url, "render") as db:
        archive = Archive(db)
        try:
            game, _ = import_parsed(archive.games, parse(notation(header, facts), "bench"))
            client = create_app({"ARCHIVE": archive}).test_client()
            log(f"game of {len(facts)} facts imported")
            rows = []
            for as_ in ("all", "public"):
                for kind, suffix in (("page", ""), ("panel", "/panel")):
                    q = f"?as={as_}"
                    t = time.perf_counter()
                    r = client.get(f"/games/{game.id}/step/1{suffix}{q}")
                    cold = (time.perf_counter() - t) * 1000
                    assert r.status_code == 200, r.status_code
                    per_step, cpu = [], []
                    for seq in range(0, len(facts) + 1):
                        samples, cpus = [], []
                        for _ in range(args.runs):
                            t, c = time.perf_counter(), time.process_time()
                            r = client.get(f"/games/{game.id}/step/{seq}{suffix}{q}")
                            samples.append((time.perf_counter() - t) * 1000)
                            cpus.append((time.process_time() - c) * 1000)
                            assert r.status_code == 200, (seq, r.status_code)
                        per_step.append(median(samples))
                        cpu.append(median(cpus))
                    tenth = max(1, len(per_step) // 10)
                    head, tail = per_step[1:1 + tenth], per_step[-tenth:]
                    rows.append([f"{kind} ({as_})", len(facts), cold, percentile(per_step, 50),
                                 percentile(per_step, 99), percentile(cpu, 50), median(head),
                                 median(tail) / median(head), len(r.data) // 1024])
                    log(f"{kind} {as_}: p50 {percentile(per_step, 50):.2f} ms (cpu {percentile(cpu, 50):.2f} ms)")
        finally:
            archive.close()
    print(table(["render", "facts", "cold ms (fold + story)", "p50 ms", "p99 ms", "p50 CPU ms",
                 "first tenth ms", "last tenth / first tenth", "KiB"], rows))


if __name__ == "__main__":
    main()
