"""Warrants (decision 0039): a death, knowledge, an item, the self-destruct, a stalker placed or a time-out ending
that the state does not warrant is refused in strict games and flagged in lenient ones, unless it names its cause
(``by``); games stored before the rule fold as before."""
from __future__ import annotations

import random
from uuid import uuid4

import pytest

from service.errors import FactsRefused
from service.game import Game
from service.rules import get_ruleset
from service.rules.base import Fact, Seat, Setup
from service.rules.kit.player import fill
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.generate import FILLERS
from service.rules.lockdown.warrants import WARRANTS, warrant

LOCKDOWN = get_ruleset("lockdown")


def table(**kw):
    return new_game(2, board="synthetic", warrants="required", **kw)


def to_colony_step(g):
    """Both pass, then the event phase up to the colony step (the event card drawn and being resolved)."""
    rng = random.Random(3)
    for _ in range(60):
        s = g.state
        if s.phase == "event" and s.step == "colony" and not s.pending:
            return g
        offered = [e for e in g.legal() if e.type in ("Passed", "CssTokenRevealed", "TimeAdvanced",
                                                         "NoiseMarkersCleared", "EventCardDrawn", "IntruderAttacked",
                                                         "FirstPlayerPassed")]
        e = next((x for x in offered if x.type != "Passed"), None) or offered[0]
        data = fill(rng, s, e, FILLERS)
        data.pop("by", None)
        assert g.push(e.type, e.actor, **data) == [], (e.type, data)
    raise AssertionError(f"no colony step: {g.position()}")


def rules(violations):
    return [v.rule for v in violations]


def near_time_out(g):
    """The time token one space from the end (a gap in the record puts it there)."""
    b = g.state.board
    g.push("RecordGap", None, to_round=g.state.round + 1, time=b.time_label(len(b.time_spaces) - 2))
    return g


# (type, actor, data) unwarranted on a fresh table, and how to make the state warrant it
UNWARRANTED = {
    "CharacterDied": (1, {"cause": "attack"}),
    "KnowledgeGained": (1, {"amount": 1}),
    "ItemGained": (1, {"item": "Flashlight", "colour": "yellow"}),
    "SelfDestructStarted": (None, {}),
    "IntruderPlaced": (None, {"kind": "adult", "room": "slot-01"}),
    "GameEnded": (None, {"ending": "time_out"}),
}


def warranted_table(type_):
    g = table()
    if type_ == "CharacterDied":
        room = g.state.characters[1].room
        g.push("IntruderPlaced", None, kind="adult", room=room, by="event: Hatching")
    elif type_ == "KnowledgeGained":
        g.push("ItemGained", 1, item="Analyze Toolset", colour="yellow", by="Guard Quarters")
    elif type_ == "ItemGained":
        return g, {"item": "Flashlight", "colour": "starting"}  # the character's starting item
    elif type_ in ("SelfDestructStarted", "IntruderPlaced"):
        to_colony_step(g)
    elif type_ == "GameEnded":
        near_time_out(g)
    return g, None


def test_the_table_covers_the_six_kinds():
    assert set(WARRANTS) == set(UNWARRANTED)


@pytest.mark.parametrize("type_", list(UNWARRANTED))
def test_unwarranted_is_refused_naming_type_field_and_warrant(type_):
    g = table()
    actor, data = UNWARRANTED[type_]
    violations = g.check(type_, actor, **data)
    assert rules(violations) == ["unwarranted"], violations
    v = violations[0]
    assert not v.shape and v.field == "by" and v.section
    assert type_ in v.message and f"{type_}.by" in v.message and "needs" in v.message
    assert f"{type_}.{WARRANTS[type_][1]}" in v.message


@pytest.mark.parametrize("type_", list(UNWARRANTED))
def test_warranted_by_the_state_is_accepted(type_):
    g, other = warranted_table(type_)
    actor, data = UNWARRANTED[type_]
    data = other or data
    fact = Fact(0, type_, data, actor)
    assert warrant(g.state, fact), type_
    assert g.check(type_, actor, **data) == []


