"""A fact's named cause picked in the recorder (decision 0045): a strict game refuses a death nothing explains, the
form then points at its cause's picker, the event card is found by typing under its kind, and the fact is stored
with ``by`` as the notation writes it and told with its cause in the replay."""
from __future__ import annotations

import json
import urllib.request
import uuid

import pytest

from tests.browser.recorder_driver import Driver, create_game

pytestmark = pytest.mark.browser

SETUP = [
    {"type": "BoardPrepared", "data": {"board": "basic"}},
    {"type": "CharacterChosen", "actor": 1, "data": {"character": "janitor"}},
    {"type": "ObjectivesDealt", "actor": 1, "data": {"objectives": ["nest_destroyed", "knowledge_token_active"]}},
    {"type": "ContingencyTokensDealt", "actor": 1, "data": {"tokens": ["isolation", "save_all"]}},
    {"type": "SetupCompleted", "data": {"first_player": 1}},
]


def _api(base: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                 method="POST" if body is not None else "GET", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def test_an_unwarranted_death_leads_to_the_cause_picker_and_is_stored_and_told_with_its_card(served, browser):
    width, height = 390, 844  # a phone beside the board
    base, _ = served
    game_id = create_game(base, {"ruleset": "lockdown", "mode": "solo", "strict": True, "title": "Named causes",
                                 "players": [{"seat": 1, "name": "Zofia"}]})
    _api(base, f"/api/games/{game_id}/facts", {"facts": SETUP, "expected_position": 0, "command_id": str(uuid.uuid4())})
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/record")
    d = Driver(page)
    d.idle()

    # a one-tap effect refused as unwarranted opens its form at the picker: the self-destruct, started by a room
    page.click("details.effects > summary")
    page.click('details.effects button.offer[data-type="SelfDestructStarted"]')
    started = page.locator('form.fact-form:not([hidden])[data-type="SelfDestructStarted"]')
    started.locator("fieldset[data-field=by].needed .cause-need").wait_for(state="visible")
    started.locator("select.cause-kind").select_option("room")
    started.locator("input[name=by]").fill("cooling")
    started.locator("button.pick:visible").click()
    started.locator("button.confirm").click()
    d.wait_position(6)

    # a death of "an event" while no event card is being resolved: the strict game refuses it, naming the field
    if page.locator("details.effects").get_attribute("open") is None:  # it stays open across facts
        page.click("details.effects > summary")
    page.click('details.effects button.offer[data-type="CharacterDied"][data-actor="1"]')
    form = page.locator('form.fact-form:not([hidden])[data-type="CharacterDied"]')
    form.locator('fieldset[data-field=cause] button.value[data-value=\'"event"\']').click()  # its last value: sent
    error = form.locator(".form-error")
    error.wait_for(state="visible")
    assert "nothing in the game warrants it" in error.inner_text() and "“caused by”" in error.inner_text()
    cause = form.locator("fieldset[data-field=by]")
    assert "needed" in cause.get_attribute("class")
    page.wait_for_function("document.activeElement.matches('select.cause-kind')")  # the keyboard is at the picker

    # the kind first (event card is the first offered), then the card: typing filters that kind's cards only
    kind = cause.locator("select.cause-kind")
    assert kind.input_value() == "event"
    box = cause.locator("input[name=by]")
    box.fill("coolant")
    assert [t.split("\n")[-1] for t in cause.locator("button.pick:visible").all_inner_texts()] == ["Coolant Leak"]
    kind.select_option("room")  # another kind lists its own names: no event card among them
    assert cause.locator("button.pick:visible").count() == 0
    box.fill("")
    assert cause.locator('button.pick:visible[data-kind="room"]').count() == cause.locator("button.pick:visible").count() > 20
    kind.select_option("event")
    box.fill("coolant")
    box.press("Enter")  # the first match is taken
    assert cause.locator("button.pick.chosen").inner_text().endswith("Coolant Leak") and box.input_value() == ""
    form.locator("button.confirm").click()
    d.wait_position(7)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the picker fits a phone

    stored = _api(base, f"/api/games/{game_id}/facts")["facts"][-2:]
    assert [(f["type"], f["data"]) for f in stored] == [("SelfDestructStarted", {"by": "room:Cooling System"}),
                                                        ("CharacterDied", {"cause": "event", "by": "event:Coolant Leak"})]
    page.goto(f"{base}/games/{game_id}/step/7")
    told = page.locator("#facts li.current").inner_text()
    assert "Zofia (Janitor) dies: an event (caused by the event card “Coolant Leak”)." in told, told
    context.close()
