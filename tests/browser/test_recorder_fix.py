"""The recorder's remarks and corrections in a real browser (decision 0017): a comment and a note shown in the
replay, fix-this-fact from the replay, undo as a correction, rooms picked on the board picture, two devices,
a queued note across a reload, and the tablet and phone viewports."""
from __future__ import annotations

import json
import re
import urllib.request
import uuid

import pytest

from tests.browser.test_recorder import api_facts, new_game, offer, position, shot, wait_position

pytestmark = pytest.mark.browser

OPEN = "form.fact-form:not([hidden])"


def record_board_and_two_characters(page) -> None:
    page.click(f'{OPEN}[data-type="BoardPrepared"] .confirm')  # the only next step, asked at once
    wait_position(page, 1)
    page.click(offer(page, "CharacterChosen", 1))
    page.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=0")  # the tap completes it: recorded
    wait_position(page, 2)
    # seat 2's character is now the only next step: its form is open at once, one tap records it
    page.click(f'{OPEN}[data-type="CharacterChosen"][data-actor="2"] fieldset[data-field=character] button.value >> nth=1')
    wait_position(page, 3)


def log_line(page, seq: int):
    return page.locator(f'#facts li[data-seq="{seq}"]')


def test_a_comment_and_a_note_are_recorded_and_shown_in_the_replay(served, page):
    base, _ = served
    game_id = new_game(page, base, ["Ada", "Bartek"], "Remarks")
    page.click(f'{OPEN}[data-type="BoardPrepared"] .confirm')  # the only next step, asked at once
    wait_position(page, 1)
    # a note in the fact's own form, written before the tap that completes the fact: sent with it, in one command
    page.click(offer(page, "CharacterChosen", 1))
    page.fill(f"{OPEN} input[name=_note]", "Ada always takes her")
    page.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=0")
    wait_position(page, 3)
    facts = api_facts(base, game_id)
    assert [f["type"] for f in facts[1:]] == ["CharacterChosen", "FactAnnotated"]
    assert facts[2]["data"] == {"seq": 2, "note": "Ada always takes her"}
    assert facts[1]["command_id"] == facts[2]["command_id"]
    # the comment button is there whatever the rules expect (Back from the step asked at once: seat 2's character)
    page.click(f'{OPEN}[data-type="CharacterChosen"][data-actor="2"] .back')
    page.click("#comment")
    page.fill(f"{OPEN} textarea[name=text]", "Bartek arrives late; 42 minutes in")
    page.click(f"{OPEN} .confirm")
    wait_position(page, 4)
    assert api_facts(base, game_id)[-1] == {**api_facts(base, game_id)[-1], "type": "Commented", "actor": None,
                                            "data": {"text": "Bartek arrives late; 42 minutes in"}}
    # the rules still expect seat 2's character: the comment changed nothing
    assert page.locator(offer(page, "CharacterChosen", 2)).count() == 1
    # Undo takes back the comment first, then the character with its note together
    page.click(f'{OPEN}[data-type="CharacterChosen"][data-actor="2"] .back')  # asked again after the comment
    page.click("#undo")
    page.click("#undo")
    wait_position(page, 5)
    assert api_facts(base, game_id)[-1]["data"] == {"seqs": [4]}
    page.click(f'{OPEN}[data-type="CharacterChosen"][data-actor="2"] .back')
    page.click("#undo")
    assert "#2" in page.locator("#undo").inner_text()
    page.click("#undo")
    wait_position(page, 6)
    assert api_facts(base, game_id)[-1]["data"] == {"seqs": [2, 3]}
    # record them again and look at the replay
    page.click(offer(page, "CharacterChosen", 1))
    page.fill(f"{OPEN} input[name=_note]", "second try")
    page.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=0")
    wait_position(page, 8)
    page.click(f'{OPEN}[data-type="CharacterChosen"][data-actor="2"] .back')
    page.click("#comment")
    page.fill(f"{OPEN} textarea[name=text]", "1")  # digits stay text
    page.click(f"{OPEN} fieldset[data-field=about] button.value >> text=Bartek")  # about seat 2
    page.click(f"{OPEN} .confirm")
    wait_position(page, 9)
    assert (api_facts(base, game_id)[-1]["data"], api_facts(base, game_id)[-1]["actor"]) == ({"text": "1"}, 2)
    page.goto(f"{base}/games/{game_id}/step/9")
    assert log_line(page, 9).get_attribute("class").startswith("comment")
    assert "Comment (Bartek): 1" in log_line(page, 9).inner_text()
    assert "Note: second try" in log_line(page, 7).inner_text()
    assert log_line(page, 4).count() == 0 and log_line(page, 8).count() == 0  # voided comment; a note is no step
    page.goto(f"{base}/games/{game_id}/step/9?view=played")
    assert "voided" in log_line(page, 4).get_attribute("class")  # struck through as played
    assert "Note on #7: second try" in log_line(page, 8).inner_text()
    assert "did not happen" in log_line(page, 5).inner_text()


