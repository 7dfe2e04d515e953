"""Coarse records and unknown values through real PostgreSQL (decision 0018): the statistics mark a game
whose record is incomplete and do not count it as finished, won or lost; its known deaths and escapes stay
in its result; unknown corridors never reach the learned-corridor map; notation carries "unknown" and a
strict game's file with one is refused whole, naming the line and the field."""
from __future__ import annotations

import json
import re
import uuid

import pytest
from psycopg import sql

from projections import queries
from projections.generations import generations
from projections.runner import rebuild_views
from projections.views import VIEWS
from service.notation import NotationError, import_parsed, parse, write_game
from service.schemas import GameHeaderSchema

PLAYERS = [{"seat": 1, "name": "Ula"}, {"seat": 2, "name": "Wit"}, {"seat": 3, "name": "Zoe"}]
SETUP = [{"type": "BoardPrepared", "data": {"board": "basic"}},
         {"type": "CharacterChosen", "actor": 1, "data": {"character": "survivor"}},
         {"type": "CharacterChosen", "actor": 2, "data": {"character": "unknown"}},
         {"type": "CharacterChosen", "actor": 3, "data": {"character": "lab_rat"}},
         {"type": "SetupCompleted", "data": {}}]


def create(archive, *, strict=False, after_the_fact=True, title="From memory"):
    header = {"ruleset": "lockdown", "mode": "standard", "strict": strict, "players": PLAYERS, "title": title,
              "options": {"after_the_fact": True} if after_the_fact else {}}
    return archive.games.create_game(GameHeaderSchema().load(header))


def coarse_game(archive):
    game = create(archive)
    archive.games.record(game.id, SETUP + [
        {"type": "CharacterMoved", "actor": 1, "data": {"to_room": "slot-04", "corridor": 2}},
        {"type": "RecordGap", "data": {"to_round": 3, "time": "10", "note": "rounds 1-2 from memory"}},
        {"type": "CharacterDied", "actor": 2, "data": {"cause": "unknown"}},
        {"type": "RecordGap", "data": {"to_round": 6}},
        {"type": "CharacterEscaped", "actor": 1, "data": {"route": "pod", "pod": "A"}},
        {"type": "GameEnded", "data": {"ending": "incomplete", "note": "the report stops in round 6"}},
    ])
    return archive.games.get_game(game.id)


def complete_game(archive):
    game = create(archive, after_the_fact=False, title="Played through")
    archive.games.record(game.id, SETUP[:2] + [
        {"type": "CharacterChosen", "actor": 2, "data": {"character": "hacker"}}] + SETUP[3:] + [
        {"type": "CharacterDied", "actor": 2, "data": {"cause": "attack"}},
        {"type": "GameEnded", "data": {"ending": "time_out"}},
    ])
    return archive.games.get_game(game.id)


def test_statistics_mark_an_incomplete_record_and_count_it_only_as_played(fresh_archive):
    db = fresh_archive.db
    coarse, complete = coarse_game(fresh_archive), complete_game(fresh_archive)
    rebuild_views(db, list(VIEWS))

    with db.connect() as conn:
        active = generations(conn)["playerresults"][0]
        stored = {(str(r[0]), r[1]): r[2:] for r in conn.execute(sql.SQL(
            "SELECT game_id, seat, finished, incomplete, outcome, survival, death_cause FROM {}").format(
            sql.Identifier(f"playerresults_g{active}_results")))}
    assert stored[(str(coarse.id), 1)][:2] == (True, True)
    assert stored[(str(coarse.id), 1)][3] == "swc:A"  # the known escape stays in the result
    assert stored[(str(coarse.id), 2)][1:] == (True, "lost", None, "died during play")  # the known death, cause unknown
    assert stored[(str(coarse.id), 3)][1:3] == (True, "undetermined")
    assert all(v[1] is False for k, v in stored.items() if k[0] == str(complete.id))

    table = {p["player"]: p for p in queries.player_table(db)}
    wit = table["Wit"]  # lost the complete game, died in the incomplete one
    assert (wit["played"], wit["finished"], wit["lost"], wit["won"], wit["incomplete"]) == (2, 1, 1, 0, 1)
    zoe = table["Zoe"]
    assert (zoe["played"], zoe["finished"], zoe["incomplete"], zoe["undetermined"]) == (2, 1, 1,
                                                                                      int(stored[(str(complete.id), 3)][2] == "undetermined"))
    listed = {g["game_id"]: g for g in queries.list_games(db)}
    assert listed[coarse.id]["status"] == "incomplete record" and listed[complete.id]["status"] == "finished"
    assert queries.game_state(db, coarse.id)["ending"] == "incomplete"
    assert queries.game_state(db, coarse.id)["flagged"] == 5  # the unknowns, both gaps and the escape summary


