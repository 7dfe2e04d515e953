"""A faster ``dataclasses.replace`` for a state's frozen dataclasses.

``dataclasses.replace`` rebuilds an object through ``__init__``, reading every field;
a state has dozens of fields and folding replaces it several times per fact, which
made ``replace`` two thirds of a fold's time. State dataclasses have no ``__post_init__``
and no validation, so copying the instance dict and overriding the changed fields is the
same result.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class P:
    ...     x: int
    ...     y: int = 0
    >>> replace(P(1, 2), y=3)
    P(x=1, y=3)
"""
from __future__ import annotations

import threading
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")
_FIELDS: dict[type, frozenset[str]] = {}


def _field_names(cls: type) -> frozenset[str]:
    names = _FIELDS[cls] = frozenset(f.name for f in fields(cls))
    return names


def replace(obj: T, /, **changes: Any) -> T:
    cls = type(obj)
    names = _FIELDS.get(cls) or _field_names(cls)
    if not names.issuperset(changes):  # a subset test makes no set when every name is a field (the usual case)
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(changes.keys() - names))}")
    d = obj.__dict__
    if obj is _drafting.__dict__.get("draft"):  # this thread's private draft (see ``draft``): changed in place
        d.update(changes)
        return obj
    new = object.__new__(cls)
    nd = new.__dict__
    nd.update(d)
    nd.update(changes)
    return new


def copied(obj: T, /, **changes: Any) -> T:
    """``replace`` that always makes a new object, a draft too (for a draft's owner that must not change it)."""
    cls = type(obj)
    names = _FIELDS.get(cls) or _field_names(cls)
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(changes.keys() - names))}")
    new = object.__new__(cls)
    nd = new.__dict__
    nd.update(obj.__dict__)
    nd.update(changes)
    return new


# --- drafts: private mutation inside one call, frozen results ---------------------------------------------

_drafting = threading.local()  # .draft: the object this thread's ``replace`` changes in place (one at a time)


def draft(obj: T) -> tuple[T, Any]:
    """A private copy of ``obj`` that ``replace`` changes in place, on this thread, until ``release``.

    For a function that makes many successive versions of one object of which only the last is seen (the
    rules' ``apply``: a fact's effect replaces the state five to ten times): one copy instead of one per change.
    The caller promises that no version but the last is kept or looked at, and that the copy leaves it only
    after ``release`` (from then on it is as frozen as any other). Returns the copy and what ``release`` takes::

        state, token = draft(state)
        try:
            state = replace(state, round=2)   # the same object, changed
        finally:
            release(token)
    """
    new = copied(obj)
    token = _drafting.__dict__.get("draft")
    _drafting.draft = new
    return new, token


def release(token: Any) -> None:
    """End the draft ``draft`` began (the one before it, if drafts nest, is this thread's draft again)."""
    _drafting.draft = token
