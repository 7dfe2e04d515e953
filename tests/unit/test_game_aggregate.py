"""The Game aggregate without a database: batches, command ids, copies for the cache."""
from __future__ import annotations

import copy
from uuid import uuid4

import pytest

from service.errors import CommandIdReused, FactsRefused, StalePosition
from service.game import Game
from tests.helpers import generated


def new_game(seed=1, strict=True):
    header, facts = generated(seed=seed)
    game = Game(game_id=uuid4(), ruleset="lockdown", mode=header["mode"], players=header["players"], strict=strict,
                options=header["options"], league=None, tags=[], played_on=None, title=None)
    return game, facts


def test_a_batch_is_checked_whole_before_anything_is_recorded():
    game, facts = new_game()
    with pytest.raises(FactsRefused) as err:
        game.record(facts[:3] + [{"type": "Teleported", "data": {}}])
    assert err.value.details["index"] == 3
    assert game.position == 0 and [type(e).__name__ for e in game.collect_events()] == ["Created"]


def test_command_ids_and_positions():
    game, facts = new_game()
    game.record(facts[:2], command_id="c")
    assert game.record(facts[:2], command_id="c")["replayed"] is True
    with pytest.raises(CommandIdReused):
        game.record(facts[2:3], command_id="c")
    with pytest.raises(StalePosition):
        game.record(facts[2:3], expected_position=1)
    assert game.position == 2


def test_a_copy_for_the_cache_shares_facts_but_not_containers():
    game, facts = new_game()
    game.record(facts[:4], command_id="c")
    clone = copy.deepcopy(game)
    clone.record(facts[4:6])
    assert (game.position, clone.position) == (4, 6)
    assert clone.recorded[0] is game.recorded[0]
    assert game.commands == {"c": {"first": 1, "last": 4}}


def test_folding_the_recorded_events_gives_the_same_head_as_recording():
    game, facts = new_game(seed=5)
    game.record(facts[:10])
    game.record([{"type": "FactVoided", "data": {"seqs": [10]}}])
    game.record(facts[9:])
    events = game.collect_events()
    copy_ = None
    for e in events:
        copy_ = e.mutate(copy_)
    assert copy_.position == game.position
    assert game.ruleset.describe(copy_.head_state) == game.ruleset.describe(game.head_state)
