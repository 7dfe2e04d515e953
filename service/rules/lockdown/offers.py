"""Offers are immutable and shared: ``offer`` builds the one for (type, actor, key) once and hands it out again.
What the concepts' table-effect offers share is here too: their note (``TABLE_EFFECT``) and the board's corridors
grouped so that every listed pair is legal (``corridor_groups``, ``grouped``).

    >>> from service.rules.base import Expected
    >>> a = offer("Passed", 1, None, lambda: Expected("Passed", 1, {}))
    >>> a is offer("Passed", 1, None, lambda: Expected("Passed", 1, {"other": [1]}))
    True
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from service.rules.base import Expected

_OFFERS: dict[tuple, Expected] = {}  # value-keyed: the same offer (type, actor, options) is built once


def offer(type_: str, actor: int | None, key: Any, build: Callable[[], Expected]) -> Expected:
    """The offer for (type, actor, key), built by ``build()`` on first use; offers are immutable and shared."""
    k = (type_, actor, key)
    e = _OFFERS.get(k)
    if e is None:
        if len(_OFFERS) > 20_000:
            _OFFERS.clear()
        e = _OFFERS[k] = build()
    return e


# --- table effects: what every concept's table offers share ---------------------------------------------------
# Facts a card, an event or an item resolves at the table at any moment of play come after the game's own next
# steps, each with this note; ``is_table_effect`` tells them apart.

TABLE_EFFECT = "table effect (card/event resolved at the table)"
OUTCOME_NOTE = "table effect: one tap records it"  # a one-tap outcome of a table effect (Ruleset.effect_groups)


def is_table_effect(e: Expected) -> bool:
    """Is this offer a table effect (a card/event resolved at the table) rather than the game's next step?

    >>> is_table_effect(Expected("FirePlaced", None, {}, TABLE_EFFECT)), is_table_effect(Expected("Passed", 1, {}))
    (True, False)
    """
    return e.note.startswith(TABLE_EFFECT)


@lru_cache(maxsize=None)
def _corners(board) -> dict[str, tuple[tuple[int, str], ...]]:
    """Per place of the board: (number, key) of every corridor leading there."""
    out = {}
    for place in board.places:
        pairs = []
        for n in board.numbers_of(place):
            key = board.corridor_key(place, n)
            if key is not None:
                pairs.append((n, key))
        out[place] = tuple(pairs)
    return out


def corridor_groups(board, keep: Callable[[str], bool]) -> dict[tuple, list[str]]:
    """The board's places grouped by the corridor numbers ``keep(key)`` accepts (so every pair is legal)."""
    groups: dict[tuple, list[str]] = {}
    for place, pairs in _corners(board).items():
        groups.setdefault(tuple(n for n, k in pairs if keep(k)), []).append(place)
    return groups


def grouped(type_: str, groups: dict[tuple, list[str]], extra: dict[str, Any], note: str) -> list[Expected]:
    """One offer of ``type_`` per group of places (a room and corridor each), with ``extra`` options."""
    return [Expected(type_, None, {"room": rooms, "corridor": list(nums), **extra}, note)
            for nums, rooms in groups.items() if nums]