def test_fix_this_fact_from_the_replay_appends_a_replacement_shown_as_a_correction(served, page):
    base, _ = served
    game_id = new_game(page, base, ["Ada", "Bartek"], "Fix from replay")
    record_board_and_two_characters(page)
    wrong = api_facts(base, game_id)[1]["data"]["character"]
    page.goto(f"{base}/games/{game_id}/step/3")
    page.click('#facts li[data-seq="2"] a.fix')
    page.wait_for_url(re.compile(r"/record\?fix=2$"))
    form = page.locator(OPEN)
    assert form.get_attribute("data-type") == "CharacterChosen" and form.get_attribute("data-replaces") == "2"
    chosen = form.locator("fieldset[data-field=character] button.value.chosen")
    assert json.loads(chosen.get_attribute("data-value")) == wrong  # prefilled with what was recorded
    assert "Fixing #2" in page.locator("#fix-banner").inner_text()
    page.click(f"{OPEN} .confirm")  # nothing changed: refused on the device, nothing sent
    assert "Nothing changed" in page.locator(f"{OPEN} .form-error").inner_text()
    page.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=4")
    assert page.locator(OPEN).get_attribute("data-replaces") == "2"  # a fix waits for its confirmation:
    assert len(api_facts(base, game_id)) == 3  # the tap that completes the form sends nothing
    right = json.loads(page.locator(f"{OPEN} fieldset[data-field=character] button.value.chosen").get_attribute("data-value"))
    page.fill(f"{OPEN} input[name=_note]", "she had swapped with her neighbour")
    page.click(f"{OPEN} .confirm")
    page.wait_for_url(re.compile(r"/step/2$"))  # back in the replay, at the fixed fact
    facts = api_facts(base, game_id)
    assert [f["type"] for f in facts[3:]] == ["FactReplaced", "FactAnnotated"]
    assert facts[3]["data"] == {"seq": 2, "replacement": {"type": "CharacterChosen", "actor": 1, "data": {"character": right}}}
    assert facts[4]["data"] == {"seq": 2, "note": "she had swapped with her neighbour"}
    line = log_line(page, 2)
    assert "corrected" in line.get_attribute("class") and "replaced by correction #4" in line.inner_text()
    assert "Note: she had swapped" in line.inner_text()
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/facts") as r:
        assert json.load(r)["facts"][1]["data"] == {"character": right}
    page.goto(f"{base}/games/{game_id}/step/4?view=played")
    assert "voided" in log_line(page, 2).get_attribute("class")  # struck through as played
    assert log_line(page, 4).get_attribute("class").startswith("correction")
    assert "Correction: #2 is replaced by" in log_line(page, 4).inner_text()
    # a note alone on a fact, later: the fix form with nothing changed but a note
    page.goto(f"{base}/games/{game_id}/record?fix=1")
    page.fill(f"{OPEN} input[name=_note]", "the basic side")
    page.click(f"{OPEN} .confirm")
    page.wait_for_url(re.compile(r"/step/1$"))
    assert api_facts(base, game_id)[-1]["type"] == "FactAnnotated" and len(api_facts(base, game_id)) == 6
    assert "Note: the basic side" in log_line(page, 1).inner_text()


def test_undo_shows_in_the_replay_as_a_correction(served, page):
    base, _ = served
    game_id = new_game(page, base, ["Ada", "Bartek"], "Undo in replay")
    record_board_and_two_characters(page)
    page.click("#undo")
    page.click("#undo")
    wait_position(page, 4)
    page.goto(f"{base}/games/{game_id}/step/4?view=played")
    assert "voided" in log_line(page, 3).get_attribute("class")
    assert page.locator('#facts li[data-seq="3"] > a .text').evaluate(
        "e => getComputedStyle(e).textDecorationLine") == "line-through"
    assert "Correction: #3 did not happen" in log_line(page, 4).inner_text()
    page.goto(f"{base}/games/{game_id}/step/4")  # as corrected: the voided fact is gone
    assert log_line(page, 3).count() == 0 and log_line(page, 4).count() == 0


