"""The table recorder in a real browser: a new game from the form, setup by clicking, undo, a refusal,
the offline queue across a reload, a 409 from another device, and the phone viewport."""
from __future__ import annotations

import json
import os
import re
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("RECORDER_SCREENSHOTS")  # a folder: the tests save their screenshots there


class Counter:
    """Clicks and keys the recorder needed, per fact recorded."""

    def __init__(self, page):
        self.page, self.actions, self.facts = page, 0, 0

    def click(self, selector: str) -> None:
        self.page.click(selector)
        self.actions += 1

    def key(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.actions += 1

    def recorded(self, n: int = 1) -> None:
        self.facts += n


def new_game(page, base: str, names: list[str], title: str, **choices) -> str:
    page.goto(base + "/")
    page.click("text=New game")
    page.wait_for_url(re.compile(r"/games/new$"))
    for i, name in enumerate(names):
        page.fill(f"input[name=player-{i}]", name)
    page.fill("input[name=title]", title)
    for name, value in choices.items():
        page.check(f"input[name={name}][value={value}]")
    page.click("text=Create and start recording")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/record$"))
    return page.url.rsplit("/", 2)[-2]


FORM = "form.fact-form:not([hidden])"


def position(page) -> int:
    return int(page.locator("#panel").get_attribute("data-position"))


def wait_position(page, n: int) -> None:
    page.wait_for_selector(f'#panel[data-position="{n}"]')


def offer(page, type_: str, actor: int | None = None) -> str:
    sel = f'#offers button.offer[data-type="{type_}"]'
    if actor is not None:
        sel += f'[data-actor="{actor}"]'
    return sel


def api_facts(base: str, game_id: str) -> list[dict]:
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/facts?view=played") as r:
        return json.load(r)["facts"]


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_new_game_form_refuses_with_errors_next_to_the_field_then_creates(served, page):
    base, _ = served
    page.goto(base + "/games/new")
    page.click("text=Create and start recording")  # no players at all
    assert "at least" in page.locator("#err-players").inner_text() or page.locator("#err-players").is_visible()
    page.fill("input[name=player-0]", "Ada")
    page.fill("input[name=player-1]", "ada")  # the same name twice
    page.click("text=Create and start recording")
    assert "different name" in page.locator("#err-players").inner_text()
    assert page.locator("input[name=player-1]").input_value() == "ada"  # what was typed stays
    page.fill("input[name=player-1]", "Bartek")
    page.check("input[name=mode][value=solo]")  # solo with two players: the ruleset says no
    page.click("text=Create and start recording")
    assert "Solo" in page.locator(".field-error").first.inner_text()
    page.check("input[name=mode][value=standard]")
    page.check("input[name=board][value=mars]")
    page.check("input[name=strict][value=lenient]")
    page.fill("input[name=tags]", "club, friday")
    page.click("text=Create and start recording")
    page.wait_for_url(re.compile(r"/record$"))
    game_id = page.url.rsplit("/", 2)[-2]
    with urllib.request.urlopen(f"{base}/api/games/{game_id}") as r:
        game = json.load(r)
    assert game["players"] == [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bartek"}]
    assert (game["mode"], game["strict"], game["tags"]) == ("standard", False, ["club", "friday"])
    # the known players come from the players read model
    page.goto(base + "/games/new")
    assert "Ewa" in page.locator("#known-players").inner_html()


def test_import_refuses_a_bad_file_naming_its_line_and_takes_a_good_one(served, page, tmp_path):
    base, games = served
    page.goto(base + "/games/new")
    game = games["Solo evening"]
    with urllib.request.urlopen(f"{base}/api/games/{game.id}/export") as r:
        text = r.read().decode()
    lines = text.splitlines()
    header = json.loads(lines[0])
    header.update(game="0b7f1c7e-4a52-4f0e-9a39-0c1d8d0c0a11", title="Imported evening")
    broken = [json.dumps(header)] + lines[1:3] + ["{not json"] + lines[4:]
    bad = tmp_path / "broken.jsonl"
    bad.write_text("\n".join(broken) + "\n")
    page.set_input_files("input[name=file]", str(bad))
    page.click("form.import button")
    assert page.locator("#import-error").inner_text().startswith("broken.jsonl:4: not valid JSON")
    good = tmp_path / "evening.jsonl"
    good.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    page.set_input_files("input[name=file]", str(good))
    page.click("form.import button")
    page.wait_for_url(re.compile(r"/0b7f1c7e-4a52-4f0e-9a39-0c1d8d0c0a11/record$"))
    assert position(page) == game.position


def test_setup_by_clicking_only_with_undo_and_a_refusal(served, browser, record_property):
    base, _ = served
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    game_id = new_game(page, base, ["Ada", "Bartek"], "Clicks only")
    c = Counter(page)
    assert position(page) == 0
    shot(page, "record-empty-1280")

    # the only next step is asked at once: one legal board, the tile map optional — Record
    assert page.locator(FORM).get_attribute("data-type") == "BoardPrepared"
    c.click(f"{FORM} .confirm")
    c.recorded()
    wait_position(page, 1)
    assert "BoardPrepared — board basic" in page.locator("#recent li").first.inner_text()

    c.click(offer(page, "CharacterChosen", 1))
    shot(page, "record-choose-1280")
    c.click('form.fact-form:not([hidden]) fieldset[data-field=character] button.value >> nth=0')  # records it
    c.recorded()
    wait_position(page, 2)
    first_character = api_facts(base, game_id)[-1]["data"]["character"]

    # Keyboard only for seat 2, now the only next step (asked at once): a value's key completes the fact
    page.wait_for_selector(f'{FORM}[data-type="CharacterChosen"][data-actor="2"]')
    c.key("2")
    c.recorded()
    wait_position(page, 3)
    second = api_facts(base, game_id)[-1]
    assert second["type"] == "CharacterChosen" and second["actor"] == 2 and second["data"]["character"] != first_character

    # Undo voids the last fact (two taps: an undo is a fact too), and seat 2 may choose again
    c.click("#undo")
    assert "Tap again" in page.locator("#undo").inner_text()
    c.click("#undo")
    c.recorded()
    wait_position(page, 4)
    assert api_facts(base, game_id)[-1]["type"] == "FactVoided"
    assert api_facts(base, game_id)[-1]["data"] == {"seqs": [3]}
    assert "voided" in page.locator('#recent li[data-seq="3"]').get_attribute("class")
    assert page.locator(offer(page, "CharacterChosen", 2)).count() == 1
    page.wait_for_selector(f'{FORM}[data-type="CharacterChosen"][data-actor="2"]')
    c.click('form.fact-form:not([hidden]) fieldset[data-field=character] button.value >> nth=1')
    c.recorded()
    wait_position(page, 5)

    # A refusal: the rule's message is shown in the form, and what was picked stays
    page.click(offer(page, "ObjectivesDealt", 1))
    for nth in (0, 1, 2):  # three objectives where the rules deal two
        page.click(f"{FORM} fieldset[data-field=objectives] button.value >> nth={nth}")
    page.click("form.fact-form:not([hidden]) .confirm")
    error = page.locator("form.fact-form:not([hidden]) .form-error")
    error.wait_for(state="visible")
    assert "objective card(s) are dealt" in error.inner_text() and "Not recorded" in error.inner_text()
    assert page.locator(f"{FORM} fieldset[data-field=objectives] button.value.chosen").count() == 3
    assert position(page) == 5 and len(api_facts(base, game_id)) == 5
    shot(page, "record-refused-1280")
    page.click("form.fact-form:not([hidden]) .back")

    # The first computer card (a button, a value) and the end of setup (one button: the first player is preselected)
    c.click(offer(page, "ComputerCardRevealed"))
    c.click('form.fact-form:not([hidden]) fieldset[data-field=card] button.value >> nth=0')
    c.recorded()
    wait_position(page, 6)
    c.click(offer(page, "SetupCompleted"))  # first player preselected (seat 1): the button records it
    c.recorded()
    wait_position(page, 7)
    assert api_facts(base, game_id)[-1]["data"] == {"first_player": 1}
    # Backspace undoes from the keyboard too (pressed twice, like the button's two taps)
    c.key("Backspace")
    assert "Tap again to void #7" in page.locator("#undo").inner_text()
    c.key("Backspace")
    c.recorded()
    wait_position(page, 8)
    assert api_facts(base, game_id)[-1]["data"] == {"seqs": [7]}
    assert page.locator(offer(page, "SetupCompleted")).count() == 1
    c.click('#offers .offer-row:has(button.offer[data-type="SetupCompleted"]) .offer-edit')
    c.click(f"{FORM} fieldset[data-field=first_player] button.value >> nth=1")  # ✎: seat 2 starts instead
    c.click(f"{FORM} .confirm")
    c.recorded()
    wait_position(page, 9)
    assert api_facts(base, game_id)[-1]["data"] == {"first_player": 2}
    assert "Round" in page.locator(".where-now").inner_text() and "player" in page.locator(".where-now").inner_text()
    shot(page, "record-round1-1280")
    record_property("actions_per_fact", f"{c.actions}/{c.facts}")
    print(f"\nrecorder: {c.actions} clicks/keys for {c.facts} facts = {c.actions / c.facts:.2f} per fact")
    assert c.actions / c.facts <= 2
    context.close()


def test_offline_queue_survives_a_reload_and_is_sent_in_order(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    game_id = new_game(page, base, ["Ada", "Bartek"], "Offline")
    page.click(f"{FORM} .confirm")  # the board: the only next step, asked at once
    wait_position(page, 1)
    context.set_offline(True)
    for seat, nth in ((1, 0), (2, 3)):  # both choices are on screen: recorded offline, one after the other
        page.click(offer(page, "CharacterChosen", seat))
        page.click(f'form.fact-form:not([hidden]) fieldset[data-field=character] button.value >> nth={nth}')
        page.wait_for_selector("#net[data-state=offline]")
        page.wait_for_selector("form.fact-form:not([hidden])", state="hidden")
    assert "2 fact(s) waiting" in page.locator("#queue").inner_text()
    # Undo takes the last queued fact back from the queue (nothing stored is voided), then seat 2 chooses again
    page.click("#undo")
    assert "take back the queued Choose a character" in page.locator("#undo").inner_text()  # by its title
    page.click("#undo")
    assert "1 fact(s) waiting" in page.locator("#queue").inner_text()
    page.click(offer(page, "CharacterChosen", 2))
    page.click('form.fact-form:not([hidden]) fieldset[data-field=character] button.value >> nth=4')
    page.wait_for_selector("form.fact-form:not([hidden])", state="hidden")
    assert "2 fact(s) waiting" in page.locator("#queue").inner_text()
    queued = page.evaluate("JSON.parse(localStorage.getItem('nemesis-recorder-queue:%s'))" % game_id)
    assert [e["expected_position"] for e in queued] == [1, 2]
    assert len({e["command_id"] for e in queued}) == 2
    shot(page, "record-offline-390")
    assert len(api_facts(base, game_id)) == 1
    # a reload while offline cannot fetch the page; come back online with the page reloaded
    page.route("**/api/games/*/facts", lambda route: route.abort())  # the API stays out of reach for now
    context.set_offline(False)
    page.reload()
    assert "2 fact(s) waiting" in page.locator("#queue").inner_text()
    page.unroute("**/api/games/*/facts")
    wait_position(page, 3)  # the retry sends them, in order
    facts = api_facts(base, game_id)
    assert [(f["type"], f["actor"]) for f in facts] == [("BoardPrepared", None), ("CharacterChosen", 1), ("CharacterChosen", 2)]
    assert [f["command_id"] for f in facts[1:]] == [e["command_id"] for e in queued]
    assert page.locator("#queue").is_hidden()
    context.close()


def test_a_fact_recorded_elsewhere_pauses_the_queue_for_review(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    game_id = new_game(page, base, ["Ada", "Bartek"], "Two tablets")
    # another tablet records the board first
    req = urllib.request.Request(f"{base}/api/games/{game_id}/facts", method="POST",
                                 data=json.dumps({"facts": [{"type": "BoardPrepared", "data": {"board": "basic"}}],
                                                  "expected_position": 0, "command_id": "other-tablet-1"}).encode(),
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).close()
    page.click(f"{FORM} .confirm")  # the board: this page still thinks the game is empty
    page.wait_for_selector("#queue.review")
    assert "Another device recorded" in page.locator("#queue").inner_text()
    assert "other" in page.locator('#recent li[data-seq="1"]').get_attribute("class")
    assert position(page) == 1
    page.click("#queue-discard")  # the other tablet already did it
    page.wait_for_selector("#queue", state="hidden")
    assert len(api_facts(base, game_id)) == 1
    context.close()


def test_phone_viewport_has_no_horizontal_scroll_and_large_targets(served, browser):
    base, games = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    blocked = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    for url in ("/games/new", f"/games/{games['Friday night, four players'].id}/record",
                f"/games/{games['Solo evening'].id}/record"):
        page.goto(base + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
    page.goto(base + "/games/new")
    shot(page, "new-game-390")
    game_id = new_game(page, base, ["Ada", "Bartek", "Chiara"], "Phone")
    assert page.locator(f"{FORM} select[data-slot]").count() == 16  # the tile map: a picker per room space
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click(f"{FORM} .confirm")
    wait_position(page, 1)
    page.click(offer(page, "CharacterChosen", 1))
    shot(page, "record-choose-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate("""Array.from(document.querySelectorAll(
        'button.offer, button.value, .big, form.fact-form:not([hidden]) button')).filter(b => b.offsetParent)
        .map(b => b.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length""")
    assert small == 0
    assert game_id and blocked == []  # nothing inline: the strict CSP blocks nothing
    context.close()


def test_a_long_list_is_searchable_and_enter_takes_the_first_match(served, page):
    base, _ = served
    game_id = new_game(page, base, ["Filip"], "Long list", mode="solo", characters="nemesis")
    page.click(f"{FORM} .confirm")
    wait_position(page, 1)
    # the only next step, CharacterChosen with all 17 characters, is asked at once, its search box focused
    page.wait_for_selector('form.fact-form:not([hidden])[data-type="CharacterChosen"]')
    search = page.locator("form.fact-form:not([hidden]) fieldset[data-field=character] .filter")
    assert search.is_visible() and search.evaluate("e => e === document.activeElement")
    assert page.locator("form.fact-form:not([hidden]) button.value").count() == 17
    page.keyboard.type("bount")
    assert page.locator("form.fact-form:not([hidden]) button.value:visible").all_inner_texts() == ["1\nBounty Hunter"]
    page.keyboard.press("Enter")  # takes the only match, which completes the fact: recorded
    wait_position(page, 2)
    assert api_facts(base, game_id)[-1]["data"] == {"character": "bounty_hunter"}
