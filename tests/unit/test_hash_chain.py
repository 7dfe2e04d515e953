"""The hash chain of a game's events, checked against stored events (in-memory store, real mapper)."""
from __future__ import annotations

import dataclasses
import json

import pytest

from service import chain as hash_chain
from service.archive import Games
from service.game import Game
from service.verify import check_game
from tests.helpers import generated


@pytest.fixture
def games():
    app = Games(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    yield app
    app.close()


def stored_rows(app, game_id):
    return [(e.originator_version, e.topic, e.state, i + 1) for i, e in enumerate(app.recorder.select_events(game_id))]


def imported(app, facts=12, seed=3):
    header, generated_facts = generated(seed=seed)
    return app.import_game(header, generated_facts[:facts])


def test_every_event_is_linked_to_the_one_before(games):
    game = imported(games)
    stored = list(games.recorder.select_events(game.id))
    assert all(json.loads(s.state)["class_version"] == 2 for s in stored)
    previous = hash_chain.GENESIS
    for s in stored:
        e = games.mapper.to_domain_event(s)
        assert len(e.chain) == 64
        assert e.chain == hash_chain.link(previous, game.id, s.originator_version, s.topic, vars(e))
        previous = e.chain
    assert check_game(game.id, stored_rows(games, game.id), games.mapper, 0).problems == []


def test_a_game_loaded_back_continues_its_chain(games):
    game = imported(games, facts=5)
    _, facts = generated(seed=3)
    games.record(game.id, facts[5:8])
    report = check_game(game.id, stored_rows(games, game.id), games.mapper, 0)
    assert report.problems == [] and report.events == 9 and report.head == games.get_game(game.id).chain


def test_an_edited_value_is_named_by_game_and_step(games):
    game = imported(games)
    rows = stored_rows(games, game.id)
    version, topic, state, nid = rows[4]
    body = json.loads(state)
    body["actor"] = 99 if body.get("actor") != 99 else 98
    rows[4] = (version, topic, json.dumps(body).encode(), nid)
    report = check_game(game.id, rows, games.mapper, 0)
    assert [(p.kind, p.version) for p in report.problems] == [("mismatch", 5)]
    assert "fact #4" in str(report.problems[0]) and str(game.id) in str(report.problems[0])
    assert report.problems[0].found == body["chain"] and report.problems[0].expected != body["chain"]


def test_a_missing_event_is_a_gap(games):
    game = imported(games)
    rows = stored_rows(games, game.id)
    del rows[6]
    kinds = [(p.kind, p.version) for p in check_game(game.id, rows, games.mapper, 0).problems]
    assert kinds[0] == ("gap", 7)
    assert ("mismatch", 8) in kinds  # the next event's link names a predecessor that is gone


def legacy(state: bytes) -> bytes:
    """The event as a build before hash chains stored it: no chain, class version 1."""
    body = json.loads(state)
    body.pop("chain")
    body.pop("class_version")
    return json.dumps(body).encode()


def test_events_stored_before_chains_load_as_an_unchained_prefix(games):
    game = imported(games, facts=6)
    rows = [(v, t, legacy(s), n) for v, t, s, n in stored_rows(games, game.id)]
    report = check_game(game.id, rows, games.mapper, unchained_up_to=100)
    assert report.problems == [] and report.unchained == 7 and report.status == "unchained"
    # stored after chains began, an unchained event is a finding
    late = check_game(game.id, rows, games.mapper, unchained_up_to=3)
    assert [(p.kind, p.version) for p in late.problems] == [("unchained", v) for v in range(4, 8)]


def test_stripping_one_hash_after_the_chain_began_is_a_finding(games):
    game = imported(games, facts=6)
    rows = stored_rows(games, game.id)
    v, t, s, n = rows[3]
    rows[3] = (v, t, legacy(s), n)
    kinds = [(p.kind, p.version) for p in check_game(game.id, rows, games.mapper, unchained_up_to=100).problems]
    assert kinds == [("unchained", 4)]


def test_a_legacy_game_that_grows_chains_its_new_facts(games):
    """A game recorded before chains gets hashes on its new facts, starting from genesis."""
    from eventsourcing.persistence import StoredEvent

    game = imported(games, facts=4)
    rows = stored_rows(games, game.id)
    old = [games.mapper.to_domain_event(StoredEvent(game.id, v, t, legacy(s))) for v, t, s, _ in rows]
    loaded = None
    for e in old:
        loaded = e.mutate(loaded)
    assert loaded.chain is None and loaded.position == 4
    _, facts = generated(seed=3)
    loaded.record(facts[4:6])
    new = loaded.collect_events()
    assert new[0].chain == hash_chain.link(hash_chain.GENESIS, game.id, 6, "service.game:Game.FactRecorded", vars(new[0]))
    assert new[1].chain == hash_chain.link(new[0].chain, game.id, 7, "service.game:Game.FactRecorded", vars(new[1]))


def test_a_recorded_fact_is_stored_as_the_librarys_event_method_stores_it(games, monkeypatch):
    """``Game.record`` makes its events without the ``@event`` method's plumbing (``_trigger_fact``): the same
    events, hashed and stored byte for byte as calling the decorated method gives them."""
    from datetime import datetime, timezone

    from service.game import Game

    moment = datetime(2026, 11, 27, 10, 0, tzinfo=timezone.utc)
    monkeypatch.setattr(Game.FactRecorded, "create_timestamp", staticmethod(lambda: moment))
    monkeypatch.setattr(Game.Created, "create_timestamp", staticmethod(lambda: moment))
    header, facts = generated(seed=5)
    fast = Games._new_game(header)
    for i, f in enumerate(facts[:40]):
        fast.record([f], command_id=f"c{i}", recorder="r", recorded_at=[f"2026-11-27T10:00:{i % 60:02d}+00:00"])
    slow = Games._new_game({**header, "id": fast.id})
    for r in fast.recorded:  # the same fields through the library's own trigger (the @event method)
        slow._staged_head = None
        slow._fact_recorded(seq=r.fact.seq, type=r.fact.type, data=dict(r.fact.data), actor=r.fact.actor,
                            visibility=r.fact.visibility, round=r.round, phase=r.phase, recorder=r.recorder,
                            recorded_at=r.recorded_at, command_id=r.command_id, flags=[dict(f) for f in r.flags])
    fast_events, slow_events = fast.collect_events(), slow.collect_events()
    # made without the dataclass's __init__ (decision 0052): the same fields, in the class's order, equal events
    assert [list(vars(e)) for e in fast_events] == [[f.name for f in dataclasses.fields(e)] for e in slow_events]
    assert fast_events == slow_events
    ours = [games.mapper.to_stored_event(e) for e in fast_events]
    library = [games.mapper.to_stored_event(e) for e in slow_events]
    assert len(ours) == 41 and ours == library
    assert fast.chain == slow.chain and fast.version == slow.version == 41 and fast.modified_on == slow.modified_on
    rows = [(e.originator_version, e.topic, e.state, i + 1) for i, e in enumerate(ours)]
    assert check_game(fast.id, rows, games.mapper, 0).problems == []


def test_a_game_folded_apart_is_stored_as_its_columns_and_loads_back_chained(games):
    """An import's worker folds and encodes a game (``fold_parsed``), the parent inserts the columns it sends."""
    from service.notation import fold_parsed, parse, write_game

    game = imported(games, facts=30, seed=7)
    text = write_game(games.get_game(game.id)).replace(str(game.id), "6f1c2a52-0b7e-4f36-9d4e-5a0c0d1e2f30").replace(
        '"recorded_at":null', '"recorded_at":"2026-11-27T10:00:00.000+00:00"')
    folded = fold_parsed(parse(text, "copy.jsonl"), games)
    assert folded.refusal is None and folded.versions == list(range(1, 32))
    games.insert_folded(folded.game_id, folded.versions, folded.topics, folded.states)
    assert write_game(games.get_game(folded.game_id)) == text
    assert check_game(folded.game_id, stored_rows(games, folded.game_id), games.mapper, 0).problems == []


@pytest.mark.parametrize("env", [{}, {"COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"}])
def test_an_imports_columns_are_the_mappers_byte_for_byte(env):
    """``stored_columns`` encodes a fact's event itself (decision 0052): the same version, topic and state bytes as
    ``mapper.to_stored_event`` for every event of a game (its creation; facts flagged, remarked on in any script,
    corrected, with and without a recorder or command), and the mapper's own for a mapper it leaves alone."""
    from uuid import uuid4

    from service.archive import stored_columns

    app = Games(env={"PERSISTENCE_MODULE": "eventsourcing.popo", **env})
    header, facts = generated(seed=9)
    game = Games._new_game({**header, "strict": False})
    for i, f in enumerate(facts[:25]):
        game.record([f], command_id=str(uuid4()) if i % 2 else None, recorder="Zoë \"z\" \\ ✓" if i % 3 else None)
        if i % 5 == 4:  # again, out of turn: stored flagged
            game.record([facts[max(0, i - 3)]], recorded_at=["2026-11-27T10:00:00.000+00:00"])
    game.record([{"type": "Commented", "data": {"text": "pause \u2014 pizza \U0001f355 \u0007\n\"tab\"\t"}}])
    game.record([{"type": "FactReplaced", "data": {"seq": game.position, "replacement": {
        "type": "Commented", "data": {"text": "pizza"}}}}])
    events = game.collect_events()
    assert any(e.flags for e in events[1:]) and {type(e) for e in events} == {Game.Created, Game.FactRecorded}
    library = [app.mapper.to_stored_event(e) for e in events]
    columns = stored_columns(app.mapper, events)
    assert columns == ([s.originator_version for s in library], [s.topic for s in library], [s.state for s in library])
    app.close()


def test_the_chain_and_the_transcoder_encode_as_json_does():
    """``chain.one_shot`` (decision 0052): the text ``encoder.encode`` gives, for the chain's encoder and the
    transcoder's, and a link is the sha256 of the JSON the standard library makes of the event."""
    import hashlib
    from datetime import datetime, timezone
    from uuid import UUID

    when = datetime(2026, 11, 27, 10, 0, 0, 123456, tzinfo=timezone.utc)
    value = {"z": [1, -0.0, 2.5, 1e300, True, None, {"b": "é \u2014 \U0001f355 \"q\" \\ \u0007\n"}], "a": {"y": {}, "x": []},
             "ts": when, "n": -(2**70)}
    transcoder = Games(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}).mapper.transcoder
    assert hash_chain.one_shot(transcoder.encoder)(value) == transcoder.encoder.encode(value)
    assert hash_chain.canonical(value) == hash_chain._ENCODER.encode(value)
    game = UUID("6f1c2a52-0b7e-4f36-9d4e-5a0c0d1e2f30")
    fields = {**value, "ts": when.isoformat()}
    text = json.dumps({"game": str(game), "version": 3, "topic": "t:Fact", "fields": fields}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(("prev\n" + text).encode()).hexdigest()
    assert hash_chain.link("prev", game, 3, "t:Fact", value) == expected
    assert hash_chain.link("prev", game, 3, "t:Fact", {**value, "chain": "x", "originator_version": 3}) == expected
    with pytest.raises(ValueError):
        hash_chain.canonical({"nan": float("nan")})
