"""The replay cache (decision 0031) on a real PostgreSQL: a replay extended fact by fact as a game is
recorded, and a step folded from the snapshot rows, equal a fresh fold at every step; a correction or a
void invalidates what it touches; memory stays within its bounds; a page folds a game once."""
from __future__ import annotations

import dataclasses
from uuid import uuid4

import pytest

from service.demo import HERE as DEMO_DIR
from service.notation import parse
from service.replay_cache import ReplayCache, ReplaySettings
from service.rules.replay import fold
from service.schemas import GameHeaderSchema
from tests.helpers import generated

DEMOS = ("club-three-players.jsonl", "friday-four-players.jsonl", "solo-evening.jsonl")
K = 16  # a snapshot every 16 steps: several per demo game


def _part(f: dict) -> dict:
    return {k: f[k] for k in ("type", "actor", "data", "visibility") if k in f}


def _new_game(archive, name: str):
    parsed = parse((DEMO_DIR / name).read_text(encoding="utf-8"), name)
    header = {**parsed.header, "id": uuid4()}
    return archive.games.create_game(header), parsed.facts


def _same_steps(a, b) -> None:
    assert a.seqs == b.seqs
    for x, y in zip(a.steps, b.steps):
        assert x == y, f"step #{x.seq} differs from a fresh fold"


def _fresh(game, corrected=True, as_="all"):
    return fold(game.ruleset, game.setup, game.facts, corrected, as_)


@pytest.mark.slow
@pytest.mark.parametrize("name", DEMOS)
def test_a_demo_game_followed_fact_by_fact_then_stepped_cold_equals_a_fresh_fold_at_every_step(archive, name):
    cache = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))
    game, facts = _new_game(archive, name)
    for i, f in enumerate(facts):  # a viewer following the game as it is recorded
        archive.games.record(game.id, [_part(f)])
        game = archive.games.get_game(game.id)
        entry = cache.entry(game, corrected=True, as_="public")
        if i % 25 == 0:
            _same_steps(entry.folding.replay, _fresh(game, True, "public"))
    assert cache.counters.folded == 1 and cache.counters.extended == len(facts) - 1  # never refolded
    for corrected, as_ in ((True, "public"), (True, "all"), (False, "all")):
        fresh = _fresh(game, corrected, as_)
        _same_steps(cache.entry(game, corrected, as_).folding.replay, fresh)
        cache.flush()
        cold = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))  # another process
        for index, expected in enumerate(fresh.steps):
            step, at, steps = cold.step(game, expected.seq, corrected, as_)
            assert (step, at, steps) == (expected, index, len(fresh.steps)), f"step {index} (#{expected.seq})"
        assert cold.counters.folded == 0  # no step needed the whole game folded
        assert cold.counters.applied_from_snapshot <= len(fresh.steps) * K  # at most K applies a step
    assert archive.replays.store.count(game.id) > 0


def _correction_game(archive):
    header, facts = generated(seed=5, players=3, max_rounds=3)
    game = archive.games.create_game(GameHeaderSchema().load({**header, "strict": False}))
    archive.games.record(game.id, facts)
    return archive.games.get_game(game.id)


