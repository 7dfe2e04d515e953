"""The alternative board side, Mars surface (lockdown.md §12.5; seed 000 L4603–4885)."""
from dataclasses import replace

from service.rules.lockdown.components import board, load
from service.rules.lockdown.fold import new_game
from service.rules.lockdown.state import Intruder
from service.rules.lockdown.view import describe


def rules(violations):
    return [v.rule for v in violations]


def types(g):
    return [c.type for c in g.consequences]


def mars(players=2, **kw):
    return new_game(players, board="mars", **kw)


def test_the_mars_board_file_invents_no_graph():
    data = load("board_mars")
    assert data["corridors"] is None and data["paths"] is None and data["exit_spaces"] is None
    assert not data["synthetic"] and data["side"] == "mars"
    b = board("mars")
    assert not b.has_graph and b.surface
    assert [(n, b.areas[n]) for n in sorted(b.areas)] == [(1, "building-1"), (2, "building-2"), (3, None),
                                                         (4, "building-4")]
    assert b.fixed_rooms["css_a"] == "css_a"  # CSS A lies face up on its own space
    assert {"repository", "isolation_room", "backup_power_supply"} <= set(b.fixed_rooms)
    assert b.crossroads and all(b.places[c].zone == "surface" for c in b.crossroads)
    assert all(b.places[s].kind == "any" and b.places[s].zone is None for s in b.slots["any"])


def test_setup_on_mars_and_the_board_fact_must_match():
    g = mars()
    assert g.state.board.id == "mars" and g.state.rooms["css_a"].explored
    other = new_game(1)
    v = other.check("BoardPrepared", board="mars")
    assert "board-mismatch" in rules(v) or "setup-order" in rules(v)


def test_any_tile_fits_an_any_slot():
    g = mars(tiles={"slot-01": "surgery", "slot-02": "archive"})
    assert g.state.rooms["slot-01"].tile == "surgery"
    assert g.push("CharacterMoved", 1, to_room="slot-03", corridor=2) == []
    assert "corridor-unverified" in types(g)
    assert g.push("RoomExplored", 1, room="testing_lab", token={"effect": "silence", "items": 1}) == []


def test_moves_to_and_from_a_crossroad_go_along_a_path():
    g = mars()
    v = g.check("CharacterMoved", 1, to_room="crossroad-1", corridor=2)
    assert rules(v) == ["path-move"] and "§12.5" in v[0].section and "L4653" in v[0].section
    v = g.check("CharacterMoved", 1, to_room="slot-04", corridor="path")
    assert rules(v) == ["no-path-here"]
    assert g.push("CharacterMoved", 1, to_room="crossroad-1", corridor="path") == []
    moved = next(c for c in g.consequences if c.type == "moved")
    assert "along a path" in moved.text and moved.data["corridor"] is None
    unverified = next(c for c in g.consequences if c.type == "corridor-unverified")
    assert unverified.data["corridor"] == "path" and "not checked" in unverified.text
    assert g.position()["step"] == "exploration"


def test_path_is_refused_on_the_basic_board_as_a_shape_error():
    g = new_game(2)
    v = g.check("CharacterMoved", 1, to_room="slot-04", corridor="path")
    assert v and v[0].shape and v[0].field == "corridor"


def test_crossroad_exploration_noise_goes_on_an_area():
    g = mars()
    g.push("CharacterMoved", 1, to_room="crossroad-2", corridor="path")
    assert rules(g.check("RoomExplored", 1, room="archive", token={"effect": "silence"})) == ["crossroad-tile"]
    assert g.push("RoomExplored", 1, room="crossroad", token={"effect": "red_item"}) == []
    assert "draw-item" in types(g) and "noise-roll-due" in types(g)
    assert g.state.rooms["crossroad-2"].explored and g.state.rooms["crossroad-2"].tile is None
    assert g.push("NoiseRolled", 1, result=3) == []
    assert g.state.noise == {"area-3"}
    assert describe(g.state)["surface"]["areas"][2] == {"area": 3, "building": None, "noise marker": True}
    # seat 2 walks onto another crossroad: the same area 3 already has a marker -> encounter
    g.push("CharacterMoved", 2, to_room="crossroad-5", corridor="path")
    g.push("RoomExplored", 2, room="crossroad", token={"effect": "slime"})
    g.push("NoiseRolled", 2, result=3)
    assert g.position()["step"] == "encounter" and "area-3" not in g.state.noise


def test_no_fire_malfunction_or_door_on_a_crossroad():
    g = mars()
    g.push("CharacterMoved", 1, to_room="crossroad-1", corridor="path")
    assert g.push("RoomExplored", 1, room="crossroad", token={"effect": "malfunction"}) == []
    assert not g.state.rooms["crossroad-1"].malfunction and "no-malfunction" in types(g)
    g.push("NoiseRolled", 1, result="silence")
    g.push("CharacterMoved", 2, to_room="crossroad-2", corridor="path")
    g.push("RoomExplored", 2, room="crossroad", token={"effect": "fire"})
    assert not g.state.rooms["crossroad-2"].fire and "no-fire" in types(g)
    g.push("NoiseRolled", 2, result="silence")
    g.push("CharacterMoved", 1, to_room="crossroad-3", corridor="path")
    g.push("RoomExplored", 1, room="crossroad", token={"effect": "door"})
    assert not g.state.doors and "no-door" in types(g)


def test_danger_on_a_crossroad_pulls_surface_stalkers_else_noise_on_every_area():
    g = mars()
    g.push("CharacterMoved", 1, to_room="crossroad-1", corridor="path")
    g.push("RoomExplored", 1, room="crossroad", token={"effect": "mars_card"})
    assert "mars-card" in types(g)
    before = g.state
    g.push("NoiseRolled", 1, result="danger")
    assert g.state.noise == {"area-1", "area-2", "area-3", "area-4"}
    g.pop()
    g.state = replace(before, intruders=(Intruder("i1", "adult", "crossroad-4"), Intruder("i2", "adult", "slot-05")))
    g.states[-1] = g.state
    g.push("NoiseRolled", 1, result="danger")
    assert {i.id: i.room for i in g.state.intruders} == {"i1": "crossroad-1", "i2": "slot-05"}


def test_the_mars_die_symbol():
    g = mars()
    g.push("CharacterMoved", 1, to_room="crossroad-1", corridor="path")
    g.push("RoomExplored", 1, room="crossroad", token={"effect": "silence"})
    g.push("CharacterMoved", 1, to_room="crossroad-2", corridor="path")
    g.push("RoomExplored", 1, room="crossroad", token={"effect": "slime"})
    assert g.push("NoiseRolled", 1, result="mars_card") == []
    assert "mars-card" in types(g) and not g.state.noise
    basic = new_game(2)
    basic.push("CharacterMoved", 1, to_room="slot-04", corridor=1)
    basic.push("RoomExplored", 1, room="archive", token={"effect": "slime", "items": 1})
    v = basic.check("NoiseRolled", 1, result="mars_card")
    assert rules(v) == ["mars-die-not-here"] and "§12.5" in v[0].section


def test_describe_shows_the_side():
    d = describe(mars().state)
    assert d["game"]["board side"] == "mars" and not d["game"]["corridor graph known"]
    assert d["surface"]["paths known"] is False and len(d["surface"]["areas"]) == 4
    assert "surface" not in describe(new_game(1).state)