def _game_at_first_move(page, base: str, tmp_path, games) -> str:
    """The three-player demo up to its first move (fact 11), imported as a new game through the form."""
    with urllib.request.urlopen(f"{base}/api/games/{games['Club night (lenient, with a correction)'].id}/export") as r:
        lines = r.read().decode().splitlines()
    header = json.loads(lines[0])
    gid = str(uuid.uuid4())
    header.update(game=gid, title="Board taps")
    path = tmp_path / "taps.jsonl"
    path.write_text("\n".join([json.dumps(header)] + lines[1:12]) + "\n")
    page.goto(base + "/games/new")
    page.set_input_files("input[name=file]", str(path))
    page.click("form.import button")
    page.wait_for_url(re.compile(rf"/{gid}/record$"))
    return gid


def test_tapping_a_room_on_the_board_picks_the_place(served, page, tmp_path):
    base, games = served
    game_id = _game_at_first_move(page, base, tmp_path, games)
    assert position(page) == 11
    board = page.locator("#record-board .board-wide")
    assert board.locator("[data-place]").count() > 10
    # no form open: a tap on a room keeps the offers that name it (the moves into it)
    board.locator('[data-place="slot-12"]').first.click()
    visible = page.locator("#offers button.offer:visible")
    assert visible.count() == 2 and set(visible.evaluate_all("bs => bs.map(b => b.dataset.type)")) == {
        "CharacterMoved", "CharacterMovedCarefully"}
    page.click("#place-all")
    assert page.locator("#offers button.offer:visible").count() > 2
    # a form with a room field: the tap chooses the room, the list stays as the fallback
    page.click("details.effects summary")
    page.click('details.effects button.offer[data-type="FirePlaced"]')
    page.wait_for_selector(OPEN)  # a table effect's form is fetched on the tap (decision 0034)
    assert page.locator("#board-box .board-hint").is_visible()
    legal = [json.loads(v) for v in page.locator(f"{OPEN} fieldset[data-field=room] button.value").evaluate_all(
        "bs => bs.map(b => b.dataset.value)")]
    legal = [v for v in legal if v != "unknown"]  # a lenient game's Unknown choice is no place on the board
    target = legal[-1]
    chosen = page.locator(f"{OPEN} fieldset[data-field=room] button.value.chosen")
    illegal = next(p for p in board.locator("[data-place]").evaluate_all("gs => gs.map(g => g.dataset.place)")
                   if p not in legal)
    board.locator(f'[data-place="{illegal}"]').first.click()
    assert "not one of the legal choices" in page.locator(f"{OPEN} .form-error").inner_text()
    assert chosen.count() == 0 and position(page) == 11  # nothing chosen, nothing sent
    # the room is the fact's only choice: the tap on it completes the fact and records it (decision 0016)
    board.locator(f'[data-place="{target}"]').first.click()
    wait_position(page, 12)
    assert api_facts(base, game_id)[-1]["type"] == "FirePlaced"
    assert api_facts(base, game_id)[-1]["data"]["room"] == target
    # the fire was elsewhere: fix it from the replay by tapping the right room on the board of that moment
    page.goto(f"{base}/games/{game_id}/step/12")
    page.click('#facts li[data-seq="12"] a.fix')
    page.wait_for_url(re.compile(r"/record\?fix=12$"))
    assert json.loads(page.locator(f"{OPEN} fieldset[data-field=room] button.value.chosen").get_attribute("data-value")) == target
    page.locator(f'#record-board .board-wide [data-place="{legal[0]}"]').first.click()
    page.click(f"{OPEN} .confirm")
    page.wait_for_url(re.compile(r"/step/12$"))
    fixed = api_facts(base, game_id)[-1]
    assert fixed["type"] == "FactReplaced" and fixed["data"]["seq"] == 12
    assert fixed["data"]["replacement"]["data"]["room"] == legal[0]
    assert "replaced by correction #13" in log_line(page, 12).inner_text()


