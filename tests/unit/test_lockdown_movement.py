"""Movement, exploration, noise rolls and encounters (lockdown.md §2.7, §5.2, §5.7, §5.8, §7.4)."""
from dataclasses import replace

from service.rules.lockdown.fold import new_game
from service.rules.lockdown.state import Intruder, with_character
from service.rules.lockdown.view import describe


def rules(violations):
    return [v.rule for v in violations]


def types(g):
    return [c.type for c in g.consequences]


# --- the real basic board: no corridor graph ------------------------------------------------

def test_basic_board_accepts_any_room_and_corridor_number():
    g = new_game(2)
    assert g.check("CharacterMoved", 1, to_room="slot-09", corridor=4) == []
    assert g.check("CharacterMoved", 1, to_room="Rapid Response Center", corridor=1) == []


def test_unknown_room_and_bad_corridor_are_shape_violations():
    g = new_game(2)
    v = g.check("CharacterMoved", 1, to_room="Bridge", corridor=1)
    assert v[0].shape and v[0].field == "to_room" and "unknown room" in v[0].message
    v = g.check("CharacterMoved", 1, to_room="Archive", corridor=1)  # tile position not known yet
    assert v[0].shape and "not on the board or its position is not known" in v[0].message
    v = g.check("CharacterMoved", 1, to_room="slot-09", corridor=5)
    assert v[0].shape and v[0].field == "corridor"
    v = g.check("CharacterMoved", 1, to_room="slot-09", corridor="2")
    assert v[0].shape
    v = g.check("CharacterMoved", 1, to_room="slot-09")
    assert rules(v) == ["missing-field"] and v[0].field == "corridor"
    v = g.check("CharacterMoved", None, to_room="slot-09", corridor=1)
    assert rules(v) == ["actor-required"] and v[0].shape
    v = g.check("CharacterFlew", 1)
    assert rules(v) == ["unknown-fact-type"] and v[0].shape


def test_moving_into_the_same_room():
    g = new_game(2)
    assert rules(g.check("CharacterMoved", 1, to_room="isolation_room", corridor=1)) == ["same-room"]


def test_entering_an_unexplored_room_requires_its_exploration():
    g = new_game(2)
    assert g.push("CharacterMoved", 1, to_room="slot-04", corridor=3) == []
    assert g.position()["step"] == "exploration" and g.position()["acting"] == 1
    assert rules(g.check("NoiseRolled", 1, result=1)) == ["noise-roll-not-due"]
    assert rules(g.check("CharacterMoved", 1, to_room="slot-05", corridor=1)) == ["pending-step"]
    assert rules(g.check("RoomExplored", 1, room="surgery", token={"effect": "fire", "items": 2})) == ["tile-kind"]
    assert g.push("RoomExplored", 1, room="Laboratorium", token={"effect": "fire", "items": 2}) == []
    room = g.state.rooms["slot-04"]
    assert room.explored and room.tile == "laboratory" and room.fire and room.items == 2
    assert "noise-roll-due" in types(g)
    assert g.push("NoiseRolled", 1, result=3) == []
    assert g.state.noise == {"slot-04:3"}
    # once revealed, the room can be named: here it is the room the character is in
    assert rules(g.check("CharacterMoved", 1, to_room="Laboratory", corridor=1)) == ["same-room"]
    assert rules(g.check("RoomExplored", 2, room="nest", token={"effect": "fire"})) == ["exploration-not-due"]


def test_explored_tile_must_match_setup_and_not_be_elsewhere():
    g = new_game(2, tiles={"slot-04": "archive"})
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    assert rules(g.check("RoomExplored", 1, room="nest", token={"effect": "silence", "items": 1})) == [
        "tile-mismatch"]
    g2 = new_game(2, tiles={"slot-05": "archive"})
    g2.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    assert rules(g2.check("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 1})) == [
        "tile-elsewhere"]


def test_silence_and_danger_tokens_skip_the_noise_roll():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 1})
    assert not g.state.pending and "no-noise-roll" in types(g)
    g.push("CharacterMoved", 1, to_room="slot-05", corridor=3)
    g.push("RoomExplored", 1, room="nest", token={"effect": "danger", "items": 1})
    assert not g.state.pending
    danger = [c for c in g.consequences if c.type == "danger"][0]
    assert danger.data["resolved"] is False  # graph unknown: the table resolves it


