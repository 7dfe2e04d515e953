"""Disputed scoring values are game options (docs/scoring.md §6), checked when the game is created."""
from __future__ import annotations

from dataclasses import replace

import pytest

from service.rules import Fact, Seat, Setup
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.generate import generate_game
from service.rules.lockdown.scoring import DEFAULT, settings_from
from service.rules.replay import fold


def test_settings_come_from_the_scoring_option():
    assert settings_from({}) == DEFAULT
    s = settings_from({"scoring": {"knowledge_plan_threshold": 6, "knowledge_plan_rule": "above_dies"}})
    assert (s.knowledge_plan_threshold, s.knowledge_plan_rule) == (6, "above_dies")


@pytest.mark.parametrize("scoring, words", [
    ({"threshold": 3}, "unknown scoring setting 'threshold'"),
    ({"knowledge_plan_threshold": "4"}, "must be a int"),
    ({"isolation_plan_kills_bunker": 1}, "must be a bool"),
    ({"knowledge_plan_rule": "sometimes"}, "at_most_dies"),
    ("high", "must be an object"),
])
def test_a_bad_setting_is_refused_when_the_game_is_set_up(scoring, words):
    with pytest.raises(ValueError, match=words):
        LOCKDOWN.initial_state(Setup(players=(Seat(1, "A"),), options={"scoring": scoring}))


def test_the_victory_check_uses_the_games_settings():
    """Some generated game's verdicts depend on the knowledge plan's disputed rule."""
    for seed in range(1, 80):
        setup, facts = generate_game(seed, players=3, max_rounds=20)
        folded = [Fact(i + 1, t, d, a) for i, (t, a, d) in enumerate(facts)]
        default = LOCKDOWN.score(fold(LOCKDOWN, setup, folded).head.state)
        other_setup = replace(setup, options={**setup.options, "scoring": {"knowledge_plan_rule": "above_dies",
                                                                          "knowledge_plan_threshold": 0}})
        other = LOCKDOWN.score(fold(LOCKDOWN, other_setup, folded).head.state)
        if default != other:
            assert any("knowledge" in " ".join(p.reasons) for p in other.players + default.players)
            return
    pytest.fail("no generated game ended under the knowledge plan")
