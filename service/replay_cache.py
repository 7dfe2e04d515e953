"""Replays kept in memory per game, view and perspective, extended by each new fact (decision 0031).

A game's replay at position p+k is its replay at p with the k new facts folded on (a correction among
them refolds from the earliest step it touches): a viewer or a recorder following a live game costs
one fold step per new fact, not a refold of the game. Every K steps (``snapshot_every``) the folded
state is also written to PostgreSQL (service/replay_snapshots.py, in the background), so a step of a
replay no process has in memory is folded from the nearest snapshot: at most K facts applied.

Memory is bounded: at most ``games`` replays and ``steps`` steps in all, the least recently used
dropped first. Settings: NEMESIS_REPLAY_CACHE_GAMES, NEMESIS_REPLAY_CACHE_STEPS,
NEMESIS_REPLAY_SNAPSHOT_EVERY (0: no snapshots), or ``nemesis-archive serve --replay-cache-games …``.
"""
from __future__ import annotations

import logging
import os
import queue
import threading
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence
from uuid import UUID

from service.rules.base import Fact
from service.rules.replay import (Checkpoint, Folding, Step, correction_targets, earliest_touched, effective_facts,
                                  step_seqs)

log = logging.getLogger(__name__)

DEFAULT_GAMES = 64
DEFAULT_STEPS = 100_000
DEFAULT_SNAPSHOT_EVERY = 25  # decision 0043: at 50 the costliest cold steps (49 facts applied) passed 8 ms


def _setting(name: str, default: int, low: int, high: int, what: str) -> int:
    value = os.environ.get(name, "")
    try:
        number = int(value) if value else default
    except ValueError:
        raise ValueError(f"{name} must be a whole number of {what}, not {value[:20]!r}") from None
    if not low <= number <= high:
        raise ValueError(f"{name} must be between {low} and {high} {what}, not {number}")
    return number


@dataclass(frozen=True)
class ReplaySettings:
    games: int = DEFAULT_GAMES  # replays kept (a game's views and perspectives count one each)
    steps: int = DEFAULT_STEPS  # steps kept in all replays together
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY  # K: a snapshot row every K steps (0: none)

    @classmethod
    def from_env(cls) -> "ReplaySettings":
        return cls(_setting("NEMESIS_REPLAY_CACHE_GAMES", DEFAULT_GAMES, 0, 100_000, "replays"),
                   _setting("NEMESIS_REPLAY_CACHE_STEPS", DEFAULT_STEPS, 0, 100_000_000, "steps"),
                   _setting("NEMESIS_REPLAY_SNAPSHOT_EVERY", DEFAULT_SNAPSHOT_EVERY, 0, 100_000, "steps"))


class GameFacts(Sequence):
    """A game's facts as a sequence, without copying them all out of its recorded list."""

    __slots__ = ("_recorded",)

    def __init__(self, recorded: list) -> None:
        self._recorded = recorded

    def __len__(self) -> int:
        return len(self._recorded)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [r.fact for r in self._recorded[i]]
        return self._recorded[i].fact

    def __iter__(self) -> Iterator[Fact]:
        return (r.fact for r in self._recorded)


@dataclass
class Entry:
    """One cached replay: the fold, and what doors derive from exactly this fold (a story, HTML)."""

    folding: Folding
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        return len(self.folding.replay.steps)


@dataclass
class Counters:
    hits: int = 0  # the replay at the asked position was in memory
    extended: int = 0  # folded on from an older one (only the new facts applied)
    folded: int = 0  # folded from the setup
    resumed: int = 0  # a single step folded from a snapshot (or the setup), the replay not in memory
    applied_from_snapshot: int = 0
    snapshots_written: int = 0


def _unread_steps(facts: Sequence[Fact], seq: int, last: int, corrected: bool) -> int:
    """The steps among the facts after ``seq`` that a cold read left out (``Games.cold_read``): table facts,
    each one step in the played view and in the corrected view unless the latest correction of it among
    ``facts`` (which holds every correction) voids it, as ``effective_facts`` would fold them."""
    read = {f.seq for f in facts if f.seq > seq}
    unread = max(last - seq, 0) - len(read)
    if not corrected or not unread:
        return unread
    latest: dict[int, str] = {}
    for f in facts:
        for target in correction_targets(f):
            latest[target] = f.type
    return unread - sum(1 for target, kind in latest.items()
                        if kind == "FactVoided" and isinstance(target, int) and seq < target <= last and target not in read)


