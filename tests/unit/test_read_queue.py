"""Readers queued on one game's lock during a database outage (service/archive.py)."""
from __future__ import annotations

import threading
import time
from uuid import uuid4

import pytest
from eventsourcing.persistence import OperationalError

from service import archive
from service.errors import GameBusy


def test_readers_queued_behind_a_read_that_finds_the_database_down_fail_at_once():
    stripes, game = archive._ReadStripes(), uuid4()
    holding, outcomes, ran = threading.Event(), [], []

    def first():
        with pytest.raises(OperationalError):
            with stripes.holding(game):
                holding.set()
                time.sleep(0.3)  # spending its connect budget
                raise OperationalError("connection refused")

    def queued(i):
        t = time.monotonic()
        try:
            with stripes.holding(game):
                ran.append(i)
            outcomes.append(("ran", time.monotonic() - t))
        except OperationalError:
            outcomes.append(("down", time.monotonic() - t))

    a = threading.Thread(target=first)
    a.start()
    holding.wait(2)
    waiting = [threading.Thread(target=queued, args=(i,)) for i in range(4)]
    for w in waiting:
        w.start()
    for w in [a, *waiting]:
        w.join(5)
    assert ran == [] and [o for o, _ in outcomes] == ["down"] * 4
    assert max(s for _, s in outcomes) < 1.0  # none tried the database in turn
    with stripes.holding(game):  # a reader arriving afterwards tries again
        ran.append("later")
    assert ran == ["later"]


def test_a_reader_that_cannot_get_its_turn_in_time_is_told_to_retry(monkeypatch):
    monkeypatch.setattr(archive, "READ_LOCK_WAIT", 0.2)
    stripes, game = archive._ReadStripes(), uuid4()
    stripes._locks[hash(game) % len(stripes._locks)].acquire()
    t = time.monotonic()
    with pytest.raises(GameBusy) as e:
        with stripes.holding(game):
            pass
    assert 0.15 < time.monotonic() - t < 1.0 and e.value.details["retry_after"] == 1
