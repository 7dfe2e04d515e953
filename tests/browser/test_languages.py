"""The interface in Polish and English (decision 0019): the browser's language picks it, the switch in
the header changes it, component names are the Polish edition's, and the recorder's search finds a
room by either language's name."""
from __future__ import annotations

import json
import re
import urllib.request
import uuid

import pytest

from service.rules.lockdown.names import display_name

pytestmark = pytest.mark.browser


def _post_facts(base: str, game_id: str, facts: list[dict], position: int) -> None:
    body = json.dumps({"facts": facts, "expected_position": position, "command_id": str(uuid.uuid4())}).encode()
    req = urllib.request.Request(f"{base}/api/games/{game_id}/facts", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        assert r.status in (200, 201)


@pytest.fixture
def polish(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pl-PL")
    page = context.new_page()
    yield page
    context.close()


def test_polish_browser_sees_polish_pages_and_the_switch_changes_the_language(served, polish):
    base, games = served
    page = polish
    page.goto(base + "/")
    assert page.locator("html").get_attribute("lang") == "pl"
    assert page.locator("main h1").inner_text() == "Gry"
    assert page.locator(".new-game-link a").inner_text() == "Nowa gra"
    assert page.locator("table.games thead").inner_text().split("\t")[:3] == ["Rozegrano", "Gra", "Gracze"]

    # a replay: the page's words and the components' printed Polish names
    page.click("a.game-link >> nth=0")
    page.wait_for_url(re.compile(r"/step/0"))
    page.goto(page.url.replace("/step/0", "/step/40"))
    assert "kluczowe momenty" in page.locator("#chapters h2").inner_text().lower()
    assert "przebieg gry" in page.locator(".log-title").inner_text().lower()
    assert page.locator("#play").inner_text().endswith("Odtwórz")
    roles = [r.strip() for r in page.locator("#step-side .role").all_inner_texts()]
    assert roles, "the sidebar names the characters"
    polish_characters = {display_name("character", c, "pl") for c in
                         ("survivor", "lab_rat", "hacker", "xenobiologist", "sentry", "janitor")}
    assert set(roles) <= polish_characters, roles
    board = page.locator("#board svg").first.inner_html()  # one drawing (decision 0015), or both on a first visit
    assert "Izolatka" in board or "Magazyn" in board or "Gniazdo" in board  # special rooms by their printed Polish names
    before = page.locator("#step-panel").get_attribute("data-seq")
    page.keyboard.press("ArrowRight")  # a step fetched by the page's script stays Polish
    page.wait_for_function(f"() => document.querySelector('#step-panel').dataset.seq !== '{before}'")
    seq = page.locator("#step-panel").get_attribute("data-seq")
    index = page.locator("#step-panel").get_attribute("data-index")
    assert page.locator("#step-panel .stepno").inner_text().startswith(f"Krok {index} /")

    # the switch: English from now on (remembered), on the same page
    page.click("#lang-switch a[data-lang=en]")
    page.wait_for_selector("html[lang=en]")
    assert page.url.endswith(f"/step/{seq}")
    assert "key moments" in page.locator("#chapters h2").inner_text().lower()
    assert page.locator("#step-panel .stepno").inner_text().startswith(f"Step {index} /")
    page.goto(base + "/")
    assert page.locator("main h1").inner_text() == "Games"  # the cookie beats the browser's Accept-Language
    page.click("#lang-switch a[data-lang=pl]")
    page.wait_for_selector("html[lang=pl]")
    assert page.locator("main h1").inner_text() == "Gry"


def test_recorder_in_polish_finds_a_room_by_either_name(served, polish):
    base, _ = served
    page = polish
    page.goto(base + "/")
    page.click("text=Nowa gra")
    page.wait_for_url(re.compile(r"/games/new$"))
    assert page.locator("main h1").inner_text() == "Nowa gra"
    page.fill("input[name=player-0]", "Zofia")
    page.fill("input[name=title]", "Wieczór po polsku")
    page.check("input[name=mode][value=solo]")
    page.click("text=Utwórz i zacznij zapis")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/record$"))
    game_id = page.url.rsplit("/", 2)[-2]
    assert page.locator(".next-title").inner_text() == "Zapisz następny fakt"
    assert page.locator("#undo").inner_text().startswith("↶ Cofnij")

    _post_facts(base, game_id, [
        {"type": "BoardPrepared", "data": {"board": "basic"}},
        {"type": "CharacterChosen", "actor": 1, "data": {"character": "hacker"}},
        {"type": "ObjectivesDealt", "actor": 1, "data": {"objectives": ["nest_destroyed", "knowledge_token_active"]}},
        {"type": "ContingencyTokensDealt", "actor": 1, "data": {"tokens": ["isolation", "save_all"]}},
        {"type": "SetupCompleted", "data": {"first_player": 1}},
    ], 0)
    page.reload()
    page.wait_for_selector('#panel[data-position="5"]')
    assert "Haker" in page.locator("#recent").inner_text() or "hacker" in page.locator("#recent").inner_text()
    page.click("#undo")  # the first tap arms it; record.js says so in the page's language
    assert page.locator("#undo").inner_text().startswith("Stuknij ponownie, aby unieważnić #5")

    def search_rooms(term: str) -> list[str]:
        page.locator("details.effects").evaluate("d => { d.open = true; }")
        page.click('details.effects button.offer[data-type="IntruderPlaced"]')
        box = page.locator("form.fact-form:not([hidden]) fieldset[data-field=room] .filter")
        box.fill(term)
        found = page.locator("form.fact-form:not([hidden]) fieldset[data-field=room] button.value:visible").all_inner_texts()
        page.click("form.fact-form:not([hidden]) .back")
        return [t.split("\n")[-1] for t in found]

    # Polish page: the room buttons carry the Polish name, and the English one finds it too
    isolation_pl = display_name("room", "isolation_room", "pl")
    assert any(isolation_pl in t for t in search_rooms(isolation_pl[:6].lower())), isolation_pl
    assert any(isolation_pl in t for t in search_rooms("isolation"))

    page.click("#lang-switch a[data-lang=en]")
    page.wait_for_selector("html[lang=en]")
    assert page.locator(".next-title").inner_text() == "Record next"
    found = search_rooms(isolation_pl.lower())  # the Polish name, typed on the English page
    assert any("Isolation Room" in t for t in found), found
