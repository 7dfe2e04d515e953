"""Unknown table values and coarse (after-the-fact) records — decision 0018.

Lenient games take "unknown" for a table value (refused in strict games, naming the field); the fold
carries it; the victory check answers "undetermined, needs X" only where the unknown could change a
verdict; a gap skips rounds; an incomplete ending keeps known deaths and escapes; unknown or invented
corridors teach the corridor map nothing.
"""
from __future__ import annotations

from uuid import uuid4

import pytest

from service.errors import FactsRefused
from service.game import Game as Aggregate
from service.rules.base import Fact
from service.rules.lockdown.corridors import observations
from service.rules.lockdown.fold import Game, new_game
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.unknowns import UNKNOWN_KINDS, coarse_inputs


def rules(violations):
    return [(v.rule, v.field, v.shape) for v in violations]


def aggregate(strict: bool, options=None) -> Aggregate:
    return Aggregate(game_id=uuid4(), ruleset="lockdown", mode="standard",
                     players=[{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}], strict=strict,
                     options=options or {}, league=None, tags=[], played_on=None, title=None)


SETUP = [{"type": "BoardPrepared", "data": {"board": "basic"}},
         {"type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}},
         {"type": "CharacterChosen", "actor": 2, "data": {"character": "hacker"}},
         {"type": "SetupCompleted", "data": {}}]


# --- accepted in lenient games, refused in strict ones -----------------------------------------------

@pytest.mark.parametrize("fact, field", [
    ({"type": "CharacterMoved", "actor": 1, "data": {"to_room": "slot-04", "corridor": "unknown"}}, "corridor"),
    ({"type": "CharacterMoved", "actor": 1, "data": {"to_room": "unknown", "corridor": 2}}, "to_room"),
    ({"type": "CharacterDied", "actor": 2, "data": {"cause": "unknown"}}, "cause"),
    ({"type": "WoundSuffered", "actor": 2, "data": {"kind": "light"}}, None),  # a control: nothing unknown
])
def test_strict_refuses_an_unknown_naming_the_field_lenient_stores_it_flagged(fact, field):
    strict, lenient = aggregate(True), aggregate(False)
    strict.record(SETUP)
    lenient.record(SETUP)
    if field is None:
        strict.record([fact])
        assert strict.position == 5
        return
    with pytest.raises(FactsRefused) as err:
        strict.record([fact])
    refused = err.value.details["violations"]
    assert [(v["rule"], v["field"]) for v in refused] == [("value-unknown", field)]
    assert f"{fact['type']}.{field} is recorded as unknown" in str(err.value)
    assert strict.position == 4  # nothing half-written
    lenient.record([fact])
    assert lenient.position == 5
    assert [f["rule"] for f in lenient.recorded[-1].flags] == ["value-unknown"]


def test_every_unknown_kind_is_well_shaped_and_flagged_only_there():
    from service.rules.lockdown.facts import FACTS

    g = new_game(2)
    seen = set()
    for spec in FACTS.values():
        for f in spec.fields:
            if f.kind not in UNKNOWN_KINDS:
                continue
            seen.add(f.kind)
            data = {**spec.example, f.name: "unknown"}
            actor = 1 if spec.actor == "seat" else None
            found = LOCKDOWN.check(g.state, Fact(99, spec.type, data, actor))
            assert not any(v.shape and v.field == f.name for v in found), (spec.type, f.name, found)
            if not any(v.shape for v in found):  # (an example may name a room this board does not hold)
                assert ("value-unknown", f.name, False) in rules(found), (spec.type, f.name)
            LOCKDOWN.apply(g.state, Fact(99, spec.type, data, actor))  # never raises
    assert seen == UNKNOWN_KINDS
    # not a table value: a seat, an ending, a count stay refused as shapes
    assert rules(LOCKDOWN.check(g.state, Fact(9, "Passed", {"discarded": "unknown"}, 1)))[0][2] is True
    assert rules(LOCKDOWN.check(g.state, Fact(9, "GameEnded", {"ending": "unknown"})))[0][2] is True


# --- the fold carries the uncertainty -------------------------------------------------------------

def test_the_fold_applies_what_does_not_depend_on_the_unknown_value():
    g = new_game(2)
    hand = g.state.characters[1].hand
    g.push("CharacterMoved", 1, to_room="slot-04", corridor="unknown")
    c = g.state.characters[1]
    assert (c.room, c.hand, c.actions) == ("slot-04", hand - 1, 1)
    assert [p.kind for p in g.state.pending] == ["explore"]
    g.push("RoomExplored", 1, room="unknown", token="unknown")
    assert g.state.rooms["slot-04"].explored and g.state.rooms["slot-04"].tile is None
    assert [p.kind for p in g.state.pending] == ["noise"]  # an empty room: the roll is still due
    g.push("NoiseRolled", 1, result="unknown")
    assert g.state.pending == () and g.state.noise == frozenset() and g.state.intruders == ()
    g.push("CharacterMoved", 1, to_room="unknown", corridor=1)
    assert g.state.characters[1].room is None and g.state.turn == 2  # two actions: the turn passed
    assert g.state.unknowns == ("round 1: CharacterMoved.corridor (seat 1)", "round 1: RoomExplored.room (seat 1)",
                                "round 1: RoomExplored.token (seat 1)", "round 1: NoiseRolled.result (seat 1)",
                                "round 1: CharacterMoved.to_room (seat 1)")


def test_an_unknown_character_still_completes_setup_and_plays():
    g = Game(new_game(2).setup)
    g.push("BoardPrepared", board="basic")
    assert rules(g.push("CharacterChosen", 1, character="unknown")) == [("value-unknown", "character", False)]
    g.push("CharacterChosen", 2, character="hacker")
    assert g.push("SetupCompleted") == []
    assert g.position()["phase"] == "player"
    assert g.state.characters[1].character == "unknown" and g.state.characters[1].room is None
    LOCKDOWN.describe(g.state)
    LOCKDOWN.draw(g.state)  # the board and the sidebar draw a character not recorded
    LOCKDOWN.sidebar(g.state)


def test_event_phase_steps_advance_over_unknown_draws():
    g = new_game(1, mode="solo")
    g.push("Passed", 1)
    assert g.position()["phase"] == "event"
    g.push("TimeAdvanced")
    g.push("NoiseMarkersCleared", removed=[])
    assert g.position()["step"] == "event_card"
    g.push("EventCardDrawn", card="unknown")
    assert g.position()["step"] == "colony"
    g.push("ColonyTokenDrawn", token="unknown")
    assert (g.position()["round"], g.position()["phase"]) == (2, "player")
    assert g.state.bag == new_game(1, mode="solo").state.bag  # nothing derived from the unknown token


# --- scoring: undetermined only where the unknown could change the verdict --------------------------

def test_an_unknown_death_cause_decides_the_verdict_anyway():
    g = new_game(2)
    g.push("CharacterDied", 2, cause="unknown")
    g.push("GameEnded", ending="time_out")
    p2 = LOCKDOWN.score(g.state).players[1]
    assert p2.outcome == "lost"  # dead either way; the cause does not change the verdict


def test_an_unknown_value_that_does_not_matter_leaves_the_verdict_as_a_known_one_would():
    def ended(result):
        g = new_game(2)
        g.push("ObjectivesDealt", 1, objectives=["send_signal"])
        g.push("CharacterMoved", 1, to_room="slot-04", corridor=2)
        g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 2})
        g.push("CharacterDied", 1, cause="attack")
        g.push("NoiseRolled", 2, result=result)
        g.push("GameEnded", ending="time_out")
        return LOCKDOWN.score(g.state)
    assert ended("unknown").as_dict() == ended(3).as_dict()


