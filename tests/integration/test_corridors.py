"""Learned corridors end to end: strict games on the basic board, the "corridors" read model, API and page."""
from __future__ import annotations

import pytest

from projections import queries
from projections.runner import rebuild

HEADER = {"ruleset": "lockdown", "mode": "standard", "strict": True, "options": {"board": "basic"},
          "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}]}
SETUP = [
    {"type": "BoardPrepared", "data": {"board": "basic"}},
    {"type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}},  # Isolation Room
    {"type": "CharacterChosen", "actor": 2, "data": {"character": "janitor"}},  # Storage (repository)
    {"type": "SetupCompleted", "data": {}},
]


def move(seat, to, corridor):
    return {"type": "CharacterMoved", "actor": seat, "data": {"to_room": to, "corridor": corridor}}


def explore(seat, tile):
    return {"type": "RoomExplored", "actor": seat, "data": {"room": tile, "token": {"effect": "silence", "items": 1}}}


@pytest.fixture
def client(fresh_archive):
    from web import create_app

    return create_app({"ARCHIVE": fresh_archive, "TESTING": True}).test_client()


def play(archive, facts):
    game = archive.games.create_game(HEADER)
    result = archive.games.record(game.id, SETUP + facts)
    return game.id, result


def test_moves_on_the_basic_board_become_corridor_proposals(fresh_archive, client):
    # strict games stay recordable on a board without corridors: moves warn, never refuse
    gid_a, _ = play(fresh_archive, [
        move(1, "slot-04", 3), explore(1, "archive"),
        move(1, "slot-05", 2), explore(1, "laboratory"),
        move(2, "slot-04", 1),
    ])
    state = client.get(f"/api/games/{gid_a}/state?step=5").json
    assert "corridor-unverified" in [c["type"] for c in state["consequences"]]
    assert state["violations"] == []

    play(fresh_archive, [
        move(1, "slot-06", 3), explore(1, "nest"),  # numbers belong to the room entered: no conflict
        move(1, "slot-04", 3), explore(1, "archive"),  # slot-04's corridor 3 entered from elsewhere: conflict
    ])
    play(fresh_archive, [move(1, "slot-04", 3), explore(1, "decon_room")])
    gid_d, _ = play(fresh_archive, [move(1, "slot-09", 4), explore(1, "emergency_room")])
    fresh_archive.games.record(gid_d, [{"type": "FactVoided", "data": {"seqs": [5, 6], "reason": "wrong room"}}])

    rebuild(fresh_archive.db, "corridors")
    found = queries.corridor_proposals(fresh_archive.db, "basic")
    got = {(p["from_place"], p["to_place"], p["corridor"]): (p["games"], p["moves"]) for p in found["proposals"]}
    assert got == {
        ("isolation_room", "slot-04", 3): (2, 2),
        ("slot-04", "slot-05", 2): (1, 1),
        ("repository", "slot-04", 1): (1, 1),
        ("isolation_room", "slot-06", 3): (1, 1),
        ("slot-06", "slot-04", 3): (1, 1),
    }  # the voided move to slot-09 is not there
    assert all(p["first_seen"] and p["last_seen"] for p in found["proposals"])
    assert [(c["kind"], c["place"], c["corridor"], [o["place"] for o in c["entered_from"]]) for c in found["conflicts"]] == [
        ("same_to", "slot-04", 3, ["isolation_room", "slot-06"])]

    api = client.get("/api/boards/basic/corridors")
    assert api.status_code == 200
    body = api.json
    assert body["corridors_declared"] is False and len(body["proposals"]) == 5 and len(body["conflicts"]) == 1
    ends = {tuple(e[0] for e in c["ends"]): c["ends"] for c in body["fragment"]["corridors"]}
    assert ends[("isolation_room", "slot-04")] == [["isolation_room", None], ["slot-04", 3]]
    assert client.get("/api/boards/nowhere/corridors").status_code == 404
    assert client.get("/api/boards/nowhere/corridors").json["error"] == "NotFound"
    assert "/api/boards/{board}/corridors" in client.get("/api/openapi.json").json["paths"]

    page = client.get("/boards/basic/corridors")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "isolation_room" in html and "conflict" in html and "fragment.json" in html
    frag = client.get("/boards/basic/corridors/fragment.json")
    assert frag.status_code == 200 and "attachment" in frag.headers["Content-Disposition"]
    assert frag.json == body["fragment"]
    assert 'href="/boards/basic/corridors"' in client.get("/players").get_data(as_text=True)


def test_the_live_worker_keeps_the_corridors_view_up_to_date(fresh_archive):
    from projections.runner import Worker
    from tests.helpers import wait_for

    db = fresh_archive.db
    worker = Worker(db, poll=0.2)
    thread = worker.start_thread()
    try:
        gid, _ = play(fresh_archive, [move(1, "slot-04", 3), explore(1, "archive")])
        fresh_archive.games.record(gid, [move(1, "slot-05", 2)])
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: queries.tracking_positions(db)["corridors"] >= head)
        got = {(p["from_place"], p["to_place"], p["corridor"]) for p in queries.corridor_proposals(db, "basic")["proposals"]}
        assert got == {("isolation_room", "slot-04", 3), ("slot-04", "slot-05", 2)}
        # a correction replaces the game's rows whole
        fresh_archive.games.record(gid, [{"type": "FactReplaced", "data": {
            "seq": 7, "replacement": {"type": "CharacterMoved", "actor": 1, "data": {"to_room": "slot-05", "corridor": 1}}}}])
        head = fresh_archive.games.recorder.max_notification_id()
        wait_for(lambda: queries.tracking_positions(db)["corridors"] >= head)
        got = {(p["from_place"], p["to_place"], p["corridor"]) for p in queries.corridor_proposals(db, "basic")["proposals"]}
        assert got == {("isolation_room", "slot-04", 3), ("slot-04", "slot-05", 1)}
    finally:
        worker.stop()
        thread.join(timeout=10)
