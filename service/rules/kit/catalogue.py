"""A ruleset's components read from its JSON data files: loading, freezing, and a forgiving lookup by name.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Room:
    ...     id: str
    ...     en: str
    ...     pl: str = ""
    >>> rooms = Catalogue([Room("nest", "Nest", "Gniazdo")])
    >>> rooms.resolve("gniazdo").id, "nest" in rooms, rooms.resolve("Kitchen")
    ('nest', True, None)

Lookups accept an id, the English or Polish name, or an alias, case-insensitively and with ``_``/``-``
read as spaces, so a recorder may type what is printed on the component.
"""
from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, Iterator, TypeVar

T = TypeVar("T")


def load_json(folder: Path, name: str) -> dict[str, Any]:
    """The parsed JSON data file ``<folder>/<name>.json``."""
    with open(Path(folder) / f"{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def freeze(value: Any) -> Any:
    """``value`` read-only: dicts become ``MappingProxyType``, lists tuples (recursively).

    >>> freeze({"a": [1, {"b": 2}]})["a"][1]["b"]
    2
    """
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def norm(text: str) -> str:
    """A name as lookups compare it: case-folded, ``_`` and ``-`` as spaces, spaces collapsed."""
    return " ".join(str(text).replace("_", " ").replace("-", " ").split()).casefold()


class Catalogue(Generic[T]):
    """Components by id, with a forgiving name lookup (``id``, ``en``, ``pl`` and ``aliases``)."""

    def __init__(self, items: list[T]):
        self._by_id: dict[str, T] = {item.id: item for item in items}  # type: ignore[attr-defined]
        self._by_name: dict[str, list[T]] = {}
        for item in items:
            names = {item.id, item.en, getattr(item, "pl", "") or "", *getattr(item, "aliases", ())}  # type: ignore[attr-defined]
            for name in names:
                if name:
                    self._by_name.setdefault(norm(name), []).append(item)

    def __getitem__(self, key: str) -> T:
        return self._by_id[key]

    def __contains__(self, key: object) -> bool:
        return key in self._by_id

    def __iter__(self) -> Iterator[T]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def ids(self) -> list[str]:
        return list(self._by_id)

    def matches(self, name: Any) -> list[T]:
        if not isinstance(name, str):
            return []
        if name in self._by_id:
            return [self._by_id[name]]
        return list(self._by_name.get(norm(name), []))

    def resolve(self, name: Any) -> T | None:
        found = self.matches(name)
        return found[0] if found else None
