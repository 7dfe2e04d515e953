"""The recording API end to end over a real PostgreSQL: create, append, read, correct, errors."""
from __future__ import annotations

import pytest

from service.rules import Fact, get_ruleset
from service.rules.replay import fold
from tests.helpers import generated

LOCKDOWN = get_ruleset("lockdown")


@pytest.fixture
def client(archive):
    from web import create_app

    return create_app({"ARCHIVE": archive, "TESTING": True}).test_client()


def create(client, header=None, **overrides):
    header = dict(header or generated()[0], **overrides)
    r = client.post("/api/games", json=header)
    assert r.status_code == 201, r.json
    return r.json["id"]


def append(client, gid, facts, **body):
    return client.post(f"/api/games/{gid}/facts", json={"facts": facts, **body})


def stored_count(archive, gid) -> int:
    with archive.db.connect() as conn:
        return conn.execute("SELECT count(*) FROM games_events WHERE originator_id = %s", (gid,)).fetchone()[0]


def test_create_append_and_read_back(client, archive):
    header, facts = generated(seed=3)
    gid = create(client, header)
    r = append(client, gid, facts[:8], expected_position=0, command_id="t1-1", recorder="tablet")
    assert r.status_code == 201
    assert (r.json["first_seq"], r.json["last_seq"], r.json["position"]) == (1, 8, 8)
    r = append(client, gid, facts[8:12], expected_position=8, command_id="t1-2")
    assert r.json["position"] == 12

    got = client.get(f"/api/games/{gid}/facts?from=5").json
    assert [f["seq"] for f in got["facts"]] == list(range(6, 13))
    assert got["facts"][0]["type"] == facts[5]["type"] and got["facts"][0]["data"] == facts[5]["data"]
    assert client.get(f"/api/games/{gid}").json["position"] == 12

    # state at step N is the ruleset's fold of the first N facts
    header_setup = archive.games.get_game(__import__("uuid").UUID(gid)).setup
    expected = fold(LOCKDOWN, header_setup, [Fact(i + 1, f["type"], f["data"], f["actor"]) for i, f in enumerate(facts[:7])])
    state = client.get(f"/api/games/{gid}/state?step=7").json
    assert state["seq"] == 7
    assert state["state"] == LOCKDOWN.describe(expected.head.state)
    assert state["position"] == LOCKDOWN.position(expected.head.state)


def test_a_retried_command_is_answered_with_the_original_result_and_stored_once(client, archive):
    header, facts = generated(seed=4)
    gid = create(client, header)
    first = append(client, gid, facts[:5], expected_position=0, command_id="retry-me")
    again = append(client, gid, facts[:5], expected_position=0, command_id="retry-me")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json["replayed"] is True
    assert (again.json["first_seq"], again.json["last_seq"]) == (1, 5)
    assert stored_count(archive, gid) == 1 + 5


def test_a_command_id_reused_for_other_facts_is_a_conflict(client, archive):
    header, facts = generated(seed=5)
    gid = create(client, header)
    append(client, gid, facts[:3], command_id="c1")
    r = append(client, gid, facts[3:4], command_id="c1")
    assert r.status_code == 409
    assert r.json["field"] == "command_id"
    assert stored_count(archive, gid) == 1 + 3


def test_a_stale_expected_position_gets_409_with_the_current_position(client, archive):
    header, facts = generated(seed=6)
    gid = create(client, header)
    append(client, gid, facts[:4], expected_position=0)
    r = append(client, gid, facts[4:6], expected_position=2)
    assert r.status_code == 409
    assert r.json["position"] == 4
    assert stored_count(archive, gid) == 1 + 4




