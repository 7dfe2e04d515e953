"""The board picture over HTTP: /games/<id>/step/<n>/board.svg and the replay page's inline board (real PostgreSQL)."""
from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET

import pytest

from projections.runner import rebuild
from service.demo import HERE as DEMO_DIR
from service.notation import import_parsed, read_file

NS = {"s": "http://www.w3.org/2000/svg"}
BASIC = {"ruleset": "lockdown", "mode": "standard", "strict": True, "options": {"board": "basic"},
         "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}]}
SETUP = [
    {"type": "BoardPrepared", "data": {"board": "basic"}},
    {"type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}},
    {"type": "CharacterChosen", "actor": 2, "data": {"character": "janitor"}},
    {"type": "SetupCompleted", "data": {}},
    {"type": "CharacterMoved", "actor": 1, "data": {"to_room": "slot-04", "corridor": 3}},
]


@pytest.fixture
def client(fresh_archive):
    from web import create_app

    return create_app({"ARCHIVE": fresh_archive, "TESTING": True}).test_client()


@pytest.fixture
def lenient(fresh_archive):
    return import_parsed(fresh_archive.games, read_file(DEMO_DIR / "club-three-players.jsonl"))[0]


def test_board_svg_is_served_alone_as_svg_with_the_step_drawn(client, lenient):
    move = next(r.fact for r in lenient.recorded if r.fact.type == "CharacterMoved")
    r = client.get(f"/games/{lenient.id}/step/{move.seq}/board.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    root = ET.fromstring(r.data)
    token = root.find(f".//s:g[@data-place='{move.data['to_room']}']//s:g[@data-seat='{move.actor}']", NS)
    assert token is not None and "hl" in token.get("class").split()


def test_board_svg_has_a_phone_layout(client, lenient):
    wide = ET.fromstring(client.get(f"/games/{lenient.id}/step/30/board.svg").data)
    narrow = ET.fromstring(client.get(f"/games/{lenient.id}/step/30/board.svg?narrow=1").data)
    (_, _, ww, wh), (_, _, nw, nh) = (map(float, r.get("viewBox").split()) for r in (wide, narrow))
    assert nw < ww and nh / nw > wh / ww  # narrower and taller
    assert {g.get("data-place") for g in wide.iterfind(".//s:g[@data-place]", NS)} == \
        {g.get("data-place") for g in narrow.iterfind(".//s:g[@data-place]", NS)}


def test_board_svg_follows_the_view_as_played_or_corrected(client, lenient):
    void = next(r.fact for r in lenient.recorded if r.fact.type == "FactVoided")
    mistake = void.data["seqs"][0]  # a noise roll recorded twice: as played, its marker is placed again
    played = client.get(f"/games/{lenient.id}/step/{mistake}/board.svg?view=played")
    corrected = client.get(f"/games/{lenient.id}/step/{mistake}/board.svg")
    assert played.status_code == corrected.status_code == 200
    assert played.data != corrected.data
    # as corrected the voided fact never happened: its step shows the step before it, unchanged
    assert corrected.data == client.get(f"/games/{lenient.id}/step/{mistake - 1}/board.svg").data


def test_the_replay_page_and_its_panel_carry_the_same_board(client, lenient):
    page = client.get(f"/games/{lenient.id}/step/40").get_data(as_text=True)
    panel = client.get(f"/games/{lenient.id}/step/40/panel").get_data(as_text=True)
    svg = client.get(f"/games/{lenient.id}/step/40/board.svg").get_data(as_text=True)
    assert svg in page and svg in panel
    assert f'/games/{lenient.id}/step/40/board.svg' in page


def test_learned_corridors_of_the_basic_board_come_from_the_read_model(fresh_archive, client):
    games = fresh_archive.games
    gid = games.create_game(BASIC).id
    games.record(gid, SETUP)
    svg = client.get(f"/games/{gid}/step/5/board.svg").get_data(as_text=True)
    assert 'class="cor learned"' not in svg  # the read model has not seen the move yet
    rebuild(fresh_archive.db, "corridors")
    root = ET.fromstring(client.get(f"/games/{gid}/step/5/board.svg").data)
    learned = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("class") == "cor learned"]
    assert len(learned) == 1 and "isolation_room into slot-04" in learned[0].find("s:title", NS).text
    assert "Schematic, not the printed board" in "".join(root.itertext())


@pytest.mark.parametrize("url, status", [
    ("/games/not-a-uuid/step/1/board.svg", 400),
    (f"/games/{uuid.uuid4()}/step/1/board.svg", 404),
])
def test_a_bad_game_is_a_clear_4xx(client, url, status):
    r = client.get(url)
    assert r.status_code == status
    assert b"game" in r.data


def test_a_step_past_the_end_shows_the_last_step(client, lenient):
    last = client.get(f"/games/{lenient.id}/step/{lenient.position}/board.svg")
    assert client.get(f"/games/{lenient.id}/step/99999/board.svg").data == last.data
