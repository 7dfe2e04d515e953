"""A table value nobody saw is recorded as ``"unknown"`` (decision 0018): which kinds of value may be, and how to
tell one.

    >>> is_unknown(" Unknown "), is_unknown(3), "corridor" in UNKNOWN_KINDS
    (True, False, True)
"""
from __future__ import annotations

from typing import Any

UNKNOWN = "unknown"
# the kinds of table values a lenient game may record as "unknown" (facts.KINDS)
UNKNOWN_KINDS = frozenset((
    "character", "room", "tile", "corridor", "move_corridor", "corridor_list", "exploration_token", "noise_result",
    "colony_token", "css_token", "event_card", "attack_card", "die_face", "blood", "computer_card", "cause", "pod",
    "markers",
))


def is_unknown(value: Any) -> bool:
    if value.__class__ is str:  # the answer for a plain text is kept: a fold asks about the same few names again
        found = _SEEN.get(value)  # and again (decision 0048)
        if found is None:
            found = value.strip().casefold() == UNKNOWN
            if len(_SEEN) < _KEEP and len(value) <= 40:
                _SEEN[value] = found
        return found
    return isinstance(value, str) and value.strip().casefold() == UNKNOWN


_SEEN: dict[str, bool] = {}
_KEEP = 4096  # short texts (a name, an id) whose answer is kept; any other is worked out each time
