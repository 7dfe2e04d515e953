"""Learned corridors: observations from recorded moves (docs/decisions/0005-learned-corridors.md)."""
from service.rules.base import Fact
from service.rules.lockdown.corridors import board_fragment, observations, replay_steps
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.state import Intruder
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.replay import fold


def steps(g):
    return zip(g.states, g.facts, g.states[1:])


def test_character_moves_are_observed_with_the_corridor_the_table_named():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 1})
    g.push("CharacterMovedCarefully", 1, to_room="slot-05", corridor=2, noise_corridor=1)
    g.push("RoomExplored", 1, room="laboratory", token={"effect": "silence", "items": 1})
    got = [(o.board, o.from_place, o.to_place, o.corridor, o.mover) for o in observations(steps(g))]
    assert got == [("basic", "isolation_room", "slot-04", 3, "character"),
                   ("basic", "slot-04", "slot-05", 2, "character")]


def test_moves_on_a_board_without_corridors_warn_but_are_never_refused():
    g = new_game(2)
    assert g.push("CharacterMoved", 1, to_room="slot-09", corridor=4) == []
    warning = next(c for c in g.consequences if c.type == "corridor-unverified")
    assert "not checked" in warning.text and warning.data == {
        "board": "basic", "from_room": "isolation_room", "to_room": "slot-09", "corridor": 4}
    synthetic = new_game(2, board="synthetic")
    place = synthetic.state.characters[1].room
    key, number, other = synthetic.state.board.exits(place)[0]
    synthetic.push("CharacterMoved", 1, to_room=other, corridor=synthetic.state.board.number_at(key, other))
    assert "corridor-unverified" not in [c.type for c in synthetic.consequences]


def test_intruder_moves_are_observed_only_with_a_corridor():
    from dataclasses import replace

    g = new_game(2)
    g.state = replace(g.state, intruders=(Intruder("i1", "adult", "slot-03"),))
    g.states[-1] = g.state
    g.push("IntruderMoved", to_room="slot-07", intruder="i1")
    g.push("IntruderMoved", to_room="slot-08", intruder="i1", corridor=2)
    assert "corridor-unverified" in [c.type for c in g.consequences]
    got = [(o.from_place, o.to_place, o.corridor, o.mover) for o in observations(steps(g))]
    assert got == [("slot-07", "slot-08", 2, "intruder")]


def test_a_replay_gives_the_same_observations_and_skips_voided_moves():
    g = new_game(2)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 1})
    facts = list(g.facts) + [Fact(len(g.facts) + 1, "FactVoided", {"seqs": [g.facts[-2].seq, g.facts[-1].seq]})]
    assert [o.to_place for o in observations(replay_steps(fold(LOCKDOWN, g.setup, g.facts)))] == ["slot-04"]
    assert list(observations(replay_steps(fold(LOCKDOWN, g.setup, facts)))) == []


def test_board_fragment_is_in_the_board_file_format():
    frag = board_fragment("basic", [
        {"from_place": "slot-01", "to_place": "slot-02", "corridor": 3},
        {"from_place": "slot-02", "to_place": "slot-01", "corridor": 1},
        {"from_place": "slot-02", "to_place": "slot-05", "corridor": 4},
        {"from_place": "crossroad-1", "to_place": "crossroad-2", "corridor": "path"},
    ])
    assert frag["corridors"] == [
        {"id": "learned-01", "ends": [["slot-01", 1], ["slot-02", 3]]},
        {"id": "learned-02", "ends": [["slot-02", None], ["slot-05", 4]]},
    ]
    assert frag["paths"] == [["crossroad-1", "crossroad-2"]] and "null" in frag["note"]
