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

import sys
import threading
from dataclasses import fields
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")
# A copy gets a dict of its own, made by dict() and set as its __dict__ (frozen: through object.__setattr__), not
# the instance dict CPython would make for it: for a class of up to 30 fields that one shares its keys with the
# class ("split"), and CPython 3.11 cannot specialise an attribute read on a split dict made so, so every read of
# such an object took the slow path (about 20 ns instead of 6; decision 0042).
_set_dict = object.__setattr__
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
    if obj is _drafting.now.draft:  # this thread's private draft (see ``draft``): changed in place
        d.update(changes)
        return obj
    nd = dict(d)
    nd.update(changes)
    new = object.__new__(cls)
    _set_dict(new, "__dict__", nd)
    return new


def replace_in(obj: T, part: str, /, **changes: Any) -> T:
    """``replace(obj, part=replace(obj.part, **changes))`` in one call: fields of the sub-state ``part`` of ``obj``
    changed. Inside a draft of ``obj`` the sub-state is copied at its first change and changed in place after it,
    and the state is returned as it is (it holds the changed sub-state): about the cost of a flat state's
    ``replace``.

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
    local = _drafting.now
    parts = local.parts
    if parts is not None and parts.get(part) is sub:  # copied inside this draft: whoever holds it sees the change
        sub.__dict__.update(changes)
        return obj
    nd = dict(sub.__dict__)
    nd.update(changes)
    new = object.__new__(cls)
    _set_dict(new, "__dict__", nd)
    if obj is local.draft:
        parts[part] = new  # type: ignore[index]
        obj.__dict__[part] = new
        return obj
    od = dict(obj.__dict__)
    od[part] = new
    out = object.__new__(type(obj))
    _set_dict(out, "__dict__", od)
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
    nd = dict(obj.__dict__)
    nd.update(changes)
    new = object.__new__(cls)
    _set_dict(new, "__dict__", nd)
    return new


# --- drafts: private mutation inside one call, frozen results ---------------------------------------------

class _Draft:
    """A thread's draft: one per thread, kept (``_drafting.now``). Outside a draft ``draft`` is None and the three
    dicts are empty: a draft that does not nest in another uses them and its end empties them, so that a draft makes
    no dicts. A nested draft gets dicts of its own and its ``release`` puts back the ones before. A plain object with
    slots, reached through the thread-local once per call: each read or write of a thread-local's own attribute
    costs some 30-40 ns, a slot's a few (decision 0051)."""

    __slots__ = ("draft", "parts", "maps", "entries")

    def __init__(self) -> None:
        self.draft: Any = None  # the object this thread's ``replace`` changes in place
        self.parts: dict[str, Any] = {}  # its sub-states copied since ``draft``, by field: changed in place too
        # its mappings of entries copied since ``draft`` (``replace_entry``), by field name (one name is one mapping
        # of the draft: "characters", "rooms"): (the read-only view the draft holds, the private dict under it)
        self.maps: dict[str, tuple[Any, dict]] = {}
        # the entries of those mappings copied since ``draft``, by id (the object kept, so that its id is not reused)
        self.entries: dict[int, Any] = {}


class _Drafting(threading.local):
    def __init__(self) -> None:  # on each thread, at its first use
        self.now = _Draft()


_drafting = _Drafting()


def draft(obj: T) -> tuple[T, Any]:
    """A private copy of ``obj`` that ``replace`` changes in place, on this thread, until ``release``.

    For a function that makes many successive versions of one object of which only the last is seen (the
    rules' ``apply``: a fact's effect replaces the state five to ten times): one copy instead of one per change.
    A sub-state of it that ``replace_in`` changes is copied at its first change and changed in place after it,
    and so are a mapping of entries and an entry that ``replace_entry`` changes (decision 0049).
    The caller promises that no version but the last is kept or looked at, and that the copy leaves it only
    after ``release`` (from then on it is as frozen as any other). Returns the copy and what ``release`` takes::

        state, token = draft(state)
        try:
            state = replace(state, round=2)   # the same object, changed
        finally:
            release(token)
    """
    new = object.__new__(type(obj))  # ``copied(obj)`` without its checks of changes there are none of
    _set_dict(new, "__dict__", dict(obj.__dict__))
    local = _drafting.now
    if local.draft is None:  # the usual case: no draft open on this thread, its empty dicts are this draft's
        local.draft = new
        return new, None
    token = (local.draft, local.parts, local.maps, local.entries)
    local.draft, local.parts, local.maps, local.entries = new, {}, {}, {}
    return new, token


