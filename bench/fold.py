"""The rules fold (service.rules.replay.fold) over the longest generated game, and LOCKDOWN.next_inputs
at random steps, against json.loads of the same facts' notation lines.

The generator's games end with the time track (15 rounds): ~420-550 facts, never 1,000. The
longest of --seeds seeds is folded and costs are also given per 1,000 facts (the fold is linear).

    .venv/bin/python bench/fold.py [--seeds 60] [--runs 3] [--samples 200]
"""
from __future__ import annotations

import json
import random
import time

from common import PLAYERS, MAX_ROUNDS, median, parser, table


def timed(fn, runs: int) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return median(out)


def main(argv=None) -> None:
    from service.rules.lockdown.generate import facts_of, generate_game
    from service.rules.lockdown.ruleset import LOCKDOWN
    from service.rules.replay import fold

    p = parser(__doc__.splitlines()[0], database=False)
    p.add_argument("--seeds", type=int, default=60, help="seeds to generate; the longest game is folded")
    p.add_argument("--runs", type=int, default=3, help="runs per measurement (median)")
    p.add_argument("--samples", type=int, default=200, help="random steps for next_inputs / fold-to-step")
    args = p.parse_args(argv)

    setup, generated = max((generate_game(s, players=PLAYERS, max_rounds=MAX_ROUNDS) for s in range(1, args.seeds + 1)),
                           key=lambda g: len(g[1]))
    facts = facts_of(generated)
    n = len(facts)
    lines = [json.dumps({"seq": f.seq, "type": f.type, "actor": f.actor, "data": f.data, "visibility": f.visibility},
                        separators=(",", ":")) for f in facts]

    whole = timed(lambda: fold(LOCKDOWN, setup, facts), args.runs)
    raw = timed(lambda: [json.loads(line) for line in lines], args.runs)

    rng = random.Random(1)
    steps = [rng.randint(1, n) for _ in range(args.samples)]
    to_step = median([timed(lambda k=k: fold(LOCKDOWN, setup, facts[:k]), 1) / k for k in steps[:20]])
    states = fold(LOCKDOWN, setup, facts).steps
    picked = [states[k].state for k in steps if not states[k].state.ended]
    next_inputs = median([timed(lambda s=s: LOCKDOWN.next_inputs(s), args.runs) for s in picked])

    k = 1000 * 1000 / n  # seconds for this game -> ms per 1,000 facts
    per_line = raw / n
    rows = [
        [f"fold the whole game ({n} facts)", whole * 1000, whole * k, f"**{whole / raw:.0f}×**"],
        ["fold to a random step (median of 20), per fact folded", "", to_step * 1000 * 1000, f"{to_step / per_line:.0f}×"],
        [f"`LOCKDOWN.next_inputs` at a random step (median of {len(picked)}), per call",
         next_inputs * 1000, "", f"{next_inputs / per_line:.0f}× one line"],
        ["baseline: `json.loads` of each fact's notation line", raw * 1000, raw * k, "1×"],
    ]
    print(f"Rules fold over the longest generated game of {args.seeds} seeds: {n} facts "
          f"({PLAYERS} seats, to the end of the time track), median of {args.runs}\n")
    print(table(["", "ms", "ms per 1,000 facts", "ratio to json.loads"], rows))


if __name__ == "__main__":
    main()