def test_strict_game_refuses_an_illegal_fact_and_stores_nothing_of_its_batch(client, archive):
    header, facts = generated(seed=7)
    gid = create(client, header)
    n = 5
    append(client, gid, facts[:n], expected_position=0)
    state = client.get(f"/api/games/{gid}/state").json
    while state["position"]["acting"] is None or state["position"]["phase"] != "player":  # past the setup records
        append(client, gid, facts[n:n + 1], expected_position=n)
        n += 1
        state = client.get(f"/api/games/{gid}/state").json
    acting = state["position"]["acting"]
    assert acting is not None
    other = next(p["seat"] for p in header["players"] if p["seat"] != acting)
    legal = facts[n]
    illegal = {"type": "Passed", "actor": other, "data": {}}
    r = append(client, gid, [legal, illegal], expected_position=n)
    assert r.status_code == 422, r.json
    body = r.json
    assert body["index"] == 1 and body["seq"] == n + 2
    v = body["violations"][0]
    assert v["rule"] and v["message"] and v["section"]
    assert stored_count(archive, gid) == 1 + n
    # the refused batch left no trace in the cached game either
    r = append(client, gid, [legal], expected_position=n)
    assert r.status_code == 201 and r.json["position"] == n + 1


def test_lenient_game_stores_an_illegal_fact_with_its_flag(client, archive):
    header, facts = generated(seed=7)
    gid = create(client, header, strict=False)
    append(client, gid, facts[:5])
    acting = client.get(f"/api/games/{gid}/state").json["position"]["acting"]
    other = next(p["seat"] for p in header["players"] if p["seat"] != acting)
    r = append(client, gid, [{"type": "Passed", "actor": other, "data": {}}])
    assert r.status_code == 201
    assert r.json["flagged"][0]["seq"] == 6
    step = client.get(f"/api/games/{gid}/state?step=6").json
    assert step["violations"] and not step["violations"][0]["shape"]


def test_a_malformed_fact_is_refused_even_in_a_lenient_game(client, archive):
    header, facts = generated(seed=8)
    gid = create(client, header, strict=False)
    r = append(client, gid, [{"type": "Teleported", "actor": 1, "data": {}}])
    assert r.status_code == 422
    assert r.json["violations"][0]["shape"] is True
    assert stored_count(archive, gid) == 1


def test_corrections_void_and_replace_without_changing_history(client, archive):
    header, facts = generated(seed=9)
    gid = create(client, header)
    append(client, gid, facts[:6])
    played_before = client.get(f"/api/games/{gid}/facts?view=played").json["facts"]
    r = append(client, gid, [{"type": "FactReplaced", "data": {"seq": 6, "replacement": facts[5], "reason": "same again"}}])
    assert r.status_code == 201
    r = append(client, gid, [{"type": "FactVoided", "data": {"seqs": [6], "reason": "did not happen"}}])
    assert r.status_code == 201
    corrected = client.get(f"/api/games/{gid}/facts").json["facts"]
    played = client.get(f"/api/games/{gid}/facts?view=played").json["facts"]
    assert [f["seq"] for f in corrected] == [1, 2, 3, 4, 5]
    assert [f["seq"] for f in played] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert played[:6] == played_before
    # the state "as corrected" at the head is the state after fact 5
    head = client.get(f"/api/games/{gid}/state").json
    at5 = client.get(f"/api/games/{gid}/state?step=5").json
    assert head["state"] == at5["state"]
    r = append(client, gid, [{"type": "FactVoided", "data": {"seqs": [99]}}])
    assert r.status_code == 422 and r.json["violations"][0]["field"] == "data.seqs[0]"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"mode": "standard", "players": [{"seat": 1, "name": "A"}]}, "ruleset"),
        ({"ruleset": "chess", "players": [{"seat": 1, "name": "A"}]}, "ruleset"),
        ({"ruleset": "lockdown", "players": [{"seat": 1, "name": "A"}, {"seat": 1, "name": "B"}]}, "players"),
        ({"ruleset": "lockdown", "players": []}, "players"),
        ({"ruleset": "lockdown", "mode": "chaos", "players": [{"seat": 1, "name": "A"}]}, "mode"),
        ({"ruleset": "lockdown", "players": [{"seat": "one", "name": "A"}]}, "players.0.seat"),
        ({"ruleset": "lockdown", "players": [{"seat": 1, "name": "A"}], "options": {"board": "moon"}}, "options"),
        ({"ruleset": "lockdown", "players": [{"seat": 1, "name": "A"}], "options": {"characters": "klingon"}}, "options"),
        ({"ruleset": "lockdown", "mode": "solo", "players": [{"seat": 1, "name": "A"}, {"seat": 2, "name": "B"}]}, "players"),
        ({"ruleset": "lockdown", "players": [{"seat": 1, "name": "A"}], "options": {"scoring": {"knowledge_plan_threshold": "x"}}}, "options"),
        ({"ruleset": "lockdown", "players": [{"seat": 1, "name": "A"}], "options": {"scoring": {"nonsense": 1}}}, "options"),
    ],
)
def test_a_bad_header_is_a_400_naming_the_field(client, body, field):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400
    assert field in r.json["fields"], r.json