@pytest.mark.parametrize("correction", ["void early", "void late", "replace", "void a note", "note"])
def test_a_correction_recorded_later_invalidates_the_cached_replay_and_the_snapshots_it_touches(archive, correction):
    game = _correction_game(archive)
    cache = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))
    before = cache.entry(game).folding.replay
    cache.flush()
    table = [f for f in game.facts if not f.type.startswith(("Fact", "Commented"))]
    target = table[3] if correction != "void late" else table[-4]
    batch = {
        "void early": [{"type": "FactVoided", "data": {"seqs": [target.seq], "reason": "did not happen"}}],
        "void late": [{"type": "FactVoided", "data": {"seqs": [target.seq]}}],
        "replace": [{"type": "FactReplaced", "data": {"seq": target.seq, "reason": "same again", "replacement": {
            "type": target.type, "actor": target.actor, "data": dict(target.data)}}}],
        "note": [{"type": "FactAnnotated", "data": {"seq": target.seq, "note": "the die fell off"}}],
        "void a note": [{"type": "FactAnnotated", "data": {"seq": target.seq, "note": "wrong"}},
                        {"type": "FactVoided", "data": {"seqs": [game.position + 1]}}],
    }[correction]
    archive.games.record(game.id, batch)
    game = archive.games.get_game(game.id)
    fresh = _fresh(game)
    # the rows written before the correction: those of a step it touched (or later) are stale now
    found = cache.store.nearest(game.id, game.ruleset, game.setup, game.facts, fresh.seqs, True, "all", len(fresh.steps) - 1)
    assert found is None or found.seq < target.seq or correction == "note"  # a note changes no state
    assert found is not None or correction != "void late"  # the rows before the fact voided still serve
    after = cache.entry(game).folding.replay
    _same_steps(after, fresh)
    assert cache.counters.folded == 1 and cache.counters.extended == 1
    kept = fresh.index_of(target.seq - 1)
    assert all(a is b for a, b in zip(after.steps[:kept], before.steps[:kept]))  # the steps before it were kept
    if correction.startswith("void"):
        assert correction == "void a note" or target.seq not in after.seqs
    if correction in ("note", "void a note"):
        assert after.at(target.seq).notes == (() if correction == "void a note" else ("the die fell off",))
    # another process, stepping cold before the new fold's snapshots are written: the old rows after the
    # target are stale and must not be used; the ones before it still are
    cold = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))
    for index in range(len(fresh.steps)):
        step, at, steps = cold.step(game, fresh.steps[index].seq)
        assert (step, at, steps) == (fresh.steps[index], index, len(fresh.steps))


def test_memory_stays_within_its_bounds_least_recently_used_first(archive):
    games = []
    for seed in (1, 2, 3):
        header, facts = generated(seed=seed, players=2, max_rounds=1)
        g = archive.games.create_game(GameHeaderSchema().load(header))
        archive.games.record(g.id, facts)
        games.append(archive.games.get_game(g.id))
    sizes = [len(_fresh(g).steps) for g in games]
    cache = ReplayCache(None, ReplaySettings(games=2, steps=10_000, snapshot_every=0))
    for g in games:
        cache.entry(g)
    assert cache.size == (2, sizes[1] + sizes[2])  # the first, least recently used, went
    cache.entry(games[1])  # used: now the third is the oldest
    cache.configure(steps=sizes[1] + 1)
    assert cache.size == (1, sizes[1])
    cache.configure(steps=sizes[0] - 1)
    cache.entry(games[0])  # a replay larger than the whole bound is served but not kept
    replays, steps = cache.size
    assert steps <= sizes[0] - 1


def test_a_replay_page_folds_a_game_once_on_its_first_request(archive, monkeypatch):
    from web import create_app

    header, facts = generated(seed=7, players=3, max_rounds=2)
    g = archive.games.create_game(GameHeaderSchema().load(header))
    archive.games.record(g.id, facts)
    archive.games.repository.cache = type(archive.games.repository.cache)(maxsize=200)  # a process that never read it
    archive.replays.clear()
    ruleset = archive.games.get_game(g.id).ruleset
    applied = []
    real, real_checked = ruleset.apply, ruleset.checked_apply
    monkeypatch.setattr(ruleset, "apply", lambda state, fact: (applied.append(fact.seq), real(state, fact))[1])
    # a fold applies each fact through checked_apply (check and apply in one, decision 0036)
    monkeypatch.setattr(ruleset, "checked_apply",
                        lambda state, fact: (applied.append(fact.seq), real_checked(state, fact))[1])
    app = create_app({"ARCHIVE": archive})
    r = app.test_client().get(f"/games/{g.id}/step/5?as=all")
    assert r.status_code == 200
    assert sorted(applied) == list(range(1, len(facts) + 1))  # each fact once: no fold for the head, none twice
    applied.clear()
    archive.games.record(g.id, [{"type": "Commented", "data": {"text": "one more"}}])
    assert app.test_client().get(f"/games/{g.id}/step/5?as=all").status_code == 200
    assert applied == []  # a comment is one more step, folded on without applying a rule
    archive.games.repository.cache = type(archive.games.repository.cache)(maxsize=200)  # the game read afresh,
    assert app.test_client().get(f"/games/{g.id}/step/9?as=all").status_code == 200   # its replay still cached
    assert applied == []  # the cached replay's head is the game's: no fold for the head either


