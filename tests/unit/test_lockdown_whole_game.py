"""The whole game: condition, combat, items, systems, end conditions, lab and hidden information."""
from dataclasses import replace
from types import MappingProxyType

from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.state import Intruder


def rules(violations):
    return [v.rule for v in violations]


def types(g):
    return [c.type for c in g.consequences]


def with_intruder(g, kind="adult", room="isolation_room", iid="i1", injuries=0):
    g.state = replace(g.state, intruders=g.state.intruders + (Intruder(iid, kind, room, injuries),),
                      intruder_serial=9, first_encounter=True)


def all_pass(g):
    while g.state.phase == "player" and not g.state.pending:
        assert g.push("Passed", g.state.turn) == []


def to_event_card(g):
    all_pass(g)
    g.push("TimeAdvanced")
    g.push("NoiseMarkersCleared", removed=[])


# --- 1. condition -----------------------------------------------------------------------------------

def test_third_light_wound_becomes_serious():
    g = new_game(1, mode="solo")
    for _ in range(2):
        assert g.push("WoundSuffered", 1, kind="light") == []
    assert g.state.characters[1].light == 2
    g.push("WoundSuffered", 1, kind="light")
    c = g.state.characters[1]
    assert c.light == 0 and len(c.serious) == 1 and "light-to-serious" in types(g)


def test_wound_beyond_three_serious_kills_leaves_corpse_and_opens_gate():
    g = new_game(2)
    g.push("WoundSuffered", 1, kind="serious", count=3)
    assert g.state.characters[1].status == "base"
    g.push("WoundSuffered", 1, kind="light")
    c = g.state.characters[1]
    assert c.status == "dead" and c.cause == "wounds" and c.room is None
    assert "corpse:1" in g.state.objects["isolation_room"]
    assert g.state.gate_open and g.state.first_death
    assert rules(g.check("WoundSuffered", 1, kind="light")) == ["character-out-of-play"]
    assert rules(g.check("CharacterMoved", 1, to_room="alert_room", corridor=1)) == ["character-out-of-play"]


def test_dress_and_heal():
    g = new_game(1, mode="solo")
    assert rules(g.check("WoundHealed", 1, kind="light")) == ["no-light-wounds"]
    assert rules(g.check("WoundDressed", 1)) == ["no-undressed-wound"]
    g.push("WoundSuffered", 1, kind="serious", card="Knee")
    assert rules(g.check("WoundHealed", 1, kind="serious")) == ["no-dressed-wound"]
    assert g.push("WoundDressed", 1) == []
    assert g.state.characters[1].serious[0].dressed and g.state.characters[1].serious[0].card == "Knee"
    assert g.push("WoundHealed", 1, kind="serious") == []
    assert g.state.characters[1].serious == ()


def test_contamination_scan_infests_then_kills_with_a_creeper():
    g = new_game(1, mode="solo")
    assert rules(g.check("ContaminationScanned", 1, infected=1)) == ["scan-more-than-owned"]
    g.push("ContaminationCardReceived", 1, count=2)
    c = g.state.characters[1]
    assert c.contamination == 2 and c.discard == 2 and c.hand + c.deck + c.discard == 12
    g.push("ContaminationScanned", 1, infected=1, clean=1, scope="all")
    assert g.state.characters[1].larva and "larva" in types(g)
    g.push("ContaminationScanned", 1, infected=1, clean=0, scope="all")
    assert g.state.characters[1].status == "dead" and g.state.characters[1].cause == "infection"
    assert g.state.ended and g.state.ending == "no_characters_left"


def test_slime_and_larva_removal_need_something_to_remove():
    g = new_game(1, mode="solo")
    assert rules(g.check("SlimeChanged", 1, slime=False)) == ["no-slime"]
    assert rules(g.check("LarvaRemoved", 1)) == ["no-larva"]
    g.push("SlimeChanged", 1, slime=True)
    assert g.state.characters[1].slime


# --- 2. combat -----------------------------------------------------------------------------------------

