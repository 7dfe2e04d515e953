"""The rules' apply per fact type, in CPU time per fact, this checkout against another, alternated.

Each round folds the corpus of bench/fold.py (the demo games and --games generated games) once in a fresh process
per checkout to get every fact's state before it, then times ``LOCKDOWN.apply`` on each (state, fact) pair with the
cyclic garbage collector off (as a fold runs, decision 0046), best of --runs per fact type. The table gives each
type's median over the rounds, its share of the apply time and the ratio of this checkout to the first.

    .venv/bin/python bench/fold_types.py --against /path/to/main-checkout [--games 40] [--runs 5] [--rounds 3]
"""
from __future__ import annotations

import argparse
import gc
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from fold_cpu import alternated, checkout_options, checkout_pairs, median

HERE = Path(__file__).resolve().parents[1]


def measure(root: str, n_games: int, runs: int) -> dict:
    pairs = checkout_pairs(root, n_games)  # puts the checkout first on the import path
    from service.rules.lockdown.ruleset import LOCKDOWN

    count = Counter(f.type for _, f in pairs)
    best: dict[str, float] = defaultdict(lambda: float("inf"))
    apply, clock = LOCKDOWN.apply, time.process_time
    gc.disable()
    for _ in range(runs):
        spent: dict[str, float] = defaultdict(float)
        for state, fact in pairs:
            t = clock()
            apply(state, fact)
            spent[fact.type] += clock() - t
        for k, v in spent.items():
            best[k] = min(best[k], v)
    gc.enable()
    return {"facts": len(pairs), "types": {k: [count[k], best[k] / count[k] * 1e6] for k in count}}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    checkout_options(p, games=40)
    p.add_argument("--top", type=int, default=15, help="fact types shown, by their share of the first's time")
    args = p.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.games, args.runs)))
        return
    roots, seen = alternated(__file__, args.against, args.games, args.runs, args.rounds)

    def med(root: str, kind: str) -> float:
        return median([m["types"][kind][1] for m in seen[root] if kind in m["types"]])

    first = roots[0]
    counts = {k: v[0] for k, v in seen[first][0]["types"].items()}
    total = {r: sum(med(r, k) * n for k, n in counts.items()) for r in roots}
    print(f"apply, CPU µs per fact by fact type (collector off), best of {args.runs} runs, median of {args.rounds} "
          f"alternated rounds; {seen[first][0]['facts']:,} facts (the demo games and {args.games} generated games)\n")
    names = [Path(r).name for r in roots[:-1]] + ["this checkout"]
    print("| fact type | facts | " + " | ".join(f"{n} µs (share)" for n in names) + " | ratio |")
    print("|---|---:|" + "---:|" * len(roots) + "---:|")
    rows = sorted(counts, key=lambda k: -med(first, k) * counts[k])[:args.top]
    for k in rows + ["(all)"]:
        if k == "(all)":
            cells = [f"{total[r] / sum(counts.values()):.1f}" for r in roots]
            ratio = total[roots[-1]] / total[first]
            print(f"| all | {sum(counts.values()):,} | " + " | ".join(cells) + f" | {ratio:.2f}× |")
            continue
        cells = [f"{med(r, k):.1f} ({med(r, k) * counts[k] / total[r] * 100:.1f} %)" for r in roots]
        print(f"| {k} | {counts[k]:,} | " + " | ".join(cells) + f" | {med(roots[-1], k) / med(first, k):.2f}× |")


if __name__ == "__main__":
    main()