def test_a_snapshot_is_not_read_by_other_rules_nor_allowed_to_build_anything_else(archive, monkeypatch):
    import pickle

    from service import replay_snapshots

    game = _correction_game(archive)
    cache = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))
    cache.entry(game)
    cache.flush()
    facts, seqs = game.facts, _fresh(game).seqs
    store = cache.store
    assert store.nearest(game.id, game.ruleset, game.setup, facts, seqs, True, "all", len(seqs) - 1) is not None
    monkeypatch.setattr(replay_snapshots, "rules_fingerprint", lambda name: f"{name}:a-fixed-rule")
    assert store.nearest(game.id, game.ruleset, game.setup, facts, seqs, True, "all", len(seqs) - 1) is None

    class Evil:
        def __reduce__(self):
            return (print, ("owned",))

    initial = _fresh(game).steps[0].state
    with pytest.raises(pickle.UnpicklingError, match="may not build builtins.print"):
        replay_snapshots.decode(initial, pickle.dumps((Evil(), None)))
    assert replay_snapshots.decode(initial, replay_snapshots.encode(initial, initial, None)) == (initial, None)
    assert dataclasses.is_dataclass(initial)


def _later_corrections(game, correction: str) -> list[dict]:
    """A batch recorded after the game's facts: corrections and remarks of earlier or later facts."""
    table = [f for f in game.facts if not f.type.startswith(("Fact", "Commented"))]
    early, late = table[3], table[-4]
    return {
        "void early": [{"type": "FactVoided", "data": {"seqs": [early.seq]}}],
        "void late": [{"type": "FactVoided", "data": {"seqs": [late.seq]}}],
        "note": [{"type": "FactAnnotated", "data": {"seq": early.seq, "note": "a die fell"}}],
        # decision 0043: the facts after a step are not read, only counted; these change that count or
        # a step's fact: two late table facts voided (one of them twice), one replaced then voided, one
        # voided then replaced (the latest correction wins), a middle one replaced, a comment
        "corrections of later facts": [
            {"type": "FactVoided", "data": {"seqs": [table[-2].seq, table[-6].seq]}},
            {"type": "FactVoided", "data": {"seqs": [table[-6].seq]}},
            {"type": "FactReplaced", "data": {"seq": table[-8].seq, "replacement": {
                "type": table[-8].type, "actor": table[-8].actor, "data": dict(table[-8].data)}}},
            {"type": "FactVoided", "data": {"seqs": [table[-8].seq]}},
            {"type": "FactVoided", "data": {"seqs": [table[-10].seq]}},
            {"type": "FactReplaced", "data": {"seq": table[-10].seq, "replacement": {
                "type": table[-10].type, "actor": table[-10].actor, "data": dict(table[-10].data)}}},
            {"type": "FactReplaced", "data": {"seq": table[len(table) // 2].seq, "replacement": {
                "type": table[len(table) // 2].type, "actor": table[len(table) // 2].actor,
                "data": dict(table[len(table) // 2].data)}}},
            {"type": "Commented", "data": {"text": "a long pause"}},
        ],
    }[correction]


def _cold_steps_equal_the_full_fold(archive, game, served_at_least=None):
    """Every step that the cold path serves, in both views, equals the full fold's (step, index, steps)."""
    served = {}
    for corrected in (True, False):
        fresh = _fresh(game, corrected)
        cold = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))  # another process
        served[corrected] = 0
        for index, expected in enumerate(fresh.steps):
            found = cold.cold_step(archive.games, game.id, expected.seq, corrected)
            if found is None:
                continue
            step, at, steps, head = found
            assert (step, at, steps) == (expected, index, len(fresh.steps)), f"step {index} (#{expected.seq})"
            assert head.id == game.id
            served[corrected] += 1
        assert cold.counters.folded == 0 and cold.counters.applied_from_snapshot <= served[corrected] * K
    return served


@pytest.mark.parametrize("correction", [None, "void early", "void late", "note", "corrections of later facts"])
def test_a_cold_step_from_the_snapshot_row_and_the_rows_after_it_equals_the_full_fold(archive, correction):
    """Decision 0041: a step nobody has in memory is the nearest snapshot row plus the facts after it, read as
    rows in one query, without loading the game; it equals the full fold's step, in both views, and a row
    that a later correction made stale is never used (the step is then loaded as before). Decision 0043: the
    table facts after the step are counted, not read; corrections of them still count."""
    game = _correction_game(archive)
    writer = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))
    writer.entry(game)
    writer.entry(game, corrected=False)
    writer.flush()
    if correction is not None:
        archive.games.record(game.id, _later_corrections(game, correction))
        game = archive.games.get_game(game.id)
    header = archive.games.header(game.id)
    assert (header.ruleset_name, header.setup) == (game.ruleset_name, game.setup)
    served = _cold_steps_equal_the_full_fold(archive, game)
    for corrected in (True, False):
        steps = len(_fresh(game, corrected).steps)
        # every step but the rows' own (and, after an early void, those after it in the corrected view) is served
        rows_own = steps // K + 1
        if correction == "void early" and corrected:
            assert served[corrected] <= K + 1
        elif correction == "corrections of later facts" and corrected:
            assert served[corrected] >= len(_fresh(game).seqs) // 2 - rows_own - K  # rows after the middle one are stale
        else:
            assert served[corrected] >= steps - rows_own - K


def test_a_cold_read_sends_the_facts_up_to_the_step_and_only_the_corrections_after_it(archive):
    """Decision 0043: the table facts after the step asked for are neither sent nor decoded, whatever their
    number; the corrections and remarks after it are (they change the step or the replay's length)."""
    from service.replay_snapshots import rules_fingerprint

    game = _correction_game(archive)
    writer = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))
    writer.entry(game)
    writer.flush()
    archive.games.record(game.id, _later_corrections(game, "corrections of later facts"))
    game = archive.games.get_game(game.id)
    later = [f for f in game.facts if f.type in ("FactVoided", "FactReplaced", "Commented", "FactAnnotated")]
    for seq in (3, K + 5, 2 * K + 1):
        found = archive.games.cold_read(game.id, [rules_fingerprint(game.ruleset_name)], True, "all", seq)
        after = found.row.seq if found.row is not None else 0
        assert [f.seq for f in found.facts if f.seq <= seq] == list(range(after + 1, seq + 1))
        assert {f.seq for f in found.facts if f.seq > seq} == {f.seq for f in later if f.seq > seq}
        assert found.last == game.position and found.header.id == game.id


