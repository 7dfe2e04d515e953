"""The recorder's server side without a browser: the new-game form and the import work without JS,
and the panel offers exactly what the rules say may come next."""
from __future__ import annotations

import re
import uuid
from io import BytesIO

import pytest

from service.notation import write_game
from service.schemas import GameHeaderSchema
from tests.helpers import generated


@pytest.fixture
def client(archive):
    from web import create_app

    c = create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None}).test_client()
    page = c.get("/games/new").get_data(as_text=True)  # a browser opens the form first: its token (decision 0017)
    c.environ_base["HTTP_X_CSRF_TOKEN"] = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return c


def form(**fields):
    base = {"ruleset": "lockdown", "mode": "standard", "strict": "strict", "board": "basic", "characters": "lockdown",
            "intruders": "night_stalkers", "played_on": "2026-11-20", "title": "", "league": "", "tags": ""}
    return {**base, **fields}


def test_form_post_creates_the_game_with_its_options_and_redirects_to_the_recorder(client, archive):
    r = client.post("/games/new", data=form(**{"player-0": "Ada", "seat-0": "1", "player-2": " Chiara ", "seat-2": "3",
                                               "board": "mars", "intruders": "nemesis", "strict": "lenient",
                                               "league": "Club", "tags": "friday, , demo", "title": "Form game"}))
    assert r.status_code == 303
    gid = re.search(r"/games/([0-9a-f-]{36})/record$", r.headers["Location"]).group(1)
    game = archive.games.get_game(uuid.UUID(gid))
    assert game.players == [{"seat": 1, "name": "Ada"}, {"seat": 3, "name": "Chiara"}]
    assert game.options == {"warrants": "required", "board": "mars", "intruders": "nemesis"}  # decision 0039
    assert (game.strict, game.league, game.tags, game.played_on, game.title) == (False, "Club", ["friday", "demo"],
                                                                                 "2026-11-20", "Form game")


@pytest.mark.parametrize("fields, where, text", [
    ({}, "err-players", "Length must be between 1 and 5"),
    ({"player-0": "Ada", "player-1": "ADA"}, "err-players", "different name"),
    ({"player-0": "Ada", "seat-0": "2", "player-1": "Bo", "seat-1": "2"}, "err-players", "different seat"),
    ({"player-0": "Ada", "player-1": "Bo", "mode": "solo"}, "err-players", "Solo mode has exactly 1 player"),
    ({"player-0": "Ada", "mode": "chess"}, "err-mode", "mode must be one of"),
    ({"player-0": "Ada", "board": "moon"}, "err-board", "Unknown board"),
    ({"player-0": "Ada", "played_on": "yesterday"}, "err-played_on", "Not a valid date"),
    ({"player-0": "x" * 81}, "err-player-0", "Length must be between 1 and 80"),
    ({"player-0": "Ada", "player-1": "Bo\x00b"}, "err-player-1", "NUL character"),
])
def test_form_errors_are_shown_next_to_their_field_and_nothing_is_stored(client, archive, fields, where, text):
    before = archive.games.recorder.max_notification_id() if hasattr(archive.games, "recorder") else None
    r = client.post("/games/new", data=form(**fields))
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    m = re.search(rf'id="{where}">([^<]*)<', page)
    assert m and text in m.group(1).replace("&#39;", "'"), page[:3000]
    if before is not None:
        assert archive.games.recorder.max_notification_id() == before


def test_import_by_upload_refuses_whole_with_file_and_line(client, archive):
    header, facts = generated(seed=5)
    game = archive.games.create_game(GameHeaderSchema().load(header))
    archive.games.record(game.id, facts[:6])
    text = write_game(archive.games.get_game(game.id)).replace(str(game.id), "6a0d2f4e-1111-4a1a-9a9a-123456789abc")
    lines = text.splitlines()
    lines[4] = lines[4].replace('"seq":4', '"seq":9')
    r = client.post("/games/import", data={"file": (BytesIO(("\n".join(lines) + "\n").encode()), "table.jsonl")},
                    content_type="multipart/form-data")
    assert r.status_code == 400
    assert "table.jsonl:5: seq must be 4" in r.get_data(as_text=True)
    assert not archive.games.exists(uuid.UUID("6a0d2f4e-1111-4a1a-9a9a-123456789abc"))
    r = client.post("/games/import", data={"file": (BytesIO(text.encode()), "table.jsonl")},
                    content_type="multipart/form-data")
    assert r.status_code == 303 and r.headers["Location"].endswith("/6a0d2f4e-1111-4a1a-9a9a-123456789abc/record")
    r = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert r.status_code == 400 and "choose a notation file" in r.get_data(as_text=True)


