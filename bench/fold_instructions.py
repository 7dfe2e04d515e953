"""The rules fold's parts in instructions per fact (callgrind), this checkout against others: load does not move it.

For each checkout and part, ``valgrind --tool=callgrind`` runs this script over bench/fold.py's corpus twice, the
part once and three times; the difference over two passes and the number of facts is the part's count per fact
(the corpus, the imports and the first pass's compilations left out). Parts: ``apply_shaped`` and
``check_shaped`` alone with the state before each fact given, ``checked_apply`` alone, ``apply`` and ``fold``
over the games. The collector is off for the parts alone, on for ``fold`` (decision 0046).

    .venv/bin/python bench/fold_instructions.py --against /path/to/main-checkout [--games 8] [--part fold ...]
"""
from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
PARTS = ("apply_shaped", "check_shaped", "checked_apply", "apply", "fold")


def run(root: str, part: str, passes: int, n_games: int) -> None:
    sys.path[:0] = [root, str(Path(root) / "bench")]
    from fold import corpus  # the checkout's own bench/fold.py

    from service.rules import replay
    from service.rules.lockdown import apply as A, checks, facts as F
    from service.rules.lockdown.ruleset import LOCKDOWN

    games = corpus(n_games)
    pairs = []
    for _, setup, facts in games:
        state = LOCKDOWN.initial_state(setup)
        for fact in facts:
            pairs.append((state, fact))
            state, _ = LOCKDOWN.apply(state, fact)
    shaped = [(s, f, u) for s, f in pairs for shape, u in [F.shape_and_unknowns(s, f)] if not shape]
    print(f"facts={len(pairs)}", file=sys.stderr)
    if part != "fold":
        gc.disable()
    for _ in range(passes):
        if part == "apply_shaped":
            for s, f, u in shaped:
                A.apply_shaped(s, f, u)
        elif part == "check_shaped":
            for s, f, u in shaped:
                checks.check_shaped(s, f, u)
        elif part == "checked_apply":
            for s, f in pairs:
                LOCKDOWN.checked_apply(s, f)
        elif part == "apply":
            for _, setup, facts in games:
                state = LOCKDOWN.initial_state(setup)
                for fact in facts:
                    state, _ = LOCKDOWN.apply(state, fact)
        else:
            for _, setup, facts in games:
                replay.fold(LOCKDOWN, setup, facts)


def count(root: str, part: str, passes: int, n_games: int) -> tuple[int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__, "--run", root,
             "--part", part, "--passes", str(passes), "--games", str(n_games)],
            capture_output=True, text=True, check=True)
        total = int(re.search(r"^(?:summary|totals): (\d+)", Path(out).read_text(), re.M).group(1))
    return total, int(re.search(r"facts=(\d+)", done.stderr).group(1))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", action="append", default=[], help="another checkout to count (repeatable)")
    p.add_argument("--games", type=int, default=8, help="generated games besides the demo games")
    p.add_argument("--part", action="append", choices=PARTS, help="a part to count (repeatable; default all)")
    p.add_argument("--run", help=argparse.SUPPRESS)  # internal: run the part in this root
    p.add_argument("--passes", type=int, default=1, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.run:
        run(a.run, a.part[0], a.passes, a.games)
        return
    roots = [str(HERE), *a.against]
    parts = a.part or list(PARTS)
    print("instructions per fact (callgrind; three passes minus one, over two)\n")
    print("| checkout | " + " | ".join(f"`{x}`" for x in parts) + " |")
    print("|---|" + "---:|" * len(parts))
    for root in roots:
        cells = []
        for part in parts:
            one, n = count(root, part, 1, a.games)
            three, _ = count(root, part, 3, a.games)
            cells.append(f"{(three - one) // 2 // n:,}")
        name = "this checkout" if root == str(HERE) else Path(root).name
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