def test_nest_discovery_knowledge_and_no_item_counter():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="slot-05", corridor=3)
    g.push("RoomExplored", 1, room="nest", token={"effect": "slime", "items": 3})
    assert g.state.characters[1].knowledge == 4
    assert g.state.rooms["slot-05"].items is None
    assert g.state.characters[1].slime


def test_solo_halves_item_counters():
    g = new_game(1, mode="solo")
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    g.push("RoomExplored", 1, room="archive", token={"effect": "fire", "items": 3})
    assert g.state.rooms["slot-04"].items == 2


def test_no_roll_when_entering_an_occupied_room():
    g = new_game(2, characters=["survivor", "lab_rat"])  # both start in the Isolation Room
    g.push("CharacterMoved", 1, to_room="alert_room", corridor=1)
    g.push("NoiseRolled", 1, result=2)
    g.push("Passed", 1)
    assert g.push("CharacterMoved", 2, to_room="alert_room", corridor=1) == []
    assert not g.state.pending


def test_noise_roll_places_a_marker_then_a_second_one_starts_an_encounter():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="alert_room", corridor=1)
    g.push("NoiseRolled", 1, result=2)
    assert g.state.noise == {"alert_room:2"} and "noise-placed" in types(g)
    g.push("CharacterMoved", 1, to_room="elevator_room_s01", corridor=1)
    g.push("NoiseRolled", 1, result=4)
    g.push("Passed", 2)  # seat 2's turn
    g.push("CharacterMoved", 1, to_room="alert_room", corridor=3)
    assert g.push("NoiseRolled", 1, result=2) == []
    assert "encounter" in types(g) and g.state.noise == {"elevator_room_s01:4"}  # room's markers cleared
    assert g.position()["step"] == "encounter"
    hand = g.state.characters[1].hand
    assert rules(g.check("EncounterTokenDrawn", 1, token="breeder", number=3)) == ["token-not-in-bag"]
    assert g.push("EncounterTokenDrawn", 1, token="adult", number=hand + 1) == []
    assert [i.kind for i in g.state.intruders_in("alert_room")] == ["adult"]
    assert {"intruder-placed", "milestone-first-encounter", "surprise-attack"} <= set(types(g))
    assert g.state.in_combat(1)


def test_silence_with_slime_is_danger():
    g = new_game(2)
    g.state = with_character(g.state, 1, slime=True)
    g.push("CharacterMoved", 1, to_room="alert_room", corridor=1)
    g.push("NoiseRolled", 1, result="silence")
    assert "silence-as-danger" in types(g) and "danger" in types(g)


def test_noise_roll_not_due_and_encounter_not_due():
    g = new_game(2)
    v = g.check("NoiseRolled", 1, result=3)
    assert rules(v) == ["noise-roll-not-due"] and not v[0].shape
    assert rules(g.check("EncounterTokenDrawn", 1, token="adult")) == ["encounter-not-due"]
    assert g.check("NoiseRolled", 1, result=7)[0].shape


def test_careful_move_places_the_chosen_marker_instead_of_rolling():
    g = new_game(2)
    assert g.push("CharacterMovedCarefully", 1, to_room="alert_room", corridor=1, noise_corridor=3) == []
    assert g.state.noise == {"alert_room:3"} and not g.state.pending
    assert g.state.characters[1].hand == 6 - 2
    g.push("Passed", 1)
    v = g.check("CharacterMovedCarefully", 2, to_room="alert_room", corridor=1, noise_corridor=3)
    assert rules(v) == ["noise-already-there"]


def test_careful_move_into_an_unexplored_room_explores_but_never_rolls():
    g = new_game(2)
    g.push("CharacterMovedCarefully", 1, to_room="slot-04", corridor=1, noise_corridor=2)
    g.push("RoomExplored", 1, room="archive", token={"effect": "fire", "items": 2})
    assert not g.state.pending and g.state.rooms["slot-04"].fire


