"""A game recorded after the fact through the recorder on a phone (decision 0018): the new-game form's
"recorded after the fact", an "Unknown" value, skipping rounds, an escape by its outcome, a death of unknown
cause and "End: record incomplete" — at 390 px without horizontal scrolling."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.test_recorder import api_facts, shot, wait_position

pytestmark = pytest.mark.browser

FORM = "form.fact-form:not([hidden])"


def no_horizontal_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_a_coarse_game_with_unknown_values_recorded_on_a_phone(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(base + "/games/new")
    page.fill("input[name=player-0]", "Kasia")
    page.fill("input[name=player-1]", "Leon")
    page.fill("input[name=title]", "Told at the bar")
    page.check("input[name=after_the_fact]")
    no_horizontal_scroll(page)
    page.click("text=Create and start recording")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/record$"))
    game_id = page.url.rsplit("/", 2)[-2]
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/export") as r:
        header = json.loads(r.read().decode().splitlines()[0])
    assert (header["strict"], header["options"]) == (False, {"after_the_fact": True, "warrants": "required"})

    page.click(f'{FORM}[data-type="BoardPrepared"] .confirm')  # the only next step, asked at once
    wait_position(page, 1)
    # nobody remembers Kasia's character: "Unknown" is the last value, never preselected
    page.click('#offers button.offer[data-type="CharacterChosen"][data-actor="1"]')
    unknown = page.locator(f"{FORM} fieldset[data-field=character] button.value.unknown")
    assert unknown.inner_text().strip().endswith("Unknown") and unknown.get_attribute("aria-pressed") == "false"
    no_horizontal_scroll(page)
    shot(page, "coarse-unknown-390")
    unknown.click()  # the tap completes the fact: recorded (decision 0016)
    wait_position(page, 2)
    # Leon's character is the only next step: asked at once, one tap
    page.click(f'{FORM}[data-actor="2"] fieldset[data-field=character] button.value >> nth=0')
    wait_position(page, 3)
    page.click('#offers button.offer[data-type="SetupCompleted"]')  # the first player preselected: the button records
    wait_position(page, 4)

    # the after-the-fact group is open: skip to round 4 with the time token at 09
    coarse = page.locator("details.coarse")
    assert coarse.get_attribute("open") is not None and "Recorded after the fact" in coarse.inner_text()
    no_horizontal_scroll(page)
    shot(page, "coarse-group-390")
    page.click('details.coarse button.offer[data-type="RecordGap"]')
    page.click(f'{FORM} fieldset[data-field=to_round] button.value[data-value="4"]')
    page.click(f'{FORM} fieldset[data-field=time] button.value[data-value="\\"09\\""]')  # completes it: recorded
    wait_position(page, 5)
    assert "Round 4" in page.locator(".where-now").inner_text()

    # Leon died, nobody remembers how: a table effect with an unknown cause
    page.click("details.effects summary")
    page.click('details.effects button.offer[data-type="CharacterDied"][data-actor="2"]')
    page.click(f"{FORM} fieldset[data-field=cause] button.value.unknown")  # the only choice: recorded
    wait_position(page, 6)

    # Kasia escaped by a pod, which one is not known: route preselected (pod), the pod never (no button records
    # an invented pod), "Unknown" tapped completes the fact
    page.click('details.coarse button.offer[data-type="CharacterEscaped"][data-actor="1"]')
    assert page.locator(f"{FORM} fieldset[data-field=route] button.value.chosen").inner_text().strip().endswith("pod")
    assert page.locator(f"{FORM} fieldset[data-field=pod] button.value.chosen").count() == 0
    page.click(f"{FORM} fieldset[data-field=pod] button.value.unknown")
    wait_position(page, 7)
    # nobody left in the base: the game ended by itself, so the record is complete without "incomplete"
    assert "Game over" in page.locator(".where-now").inner_text()
    facts = api_facts(base, game_id)
    assert [(f["type"], f["data"]) for f in facts[4:]] == [
        ("RecordGap", {"to_round": 4, "time": "09"}),
        ("CharacterDied", {"cause": "unknown"}),
        ("CharacterEscaped", {"route": "pod", "pod": "unknown"}),
    ]
    assert facts[1]["data"] == {"character": "unknown"}
    assert [[x["rule"] for x in f["flags"]] for f in (facts[1], facts[4], facts[5], facts[6])] == [
        ["value-unknown"], ["record-gap"], ["value-unknown"], ["value-unknown", "escape-summary"]]
    no_horizontal_scroll(page)
    context.close()


def test_end_record_incomplete_is_one_tap_and_keeps_what_is_known(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(base + "/games/new")
    for i, name in enumerate(["Ola", "Piotr", "Rafał"]):
        page.fill(f"input[name=player-{i}]", name)
    page.check("input[name=after_the_fact]")
    page.click("text=Create and start recording")
    page.wait_for_url(re.compile(r"/record$"))
    game_id = page.url.rsplit("/", 2)[-2]
    page.click(f'{FORM}[data-type="BoardPrepared"] .confirm')  # the only next step, asked at once
    for seat in (1, 2, 3):
        wait_position(page, seat)
        if seat < 3:  # the last seat's character is the only next step: asked at once
            page.click(f'#offers button.offer[data-type="CharacterChosen"][data-actor="{seat}"]')
        page.click(f'{FORM}[data-actor="{seat}"] fieldset[data-field=character] button.value >> nth=0')  # recorded
    wait_position(page, 4)
    page.click('#offers button.offer[data-type="SetupCompleted"]')  # the first player preselected: the button records
    wait_position(page, 5)
    page.click("details.effects summary")
    page.click('details.effects button.offer[data-type="CharacterDied"][data-actor="3"]')
    # the cause is never preselected (decision 0016): the tap on "event" completes the fact and records it
    page.click(f"{FORM} fieldset[data-field=cause] button.value >> nth=0")
    wait_position(page, 6)
    page.click('details.coarse button.offer[data-type="GameEnded"]')  # the whole fact: one tap
    wait_position(page, 7)
    assert "Game over" in page.locator(".where-now").inner_text()
    assert api_facts(base, game_id)[-1]["data"] == {"ending": "incomplete"}
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/state") as r:
        result = json.load(r)["result"]
    assert result["ending"] == "incomplete"
    outcomes = {p["seat"]: (p["outcome"], p["death_cause"]) for p in result["players"]}
    assert outcomes == {1: ("undetermined", None), 2: ("undetermined", None), 3: ("lost", "event")}
    no_horizontal_scroll(page)
    shot(page, "coarse-incomplete-390")
    context.close()


def test_the_players_table_shows_incomplete_records_at_390_px(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(base + "/players")
    assert "Incomplete" in page.locator("table.players thead").inner_text()
    no_horizontal_scroll(page)
    shot(page, "players-390")
    context.close()
