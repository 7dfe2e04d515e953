"""The rules' apply and fold in CPU time per fact, this checkout against another, alternated.

On a shared machine the wall time of bench/fold.py swings by a factor of two between runs; the CPU time of a
process (best of --runs) is steadier. Each round measures every checkout in a fresh process, one after the other,
over the demo games and --games generated games (bench/fold.py's corpus); the table gives each checkout's median
over the rounds and the ratio to the first.

    .venv/bin/python bench/fold_cpu.py --against /path/to/main-checkout [--games 20] [--runs 5] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def measure(root: str, n_games: int, runs: int) -> dict:
    sys.path[:0] = [root, str(Path(root) / "bench")]
    from fold import corpus  # the checkout's own bench/fold.py

    from service.rules.lockdown.ruleset import LOCKDOWN
    from service.rules.replay import fold

    games = corpus(n_games)
    total = sum(len(facts) for _, _, facts in games)

    def apply_all() -> None:
        for _, setup, facts in games:
            state = LOCKDOWN.initial_state(setup)
            for f in facts:
                state, _ = LOCKDOWN.apply(state, f)

    def fold_all() -> None:
        for _, setup, facts in games:
            fold(LOCKDOWN, setup, facts)

    out = {"facts": total}
    for name, fn in (("apply", apply_all), ("fold", fold_all)):
        best = float("inf")
        for _ in range(runs):
            t = time.process_time()
            fn()
            best = min(best, time.process_time() - t)
        out[name] = best / total * 1e6
    return out


def checkout_pairs(root: str, n_games: int) -> list:
    """Put the checkout ``root`` first on the import path and return its corpus (bench/fold.py's, the demo games and
    ``n_games`` generated games) as (the state before the fact, the fact) pairs, folded by its own rules."""
    sys.path[:0] = [root, str(Path(root) / "bench")]
    from fold import corpus  # the checkout's own bench/fold.py

    from service.rules.lockdown.ruleset import LOCKDOWN

    pairs = []
    for _, setup, facts in corpus(n_games):
        state = LOCKDOWN.initial_state(setup)
        for fact in facts:
            pairs.append((state, fact))
            state, _ = LOCKDOWN.apply(state, fact)
    return pairs


def alternated(script: str, against: list[str], games: int, runs: int, rounds: int) -> tuple[list[str], dict]:
    """Run ``script --measure ROOT`` in a fresh process for each checkout (``against`` first, this one last),
    ``rounds`` times over, alternating them; returns the roots and each root's JSON answers, one per round."""
    roots = [str(Path(a).resolve()) for a in against] + [str(HERE)]
    seen: dict[str, list[dict]] = {r: [] for r in roots}
    for _ in range(rounds):
        for root in roots:
            line = subprocess.run([sys.executable, script, "--measure", root, "--games", str(games),
                                   "--runs", str(runs)], check=True, capture_output=True, text=True).stdout
            seen[root].append(json.loads(line.strip().splitlines()[-1]))
    return roots, seen


def median(values: list[float]) -> float:
    values = sorted(values)
    return values[len(values) // 2]


def checkout_options(p: argparse.ArgumentParser, games: int) -> None:
    """The options every alternating fold benchmark takes."""
    p.add_argument("--against", action="append", default=[], help="another checkout to measure (repeatable)")
    p.add_argument("--games", type=int, default=games, help="generated games besides the demo games")
    p.add_argument("--runs", type=int, default=5, help="runs per measurement (best)")
    p.add_argument("--rounds", type=int, default=3, help="alternations of the checkouts (median)")
    p.add_argument("--measure", help=argparse.SUPPRESS)  # internal: measure this root and print JSON


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    checkout_options(p, games=20)
    args = p.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.games, args.runs)))
        return
    roots, seen = alternated(__file__, args.against, args.games, args.runs, args.rounds)

    def med(root: str, key: str) -> float:
        return median([m[key] for m in seen[root]])

    first = roots[0]
    print(f"CPU time per fact, best of {args.runs} runs, median of {args.rounds} alternated rounds; "
          f"{seen[first][0]['facts']:,} facts (the demo games and {args.games} generated games)\n")
    print("| checkout | `apply` µs per fact | ratio | `fold()` µs per fact | ratio |")
    print("|---|---:|---:|---:|---:|")
    for root in roots:
        name = "this checkout" if root == str(HERE) else Path(root).name
        print(f"| {name} | {med(root, 'apply'):.1f} | {med(root, 'apply') / med(first, 'apply'):.2f}× "
              f"| {med(root, 'fold'):.1f} | {med(root, 'fold') / med(first, 'fold'):.2f}× |")


if __name__ == "__main__":
    main()