def test_surprise_attack_is_due_and_resolved_with_the_card():
    g = new_game(1, mode="solo", board="synthetic")
    g.state = replace(g.state, noise=frozenset({"c13"}))
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)  # hand 5 → 4
    g.push("RoomExplored", 1, room="css_b", token={"effect": "silence", "items": 2})
    assert g.state.pending == ()
    g.push("CharacterMoved", 1, to_room="isolation_room", corridor=1)
    g.push("NoiseRolled", 1, result=1)  # c13 has a marker → encounter
    assert g.state.characters[1].hand == 4
    assert g.push("EncounterTokenDrawn", 1, token="queen", number=4) == []
    assert g.state.pending == ()  # 4 cards, token 4: no surprise attack
    g.state = replace(g.state, noise=frozenset({"c13"}), intruders=())
    g.push("Passed", 1)
    all_pass(g)
    g.push("TimeAdvanced"); g.push("NoiseMarkersCleared", removed=[]); g.push("EventCardDrawn", card="panic")
    g.push("ColonyTokenDrawn", token="adult")  # everyone not in combat rolls
    g.push("NoiseRolled", 1, result=1)
    g.state = replace(g.state, characters=MappingProxyType({1: replace(g.state.characters[1], hand=1)}))
    assert g.push("EncounterTokenDrawn", 1, token="adult", number=2) == []
    assert g.state.pending[0].kind == "attack" and g.position()["step"] == "attack"
    assert rules(g.check("Passed", 1)) == ["pending-step"]
    assert rules(g.check("IntruderAttacked", intruder=g.state.pending[0].intruder)) == ["attack-card-missing"]
    assert g.push("IntruderAttacked", intruder=g.state.pending[0].intruder, card="perched_in_the_dark") == []
    assert len(g.state.characters[1].serious) == 1


def test_attack_card_without_the_symbol_misses():
    g = new_game(1, mode="solo")
    with_intruder(g, "adult")
    to_event_card(g)
    assert g.state.step == "attacks"
    g.push("IntruderAttacked", intruder="i1", card="piercing_the_heart")  # queen only
    assert "attack-missed" in types(g) and g.state.characters[1].serious == ()
    assert g.state.step == "event_card"


def test_larva_attack_infests_without_a_card():
    g = new_game(1, mode="solo")
    with_intruder(g, "larva")
    to_event_card(g)
    assert rules(g.check("IntruderAttacked", intruder="i1", card="cut")) == ["larva-draws-no-card"]
    g.push("IntruderAttacked", intruder="i1")
    c = g.state.characters[1]
    assert c.larva and c.contamination == 1 and not g.state.intruders


def test_shoot_needs_a_weapon_in_hand_and_injuries_need_a_check():
    g = new_game(1, mode="solo")
    with_intruder(g, "adult")
    assert rules(g.check("CharacterShot", 1, target="i1", weapon="SMG", result="hit")) == ["no-such-weapon"]
    g.push("ItemGained", 1, item="SMG", colour="starting", where="hand", ammo=1)
    assert g.push("CharacterShot", 1, target="i1", weapon="SMG", result="double") == []
    assert g.state.intruders[0].injuries == 2 and g.state.pending[0].kind == "injury_check"
    assert g.state.characters[1].items[0].ammo == 0
    assert rules(g.check("InjuryCheckDrawn", blood=[2, 3])) == ["blood-count"]
    assert g.push("InjuryCheckDrawn", blood=[2]) == []
    assert not g.state.intruders and g.state.objects["isolation_room"] == ("carcass",)
    g.push("Passed", 1)
    assert rules(g.check("CharacterShot", 1, target="i1", weapon="SMG", result="hit"))


def test_melee_miss_costs_a_serious_wound_and_a_contamination_card():
    g = new_game(1, mode="solo")
    with_intruder(g, "breeder")
    assert rules(g.check("MeleeAttacked", 1, target="i1", result="one_or_two")) == ["melee-advantage"]
    g.push("MeleeAttacked", 1, target="i1", result="adult")  # adult symbol misses a breeder
    c = g.state.characters[1]
    assert c.contamination == 1 and len(c.serious) == 1


def test_retreat_moves_the_stalker_through_the_card_corridor():
    g = new_game(1, mode="solo", board="synthetic")
    with_intruder(g, "adult")
    g.push("ItemGained", 1, item="SMG", where="hand", ammo=3)
    g.push("CharacterShot", 1, target="i1", weapon="SMG", result="hit")
    g.push("InjuryCheckDrawn", blood=["retreat"])
    assert g.state.pending[0].kind == "retreat"
    g.push("IntruderRetreated", intruder="i1", card="lurking")  # corridor 2 of the Isolation Room → slot-01
    assert g.state.intruders[0].room == "slot-01" and g.state.intruders[0].injuries == 1