def test_unknown_corridors_and_after_the_fact_moves_never_reach_the_corridor_map(fresh_archive):
    db = fresh_archive.db
    coarse_game(fresh_archive)  # its one move names corridor 2, but from memory
    seen = create(fresh_archive, after_the_fact=False, title="At the table")
    fresh_archive.games.record(seen.id, SETUP[:2] + [
        {"type": "CharacterChosen", "actor": 2, "data": {"character": "hacker"}}] + SETUP[3:] + [
        {"type": "CharacterMoved", "actor": 1, "data": {"to_room": "slot-04", "corridor": "unknown"}},
        {"type": "RoomExplored", "actor": 1, "data": {"room": "archive", "token": {"effect": "silence", "items": 1}}},
        {"type": "CharacterMoved", "actor": 1, "data": {"to_room": "slot-05", "corridor": 3}},
    ])
    rebuild_views(db, ["corridors"])
    proposals = queries.corridor_proposals(db, "basic")["proposals"]
    assert [(p["from_place"], p["to_place"], p["corridor"], p["games"]) for p in proposals] == [
        ("slot-04", "slot-05", 3, 1)]


def test_notation_carries_unknowns_and_a_strict_file_with_one_is_refused_naming_line_and_field(archive):
    game = coarse_game(archive)
    text = write_game(game)
    assert '"corridor"' in text and '"cause":"unknown"' in text and '"ending":"incomplete"' in text
    lines = text.splitlines()
    header = json.loads(lines[0])
    # the same file read back (under a new id) folds to the same result
    header["game"] = str(uuid.uuid4())
    copy, created = import_parsed(archive.games, parse("\n".join([json.dumps(header)] + lines[1:]) + "\n", "copy.jsonl"))
    assert created and copy.ruleset.score(copy.head_state).as_dict() == game.ruleset.score(game.head_state).as_dict()
    # strict: the first unknown (CharacterChosen.character, line 4) refuses the whole file
    header.update(game=str(uuid.uuid4()), strict=True, options={})
    with pytest.raises(NotationError) as err:
        import_parsed(archive.games, parse("\n".join([json.dumps(header)] + lines[1:]) + "\n", "strict.jsonl"))
    assert err.value.message.startswith("strict.jsonl:4:") and "CharacterChosen.character is recorded as unknown" \
        in err.value.message
    assert not archive.games.exists(uuid.UUID(header["game"]))


def test_the_recorder_offers_unknown_and_the_coarse_group_only_to_lenient_games(archive):
    from web import create_app

    client = create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None}).test_client()
    lenient, strict = create(archive), create(archive, strict=True, after_the_fact=False)
    for g in (lenient, strict):
        archive.games.record(g.id, SETUP[:2])
    page = client.get(f"/games/{lenient.id}/record/panel").get_data(as_text=True)
    assert 'class="value unknown" data-value="&#34;unknown&#34;"' in page
    assert '<details class="coarse" open>' in page and "End: record incomplete" in page
    page = client.get(f"/games/{strict.id}/record/panel").get_data(as_text=True)
    assert "unknown" not in page.lower().replace("unknown room", "") and 'class="coarse"' not in page
    # the new-game form: "recorded after the fact" makes a lenient game with the option set
    form = client.get("/games/new").get_data(as_text=True)  # a browser opens the form first: its token (decision 0017)
    client.environ_base["HTTP_X_CSRF_TOKEN"] = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    r = client.post("/games/new", data={"ruleset": "lockdown", "mode": "standard", "strict": "strict",
                                         "board": "basic", "characters": "lockdown", "intruders": "night_stalkers",
                                         "player-0": "Ula", "seat-0": "1", "after_the_fact": "yes"})
    assert r.status_code == 303
    made = archive.games.get_game(uuid.UUID(r.headers["Location"].split("/")[-2]))
    # (and the store writes the warrants a game created now is checked with: decision 0039)
    assert (made.strict, made.options) == (False, {"after_the_fact": True, "warrants": "required"})