def test_a_gap_makes_the_values_it_could_change_unknown_where_an_objective_reads_them():
    def verdict(gap: bool):
        g = new_game(2)
        g.push("ObjectivesDealt", 1, objectives=["knowledge_at_least:5"])
        g.push("ObjectivesDealt", 2, objectives=["knowledge_at_least:5"])
        g.push("CharacterDied", 2, cause="wounds")
        if gap:
            g.push("RecordGap", to_round=6, time="04")
        g.push("CharacterEscaped", 1, route="bunker")
        return LOCKDOWN.score(g.state)
    known, gapped = verdict(False), verdict(True)
    assert known.players[0].outcome == "lost"  # knowledge 3 < 5: known
    assert gapped.players[0].outcome == "undetermined"
    assert any("knowledge" in r for r in gapped.players[0].reasons)
    assert known.players[1].outcome == gapped.players[1].outcome == "lost"  # the dead stay lost


# --- the coarse record ------------------------------------------------------------------------------

def test_a_gap_skips_to_a_round_and_sets_the_time_token():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=2)  # an exploration is pending
    found = g.push("RecordGap", to_round=4, time="09", note="rounds 2-3 from memory")
    assert rules(found) == [("record-gap", "to_round", False)]
    s = g.state
    assert (s.round, s.phase, s.time_label, s.pending, s.turn) == (4, "player", "09", (), s.first_player)
    assert s.gaps == ((1, 4, "09"),)
    assert not s.isolation_open  # 09: the first white space (08) not reached yet
    later = new_game(2)
    later.push("RecordGap", to_round=6, time="07")
    assert later.state.isolation_open
    assert all(s.characters[x].actions == 0 and not s.characters[x].passed for x in s.seats)
    assert "rounds 1–3" in g.consequences[0].text
    assert LOCKDOWN.narrate(g.states[-2], g.facts[-1], s).startswith("Not recorded: the rest of rounds 1–3")
    assert ("gap-backwards", "to_round", False) in rules(g.check("RecordGap", to_round=3))
    assert rules(g.check("RecordGap", to_round=0))[0][2] is True  # not a round at all: a shape error
    setup = Game(new_game(1).setup)
    assert rules(setup.check("RecordGap", to_round=2))[0][0] == "setup-not-finished"