@pytest.mark.parametrize("type_", list(UNWARRANTED))
def test_naming_the_cause_is_accepted(type_):
    g = table()
    actor, data = UNWARRANTED[type_]
    assert g.check(type_, actor, **data, by="event: Coolant Leak") == []
    assert g.check(type_, actor, **data, by="Research Documents") == []  # an item the catalogue knows
    assert g.check(type_, actor, **data, by="Kasia's house rule card") == []  # a card the catalogue lacks


def test_by_is_accepted_on_every_fact_type_and_checked_against_a_named_catalogue():
    g = table()
    assert g.check("WoundSuffered", 1, kind="light", by="attack: Cut") == []
    bad = g.check("WoundSuffered", 1, kind="light", by="event: No Such Card")
    assert [(v.rule, v.field, v.shape) for v in bad] == [("invalid-field", "by", True)]
    assert "event" in bad[0].message and "No Such Card" in bad[0].message
    assert rules(g.check("WoundSuffered", 1, kind="light", by="")) == ["invalid-field"]
    assert rules(g.check("WoundSuffered", 1, kind="light", by_whom="x")) == ["unknown-field"]


def test_a_bare_setup_enforces_it_and_unchecked_does_not():
    setup = Setup(players=(Seat(1, "Ann"), Seat(2, "Ben")))
    g = table()
    state = LOCKDOWN.initial_state(Setup(setup.players, options={"board": "synthetic"}))
    for f in g.history:
        state, _ = LOCKDOWN.apply(state, f)
    assert rules(LOCKDOWN.check(state, Fact(9, "KnowledgeGained", {"amount": 1}, 1))) == ["unwarranted"]
    assert new_game(2).check("KnowledgeGained", 1, amount=1) == []  # warrants="unchecked"
    with pytest.raises(ValueError, match="warrants"):
        LOCKDOWN.initial_state(Setup(setup.players, options={"warrants": "sometimes"}))


def test_offers_carry_a_free_by_only_where_warrants_are_checked():
    def by_offered(g):
        return {e.type for e in g.legal() if "by" in e.options}
    g = table()
    assert {"CharacterDied", "KnowledgeGained", "ItemGained", "SelfDestructStarted", "IntruderPlaced"} <= by_offered(g)
    assert by_offered(new_game(2, board="synthetic")) == set()


def _game(strict, options):
    return Game(game_id=uuid4(), ruleset="lockdown", mode="standard",
                players=[{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}], strict=strict, options=options,
                league=None, tags=[], played_on=None, title=None)


SETUP_FACTS = [{"type": "BoardPrepared", "data": {"board": "synthetic"}},
               {"type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}},
               {"type": "CharacterChosen", "actor": 2, "data": {"character": "hacker"}},
               {"type": "SetupCompleted", "data": {}}]
UNNAMED = {"type": "KnowledgeGained", "actor": 1, "data": {"amount": 1}}


def test_the_store_refuses_it_in_strict_games_and_flags_it_in_lenient_ones():
    strict = _game(True, {"board": "synthetic", "warrants": "required"})
    strict.record(SETUP_FACTS)
    with pytest.raises(FactsRefused) as err:
        strict.record([UNNAMED])
    assert "KnowledgeGained" in err.value.message and err.value.details["violations"][0]["rule"] == "unwarranted"
    strict.record([{**UNNAMED, "data": {"amount": 1, "by": "Analyze Toolset"}}])
    lenient = _game(False, {"board": "synthetic", "warrants": "required"})
    lenient.record(SETUP_FACTS)
    result = lenient.record([UNNAMED])
    assert [v["rule"] for v in result["flagged"][0]["violations"]] == ["unwarranted"]
    step = lenient.replay().steps[-1]
    assert rules(step.violations) == ["unwarranted"]  # the replay shows the flag
    assert lenient.head_state.characters[1].knowledge == 4  # and the fact is applied


def test_a_game_stored_before_the_rule_folds_as_before():
    old = _game(True, {"board": "synthetic"})  # stored without the option
    assert old.setup.options["warrants"] == "unchecked" and "warrants" not in old.options
    old.record(SETUP_FACTS + [UNNAMED, {"type": "IntruderPlaced", "data": {"kind": "adult", "room": "slot-01"}}])
    assert all(not s.violations for s in old.replay().steps)
    assert LOCKDOWN.new_game_options == {"warrants": "required"}