def test_panel_offers_what_next_inputs_offers(client, archive):
    r = client.post("/games/new", data=form(**{"player-0": "Ada", "player-1": "Bo"}))
    gid = r.headers["Location"].split("/")[-2]
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    assert 'data-position="0"' in panel
    assert re.findall(r'class="offer( direct)?" data-offer="\d+" data-type="(\w+)"', panel)[:1] == [(" direct", "BoardPrepared")]
    client.post(f"/api/games/{gid}/facts", json={"facts": [{"type": "BoardPrepared", "data": {"board": "basic"}}]})
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    offers = re.findall(r'<button type="button" class="offer[^"]*" data-offer="\d+" data-type="(\w+)"\s+data-actor="(\d*)"', panel)
    assert ("CharacterChosen", "1") in offers and ("CharacterChosen", "2") in offers
    assert '<span class="otype">Choose a character</span>' in panel and "Record Choose a character" in panel
    polish = client.get(f"/games/{gid}/record/panel?lang=pl").get_data(as_text=True)
    assert '<span class="otype">Wybór postaci</span>' in polish  # the buttons name facts in the page's language
    assert 'data-undo-seq="1"' in panel and "#1</span> BoardPrepared — board basic" in panel
    # after an undo the voided fact is struck through and nothing is left to undo
    client.post(f"/api/games/{gid}/facts", json={"facts": [{"type": "FactVoided", "data": {"seqs": [1]}}]})
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    assert 'data-undo-seq=""' in panel and '<li data-seq="1" class="voided">' in panel
    assert client.get("/games/not-a-uuid/record").status_code == 400
    assert client.get("/games/6a0d2f4e-2222-4a1a-9a9a-123456789abc/record").status_code == 404


def test_a_legal_value_spelled_unknown_is_not_the_lenient_unknown_button(client, archive):
    """A contingency token dealt face down is the legal value "unknown" of a list: a multi-pick sends it as a list
    (["unknown"]); only the lenient game's own Unknown button (decision 0018) replaces the list."""
    import json as _json

    from service.demo import HERE as DEMO_DIR
    from tests.browser.recorder_driver import read_notation

    header, facts = read_notation(DEMO_DIR / "club-three-players.jsonl")
    assert header["strict"] is False
    seq = next(i for i, f in enumerate(facts) if f["type"] == "ContingencyTokensDealt"
               and f["data"] == {"tokens": ["unknown"]})
    body = {k: header[k] for k in ("ruleset", "mode", "strict", "players", "options", "played_on", "title")}
    gid = client.post("/api/games", json=body).get_json()["id"]
    assert client.post(f"/api/games/{gid}/facts", json={"facts": facts[:seq], "expected_position": 0}).status_code == 201
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    form = re.search(r'<form class="fact-form"[^>]*data-type="ContingencyTokensDealt"[^>]*data-actor="%s".*?</form>'
                     % facts[seq]["actor"], panel, re.S).group(0)
    buttons = re.findall(r'<button type="button" class="([^"]*)"[^>]*data-value="([^"]*)"', form)
    token = [cls for cls, value in buttons if _json.loads(value.replace("&#34;", '"').replace("&quot;", '"')) == "unknown"]
    assert token and not any("unknown" in cls.split() for cls in token), buttons


def _demo_at(client, name: str, upto: int) -> tuple[str, list]:
    from service.demo import HERE as DEMO_DIR
    from tests.browser.recorder_driver import read_notation

    header, facts = read_notation(DEMO_DIR / name)
    body = {k: header[k] for k in ("ruleset", "mode", "strict", "players", "options", "played_on", "title")}
    gid = client.post("/api/games", json=body).get_json()["id"]
    assert client.post(f"/api/games/{gid}/facts", json={"facts": facts[:upto], "expected_position": 0}).status_code == 201
    return gid, facts


