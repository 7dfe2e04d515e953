"""The shared folder (projections/folding.py): one apply per fact, and the same digest as a fold of the replay."""
from __future__ import annotations

import pytest

from projections.folding import GameFolder, digest_of, digest_of_replay
from service.archive import Games, _fact_part
from service.demo import HERE as DEMO_DIR
from service.notation import read_file
from service.rules import get_ruleset
from tests.helpers import generated


def recorded(header, facts):
    """A Game recorded one fact per command (no database), and its events."""
    game = Games._new_game(header)
    for f in facts:
        game.record([_fact_part(f)], recorded_at=[f["recorded_at"]] if f.get("recorded_at") else None)
    return game, game.collect_events()


def folded(events, **kwargs):
    folder = GameFolder(lambda: pytest.fail("the folder went to the event store"), **kwargs)
    for e in events:
        game = folder.advance(e)
    return game


def with_corrections(seed):
    header, facts = generated(seed=seed, max_rounds=3)
    facts = facts[:30] + [{"type": "FactVoided", "data": {"seqs": [30], "reason": "not so"}},
                          {"type": "Commented", "data": {"text": "a pause"}},
                          {"type": "FactAnnotated", "data": {"seq": 5, "note": "as the table said"}}] + facts[29:]
    return header, facts


CASES = {
    **{f"demo {p.stem}": (lambda p=p: (read_file(p).header, read_file(p).facts)) for p in sorted(DEMO_DIR.glob("*.jsonl"))},
    **{f"generated {s}": (lambda s=s: generated(seed=s, players=4, max_rounds=15)) for s in (3, 8)},
    "generated with a voided fact and a comment": lambda: with_corrections(12),
}


@pytest.mark.parametrize("case", CASES)
def test_the_folders_digest_is_the_digest_of_the_as_corrected_replay(case):
    header, facts = CASES[case]()
    game, events = recorded(header, facts)
    mine = folded(events)
    assert mine.version == game.version
    ruleset = game.ruleset
    assert ruleset.describe(mine.head_state) == ruleset.describe(game.head_state)
    got = digest_of(mine)
    want = digest_of_replay(game.replay(corrected=True), game.version)
    assert got is mine.__dict__["_fold_digest"]  # advanced step by step, not folded again
    assert got.observations == want.observations and got.tally == want.tally
    if case.startswith("generated 3"):
        assert want.observations and want.tally.wounds  # the comparison compares something


def test_one_apply_per_fact_feeds_the_head_and_the_digest(monkeypatch):
    header, facts = generated(seed=8, players=4, max_rounds=4)
    game, events = recorded(header, facts)
    lockdown = get_ruleset("lockdown")
    calls = []
    real = type(lockdown).apply

    def counting(self, state, fact):
        calls.append(fact.seq)
        return real(self, state, fact)

    monkeypatch.setattr(type(lockdown), "apply", counting)
    mine = folded(events)
    assert len(calls) == len(facts) == mine.position
    digest_of(mine)
    assert len(calls) == len(facts)  # the views' digest came with the fold
