"""A whole game recorded through the recorder's page equals the same game imported from notation; and the guided
event phase: derived steps recorded for you, the steps shown in rulebook order, the server preview."""
from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.request

import pytest

from service.demo import HERE as DEMO_DIR
from tests.browser.recorder_driver import Driver, create_game, event_phases, read_notation, standing
from tests.helpers import SignedInHandler

pytestmark = pytest.mark.browser


def _get(url: str) -> dict:
    with urllib.request.urlopen(url) as r:
        return json.load(r)


def _as_a_browser(base: str, game_id: str):
    """A client that opened the recorder first, as a browser does: its CSRF cookie and the page's token
    (the preview is a form route: decision 0017)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), SignedInHandler())
    with opener.open(f"{base}/games/{game_id}/record") as r:
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', r.read().decode()).group(1)
    return opener, token


def test_the_solo_game_recorded_by_tapping_equals_its_import(served, browser, record_property):
    base, games = served
    imported = games["Solo evening"]
    header, facts = read_notation(DEMO_DIR / "solo-evening.jsonl")
    facts, left_out = standing(facts)
    assert left_out == 0
    game_id = create_game(base, {**header, "title": "Solo evening, recorded by tapping"})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/record")
    d = Driver(page)
    for seq, fact in enumerate(facts, start=1):
        d.record(seq, fact, facts[seq:seq + 3])
    # the facts, in order, and the result equal the imported game's
    recorded = _get(f"{base}/api/games/{game_id}/facts?view=played")["facts"]
    original = _get(f"{base}/api/games/{imported.id}/facts?view=played")["facts"]
    strip = lambda fs: [(f["type"], f["actor"], f["data"]) for f in fs]  # noqa: E731
    assert strip(recorded) == strip(original)
    mine = _get(f"{base}/api/games/{game_id}/state")
    theirs = _get(f"{base}/api/games/{imported.id}/state")
    assert mine["result"] == theirs["result"] and mine["result"]["players"][0]["outcome"] == "won"
    assert mine["state"] == theirs["state"]
    # derived steps cost nothing: the time token, the clean-up and the first player token of every round
    auto = {t for _, t, _, a in d.tally.per_fact if a}
    assert {"TimeAdvanced", "NoiseMarkersCleared", "FirstPlayerPassed"} <= auto
    phases = event_phases(facts)
    per = {seq: n for seq, _, n, _ in d.tally.per_fact}
    costs = [sum(per[s] for s in range(a, b + 1)) for a, b in phases]
    record_property("inputs_per_fact", f"{d.tally.inputs}/{d.tally.facts}")
    print(f"\nsolo game: {d.tally.inputs} inputs for {d.tally.facts} facts = {d.tally.inputs / d.tally.facts:.2f} per "
          f"fact; event phases {costs}")
    # in every event phase: the derived steps cost nothing, the event card and the colony token one tap each
    kinds = {t: {n for _, t2, n, _ in d.tally.per_fact if t2 == t} for t in
             ("TimeAdvanced", "NoiseMarkersCleared", "FirstPlayerPassed", "EventCardDrawn", "ColonyTokenDrawn")}
    assert kinds["TimeAdvanced"] == kinds["NoiseMarkersCleared"] == kinds["FirstPlayerPassed"] == {0}
    assert kinds["EventCardDrawn"] == kinds["ColonyTokenDrawn"] == {1}
    assert d.tally.inputs / d.tally.facts <= 1.5
    context.close()


def test_the_event_phase_is_one_guided_sequence(served, browser):
    """From the last pass: the time token and the clean-up are recorded for you, the steps are listed in rulebook
    order with the current one marked, and the event card is asked at once (one tap records it)."""
    base, _ = served
    header, facts = read_notation(DEMO_DIR / "solo-evening.jsonl")
    game_id = create_game(base, {**header, "title": "Guided event phase"})
    first_event = next(i for i, f in enumerate(facts) if f["type"] == "TimeAdvanced")
    body = {"facts": facts[:first_event], "expected_position": 0, "command_id": "guided-event-phase-setup"}
    req = urllib.request.Request(f"{base}/api/games/{game_id}/facts", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/record")
    d = Driver(page)
    # time and clean-up go in by themselves, and the page stops at the event card, its form open
    d.wait_position(first_event + 2)
    stored = _get(f"{base}/api/games/{game_id}/facts?view=played")["facts"]
    assert [f["type"] for f in stored[-2:]] == ["TimeAdvanced", "NoiseMarkersCleared"]
    assert stored[-1]["data"] == facts[first_event + 1]["data"]  # the markers the rules remove
    steps = page.locator("#procedure li")
    assert steps.count() == 7
    assert page.locator("#procedure li.step-now").get_attribute("data-fact") == "EventCardDrawn"
    assert page.locator("#procedure li.step-done").count() == 4  # CSS (not due), time, clean-up, attacks (none)
    assert "Recorded for you" in page.locator("#message").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the steps wrap on a phone
    form = page.locator("form.fact-form:not([hidden])")
    assert form.get_attribute("data-type") == "EventCardDrawn"
    card = facts[first_event + 2]
    d.record(first_event + 3, card)  # one tap: the card; its printed corridors come with it
    assert d.tally.per_fact[-1][2] == 1
    assert _get(f"{base}/api/games/{game_id}/facts?view=played")["facts"][-1]["data"] == card["data"]
    context.close()


def test_preview_shows_the_offers_after_queued_facts_without_storing_them(served, browser):
    base, _ = served
    header, facts = read_notation(DEMO_DIR / "solo-evening.jsonl")
    game_id = create_game(base, {**header, "title": "Preview"})
    body = json.dumps({"facts": facts[:2]}).encode()
    req = urllib.request.Request(f"{base}/games/{game_id}/record/preview", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as e:  # without the page's token: refused
        urllib.request.urlopen(req)
    assert e.value.code == 403
    client, token = _as_a_browser(base, game_id)
    req.add_header("X-CSRF-Token", token)
    with client.open(req) as r:
        html = r.read().decode()
    assert 'data-position="0"' in html and 'data-preview="2"' in html
    assert 'data-type="ObjectivesDealt"' in html and 'data-type="CharacterChosen"' not in html  # after the choice
    assert _get(f"{base}/api/games/{game_id}")["position"] == 0  # nothing stored
    bad = json.dumps({"facts": [facts[1]]}).encode()  # a character before the board: refused, naming it
    req = urllib.request.Request(f"{base}/games/{game_id}/record/preview", data=bad, method="POST",
                                 headers={"Content-Type": "application/json", "Accept": "application/json",
                                          "X-CSRF-Token": token})
    with pytest.raises(urllib.error.HTTPError) as e:
        client.open(req)
    assert e.value.code == 422 and "CharacterChosen" in e.value.read().decode()
    # the page uses it: offline, a queued fact's next offers come from the preview once the server answers again
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/record")
    page.route("**/api/games/*/facts", lambda route: route.abort())  # appends fail; the page itself is reachable
    page.click("form.fact-form:not([hidden]) .confirm")  # the board (asked at once: the only next step)
    page.wait_for_selector("#panel[data-preview='1']")
    assert page.locator("#recent li.queued").count() == 1
    assert page.locator('#offers button.offer[data-type="CharacterChosen"]').count() == 1
    page.unroute("**/api/games/*/facts")
    page.wait_for_selector("#recorder[data-idle=yes] #panel[data-position='1'][data-preview='0']")
    context.close()


def test_derived_steps_queued_before_a_reload_are_not_recorded_again(served, browser):
    """The time token and the clean-up are recorded for you while appends fail; after a reload the page shows the
    stored game (its sole step: the time token, already queued) and must wait for the preview after the queue."""
    base, _ = served
    header, facts = read_notation(DEMO_DIR / "solo-evening.jsonl")
    game_id = create_game(base, {**header, "title": "Derived steps across a reload"})
    first_event = next(i for i, f in enumerate(facts) if f["type"] == "TimeAdvanced")
    body = {"facts": facts[:first_event], "expected_position": 0, "command_id": "derived-across-reload"}
    req = urllib.request.Request(f"{base}/api/games/{game_id}/facts", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).close()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.route("**/api/games/*/facts", lambda route: route.abort())  # appends fail; the pages load
    page.goto(f"{base}/games/{game_id}/record")
    page.wait_for_selector("#panel[data-preview='2']")  # time and clean-up queued, the event card asked
    queue = "() => JSON.parse(localStorage.getItem('nemesis-recorder-queue:%s')).map(e => e.fact.type)" % game_id
    assert page.evaluate(queue) == ["TimeAdvanced", "NoiseMarkersCleared"]
    page.reload()
    page.wait_for_selector("#panel[data-preview='2']")
    assert page.evaluate(queue) == ["TimeAdvanced", "NoiseMarkersCleared"]  # nothing recorded twice
    assert page.locator("form.fact-form:not([hidden])").get_attribute("data-type") == "EventCardDrawn"
    page.unroute("**/api/games/*/facts")
    page.wait_for_selector(f"#recorder[data-idle=yes] #panel[data-position='{first_event + 2}']")
    stored = _get(f"{base}/api/games/{game_id}/facts?view=played")["facts"]
    assert [f["type"] for f in stored[first_event:]] == ["TimeAdvanced", "NoiseMarkersCleared"]
    context.close()
