"""The board drawing (service/rules/lockdown/svg.py): valid SVG, the figures where the state has them, highlights."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from service.demo import HERE as DEMO_DIR
from service.notation import read_file
from service.rules import Fact, Seat, Setup, get_ruleset
from service.rules.lockdown.fold import new_game
from service.rules.replay import fold

LOCKDOWN = get_ruleset("lockdown")
NS = {"s": "http://www.w3.org/2000/svg"}
S = "{http://www.w3.org/2000/svg}"


def demo(name: str):
    parsed = read_file(DEMO_DIR / f"{name}.jsonl")
    h = parsed.header
    setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in h["players"]), mode=h["mode"],
                  options=h.get("options") or {})
    facts = [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor")) for f in parsed.facts]
    return fold(LOCKDOWN, setup, facts)


@pytest.fixture(scope="module")
def friday():
    return demo("friday-four-players")


def drawn(replay, seq: int) -> ET.Element:
    i = replay.index_of(seq)
    svg = LOCKDOWN.draw(replay.steps[i].state, before=replay.steps[i - 1].state if i else None)
    return ET.fromstring(svg)  # valid XML, or this raises


def room(root: ET.Element, place: str) -> ET.Element:
    found = root.findall(f".//s:g[@data-place='{place}']", NS)
    assert len(found) == 1, f"{place} drawn {len(found)} times"
    return found[0]


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def test_steps_of_every_demo_game_are_valid_svg_with_a_title_on_each_figure():
    for path in sorted(DEMO_DIR.glob("*.jsonl")):
        replay = demo(path.stem)
        for i, step in list(enumerate(replay.steps))[::3] + [(len(replay.steps) - 1, replay.head)]:
            root = ET.fromstring(LOCKDOWN.draw(step.state, before=replay.steps[i - 1].state if i else None))
            assert root.tag == S + "svg" and root.get("viewBox").startswith("0 0 ")
            assert root.get("width") is None  # scales with its container
            # the page's Content-Security-Policy admits the one <style> by hash, never a style attribute
            assert [el.tag for el in root.iter() if "style" in el.attrib] == []
            assert [el.text for el in root.iter(S + "style")] == list(LOCKDOWN.drawing_styles)
            for g in root.iter(S + "g"):
                if {"room", "figure", "noise-marker", "port"} & classes(g):
                    assert g.find("s:title", NS) is not None, (path.stem, step.seq, g.attrib)


def test_a_known_step_shows_characters_intruders_noise_and_fire_where_the_state_has_them(friday):
    state = friday.steps[friday.index_of(121)].state
    root = drawn(friday, 121)
    for seat, c in state.characters.items():
        if c.in_play:
            token = room(root, c.room).find(f".//s:g[@data-seat='{seat}']", NS)
            assert token is not None, f"seat {seat} not drawn in {c.room}"
            assert "character" in classes(token)
    for i in state.intruders:
        token = room(root, i.room).find(f".//s:g[@data-intruder='{i.id}']", NS)
        assert token is not None and token.get("data-kind") == i.kind
    drawn_noise = {g.get("data-corridor") for g in root.iterfind(".//s:g[@class='noise-marker']", NS)}
    assert drawn_noise == set(state.noise)
    fires = {p for p, r in state.rooms.items() if r.fire}
    assert fires and fires == {g.get("data-place") for g in root.iterfind(".//s:g[@data-place]", NS)
                               if g.find("s:path[@class='fire']", NS) is not None}
    assert "Round 3" in "".join(root.itertext())


def test_a_move_highlights_the_character_and_its_new_room_and_draws_an_arrow(friday):
    step = friday.steps[friday.index_of(120)]
    assert step.fact.type == "CharacterMoved"
    seat, to = step.fact.actor, step.fact.data["to_room"]
    root = drawn(friday, 120)
    token = room(root, to).find(f".//s:g[@data-seat='{seat}']", NS)
    assert "hl" in classes(token)
    arrows = [p for p in root.iter(S + "path") if "arrow" in classes(p)]
    assert len(arrows) == 1 and "moved from" in arrows[0].find("s:title", NS).text
    others = [g for g in root.iterfind(".//s:g[@data-seat]", NS) if g.get("data-seat") != str(seat)]
    assert not any("hl" in classes(g) for g in others)


def test_a_noise_roll_highlights_the_new_marker_only(friday):
    before, after = friday.steps[friday.index_of(121) - 1].state, friday.steps[friday.index_of(121)].state
    new = after.noise - before.noise
    assert len(new) == 1
    root = drawn(friday, 121)
    lit = {g.get("data-corridor") for g in root.iterfind(".//s:g[@class='noise-marker']", NS)
           if "hl" in classes(g.find("s:circle", NS))}
    assert lit == new


def test_without_before_nothing_is_highlighted(friday):
    svg = LOCKDOWN.draw(friday.steps[friday.index_of(120)].state)
    assert " hl" not in svg and "hl " not in svg


def test_unexplored_rooms_are_face_down_and_explored_ones_named():
    g = new_game(1)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    g.push("RoomExplored", 1, room="archive", token={"effect": "silence", "items": 2})
    root = ET.fromstring(LOCKDOWN.draw(g.state, before=g.states[-2]))
    explored = room(root, "slot-04")
    assert explored.get("data-explored") == "true" and "Archive" in "".join(explored.itertext())
    hidden = room(root, "slot-05")
    assert hidden.get("data-explored") == "false" and "face down" in "".join(hidden.itertext())
    assert "Archive" not in "".join(hidden.itertext())


def test_the_basic_board_is_labelled_schematic_and_draws_learned_corridors_dashed():
    g = new_game(1)
    g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    asked = []

    def learned(board):
        asked.append(board)
        return [{"from_place": "isolation_room", "to_place": "slot-04", "corridor": 3, "moves": 2},
                {"from_place": "nowhere", "to_place": "slot-04", "corridor": 1}]  # unknown place: left out

    root = ET.fromstring(LOCKDOWN.draw(g.state, learned=learned))
    assert asked == ["basic"]
    text = " ".join(root.itertext())
    assert "Schematic, not the printed board" in text and "not known" in text
    lines = [p for p in root.iter(S + "path") if {"cor", "learned"} <= classes(p)]
    assert len(lines) == 1 and "slot-04" in lines[0].find("s:title", NS).text


def test_a_declared_graph_is_drawn_and_the_learned_lookup_is_not_asked(friday):
    state = friday.head.state
    svg = LOCKDOWN.draw(state, learned=lambda board: pytest.fail("asked for learned corridors"))
    root = ET.fromstring(svg)
    solid = [p for p in root.iter(S + "path") if classes(p) == {"cor"}]
    assert len(solid) == len(state.board.corridors)
    assert "SYNTHETIC TEST BOARD" in svg


def test_power_doors_noise_and_time_tokens_are_drawn_on_the_basic_board():
    from dataclasses import replace

    g = new_game(2)
    before = g.state
    state = replace(before, doors=frozenset({"slot-04:3"}), noise=frozenset({"slot-09:2", "technical"}))
    root = ET.fromstring(LOCKDOWN.draw(state, before=before))
    door = root.find(".//s:g[@data-place='slot-04']/s:rect[@class='door hl']", NS)
    assert door is not None and door.find("s:title", NS).text.startswith("Closed door in corridor 3")
    assert room(root, "slot-09").find(".//s:g[@data-corridor='slot-09:2']", NS) is not None
    assert room(root, "technical").find(".//s:g[@data-corridor='technical']", NS) is not None
    titles = [t.text or "" for t in root.iter(S + "title")]
    assert any(t.startswith("S-01: power on") for t in titles)
    assert any(t.startswith("S-03: power OFF") for t in titles)
    assert any(t.startswith("Time token on 15") for t in titles)
    assert sum(1 for t in titles if t.startswith("CSS token under space")) == len(state.board.css_spaces)


def test_the_elevator_and_its_power_are_shown_in_its_room_and_a_call_is_highlighted():
    from dataclasses import replace

    before = new_game(2).state
    after = replace(before, elevator="S-02")
    root = ET.fromstring(LOCKDOWN.draw(after, before=before))
    lifts = {p: g for p in ("elevator_room_s01", "elevator_room_s02")
             for g in room(root, p).iterfind("s:g", NS) if "elevator" in classes(g)}
    assert "the elevator is here" in lifts["elevator_room_s02"].find("s:title", NS).text
    assert "the elevator is here" not in lifts["elevator_room_s01"].find("s:title", NS).text
    assert "hl" in classes(lifts["elevator_room_s02"])


def test_names_are_escaped():
    g = new_game(1)
    from dataclasses import replace

    state = replace(g.state, setup=replace(g.state.setup, players=(Seat(1, 'Ann <&> "Bo"'),)))
    root = ET.fromstring(LOCKDOWN.draw(state))
    assert 'Ann <&> "Bo"' in " ".join(root.itertext())


@pytest.mark.parametrize("board", ["basic", "mars", "synthetic"])
def test_every_board_side_draws(board):
    state = LOCKDOWN.initial_state(Setup(players=(Seat(1, "A"), Seat(2, "B")), options={"board": board}))
    root = ET.fromstring(LOCKDOWN.draw(state))
    places = {g.get("data-place") for g in root.iterfind(".//s:g[@data-place]", NS)}
    assert set(state.board.places) <= places
