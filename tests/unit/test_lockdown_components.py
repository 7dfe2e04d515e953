"""Components are data files; boards are honest about what is known."""
import json
from pathlib import Path

from service.rules.lockdown.components import BOARDS, CHARACTERS, DATA, EVENT_CARDS, ROOMS, board, box_characters


def test_room_catalogue_has_10_basic_9_additional_and_the_special_rooms():
    kinds = [r.kind for r in ROOMS]
    assert kinds.count("I") == 10
    assert kinds.count("II") == 9
    special = {r.id for r in ROOMS if r.kind == "special"}
    assert {"isolation_room", "repository", "backup_power_supply", "alert_room",
            "elevator_room_s01", "elevator_room_s02", "elevator_room_s03"} <= special


def test_every_room_has_english_and_polish_names():
    for r in ROOMS:
        assert r.en and r.pl, r.id


def test_rooms_resolve_by_id_english_polish_and_alias():
    assert ROOMS.resolve("nest").id == "nest"
    assert ROOMS.resolve("Gniazdo").id == "nest"
    assert ROOMS.resolve("storage").id == "repository"  # digest name
    assert ROOMS.resolve("rapid response center").id == "alert_room"
    assert ROOMS.resolve("nowhere") is None


def test_characters_and_groups():
    assert len(box_characters()) == 6  # + 11 Nemesis / Aftermath characters for lockdown.md §12.4
    assert len(CHARACTERS) == 17 and CHARACTERS["soldier"].start_room == "isolation_room"
    assert CHARACTERS["survivor"].start_room == "isolation_room" and CHARACTERS["survivor"].knowledge == 3
    assert CHARACTERS["janitor"].start_room == "repository" and CHARACTERS["janitor"].knowledge == 1
    assert CHARACTERS.resolve("Astrobiolożka").id == "xenobiologist"


def test_event_deck_has_22_cards():
    assert len(EVENT_CARDS) == 22
    assert EVENT_CARDS["kickstopper"].corridors == (2, 4)


def test_components_live_in_json_files():
    assert {"rooms.json", "characters.json", "colony.json", "events.json", "board_basic.json",
            "board_synthetic.json"} <= {p.name for p in DATA.iterdir()}
    for p in DATA.glob("*.json"):
        json.loads(p.read_text(encoding="utf-8"))


def test_basic_board_has_no_invented_corridors():
    b = board("basic")
    assert not b.synthetic and not b.has_graph
    assert len(b.slots["I"]) == 10 and len(b.slots["II"]) == 6
    raw = json.loads((DATA / "board_basic.json").read_text(encoding="utf-8"))
    assert raw["corridors"] is None and raw["synthetic"] is False


def test_synthetic_board_is_labelled_and_consistent():
    b = board("synthetic")
    assert b.synthetic and b.has_graph
    assert "SYNTHETIC" in b.en
    for place in b.places:
        numbers = [n for c in b.corridors.values() for p, n in c.ends if p == place]
        numbers += [n for p, n in b.technical.items() if p == place]
        assert len(numbers) == len(set(numbers)), place  # corridor numbers unique per room
        assert b.adjacent(place), place
    assert set(BOARDS) == {"basic", "mars", "synthetic"}


def test_time_track():
    b = board("basic")
    assert b.time_spaces[0] == 15 and b.time_spaces[-1] == "S"
    assert b.isolation_opens_at == 8
    assert b.css_spaces == {10, 8, 6, 4, 2, 1}


def test_rules_package_imports_no_infrastructure():
    root = Path(__file__).resolve().parents[2] / "service" / "rules"
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in ("flask", "sqlalchemy", "psycopg", "eventsourcing"):
            assert f"import {name}" not in text and f"from {name}" not in text, (path, name)


def test_the_basic_board_file_names_every_element_of_its_legend():
    """lockdown.md §2.1 (seed 000 L1158–1200): each element is in the file, with a source, or null with a note."""
    from service.rules.lockdown.components import board

    elements = board("basic").elements
    for name in ("evacuation_routes", "elevator_shafts", "technical_entrances", "technical_space", "exit_space",
                 "css_pods", "main_gate", "bunker", "rover", "active_contingency_space", "neutral_pool"):
        assert name in elements and elements[name].get("source"), name
    places = board("basic").places
    assert all(p in places for p in elements["evacuation_routes"]["places"] + elements["elevator_shafts"]["places"])
    assert elements["css_pods"]["spaces"] == ["A", "B", "C"] and elements["exit_space"]["room_number"] == "001"
    assert board("basic").corridors is None or not board("basic").has_graph  # never invented


def test_room_actions_and_costs_come_from_the_room_data():
    """Each room action is a field of the room that offers it (rooms.json), with its cost in cards."""
    from service.rules.lockdown.checks import ROOM_ACTION_COST
    from service.rules.lockdown.components import ROOMS
    from service.rules.lockdown.facts import ROOM_ACTIONS

    assert ROOM_ACTIONS["heal"] == ("emergency_room",)
    assert ROOM_ACTIONS["enter_pod"] == ("css_a", "css_b", "css_c")
    assert ROOM_ACTION_COST["use_elevator"] == 1 and ROOM_ACTION_COST["read_archive"] == 2
    for action, rooms in ROOM_ACTIONS.items():
        for room in rooms:
            assert action in [a["id"] for a in ROOMS[room].extra["actions"]]
