"""The replay as a picture and a story, in Chromium: keys, moments, rounds, autoplay, swipe, perspectives, phones."""
from __future__ import annotations

import re

import pytest

from service.rules.story import tell
from tests.browser.test_replay import at, current_seq
from tests.helpers import SignedInHandler

pytestmark = pytest.mark.browser

FRIDAY = "Friday night, four players"
CLUB = "Club night (lenient, with a correction)"


def story_of(game):
    return tell(game.replay())


def test_the_log_tells_the_game_in_sentences_under_round_headings(served, page):
    base, games = served
    game = games[CLUB]
    page.goto(f"{base}/games/{game.id}/step/13")
    current = page.locator("#facts li.current")
    assert current.get_attribute("data-seq") == "13"
    assert "Greta (Sentry) explores the Cargo Sending System A" in current.inner_text()
    assert "Greta (Sentry) gets a slime marker." in current.locator("ul.sub").inner_text()  # a derived sub-line
    headings = page.locator("#facts li.heading").all_inner_texts()
    assert headings[:3] == ["SETUP", "ROUND 1 · PLAYER PHASE", "ROUND 1 · EVENT PHASE"]  # styled upper case
    assert "Greta (Sentry) explores" in page.locator("#step-panel .sentence").inner_text()
    # the current line is scrolled into view inside the log
    page.goto(f"{base}/games/{game.id}/step/200")
    box = page.locator("#facts").bounding_box()
    line = page.locator("#facts li.current").bounding_box()
    assert box["y"] <= line["y"] and line["y"] + line["height"] <= box["y"] + box["height"]


def test_k_and_shift_k_jump_between_key_moments_and_the_chapters_link_to_them(served, page):
    base, games = served
    game = games[FRIDAY]
    moments = sorted({seq for seq, _ in story_of(game).moments})
    page.goto(f"{base}/games/{game.id}/step/0")
    page.keyboard.press("k")
    at(page, moments[0])
    page.keyboard.press("k")
    at(page, moments[1])
    page.keyboard.press("Shift+K")
    at(page, moments[0])
    death = page.locator("#chapters li.death a").first
    assert "Chiara (Xenobiologist) dies" in death.inner_text()
    death.click()
    at(page, 144)
    assert "dies" in page.locator("#step-panel .moments").inner_text()
    assert page.locator(".marks .moment-mark.death").count() == 2  # marked on the timeline too
    page.locator('.marks .moment-mark.end').dispatch_event('click')  # marks may touch: the end one is asked for by name
    end = next(s for s, m in story_of(game).moments if m.kind == "end")
    at(page, end)


def test_r_and_a_number_or_the_select_jump_to_a_round(served, page):
    base, games = served
    game = games[FRIDAY]
    rounds = dict(story_of(game).rounds)
    page.goto(f"{base}/games/{game.id}/step/0")
    page.keyboard.press("r")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    at(page, rounds[3])
    assert "Round 3" in page.locator("#step-panel .where").inner_text()
    page.select_option("#round", str(rounds[5]))
    at(page, rounds[5])
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#round').value === '%d'" % rounds[5])


def test_space_plays_and_pauses_and_the_speed_can_change(served, page):
    base, games = served
    game = games[FRIDAY]
    page.goto(f"{base}/games/{game.id}/step/0")
    page.select_option("#speed", "8")
    page.keyboard.press(" ")
    page.wait_for_function("() => Number(document.querySelector('#step-panel').dataset.seq) >= 5")
    assert page.locator("#play").get_attribute("aria-pressed") == "true"
    page.keyboard.press(" ")
    page.wait_for_function("() => document.querySelector('#play').getAttribute('aria-pressed') === 'false'")
    page.wait_for_timeout(400)
    stopped = current_seq(page)
    page.wait_for_timeout(700)
    assert current_seq(page) == stopped
    assert page.url.endswith(f"/step/{stopped}")  # the URL followed
    page.locator("#play").click()  # the button too
    page.wait_for_function(f"() => Number(document.querySelector('#step-panel').dataset.seq) > {stopped}")
    page.keyboard.press("ArrowLeft")  # stepping by hand pauses
    assert page.locator("#play").get_attribute("aria-pressed") == "false"


def swipe(page, dx: int) -> None:
    page.evaluate("""dx => {
        const el = document.getElementById('stage');
        const at = (x, y) => new Touch({identifier: 1, target: el, clientX: x, clientY: y});
        el.dispatchEvent(new TouchEvent('touchstart', {touches: [at(200, 400)], changedTouches: [at(200, 400)], bubbles: true}));
        el.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [at(200 + dx, 410)], bubbles: true}));
    }""", dx)


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    yield page
    context.close()


def test_a_phone_swipes_through_steps_without_scrolling_sideways(served, phone):
    base, games = served
    game = games[FRIDAY]
    phone.goto(f"{base}/games/{game.id}/step/10")
    swipe(phone, -150)
    at(phone, 11)
    swipe(phone, -150)
    at(phone, 12)
    swipe(phone, 150)
    at(phone, 11)
    swipe(phone, -20)  # too short: no step
    phone.wait_for_timeout(300)
    assert current_seq(phone) == 11
    for seq in (0, 60, 144, game.position):
        for as_ in ("all", "public", "seat3"):
            phone.goto(f"{base}/games/{game.id}/step/{seq}?as={as_}")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390, (seq, as_)
    assert phone.locator(".transport").is_visible()


