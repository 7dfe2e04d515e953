"""The rules fold (service.rules.replay.fold) over the longest generated game, and LOCKDOWN.next_inputs
at random steps, against json.loads of the same facts' notation lines.

The generator's games end with the time track (15 rounds): ~420-550 facts, never 1,000. The
longest of --seeds seeds is folded and costs are also given per 1,000 facts (the fold is linear).

    .venv/bin/python bench/fold.py [--seeds 60] [--runs 3] [--samples 200] [--games 200] [--profile 15]

Then issue 11's measure of the fold: per game, the fold's µs per fact (median of --runs) over the three demo games
and --games generated games (seeds 1..N, 5 seats, to the end of the time track), the median over the games, and
each game's ratio to json.loads of its own notation lines. ``--profile N`` adds the top N functions (cProfile,
by own time) of folding those games once.
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
    p.add_argument("--games", type=int, default=200, help="generated games for the per-game median (0: skip)")
    p.add_argument("--profile", type=int, default=0, help="print the top N functions of a profiled fold (0: none)")
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
    if args.games:
        per_game(args)


def _lines(facts) -> list[str]:
    return [json.dumps({"seq": f.seq, "type": f.type, "actor": f.actor, "data": f.data, "visibility": f.visibility},
                       separators=(",", ":")) for f in facts]


def corpus(n_generated: int) -> list[tuple[str, object, list]]:
    """(name, setup, facts) of the demo games and ``n_generated`` generated games."""
    from pathlib import Path

    from service.notation import parse
    from service.rules.base import Fact, Seat, Setup
    from service.rules.lockdown.generate import facts_of, generate_game

    out = []
    for path in sorted((Path(__file__).resolve().parents[1] / "service" / "demo").glob("*.jsonl")):
        game = parse(path.read_text(encoding="utf-8"), path.name)
        h = game.header
        setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in h["players"]), mode=h.get("mode", "standard"),
                      options=dict(h.get("options") or {}))
        out.append((f"demo:{path.stem}", setup, [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"),
                                                      f.get("visibility", "public")) for f in game.facts]))
    for seed in range(1, n_generated + 1):
        setup, generated = generate_game(seed, players=PLAYERS, max_rounds=MAX_ROUNDS)
        out.append((f"generated:{seed}", setup, facts_of(generated)))
    return out


def per_game(args) -> None:
    from service.rules.lockdown.ruleset import LOCKDOWN
    from service.rules.replay import fold

    def apply_only(setup, facts):
        state = LOCKDOWN.initial_state(setup)
        for f in facts:
            state, _ = LOCKDOWN.apply(state, f)

    games = corpus(args.games)
    folds, applies, ratios, sizes = [], [], [], []
    for name, setup, facts in games:
        n = len(facts)
        lines = _lines(facts)
        raw = timed(lambda: [json.loads(line) for line in lines], args.runs)
        whole = timed(lambda: fold(LOCKDOWN, setup, facts), args.runs)
        alone = timed(lambda: apply_only(setup, facts), args.runs)
        folds.append(whole / n * 1e6)
        applies.append(alone / n * 1e6)
        ratios.append(whole / raw)
        sizes.append(n)
    demos = sum(1 for name, _, _ in games if name.startswith("demo:"))
    print(f"\nIssue 11's measure: {demos} demo games and {len(games) - demos} generated games "
          f"({min(sizes)}–{max(sizes)} facts, {sum(sizes):,} in all), each folded {args.runs} times (median)\n")
    rows = [
        ["`fold()` (check + apply + the replay's steps)", median(folds), min(folds), max(folds),
         f"**{median(ratios):.0f}×**"],
        ["the rules' `apply` alone, fact after fact", median(applies), min(applies), max(applies), ""],
    ]
    print(table(["µs per fact", "median over the games", "fastest game", "slowest game",
                 "median ratio to json.loads"], rows))
    if args.profile:
        import cProfile
        import io
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        for _, setup, facts in games:
            fold(LOCKDOWN, setup, facts)
        prof.disable()
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        total = sum(facts_n for facts_n in sizes)
        print(f"\nProfile (cProfile, one fold of every game above, {total:,} facts; own time, inflated by the "
              f"profiler): top {args.profile}\n")
        rows = []
        entries = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:args.profile]
        whole_time = sum(v[2] for v in stats.stats.values())
        for (path, line, fn), (cc, nc, tt, ct, _) in entries:
            where = path.split("/service/", 1)[-1] if "/service/" in path else path.rsplit("/", 1)[-1]
            rows.append([f"`{where}:{line}({fn})`", nc, f"{tt / whole_time * 100:.1f} %", tt / total * 1e6,
                         ct / total * 1e6])
        print(table(["function", "calls", "share of own time", "own µs per fact", "cumulative µs per fact"], rows))


if __name__ == "__main__":
    main()
