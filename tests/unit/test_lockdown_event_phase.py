"""The event phase as a sequence of facts (lockdown.md §4 steps 4–11)."""
from dataclasses import replace

from service.rules.lockdown.fold import new_game
from service.rules.lockdown.state import Intruder


def rules(violations):
    return [v.rule for v in violations]


def types(g):
    return [c.type for c in g.consequences]


def all_pass(g):
    while g.state.phase == "player":
        assert g.push("Passed", g.state.turn) == []


def test_steps_must_come_in_order():
    g = new_game(2)
    assert rules(g.check("TimeAdvanced")) == ["event-phase-not-started"]
    all_pass(g)
    assert g.position() == {"round": 1, "phase": "event", "step": "time", "acting": None, "finished": False}
    assert rules(g.check("EventCardDrawn", card="lurking")) == ["event-step-order"]
    assert rules(g.check("CssTokenRevealed", token="A")) == ["event-step-order"]
    assert g.push("TimeAdvanced") == []
    assert g.state.time_label == "14" and g.state.step == "noise_cleanup"
    assert g.push("NoiseMarkersCleared", removed=[]) == []
    assert rules(g.check("EventCardDrawn", card="lurking", corridors=[3])) == ["event-card-corridors"]
    assert g.push("EventCardDrawn", card="Lurking", corridors=[2]) == []
    assert {"event-card", "event-effect"} <= set(types(g))
    assert g.push("ColonyTokenDrawn", token="larva") == []
    assert g.state.round == 2 and "round-ended" in types(g)


def test_table_facts_take_no_actor():
    g = new_game(2)
    all_pass(g)
    v = g.check("TimeAdvanced", 1)
    assert v[0].shape and v[0].rule == "actor-not-allowed"


def test_noise_cleanup_rules():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="alert_room", corridor=1)
    g.push("NoiseRolled", 1, result=2)
    g.push("CharacterMoved", 1, to_room="elevator_room_s01", corridor=1)
    g.push("NoiseRolled", 1, result=3)
    all_pass(g)
    g.push("TimeAdvanced")
    assert rules(g.check("NoiseMarkersCleared", removed=[{"room": "alert_room", "corridor": 4}])) == ["no-such-marker"]
    assert rules(g.check("NoiseMarkersCleared", removed=[{"room": "elevator_room_s01", "corridor": 3}])) == [
        "marker-next-to-character"]
    assert g.push("NoiseMarkersCleared", removed=[{"room": "alert_room", "corridor": 2}]) == []
    assert g.state.noise == {"elevator_room_s01:3"}


def test_removed_event_card_cannot_come_back():
    g = new_game(2)
    all_pass(g)
    g.push("TimeAdvanced")
    g.push("NoiseMarkersCleared", removed=[])
    g.push("EventCardDrawn", card="coolant_leak")
    assert "event-removed" in types(g)
    g.push("ColonyTokenDrawn", token="blank")
    g.push("FirstPlayerPassed", 1)
    all_pass(g)
    g.push("TimeAdvanced")
    g.push("NoiseMarkersCleared", removed=[])
    assert rules(g.check("EventCardDrawn", card="Coolant Leak")) == ["event-card-removed"]


def test_two_copies_are_told_apart_by_their_corridors():
    g = new_game(2)
    all_pass(g)
    g.push("TimeAdvanced")
    g.push("NoiseMarkersCleared", removed=[])
    assert g.push("EventCardDrawn", card="Blood Trace", corridors=[3]) == []
    assert g.state.last_event_card == "blood_trace_2"


def test_colony_larva_becomes_an_adult_and_creeper_a_breeder():
    g = new_game(2)
    bag = dict(g.state.bag)
    all_pass(g)
    for t, d in (("TimeAdvanced", {}), ("NoiseMarkersCleared", {"removed": []}), ("EventCardDrawn", {"card": "panic"})):
        g.push(t, **d)
    g.push("ColonyTokenDrawn", token="larva")
    assert g.state.bag["larva"] == bag["larva"] - 1 and g.state.bag["adult"] == bag["adult"] + 1
    g.push("FirstPlayerPassed", 1)
    all_pass(g)
    for t, d in (("TimeAdvanced", {}), ("NoiseMarkersCleared", {"removed": []}), ("EventCardDrawn", {"card": "damage"})):
        g.push(t, **d)
    g.push("ColonyTokenDrawn", token="creeper")
    assert g.state.bag["creeper"] == 0 and g.state.bag["breeder"] == 1
    assert rules([*g.check("ColonyTokenDrawn", token="creeper")]) != []  # not the colony step any more


