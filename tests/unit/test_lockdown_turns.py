"""Player turns: up to 2 actions, passing, turn order, first player token (lockdown.md §4)."""
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.state import with_character


def rules(violations):
    return [v.rule for v in violations]


def move_to_explored(g, seat, room="alert_room", corridor=1, roll=2):
    """A move into an explored, empty special room, then its noise roll."""
    assert g.push("CharacterMoved", seat, to_room=room, corridor=corridor) == []
    assert g.push("NoiseRolled", seat, result=roll) == []


def event_phase(g, colony="larva"):
    for t, data in (("TimeAdvanced", {}), ("NoiseMarkersCleared", {"removed": []}),
                    ("EventCardDrawn", {"card": "lurking"}), ("ColonyTokenDrawn", {"token": colony})):
        assert g.push(t, **data) == [], t


def test_two_actions_then_the_turn_passes():
    g = new_game(3)
    move_to_explored(g, 1, "alert_room", 1, 2)
    assert g.state.turn == 1 and g.state.characters[1].actions == 1
    move_to_explored(g, 1, "elevator_room_s01", 2, 3)
    assert g.state.turn == 2
    assert any(c.type == "turn" and c.data["seat"] == 2 for c in g.consequences)
    assert g.state.characters[1].hand == 6 - 2


def test_third_action_is_refused_with_a_clear_message():
    g = new_game(3)
    move_to_explored(g, 1, "alert_room", 1, 2)
    move_to_explored(g, 1, "elevator_room_s01", 2, 3)
    v = g.check("CharacterMoved", 1, to_room="alert_room", corridor=1)
    assert rules(v) == ["third-action"]
    assert "2 actions" in v[0].message and "seat 2" in v[0].message
    assert v[0].section.startswith("lockdown.md §4") and not v[0].shape


def test_acting_out_of_turn():
    g = new_game(3)
    v = g.check("CharacterMoved", 3, to_room="alert_room", corridor=1)
    assert rules(v) == ["out-of-turn"] and "seat 1" in v[0].message
    assert rules(g.check("Passed", 2)) == ["out-of-turn"]


def test_pass_counts_as_an_action_and_ends_the_turn():
    g = new_game(2)
    move_to_explored(g, 1)
    assert g.push("Passed", 1, discarded=2) == []
    assert g.state.characters[1].passed and g.state.characters[1].hand == 6 - 1 - 2
    assert g.state.turn == 2


def test_pass_as_first_action_ends_the_turn():
    g = new_game(2)
    assert g.push("Passed", 1) == []
    assert g.state.turn == 2


def test_acting_after_passing():
    g = new_game(2)
    g.push("Passed", 1)
    move_to_explored(g, 2, "alert_room", 1, 1)
    move_to_explored(g, 2, "elevator_room_s01", 1, 1)
    # seat 1 passed, so seat 2 plays again
    assert g.state.turn == 2
    v = g.check("CharacterMoved", 1, to_room="alert_room", corridor=2)
    assert rules(v) == ["acting-after-passing"]


def test_discarding_more_than_the_hand():
    g = new_game(2)
    assert rules(g.check("Passed", 1, discarded=7)) == ["discard-too-many"]


def test_everyone_passed_starts_the_event_phase_and_moving_is_refused():
    g = new_game(2)
    g.push("Passed", 1)
    g.push("Passed", 2)
    assert g.state.phase == "event" and g.state.step == "time"
    assert any(c.type == "event-phase" for c in g.consequences)
    v = g.check("CharacterMoved", 1, to_room="alert_room", corridor=1)
    assert rules(v) == ["wrong-phase"] and "event phase" in v[0].message


def test_first_player_token_does_not_move_in_round_1():
    g = new_game(2)
    v = g.check("FirstPlayerPassed", 1, to=2)
    assert rules(v) == ["first-player-round-1"]


def test_round_2_begins_with_the_first_player_token_moving_left():
    g = new_game(3)
    for seat in (1, 2, 3):
        g.push("Passed", seat, discarded=1)
    event_phase(g)
    s = g.state
    assert s.round == 2 and s.phase == "player" and s.step == "first_player"
    assert [c.type for c in g.consequences][-5:] == ["round-ended", "round-started", "cards-drawn", "cards-drawn",
                                                     "cards-drawn"]
    assert s.characters[2].hand == 5 and s.characters[1].hand == 6 and not s.characters[1].passed
    assert rules(g.check("CharacterMoved", 1, to_room="alert_room", corridor=1)) == ["first-player-pending"]
    assert rules(g.check("FirstPlayerPassed", 2)) == ["not-first-player"]
    assert rules(g.check("FirstPlayerPassed", 1, to=3)) == ["first-player-wrong-seat"]
    assert g.push("FirstPlayerPassed", 1, to=2) == []
    assert g.state.first_player == 2 and g.state.turn == 2
    assert g.state.player_order() == (2, 3, 1)


def test_first_player_wraps_around():
    g = new_game(2)
    g.push("Passed", 1)
    g.push("Passed", 2)
    event_phase(g)
    g.push("FirstPlayerPassed", 1)
    g.push("Passed", 2)
    g.push("Passed", 1)
    event_phase(g)
    assert g.push("FirstPlayerPassed", 2, to=1) == []


def test_turn_skips_players_who_passed():
    g = new_game(3)
    move_to_explored(g, 1)
    g.push("Passed", 1)
    g.push("Passed", 2)
    assert g.state.turn == 3
    move_to_explored(g, 3, "elevator_room_s02", 2, 1)
    move_to_explored(g, 3, "elevator_room_s03", 2, 1)
    assert g.state.turn == 3  # everyone else has passed


def test_not_enough_cards_to_move():
    g = new_game(2)
    g.state = with_character(g.state, 1, hand=0)
    assert rules(g.check("CharacterMoved", 1, to_room="alert_room", corridor=1)) == ["not-enough-cards"]
    g.state = with_character(g.state, 1, hand=1)
    assert rules(g.check("CharacterMovedCarefully", 1, to_room="alert_room", corridor=1, noise_corridor=2)) == [
        "not-enough-cards"]


def test_illegal_action_is_applied_best_effort_without_raising():
    g = new_game(3)
    v = g.push("CharacterMoved", 3, to_room="alert_room", corridor=1)  # out of turn
    assert rules(v) == ["out-of-turn"]
    assert g.state.characters[3].room == "alert_room"
    assert g.state.turn == 1 and g.state.characters[1].actions == 0
    assert g.state.pending and g.state.pending[0].seat == 3
    # moving in the event phase, lenient
    g2 = new_game(2)
    g2.push("Passed", 1)
    g2.push("Passed", 2)
    g2.push("CharacterMoved", 1, to_room="alert_room", corridor=4)
    assert g2.state.characters[1].room == "alert_room"
