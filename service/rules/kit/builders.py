"""Short builders for what a rule says about a fact: a violation (why it is not legal here) and a
consequence (what the rules derive from it).

    >>> violation("move.adjacent", "not adjacent", "lockdown.md §5.1", "to_room").field
    'to_room'
    >>> consequence("noise-placed", "A noise marker is placed.", corridor="c07").data["corridor"]
    'c07'
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from service.rules.base import Consequence, Violation


def violation(rule: str, message: str, section: str, field: str | None = None) -> Violation:
    """A rule violation (refused in strict games, flagged in lenient ones), naming the rulebook section."""
    return Violation(rule=rule, message=message, section=section, field=field)


def shape_violation(rule: str, message: str, section: str = "", field: str | None = None) -> Violation:
    """A fact that cannot be applied at all (refused in every game)."""
    return Violation(rule=rule, message=message, section=section, field=field, shape=True)


def consequence(type_: str, text: str, **data: Any) -> Consequence:
    """Something the rules derive, with read-only data."""
    # the same object as Consequence(type=..., text=..., data=...), made without the frozen __init__'s three
    # object.__setattr__ calls (a fold makes two or three of these per fact)
    c = _new(Consequence)
    c.__dict__.update(type=type_, text=text, data=MappingProxyType(data))
    return c


_new = object.__new__