class ReplayCache:
    """Folded replays of the games this process serves (thread-safe; one fold per game at a time)."""

    def __init__(self, db=None, settings: ReplaySettings | None = None) -> None:
        from service.replay_snapshots import SnapshotStore

        self.settings = settings or ReplaySettings.from_env()
        self.store = SnapshotStore(db) if db is not None else None
        self.counters = Counters()
        self._lock = threading.Lock()
        self._entries: "OrderedDict[tuple[UUID, bool, str], Entry]" = OrderedDict()
        self._steps = 0
        self._folding = [threading.Lock() for _ in range(64)]  # per game: two readers do not fold it twice
        self._writes: "queue.Queue[tuple | None]" = queue.Queue(maxsize=256)
        self._writer: threading.Thread | None = None

    # -- settings and size ----------------------------------------------------------------------

    def configure(self, games: int | None = None, steps: int | None = None, snapshot_every: int | None = None) -> None:
        s = self.settings
        self.settings = ReplaySettings(s.games if games is None else games, s.steps if steps is None else steps,
                                       s.snapshot_every if snapshot_every is None else snapshot_every)
        with self._lock:
            self._evict()

    @property
    def size(self) -> tuple[int, int]:
        """(replays, steps) held now."""
        with self._lock:
            return len(self._entries), self._steps

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._steps = 0

    # -- replays --------------------------------------------------------------------------------

    def entry(self, game, corrected: bool = True, as_: str = "all") -> Entry:
        """The replay of ``game`` (an aggregate at some position) as ``as_`` saw it, in the view asked for."""
        entry = self._entry(game, corrected, as_)
        if corrected:  # the all-seeing state at the head is the game's head state: it need not fold it again
            game.know_head(entry.folding.position, entry.folding.truth)
        return entry

    def _entry(self, game, corrected: bool, as_: str) -> Entry:
        key = (game.id, corrected, as_)
        position = game.position
        hit = self._get(key)
        if hit is not None and hit.folding.position == position:
            self.counters.hits += 1
            return hit
        with self._folding[hash(game.id) % len(self._folding)]:
            hit = self._get(key)  # folded by the reader this one waited for?
            if hit is not None and hit.folding.position == position:
                self.counters.hits += 1
                return hit
            facts = GameFacts(game.recorded)
            if hit is not None and hit.folding.position < position:
                folding = hit.folding.extended(facts)
                self.counters.extended += 1
            else:  # not in memory, or this reader read the game before the one cached (it gets its own)
                folding = Folding.start(game.ruleset, game.setup, corrected, as_).extended(facts)
                self.counters.folded += 1
            entry = Entry(folding)
            if hit is None or hit.folding.position < position:
                self._put(key, entry)
                self._snapshot(game.id, folding)
        return entry

    def step(self, game, seq: int, corrected: bool = True, as_: str = "all") -> tuple[Step, int, int]:
        """Step ``seq`` (or the latest before it) of a replay, its index and the replay's number of steps.

        From memory when the replay is there; else folded from the nearest snapshot before it (at most
        ``snapshot_every`` facts applied), without folding the rest of the game.
        """
        hit = self._get((game.id, corrected, as_))
        if (hit is not None and hit.folding.position <= game.position) or self.store is None \
                or not self.settings.snapshot_every:  # in memory (extended by any new facts), or nothing else to use
            rp = self.entry(game, corrected, as_).folding.replay
            index = rp.index_of(seq)
            return rp.steps[index], index, len(rp.steps)
        facts = GameFacts(game.recorded)
        seqs = step_seqs(facts, corrected)
        index = max(bisect_right(seqs, seq) - 1, 0)
        at = None
        if index > 0:
            try:
                at = self.store.nearest(game.id, game.ruleset, game.setup, facts, seqs, corrected, as_, index)
            except Exception as e:  # noqa: BLE001 - a cache: the step is folded without it
                log.warning("replay snapshots not read (%s); folding from the setup", e)
            if at is None and index > self.settings.snapshot_every:  # none written yet: fold it once, which writes them
                entry = self.entry(game, corrected, as_)
                rp = entry.folding.replay
                return rp.steps[index], index, len(rp.steps)
        self.counters.resumed += 1
        self.counters.applied_from_snapshot += index - (at.index if at else 0)
        return Folding.resumed(game.ruleset, game.setup, facts, at, index, corrected, as_), index, len(seqs)

    def cold_step(self, games, game_id: UUID, seq: int, corrected: bool = True, as_: str = "all"
                  ) -> tuple[Step, int, int, Any] | None:
        """Step ``seq`` of a replay nobody has in memory, without loading the game (decision 0041).

        One query (``Games.cold_read``) gives the game's header, the nearest snapshot row of a step before
        ``seq``, the game's facts after that row's fact up to ``seq`` and the corrections and remarks after it,
        decoded from their rows; the facts up to the step are applied to the row's state. The table facts after
        ``seq`` are neither read nor decoded: each is one step of the replay's length (decision 0043). Returns (step, its index, the replay's number of steps, the
        header), or None when this path does not apply and the caller loads the game (:meth:`step`): the
        replay is in memory, snapshots are off, no row is usable (none written yet past the first K steps,
        or a correction recorded since the row touches its step or one before it), or the step asked for
        is the row's own. Raises GameNotFound.
        """
        from service.replay_snapshots import decode, rules_fingerprint
        from service.rules import get_ruleset

        k = self.settings.snapshot_every
        if self.store is None or not k or self._get((game_id, corrected, as_)) is not None:
            return None
        from service.rules.registry import RULESETS

        # a game's rows are keyed by its ruleset's fingerprint; the header comes with the same query, so every
        # ruleset's is asked for (a game has one ruleset: its rows are of that one only)
        found = games.cold_read(game_id, [rules_fingerprint(name) for name in sorted(RULESETS)], corrected, as_, seq)
        if found is None:
            return None
        header, row, facts = found.header, found.row, found.facts
        ruleset = get_ruleset(header.ruleset_name)
        if row is not None and row.rules != rules_fingerprint(ruleset.name):
            return None
        after = row.seq if row is not None else 0
        if row is not None:
            if row.position > found.last:
                return None
            if corrected:
                since = bisect_right([f.seq for f in facts], row.position)  # the facts recorded after the row's fold
                touched = earliest_touched(facts, since)
                if touched is not None and touched <= after:  # a correction since the row changed its step or one before
                    return None
        later = [f.seq for f, _, _ in effective_facts(facts, corrected) if not corrected or f.type != "FactAnnotated"]
        first = row.index if row is not None else 0
        index = first + bisect_right(later, seq)
        if row is not None and index == first:
            return None  # the row's own step: its fact and consequences are not in the row
        if row is None and index > k:
            return None  # no row yet: the game is folded once, which writes them (step())
        steps = first + 1 + len(later) + _unread_steps(facts, seq, found.last, corrected)
        setup = header.setup
        at = None
        if row is not None:
            try:
                state, truth = decode(self.store.initial_state(ruleset, setup), row.state)
            except Exception as e:  # noqa: BLE001 - a cache row that cannot be read: load the game
                log.warning("replay snapshot of game %s step %s not usable: %s", game_id, row.index, e)
                return None
            at = Checkpoint(row.index, row.seq, state, truth)
        self.counters.resumed += 1
        self.counters.applied_from_snapshot += index - first
        step = Folding.resumed(ruleset, setup, facts, at, index, corrected, as_)
        return step, index, steps, header

    # -- the LRU ------------------------------------------------------------------------------

    def _get(self, key) -> Entry | None:
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None:
                self._entries.move_to_end(key)
            return hit

    def _put(self, key, entry: Entry) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._steps -= old.steps
            self._entries[key] = entry
            self._steps += entry.steps
            self._evict()

    def _evict(self) -> None:
        s = self.settings
        while self._entries and (len(self._entries) > s.games or self._steps > s.steps):
            _, old = self._entries.popitem(last=False)
            self._steps -= old.steps

    # -- snapshots ------------------------------------------------------------------------------

    def _snapshot(self, game_id: UUID, folding: Folding) -> None:
        """Queue the checkpoints this fold made (every K-th step from the first new one) for writing."""
        k = self.settings.snapshot_every
        if self.store is None or not k:
            return
        first = -(-max(folding.fresh_from, 1) // k) * k
        indices = range(first, len(folding.replay.steps), k)
        if not indices:
            return
        try:
            self._writes.put_nowait((game_id, folding, indices))
        except queue.Full:
            return  # the writer is behind: these are written by a later fold
        if self._writer is None or not self._writer.is_alive():
            with self._lock:
                if self._writer is None or not self._writer.is_alive():
                    self._writer = threading.Thread(target=self._write_loop, name="replay-snapshots", daemon=True)
                    self._writer.start()

    def _write_loop(self) -> None:
        while True:
            job = self._writes.get()
            try:
                if job is None:
                    return
                game_id, folding, indices = job
                self.counters.snapshots_written += self.store.save(
                    game_id, folding.ruleset, folding.setup, folding.corrected, folding.as_, folding.position,
                    [folding.checkpoint(i) for i in indices], initial=folding.replay.steps[0].state)
            except Exception as e:  # noqa: BLE001 - a cache: a failed write costs a later cold step some folding
                log.warning("replay snapshots not written: %s", e)
            finally:
                self._writes.task_done()

    def flush(self) -> None:
        """Wait until every queued snapshot is written (tests, benchmarks, shutdown)."""
        if self._writer is not None and self._writer.is_alive():
            self._writes.join()

    def close(self) -> None:
        if self._writer is not None and self._writer.is_alive():
            self._writes.put(None)
            self._writer.join(timeout=5)
