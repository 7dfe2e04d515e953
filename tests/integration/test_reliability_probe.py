"""The reliability probe's own detectors (bench/reliability.py): a probe that cannot see a wrong row
or a lost fact would report PASS for anything."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
reliability = pytest.importorskip("reliability")


def test_views_equal_a_clean_rebuild_until_a_row_is_changed(fresh_database, pg_server):
    db = fresh_database
    events = reliability.preload(db, 1)
    assert reliability.wait_views(db, 5) is not None  # the batched rebuild brought every view to the head
    same = reliability.compare_with_clean_rebuild(pg_server, db, "selftest")
    assert same.equal and same.events == events and same.rows > 0

    with db.connect() as conn:
        (active,) = conn.execute("SELECT active FROM read_models WHERE view = 'gameindex'").fetchone()
        conn.execute(f"UPDATE gameindex_g{active}_games SET title = 'tampered'")
    changed = reliability.compare_with_clean_rebuild(pg_server, db, "selftest")
    assert not changed.equal
    assert changed.differing["gameindex"] == 2  # the live row is extra, the clean one is missing
    assert changed.differing["gamestate"] == 0


def test_the_ledger_finds_an_acknowledged_command_the_store_lacks(fresh_archive):
    from tests.helpers import generated

    header, facts = generated(seed=3)
    game = fresh_archive.games.create_game(header)
    fresh_archive.games.record(game.id, facts[:2], command_id="tablet-1")
    tally = reliability.Tally(acked=[(str(game.id), "tablet-1"), (str(game.id), "tablet-2")])
    ledger = reliability.check_ledger(fresh_archive.db, [str(game.id)], tally)
    assert (ledger.lost, ledger.duplicated, ledger.stored_unacked) == (1, 0, 0)
