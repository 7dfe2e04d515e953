"""The Polish recorder in Chromium (decision 0023): an action card is picked from the list of real cards by typing
its Polish name, a refusal is told in Polish, and the fact is stored with the card's name as the notation has it."""
from __future__ import annotations

import json
import os
import re
import urllib.request
import uuid

import pytest

pytestmark = pytest.mark.browser


def _post(base: str, path: str, body: dict | None = None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


@pytest.fixture
def polish(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="pl-PL")
    page = context.new_page()
    yield page
    context.close()


def test_an_action_card_is_found_by_its_polish_name_refused_in_polish_and_stored_by_its_name(served, polish):
    base, _ = served
    page = polish
    page.goto(base + "/games/new")
    page.fill("input[name=player-0]", "Zofia")
    page.fill("input[name=title]", "Karty po polsku")
    page.check("input[name=mode][value=solo]")
    page.click("text=Utwórz i zacznij zapis")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/record$"))
    game_id = page.url.rsplit("/", 2)[-2]
    _post(base, f"/api/games/{game_id}/facts", {"facts": [
        {"type": "BoardPrepared", "data": {"board": "basic"}},
        {"type": "CharacterChosen", "actor": 1, "data": {"character": "janitor"}},
        {"type": "ObjectivesDealt", "actor": 1, "data": {"objectives": ["nest_destroyed", "knowledge_token_active"]}},
        {"type": "ContingencyTokensDealt", "actor": 1, "data": {"tokens": ["isolation", "save_all"]}},
        {"type": "SetupCompleted", "data": {"first_player": 1}},
    ], "expected_position": 0, "command_id": str(uuid.uuid4())})
    page.reload()
    page.wait_for_selector('#panel[data-position="5"]')

    page.click('button.offer[data-type="ActionCardPlayed"]')
    form = page.locator('form.fact-form:not([hidden])[data-type="ActionCardPlayed"]')
    card = form.locator("fieldset[data-field=card]")
    assert card.locator("legend").inner_text().lower().startswith("karta")  # the field named in Polish
    picks = card.locator("button.pick")
    assert picks.count() > 20
    # the Janitor's own cards come first, named as printed in the Polish edition
    assert {t.split("\n")[-1] for t in picks.all_inner_texts()[:2]} == {"Gruntowne sprzątanie", "Odpoczynek"}
    box = card.locator("input[name=card]")
    box.fill("wycieczka")  # typing searches the list by either language's name
    assert [t.split("\n")[-1] for t in card.locator("button.pick:visible").all_inner_texts()] == ["Wycieczka po bazie"]
    # the Survivor's card played by the Janitor: the rules refuse it, and the page says why in Polish
    box.fill("osłonowy")
    box.press("Enter")  # the first match is taken (what was typed gives way to it)
    assert card.locator("button.pick.chosen").inner_text().endswith("Ogień osłonowy")
    assert box.input_value() == ""
    form.locator("button.confirm").click()
    error = form.locator(".form-error")
    error.wait_for(state="visible")
    told = error.inner_text()
    assert told.startswith("Nie zapisano — Zagranie karty akcji"), told
    assert "To karta akcji innej postaci (Ocalałej)." in told and "Survivor's action card" not in told, told

    box.fill("sprzątanie")
    assert [t.split("\n")[-1] for t in card.locator("button.pick:visible").all_inner_texts()] == ["Gruntowne sprzątanie"]
    card.locator("button.pick:visible").click()
    assert box.input_value() == "" and card.locator("button.pick.chosen").count() == 1
    form.locator("button.confirm").click()
    page.wait_for_selector('#panel[data-position="6"]')
    facts = _post(base, f"/api/games/{game_id}/facts")["facts"]
    assert facts[-1]["type"] == "ActionCardPlayed" and facts[-1]["data"]["card"] == "Clean Up"  # the notation's name
    recent = page.locator("#recent li").first.inner_text()
    assert "Zagranie karty akcji" in recent and "Gruntowne sprzątanie" in recent, recent


def test_a_queued_fact_is_named_by_its_polish_title_when_taken_back(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="pl-PL")
    page = context.new_page()
    try:
        page.goto(base + "/games/new")
        assert "Sposób zapisu" in page.locator("form.new-game").inner_text()  # the recording choice in Polish
        shots = os.environ.get("RECORDER_SCREENSHOTS")
        if shots:
            page.screenshot(path=os.path.join(shots, "new-game-pl-390.png"), full_page=True)
        page.fill("input[name=player-0]", "Zofia")
        page.fill("input[name=title]", "Kolejka po polsku")
        page.check("input[name=mode][value=solo]")
        page.click("text=Utwórz i zacznij zapis")
        page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/record$"))
        page.click("form.fact-form:not([hidden]) .confirm")  # the board: the only next step
        page.wait_for_selector('#panel[data-position="1"]')
        assert "faza" not in page.locator(".where-now").inner_text()  # setup: "przygotowanie"
        context.set_offline(True)
        page.wait_for_selector('form.fact-form:not([hidden])[data-type="CharacterChosen"]')  # the only next step
        page.click("form.fact-form:not([hidden]) fieldset[data-field=character] button.value >> nth=0")
        page.wait_for_selector("#net[data-state=offline]")
        assert "Wybór postaci (miejsce 1)" in page.locator("#queue").inner_text()
        page.click("#undo")
        told = page.locator("#undo").inner_text()
        assert told == "Stuknij ponownie, aby wycofać z kolejki: Wybór postaci", told
        if shots:
            page.screenshot(path=os.path.join(shots, "recorder-pl-queued-390.png"), full_page=True)
        page.click("#undo")
        page.wait_for_selector("#queue", state="hidden")
    finally:
        context.close()
