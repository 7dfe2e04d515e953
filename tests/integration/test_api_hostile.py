"""Hostile input at the API: each is a clear 4xx naming the field, never a 500, and nothing is stored."""
from __future__ import annotations

import json

import pytest

from service import hygiene
from tests.helpers import generated
from tests.integration.test_api import append, create, stored_count


@pytest.fixture
def client(archive):
    from web import create_app

    app = create_app({"ARCHIVE": archive})  # not TESTING: an unexpected exception is a 500, as served
    return app.test_client()


def post_raw(client, url, text: str):
    return client.post(url, data=text.encode("utf-8", "surrogatepass"), content_type="application/json")


def header(**overrides):
    h = dict(generated(seed=2, players=2)[0])
    h.update(overrides)
    return h


def refused(r, field, status=400):
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.is_json and r.json["error"] and r.json["message"]
    assert r.json.get("field") == field or field in r.json.get("fields", {}), r.json
    return r.json


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"title": "Friday\u0000night"}, "title"),
        ({"league": "\u0000"}, "league"),
        ({"players": [{"seat": 1, "name": "A\u0000"}, {"seat": 2, "name": "B"}]}, "players[0].name"),
        ({"tags": ["ok", "b\u0000d"]}, "tags[1]"),
        ({"options": {"board": "basic", "x\u0000": 1}}, "options"),
    ],
)
def test_nul_in_a_header_is_refused_naming_the_field(client, overrides, field):
    body = refused(client.post("/api/games", json=header(**overrides)), field)
    assert "NUL" in body["message"]


def test_nul_in_fact_data_is_refused_naming_the_json_path(client, archive):
    gid = create(client, header())
    r = append(client, gid, [{"type": "GameEnded", "data": {"ending": "abandoned", "note": "bad\u0000note"}}])
    refused(r, "facts[0].data.note")
    assert stored_count(archive, gid) == 1


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "x\\udc00y"])
def test_a_lone_surrogate_is_refused(client, archive, escape):
    text = json.dumps(header())[:-1] + f', "title": "{escape}"' + "}"
    body = refused(post_raw(client, "/api/games", text), "title")
    assert "surrogate" in body["message"]
    gid = create(client, header())
    text = '{"facts":[{"type":"GameEnded","data":{"ending":"abandoned","note":"' + escape + '"}}]}'
    refused(post_raw(client, f"/api/games/{gid}/facts", text), "facts[0].data.note")
    assert stored_count(archive, gid) == 1


def test_a_surrogate_pair_is_an_ordinary_character(client):
    text = json.dumps(header())[:-1] + ', "title": "dice \\ud83c\\udfb2"}'
    r = post_raw(client, "/api/games", text)
    assert r.status_code == 201 and r.json["title"] == "dice \U0001f3b2"


@pytest.mark.parametrize(
    "url, field",
    [
        ("/api/games?player=a%00b", "player"),
        ("/api/games?ruleset=%00", "ruleset"),
        ("/api/players?player=%00", "player"),
        ("/api/games?offset=99999999999999999999", "offset"),
        ("/api/games?offset=2147483648", "offset"),
        ("/api/games?limit=99999999999999999999", "limit"),
        ("/api/games?player=" + "x" * 201, "player"),
    ],
)
def test_hostile_query_parameters_are_400(client, url, field):
    refused(client.get(url), field)


def test_hostile_parameters_on_a_game(client):
    gid = create(client, header())
    refused(client.get(f"/api/games/{gid}/state?step=99999999999999999999999"), "step")
    refused(client.get(f"/api/games/{gid}/facts?from=99999999999999999999999"), "from")
    refused(client.get(f"/api/games/{gid}/facts?view=%00"), "view")
    refused(client.get("/api/games/%00"), "game_id")
    refused(client.get("/api/boards/%00/corridors"), "board")
    assert client.get("/games/%00").status_code == 400  # the HTML pages share the check


@pytest.mark.parametrize("depth", [33, 1000, 100_000])
def test_deep_nesting_is_refused(client, archive, depth):
    r = post_raw(client, "/api/games", "[" * depth + "]" * depth)
    assert r.status_code == 400 and "nested too deeply" in r.json["message"]
    gid = create(client, header())
    data = '{"a":' * depth + "1" + "}" * depth
    r = post_raw(client, f"/api/games/{gid}/facts", '{"facts":[{"type":"GameEnded","data":' + data + "}]}")
    assert r.status_code == 400 and "nested too deeply" in r.json["message"]
    assert stored_count(archive, gid) == 1


