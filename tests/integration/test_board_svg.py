"""The board picture over HTTP: /games/<id>/step/<n>/board.svg and the replay page's inline board (real PostgreSQL)."""
from __future__ import annotations

import re
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
    # board.svg stands alone with its <style>; the page links that stylesheet once and inlines the rest
    style = "<style>" + "".join(lenient.ruleset.drawing_styles) + "</style>"
    assert style in svg
    inline = svg.replace(style, "")
    assert inline in page and inline in panel and "<style>" not in page + panel
    assert f'/games/{lenient.id}/step/40/board.svg' in page


def boards(html: str) -> list[tuple[float, float]]:
    """The (width, height) of every board drawing in a page or panel."""
    return [tuple(map(float, m.split()[2:])) for m in re.findall(r'<svg [^>]*class="nb-board" viewBox="([^"]+)"', html)]


def test_one_drawing_per_step_once_the_screen_is_known(client, lenient):
    """A browser's first replay page draws the board wide and narrow (CSS shows one); replay.js then
    asks for its panels with ?fit= and keeps a cookie, and from then on one drawing comes (decision 0015)."""
    url = f"/games/{lenient.id}/step/40"
    wide, narrow = sorted(boards(client.get(url).get_data(as_text=True)), reverse=True)
    assert wide[0] > narrow[0]
    assert boards(client.get(url + "/panel?fit=narrow").get_data(as_text=True)) == [narrow]
    assert boards(client.get(url + "/panel?fit=wide").get_data(as_text=True)) == [wide]
    client.set_cookie("board_fit", "narrow")
    page = client.get(url)
    assert boards(page.get_data(as_text=True)) == [narrow] and "Cookie" in page.headers["Vary"]
    assert boards(client.get(url + "/panel?fit=wide").get_data(as_text=True)) == [wide]  # the ask beats the cookie
    client.set_cookie("board_fit", "sideways")  # not a layout: both again
    assert len(boards(client.get(url + "/panel").get_data(as_text=True))) == 2


def test_the_drawing_stylesheet_is_served_once_for_every_board(client, lenient):
    page = client.get(f"/games/{lenient.id}/step/40").get_data(as_text=True)
    href = re.search(r'<link rel="stylesheet" href="(/rulesets/lockdown/drawing\.css\?v=[0-9a-f]+)">', page).group(1)
    css = client.get(href)
    assert css.status_code == 200 and css.mimetype == "text/css"
    assert css.get_data(as_text=True) == "\n".join(lenient.ruleset.drawing_styles)
    missing = client.get("/rulesets/chess/drawing.css")
    assert missing.status_code == 404 and b"chess" in missing.data


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