def test_two_devices_see_each_others_facts_and_review_their_own(served, browser):
    base, _ = served
    a = browser.new_context(viewport={"width": 800, "height": 1280})
    b = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    pa, pb = a.new_page(), b.new_page()
    game_id = new_game(pa, base, ["Ada", "Bartek"], "Two devices")
    pb.goto(f"{base}/games/{game_id}/record")
    pa.click(f'{OPEN}[data-type="BoardPrepared"] .confirm')  # the only next step, asked at once
    wait_position(pa, 1)
    pb.click(f'{OPEN}[data-type="BoardPrepared"] .confirm')  # B still shows the empty game: 409, B's fact waits for review
    pb.wait_for_selector("#queue.review")
    pb.wait_for_selector('#recent li[data-seq="1"].other')  # the panel, refreshed: A's fact starred
    assert position(pb) == 1
    pb.click("#queue-discard")
    pb.wait_for_selector("#queue", state="hidden")
    # both choose a character for seat 1 at once: A first; B's choice for seat 2 is kept and sent after A's
    pa.click(offer(pa, "CharacterChosen", 1))
    pb.click(offer(pb, "CharacterChosen", 2))
    pb.fill(f"{OPEN} input[name=_note]", "from the phone")
    pa.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=0")  # the tap records it
    wait_position(pa, 2)
    pb.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=2")  # sent with its note: 409
    pb.wait_for_selector("#queue.review")
    pb.wait_for_selector('#recent li[data-seq="2"].other')
    assert "CharacterChosen (seat 2)" in pb.locator("#queue").inner_text()
    pb.click("#queue-send")  # re-based on the new position; the rules check it again
    wait_position(pb, 4)
    facts = api_facts(base, game_id)
    assert [(f["type"], f["actor"]) for f in facts] == [("BoardPrepared", None), ("CharacterChosen", 1),
                                                        ("CharacterChosen", 2), ("FactAnnotated", None)]
    assert facts[3]["data"] == {"seq": 3, "note": "from the phone"}
    pa.goto(f"{base}/games/{game_id}/record")
    assert position(pa) == 4
    a.close()
    b.close()


def test_a_queued_fact_with_its_note_survives_a_reload_and_is_stored_once(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    game_id = new_game(page, base, ["Ada", "Bartek"], "Offline note")
    page.click(f'{OPEN}[data-type="BoardPrepared"] .confirm')  # the only next step, asked at once
    wait_position(page, 1)
    context.set_offline(True)
    page.click(offer(page, "CharacterChosen", 1))
    page.fill(f"{OPEN} input[name=_note]", "noted offline")
    page.click(f"{OPEN} fieldset[data-field=character] button.value >> nth=0")  # the tap records it (queued)
    page.wait_for_selector("#net[data-state=offline]")
    page.click("#comment")
    page.fill(f"{OPEN} textarea[name=text]", "the router died")
    page.click(f"{OPEN} .confirm")
    page.wait_for_selector(f"{OPEN}", state="hidden")
    queued = page.evaluate("JSON.parse(localStorage.getItem('nemesis-recorder-queue:%s'))" % game_id)
    assert [e["expected_position"] for e in queued] == [1, 3]  # the note takes a seq of its own
    context.set_offline(False)
    page.reload()
    wait_position(page, 4)
    facts = api_facts(base, game_id)
    assert [f["type"] for f in facts] == ["BoardPrepared", "CharacterChosen", "FactAnnotated", "Commented"]
    assert [f["command_id"] for f in facts[1:]] == [queued[0]["command_id"]] * 2 + [queued[1]["command_id"]]
    context.close()


@pytest.mark.parametrize("width, height", [(800, 1280), (390, 844)])
def test_tablet_and_phone_have_no_horizontal_scroll(served, browser, width, height):
    base, games = served
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 600, has_touch=True)
    page = context.new_page()
    blocked = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    game = games["Friday night, four players"]
    for url in (f"/games/{game.id}/record", f"/games/{game.id}/record?fix=19", f"/games/{game.id}/step/19",
                "/games/new"):
        page.goto(base + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, url
    page.goto(f"{base}/games/{game.id}/record")
    page.click("#comment")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    small = page.evaluate("""Array.from(document.querySelectorAll(
        'button.offer, button.value, .big, form.fact-form:not([hidden]) button')).filter(b => b.offsetParent)
        .map(b => b.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length""")
    assert small == 0
    shot(page, f"record-comment-{width}")
    assert blocked == []
    context.close()
