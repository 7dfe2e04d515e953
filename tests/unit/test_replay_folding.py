"""A fold carried on (decision 0031): extending by new facts, resuming from a checkpoint, and what a
correction or a note recorded later does to the steps before it — always the same as a fresh fold."""
from __future__ import annotations

import pytest

from service.demo import HERE as DEMO_DIR
from service.notation import read_file
from service.rules.base import Fact, Seat, Setup
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.replay import Folding, fold, step_seqs

DEMOS = ("club-three-players.jsonl", "friday-four-players.jsonl", "solo-evening.jsonl")


def demo(name: str) -> tuple[Setup, list[Fact]]:
    g = read_file(DEMO_DIR / name)
    h = g.header
    setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in h["players"]), mode=h["mode"],
                  options=h.get("options") or {})
    return setup, [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"), f.get("visibility", "public"))
                   for f in g.facts]


def same(a, b) -> None:
    """Two replays step for step: fact, state, consequences, violations, corrections and notes."""
    assert [s.seq for s in a.steps] == [s.seq for s in b.steps]
    for x, y in zip(a.steps, b.steps):
        assert x == y, f"step #{x.seq} differs"


def remarks(facts: list[Fact]) -> list[Fact]:
    """``facts`` with remarks and corrections spread through them, as a table records them later."""
    out = list(facts)
    table = [f for f in facts if not f.type.startswith(("Fact", "Commented"))]
    n = len(out)
    extra = [
        Fact(n + 1, "FactAnnotated", {"seq": table[2].seq, "note": "the die rolled off the table"}),
        Fact(n + 2, "Commented", {"text": "a pause for pizza"}),
        Fact(n + 3, "FactAnnotated", {"seq": table[2].seq, "note": "second note"}),
        Fact(n + 4, "FactVoided", {"seqs": [n + 1], "reason": "wrong fact"}),  # a void of a note on an early fact
        Fact(n + 5, "FactReplaced", {"seq": table[5].seq, "reason": "typo",
                                     "replacement": {"type": table[5].type, "actor": table[5].actor,
                                                     "data": dict(table[5].data)}}),
        Fact(n + 6, "FactReplaced", {"seq": n + 2, "replacement": {"type": "Commented", "data": {"text": "pizza"}}}),
        Fact(n + 7, "FactVoided", {"seqs": [table[-1].seq]}),  # the last table fact did not happen
        Fact(n + 8, "FactVoided", {"seqs": [table[len(table) // 2].seq]}),  # nor one in the middle
    ]
    return out + extra


@pytest.mark.parametrize("name", DEMOS)
@pytest.mark.parametrize("corrected", [True, False])
def test_a_fold_extended_fact_by_fact_equals_a_fresh_fold_at_every_step(name, corrected):
    setup, facts = demo(name)
    facts = remarks(facts)
    folding = Folding.start(LOCKDOWN, setup, corrected)
    for n in range(1, len(facts) + 1):
        folding = folding.extended(facts[:n])
        if n % 40 == 0 or n > len(facts) - 10:  # a fresh fold per prefix is quadratic: check every 40th and the remarks
            same(folding.replay, fold(LOCKDOWN, setup, facts[:n], corrected))
    assert folding.position == len(facts)


@pytest.mark.parametrize("as_", ["public", "seat1"])
def test_a_perspective_extended_in_batches_equals_a_fresh_fold(as_):
    setup, facts = demo("club-three-players.jsonl")
    facts = remarks(facts)
    folding = Folding.start(LOCKDOWN, setup, True, as_)
    for n in list(range(7, len(facts), 37)) + [len(facts) - 3, len(facts)]:
        folding = folding.extended(facts[:n])
        same(folding.replay, fold(LOCKDOWN, setup, facts[:n], True, as_))


def test_a_correction_refolds_from_the_fact_it_touches_not_from_the_start():
    setup, facts = demo("friday-four-players.jsonl")
    folding = Folding.start(LOCKDOWN, setup).extended(facts)
    target = facts[-5]
    voided = folding.extended(facts + [Fact(len(facts) + 1, "FactVoided", {"seqs": [target.seq]})])
    kept = folding.replay.index_of(target.seq)
    assert all(a is b for a, b in zip(voided.replay.steps[:kept], folding.replay.steps[:kept]))  # shared, not refolded
    assert target.seq not in voided.replay.seqs
    same(voided.replay, fold(LOCKDOWN, setup, facts + [Fact(len(facts) + 1, "FactVoided", {"seqs": [target.seq]})]))


def test_an_extended_fold_leaves_the_one_it_came_from_as_it_was():
    setup, facts = demo("solo-evening.jsonl")
    old = Folding.start(LOCKDOWN, setup).extended(facts[:40])
    steps = list(old.replay.steps)
    old.extended(facts[:40] + [Fact(41, "FactAnnotated", {"seq": 30, "note": "later"})])
    old.extended(facts[:40] + [Fact(41, "FactVoided", {"seqs": [3]})])
    assert old.replay.steps == steps and old.position == 40


def test_a_fold_cannot_be_extended_backwards():
    setup, facts = demo("solo-evening.jsonl")
    with pytest.raises(ValueError, match="cannot be extended"):
        Folding.start(LOCKDOWN, setup).extended(facts[:10]).extended(facts[:5])


@pytest.mark.parametrize("corrected", [True, False])
def test_a_step_resumed_from_a_checkpoint_equals_the_same_step_of_a_fresh_fold(corrected):
    setup, facts = demo("club-three-players.jsonl")
    facts = remarks(facts)
    whole = Folding.start(LOCKDOWN, setup, corrected, "public").extended(facts)
    assert step_seqs(facts, corrected) == whole.replay.seqs
    for index in (1, 2, 17, len(whole.replay.steps) // 2, len(whole.replay.steps) - 1):
        for at in (None, whole.checkpoint(max(index - 16, 0)), whole.checkpoint(index - 1)):
            step = Folding.resumed(LOCKDOWN, setup, facts, at, index, corrected, "public")
            assert step == whole.replay.steps[index]
    with pytest.raises(ValueError, match="not before"):
        Folding.resumed(LOCKDOWN, setup, facts, whole.checkpoint(9), 9, corrected, "public")


def test_the_replay_cache_settings_come_from_the_environment_and_bad_ones_are_named(monkeypatch):
    from service.replay_cache import ReplaySettings

    monkeypatch.setenv("NEMESIS_REPLAY_CACHE_GAMES", "3")
    monkeypatch.setenv("NEMESIS_REPLAY_SNAPSHOT_EVERY", "0")
    assert ReplaySettings.from_env() == ReplaySettings(games=3, steps=100_000, snapshot_every=0)
    monkeypatch.setenv("NEMESIS_REPLAY_CACHE_STEPS", "lots")
    with pytest.raises(ValueError, match="NEMESIS_REPLAY_CACHE_STEPS must be a whole number of steps, not 'lots'"):
        ReplaySettings.from_env()
    monkeypatch.setenv("NEMESIS_REPLAY_CACHE_STEPS", "-1")
    with pytest.raises(ValueError, match="between 0 and 100000000 steps, not -1"):
        ReplaySettings.from_env()
