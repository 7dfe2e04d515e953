"""The game an append starts from stays cached between appends, and a writer elsewhere can never make
it land at a wrong position: the insert's (game, version) key catches the stale copy, which is evicted
and the batch judged again against the stored head."""
from __future__ import annotations

import pytest

from service.context import Archive
from service.errors import GameNotFound, StalePosition
from tests.helpers import generated

VOID_2 = [{"type": "FactVoided", "data": {"seqs": [2]}}]  # legal at any position after #2


@pytest.fixture
def other(archive):
    """A second Archive on the same database: another server process, with a cache of its own."""
    a = Archive(archive.db)
    yield a
    a.close()


def _started(archive, seed: int, facts_first: int = 5):
    header, facts = generated(seed=seed)
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts[:facts_first], expected_position=0)
    return game.id, facts


def _cached_position(archive, game_id) -> int:
    return archive.games.repository.cache.get(game_id).position


def _stored_seqs(archive, game_id) -> list[int]:
    return [r.fact.seq for r in archive.games.get_game(game_id).recorded]


def test_the_saved_game_is_kept_as_the_next_append_starts_from_it(archive, other):
    game_id, facts = _started(archive, seed=301)
    archive.games.record(game_id, facts[5:6], expected_position=5)
    assert _cached_position(archive, game_id) == 6  # the appended fact is in the cached game, not read back
    other.games.record(game_id, facts[6:8], expected_position=6)
    assert _cached_position(archive, game_id) == 6  # nothing asked the store what is new


def test_a_stale_cache_does_not_refuse_the_right_expected_position(archive, other):
    game_id, facts = _started(archive, seed=302)
    other.games.record(game_id, facts[5:8], expected_position=5)
    result = archive.games.record(game_id, facts[8:9], expected_position=8)
    assert (result["first_seq"], result["position"]) == (9, 9)
    assert _stored_seqs(archive, game_id) == list(range(1, 10))
    assert _cached_position(archive, game_id) == 9


def test_a_stale_expected_position_is_refused_with_the_stored_position(archive, other):
    game_id, facts = _started(archive, seed=303)
    other.games.record(game_id, facts[5:8], expected_position=5)
    with pytest.raises(StalePosition) as err:
        archive.games.record(game_id, facts[5:6], expected_position=5)  # what this process last saw
    assert err.value.details["position"] == 8
    assert _stored_seqs(archive, game_id) == list(range(1, 9))


def test_an_append_checked_against_a_stale_cache_lands_after_the_other_writer(archive, other):
    game_id, facts = _started(archive, seed=304)
    other.games.record(game_id, facts[5:8])
    # legal at the cached position too, so the insert's key is what catches the stale copy
    result = archive.games.record(game_id, VOID_2, command_id="late")
    assert (result["first_seq"], result["replayed"]) == (9, False)
    stored = archive.games.get_game(game_id)
    assert [r.fact.seq for r in stored.recorded] == list(range(1, 10))
    assert [r.fact.type for r in stored.recorded[5:8]] == [f["type"] for f in facts[5:8]]
    assert stored.commands["late"] == {"first": 9, "last": 9}
    fresh = Archive(archive.db)  # the stored chain continues from the other writer's last event
    try:
        assert fresh.games.get_game(game_id).chain == stored.chain
    finally:
        fresh.close()


def test_a_fact_legal_only_after_the_other_writers_facts_is_not_refused(archive, other):
    game_id, facts = _started(archive, seed=305)
    other.games.record(game_id, facts[5:9])
    # facts[9] follows facts[5:9]; against the stale head (5 facts) a strict game would refuse it
    result = archive.games.record(game_id, facts[9:10])
    assert result["first_seq"] == 10
    assert _stored_seqs(archive, game_id) == list(range(1, 11))


def test_a_command_stored_by_the_other_writer_is_answered_as_a_replay(archive, other):
    game_id, facts = _started(archive, seed=306)
    first = other.games.record(game_id, VOID_2, command_id="tablet-1")
    again = archive.games.record(game_id, VOID_2, command_id="tablet-1")  # the retry reached another process
    assert again["replayed"] is True
    assert (again["first_seq"], again["last_seq"]) == (first["first_seq"], first["last_seq"]) == (6, 6)
    assert _stored_seqs(archive, game_id) == list(range(1, 7))


def test_writers_alternating_between_two_archives_keep_one_gapless_order(archive, other):
    game_id, facts = _started(archive, seed=307)
    for n in range(10):
        writer = (archive, other)[n % 2]
        result = writer.games.record(game_id, VOID_2, command_id=f"alt-{n}")
        assert result["first_seq"] == 6 + n
    assert _stored_seqs(archive, game_id) == list(range(1, 16))
    assert _stored_seqs(other, game_id) == list(range(1, 16))


def test_the_header_names_the_league_and_refuses_what_is_not_a_game(archive):
    header, _ = generated(seed=308)
    game = archive.games.create_game({**header, "league": "Thursday league"})
    found = archive.games.header(game.id)
    assert (found.id, found.league, found.ruleset_name) == (game.id, "Thursday league", header["ruleset"])
    from uuid import uuid4

    with pytest.raises(GameNotFound):
        archive.games.header(uuid4())


def test_appends_to_a_cached_game_read_nothing_back(archive, monkeypatch):
    """One round trip per append: the insert. A spy on the real recorder counts the reads."""
    game_id, facts = _started(archive, seed=309)
    recorder = archive.games.recorder
    reads = []
    real = recorder.select_events
    monkeypatch.setattr(recorder, "select_events", lambda *a, **k: reads.append(k) or real(*a, **k))
    for pos in range(5, 15):
        archive.games.record(game_id, facts[pos:pos + 1], expected_position=pos, command_id=f"c{pos}")
    assert reads == []
    assert _stored_seqs(archive, game_id) == list(range(1, 16))
