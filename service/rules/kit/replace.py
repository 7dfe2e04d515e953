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
        return _flat(replace, obj, changes, names)
    d = obj.__dict__
    drafts = _drafting.drafts
    if drafts is not None:
        if drafts.get(id(obj)) is obj:  # this thread's private draft (see ``draft``): changed in place
            d.update(changes)
            return obj
        new = object.__new__(cls)
        nd = new.__dict__
        nd.update(d)
        nd.update(changes)
        if cls in _IN_PLACE:  # a sub-state made while drafting is a draft too: changed in place from now on
            drafts[id(new)] = new
        return new
    new = object.__new__(cls)
    nd = new.__dict__
    nd.update(d)
    nd.update(changes)
    return new


def replace_in(obj: T, part: str, /, **changes: Any) -> T:
    """``replace(obj, part=replace(obj.part, **changes))`` in one call: fields of the sub-state ``part`` of ``obj``
    changed. Inside a draft the sub-state is copied at its first change and changed in place after it, and the
    state is then returned as it is (it holds the changed sub-state): the cost of a flat state's ``replace``.

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Clock:
        ...     round: int = 0
        >>> @dataclass(frozen=True)
        ... class State:
        ...     clock: Clock = Clock()
        >>> s = State()
        >>> replace_in(s, "clock", round=2), s
        (State(clock=Clock(round=2)), State(clock=Clock(round=0)))
    """
    sub = obj.__dict__[part]
    cls = type(sub)
    names = _FIELDS.get(cls) or _field_names(cls)
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(changes.keys() - names))}")
    drafts = _drafting.drafts
    if drafts is not None and drafts.get(id(sub)) is sub:  # a draft sub-state: whichever state holds it sees this
        sub.__dict__.update(changes)
        return obj
    new = object.__new__(cls)
    nd = new.__dict__
    nd.update(sub.__dict__)
    nd.update(changes)
    if drafts is not None:
        if cls in _IN_PLACE:
            drafts[id(new)] = new
        if drafts.get(id(obj)) is obj:
            obj.__dict__[part] = new
            return obj
    out = object.__new__(type(obj))
    od = out.__dict__
    od.update(obj.__dict__)
    od[part] = new
    return out


def _flat(make: Any, obj: Any, changes: dict[str, Any], names: frozenset[str]) -> Any:
    """``replace`` with a state's old flat field names (its class's ``__replace_flat__``: name → sub-state field):
    the compatibility form of a state regrouped into sub-states (decision 0042)."""
    cls = type(obj)
    flat = getattr(cls, "__replace_flat__", None) or {}
    unknown = changes.keys() - names - flat.keys()
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(unknown))}")
    own = {k: v for k, v in changes.items() if k in names}
    groups: dict[str, dict[str, Any]] = {}
    for k, v in changes.items():
        if k not in names:
            groups.setdefault(flat[k], {})[k] = v
    for sub, group in groups.items():
        base = own[sub] if sub in own else getattr(obj, sub)
        own[sub] = make(base, **group)
    return make(obj, **own)


def copied(obj: T, /, **changes: Any) -> T:
    """``replace`` that always makes a new object, a draft too (for a draft's owner that must not change it)."""
    cls = type(obj)
    names = _FIELDS.get(cls) or _field_names(cls)
    if not names.issuperset(changes):
        return _flat(copied, obj, changes, names)
    new = object.__new__(cls)
    nd = new.__dict__
    nd.update(obj.__dict__)
    nd.update(changes)
    return new


# --- drafts: private mutation inside one call, frozen results ---------------------------------------------

class _Drafting(threading.local):
    drafts: dict[int, Any] | None = None  # id → object: what this thread's ``replace`` changes in place


_drafting = _Drafting()  # (a class attribute default reads faster than the thread's ``__dict__``)
_IN_PLACE: set[type] = set()  # sub-state classes (see ``in_place``)


def in_place(cls: type) -> type:
    """Mark a state's sub-state class: while a draft is open, a copy of one that ``replace`` makes is a draft too
    (changed in place by the next ``replace``), so a fact that changes a sub-state many times copies it once."""
    _IN_PLACE.add(cls)
    return cls


def draft(obj: T) -> tuple[T, Any]:
    """A private copy of ``obj`` that ``replace`` changes in place, on this thread, until ``release``.

    For a function that makes many successive versions of one object of which only the last is seen (the
    rules' ``apply``: a fact's effect replaces the state five to ten times): one copy instead of one per change.
    The sub-states of ``obj`` (classes marked ``in_place``) are copied at their first change and changed in place
    after it. The caller promises that no version but the last is kept or looked at, and that the copy leaves it
    only after ``release`` (from then on it is as frozen as any other). Returns the copy and what ``release``
    takes::

        state, token = draft(state)
        try:
            state = replace(state, round=2)   # the same object, changed
        finally:
            release(token)
    """
    new = copied(obj)
    token = _drafting.drafts
    _drafting.drafts = {id(new): new}  # holds what it names, so no id is reused while the draft is open
    return new, token


def release(token: Any) -> None:
    """End the draft ``draft`` began (the one before it, if drafts nest, is this thread's draft again)."""
    _drafting.drafts = token
