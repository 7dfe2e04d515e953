"""The recorder's pickers for a fact's named cause (``by``) and for the card a Search put back (``returned``),
drawn on the server from the ruleset's catalogues (decision 0045)."""
from __future__ import annotations

import html
import json
import re

from tests.browser.test_recorder_causes import SETUP
from tests.integration.test_record_pages import _demo_at, client  # noqa: F401  (the fixture)


def _strict_solo(client) -> str:  # noqa: F811
    gid = client.post("/api/games", json={"ruleset": "lockdown", "mode": "solo", "strict": True,
                                          "players": [{"seat": 1, "name": "Zofia"}]}).get_json()["id"]
    assert client.post(f"/api/games/{gid}/facts", json={"facts": SETUP, "expected_position": 0}).status_code == 201
    return gid


def _form(page: str, type_: str) -> str:
    return re.search(r'<form class="fact-form"[^>]*data-type="%s".*?</form>' % type_, page, re.S).group(0)


def _field(form: str, name: str) -> str:
    return re.search(r'<fieldset class="field" data-field="%s".*?</fieldset>' % name, form, re.S).group(0)


def _picks(field: str) -> list[tuple[str, str, bool]]:
    """(value, kind, chosen) of each pick button."""
    return [(json.loads(html.unescape(v)), k, "chosen" in cls) for cls, v, k in
            re.findall(r'<button type="button" class="([^"]*pick[^"]*)"[^>]*data-value="([^"]+)"(?:[^>]*data-kind="(\w+)")?', field)]


def _opened(client, gid: str, type_: str, lang: str = "en") -> str:  # noqa: F811
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    index = re.search(r'data-offer="(\d+)" data-type="%s"\s+data-actor="1"' % type_, panel).group(1)
    return client.get(f"/games/{gid}/record/form/{index}?type={type_}&actor=1&lang={lang}").get_data(as_text=True)


def test_the_cause_is_picked_by_kind_among_the_catalogues_cards(client):  # noqa: F811
    gid = _strict_solo(client)
    by = _field(_opened(client, gid, "CharacterDied"), "by")
    kinds = re.findall(r'<option value="(\w*)"( selected)?>([^<]+)</option>', by)
    assert [(v, t) for v, _s, t in kinds] == [("event", "event card"), ("attack", "attack card"), ("room", "room"),
                                              ("item", "item"), ("", "other: type its name")]
    assert kinds[0][1] == " selected"  # event cards first: the likeliest cause of an effect the state lacks
    picks = _picks(by)
    assert ("event:Coolant Leak", "event", False) in picks and ("attack:Cut", "attack", False) in picks
    assert ("room:Nest", "room", False) in picks and ("item:Analyze Toolset", "item", False) in picks
    assert not any(v.startswith("item:") and v.split(":")[1] in ("egg", "corpse", "carcass") for v, _k, _c in picks)
    shown = [k for _v, k, _c in picks]
    assert shown == sorted(shown, key=["event", "attack", "room", "item"].index)  # grouped by kind
    hidden = re.findall(r'data-kind="(\w+)" hidden', by)
    assert hidden and "event" not in hidden  # only the kind chosen is listed until another is chosen
    polish = _field(_opened(client, gid, "CharacterDied", "pl"), "by")
    assert ">karta wydarzenia</option>" in polish and "Wyciek chłodziwa" in polish
    assert "&#34;event:Coolant Leak&#34;" in polish or "&quot;event:Coolant Leak&quot;" in polish  # stored in English


def test_a_fix_opens_the_picker_on_the_cause_recorded(client):  # noqa: F811
    gid = _strict_solo(client)
    stored = client.post(f"/api/games/{gid}/facts", json={"facts": [
        {"type": "CharacterDied", "actor": 1, "data": {"cause": "event", "by": "room:Nest"}}], "expected_position": 5})
    assert stored.status_code == 201, stored.get_json()
    by = _field(_form(client.get(f"/games/{gid}/record?fix=6").get_data(as_text=True), "CharacterDied"), "by")
    assert '<option value="room" selected>' in by
    assert [v for v, _k, chosen in _picks(by) if chosen] == ["room:Nest"]
    assert 'data-kind="room" hidden' not in by and 'data-kind="event" hidden' in by


def test_a_cause_recorded_as_a_free_name_is_fixed_as_other_typed(client):  # noqa: F811
    gid = _strict_solo(client)
    client.post(f"/api/games/{gid}/facts", json={"facts": [
        {"type": "CharacterDied", "actor": 1, "data": {"cause": "event", "by": "Interruption"}}], "expected_position": 5})
    by = _field(_form(client.get(f"/games/{gid}/record?fix=6").get_data(as_text=True), "CharacterDied"), "by")
    assert '<option value="" selected>' in by and 'value="Interruption"' in by
    assert not [v for v, _k, chosen in _picks(by) if chosen]


def test_the_card_a_search_put_back_is_picked_among_that_decks_cards(client):  # noqa: F811
    from service.demo import HERE as DEMO_DIR
    from tests.browser.recorder_driver import read_notation

    _header, facts = read_notation(DEMO_DIR / "club-three-players.jsonl")
    gid, _facts = _demo_at(client, "club-three-players.jsonl", next(i for i, f in enumerate(facts) if f["type"] == "RoomSearched"))
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    form = _form(panel, "RoomSearched")
    assert re.search(r'data-field="colour".*?data-value="&#34;red&#34;"', form, re.S)
    returned = [v for v, _k, _c in _picks(_field(form, "returned"))]
    assert returned[:3] == ["Weapon Battery", "Glowstick", "Grenade"]  # the red deck's known cards first
    assert "Medkit" not in returned  # a green card (the catalogue says so) is not in the red deck
    assert "Flashlight" in returned  # a card of no known colour may be
