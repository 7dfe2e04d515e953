"""The board picture on the replay page in a real browser: shown, stepped, no sideways scroll on a phone.

The screenshots go to a temporary folder; with BOARD_SCREENSHOTS=docs/img they refresh the
pictures in the docs (docs/decisions/0012-board-drawing.md).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

KEY_STEP = 120  # Friday night, round 3: Bartek's Janitor walks into the Backup Power Supply, fires burn


@pytest.mark.parametrize("name, width, height", [("desktop", 1280, 800), ("phone", 390, 844)])
def test_the_replay_page_shows_the_board_without_sideways_scroll(served, browser, tmp_path, name, width, height):
    base, games = served
    game = games["Friday night, four players"]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{base}/games/{game.id}/step/{KEY_STEP}")
    board = page.locator("#board svg.nb-board:visible")  # drawn wide and narrow; the screen picks one
    board.wait_for()
    assert board.count() == 1
    assert board.evaluate("svg => svg.viewBox.baseVal.width") == (664 if name == "phone" else 1132)
    box = board.bounding_box()
    assert box["width"] <= width and box["height"] > 200
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no horizontal scroll
    moved = board.locator('g[data-place="backup_power_supply"] g.character[data-seat="2"]')
    assert "hl" in moved.get_attribute("class").split()
    assert board.locator("path.arrow").count() == 1
    out = Path(os.environ.get("BOARD_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    shot = out / f"replay-board-{name}.png"
    # the board just under the sticky replay controls, as a reader stepping through sees it
    page.evaluate("""() => { const nav = document.querySelector('.controls').getBoundingClientRect().height;
        window.scrollTo(0, document.getElementById('board').getBoundingClientRect().top + scrollY - nav - 4); }""")
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    context.close()


def test_stepping_with_the_keys_redraws_the_board(served, page):
    base, games = served
    game = games["Friday night, four players"]
    page.goto(f"{base}/games/{game.id}/step/{KEY_STEP}")
    page.locator("#board svg.nb-board:visible").wait_for()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"/step/{KEY_STEP + 1}$"))
    page.wait_for_selector(f'#step-board[data-seq="{KEY_STEP + 1}"] #board svg.nb-board')
    board = page.locator("#board svg.nb-board:visible")
    assert board.locator("path.arrow").count() == 0  # a noise roll moves nobody
    lit = board.locator("g.noise-marker:has(circle.hl)")
    # one marker, drawn at both ends of its corridor
    assert {lit.nth(i).get_attribute("data-corridor") for i in range(lit.count())} == {"c05"}
    r = page.request.get(f"{base}/games/{game.id}/step/{KEY_STEP + 1}/board.svg")
    assert r.ok and r.headers["content-type"].startswith("image/svg+xml")


# the drawing on the page, as board.svg draws it without its <style> (the page links that once)
SAME_AS_SERVED = """async ([svgUrl, narrow]) => {
  const text = await (await fetch(svgUrl + (narrow ? "?narrow=1" : ""))).text();
  const served = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  served.querySelector("style").remove();
  const live = document.querySelectorAll("#board svg.nb-board");
  return live.length === 1 && live[0].isEqualNode(served);
}"""


@pytest.mark.parametrize("name, width, height, columns", [("desktop", 1280, 800, 1132), ("phone", 390, 844, 664)])
def test_once_the_screen_is_known_one_board_is_drawn_and_patched_in_place(served, browser, name, width, height, columns):
    """Decision 0015: the first replay page draws both layouts; replay.js remembers the screen's, so
    later pages and every step bring one drawing, and a step changes only what differs in it."""
    base, games = served
    game = games["Friday night, four players"]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    url = f"{base}/games/{game.id}/step/{KEY_STEP}"
    page.goto(url)
    assert page.locator("#board svg.nb-board").count() == 2  # nothing known yet: wide and narrow
    assert any(c["name"] == "board_fit" for c in context.cookies())
    page.goto(url)
    board = page.locator("#board svg.nb-board")
    assert board.count() == 1 and board.evaluate("svg => svg.viewBox.baseVal.width") == columns
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # the stylesheet linked once styles the drawing (under the page's CSP)
    assert board.locator("rect.bg").evaluate("r => getComputedStyle(r).fill") == "rgb(13, 18, 20)"
    board.evaluate("svg => { svg.kept = true; }")  # a property of this element object, not an attribute
    for key, seq in (("ArrowRight", KEY_STEP + 1), ("ArrowRight", KEY_STEP + 2), ("Home", 0), ("End", game.position)):
        page.keyboard.press(key)
        page.wait_for_selector(f'#step-board[data-seq="{seq}"]')
        page.wait_for_url(re.compile(rf"/step/{seq}$"))
        svg = page.locator("#board svg.nb-board")
        assert svg.evaluate("svg => svg.kept === true")  # the same element, patched
        assert page.evaluate(SAME_AS_SERVED, [f"{base}/games/{game.id}/step/{seq}/board.svg", name == "phone"])
        assert page.locator("#board figcaption a").get_attribute("href").endswith(f"/step/{seq}/board.svg")
    context.close()


def test_crossing_the_phone_width_redraws_the_board_in_the_other_layout(served, browser):
    base, games = served
    game = games["Friday night, four players"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/games/{game.id}/step/{KEY_STEP}")
    page.goto(f"{base}/games/{game.id}/step/{KEY_STEP}")  # the cookie set: one (wide) drawing
    assert page.locator("#board").get_attribute("data-fit") == "wide"
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_selector('#board[data-fit="narrow"]')
    assert page.locator("#board svg.nb-board").evaluate("svg => svg.viewBox.baseVal.width") == 664
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert any(c["name"] == "board_fit" and c["value"] == "narrow" for c in context.cookies())
    page.keyboard.press("ArrowRight")  # the panels fetched before the change were dropped
    page.wait_for_selector(f'#step-board[data-seq="{KEY_STEP + 1}"] #board[data-fit="narrow"]')
    context.close()
