"""A canonical picture of a ruleset's state that does not depend on how the state is grouped.

``snapshot(state)`` flattens a state into ``{field name: plain JSON value}``. A field whose value is a
:class:`SubState` (a named group of fields, e.g. a game's "systems" or "colony") is merged into its
parent under its own fields' names, so moving a field into or out of a sub-state leaves the snapshot — and
its ``digest`` — unchanged, while a changed value, a lost field or a renamed field changes it. The fixed-corpus
test (tests/unit/test_fixed_corpus.py) compares these digests before and after a restructuring.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Power(SubState):
    ...     on: frozenset = frozenset({"S-02", "S-01"})
    >>> @dataclass(frozen=True)
    ... class Flat:
    ...     round: int = 1
    ...     on: frozenset = frozenset({"S-01", "S-02"})
    >>> @dataclass(frozen=True)
    ... class Grouped:
    ...     round: int = 1
    ...     power: Power = Power()
    >>> snapshot(Grouped())
    {'on': ['S-01', 'S-02'], 'round': 1}
    >>> digest(snapshot(Flat())) == digest(snapshot(Grouped()))
    True

Values become plain JSON: dataclasses by field name (sub-states merged), mappings as ``[key, value]`` pairs
sorted by key, sets sorted, tuples as lists; an object with a ``__snapshot__`` method (a board loaded from its
data file) stands for what that method returns. Anything else is refused, so no ``repr`` with a memory
address can slip into a digest.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import fields, is_dataclass
from typing import Any, Mapping


class SubState:
    """Marks a dataclass as a named group of a larger state's fields (flattened into its parent)."""

    __slots__ = ()


def snapshot(state: Any) -> dict[str, Any]:
    """The state's fields by name, sub-states merged, every value plain JSON."""
    if not is_dataclass(state):
        raise TypeError(f"snapshot takes a dataclass state, not {type(state).__name__}")
    return _fields(state)


def digest(value: Any) -> str:
    """The sha256 of the canonical JSON of ``value`` (made plain first)."""
    text = json.dumps(plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _fields(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        found = _fields(value) if isinstance(value, SubState) else {f.name: plain(value)}
        for name, v in found.items():
            if name in out:
                raise ValueError(f"{type(obj).__name__}: field {name!r} appears twice once sub-states are merged")
            out[name] = v
    return dict(sorted(out.items()))


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def plain(value: Any) -> Any:
    """``value`` as plain JSON data (see the module's docstring)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    hook = getattr(type(value), "__snapshot__", None)
    if hook is not None:
        return plain(hook(value))
    if is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    if isinstance(value, Mapping):
        pairs = [[plain(k), plain(v)] for k, v in value.items()]
        return sorted(pairs, key=lambda kv: _key(kv[0]))
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=_key)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    raise TypeError(f"no plain form for a {type(value).__name__}: give it a __snapshot__ method")