def test_careful_move_in_combat_is_refused():
    g = new_game(2)
    g.state = replace(g.state, intruders=(Intruder("i1", "adult", "isolation_room"),))
    v = g.check("CharacterMovedCarefully", 1, to_room="alert_room", corridor=1, noise_corridor=2)
    assert rules(v) == ["careful-in-combat"]
    assert g.check("CharacterMoved", 1, to_room="alert_room", corridor=1) == []  # escape is allowed
    g.push("CharacterMoved", 1, to_room="alert_room", corridor=1)
    assert "escape" in types(g)


# --- the synthetic board: corridors declared --------------------------------------------------

def test_synthetic_board_enforces_adjacency_and_corridor_numbers():
    g = new_game(2, board="synthetic")
    v = g.check("CharacterMoved", 1, to_room="slot-05", corridor=2)
    assert rules(v) == ["not-adjacent"] and "Reachable" in v[0].message
    v = g.check("CharacterMoved", 1, to_room="slot-13", corridor=1)
    assert rules(v) == ["wrong-corridor"] and "corridor 2" in v[0].message
    assert g.check("CharacterMoved", 1, to_room="slot-13", corridor=2) == []


def test_synthetic_noise_markers_are_shared_by_both_rooms_of_a_corridor():
    g = new_game(2, board="synthetic", characters=["survivor", "hacker"])
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)
    g.push("RoomExplored", 1, room="archive", token={"effect": "fire", "items": 1})
    g.push("NoiseRolled", 1, result=2)  # corridor 2 of slot-13 is c13, back to the Isolation Room
    assert g.state.noise == {"c13"}
    desc = {r["space"]: r for r in describe(g.state)["rooms"]}
    assert desc["isolation_room"]["noise in corridors"] == [1]  # c13 is numbered 1 at the Isolation Room
    assert desc["slot-13"]["noise in corridors"] == [2]


def test_synthetic_technical_corridor_noise():
    g = new_game(2, board="synthetic")
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)
    g.push("RoomExplored", 1, room="archive", token={"effect": "fire", "items": 1})
    g.push("NoiseRolled", 1, result=4)  # slot-13 has its technical entrance at 4
    assert g.state.noise == {"technical"}


def test_synthetic_danger_places_noise_in_every_empty_corridor():
    g = new_game(2, board="synthetic")
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)
    g.push("RoomExplored", 1, room="archive", token={"effect": "danger", "items": 1})
    assert g.state.noise == set(g.state.board.corridors_of("slot-13"))


def test_synthetic_danger_pulls_in_an_adjacent_stalker():
    g = new_game(2, board="synthetic")
    g.state = replace(g.state, intruders=(Intruder("i1", "adult", "slot-09"),))
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)
    g.push("RoomExplored", 1, room="archive", token={"effect": "danger", "items": 1})
    assert g.state.intruders[0].room == "slot-13" and not g.state.noise
    assert g.state.in_combat(1)


def test_door_token_closes_the_corridor_came_through():
    g = new_game(2, board="synthetic")
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)
    g.push("RoomExplored", 1, room="archive", token={"effect": "door", "items": 1})
    assert g.state.doors == {"c13"}
    g.push("NoiseRolled", 1, result="silence")
    v = g.check("CharacterMoved", 1, to_room="isolation_room", corridor=1)
    assert rules(v) == ["closed-door"]


def test_blank_encounter_places_noise_everywhere_on_a_graph_board():
    g = new_game(2, board="synthetic")
    g.push("CharacterMoved", 1, to_room="slot-13", corridor=2)
    g.push("RoomExplored", 1, room="archive", token={"effect": "fire", "items": 1})
    key = g.state.board.corridor_key("slot-13", 1)
    g.state = replace(g.state, noise=frozenset({key}))
    g.push("NoiseRolled", 1, result=1)  # corridor 1 of slot-13 already has a marker: encounter
    assert g.state.noise == frozenset()
    assert g.push("EncounterTokenDrawn", 1, token="blank") == []
    assert g.state.noise == set(g.state.board.corridors_of("slot-13"))
    assert not g.state.intruders
