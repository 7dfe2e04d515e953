"""The rules fold's per-fact parts in CPU time, each alone over the corpus, this checkout against another, alternated.

Each part runs over every fact of bench/fold.py's corpus with the state before the fact given (folded once
beforehand), the cyclic collector off: the shape check with the unknown fields (``facts.shape_and_unknowns``),
``checks.check_shaped``, ``apply.apply_shaped``, ``LOCKDOWN.checked_apply``, ``turns.undo_of``,
``unknowns.room_unknown``, and the *floor*: ``checked_apply`` with every effect, rule and ``_settle`` replaced by
one that does nothing, what every fact pays before and after its own handler (decision 0048). Best of --runs
in a process, median of --rounds alternated processes per checkout.

    .venv/bin/python bench/fold_parts.py --against /path/to/main-checkout [--games 40] [--runs 5] [--rounds 3]
"""
from __future__ import annotations

import argparse
import gc
import json
import time
from pathlib import Path

from fold_cpu import alternated, checkout_options, checkout_pairs, median

HERE = Path(__file__).resolve().parents[1]
PARTS = ("shape_and_unknowns", "check_shaped", "apply_shaped", "checked_apply", "undo_of", "room_unknown", "floor")


def measure(root: str, n_games: int, runs: int) -> dict:
    pairs = checkout_pairs(root, n_games)  # puts the checkout first on the import path
    from service.rules.lockdown import apply as A, checks, facts as F, turns, unknowns
    from service.rules.lockdown.ruleset import LOCKDOWN

    shaped = [(s, f, u) for s, f in pairs for shape, u in [F.shape_and_unknowns(s, f)] if not shape]

    def part(name: str):
        if name == "shape_and_unknowns":
            return lambda: [F.shape_and_unknowns(s, f) for s, f in pairs]
        if name == "check_shaped":
            return lambda: [checks.check_shaped(s, f, u) for s, f, u in shaped]
        if name == "apply_shaped":
            return lambda: [A.apply_shaped(s, f, u) for s, f, u in shaped]
        if name == "undo_of":
            return lambda: [turns.undo_of(s, f) for s, f in pairs]
        if name == "room_unknown":
            return lambda: [unknowns.room_unknown(s, f) for s, f in pairs]
        return lambda: [LOCKDOWN.checked_apply(s, f) for s, f in pairs]

    out = {"facts": len(pairs)}
    gc.disable()
    for name in PARTS:
        if name == "floor":  # last: what every fact pays besides its own effect, rules and settling
            for t in list(A.HANDLERS):
                A.HANDLERS[t] = lambda state, fact, cons: state
            for t in list(checks.RULES):
                checks.RULES[t] = lambda state, fact: []
            A._settle = lambda state, cons: state
        fn = part(name)
        best = float("inf")
        for _ in range(runs):
            t = time.process_time()
            fn()
            best = min(best, time.process_time() - t)
        out[name] = best / len(pairs) * 1e6
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    checkout_options(p, games=40)
    args = p.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.games, args.runs)))
        return
    roots, seen = alternated(__file__, args.against, args.games, args.runs, args.rounds)

    def med(root: str, key: str) -> float:
        return median([m[key] for m in seen[root]])

    print(f"CPU µs per fact, each part alone, best of {args.runs} runs, median of {args.rounds} alternated rounds; "
          f"{seen[roots[0]][0]['facts']:,} facts\n")
    print("| checkout | " + " | ".join(f"`{k}`" for k in PARTS) + " |")
    print("|---|" + "---:|" * len(PARTS))
    for root in roots:
        name = "this checkout" if root == str(HERE) else Path(root).name
        print(f"| {name} | " + " | ".join(f"{med(root, k):.2f}" for k in PARTS) + " |")


if __name__ == "__main__":
    main()