def release(token: Any) -> None:
    """End the draft ``draft`` began (the one before it, if drafts nest, is this thread's draft again)."""
    local = _drafting.now
    if token is None:
        _end(local)
    else:
        local.draft, local.parts, local.maps, local.entries = token


def _end(local: _Draft) -> None:
    """The end of a draft that did not nest: no draft, the thread's dicts emptied for the next one."""
    local.draft = None
    parts = local.parts
    if parts:
        parts.clear()
    maps = local.maps
    if maps:
        maps.clear()
        local.entries.clear()  # entries are only copied into a mapping already copied


def released(token: Any, obj: T, changes: dict[str, Any], /) -> T:
    """``release(token)`` then ``replace(obj, **changes)``, in one call, for the draft's last version ``obj`` (the
    rules' ``apply`` setting the fact count as its draft leaves it): the changes go into the draft's own dict, which
    nobody else has seen, without the keyword path of ``replace`` (decision 0051). ``obj`` not this thread's
    draft (a handler returned another state): a copy with the changes, as ``replace`` would make. ``changes`` must
    name fields of ``obj``'s class.

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class P:
        ...     x: int
        >>> p = P(1)
        >>> d, token = draft(p)
        >>> released(token, replace(d, x=2), {"x": 3}), p, _drafting.now.draft
        (P(x=3), P(x=1), None)
    """
    local = _drafting.now
    if obj is local.draft:
        obj.__dict__.update(changes)
    else:
        nd = dict(obj.__dict__)
        nd.update(changes)
        obj = object.__new__(type(obj))
        _set_dict(obj, "__dict__", nd)
    if token is None:
        _end(local)
    else:
        local.draft, local.parts, local.maps, local.entries = token
    return obj


def replace_entry(obj: T, part: str, name: str, key: Any, /, **changes: Any) -> T:
    """``obj`` with the entry ``key`` of the read-only mapping ``obj.<part>.<name>`` replaced by a copy with
    ``changes`` (a character of the crew, a room of the ship): ``replace_in(obj, part, name=<a new read-only
    mapping with that entry replaced>)``.

    Inside a draft of ``obj`` (decision 0049) the mapping is copied at its first change in the draft and the entry
    at its first change; a later change in the same draft changes that private copy in place, *unless something
    else holds it*: a caller that kept the entry (``c = state.crew.characters[seat]``) or the mapping (an
    iteration over it, a variable) sees it as it was, because the entry (or the mapping) is then copied again.
    Whether anything else holds it is told by its reference count, which counts every variable, container and
    iterator that refers to it; so no version anyone can still read is ever changed, and nothing that existed
    before the draft is. What leaves the draft is frozen like any other object.

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Room:
        ...     fire: bool = False
        >>> @dataclass(frozen=True)
        ... class Ship:
        ...     rooms: Any
        >>> @dataclass(frozen=True)
        ... class State:
        ...     ship: Ship
        >>> s = State(Ship(MappingProxyType({"A": Room()})))
        >>> t = replace_entry(s, "ship", "rooms", "A", fire=True)
        >>> t.ship.rooms["A"], s.ship.rooms["A"]
        (Room(fire=True), Room(fire=False))
    """
    return entry_changed(obj, part, name, key, changes)


def entry_changed(obj: T, part: str, name: str, key: Any, changes: dict[str, Any], /) -> T:
    """``replace_entry`` with the changes as a dict (a caller that has them so saves their repacking)."""
    local = _drafting.now
    if obj is not local.draft:
        mapping = obj.__dict__[part].__dict__[name].copy()  # a read-only view's copy(): its dict's, 5-10x dict()
        mapping[key] = copied(mapping[key], **changes)
        return replace_in(obj, part, **{name: MappingProxyType(mapping)})
    view = obj.__dict__[part].__dict__[name]
    got = local.maps.get(name)  # type: ignore[union-attr]
    if got is not None and got[0] is view and _refs(view) <= _LIMITS[0] and _refs(got[1]) <= _LIMITS[1]:
        mapping = got[1]  # this draft's own, held by nobody else: changed in place
    else:  # the mapping's first change in this draft (or it is held, or the draft holds another one since): copied
        mapping = view.copy()
        view = MappingProxyType(mapping)
        local.maps[name] = (view, mapping)  # type: ignore[index]
        obj = replace_in(obj, part, **{name: view})
    entry = mapping[key]
    cls = type(entry)
    names = _FIELDS.get(cls) or _field_names(cls)
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(changes.keys() - names))}")
    entries = local.entries
    if entries.get(id(entry)) is entry and _refs(entry) <= _LIMITS[2]:  # type: ignore[union-attr]
        entry.__dict__.update(changes)  # copied in this draft and held by nobody else: changed in place
        return obj
    nd = dict(entry.__dict__)
    nd.update(changes)
    new = object.__new__(cls)
    _set_dict(new, "__dict__", nd)
    entries[id(new)] = new  # type: ignore[index]
    mapping[key] = new
    return obj


