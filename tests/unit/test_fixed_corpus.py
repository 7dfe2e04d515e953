"""The fixed corpus: the demo games and seeded generated games fold to the same states, results and verdicts
as when tests/data/fixed_corpus.json was written (from main before the rules engine was restructured,
decision 0029).

Each game is compared by sha256 digests of its facts, the snapshot (service.rules.kit.snapshot: every state field
by name, sub-states merged, so regrouping the state changes nothing while a changed value does) at a few steps
and at the end, what ``next_inputs`` offers at those steps, every consequence and violation, the result, the
verdicts and the described final state. The field names of the snapshot are compared in the clear.

Write the expectations again only when a rule is meant to change, and say so in the commit:

    .venv/bin/python tests/unit/test_fixed_corpus.py --write [--slow]
"""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import pytest

from service.notation import parse
from service.rules import get_ruleset
from service.rules.base import Fact, Seat, Setup
from service.rules.lockdown.generate import facts_of, generate_game
from service.rules.replay import fold
from service.rules.kit.snapshot import digest, snapshot

ROOT = Path(__file__).resolve().parents[2]
DEMOS = sorted((ROOT / "service" / "demo").glob("*.jsonl"))
EXPECTED = ROOT / "tests" / "data" / "fixed_corpus.json"
EXPECTED_SLOW = ROOT / "tests" / "data" / "fixed_corpus_1000.json"


def generated_spec(seed: int) -> tuple[int, str, int, str]:
    """players, mode, max_rounds, board of generated game ``seed``: every table size and mode, short and long
    games, and now and then the real basic board (no corridor graph)."""
    players = 1 + seed % 5
    mode = "solo" if players == 1 and seed % 2 else ("coop" if seed % 7 == 0 else "standard")
    return players, mode, 3 if seed % 10 == 0 else 20, "basic" if seed % 6 == 5 else "synthetic"


FAST_SEEDS = range(24)
SLOW_SEEDS = range(1000)


def _fold_record(ruleset, setup: Setup, facts: list[Fact], perspectives: tuple[str, ...] = ()) -> dict:
    replay = fold(ruleset, setup, facts)
    steps = replay.steps
    n = len(steps) - 1
    marks = sorted({n // 4, n // 2, (3 * n) // 4, n})
    final = steps[-1].state
    result = ruleset.score(final)
    record = {
        "facts": digest([(f.type, f.actor, dict(f.data), f.visibility) for f in facts]),
        "steps": {str(k): digest(snapshot(steps[k].state)) for k in marks},
        "inputs": {str(k): digest([e.as_dict() for e in ruleset.next_inputs(steps[k].state)]) for k in marks},
        "consequences": digest([[c.as_dict() for c in s.consequences] for s in steps]),
        "violations": digest([[v.as_dict() for v in s.violations] for s in steps]),
        "result": None if result is None else
        f"{result.ending}/{result.effects}: " + ", ".join(f"{p.seat} {p.outcome}" for p in result.players),
        "result_digest": digest(None if result is None else result.as_dict()),
        "verdicts": digest(None if result is None else ruleset.verdicts(result, final)),
        "describe": digest(ruleset.describe(final)),
        "position": digest(ruleset.position(final)),
    }
    if perspectives:
        record["as_played"] = digest(snapshot(fold(ruleset, setup, facts, corrected=False).steps[-1].state))
        for as_ in perspectives:
            record[as_] = digest(snapshot(fold(ruleset, setup, facts, as_=as_).steps[-1].state))
    return record


def demo_record(path: Path) -> tuple[dict, list[str]]:
    game = parse(path.read_text(encoding="utf-8"), path.name)
    h = game.header
    setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in h["players"]), mode=h.get("mode", "standard"),
                  options=dict(h.get("options") or {}))
    facts = [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"), f.get("visibility", "public"))
             for f in game.facts]
    ruleset = get_ruleset(h["ruleset"])
    return _fold_record(ruleset, setup, facts, ("public", "seat1")), sorted(snapshot(fold(ruleset, setup, facts)
                                                                                      .steps[-1].state))


@functools.lru_cache(maxsize=None)
def generated_game(seed: int):
    """Generated game ``seed`` (setup, generated facts), made once per test session: the 1,000-game checks here
    and in test_lockdown_generated.py play the same games, and generating is half of their time."""
    players, mode, rounds, board = generated_spec(seed)
    return generate_game(seed, players=players, mode=mode, max_rounds=rounds, board=board)


def generated_record(seed: int) -> dict:
    setup, generated = generated_game(seed)
    return _fold_record(get_ruleset("lockdown"), setup, facts_of(generated))


def corpus(seeds) -> dict:
    games, fields = {}, None
    for path in DEMOS:
        games[f"demo:{path.stem}"], fields = demo_record(path)
    for seed in seeds:
        games[f"generated:{seed}"] = generated_record(seed)
    return {"state_fields": fields, "games": games}


def _expected(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _compare(expected: dict, seeds) -> None:
    assert DEMOS, "no demo games found"
    for path in DEMOS:
        record, fields = demo_record(path)
        assert fields == expected["state_fields"], "the state's fields (by name, sub-states merged) changed"
        assert record == expected["games"][f"demo:{path.stem}"], path.name
    for seed in seeds:
        assert generated_record(seed) == expected["games"][f"generated:{seed}"], f"generated game {seed}"


def test_demo_and_generated_games_fold_as_before():
    expected = _expected(EXPECTED)
    assert set(expected["games"]) == {f"demo:{p.stem}" for p in DEMOS} | {f"generated:{s}" for s in FAST_SEEDS}
    _compare(expected, FAST_SEEDS)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_thousand_generated_games_fold_as_before():
    """The 1,000 generated games, one digest of each game's whole record (to keep the file small)."""
    expected = _expected(EXPECTED_SLOW)
    assert set(expected) == {str(s) for s in SLOW_SEEDS}
    for seed in SLOW_SEEDS:
        assert digest(generated_record(seed)) == expected[str(seed)], f"generated game {seed}"


def test_snapshot_sees_a_changed_value_and_ignores_grouping():
    """The digest is not blind: one changed field of one character changes it."""
    from service.rules.lockdown.state import with_character

    setup, generated = generate_game(3, players=2, max_rounds=1)
    state = fold(get_ruleset("lockdown"), setup, facts_of(generated)).steps[-1].state
    changed = with_character(state, 1, knowledge=state.characters[1].knowledge + 1)
    assert digest(snapshot(changed)) != digest(snapshot(state))
    assert set(snapshot(state)) == set(_expected(EXPECTED)["state_fields"])


def main(argv: list[str]) -> None:
    EXPECTED.parent.mkdir(parents=True, exist_ok=True)
    EXPECTED.write_text(json.dumps(corpus(FAST_SEEDS), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if "--slow" in argv:
        slow = {str(seed): digest(generated_record(seed)) for seed in SLOW_SEEDS}
        EXPECTED_SLOW.write_text(json.dumps(slow, indent=0, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if "--write" not in sys.argv:
        raise SystemExit(__doc__)
    main(sys.argv)
