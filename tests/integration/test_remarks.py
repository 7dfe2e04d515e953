"""Comments and notes (decision 0017): generic facts beside the corrections, stored, checked, told and exported."""
from __future__ import annotations

import uuid

import pytest

from service.errors import FactsRefused
from service.hygiene import MAX_COMMENT, MAX_NOTE
from service.notation import import_parsed, parse, write_game
from service.rules.story import tell
from service.schemas import GameHeaderSchema


def _game(archive, strict=True):
    header = GameHeaderSchema().load({"ruleset": "lockdown", "mode": "standard", "strict": strict,
                                      "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}]})
    game = archive.games.create_game(header)
    archive.games.record(game.id, [{"type": "BoardPrepared", "data": {"board": "basic"}}])
    return game.id


def test_a_comment_is_a_step_that_changes_nothing_and_a_note_joins_its_fact(archive):
    gid = _game(archive)
    r = archive.games.record(gid, [{"type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}},
                                   {"type": "FactAnnotated", "data": {"seq": 2, "note": "Ada took her usual"}}],
                             expected_position=1)
    assert (r["first_seq"], r["last_seq"]) == (2, 3)
    archive.games.record(gid, [{"type": "Commented", "actor": 2, "data": {"text": "Bo went for a coffee"}}])
    game = archive.games.get_game(gid)
    corrected = game.replay(corrected=True)
    assert [s.seq for s in corrected.steps] == [0, 1, 2, 4]  # the note is not a step; the comment is
    assert corrected.at(2).notes == ("Ada took her usual",)
    assert corrected.steps[-1].state is corrected.steps[-2].state  # a comment leaves the state alone
    assert game.ruleset.position(game.head_state) == game.ruleset.position(corrected.steps[2].state)
    story = tell(corrected)
    assert story.by_seq[4].kind == "comment" and story.by_seq[4].text == "Comment (Bo): Bo went for a coffee"
    assert story.by_seq[2].notes == ("Ada took her usual",)
    played = tell(game.replay(corrected=False))
    assert played.by_seq[3].kind == "annotation" and played.by_seq[3].text == "Note on #2: Ada took her usual"
    # the next fact is checked against the state the comment left alone
    archive.games.record(gid, [{"type": "CharacterChosen", "actor": 2, "data": {"character": "lab_rat"}}])
    assert archive.games.get_game(gid).recorded[-1].flags == ()


@pytest.mark.parametrize("fact, says", [
    ({"type": "Commented", "data": {"text": "  "}}, "non-empty text"),
    ({"type": "Commented", "data": {"text": "x" * (MAX_COMMENT + 1)}}, f"at most {MAX_COMMENT:,}"),
    ({"type": "Commented", "data": {"text": "hi", "seq": 1}}, "no field 'seq'"),
    ({"type": "Commented", "actor": 7, "data": {"text": "hi"}}, "not 7"),
    ({"type": "FactAnnotated", "data": {"seq": 1, "note": "x" * (MAX_NOTE + 1)}}, f"at most {MAX_NOTE}"),
    ({"type": "FactAnnotated", "data": {"seq": 9, "note": "late"}}, "no fact #9"),
    ({"type": "FactAnnotated", "data": {"note": "where?"}}, "needs 'seq'"),
])
def test_bad_remarks_are_refused_even_in_a_lenient_game(archive, fact, says):
    gid = _game(archive, strict=False)
    with pytest.raises(FactsRefused) as e:
        archive.games.record(gid, [fact])
    assert says in e.value.message
    assert archive.games.get_game(gid).position == 1


def test_notes_go_on_table_facts_and_remarks_are_corrected_like_any_fact(archive):
    gid = _game(archive)
    archive.games.record(gid, [{"type": "Commented", "data": {"text": "tpyo"}}])  # 2
    with pytest.raises(FactsRefused, match="a note goes on a table fact"):
        archive.games.record(gid, [{"type": "FactAnnotated", "data": {"seq": 2, "note": "on a comment"}}])
    with pytest.raises(FactsRefused, match="cannot replace it"):
        archive.games.record(gid, [{"type": "FactReplaced", "data": {"seq": 2, "replacement": {
            "type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}}}}])
    with pytest.raises(FactsRefused, match="non-empty text"):
        archive.games.record(gid, [{"type": "FactReplaced", "data": {"seq": 2, "replacement": {
            "type": "Commented", "data": {"text": ""}}}}])
    archive.games.record(gid, [{"type": "FactReplaced", "data": {"seq": 2, "replacement": {
        "type": "Commented", "data": {"text": "typo"}}}}])  # 3
    archive.games.record(gid, [{"type": "FactAnnotated", "data": {"seq": 1, "note": "the basic side"}}])  # 4
    archive.games.record(gid, [{"type": "FactVoided", "data": {"seqs": [4]}}])  # 5: the note is taken back
    rp = archive.games.get_game(gid).replay()
    assert tell(rp).by_seq[2].text == "Comment: typo"
    assert rp.at(1).notes == ()


def test_remarks_survive_export_and_import_byte_for_byte(archive):
    gid = _game(archive)
    archive.games.record(gid, [{"type": "FactAnnotated", "data": {"seq": 1, "note": "Zażółć"}},
                               {"type": "Commented", "data": {"text": "round one starts late"}}])
    text = write_game(archive.games.get_game(gid))
    lines = text.splitlines()
    other = str(uuid.uuid4())
    lines[0] = lines[0].replace(str(gid), other)
    copy, _ = import_parsed(archive.games, parse("\n".join(lines) + "\n", "copy.jsonl"))
    assert write_game(copy).splitlines()[1:] == text.splitlines()[1:]


def test_the_api_shows_notes_on_their_fact_and_comments_as_facts(archive):
    from web import create_app

    client = create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None}).test_client()
    gid = _game(archive)
    r = client.post(f"/api/games/{gid}/facts", json={"facts": [
        {"type": "FactAnnotated", "data": {"seq": 1, "note": "the basic side"}},
        {"type": "Commented", "data": {"text": "coffee break"}}]})
    assert r.status_code == 201, r.get_json()
    facts = client.get(f"/api/games/{gid}/facts").get_json()["facts"]
    assert [(f["seq"], f["type"], f["notes"]) for f in facts] == [(1, "BoardPrepared", ["the basic side"]),
                                                                   (3, "Commented", [])]
    assert client.get(f"/api/games/{gid}/state?step=1").get_json()["notes"] == ["the basic side"]
    played = client.get(f"/api/games/{gid}/facts?view=played").get_json()["facts"]
    assert [f["type"] for f in played] == ["BoardPrepared", "FactAnnotated", "Commented"]


def test_the_fix_page_prefills_the_fact_as_it_stands_and_names_bad_requests(archive):
    import re as _re

    from web import create_app

    client = create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None}).test_client()
    gid = _game(archive)
    archive.games.record(gid, [{"type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}},
                               {"type": "FactReplaced", "data": {"seq": 2, "replacement": {
                                   "type": "CharacterChosen", "actor": 1, "data": {"character": "hacker"}}}},
                               {"type": "Commented", "data": {"text": "all good"}}])
    page = client.get(f"/games/{gid}/record?fix=2").get_data(as_text=True)
    form = _re.search(r'<form class="fact-form"[^>]*data-replaces="2" data-original="([^"]*)"', page)
    assert form and "hacker" in form.group(1)  # as corrected, not as first recorded
    assert _re.search(r'class="value chosen"[^>]* data-value="&#34;hacker&#34;"', page)
    # a fix is confirmed in its form: no tap on a value sends it (the recorder's own forms do, decision 0016)
    assert 'data-quick="yes"' not in page and 'class="offer direct"' not in page
    assert 'data-quick="yes"' in client.get(f"/games/{gid}/record").get_data(as_text=True)
    assert "Fixing #2" in page and 'data-place="' in page  # the board as it stood before #2
    page = client.get(f"/games/{gid}/record?fix=4").get_data(as_text=True)
    assert _re.search(r'data-type="Commented"[^>]*data-replaces="4"', page) and ">all good</textarea>" in page
    assert _re.search(r'class="value chosen"[^>]* data-value="null"[^>]*><kbd></kbd>the table', page)
    r = client.get(f"/games/{gid}/record?fix=3")
    assert r.status_code == 400 and "fix the fact it is about" in r.get_data(as_text=True)
    assert client.get(f"/games/{gid}/record?fix=9").status_code == 404
    r = client.get(f"/games/{gid}/record?fix=abc")
    assert r.status_code == 400 and "number of the fact" in r.get_data(as_text=True)
    assert f'/games/{gid}/record?fix=2' in client.get(f"/games/{gid}/step/4").get_data(as_text=True)


def test_the_fix_page_of_the_setup_shows_each_room_space_with_the_tile_recorded_there(archive):
    """The setup's tile map is a picker per room space (decision 0016); fixing it starts from what was recorded."""
    import re as _re

    from web import create_app

    client = create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None}).test_client()
    header = GameHeaderSchema().load({"ruleset": "lockdown", "mode": "standard", "strict": True,
                                      "players": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}]})
    gid = archive.games.create_game(header).id
    archive.games.record(gid, [{"type": "BoardPrepared", "data": {"board": "basic",
                                                                  "tiles": {"slot-01": "css_control_room"}}}])
    r = client.get(f"/games/{gid}/record?fix=1")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    slot = _re.search(r'<select data-slot="slot-01".*?</select>', page, _re.S).group(0)
    assert _re.findall(r'<option value="([^"]+)" selected', slot) == ["css_control_room"]
    assert ' selected' not in _re.search(r'<select data-slot="slot-02".*?</select>', page, _re.S).group(0)
