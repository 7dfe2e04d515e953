"""Replay snapshots in PostgreSQL (decision 0031): the folded state every K steps of a replay.

A cold step (a replay no process has in memory) is folded from the nearest snapshot before it, so it
applies at most K facts instead of the whole game. A snapshot is a cache row, never a source of truth:

- it is keyed by the **rules' fingerprint** (a digest of the ruleset code and data), so a fixed rule
  never meets a state folded by the old one — the next fold writes new rows;
- it holds ``position``, how many facts the game had when it was folded, and is used only if no
  correction recorded since then touches its step (events are never changed, so the facts before
  ``position`` are the ones it was folded from);
- a state that does not come back equal from its encoding is not stored.

States are pickled (the rules' frozen dataclasses, tuples, mappings), with every top-level field the
state shares with the game's set-up state (the board, the decks: components) stored as a reference
to it, and read back with an unpickler that builds nothing but the rules' own classes and plain
containers: a row cannot make the server run anything.
"""
from __future__ import annotations

import copyreg
import hashlib
import io
import logging
import pickle
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Sequence
from uuid import UUID

from psycopg.rows import tuple_row

from service.db import Database
from service.readpool import reading
from service.rules.base import Fact, Ruleset, Setup
from service.rules.replay import Checkpoint, earliest_touched

log = logging.getLogger(__name__)

RULES_DIR = Path(__file__).resolve().parent / "rules"
SAFE_BUILTINS = frozenset({"frozenset", "set", "tuple", "list", "dict", "int", "float", "str", "bytes", "bool",
                           "complex", "slice", "range", "object"})
SAFE_COPYREG = frozenset({"_reconstructor", "__newobj__", "__newobj_ex__"})


@lru_cache(maxsize=None)
def rules_fingerprint(name: str) -> str:
    """A digest of everything a fold runs: the ruleset's package and the generic fold (service/rules)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in RULES_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                       and p.suffix not in (".pyc", ".pyo")):
        digest.update(str(path.relative_to(RULES_DIR)).encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{name}:{digest.hexdigest()[:32]}"


def _proxy(mapping: dict) -> MappingProxyType:
    return MappingProxyType(mapping)


def _shared_fields(initial: Any) -> dict[int, tuple[str, Any]]:
    """The set-up state's top-level values that a later state may share (by identity), by id."""
    fields = getattr(initial, "__dict__", None) or {}
    return {id(v): (k, v) for k, v in fields.items() if not isinstance(v, (bool, int, float, str, type(None)))}


class _Pickler(pickle.Pickler):
    def __init__(self, file, shared: dict[int, tuple[str, Any]]) -> None:
        super().__init__(file, protocol=5)
        self.shared = shared
        self.dispatch_table = copyreg.dispatch_table.copy()
        self.dispatch_table[MappingProxyType] = lambda m: (_proxy, (dict(m),))

    def persistent_id(self, obj: Any) -> Any:
        found = self.shared.get(id(obj))
        return found[0] if found is not None and found[1] is obj else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, initial: Any) -> None:
        super().__init__(file)
        self.initial = initial

    def persistent_load(self, pid: Any) -> Any:
        if not isinstance(pid, str) or not hasattr(self.initial, pid):
            raise pickle.UnpicklingError(f"a snapshot refers to {pid!r}, which the set-up state does not have")
        return getattr(self.initial, pid)

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_proxy":
            return _proxy
        if (module == "builtins" and name in SAFE_BUILTINS) or (module == "copyreg" and name in SAFE_COPYREG):
            return super().find_class(module, name)
        if module.startswith("service.rules."):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not build {module}.{name}")


def encode(initial: Any, state: Any, truth: Any) -> bytes:
    out = io.BytesIO()
    _Pickler(out, _shared_fields(initial)).dump((state, truth))
    return out.getvalue()


