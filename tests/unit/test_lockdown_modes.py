"""Modes and variants (lockdown.md §12.2–12.4, §12.6; seed 000 L4495–4602, L4752–4796)."""
from dataclasses import replace
from types import MappingProxyType

import pytest

from service.rules.base import Seat, Setup
from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import Game, new_game
from service.rules.lockdown.state import Intruder


def rules(violations):
    return [v.rule for v in violations]


def game(players=1, mode="standard", **options):
    g = Game(Setup(players=tuple(Seat(i, f"P{i}") for i in range(1, players + 1)), mode=mode,
                   options={"board": "basic", **options}))
    assert g.push("BoardPrepared", board="basic") == []
    return g


# --- solo (seed 000 L4495–4512) ---------------------------------------------------------------------

def test_solo_deals_two_solo_coop_cards_and_refuses_a_betrayal_card():
    g = game(1, "solo")
    v = g.check("ObjectivesDealt", 1, objectives=["player_must_not_survive:2", "send_signal"])
    assert rules(v) == ["not-a-solo-coop-objective"] and "§12.2" in v[0].section
    assert rules(g.check("ObjectivesDealt", 1, objectives=["send_signal"])) == ["objective-count"]
    assert g.push("ObjectivesDealt", 1, objectives=["send_signal", "knowledge_at_least:5"]) == []


def test_solo_holds_two_contingency_tokens():
    g = game(1, "solo")
    assert rules(g.check("ContingencyTokensDealt", 1, tokens=["pods"])) == ["contingency-count"]
    assert g.check("ContingencyTokensDealt", 1, tokens=["pods", "signal"]) == []


# --- full co-op (seed 000 L4514–4552) ---------------------------------------------------------------

def test_coop_illegal_cases_are_refused_with_rule_and_section():
    g = new_game(2, mode="coop")
    v = g.check("ContingencyTokensDealt", 1, tokens=["pods"])
    assert rules(v) == ["coop-no-tokens"] and "§12.3" in v[0].section
    v = g.check("ObjectivesDealt", 1, objectives=["send_signal", "knowledge_at_least:8"])
    assert rules(v) == ["objective-count"] and "§12.3" in v[0].section
    assert rules(g.check("ObjectivesDealt", 1, objectives=["sole_survivor"])) == ["not-a-solo-coop-objective"]
    assert g.push("ObjectivesDealt", 1, objectives=["send_signal"]) == []
    with_first_encounter = replace(g.state, first_encounter=True)
    g.state = with_first_encounter
    assert rules(g.check("ObjectiveChosen", 1, objective="send_signal")) == ["coop-objectives-open"]


def test_coop_pool_token_revealed_to_all_and_players_hold_none():
    g = new_game(2, mode="coop")
    assert len(g.state.pool) == 6 and all(not c.contingency for c in g.state.characters.values())
    assert g.push("ContingencyTokenRevealed", None, owner="pool", token="pods") == []
    assert g.state.revealed_pool == ("pods",)


def test_coop_autodoc_does_not_work_with_a_malfunction_or_a_stalker():
    for spoil in ("malfunction", "stalker"):
        g = new_game(2, mode="coop", board="basic", tiles={"slot-04": "emergency_room"})
        g.state = replace(g.state, rooms=MappingProxyType({**g.state.rooms, "slot-04": replace(
            g.state.rooms["slot-04"], explored=True, malfunction=spoil == "malfunction")}))
        g.push("WoundSuffered", 1, kind="serious", count=4)
        g.state = replace(g.state, objects=MappingProxyType({"slot-04": ("corpse:1",)}))
        if spoil == "stalker":
            g.state = replace(g.state, intruders=(Intruder("i1", "adult", "slot-04"),), intruder_serial=9,
                              first_encounter=True)
        from service.rules.lockdown.apply import _revive
        cons = []
        state = _revive(replace(g.state, round=2), cons)
        assert state.characters[1].status == "dead" and not cons, spoil


