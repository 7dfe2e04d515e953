"""Perspectives: a secret reaches a perspective at the step it learned it, never before."""
from __future__ import annotations

import json

import pytest

from service.rules.base import Fact, Seat, Setup
from service.rules.lockdown.perspective import audience, mask, perspective_view, valid
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.replay import fold
from service.rules.story import tell
from tests.unit.test_replay_story import demo

SECRET_OBJECTIVES = ("player_must_not_survive", "nest_destroyed", "weakness_discovered", "sectors_explored")


def seen(state, seat):
    c = state.characters[seat]
    return c.objectives, c.objective, c.contingency


def test_perspectives_offered_and_checked():
    setup, _ = demo("club-three-players.jsonl")
    assert [k for k, _ in LOCKDOWN.perspectives(setup)] == ["all", "public", "seat1", "seat2", "seat3"]
    assert valid(setup, "seat3") and not valid(setup, "seat4") and not valid(setup, "everyone")


def test_an_objective_is_the_owners_from_the_deal_and_everybodys_only_at_the_victory_check():
    setup, facts = demo("club-three-players.jsonl")
    deal = next(f for f in facts if f.type == "ObjectivesDealt" and f.actor == 1)
    public = fold(LOCKDOWN, setup, facts, as_="public")
    own = fold(LOCKDOWN, setup, facts, as_="seat1")
    other = fold(LOCKDOWN, setup, facts, as_="seat2")
    end = next(s.seq for s in public.steps if s.state.ended)
    for p_step, o_step, x_step in zip(public.steps, own.steps, other.steps):
        objectives, kept, _ = seen(o_step.state, 1)
        if p_step.seq >= deal.seq:  # the owner knows from the deal on
            assert objectives == tuple(deal.data["objectives"])
        if p_step.seq < end:  # nobody else before the victory check
            for step in (p_step, x_step):
                objectives, kept, _ = seen(step.state, 1)
                assert set(objectives) <= {"unknown"} and kept in (None, "unknown")
                text = json.dumps([LOCKDOWN.describe(step.state), [c.text for c in step.consequences]])
                assert not any(o in text for o in SECRET_OBJECTIVES if o.startswith("player_must"))
    # Ada survived (locked in): the victory check shows her kept objective to the table, not her discarded one
    for rp in (public, other):
        objectives, kept, _ = seen(rp.steps[-1].state, 1)
        assert kept == "player_must_not_survive:2" and "nest_destroyed" not in objectives
        at_end = next(s for s in rp.steps if s.seq == end)
        assert any("reveals the objective" in c.text for c in at_end.consequences)
    # Filip died during play: his objective is never shown to the others
    assert seen(public.steps[-1].state, 2)[1] in (None, "unknown")
    assert seen(other.steps[-1].state, 2)[1] == "sectors_explored:S-01,S-02"


def test_contingency_tokens_are_the_holders_until_revealed():
    setup, facts = demo("club-three-players.jsonl")
    for as_, expected in (("seat1", ("save_all",)), ("seat2", ("unknown",)), ("public", ("unknown",))):
        state = fold(LOCKDOWN, setup, [f for f in facts if f.seq <= 6], as_=as_).head.state
        assert state.characters[1].contingency == expected, as_
    story = tell(fold(LOCKDOWN, setup, facts, as_="public"))
    assert story.by_seq[6].text == "Ada (Hacker) receives 1 face-down contingency token."
    assert "Save" not in story.by_seq[6].text


def test_room_tiles_stay_face_down_until_explored_except_for_the_all_seeing():
    setup, facts = demo("club-three-players.jsonl")
    public = fold(LOCKDOWN, setup, facts, as_="public")
    full = fold(LOCKDOWN, setup, facts)
    at12 = next(s for s in public.steps if s.seq == 12)
    assert "Cargo Sending System" not in json.dumps([LOCKDOWN.describe(at12.state), [c.text for c in at12.consequences]])
    full12 = next(s for s in full.steps if s.seq == 12)
    assert full12.state.rooms["slot-12"].tile == "css_a" and at12.state.rooms["slot-12"].tile is None
    assert any("Cargo Sending System A" in c.text for c in full12.consequences)
    at13 = next(s for s in public.steps if s.seq == 13)
    assert any(r["room"] == "Cargo Sending System A" for r in LOCKDOWN.describe(at13.state)["rooms"])