def test_table_effect_forms_are_drawn_when_opened_and_equal_the_full_form(client, archive, monkeypatch):
    """Decision 0034: the panel draws the table effects' buttons only; ``/record/form/<i>`` draws one form, the same
    the panel drew before (every value named), for the game as stored or after the facts queued on the device; an
    offer the game has moved past is a 409, never another offer's form."""
    from web import record

    gid, facts = _demo_at(client, "friday-four-players.jsonl", 60)
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    lazy = re.findall(r'class="offer[^"]*" data-offer="(\d+)" data-type="(\w+)"\s+data-actor="(\d*)" data-lazy="yes"', panel)
    assert len(lazy) > 50  # a 4-player game's table effects
    drawn = set(re.findall(r'<form class="fact-form" data-offer="(\d+)"', panel))
    assert not drawn & {i for i, _, _ in lazy}  # none of their forms comes with the panel
    # the form, alone, as the panel drew it before: rendered again with nothing lazy, the same markup
    index, type_, actor = next((i, t, a) for i, t, a in lazy if t == "WoundSuffered")
    alone = client.get(f"/games/{gid}/record/form/{index}?type={type_}&actor={actor}")
    assert alone.status_code == 200
    form = alone.get_data(as_text=True).strip()
    assert form.startswith(f'<form class="fact-form" data-offer="{index}" data-type="WoundSuffered"')
    real_offers = record._offers
    monkeypatch.setattr(record, "_offers", lambda *a, **k: real_offers(*a, **{**k, "lazy": False}))
    eager = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    assert form in eager
    monkeypatch.undo()
    # the game moved on: offer <index> is something else now (or nothing): 409, the page fetches the panel again
    stale = client.get(f"/games/{gid}/record/form/{index}?type=GameEnded&actor=")
    assert stale.status_code == 409 and "fetch the panel again" in stale.get_data(as_text=True)
    assert client.get(f"/games/{gid}/record/form/9999?type={type_}&actor={actor}").status_code == 409
    # after facts queued on the device: the form of the position after them (a POST, as the preview)
    queued = {"facts": facts[60:62], "expected_position": 60}
    after = client.post(f"/games/{gid}/record/preview", json=queued).get_data(as_text=True)
    index2, type2, actor2 = re.findall(
        r'class="offer[^"]*" data-offer="(\d+)" data-type="(\w+)"\s+data-actor="(\d*)" data-lazy="yes"', after)[0]
    posted = client.post(f"/games/{gid}/record/form/{index2}?type={type2}&actor={actor2}", json=queued)
    assert posted.status_code == 200 and f'data-offer="{index2}" data-type="{type2}"' in posted.get_data(as_text=True)
    assert client.post(f"/games/{gid}/record/form/{index2}", json={"facts": []}).status_code == 400
    assert archive.games.get_game(uuid.UUID(gid)).position == 60  # nothing stored by a form or a preview


def test_a_direct_table_effect_button_carries_the_fact_it_records(client, archive):
    """A table effect whose values are all decided (fixed, or chosen for the recorder) records with one tap and no
    form fetched: its button carries the fact, equal to what its form would send untouched."""
    import html
    import json as _json

    gid, _facts = _demo_at(client, "friday-four-players.jsonl", 60)
    panel = client.get(f"/games/{gid}/record/panel").get_data(as_text=True)
    carried = re.findall(r'data-offer="(\d+)" data-type="(\w+)"\s+data-actor="(\d*)" data-lazy="yes" data-fact="([^"]+)"', panel)
    assert carried
    for index, type_, actor, fact in carried[:5]:
        fact = _json.loads(html.unescape(fact))
        assert fact["type"] == type_ and fact["actor"] == (int(actor) if actor else None)
        stored = client.post(f"/api/games/{gid}/facts", json={"facts": [fact]})
        assert stored.status_code == 201, stored.get_json()
        client.post(f"/api/games/{gid}/facts", json={"facts": [{"type": "FactVoided", "data": {"seqs": [stored.get_json()["position"]]}}]})
