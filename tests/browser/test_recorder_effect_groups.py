"""One-tap table effects in the recorder (decision 0022): a card's printed pair (a serious wound and a contamination
card) recorded by one tap, in one command; Undo takes back the latest fact as after any tap; one button per
burning room."""
from __future__ import annotations

import json
import urllib.request

import pytest

from service.demo import HERE as DEMO_DIR
from tests.browser.recorder_driver import Driver, create_game, read_notation, standing

pytestmark = pytest.mark.browser


def _get(url: str) -> dict:
    with urllib.request.urlopen(url) as r:
        return json.load(r)


def test_a_printed_pair_is_one_tap_and_one_command(served, browser):
    base, _ = served
    header, facts = read_notation(DEMO_DIR / "friday-four-players.jsonl")
    facts, _ = standing(facts)
    at = 189  # the event phase's table effects: seat 1's serious wound and contamination card come next
    game_id = create_game(base, {**header, "title": "One-tap effects"})
    body = {"facts": facts[:at], "expected_position": 0, "command_id": "effect-groups-setup"}
    req = urllib.request.Request(f"{base}/api/games/{game_id}/facts", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/record")
    d = Driver(page)
    d.idle()
    # the colony token is asked (the game's own step); the effects below it list the printed pairs first
    assert page.locator("form.fact-form:not([hidden])").get_attribute("data-type") == "ColonyTokenDrawn"
    page.click("details.effects > summary")
    groups = page.locator("details.effects .offers.groups button.offer-group")
    labels = groups.all_inner_texts()
    assert any("Ada" in t and "+" in t for t in labels), labels
    fires = [json.loads(b.get_attribute("data-facts")) for b in groups.all() if "FireRemoved" in b.get_attribute("data-facts")]
    assert len(fires) >= 2 and all(len(f) == 1 for f in fires)  # one button per burning room
    # the driver taps the group whose facts are the next two: one input for both
    d.inputs = 0
    assert d.record(at + 1, facts[at], facts[at + 1:at + 3]) == 1
    d.wait_position(at + 2)
    assert d.record(at + 2, facts[at + 1]) == 0  # already recorded by the same tap
    assert d.grouped == {at + 2}
    stored = _get(f"{base}/api/games/{game_id}/facts?view=played")["facts"]
    assert [(f["type"], f["actor"], f["data"]) for f in stored[at:]] == [
        ("WoundSuffered", 1, {"kind": "serious"}), ("ContaminationCardReceived", 1, {})]
    assert stored[at]["command_id"] == stored[at + 1]["command_id"] != "effect-groups-setup"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the group buttons fit a phone
    # Undo takes back the latest fact, as after any tap: the card first, then the wound
    assert json.loads(page.locator("#undo").get_attribute("data-seqs")) == [at + 2]
    page.click("#undo")
    page.click("#undo")
    d.wait_position(at + 3)
    void = _get(f"{base}/api/games/{game_id}/facts?view=played")["facts"][-1]
    assert void["type"] == "FactVoided" and void["data"]["seqs"] == [at + 2]
    standing_now = _get(f"{base}/api/games/{game_id}/facts")["facts"]  # the corrected game: the wound stands
    assert [f["type"] for f in standing_now[-1:]] == ["WoundSuffered"]
    context.close()
