"""Two tablets on one game: no fact lost, none stored twice, stale writers told where the game is."""
from __future__ import annotations

import threading

import pytest

from service.archive import Games
from service.errors import StalePosition
from tests.helpers import generated


def test_racing_writers_without_expected_position_both_land_in_order(archive):
    header, facts = generated(seed=71)
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts[:5])
    # a second application object = a second process/tablet with its own connections
    other = Games(env=archive.db.eventsourcing_env())
    barrier = threading.Barrier(2)
    results = {}

    def write(name, app, batch):
        barrier.wait()
        results[name] = app.record(game.id, batch, command_id=name)

    # two facts that are each legal whatever lands first: lenient flags would show otherwise
    a = threading.Thread(target=write, args=("a", archive.games, [{"type": "FactVoided", "data": {"seqs": [5]}}]))
    b = threading.Thread(target=write, args=("b", other, [{"type": "FactVoided", "data": {"seqs": [4]}}]))
    a.start(), b.start(), a.join(), b.join()
    other.close()
    assert sorted(r["first_seq"] for r in results.values()) == [6, 7]
    stored = archive.games.get_game(game.id)
    assert stored.position == 7
    assert sorted(r.command_id for r in stored.recorded[5:]) == ["a", "b"]


def test_a_stale_writer_is_refused_and_told_the_position(archive):
    header, facts = generated(seed=72)
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts[:3], expected_position=0)
    with pytest.raises(StalePosition) as err:
        archive.games.record(game.id, facts[3:4], expected_position=0)
    assert err.value.details["position"] == 3