def test_autodoc_only_in_coop():
    from service.rules.lockdown.apply import _revive
    g = new_game(2, mode="standard", board="basic", tiles={"slot-04": "emergency_room"})
    g.state = replace(g.state, rooms=MappingProxyType({**g.state.rooms, "slot-04": replace(
        g.state.rooms["slot-04"], explored=True)}))
    g.push("WoundSuffered", 1, kind="serious", count=4)
    g.state = replace(g.state, objects=MappingProxyType({"slot-04": ("corpse:1",)}))
    assert _revive(replace(g.state, round=2), []).characters[1].status == "dead"


# --- Nemesis characters (seed 000 L4554–4602) -------------------------------------------------------

def test_nemesis_characters_need_the_option():
    g = game(2)
    v = g.check("CharacterChosen", 1, character="soldier")
    assert rules(v) == ["nemesis-character-not-in-play"] and "§12.4" in v[0].section
    assert "soldier" not in LOCKDOWN.next_inputs(g.state)[0].options["character"]


def test_nemesis_character_is_a_survivor_in_isolation_with_knowledge_3_and_no_starting_item():
    g = game(2, characters="nemesis")
    assert g.push("CharacterChosen", 1, character="Żołnierz") == []
    c = g.state.characters[1]
    assert c.character == "soldier" and c.knowledge == 3
    assert g.state.room_label(c.room) == "Isolation Room"
    assert g.push("CharacterChosen", 2, character="pilot") == []
    extras = [e for e in LOCKDOWN.next_inputs(g.state) if e.type == "ItemGained"]
    assert extras == []  # Pilot and the other Nemesis characters start without a starting item (L4584, L4593)


def test_one_character_per_colour():
    g = game(2, characters="nemesis")
    assert g.push("CharacterChosen", 1, character="survivor") == []
    v = g.check("CharacterChosen", 2, character="soldier")  # both red (L4570–4572)
    assert rules(v) == ["character-colour-taken"]
    free = LOCKDOWN.next_inputs(g.state)[0].options["character"]
    assert "soldier" not in free and "convict" not in free and "captain" in free


def test_unknown_variant_option_is_refused():
    with pytest.raises(ValueError):
        game(1, characters="aliens")


# --- Nemesis intruders (seed 000 L4752–4796) --------------------------------------------------------

def test_nemesis_intruders_start_with_all_weaknesses_face_down():
    g = game(1, intruders="nemesis")
    assert g.state.weaknesses == (False, False, False) and g.state.eggs == 5
    assert game(1).state.weaknesses == (True, False, False)


def test_nemesis_intruders_remove_fire_and_phosphate_sensitivity():
    g = game(1, intruders="nemesis")
    assert g.push("CharacterChosen", 1, character="hacker") == [] and g.push("SetupCompleted") == []
    v = g.check("WeaknessRevealed", None, slot=1, card="Wrażliwość na ogień")
    assert rules(v) == ["weakness-removed"] and "§12.6" in v[0].section
    assert rules(g.check("WeaknessRevealed", None, slot=1, card="phosphate_sensitivity")) == ["weakness-removed"]
    assert g.check("WeaknessRevealed", None, slot=1, card="wary_of_shadows") == []


def test_nemesis_intruders_weakness_usable_by_everybody_and_slot_1_counts_for_the_objective():
    from service.rules.lockdown.scoring import ScoringView, SeatView, WeaknessView, victory_check
    g = game(1, intruders="nemesis")
    assert LOCKDOWN.describe(g.state)["lab"]["weaknesses usable by"] == "everybody"
    seat = SeatView(seat=1, character="hacker", alive=True, location="bunker", larva=False, scan_infected=False,
                    objective="weakness_discovered")
    ws = (WeaknessView(1, discovered=True), WeaknessView(2, discovered=False), WeaknessView(3, discovered=False))
    v = ScoringView(mode="standard", ending="time_out", active_contingency="save_all", seats=(seat,), weaknesses=ws,
                    first_weakness_face_up=False)
    assert victory_check(v).players[0].outcome == "won"
    assert victory_check(replace(v, first_weakness_face_up=True)).players[0].outcome == "lost"