def test_a_peek_shows_the_token_to_the_one_who_peeks_and_its_holder_only():
    setup = Setup(players=(Seat(1, "Ada"), Seat(2, "Bo"), Seat(3, "Cy")))
    peek = Fact(9, "ContingencyTokenPeeked", {"owner": 2, "token": "signal"}, actor=1)
    assert audience(setup, peek) == {1, 2}
    assert mask(setup, peek, "seat1").data["token"] == "signal"
    assert mask(setup, peek, "seat2").data["token"] == "signal"
    assert "token" not in mask(setup, peek, "seat3").data and "token" not in mask(setup, peek, "public").data


@pytest.mark.parametrize("visibility, seat1, seat2", [("public", True, False), ("private", True, False),
                                                      ("hidden", False, False)])
def test_recorded_visibility_narrows_who_saw_a_secret(visibility, seat1, seat2):
    setup = Setup(players=(Seat(1, "Ada"), Seat(2, "Bo")))
    dealt = Fact(5, "ObjectivesDealt", {"objectives": ["send_signal"]}, actor=1, visibility=visibility)
    assert (mask(setup, dealt, "seat1").data["objectives"] == ["send_signal"]) is seat1
    assert (mask(setup, dealt, "seat2").data["objectives"] == ["send_signal"]) is seat2
    assert mask(setup, dealt, "all") is dealt
    shown = Fact(6, "ObjectiveRevealed", {"objective": "send_signal"}, actor=1, visibility=visibility)
    assert (mask(setup, shown, "seat2").data["objective"] == "send_signal") is (visibility == "public")


def test_full_co_op_plays_its_objectives_open():
    setup = Setup(players=(Seat(1, "Ada"), Seat(2, "Bo")), mode="coop")
    dealt = Fact(5, "ObjectivesDealt", {"objectives": ["knowledge_at_least:8"]}, actor=1)
    assert mask(setup, dealt, "public") is dealt


@pytest.mark.parametrize("name", ["club-three-players.jsonl", "friday-four-players.jsonl", "solo-evening.jsonl"])
def test_every_perspective_folds_the_same_board_and_the_same_verdicts(name):
    """Masking hides secrets only: no perspective sees a different board, rule violation or winner."""
    setup, facts = demo(name)
    truth = fold(LOCKDOWN, setup, facts)
    verdict = [(p.seat, p.outcome) for p in LOCKDOWN.score(truth.head.state).players]
    for as_, _ in LOCKDOWN.perspectives(setup):
        rp = fold(LOCKDOWN, setup, facts, as_=as_)
        assert [s.seq for s in rp.steps] == [s.seq for s in truth.steps]
        assert [s.violations for s in rp.steps] == [s.violations for s in truth.steps]
        assert [(p.seat, p.outcome) for p in LOCKDOWN.score(rp.head.state).players] == verdict, as_
        for a, b in zip(rp.steps, truth.steps):
            assert {s: (c.room, c.status, c.light, len(c.serious)) for s, c in a.state.characters.items()} == \
                {s: (c.room, c.status, c.light, len(c.serious)) for s, c in b.state.characters.items()}
            assert a.state.intruders == b.state.intruders


def test_perspective_view_is_the_filtered_state_for_the_board_drawing():
    setup, facts = demo("club-three-players.jsonl")
    upto = [f for f in facts if f.seq <= 12]
    assert perspective_view(setup, upto, "public").rooms["slot-12"].tile is None
    assert perspective_view(setup, upto, "all").rooms["slot-12"].tile == "css_a"
    assert LOCKDOWN.perspective_view(setup, upto, "seat1").characters[1].contingency == ("save_all",)


def test_a_replacement_shown_as_played_is_masked_like_the_fact_it_replaces():
    setup, facts = demo("club-three-players.jsonl")
    fixed = facts + [Fact(len(facts) + 1, "FactReplaced", {"seq": 5, "replacement": {
        "type": "ObjectivesDealt", "actor": 1, "data": {"objectives": ["send_signal", "nest_destroyed"]}},
        "reason": "wrong cards"})]
    public = tell(fold(LOCKDOWN, setup, fixed, corrected=False, as_="public")).by_seq
    assert "send" not in public[len(facts) + 1].text.lower() and "2 secret objectives" in public[len(facts) + 1].text
    own = tell(fold(LOCKDOWN, setup, fixed, corrected=False, as_="seat1")).by_seq
    assert "Send" in own[len(facts) + 1].text or "signal" in own[len(facts) + 1].text.lower()