def test_caller_mistakes_are_json_4xx_never_500(client):
    gid = create(client)
    assert client.post("/api/games", data="{nope", content_type="application/json").status_code == 400
    r = client.post(f"/api/games/{gid}/facts", data="[1,", content_type="application/json")
    assert r.status_code == 400 and r.json["message"]
    r = client.get("/api/games/2b1c3f8e-0000-4000-8000-000000000000")
    assert r.status_code == 404 and r.json["error"] == "GameNotFound"
    assert client.get("/api/games/not-a-uuid").status_code == 400
    assert client.post(f"/api/games/{gid}/facts", json={"facts": []}).status_code == 400
    assert client.post(f"/api/games/{gid}/facts", json={"facts": [{"actor": 1}]}).json["fields"]["facts.0.type"]
    assert client.get(f"/api/games/{gid}/state?step=-1").status_code == 400
    r = client.delete(f"/api/games/{gid}")
    assert r.status_code == 405 and r.is_json
    assert client.get("/api/nowhere").status_code == 404


def test_openapi_document_describes_the_api(client):
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    assert {"/api/games", "/api/games/{game_id}/facts", "/api/games/{game_id}/state"} <= set(doc["paths"])
    assert "422" in doc["paths"]["/api/games/{game_id}/facts"]["post"]["responses"]
    assert "players" in doc["components"]["schemas"]["GameHeader"]["properties"]


@pytest.mark.parametrize(
    "body",
    [
        {"facts": "not a list"},
        {"facts": [{"type": "Passed", "data": "x"}]},
        {"facts": [{"type": "Passed", "actor": True}]},
        {"facts": [{"type": "Passed", "actor": "1"}]},
        {"facts": [{"type": "Passed", "visibility": "secret"}]},
        {"facts": [{"type": ""}]},
        {"facts": [{"type": "x" * 200}]},
        {"facts": [["Passed"]]},
        {"facts": [{"type": "Passed"}], "expected_position": "3"},
        {"facts": [{"type": "Passed"}], "expected_position": -1},
        {"facts": [{"type": "Passed"}], "command_id": 5},
        {"facts": [{"type": "Passed"}], "surprise": 1},
        {"facts": [{"type": "Passed"}] * 501},
        {"facts": [{"type": "CharacterMoved", "actor": 1, "data": {"to_room": ["a"], "corridor": {"n": 1}}}]},
        {"facts": [{"type": "FactReplaced", "data": {"seq": "one", "replacement": "x"}}]},
        {"facts": [{"type": "FactVoided", "data": {"seqs": [True]}}]},
        [],
        "just a string",
    ],
)
def test_malformed_appends_are_4xx_and_store_nothing(client, archive, body):
    gid = create(client)
    r = client.post(f"/api/games/{gid}/facts", json=body)
    assert 400 <= r.status_code < 500, r.json
    assert r.is_json and r.json["message"]
    assert stored_count(archive, gid) == 1


def test_the_state_of_an_ended_game_names_its_ending_and_end_effects(client):
    """The result over the API says how the game ended and which end-of-game effects applied (seed 000
    L1603–1638): ``ending`` and ``effects`` (time_out, alarm_procedure or base_destroyed)."""
    header, facts = generated(seed=3)
    assert facts[-1]["type"] == "GameEnded"
    facts[-1] = {**facts[-1], "data": {"ending": "alarm_procedure"}}  # the table records how it ended
    gid = create(client, header)
    assert append(client, gid, facts).status_code == 201
    result = client.get(f"/api/games/{gid}/state").json["result"]
    assert (result["ending"], result["effects"]) == ("alarm_procedure", "alarm_procedure")
    abandoned = create(client, header)
    assert append(client, abandoned, generated(seed=3)[1]).status_code == 201
    result = client.get(f"/api/games/{abandoned}/state").json["result"]
    assert (result["ending"], result["effects"]) == ("abandoned", None)
