"""The viewer in a real browser: the games list, and stepping through a replay."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def current_seq(page) -> int:
    return int(page.locator("#step-panel").get_attribute("data-seq"))


def at(page, seq: int, query: str = "") -> None:
    """Wait until the URL and the shown step are ``seq`` (the URL moves first, the panel follows)."""
    page.wait_for_url(re.compile(rf"/step/{seq}{re.escape(query)}$"))
    page.wait_for_selector(f'#step-panel[data-seq="{seq}"]')


def test_games_list_shows_the_demo_games_and_searches_by_player(served, page):
    base, games = served
    page.goto(base + "/")
    links = page.locator("a.game-link")
    assert links.count() == len(games)
    page.fill("input[name=player]", "ewa")
    page.click("form.search button")
    assert page.locator("a.game-link").all_inner_texts() == ["Solo evening"]
    page.goto(base + "/?from=2026-11-21&to=2026-11-22")
    assert page.locator("a.game-link").all_inner_texts() == ["Solo evening"]


def test_replay_steps_with_keys_and_buttons_and_every_step_has_a_url(served, page):
    base, games = served
    game = games["Friday night, four players"]
    page.goto(base + "/")
    page.click("text=Friday night, four players")
    at(page, 0)
    assert current_seq(page) == 0

    page.keyboard.press("ArrowRight")
    at(page, 1)
    assert current_seq(page) == 1
    assert page.locator("#facts li.current").get_attribute("data-seq") == "1"
    assert game.recorded[0].fact.type in page.locator("#step-panel .fact h2").inner_text()

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, 3)
    page.keyboard.press("ArrowLeft")
    at(page, 2)
    assert current_seq(page) == 2

    page.keyboard.press("End")
    at(page, game.position)
    assert "Final result" in page.locator("#final-result").inner_text()
    assert all(name in page.locator("#final-result").inner_text() for name in ("Ada", "Bartek", "Chiara", "Dmitri"))
    page.keyboard.press("ArrowRight")  # at the end: stays
    assert current_seq(page) == game.position
    page.keyboard.press("Home")
    at(page, 0)

    page.click("#next")
    at(page, 1)
    page.click("#last")
    at(page, game.position)
    page.click("#prev")
    at(page, game.position - 1)

    page.go_back()
    at(page, game.position)
    assert current_seq(page) == game.position


def test_a_shared_step_url_opens_that_step_after_reload(served, browser, page):
    base, games = served
    game = games["Friday night, four players"]
    url = f"{base}/games/{game.id}/step/7"
    page.goto(url)
    text = page.locator("#step-panel").inner_text()
    assert current_seq(page) == 7
    page.reload()
    assert current_seq(page) == 7 and page.locator("#step-panel").inner_text() == text
    other = browser.new_context().new_page()
    other.goto(url)
    assert other.locator("#step-panel").inner_text() == text
    assert other.locator("#facts li.current").get_attribute("data-seq") == "7"
    other.context.close()


def test_as_played_view_shows_the_mistake_and_its_correction(served, page):
    base, games = served
    game = games["Club night (lenient, with a correction)"]
    void = next(r.fact for r in game.recorded if r.fact.type == "FactVoided")
    mistake = void.data["seqs"][0]
    page.goto(f"{base}/games/{game.id}/step/0")
    assert page.locator(f'#facts li[data-seq="{mistake}"]').count() == 0  # as corrected: it never happened
    page.click("text=as played")
    at(page, 0, "?view=played")
    page.wait_for_load_state()
    assert "flagged" in page.locator(f'#facts li[data-seq="{mistake}"]').get_attribute("class")  # lenient: stored, flagged
    page.click(f'#facts li[data-seq="{void.seq}"] a')
    at(page, void.seq, "?view=played")
    assert "FactVoided" in page.locator("#step-panel").inner_text()
    page.click(f'#facts li[data-seq="{mistake}"] a')
    at(page, mistake, "?view=played")
    assert "⚠" in page.locator("#step-panel .violations").inner_text()


@pytest.mark.parametrize("title, players", [
    ("Friday night, four players", ("Ada", "Bartek", "Chiara", "Dmitri")),
    ("Solo evening", ("Ewa",)),
])
def test_the_last_step_explains_every_verdict(served, page, title, players):
    base, games = served
    game = games[title]
    page.goto(f"{base}/games/{game.id}/step/{game.position}")
    rows = page.locator("#final-result tbody tr")
    assert rows.count() == len(players)
    for i, name in enumerate(players):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == name
        assert cells[1] in ("won", "lost")  # the demo games end with every verdict decided
        assert cells[5].strip()  # and say why
    assert "won" in page.locator("#final-result").inner_text()
