"""The shape check compiled per fact spec (``kit.facts.shape_check``, decision 0048) answers what the generic one
(``kit.facts.shape_violations``) answers: the same violations, messages and order, and the same fields let through
as recorded unknown, on well-shaped facts and on facts broken in every way the shape check looks at."""
from __future__ import annotations

from types import MappingProxyType

from service.rules.base import Fact
from service.rules.kit.facts import shape_check, shape_violations
from service.rules.lockdown.facts import COMMON_FIELDS, FACTS, KINDS, SHAPE, _unknown
from service.rules.lockdown.generate import facts_of, generate_game
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.unknown_values import UNKNOWN_KINDS

ODD_VALUES = (None, -1, 0, 1, True, 2.5, "", " Unknown ", "zzz", "slot-01", "i1", [], [1], {}, {"effect": "silence"})


def _generic(state, fact):
    skipped: list[str] = []
    found = shape_violations(FACTS, KINDS, state, fact, seats=state.seats, skip=_unknown, common=COMMON_FIELDS,
                             skipped=skipped)
    return found, skipped


def _broken(fact: Fact, seats: tuple[int, ...]):
    """``fact`` broken one way at a time: each field missing or odd, an unknown field, odd actors and data."""
    data = dict(fact.data)
    spec = FACTS.get(fact.type)
    names = [f.name for f in spec.fields] + ["by"] if spec else list(data)
    for name in names:
        yield Fact(fact.seq, fact.type, {k: v for k, v in data.items() if k != name}, fact.actor)
        for odd in ODD_VALUES:
            yield Fact(fact.seq, fact.type, {**data, name: odd}, fact.actor)
    yield Fact(fact.seq, fact.type, {**data, "nonsense": 1}, fact.actor)
    for actor in (None, True, seats[0], 99, "1"):
        yield Fact(fact.seq, fact.type, data, actor)
    yield Fact(fact.seq, fact.type, MappingProxyType(data), fact.actor)
    yield Fact(fact.seq, fact.type, [1, 2], fact.actor)
    yield Fact(fact.seq, "NoSuchFact", data, fact.actor)


def test_the_compiled_shape_check_answers_what_the_generic_one_does():
    cases = []
    for seed, players in ((3, 2), (20, 5)):
        setup, generated = generate_game(seed, players=players, max_rounds=4)
        state = LOCKDOWN.initial_state(setup)
        for fact in facts_of(generated):
            cases.append((state, fact))
            state, _ = LOCKDOWN.apply(state, fact)
    late = cases[-1][0]
    for name, spec in FACTS.items():  # every fact type, from its example, and with its unknown-able fields unknown
        actor = late.seats[0] if spec.actor == "seat" else None
        cases.append((late, Fact(1, name, dict(spec.example or {}), actor)))
        unknown = {f.name: " Unknown" for f in spec.fields if f.kind in UNKNOWN_KINDS}
        if unknown:
            cases.append((late, Fact(1, name, {**(spec.example or {}), **unknown}, actor)))
    seen_types, broken, well, skipped = set(), 0, 0, 0
    for state, fact in cases:
        found = SHAPE[fact.type](state, fact, state.seats)
        assert found == _generic(state, fact), fact
        well += not found[0]
        skipped += bool(found[1]) and not found[0]
        if fact.type not in seen_types:  # each type broken every way once (the generic check words it)
            seen_types.add(fact.type)
            for odd in _broken(fact, state.seats):
                got = SHAPE[odd.type](state, odd, state.seats)
                assert got == _generic(state, odd), odd
                broken += bool(got[0])
    assert well > 300 and skipped > 10 and broken > 1000


def test_a_spec_replaced_is_compiled_again_and_an_unknown_kind_goes_the_generic_way():
    from service.rules.kit.facts import FactSpec, field_spec

    specs = {"Passed": FactSpec("Passed", "seat", "passed", (field_spec("n", "count", "cards"),))}
    kinds = {"count": lambda state, v: None if isinstance(v, int) and v >= 0 else "must be ≥ 0"}
    checks = shape_check(specs, kinds)
    assert checks["Passed"](None, Fact(1, "Passed", {"n": 1}, 1), (1,)) == ([], [])
    specs["Passed"] = FactSpec("Passed", "table", "passed", (field_spec("n", "count", "cards"),))
    assert [v.rule for v in checks["Passed"](None, Fact(1, "Passed", {"n": 1}, 1), (1,))[0]] == ["actor-not-allowed"]
    assert [v.rule for v in checks["Passed"](None, Fact(1, "Passed", {"n": 1}, 1), (1,))[0]] == ["actor-not-allowed"]
    specs["Odd"] = FactSpec("Odd", "table", "odd", (field_spec("x", "nokind", "x", False),))
    assert checks["Odd"](None, Fact(1, "Odd", {}, None), (1,)) == ([], [])
    assert [v.rule for v in checks["Nope"](None, Fact(1, "Nope", {}, None), (1,))[0]] == ["unknown-fact-type"]
    assert "Nope" not in checks