def test_escape_attacks_come_before_the_new_room_and_death_leaves_the_corpse_behind():
    g = new_game(1, mode="solo", board="synthetic")
    with_intruder(g, "breeder")
    g.push("WoundSuffered", 1, kind="serious", count=2)
    g.push("CharacterMoved", 1, to_room="slot-01", corridor=2)
    assert [p.kind for p in g.state.pending] == ["attack", "explore"]
    g.push("IntruderAttacked", intruder="i1", card="blood_rage")  # 2 serious wounds: dies
    assert g.state.characters[1].status == "dead"
    assert "corpse:1" in g.state.objects["isolation_room"]
    assert g.state.ended and g.state.ending == "no_characters_left"


def test_adult_figure_cap_sends_free_adults_back():
    g = new_game(1, mode="solo")
    for i in range(8):
        with_intruder(g, "adult", "alert_room", f"a{i}")
    g.push("IntruderPlaced", kind="adult", room="repository")
    adults = [i for i in g.state.intruders if i.kind == "adult"]
    assert len(adults) == 1 and adults[0].room == "repository" and "adult-cap" in types(g)


# --- 3. items -----------------------------------------------------------------------------------------------

def test_search_reduces_the_counter_and_heavy_objects_use_hands():
    g = new_game(1, mode="solo", board="synthetic")
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)
    g.push("RoomExplored", 1, room="contaminated_room", token={"effect": "silence", "items": 1})
    assert g.push("RoomSearched", 1, kept="Medkit", colour="green") == []
    assert g.state.rooms["slot-13"].items == 0 and g.state.characters[1].slime
    g.push("Passed", 1)
    g.state = replace(g.state, objects=MappingProxyType({"slot-13": ("egg", "carcass", "carcass")}))
    all_pass(g)
    g.push("TimeAdvanced"); g.push("NoiseMarkersCleared", removed=[]); g.push("EventCardDrawn", card="panic")
    g.push("ColonyTokenDrawn", token="larva")
    g.push("FirstPlayerPassed", 1)
    assert rules(g.check("RoomSearched", 1, kept="Medkit", colour="green")) == ["no-items-left"]
    g.push("HeavyObjectPickedUp", 1, object="egg")
    g.push("HeavyObjectPickedUp", 1, object="carcass")
    assert g.state.characters[1].hands_used == 2


def test_crafting_trading_and_dropping():
    g = new_game(2, characters=("hacker", "janitor"))  # both in the Repository
    g.push("ItemGained", 1, item="Reagent")
    assert rules(g.check("ItemCrafted", 1, item="Flamethrower", ingredients=["Reagent", "Lighter"])) == \
        ["craft-ingredients", "missing-ingredient"]
    assert g.push("ItemCrafted", 1, item="Flamethrower", ingredients=["Reagent"], where="hand", ammo=4) == []
    assert [i.name for i in g.state.characters[1].items] == ["Flamethrower"]
    assert g.push("ItemsTraded", 1, **{"with": 2, "give": ["Flamethrower"]}) == []
    assert g.state.characters[2].items[0].name == "Flamethrower"
    assert g.state.turn == 2  # two actions: the turn passed
    assert rules(g.check("ItemDropped", 1, item="Reagent")) == ["drop-out-of-turn", "no-such-item"]
    assert g.push("ItemDropped", 2, item="Flamethrower") == [] and g.state.characters[2].items == ()


def test_action_card_costs_cards_and_counts_as_an_action():
    g = new_game(1, mode="solo")
    hand = g.state.characters[1].hand
    g.push("ActionCardPlayed", 1, card="Repairs", cost=1)
    assert g.state.characters[1].hand == hand - 2 and g.state.characters[1].actions == 1
    g.push("ActionCardPlayed", 1, card="Interruption", reaction=True)
    assert g.state.characters[1].actions == 1


# --- 4. systems and end conditions -------------------------------------------------------------------------

def test_room_action_refused_with_malfunction_or_in_combat_and_third_action():
    g = new_game(1, mode="solo", tiles={"slot-16": "transmitter_control_room"}, board="synthetic")
    g.push("CharacterMoved", 1, to_room="slot-16", corridor=4)
    g.push("RoomExplored", 1, room="transmitter_control_room", token={"effect": "malfunction", "items": 2})
    g.push("NoiseRolled", 1, result="silence")
    assert rules(g.check("RoomActionUsed", 1, action="send_signal")) == ["room-action-malfunction"]
    assert rules(g.check("RoomActionUsed", 1, action="heal")) == ["wrong-room"]
    g.push("MalfunctionRemoved", room="slot-16")
    assert g.push("RoomActionUsed", 1, action="send_signal") == []
    assert g.state.characters[1].signal and g.state.characters[1].hand == 6 - 1 - 2
    with_intruder(g, "adult", "slot-16")
    assert rules(g.check("RoomActionUsed", 1, action="send_signal")) == ["room-action-in-combat"]


