"""Issue 8's "Done means", tried as a new user would: from the home page, "New game", a 3-player game on the basic
board side recorded to its end on a 390-px phone by taps and keys only (no JSON anywhere), then the replay's result;
the same facts imported as notation give the same facts, state and result.

The game is a seeded generated game on the basic side (``generate_game(..., board="basic")``): legal by construction,
with a real ending (a bunker escape and two deaths), so it exercises setup, the event phase, fights, a death by
wounds, a death by attack and the victory check's hidden information. The driver (``recorder_driver.py``) taps what
the recorder shows and raises when the page offers no way to record a fact.
"""
from __future__ import annotations

import json
import re
import urllib.request

import pytest

from service.rules.lockdown.generate import generate_game
from tests.browser.recorder_driver import Driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # ~115 facts through a real browser: CI runs it once

SEED = 96  # 3 players, basic side: seat 1 escapes by the bunker and wins (sole survivor); seats 2 and 3 die
NAMES = ("Ada", "Bartek", "Celina")
PHONE = {"width": 390, "height": 844}


def _get(url: str) -> dict:
    with urllib.request.urlopen(url) as r:
        return json.load(r)


def _notation(header: dict, facts: list[dict]) -> str:
    """The facts as a notation file (docs/notation.md), header first."""
    lines = [json.dumps({"format": "nemesis-archive", "version": 1, **header})]
    lines += [json.dumps({"seq": i, "type": f["type"], "actor": f["actor"], "data": f["data"],
                          "recorded_at": "2026-11-26T19:00:00+00:00"}) for i, f in enumerate(facts, start=1)]
    return "\n".join(lines) + "\n"


def _facts(facts: list[dict]) -> list[tuple]:
    """(type, actor, data) per fact, a list value as a set: a multi-pick (the objective cards dealt, the markers
    removed) is recorded in the order the recorder lists the values, not the order they were dealt (a hand, not a
    sequence: the state folds the same either way, which the state comparison checks)."""
    def canon(v):
        return sorted(v, key=lambda x: json.dumps(x, sort_keys=True)) if isinstance(v, list) else v
    return [(f["type"], f["actor"], {k: canon(v) for k, v in f["data"].items()}) for f in facts]


def _verdicts(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#final-result table.verdicts tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")


def test_a_new_user_records_a_three_player_basic_game_on_a_phone_and_the_replay_is_right(served, browser,
                                                                                         record_property):
    base, _ = served
    _, generated = generate_game(SEED, players=3, max_rounds=15, board="basic")
    facts = [{"type": t, "actor": a, "data": d} for t, a, d in generated]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    too_wide: list[tuple[str, int]] = []

    def fits(where: str) -> None:  # no horizontal scrolling on any screen passed through
        width = page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        if width > PHONE["width"]:
            too_wide.append((where, width))

    # -- a new user: the home page, its "New game" link, the form (names typed, the basic side, strict) --------
    page.goto(f"{base}/")
    fits("home")
    d = Driver(page)
    d.click("a.btn:has-text('New game')")
    page.wait_for_url(re.compile(r"/games/new$"))
    fits("new game form")
    assert page.locator("textarea").count() == 0  # nothing to write as JSON
    for i, name in enumerate(NAMES):
        d.type(f'input[name="player-{i}"]', name)
    assert page.locator('input[name="board"][value="basic"]').is_checked()  # the real board, by default
    assert page.locator('input[name="strict"][value="strict"]').is_checked()
    d.click("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]+/record$"))
    game_id = page.url.rsplit("/", 2)[-2]
    form_inputs = d.inputs
    d.inputs = 0
    header = _get(f"{base}/api/games/{game_id}")
    assert [p["name"] for p in header["players"]] == list(NAMES)
    assert header["strict"] is True and not (header.get("options") or {}).get("board")  # basic: the default side
    fits("recorder, setup")

    # -- the game, fact by fact, by taps and keys on the recorder ---------------------------------------------
    for seq, fact in enumerate(facts, start=1):
        d.record(seq, fact)
        fits(f"recorder after #{seq} {fact['type']}")
    d.idle()
    assert "Game over" in page.locator(".where-now").inner_text()
    recording_inputs = d.inputs

    # -- the replay: the end of the game says so and leads to the result (so does the title, at the last fact) --
    assert page.locator(".rec-head h1 a").get_attribute("href").endswith(f"/step/{len(facts)}")
    d.click("#game-over a#to-result")
    page.wait_for_url(re.compile(rf"/games/{game_id}/step/{len(facts)}"))
    page.wait_for_selector("#final-result")
    fits("replay, final result")
    mine = _verdicts(page)
    # the result is right: Ada escaped by the bunker, alone, and met her objective; Bartek and Celina died
    assert [(row[0], row[1]) for row in mine] == [("Ada", "won"), ("Bartek", "lost"), ("Celina", "lost")]
    assert "Bunker" in mine[0][2] and "only survivor" in mine[0][5]
    assert "died during play (attack)" in mine[1][2] and "died during play (wounds)" in mine[2][2]
    assert "no characters left" in page.locator("#final-result h2").inner_text()

    # -- the same facts imported as notation (through the same page's import form) give the same game ---------
    notation = _notation({"ruleset": "lockdown", "mode": "standard", "strict": True, "played_on": header["played_on"],
                          "players": [{"seat": i + 1, "name": n} for i, n in enumerate(NAMES)],
                          "title": "The same game, imported"}, facts)
    page.goto(f"{base}/games/new")
    page.set_input_files("form.import input[type=file]", {"name": "same-game.jsonl", "mimeType": "application/x-ndjson",
                                                          "buffer": notation.encode()})
    page.click("form.import button[type=submit]")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]+/record$"))
    imported_id = page.url.rsplit("/", 2)[-2]
    assert imported_id != game_id
    recorded = _get(f"{base}/api/games/{game_id}/facts?view=played")["facts"]
    assert _facts(recorded) == _facts(_get(f"{base}/api/games/{imported_id}/facts?view=played")["facts"])
    assert len(recorded) == len(facts)
    ours, theirs = _get(f"{base}/api/games/{game_id}/state"), _get(f"{base}/api/games/{imported_id}/state")
    assert ours["result"] == theirs["result"] and ours["state"] == theirs["state"]
    page.goto(f"{base}/games/{imported_id}/step/{len(facts)}")
    assert _verdicts(page) == mine

    assert not too_wide, f"horizontal scrolling at 390 px: {too_wide[:5]}"
    t = d.tally
    derived = sum(1 for *_, auto in t.per_fact if auto)
    record_property("inputs_per_fact", f"{recording_inputs}/{t.facts}")
    print(f"\n3-player basic game: new-game form {form_inputs} inputs; recording {recording_inputs} inputs "
          f"(clicks + keys) for {t.facts} facts = {recording_inputs / t.facts:.2f} per fact, {derived} recorded for "
          f"us; dearest types {t.by_type()[:6]}")
    # about one tap per fact, plus what this table chose to say: all 16 room tiles picked at setup (2 taps each)
    # and action card names typed the first time (1.86 when written; the solo game on the synthetic side: 1.35)
    assert recording_inputs / t.facts <= 2.0
    assert {n for _, ty, n, _ in t.per_fact if ty == "CharacterMoved"} <= {2, 3}  # offer, (corridor), room
    context.close()