_getrefcount = _refs = sys.getrefcount
# The reference counts of a draft's own mapping view, its dict and an entry, as ``replace_entry`` sees them when
# nothing but the draft holds them: found at import (below) by trying, not assumed, because what the interpreter
# counts for a function's own variables and arguments changes between versions. Until then (and if it fails)
# nothing is changed in place.
_LIMITS = [0, 0, 0]


def _calibrate() -> list[int]:
    """``_LIMITS``: the counts ``replace_entry`` sees for a second change in a draft with nothing else holding the
    mapping or the entry (read through a recorder standing for ``sys.getrefcount``, its own extra reference taken
    off), checked by holding each of them once: the change must then copy it."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Entry:
        n: int = 0

    @dataclass(frozen=True)
    class Part:
        m: Any

    @dataclass(frozen=True)
    class Whole:
        p: Part

    global _refs
    seen: list[int] = []

    def record(x: Any) -> int:
        seen.append(_getrefcount(x))
        return 0

    probe = object()
    direct = _getrefcount(probe)
    record(probe)
    extra = seen.pop() - direct
    _refs = record
    try:
        obj, token = draft(Whole(Part(MappingProxyType({1: Entry()}))))
        try:
            obj = replace_entry(obj, "p", "m", 1, n=1)
            seen.clear()
            obj = replace_entry(obj, "p", "m", 1, n=2)
        finally:
            release(token)
    finally:
        _refs = _getrefcount
    if len(seen) != 3:
        return [0, 0, 0]
    limits = [n - extra for n in seen]
    _LIMITS[:] = limits
    for hold in ("view", "dict", "entry"):
        obj, token = draft(Whole(Part(MappingProxyType({1: Entry()}))))
        try:
            obj = replace_entry(obj, "p", "m", 1, n=1)
            held = {"view": obj.p.m, "dict": _drafting.now.maps["m"][1], "entry": obj.p.m[1]}[hold]
            obj = replace_entry(obj, "p", "m", 1, n=2)
            kept = held is obj.p.m or held is _drafting.now.maps["m"][1] or held is obj.p.m[1]
            del held
        finally:
            release(token)
        if kept:  # a holder was not seen: never change in place
            return [0, 0, 0]
    return limits


_LIMITS[:] = _calibrate()


# --- frozen dataclasses made without their __init__'s one object.__setattr__ per field --------------------------

def fast_init(cls: type) -> type:
    """Give the frozen dataclass ``cls`` an ``__init__`` that sets its instance dict at once, the same object (equal,
    same fields in the same order) for a fraction of the time of the dataclass's own, which calls
    ``object.__setattr__`` once per field (decision 0049: the rules make a sub-step, an item or a figure at many
    facts). Only for a class without ``__post_init__`` and without default factories; the signature is kept."""
    from dataclasses import MISSING

    fs = fields(cls)
    if hasattr(cls, "__post_init__") or any(f.default_factory is not MISSING or not f.init for f in fs):
        raise TypeError(f"{cls.__name__}: fast_init is for plain frozen dataclasses")
    defaults = {f"_d_{f.name}": f.default for f in fs if f.default is not MISSING}
    params = ", ".join(f.name if f.default is MISSING else f"{f.name}=_d_{f.name}" for f in fs)
    body = ", ".join(f"{f.name!r}: {f.name}" for f in fs)
    namespace: dict[str, Any] = {"_set_dict": _set_dict, **defaults}
    exec(f"def __init__(self, {params}):\n    _set_dict(self, '__dict__', {{{body}}})\n", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[misc]
    return cls