def test_thirteenth_fire_marker_destroys_the_base():
    g = new_game(1, mode="solo")
    rooms = dict(g.state.rooms)
    for place in list(rooms)[:12]:
        rooms[place] = replace(rooms[place], fire=True)
    g.state = replace(g.state, rooms=MappingProxyType(rooms))
    g.push("FirePlaced", room="alert_room")
    assert g.state.ended and g.state.ending == "base_destroyed"
    assert g.state.characters[1].cause == "base_destroyed"


def test_malfunction_never_in_unexplored_rooms_and_doors_never_in_technical_corridors():
    g = new_game(1, mode="solo", board="synthetic")
    assert rules(g.check("MalfunctionPlaced", room="slot-01")) == ["malfunction-unexplored"]
    assert rules(g.check("DoorChanged", room="slot-02", corridor=4, state="closed")) == ["no-door-in-technical"]
    assert g.push("DoorChanged", room="slot-01", corridor=2, state="destroyed") == []
    assert rules(g.check("DoorChanged", room="slot-01", corridor=2, state="closed")) == ["door-destroyed"]


def test_lock_in_before_the_isolation_room_opens_is_refused_then_succeeds_after_a_quiet_roll():
    g = new_game(1, mode="solo")
    assert rules(g.check("RoomActionUsed", 1, action="lock_in")) == ["isolation-closed"]
    g.state = replace(g.state, isolation_open=True)
    assert g.push("RoomActionUsed", 1, action="lock_in") == []
    assert g.state.pending[0].kind == "noise"
    g.push("NoiseRolled", 1, result="silence")
    assert g.state.characters[1].status == "isolation"
    assert g.state.ended and g.state.ending == "no_characters_left"
    result = LOCKDOWN.score(g.state)
    assert result.ending == "no_characters_left" and result.players[0].survival == "isolation"


def test_alarm_procedure_ends_the_game_when_the_time_token_leaves_its_space():
    g = new_game(1, mode="solo", tiles={}, board="basic")
    g.state = replace(g.state, characters=MappingProxyType({1: replace(g.state.characters[1], room="alert_room")}))
    assert g.push("RoomActionUsed", 1, action="alarm") == []
    assert g.state.alarm == g.state.board.time_spaces.index(7) and g.state.isolation_open
    g.state = replace(g.state, time=g.state.alarm)
    all_pass(g)
    g.push("TimeAdvanced")
    assert g.state.ended and g.state.ending == "alarm_procedure"


def test_self_destruct_turns_red_opens_the_gate_and_destroys_the_base():
    g = new_game(1, mode="solo")
    g.push("SelfDestructStarted")
    assert g.state.self_destruct == ("yellow", 3)
    for _ in range(3):
        to_event_card(g) if g.state.phase == "player" else None
        if g.state.ended:
            break
        g.push("EventCardDrawn", card="panic")
        g.push("ColonyTokenDrawn", token="larva")
        g.push("FirstPlayerPassed", 1)
    assert g.state.self_destruct == ("red", 6) and g.state.gate_open
    while not g.state.ended:
        to_event_card(g)
        if not g.state.ended:
            g.push("EventCardDrawn", card="panic"); g.push("ColonyTokenDrawn", token="larva")
            g.push("FirstPlayerPassed", 1)
    # destroyed when the time token LEAVES the red token's space (faq_lockdown.md 31, PL erratum)
    assert g.state.ending == "base_destroyed" and g.state.time == 7


def test_power_drops_at_thresholds_and_css_pods_launch():
    g = new_game(1, mode="solo")
    all_pass(g)
    g.push("TimeAdvanced")  # into 14: red threshold, emergency power inactive
    assert g.state.power["S-02"] == (2, False) and "power-drop" in types(g)


