"""Drawing the board (LOCKDOWN.draw, decision 0012) at every step of the demo games.

Each step is drawn --runs times with the step before it (so the highlight diff is included);
a step's time is the median of its runs. Reported per game: p50 and p99 over the steps, the
slowest step, and the ratio of p50 to drawing step 1 (the board just set up) in the same run,
which says how the cost grows as the board fills up. Also the size of the SVG.

    .venv/bin/python bench/board_draw.py [--runs 7]
"""
from __future__ import annotations

import time

from common import median, parser, percentile, table


def main(argv=None) -> None:
    from service.demo import HERE
    from service.notation import read_file
    from service.rules import Fact, Seat, Setup, get_ruleset
    from service.rules.replay import fold

    p = parser(__doc__.splitlines()[0], database=False)
    p.add_argument("--runs", type=int, default=7, help="draws per step (median)")
    args = p.parse_args(argv)
    lockdown = get_ruleset("lockdown")

    rows = []
    for path in sorted(HERE.glob("*.jsonl")):
        parsed = read_file(path)
        h = parsed.header
        setup = Setup(players=tuple(Seat(s["seat"], s["name"]) for s in h["players"]), mode=h["mode"],
                      options=h.get("options") or {})
        replay = fold(lockdown, setup, [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"))
                                        for f in parsed.facts])
        steps = replay.steps
        lockdown.draw(steps[0].state)  # the board's layout and static fragments are cached once per board
        per_step, sizes = [], []
        for i, step in enumerate(steps):
            before = steps[i - 1].state if i else None
            runs = []
            for _ in range(args.runs):
                t = time.perf_counter()
                svg = lockdown.draw(step.state, before=before)
                runs.append((time.perf_counter() - t) * 1000)
            per_step.append(median(runs))
            sizes.append(len(svg.encode()))
        first = per_step[1]
        p50 = median(per_step)
        slowest = max(range(len(per_step)), key=per_step.__getitem__)
        rows.append([path.stem, len(steps) - 1, first, p50, percentile(per_step, 99),
                     f"{per_step[slowest]:.3f} (#{steps[slowest].seq})", p50 / first,
                     f"{median(sizes) / 1024:.0f} / {max(sizes) / 1024:.0f}"])
    print(table(["demo game", "steps", "step 1 ms", "p50 ms", "p99 ms", "slowest ms (step)",
                 "p50 / step 1", "SVG KiB p50 / max"], rows))


if __name__ == "__main__":
    main()