def test_colony_adult_makes_everyone_roll_in_player_order_except_in_combat():
    g = new_game(3)
    all_pass(g)
    g.state = replace(g.state, intruders=(Intruder("i1", "adult", "repository"),))  # seat 2 is in combat
    for t, d in (("TimeAdvanced", {}), ("NoiseMarkersCleared", {"removed": []})):
        g.push(t, **d)
    assert [p.kind for p in g.state.pending] == ["attack"]  # step 7: the adult in combat attacks
    assert g.push("IntruderAttacked", intruder="i1", card="evolve") == []  # a creeper-only card misses
    assert g.push("EventCardDrawn", card="panic") == []
    g.push("ColonyTokenDrawn", token="adult")
    assert [p.seat for p in g.state.pending] == [1, 3]
    assert rules(g.check("NoiseRolled", 3, result=1)) == ["pending-step"]
    assert g.push("NoiseRolled", 1, result=1) == []
    assert g.state.round == 1
    assert g.push("NoiseRolled", 3, result="silence") == []
    assert g.state.round == 2 and g.state.step == "first_player"


def test_colony_queen_adds_an_egg_when_nobody_is_in_the_nest():
    g = new_game(2)
    all_pass(g)
    for t, d in (("TimeAdvanced", {}), ("NoiseMarkersCleared", {"removed": []}), ("EventCardDrawn", {"card": "panic"})):
        g.push(t, **d)
    g.push("ColonyTokenDrawn", token="queen")
    assert g.state.eggs == 6 and "egg-added" in types(g)


def test_synthetic_event_card_moves_stalkers_not_in_combat():
    g = new_game(2, board="synthetic")
    b = g.state.board
    start = "alert_room"
    dest = b.other_end(b.corridor_key(start, 2), start)
    g.state = replace(g.state, intruders=(Intruder("i1", "adult", start), Intruder("i2", "queen", start)))
    all_pass(g)
    for t, d in (("TimeAdvanced", {}), ("NoiseMarkersCleared", {"removed": []})):
        g.push(t, **d)
    g.push("EventCardDrawn", card="lurking")  # creeper and adult move through corridor 2
    rooms = {i.id: i.room for i in g.state.intruders}
    assert rooms == {"i1": dest, "i2": start}


def test_css_step_appears_under_a_css_slot_and_isolation_opens_at_08():
    g = new_game(1, mode="solo")
    for _ in range(9):
        all_pass(g)
        if g.state.step == "css_launch":
            assert g.push("CssTokenRevealed", token="NONE") == []
        g.push("TimeAdvanced")
        g.push("NoiseMarkersCleared", removed=[])
        g.push("EventCardDrawn", card="panic")
        g.push("ColonyTokenDrawn", token="blank")
        g.push("FirstPlayerPassed", 1)
    assert g.state.time_label == "06" and g.state.isolation_open


def test_time_running_out_ends_the_game():
    g = new_game(1, mode="solo")
    while not g.state.ended:
        all_pass(g)
        if g.state.step == "css_launch":
            g.push("CssTokenRevealed", token="NONE")
        g.push("TimeAdvanced")
        if g.state.ended:
            break
        g.push("NoiseMarkersCleared", removed=[])
        g.push("EventCardDrawn", card="panic")
        g.push("ColonyTokenDrawn", token="blank")
        g.push("FirstPlayerPassed", 1)
    assert g.state.round == 15 and g.state.time_label == "S" and g.state.ending == "time_out"
    assert g.position()["finished"]
    assert rules(g.check("Passed", 1)) == ["game-over"]
