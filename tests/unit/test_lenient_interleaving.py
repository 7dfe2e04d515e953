"""Lenient games take facts out of their order (two tablets without expected_position) without a crash.

The reliability probe's concurrent recorders send each generated game's next fact for the
position they last read, so facts arrive late, twice or out of turn. A lenient game stores
them flagged; nothing may raise anything but a refusal (found: a pending lock-in's "finish"
step behind a noise roll, and actions by a character no longer on the board).
"""
from __future__ import annotations

import random
from uuid import uuid4

import pytest

from service.archive import Games
from service.errors import ArchiveError
from service.samples import generated


@pytest.mark.parametrize("seed", [1, 3, 7, 9])
def test_stale_and_repeated_facts_are_stored_flagged_or_refused_never_crash(seed):
    header, facts = generated(seed, players=4, max_rounds=4)
    rng = random.Random(seed)
    for _ in range(4):
        game = Games._new_game({**header, "strict": False})
        for _ in range(len(facts) * 2):
            stale = rng.choice([0, 0, 0, 0, 1, 2, 3])
            fact = facts[max(0, min(len(facts) - 1, game.position - stale))]
            try:
                game.record([fact], command_id=str(uuid4()))
            except ArchiveError:
                continue
        assert game.position > len(facts) // 2


def test_an_action_by_a_character_off_the_board_is_stored_but_not_applied():
    from service.rules import Fact, get_ruleset

    header, facts = generated(1, players=4, max_rounds=2)
    ruleset = get_ruleset("lockdown")
    state = ruleset.initial_state(Games._new_game({**header, "strict": False}).setup)
    n = next(i for i, f in enumerate(facts) if f["type"] == "CharacterMoved")
    for seq, f in enumerate(facts[:n], start=1):
        state = ruleset.apply(state, Fact(seq, f["type"], f.get("data") or {}, f.get("actor")))[0]
    seat = state.turn
    state = ruleset.apply(state, Fact(n + 1, "CharacterDied", {"cause": "other"}, seat))[0]
    assert state.characters[seat].room is None
    search = Fact(n + 2, "RoomSearched", {"kept": "knife", "colour": "red"}, seat)
    assert [v.rule for v in ruleset.check(state, search)] == ["character-out-of-play"]
    after, cons = ruleset.apply(state, search)
    assert [c.type for c in cons] == ["fact-ignored"] and after.characters[seat].items == state.characters[seat].items