def test_an_incomplete_ending_keeps_known_deaths_and_escapes_and_decides_nothing_else():
    g = new_game(3)
    g.push("CharacterDied", 2, cause="wounds")
    g.push("RecordGap", to_round=5)
    g.push("CharacterEscaped", 1, route="pod", pod="B")
    assert g.push("GameEnded", ending="incomplete", note="the report stops here") == []
    assert g.state.ending == "incomplete" and g.position()["finished"]
    assert g.state.characters[3].status == "base"  # not killed by an end-of-game effect: nobody knows
    result = LOCKDOWN.score(g.state)
    assert result.ending == "incomplete"
    p1, p2, p3 = result.players
    assert (p2.outcome, p2.death_cause) == ("lost", "wounds")
    assert p1.survival == "swc:B"
    assert p3.outcome == "undetermined" and any("alive" in r for r in p3.reasons)
    assert any("record is incomplete" in r for r in p1.reasons + p3.reasons)
    abandoned = new_game(3)
    abandoned.push("CharacterDied", 2, cause="wounds")
    abandoned.push("GameEnded", ending="abandoned")
    assert LOCKDOWN.score(abandoned.state).players[1].outcome == "undetermined"  # abandoned: no check at all


def test_an_escape_of_the_last_character_in_the_base_ends_the_game():
    g = new_game(2)
    g.push("CharacterDied", 2, cause="attack")
    g.push("CharacterEscaped", 1, route="bunker")
    assert g.state.ending == "no_characters_left"
    assert LOCKDOWN.score(g.state).players[0].survival == "bunker"
    gone = new_game(2)
    gone.push("CharacterEscaped", 1, route="isolation")
    assert ("not-in-base", "route", False) in rules(gone.check("CharacterEscaped", 1, route="bunker"))


def test_coarse_inputs_offer_a_gap_and_each_escape_until_the_end():
    g = new_game(2)
    offered = {(e.type, e.actor) for e in coarse_inputs(g.state)}
    assert offered == {("RecordGap", None), ("CharacterEscaped", 1), ("CharacterEscaped", 2)}
    g.push("CharacterEscaped", 1, route="bunker")
    assert ("CharacterEscaped", 1) not in {(e.type, e.actor) for e in coarse_inputs(g.state)}
    g.push("GameEnded", ending="incomplete")
    assert coarse_inputs(g.state) == []
    assert "RecordGap" not in {e.type for e in LOCKDOWN.next_inputs(new_game(2).state)}  # random play never gaps


# --- the corridor map learns only from corridors the table saw ------------------------------------

def _learned(g: Game):
    return [(o.from_place, o.to_place, o.corridor) for o in observations(zip(g.states, g.facts, g.states[1:]))]


def test_unknown_and_invented_corridors_do_not_feed_the_learned_map():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor="unknown")
    g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 2})
    g.push("CharacterMoved", 1, to_room="slot-05", corridor=3)
    assert _learned(g) == [("slot-04", "slot-05", 3)]
    g.push("RecordGap", to_round=3)  # after a gap the figures may stand elsewhere: nothing is learned
    g.push("CharacterMoved", 2, to_room="slot-06", corridor=1)
    assert _learned(g) == [("slot-04", "slot-05", 3)]
    memory = Game(new_game(2).setup.__class__(players=new_game(2).setup.players,
                                              options={"board": "basic", "after_the_fact": True}))
    memory.push("BoardPrepared", board="basic")
    memory.push("CharacterChosen", 1, character="survivor")
    memory.push("CharacterChosen", 2, character="hacker")
    memory.push("SetupCompleted")
    memory.push("CharacterMoved", 1, to_room="slot-04", corridor=2)
    assert _learned(memory) == []  # recorded from memory: the corridor may be invented


def test_the_replay_story_says_what_was_not_recorded():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor="unknown")
    g.push("RoomExplored", 1, room="unknown", token="unknown")
    g.push("NoiseRolled", 1, result="unknown")
    g.push("CharacterDied", 2, cause="unknown")
    told = [LOCKDOWN.narrate(b, f, a) for b, f, a in zip(g.states[-5:], g.facts[-4:], g.states[-4:])]
    assert told == ["P1 (Survivor) moves to slot-04 (unexplored I) (the corridor: not recorded).",
                    "P1 (Survivor) explores the room (the room tile and the token: not recorded).",
                    "P1 (Survivor) rolls for noise (the result: not recorded).",
                    "P2 (Hacker) dies (the cause: not recorded)."]