def test_pod_launch_evacuates_and_ends_the_game_when_nobody_is_left():
    g = new_game(1, mode="solo", board="basic", tiles={"slot-04": "css_a"})
    g.state = replace(g.state, characters=MappingProxyType({1: replace(g.state.characters[1], room="slot-04")}),
                      time=5)
    g.state = replace(g.state, rooms=MappingProxyType({**g.state.rooms, "slot-04": replace(
        g.state.rooms["slot-04"], explored=True)}))
    assert g.push("RoomActionUsed", 1, action="enter_pod") == []
    assert g.state.pods == {"A": 1} and g.state.phase == "event" and g.state.step == "css_launch"
    g.push("CssTokenRevealed", token="A")
    assert g.state.characters[1].status == "evacuated"
    assert g.state.ended and g.state.ending == "no_characters_left"


# --- 5. lab and hidden information ----------------------------------------------------------------------

def test_objectives_are_chosen_once_after_the_first_encounter():
    g = new_game(2)
    assert g.push("ObjectivesDealt", 1, objectives=["send_signal", "nest_destroyed"]) == []
    assert rules(g.check("ObjectivesDealt", 1, objectives=["unknown", "unknown"])) == ["objectives-twice"]
    assert rules(g.check("ObjectivesDealt", 2, objectives=["win_the_game", "unknown"])) == ["invalid-field"]
    assert rules(g.check("ObjectiveChosen", 1, objective="send_signal")) == ["objective-choice-not-due"]
    with_intruder(g, "adult", "alert_room")
    assert rules(g.check("ObjectiveChosen", 1, objective="queen_killed")) == ["objective-not-dealt"]
    assert g.push("ObjectiveChosen", 1, objective="send_signal") == []
    assert rules(g.check("ObjectiveChosen", 1, objective="send_signal")) == ["objective-chosen-twice"]


def test_active_contingency_stays_hidden_until_the_end():
    g = new_game(2)
    assert rules(g.check("ContingencyTokenRevealed", owner="active", token="signal")) == ["active-plan-hidden"]
    assert rules(g.check("ContingencyTokenPeeked", 1, owner="active")) == ["active-plan-hidden"]
    assert len(g.state.pool) == 6
    g.push("GameEnded", ending="time_out")
    assert g.push("ContingencyTokenRevealed", owner="active", token="signal") == []
    assert g.state.active_contingency == "signal"


def test_research_reveals_the_next_weakness_once_per_object_type():
    g = new_game(1, mode="solo", board="basic", tiles={"slot-04": "laboratory"})
    g.state = replace(g.state, characters=MappingProxyType({1: replace(g.state.characters[1], room="slot-04")}),
                      objects=MappingProxyType({"slot-04": ("egg", "egg")}))
    g.state = replace(g.state, rooms=MappingProxyType({**g.state.rooms, "slot-04": replace(
        g.state.rooms["slot-04"], explored=True)}))
    assert g.push("RoomActionUsed", 1, action="research", object="egg") == []
    assert g.state.weaknesses == (True, True, False) and g.state.characters[1].knowledge == 6
    g.push("Passed", 1)
    assert rules(g.check("RoomActionUsed", 1, action="research", object="carcass"))


def test_coop_autodoc_revives_a_corpse_in_the_emergency_room():
    g = new_game(2, mode="coop", board="basic", tiles={"slot-04": "emergency_room"})
    g.state = replace(g.state, rooms=MappingProxyType({**g.state.rooms, "slot-04": replace(
        g.state.rooms["slot-04"], explored=True)}))
    g.push("WoundSuffered", 1, kind="serious", count=4)
    assert g.state.characters[1].status == "dead"
    g.state = replace(g.state, objects=MappingProxyType({"slot-04": ("corpse:1",)}))
    all_pass(g)
    g.push("TimeAdvanced"); g.push("NoiseMarkersCleared", removed=[]); g.push("EventCardDrawn", card="panic")
    g.push("ColonyTokenDrawn", token="larva")
    c = g.state.characters[1]
    assert c.status == "base" and c.room == "slot-04" and all(w.dressed for w in c.serious)
    assert "revived" in types(g)


def test_score_runs_the_victory_check_for_real_endings_and_stays_undetermined_when_abandoned():
    g = new_game(1, mode="solo")
    g.push("GameEnded", ending="abandoned")
    assert LOCKDOWN.score(g.state).players[0].outcome == "undetermined"
    g = new_game(1, mode="solo")
    g.push("GameEnded", ending="time_out")
    assert g.state.characters[1].cause == "time_out"
    assert LOCKDOWN.score(g.state).players[0].outcome == "lost"
