"""Offers are immutable and shared: ``offer`` builds the one for (type, actor, key) once and hands it out again.

    >>> from service.rules.base import Expected
    >>> a = offer("Passed", 1, None, lambda: Expected("Passed", 1, {}))
    >>> a is offer("Passed", 1, None, lambda: Expected("Passed", 1, {"other": [1]}))
    True
"""
from __future__ import annotations

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
