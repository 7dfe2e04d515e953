"""Cross-site request forgery (decision 0017): forms need the page's token; cookie-less API scripts need none."""
from __future__ import annotations

import re

import pytest


@pytest.fixture
def app(archive):
    from web import create_app

    return create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None})


def _token(client) -> str:
    page = client.get("/games/new").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


NEW = {"ruleset": "lockdown", "mode": "standard", "strict": "strict", "board": "basic", "characters": "lockdown",
       "intruders": "night_stalkers", "played_on": "2026-11-20", "title": "CSRF", "league": "", "tags": "",
       "player-0": "Ada", "seat-0": "1", "player-1": "Bo", "seat-1": "2"}


def test_a_form_post_needs_the_token_of_the_page_it_came_from(app, archive):
    client = app.test_client()
    r = client.post("/games/new", data=NEW)  # no cookie, no token: a forged post
    assert r.status_code == 403 and "security token" in r.get_data(as_text=True)
    token = _token(client)
    cookie = client.get_cookie("nemesis_csrf")
    assert cookie.value == token and cookie.http_only and cookie.same_site == "Strict"
    assert client.post("/games/new", data={**NEW, "csrf_token": "x" * 43}).status_code == 403  # a guessed one
    other = app.test_client()  # another browser's token does not fit this browser's cookie
    assert client.post("/games/new", data={**NEW, "csrf_token": _token(other)}).status_code == 403
    r = client.post("/games/new", data={**NEW, "csrf_token": token})
    assert r.status_code == 303 and "/record" in r.headers["Location"]
    assert _token(client) == token  # the cookie stays: pages opened later share it
    r = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert r.status_code == 403  # the import form too


def test_api_scripts_without_cookies_need_no_token_but_a_browser_with_the_cookie_does(app, archive):
    script = app.test_client(use_cookies=False)
    r = script.post("/api/games", json={"ruleset": "lockdown", "mode": "solo", "players": [{"seat": 1, "name": "Ewa"}]})
    assert r.status_code == 201, r.get_json()
    facts = f"/api/games/{r.get_json()['id']}/facts"
    assert script.post(facts, json={"facts": [{"type": "BoardPrepared", "data": {"board": "basic"}}]}).status_code == 201
    # a form cannot send JSON: a text/plain body that looks like JSON is refused
    assert script.post(facts, data='{"facts": []}', content_type="text/plain").status_code == 400
    browser = app.test_client()
    token = _token(browser)
    body = {"facts": [{"type": "Commented", "data": {"text": "from the recorder"}}]}
    r = browser.post(facts, json=body)
    assert r.status_code == 403 and "X-CSRF-Token" in r.get_json()["message"]
    assert browser.post(facts, json=body, headers={"X-CSRF-Token": token}).status_code == 201
    r = script.post(facts, json=body, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    assert script.post(facts, json=body, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 201
