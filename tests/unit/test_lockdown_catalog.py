"""The component catalogue (service/rules/lockdown/catalog.py, data/*.json owned by scoring)."""
from __future__ import annotations

import json

import pytest

from service.rules.lockdown import catalog
from service.rules.lockdown.catalog import DATA
from service.rules.lockdown.scoring import ScoringView, SeatView, WeaknessView, victory_check

MINE = ("objectives", "contingency", "items", "intruders", "decks", "supplies", "characters_extra")


def _rows(obj):
    """Every dict that has an ``id`` anywhere in the JSON."""
    if isinstance(obj, dict):
        if "id" in obj:
            yield obj
        for v in obj.values():
            yield from _rows(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _rows(v)


@pytest.mark.parametrize("name", MINE)
def test_every_record_cites_a_source(name):
    raw = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    assert raw.get("about")
    missing = [r["id"] for r in _rows(raw) if not str(r.get("source", "")).strip()]
    # the weakness names share the source of their parent record (intruders.json "weaknesses")
    assert [m for m in missing if m != "wary_of_shadows"] == []


def test_items_records_cite_a_source():
    raw = json.loads((DATA / "items.json").read_text(encoding="utf-8"))
    assert all("source" in r for r in _rows(raw))


def test_loaders_are_read_only_and_cached():
    s = catalog.supplies()
    assert s is catalog.supplies()
    with pytest.raises(TypeError):
        s["fire"] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        catalog.plans()["signal"]["copies"] = 3  # type: ignore[index]


def test_supplies_counts():
    assert catalog.supply("fire") == 12
    assert catalog.supply("malfunction") == 10
    assert catalog.supply("noise") == 30
    assert catalog.supply("door") == 11
    assert catalog.supply("egg") == 8
    assert catalog.supply("status") == 15  # faq_lockdown.md 4: 15, not 18
    assert catalog.supply("swc") == 7 and catalog.supply("contingency") == 7
    assert catalog.figure_caps() == {"larva": 6, "creeper": 3, "adult": 8, "breeder": 2, "queen": 1, "character": 6}


def test_intruders_agree_with_the_mechanics_colony_data():
    colony = json.loads((DATA / "colony.json").read_text(encoding="utf-8"))
    types = catalog.intruder_types()
    assert {t: types[t]["tokens"] for t in types} == {k: v for k, v in colony["tokens_in_box"].items() if k != "blank"}
    assert {t: types[t]["figures"] for t in types} == colony["figures"]
    assert sum(types[t]["tokens"] for t in types) + catalog.data("intruders")["blank_tokens"]["count"] == 27
    bag = dict(catalog.colony_bag_at_start(2))
    expected = dict(colony["bag_at_start"])
    expected["adult"] += 2 * colony["adults_added_per_player"]
    assert bag == expected


def test_item_decks_by_colour():
    d = catalog.item_decks()
    assert [d[c]["cards"] for c in ("red", "yellow", "green", "blue", "starting", "quest")] == [30, 30, 30, 15, 4, 6]
    crafted = [i for i in catalog.items().values() if i["kind"] == "crafted"]
    assert {i["id"] for i in crafted} == {"neutralizer", "taser", "flamethrower", "pistol", "enviro_suit"}


def test_starting_and_quest_items_match_the_characters():
    chars = catalog.characters()
    its = catalog.items()
    box = [c for c in chars.values() if "replaces" in c]
    assert len(box) == 6
    for c in box:
        assert its[c["quest_item"]]["character"] == c["id"]
        if c["starting_item"]:
            assert its[c["starting_item"]]["character"] == c["id"]
    assert sum(1 for c in box if c["starting_item"]) == catalog.item_decks()["starting"]["cards"]


def test_characters_groups_and_start_values():
    chars = catalog.characters()
    mechanics = json.loads((DATA / "characters.json").read_text(encoding="utf-8"))
    for c in mechanics["characters"]:  # never contradicts the mechanics' file
        assert chars[c["id"]]["group"] == c["group"]
    assert chars["lab_rat"]["start_room"] == "isolation_room" and chars["lab_rat"]["knowledge"] == 3
    assert chars["hacker"]["start_room"] == "repository" and chars["hacker"]["knowledge"] == 1
    assert catalog.character_group("medic") == "survivor"  # faq_lockdown.md 21
    assert catalog.character_group("Astrobiologist") == "staff"
    assert catalog.character_group("nobody") is None


def test_decks_counts():
    expect = {"event": 22, "attack": 20, "contamination": 27, "serious_wound": 25, "objective_corporate": 9,
              "objective_personal": 9, "objective_solo_coop": 10, "weakness": 6, "computer_action": 6, "action": 60}
    assert {k: catalog.deck_size(k) for k in expect} == expect
    ts = catalog.token_sets()
    assert sum(ts["contingency"]["faces"].values()) == ts["contingency"]["tokens"] == 7
    assert ts["swc"]["tokens"] == 7 and len(ts["swc"]["slots_under_time_spaces"]) == 6


def test_event_deck_count_agrees_with_the_events_data():
    events = json.loads((DATA / "events.json").read_text(encoding="utf-8"))
    assert len(events["cards"]) == catalog.deck_size("event")


def test_contingency_plans_and_aliases():
    assert dict(catalog.plan_copies()) == {"signal": 2, "knowledge": 2, "pods": 1, "isolation": 1, "save_all": 1}
    assert sum(catalog.plan_copies().values()) == catalog.data("contingency")["tokens_in_box"]
    assert catalog.resolve_plan("grey") == catalog.resolve_plan("Gray") == "pods"
    assert catalog.resolve_plan("green") == "save_all" and catalog.resolve_plan(None) is None
    with pytest.raises(KeyError):
        catalog.resolve_plan("purple")  # story only (gaps_filled.md §4)


def test_objective_decks_and_parse():
    assert catalog.parse_objective("sectors_explored:S-01, S-02") == ("sectors_explored", ("S-01", "S-02"))
    assert catalog.parse_objective("knowledge_at_least:5") == ("knowledge_at_least", (5,))
    assert catalog.parse_objective("sole_survivor") == ("sole_survivor", ())
    d = catalog.data("objectives")["decks"]
    assert (d["corporate"]["cards"], d["personal"]["cards"], d["solo_coop"]["cards"]) == (9, 9, 10)


_ARGS = {"player": 2, "knowledge": 3, "sector": "S-01", "weakness": 2}


@pytest.mark.parametrize("type_id", sorted(catalog.objective_types()))
def test_every_objective_rule_is_interpretable(type_id):
    """Each objective's rule runs on a fully known game and on a fully unknown one without error."""
    t = catalog.objective_type(type_id)
    args = ",".join(str(_ARGS[p]) for p in t["params"])
    obj = f"{type_id}:{args}" if args else type_id
    full = ScoringView(
        mode="standard", ending="time_out", active_contingency="save_all", eggs_in_nest=0, queen_killed=False,
        weaknesses=(WeaknessView(1, "wary_of_shadows", True), WeaknessView(2, "x", True), WeaknessView(3, "y", False)),
        sectors_explored={"S-01": True, "S-02": True, "S-03": False},
        seats=(SeatView(1, character="hacker", alive=True, location="bunker", larva=False, scan_infected=False,
                        signal_sent=True, knowledge=3, knowledge_token_active=True, items=("egg",), objective=obj),
               SeatView(2, character="survivor", alive=False)))
    r = victory_check(full).players[0]
    assert r.outcome in ("won", "lost", "undetermined")
    if t["rule"] is not None:
        assert r.outcome != "undetermined", r.reasons
    bare = ScoringView(mode="standard", ending="time_out", active_contingency="save_all",
                       seats=(SeatView(1, alive=True, location="bunker", larva=False, scan_infected=False, objective=obj),
                              SeatView(2)))
    assert victory_check(bare).players[0].outcome in ("lost", "undetermined")