def decode(initial: Any, data: bytes) -> tuple[Any, Any]:
    state, truth = _Unpickler(io.BytesIO(data), initial).load()
    return state, truth


class SnapshotStore:
    """Reads and writes the ``replay_snapshots`` rows of one database (through the read pool)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._unencodable: set[str] = set()  # rulesets whose states do not survive encoding (logged once)
        self._initial: dict[tuple[str, str], Any] = {}

    def initial_state(self, ruleset: Ruleset, setup: Setup) -> Any:
        key = (ruleset.name, repr(setup))
        found = self._initial.get(key)
        if found is None:
            if len(self._initial) > 256:
                self._initial.clear()
            found = self._initial[key] = ruleset.initial_state(setup)
        return found

    def save(self, game_id: UUID, ruleset: Ruleset, setup: Setup, corrected: bool, as_: str, position: int,
             checkpoints: Iterable[Checkpoint], initial: Any | None = None) -> int:
        """Store ``checkpoints`` of a fold of the game's first ``position`` facts; returns how many were stored.

        A row already there from a fold of as many facts or more is kept; one from fewer is replaced
        (it may have been made stale by a correction since).
        """
        fp = rules_fingerprint(ruleset.name)
        if fp in self._unencodable:
            return 0
        initial = initial if initial is not None else self.initial_state(ruleset, setup)
        rows = []
        for c in checkpoints:
            data = encode(initial, c.state, c.truth)
            if decode(initial, data) != (c.state, c.truth):
                self._unencodable.add(fp)
                log.warning("replay snapshots off for %s: a state does not come back equal from its encoding", fp)
                return 0
            rows.append((game_id, fp, corrected, as_, c.index, c.seq, position, data))
        if not rows:
            return 0
        with reading(self.db, row_factory=tuple_row) as conn:
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO replay_snapshots (game_id, rules, corrected, perspective, step_index, seq, position, state)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (game_id, rules, corrected, perspective, step_index) DO UPDATE"
                    " SET seq = EXCLUDED.seq, position = EXCLUDED.position, state = EXCLUDED.state, created_at = now()"
                    " WHERE replay_snapshots.position < EXCLUDED.position", rows)
            # rows folded by other rules are never read again
            conn.execute("DELETE FROM replay_snapshots WHERE game_id = %s AND rules <> %s", (game_id, fp))
        return len(rows)

    def nearest(self, game_id: UUID, ruleset: Ruleset, setup: Setup, facts: Sequence[Fact], seqs: Sequence[int],
                corrected: bool, as_: str, before: int) -> Checkpoint | None:
        """The latest usable snapshot of a step before step ``before`` (``seqs``: the fold's step seqs now)."""
        with reading(self.db, row_factory=tuple_row) as conn:
            rows = conn.execute(
                "SELECT step_index, seq, position, state FROM replay_snapshots WHERE game_id = %s AND rules = %s"
                " AND corrected = %s AND perspective = %s AND step_index < %s AND position <= %s"
                " ORDER BY step_index DESC LIMIT 4",
                (game_id, rules_fingerprint(ruleset.name), corrected, as_, before, len(facts))).fetchall()
        for index, seq, position, data in rows:
            if index >= len(seqs) or seqs[index] != seq:
                continue
            if corrected:
                touched = earliest_touched(facts, position)
                if touched is not None and touched <= seq:  # a correction since then changed this step or one before
                    continue
            try:
                state, truth = decode(self.initial_state(ruleset, setup), bytes(data))
            except (pickle.UnpicklingError, AttributeError, TypeError, ValueError, EOFError) as e:
                log.warning("replay snapshot of game %s step %s not usable: %s", game_id, index, e)
                continue
            return Checkpoint(index, seq, state, truth)
        return None

    def count(self, game_id: UUID) -> int:
        with reading(self.db, row_factory=tuple_row) as conn:
            return conn.execute("SELECT count(*) FROM replay_snapshots WHERE game_id = %s", (game_id,)).fetchone()[0]