@pytest.mark.parametrize(
    "text, field",
    [
        ('{"facts":[{"type":"GameEnded","data":{"ending":NaN}}]}', "facts[0].data.ending"),
        ('{"facts":[{"type":"GameEnded","data":{"ending":Infinity}}]}', "facts[0].data.ending"),
        ('{"facts":[{"type":"GameEnded","data":{"ending":1e400}}]}', "facts[0].data.ending"),
        ('{"facts":[{"type":"GameEnded","data":{"ending":9007199254740992}}]}', "facts[0].data.ending"),
        ('{"facts":[{"type":"GameEnded","data":{"ending":' + "9" * 5000 + "}}]}", "body"),
    ],
)
def test_numbers_json_cannot_carry_are_refused(client, archive, text, field):
    gid = create(client, header())
    refused(post_raw(client, f"/api/games/{gid}/facts", text), field)
    assert stored_count(archive, gid) == 1


def test_a_body_over_a_megabyte_is_a_json_413(client, archive):
    gid = create(client, header())
    note = "x" * (hygiene.MAX_BODY_BYTES + 1)
    r = append(client, gid, [{"type": "GameEnded", "data": {"ending": "abandoned", "note": note}}])
    assert r.status_code == 413 and r.is_json
    assert r.json["error"] == "RequestEntityTooLarge" and "1,048,576" in r.json["message"]
    assert stored_count(archive, gid) == 1


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"title": "t" * (hygiene.MAX_TITLE + 1)}, "title"),
        ({"tags": ["t"] * (hygiene.MAX_TAGS + 1)}, "tags"),
        ({"tags": ["t" * (hygiene.MAX_TAG + 1)]}, "tags.0"),
        ({"tags": ["   "]}, "tags.0"),
        ({"players": [{"seat": 1, "name": "n" * (hygiene.MAX_NAME + 1)}]}, "players.0.name"),
        ({"players": [{"seat": 1, "name": "  "}]}, "players.0.name"),
        ({"options": {"board": "basic", "x": "y" * (hygiene.MAX_TEXT + 1)}}, "options.x"),
        ({"strict": 0}, "strict"),
        ({"strict": "false"}, "strict"),
    ],
)
def test_header_limits(client, overrides, field):
    refused(client.post("/api/games", json=header(**overrides)), field)


def test_note_and_fact_text_limits(client, archive):
    gid = create(client, header())
    long_note = "n" * (hygiene.MAX_TEXT + 1)
    r = append(client, gid, [{"type": "GameEnded", "data": {"ending": "abandoned", "note": long_note}}])
    body = refused(r, "facts[0].data.note")
    assert "2,000" in body["message"]
    r = append(client, gid, [{"type": "GameEnded", "data": {"seqs": list(range(hygiene.MAX_ITEMS + 1))}}])
    refused(r, "facts[0].data.seqs")
    assert stored_count(archive, gid) == 1
    r = append(client, gid, [{"type": "GameEnded", "data": {"ending": "abandoned", "note": "n" * hygiene.MAX_TEXT}}])
    assert r.status_code == 201


def test_a_null_optional_field_is_treated_as_absent(client, archive):
    hdr, facts = generated(seed=7)
    gid = create(client, hdr)
    n = 0
    while True:  # up to the first player action
        state = client.get(f"/api/games/{gid}/state").json
        if state["position"]["phase"] == "player" and state["position"]["acting"] is not None:
            break
        assert append(client, gid, facts[n:n + 1]).status_code == 201
        n += 1
    acting = state["position"]["acting"]
    r = append(client, gid, [{"type": "Passed", "actor": acting, "data": {"discarded": None}}])
    assert r.status_code == 201, r.json
    assert stored_count(archive, gid) == 1 + n + 1


def test_405_says_which_methods_are_allowed(client):
    gid = create(client, header())
    r = client.delete(f"/api/games/{gid}")
    assert r.status_code == 405 and r.is_json
    assert set(r.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD"}
    r = client.put("/api/games")
    assert r.status_code == 405 and {"GET", "POST"} <= set(r.headers["Allow"].replace(" ", "").split(","))


def test_an_unreachable_database_is_a_503_with_retry_after(pg_server, fresh_database):
    """Nothing the caller did wrong, nothing stored: 503 and when to come back, not a 500."""
    from service.archive import Games
    from service.db import drop_database
    from service.recorder import fail_fast_env
    from web import create_app

    class Shim:  # an Archive whose database goes away under it
        db = fresh_database
        games = Games(env=fresh_database.eventsourcing_env(**fail_fast_env()))

    client = create_app({"ARCHIVE": Shim}).test_client()
    gid = create(client, header())
    drop_database(pg_server, fresh_database.name)
    try:
        r = client.post(f"/api/games/{gid}/facts", json={"facts": [{"type": "BoardPrepared", "data": {"board": "basic"}}]})
        assert r.status_code == 503 and r.is_json, r.get_data(as_text=True)
        assert r.json["error"] == "DatabaseUnavailable" and int(r.headers["Retry-After"]) > 0
    finally:
        Shim.games.close()