def test_unknown_noise_markers_removed_keep_the_event_phase_going():
    g = new_game(1, mode="solo")
    g.push("NoiseMarkerPlaced", room="slot-04", corridor=1)
    g.push("Passed", 1)
    g.push("TimeAdvanced")
    assert rules(g.push("NoiseMarkersCleared", removed="unknown")) == [("value-unknown", "removed", False)]
    assert g.position()["step"] == "event_card"  # step 7 (nobody in combat) and step 8 passed by themselves
    assert len(g.state.noise) == 1  # which markers went is not known: the marker stays (it may be stale)


def test_the_sidebar_says_how_thin_the_record_is_only_when_it_is():
    g = new_game(2)
    assert "Record" not in dict(LOCKDOWN.sidebar(g.state)["status"])
    g.push("NoiseRolled", 1, result="unknown")
    g.push("RecordGap", to_round=4)
    assert dict(LOCKDOWN.sidebar(g.state)["status"])["Record"] == "not recorded: rounds 1–3; 1 value unknown"


def test_an_action_where_the_room_is_unknown_is_counted_and_derives_nothing():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="unknown", corridor=1)
    hand = g.state.characters[1].hand
    assert rules(g.push("RoomSearched", 1, kept="Flashlight", colour="yellow"))  # flagged: no room to search
    assert g.state.characters[1].hand == hand - 1 and g.state.characters[1].items == ()
    assert "room is not recorded" in g.consequences[0].text
    assert g.state.turn == 2  # two actions: the turn passed


@pytest.mark.parametrize("seed", range(12))
def test_generated_games_with_random_unknowns_fold_tell_draw_and_score(seed):
    """Any table value of a played game replaced by "unknown" (lenient): the fold never raises."""
    import random

    from service.rules.lockdown.facts import FACTS
    from service.rules.lockdown.generate import generate_game

    rng = random.Random(seed)
    setup, facts = generate_game(seed, players=1 + seed % 5, max_rounds=4)
    state = LOCKDOWN.initial_state(setup)
    replaced = 0
    for i, f in enumerate(facts):
        fact = f if isinstance(f, Fact) else Fact(i + 1, f[0], f[2], f[1])
        data = dict(fact.data)
        for spec in FACTS[fact.type].fields:
            if spec.kind in UNKNOWN_KINDS and spec.name in data and rng.random() < 0.4:
                data[spec.name] = "unknown"
                replaced += 1
        fact = Fact(fact.seq, fact.type, data, fact.actor)
        # (later facts may name a figure the unknown draw never placed: those are shape errors, ignored by the fold)
        assert not any(v.shape and data.get(v.field) == "unknown" for v in LOCKDOWN.check(state, fact))
        before = state
        state, _ = LOCKDOWN.apply(state, fact)
        LOCKDOWN.narrate(before, fact, state)
        LOCKDOWN.next_inputs(state)
    LOCKDOWN.describe(state), LOCKDOWN.sidebar(state), LOCKDOWN.draw(state)
    if not state.ended:
        state, _ = LOCKDOWN.apply(state, Fact(len(facts) + 1, "GameEnded", {"ending": "incomplete"}))
    assert LOCKDOWN.score(state) is not None and replaced > 0


def test_a_character_whose_room_is_unknown_may_pass_or_move_back_onto_the_board():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="unknown", corridor=1)
    g.push("Passed", 2)
    assert rules(g.check("Passed", 1)) == []
    assert "room-unknown" in [v.rule for v in g.check("RoomSearched", 1, kept="Flashlight", colour="yellow")]
    assert "character-out-of-play" not in [v.rule for v in g.check("CharacterMoved", 1, to_room="slot-07", corridor=2)]
    g.push("CharacterMoved", 1, to_room="slot-07", corridor=2)
    assert g.state.characters[1].room == "slot-07"  # back on the board (main's off-board guard does not ignore it)
    dead = new_game(2)
    dead.push("CharacterDied", 1, cause="attack")
    assert "character-out-of-play" in [v.rule for v in dead.check("CharacterMoved", 1, to_room="slot-07", corridor=2)]


def test_the_after_the_fact_option_is_true_or_false():
    from service.rules.base import Seat, Setup

    with pytest.raises(ValueError, match="after_the_fact must be true or false"):
        LOCKDOWN.initial_state(Setup(players=(Seat(1, "A"),), options={"after_the_fact": "yes"}))
    assert LOCKDOWN.initial_state(Setup(players=(Seat(1, "A"),), options={"after_the_fact": True}))
