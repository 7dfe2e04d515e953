"""Many threads on one game: reads and appends never fail, nothing is lost or stored twice."""
from __future__ import annotations

import sys
import threading

import pytest

from service.archive import Games
from service.errors import GameBusy
from tests.helpers import generated


def _game_with_many_commands(archive, seed: int, n: int = 250):
    """A game whose aggregate holds many command ids, so copying it takes a while."""
    header, facts = generated(seed=seed)
    game = archive.games.create_game(header)
    for i, fact in enumerate(facts[:n]):
        archive.games.record(game.id, [fact], command_id=f"setup-{i}")
    return game.id, archive.games.get_game(game.id).position


@pytest.fixture
def busy_switching():
    """Switch threads every microsecond, so a copy and a fast-forward of the cached game interleave."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def test_reads_and_appends_on_one_game_from_many_threads(archive, busy_switching):
    """Before: copies taken outside the library's fast-forward lock saw half an event (or a dict
    changing size under them) and appends failed with IntegrityError after five tries."""
    game_id, start = _game_with_many_commands(archive, seed=81)
    writers, appends_each, readers = 4, 10, 6
    errors: list[BaseException] = []
    done = threading.Event()

    def write(w: int) -> None:
        try:
            for i in range(appends_each):  # voiding fact 1 again is legal in any order
                archive.games.record(game_id, [{"type": "FactVoided", "data": {"seqs": [1]}}], command_id=f"w{w}-{i}")
        except BaseException as e:  # noqa: BLE001 - the test reports whatever a thread met
            errors.append(e)

    def read() -> None:
        try:
            while not done.is_set():
                game = archive.games.get_game(game_id)
                # a copy is a consistent snapshot: every recorded fact is in its command table
                assert len(game.recorded) == game.position == game.version - 1
                assert sum(c["last"] - c["first"] + 1 for c in game.commands.values()) == game.position
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=read) for _ in range(readers)]
    threads += [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads[readers:]:
        t.join()
    done.set()
    for t in threads[:readers]:
        t.join()
    assert errors == []
    game = archive.games.get_game(game_id)
    assert game.position == start + writers * appends_each
    assert sorted(c for c in game.commands if c.startswith("w")) == sorted(
        f"w{w}-{i}" for w in range(writers) for i in range(appends_each)
    )


def test_writers_in_other_processes_without_expected_position_land_or_are_told_to_retry(archive):
    """Separate applications (like separate server processes) racing on one game: no IntegrityError."""
    header, facts = generated(seed=82)
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts[:5])
    apps = [Games(env=archive.db.eventsourcing_env(AGGREGATE_CACHE_MAXSIZE="10")) for _ in range(6)]
    barrier = threading.Barrier(len(apps))
    landed, busy, errors = [], [], []

    def write(n: int, app: Games) -> None:
        barrier.wait()
        for i in range(5):
            try:
                result = app.record(game.id, [{"type": "FactVoided", "data": {"seqs": [2]}}], command_id=f"p{n}-{i}")
                landed.append(result["first_seq"])
            except GameBusy as e:
                busy.append(e)
            except BaseException as e:  # noqa: BLE001
                errors.append(e)

    threads = [threading.Thread(target=write, args=(n, app)) for n, app in enumerate(apps)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for app in apps:
        app.close()
    assert errors == []
    stored = archive.games.get_game(game.id)
    assert stored.position == 5 + len(landed)  # every answered append is stored, once
    assert sorted(landed) == list(range(6, 6 + len(landed)))
    assert all(e.status == 503 and e.details["retry_after"] for e in busy)