def test_the_page_is_at_most_two_screens_tall_on_a_laptop(served, page):
    base, games = served
    page.set_viewport_size({"width": 1280, "height": 800})
    for title, games_ in ((FRIDAY, games), (CLUB, games)):
        game = games_[title]
        for seq in (0, 100, game.position):
            page.goto(f"{base}/games/{game.id}/step/{seq}")
            assert page.evaluate("document.documentElement.scrollHeight") <= 1700, (title, seq)
            assert page.evaluate("document.documentElement.scrollWidth") <= 1280


def card(page, seat: int) -> str:
    return page.locator(f'#step-side .char[data-seat="{seat}"]').inner_text()


def test_perspectives_hide_and_reveal_an_objective_at_the_right_steps(served, page):
    base, games = served
    game = games[CLUB]  # Ada (seat 1) is dealt her objectives at #5 and survives locked in the Isolation Room
    secret = "Player X's character cannot survive"
    page.goto(f"{base}/games/{game.id}/step/4?as=seat1")
    assert "Objective" not in card(page, 1)  # not dealt yet
    page.keyboard.press("ArrowRight")
    at(page, 5, "?as=seat1")  # the URL keeps the perspective
    assert secret in card(page, 1)  # the owner sees it from the deal
    assert "secret" in card(page, 2) or "Objective" not in card(page, 2)
    page.goto(f"{base}/games/{game.id}/step/5?as=public")
    assert secret not in card(page, 1) and "secret objective" in card(page, 1)
    page.goto(f"{base}/games/{game.id}/step/5?as=seat2")
    assert secret not in card(page, 1)
    page.select_option("#as", "seat1")  # the select changes the perspective, same step
    at(page, 5, "?as=seat1")
    assert secret in card(page, 1)
    # the public learns it at the victory check, not one step before
    public = game.replay()
    end = next(s.seq for s in public.steps if s.state.ended)
    before = max(s.seq for s in public.steps if s.seq < end)
    page.goto(f"{base}/games/{game.id}/step/{before}?as=public")
    assert secret not in card(page, 1)
    page.keyboard.press("ArrowRight")
    at(page, end, "?as=public")
    assert secret in card(page, 1)
    page.keyboard.press("End")  # the victory check's facts recorded after the end decide the verdicts
    at(page, game.position, "?as=public")
    assert "won" in page.locator("#final-result").inner_text() and secret in card(page, 1)


def test_unexplored_rooms_and_tokens_stay_hidden_in_the_public_view(served, page):
    base, games = served
    game = games[CLUB]
    page.goto(f"{base}/games/{game.id}/step/12?as=public")
    assert "Cargo Sending System" not in page.locator("#step-panel").inner_text()
    page.locator("#step-details summary").click()
    page.wait_for_selector("#step-details dl.kv")
    assert "Cargo Sending System" not in page.locator("#step-details").inner_text()
    assert "face-down" in page.locator("#facts li#s6").inner_text()
    page.goto(f"{base}/games/{game.id}/step/12?as=all")
    assert "Cargo Sending System A" in page.locator("#step-panel").inner_text()
    assert "Save everyone" in page.locator("#facts li#s6").inner_text()


def test_a_game_in_play_shows_only_the_public_view(served, page):
    base, _ = served
    api = {"Authorization": f"Bearer {SignedInHandler.served['token']}"}  # an API client signs with its token, not the page's cookie
    r = page.request.post(f"{base}/api/games", headers=api, data={
        "ruleset": "lockdown", "mode": "standard", "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}],
        "options": {"board": "synthetic"}, "title": "Still playing"})
    assert r.ok, r.text()
    gid = r.json()["id"]
    facts = [{"type": "BoardPrepared", "data": {"board": "synthetic"}},
             {"type": "CharacterChosen", "actor": 1, "data": {"character": "hacker"}},
             {"type": "ObjectivesDealt", "actor": 1, "data": {"objectives": ["send_signal", "nest_destroyed"]}}]
    r = page.request.post(f"{base}/api/games/{gid}/facts", headers=api, data={"expected_position": 0, "facts": facts})
    assert r.ok, r.text()
    page.goto(f"{base}/games/{gid}/step/3")
    assert page.locator("#as option").all_inner_texts() == ["Public (the table)"]
    assert "send" not in card(page, 1).lower()
    for as_ in ("all", "seat1"):
        resp = page.goto(f"{base}/games/{gid}/step/3?as={as_}")
        assert resp.status == 403 and "still being played" in page.locator("main").inner_text()
    resp = page.goto(f"{base}/games/{gid}/step/3?as=seat9")
    assert resp.status == 400 and "no perspective 'seat9'" in page.locator("main").inner_text()


def test_as_played_strikes_voided_facts_through(served, page):
    base, games = served
    game = games[CLUB]
    void = next(r.fact for r in game.recorded if r.fact.type == "FactVoided")
    mistake = void.data["seqs"][0]
    page.goto(f"{base}/games/{game.id}/step/{mistake}?view=played")
    line = page.locator(f"#facts li#s{mistake}")
    assert "voided" in line.get_attribute("class") and f"voided by correction #{void.seq}" in line.inner_text()
    assert page.locator(f"#facts li#s{mistake} .text").evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    assert "did not happen" in page.locator(f"#facts li#s{void.seq}").inner_text()
    assert re.search(r"Correction #\d+ later voids", page.locator("#step-panel").inner_text())
