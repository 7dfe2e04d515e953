"""A note on any fact from the recorder's Note button (a one-tap fact too, stored or still queued), and every field
of a fact editable when fixing it from the replay (decision 0017's FactAnnotated and FactReplaced)."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.test_recorder import api_facts, new_game, offer, shot, wait_position

pytestmark = pytest.mark.browser

OPEN = "form.fact-form:not([hidden])"


def test_a_note_on_a_one_tap_fact_stored_or_still_queued(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    game_id = new_game(page, base, ["Ada", "Bartek"], "Notes on one-tap facts")
    assert page.locator("#note").is_disabled()  # nothing recorded yet: nothing to put a note on
    page.click(f'{OPEN}[data-type="BoardPrepared"] .confirm')  # the board: one tap
    wait_position(page, 1)
    # the note goes on the fact just recorded: the Note button, the text, Enter
    page.click("#note")
    assert "#1" in page.locator(f"{OPEN}.note-form .note-target").inner_text()
    assert page.evaluate("document.activeElement.name") == "note"  # the keyboard is up at once
    page.keyboard.type("tiles left face down")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "record-note-390")
    page.keyboard.press("Enter")
    wait_position(page, 2)
    assert api_facts(base, game_id)[-1]["type"] == "FactAnnotated"
    assert api_facts(base, game_id)[-1]["data"] == {"seq": 1, "note": "tiles left face down"}
    assert "Note on #1: tiles left face down" in page.locator("#recent li[data-seq='2']").inner_text()
    assert json.loads(page.locator("#undo").get_attribute("data-seqs")) == [2]  # a later note is undone alone
    # Ada's character: one tap; the guided flow then asks Bartek's at once: the Note button is still at hand
    page.click(offer(page, "CharacterChosen", 1))
    page.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=0")
    wait_position(page, 3)
    # offline: Bartek's character (one tap) waits in the queue; its note joins it there and goes in one command
    page.route("**/api/games/*/facts", lambda route: route.abort())
    page.click(f'{OPEN}[data-type="CharacterChosen"][data-actor="2"] fieldset[data-field=character] button.value >> nth=1')
    page.wait_for_selector("#queue:not([hidden])")
    page.wait_for_selector("#panel[data-preview='1']")  # the offers after the queued fact (the server's preview)
    page.click("#note")
    assert "#4 CharacterChosen (seat 2)" in page.locator(f"{OPEN}.note-form .note-target").inner_text()
    page.fill(f"{OPEN} input[name=note]", "Bartek took the last one")
    page.click(f"{OPEN} .confirm")
    queued = page.evaluate(f"() => JSON.parse(localStorage.getItem('nemesis-recorder-queue:{game_id}'))")
    assert [(e["fact"]["type"], e.get("note")) for e in queued] == [("CharacterChosen", "Bartek took the last one")]
    page.unroute("**/api/games/*/facts")
    page.wait_for_selector("#recorder[data-idle=yes] #panel[data-position='5']")
    chosen, note = api_facts(base, game_id)[-2:]
    assert (chosen["type"], note["type"], note["data"]) == ("CharacterChosen", "FactAnnotated",
                                                            {"seq": 4, "note": "Bartek took the last one"})
    assert chosen["command_id"] == note["command_id"]  # all or nothing, as a note typed in the fact's own form
    # the replay shows both notes on their facts
    page.goto(f"{base}/games/{game_id}/step/4")
    assert "Note: Bartek took the last one" in page.locator("#step-panel").inner_text()
    page.goto(f"{base}/games/{game_id}/step/1")
    assert "Note: tiles left face down" in page.locator("#step-panel").inner_text()
    # an empty note is refused in the page, nothing sent
    page.goto(f"{base}/games/{game_id}/record")
    page.wait_for_selector("#recorder[data-idle=yes]")
    page.click("#note")
    page.click(f"{OPEN} .confirm")
    assert page.locator(f"{OPEN} .form-error").is_visible()
    assert len(api_facts(base, game_id)) == 5
    context.close()


def test_fixing_a_move_from_the_replay_can_change_its_room_and_corridor(served, page):
    """The rules offer a move once per destination (each with one room and one corridor); the fix form used the
    first of them, its room and corridor shown fixed — not even the ones recorded. Now every field is a picker
    listing what the rules allowed there, the recorded values chosen."""
    from service.demo import HERE as DEMO_DIR
    from service.rules.base import Fact
    from service.rules.lockdown.ruleset import LOCKDOWN
    from service.rules.base import Seat, Setup
    from tests.browser.recorder_driver import create_game, read_notation

    base, _ = served
    header, facts = read_notation(DEMO_DIR / "friday-four-players.jsonl")
    game_id = create_game(base, {**header, "title": "Fix a move"})
    body = {"facts": facts[:25], "expected_position": 0, "command_id": "fix-a-move"}
    req = urllib.request.Request(f"{base}/api/games/{game_id}/facts", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).close()
    seq, move = 21, facts[20]
    assert move["type"] == "CharacterMoved"
    # another destination the rules allowed there (its own room and corridor)
    state = LOCKDOWN.initial_state(Setup(players=tuple(Seat(p["seat"], p["name"]) for p in header["players"]),
                                         mode=header["mode"], options=header.get("options") or {}))
    for i, f in enumerate(facts[:seq - 1], start=1):
        state, _ = LOCKDOWN.apply(state, Fact(i, f["type"], f["data"], f["actor"]))
    other = next(e for e in LOCKDOWN.next_inputs(state) if e.type == "CharacterMoved" and e.actor == move["actor"]
                 and e.options["to_room"] != [move["data"]["to_room"]])
    room, corridor = other.options["to_room"][0], other.options["corridor"][0]
    page.goto(f"{base}/games/{game_id}/step/{seq}")
    page.click(f'#facts li[data-seq="{seq}"] a.fix')
    page.wait_for_url(re.compile(rf"/record\?fix={seq}$"))
    form = f'{OPEN}[data-replaces="{seq}"]'
    for name in ("to_room", "corridor"):  # pickers, the recorded value chosen
        fs = f'{form} fieldset[data-field="{name}"]'
        assert page.locator(fs).get_attribute("data-input") == "choice"
        assert page.locator(f"{fs} button.value").count() > 1
        assert json.loads(page.locator(f"{fs} button.value.chosen").get_attribute("data-value")) == move["data"][name]
    page.click(f'{form} fieldset[data-field="to_room"] button.value[data-value=\'{json.dumps(room)}\']')
    page.click(f'{form} fieldset[data-field="corridor"] button.value[data-value=\'{json.dumps(corridor)}\']')
    assert api_facts(base, game_id)[-1]["seq"] == 25  # a tap in a fix form sends nothing
    page.click(f"{form} .confirm")
    page.wait_for_url(re.compile(rf"/step/{seq}$"))
    fixed = api_facts(base, game_id)[-1]
    assert fixed["type"] == "FactReplaced" and fixed["data"]["seq"] == seq
    assert fixed["data"]["replacement"] == {"type": "CharacterMoved", "actor": move["actor"],
                                            "data": {**move["data"], "to_room": room, "corridor": corridor}}
