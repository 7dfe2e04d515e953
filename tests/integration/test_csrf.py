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


def test_api_scripts_need_no_token_with_or_without_cookies_but_cross_site_writes_are_refused(app, archive):
    script = app.test_client(use_cookies=False)
    r = script.post("/api/games", json={"ruleset": "lockdown", "mode": "solo", "players": [{"seat": 1, "name": "Ewa"}]})
    assert r.status_code == 201, r.get_json()
    facts = f"/api/games/{r.get_json()['id']}/facts"
    assert script.post(facts, json={"facts": [{"type": "BoardPrepared", "data": {"board": "basic"}}]}).status_code == 201
    # a form cannot send JSON: a text/plain body that looks like JSON is refused
    assert script.post(facts, data='{"facts": []}', content_type="text/plain").status_code == 400
    session = app.test_client()  # a script keeping cookies, after opening a page
    _token(session)
    body = {"facts": [{"type": "Commented", "data": {"text": "from a script"}}]}
    assert session.post(facts, json=body).status_code == 201
    r = script.post(facts, json=body, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403 and "another site" in r.get_json()["message"]
    assert script.post(facts, json=body, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 201
    # a write no route takes says so first (405), whatever the token
    assert script.post(facts.removesuffix("/facts")).status_code == 405