def test_a_cold_step_of_an_enciphered_or_compressed_store_reads_every_row_and_still_equals_the_fold(archive, monkeypatch):
    """When the events' stored states are not plain JSON, the server cannot tell a table fact from a correction:
    every row after the snapshot is sent, and the later table facts are skipped here instead."""
    game = _correction_game(archive)
    writer = ReplayCache(archive.db, ReplaySettings(games=8, steps=100_000, snapshot_every=K))
    writer.entry(game)
    writer.entry(game, corrected=False)
    writer.flush()
    archive.games.record(game.id, _later_corrections(game, "void late"))
    game = archive.games.get_game(game.id)

    class Plain:  # a compressor that leaves the bytes as they are: the stored rows still read back
        @staticmethod
        def compress(data: bytes) -> bytes:
            return data

        @staticmethod
        def decompress(data: bytes) -> bytes:
            return data

    monkeypatch.setattr(archive.games.mapper, "compressor", Plain())
    served = _cold_steps_equal_the_full_fold(archive, game)
    assert served[True] > 0 and served[False] > 0


def test_the_state_api_serves_a_cold_step_without_loading_the_game(archive, monkeypatch):
    from service.errors import GameNotFound
    from web import create_app

    game = _correction_game(archive)
    archive.replays.configure(snapshot_every=K)
    archive.replays.entry(game)
    archive.replays.flush()
    archive.replays.clear()
    archive.games.repository.cache = type(archive.games.repository.cache)(maxsize=200)  # a process that never read it
    archive.games.forget_headers()
    loads = []
    real = archive.games.get_game
    monkeypatch.setattr(archive.games, "get_game", lambda *a, **kw: (loads.append(a), real(*a, **kw))[1])
    client = create_app({"ARCHIVE": archive}).test_client()
    fresh = _fresh(game)
    for index in (K + 3, len(fresh.steps) // 2, len(fresh.steps) - 1):
        r = client.get(f"/api/games/{game.id}/state?step={fresh.steps[index].seq}")
        assert r.status_code == 200
        body = r.get_json()
        assert (body["index"], body["steps"], body["seq"]) == (index, len(fresh.steps), fresh.steps[index].seq)
        assert body["state"] == game.ruleset.describe(fresh.steps[index].state)
    assert loads == []  # neither the gate's header nor the step loaded the game
    assert client.get(f"/api/games/{uuid4()}/state?step=3").status_code == 404
    with pytest.raises(GameNotFound):
        archive.games.header(uuid4())
