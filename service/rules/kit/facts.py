"""Fact and field specs: the vocabulary of a ruleset, and the shape check every ruleset shares.

A ruleset declares each fact type once (:class:`FactSpec`: who records it, what it says, its fields,
an example, the rulebook section) and names a checker per field *kind* (``kinds``). The shape check
refuses what cannot be applied at all: an unknown type, a wrong actor, an unknown, missing or
malformed field.

    >>> SPECS = {"Passed": FactSpec("Passed", "seat", "The player passed.",
    ...                             (field_spec("discarded", "count", "cards discarded", False),))}
    >>> KINDS = {"count": lambda state, v: None if is_int(v) and v >= 0 else f"must be ≥ 0, got {v!r}"}
    >>> from service.rules.base import Fact
    >>> [v.rule for v in shape_violations(SPECS, KINDS, None, Fact(1, "Passed", {"discarded": -1}, 1), seats=(1, 2))]
    ['invalid-field']
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Mapping

from service.rules.base import Fact, Violation

Checker = Callable[[Any, Any], "str | None"]  # (state, value) -> a problem, or None when well shaped
SEAT, TABLE = "seat", "table"  # FactSpec.actor: a seat acts, or the table (actor None)


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: str
    required: bool = True
    doc: str = ""


@dataclass(frozen=True)
class FactSpec:
    type: str
    actor: str  # "seat" (a seat acts) or "table" (actor is None)
    summary: str
    fields: tuple[FieldSpec, ...] = ()
    example: Mapping[str, Any] = field(default_factory=dict)
    section: str = ""


@dataclass(frozen=True)
class FactType:
    """A fact type declared once, where its game concept lives: its spec, the check of its rules (None: its shape
    and its place in the game are all there is to check) and its effect on the state."""

    spec: FactSpec
    check: Callable[[Any, Fact], list[Violation]] | None
    effect: Callable[[Any, Fact, list], Any]


def field_spec(name: str, kind: str, doc: str, required: bool = True) -> FieldSpec:
    return FieldSpec(name, kind, required, doc)


def is_int(v: Any) -> bool:
    """A whole number that is not a bool (JSON ``true`` is not 1)."""
    return isinstance(v, int) and not isinstance(v, bool)


_PLANS: dict[tuple[int, tuple[FieldSpec, ...]], tuple[FactSpec, frozenset[str], tuple[FieldSpec, ...]]] = {}


def _plan(spec: FactSpec, common: tuple[FieldSpec, ...] = ()) -> tuple[FactSpec, frozenset[str], tuple[FieldSpec, ...]]:
    """What the shape check needs of a spec (its fields, then the ``common`` ones it does not declare itself),
    worked out once per spec (the spec is kept so its id stays its own)."""
    key = (id(spec), common)
    plan = _PLANS.get(key)
    if plan is None or plan[0] is not spec:
        own = {f.name for f in spec.fields}
        fields = tuple(spec.fields) + tuple(f for f in common if f.name not in own)
        plan = _PLANS[key] = (spec, frozenset(f.name for f in fields), fields)
    return plan


#: the card or effect that caused a fact (decision 0039): one optional field a ruleset may accept on every fact type
#: (``shape_violations(common=(CAUSE_FIELD,))``), so no fact spec has to declare it; its kind's checker (``effect``)
#: is the ruleset's, which knows its catalogues
CAUSE_FIELD = FieldSpec("by", "effect", False, "the card or effect that caused this fact, by its printed name (an "
                        "event, action, attack or item card, a room, a computer action …); it warrants a fact the "
                        "state alone does not")


def shape_violations(specs: Mapping[str, FactSpec], kinds: Mapping[str, Checker], state: Any, fact: Fact, *,
                     seats: Collection[int], skip: Callable[[FieldSpec, Any], bool] | None = None,
                     common: tuple[FieldSpec, ...] = (), skipped: list[str] | None = None) -> list[Violation]:
    """Why ``fact`` cannot be applied at all (every violation has ``shape=True``); empty when well shaped.

    ``skip(field, value)`` tells a value that is well shaped whatever its kind says (a value recorded as
    unknown, decision 0018). ``common``: optional fields every fact type accepts besides its own (``CAUSE_FIELD``);
    a fact type's own field of the same name wins. ``skipped``, when given, gets the names of the fields ``skip``
    let through, in the order checked (the spec's fields, then the common ones).
    """
    spec = specs.get(fact.type)
    if spec is None:
        return [Violation(
            rule="unknown-fact-type", shape=True, field="type",
            message=f"Unknown fact type {fact.type!r}. Known types: {', '.join(sorted(specs))}.",
        )]
    out: list[Violation] = []
    data = fact.data
    if type(data) is not dict and not isinstance(data, Mapping):  # a plain dict skips the ABC's slower test
        return [Violation(rule="malformed-data", shape=True, field="data", section=spec.section,
                          message=f"{fact.type}: data must be a JSON object.")]
    _, known, spec_fields = _plan(spec, common)
    actor = fact.actor
    if spec.actor == SEAT and not (is_int(actor) and actor in seats):
        out.append(Violation(
            rule="actor-required", shape=True, field="actor", section=spec.section,
            message=f"{fact.type} is done by a player: give the acting seat "
                    f"({', '.join(map(str, seats))}), not {actor!r}.",
        ))
    if spec.actor == TABLE and actor is not None:
        out.append(Violation(
            rule="actor-not-allowed", shape=True, field="actor", section=spec.section,
            message=f"{fact.type} is recorded for the whole table: leave the actor empty (got seat {actor!r}).",
        ))
    if not known.issuperset(data):
        for name in data:
            if name not in known:
                out.append(Violation(
                    rule="unknown-field", shape=True, field=name, section=spec.section,
                    message=f"{fact.type} has no field {name!r}; its fields are: {', '.join(sorted(known)) or 'none'}.",
                ))
    for f in spec_fields:
        value = data.get(f.name)
        if value is None:  # absent, or recorded as null
            if f.required:
                out.append(Violation(
                    rule="missing-field", shape=True, field=f.name, section=spec.section,
                    message=f"{fact.type} needs {f.name!r}: {f.doc}.",
                ))
            continue
        if skip is not None and skip(f, value):
            if skipped is not None:
                skipped.append(f.name)
            continue
        problem = kinds[f.kind](state, value)
        if problem:
            out.append(Violation(rule="invalid-field", shape=True, field=f.name, section=spec.section,
                                 message=f"{fact.type}.{f.name} {problem}."))
    return out


def shape_check(specs: Mapping[str, FactSpec], kinds: Mapping[str, Checker], *, common: tuple[FieldSpec, ...] = (),
                skippable: Callable[[FieldSpec], bool] | None = None,
                skip_value: Callable[[Any], bool] | None = None) -> "ShapeChecks":
    """``shape_violations`` compiled once per fact spec (decision 0048): ``checks[fact.type](state, fact, seats)``
    answers ``(violations, skipped)``, what ``shape_violations(..., skip=, common=, skipped=)`` gives, with
    ``skip(field, value)`` being ``skippable(field) and skip_value(value)``.

    A fact type's first fact writes a function for its spec (``exec``, as ``dataclasses`` writes ``__init__``):
    straight-line code that reads each field of the spec once and calls its kind's checker, with no loop over the
    fields and no dispatch on their kinds. It only answers "well shaped, these fields skipped"; at the first sign
    of a problem it hands the fact to the generic ``shape_violations``, which writes the violations, so their
    messages and order are its own. The checkers are bound when a spec is compiled (``kinds`` is complete by
    then); a spec replaced in ``specs`` is compiled again. An unknown type gets the generic check.

        >>> SPECS = {"Passed": FactSpec("Passed", "seat", "The player passed.",
        ...                             (field_spec("discarded", "count", "cards discarded", False),))}
        >>> KINDS = {"count": lambda state, v: None if is_int(v) and v >= 0 else f"must be ≥ 0, got {v!r}"}
        >>> from service.rules.base import Fact
        >>> checks = shape_check(SPECS, KINDS)
        >>> fact = Fact(1, "Passed", {"discarded": 2}, 1)
        >>> checks[fact.type](None, fact, (1, 2))
        ([], [])
        >>> fact = Fact(1, "Passed", {"discarded": -1}, 1)
        >>> [v.rule for v in checks[fact.type](None, fact, (1, 2))[0]]
        ['invalid-field']
    """
    def skip(f: FieldSpec, value: Any) -> bool:
        return skippable(f) and skip_value(value)  # type: ignore[misc]

    generic_skip = skip if skippable is not None and skip_value is not None else None

    def slow(state: Any, fact: Fact, seats: Collection[int]) -> tuple[list[Violation], list[str]]:
        skipped: list[str] = []
        return shape_violations(specs, kinds, state, fact, seats=seats, skip=generic_skip, common=common,
                                skipped=skipped), skipped

    return ShapeChecks(specs, kinds, common, skippable if generic_skip else None, skip_value, slow)


class ShapeChecks(dict):
    """Fact type → its compiled shape check (``shape_check``), written at the type's first fact."""

    def __init__(self, specs, kinds, common, skippable, skip_value, slow) -> None:
        super().__init__()
        self._args = (specs, kinds, common, skippable, skip_value, slow)

    def __missing__(self, t: str) -> Callable[[Any, Fact, Collection[int]], tuple[list[Violation], list[str]]]:
        specs, kinds, common, skippable, skip_value, slow = self._args
        spec = specs.get(t)
        if spec is None:
            return slow  # not kept: any text may come as a type
        check = self[t] = _compile(t, spec, specs, kinds, common, skippable, skip_value, slow, self)
        return check


def _compile(t: str, spec: FactSpec, specs: Mapping[str, FactSpec], kinds: Mapping[str, Checker],
             common: tuple[FieldSpec, ...], skippable: Callable[[FieldSpec], bool] | None,
             skip_value: Callable[[Any], bool] | None, slow: Callable[[Any, Fact, Collection[int]], Any],
             compiled: dict) -> Callable[[Any, Fact, Collection[int]], Any]:
    """``shape_check`` for one spec: ``([], skipped)`` straight away when ``fact`` is well shaped, else what
    ``slow`` (the generic check) answers, at the first sign of a problem; a spec no longer in ``specs`` under
    its type is forgotten and the type's new one compiled."""
    _, known, fields = _plan(spec, common)

    def replaced(state: Any, fact: Fact, seats: Collection[int]) -> Any:
        compiled.pop(t, None)
        return compiled[t](state, fact, seats)

    env: dict[str, Any] = {"known": known, "Mapping": Mapping, "dict": dict, "int": int, "skip_value": skip_value,
                           "slow": slow, "spec": spec, "specs_get": specs.get, "replaced": replaced}
    head = ["    if specs_get(fact.type) is not spec:",
            "        return replaced(state, fact, seats)"]
    if any(f.kind not in kinds for f in fields):  # the generic check raises where it meets one, if it does
        exec(compile("\n".join(["def fast(state, fact, seats):", *head, "    return slow(state, fact, seats)"]),
                     f"<shape check of {spec.type}>", "exec"), env)
        return env["fast"]
    lines = ["def fast(state, fact, seats):", *head,
             "    data = fact.data",
             "    if data.__class__ is not dict and not isinstance(data, Mapping):",
             "        return slow(state, fact, seats)"]
    if spec.actor == SEAT:  # is_int(actor) and actor in seats; a subclass of int goes the generic way
        lines += ["    actor = fact.actor",
                  "    if actor.__class__ is not int or actor not in seats:",
                  "        return slow(state, fact, seats)"]
    elif spec.actor == TABLE:
        lines += ["    if fact.actor is not None:",
                  "        return slow(state, fact, seats)"]
    lines += ["    if not known.issuperset(data):",
              "        return slow(state, fact, seats)",
              "    skipped = []"]
    for i, f in enumerate(fields):
        env[f"k{i}"] = kinds[f.kind]
        lines.append(f"    v = data.get({f.name!r})")
        if f.required:
            lines += ["    if v is None:", "        return slow(state, fact, seats)"]
            pad = "    "
        else:
            lines.append("    if v is not None:")
            pad = "        "
        if skippable is not None and skippable(f):
            lines += [f"{pad}if skip_value(v):", f"{pad}    skipped.append({f.name!r})",
                      f"{pad}elif k{i}(state, v):", f"{pad}    return slow(state, fact, seats)"]
        else:
            lines += [f"{pad}if k{i}(state, v):", f"{pad}    return slow(state, fact, seats)"]
    lines.append("    return [], skipped")
    exec(compile("\n".join(lines), f"<shape check of {spec.type}>", "exec"), env)
    return env["fast"]


def undocumented(specs: Mapping[str, FactSpec], kinds: Mapping[str, Checker]) -> list[str]:
    """What a ruleset's vocabulary leaves unsaid: a fact type without summary or section, a field without a doc,
    a field kind without a checker (the contract test asks for none).

    >>> undocumented({"Passed": FactSpec("Passed", "seat", "", (field_spec("n", "count", ""),))}, {})
    ['Passed: no summary', 'Passed: no rulebook section', 'Passed.n: no doc', 'Passed.n: kind count has no checker']
    """
    out = []
    for t, spec in specs.items():
        if spec.type != t:
            out.append(f"{t}: registered as {spec.type}")
        if spec.actor not in (SEAT, TABLE):
            out.append(f"{t}: actor must be {SEAT!r} or {TABLE!r}")
        if not spec.summary.strip():
            out.append(f"{t}: no summary")
        if not spec.section.strip():
            out.append(f"{t}: no rulebook section")
        for f in spec.fields:
            if not f.doc.strip():
                out.append(f"{t}.{f.name}: no doc")
            if f.kind not in kinds:
                out.append(f"{t}.{f.name}: kind {f.kind} has no checker")
    return out
