"""The fold's per-fact machinery made cheap (decision 0048) answers as before.

The shape check compiled per fact spec (``kit.facts.shape_check``) answers what the generic one
(``kit.facts.shape_violations``) answers: the same violations, messages and order, and the same fields let through
as recorded unknown, on well-shaped facts and on facts broken in every way the shape check looks at. The shortcuts
by the fact type (``turns.undo_of``, ``unknowns.room_unknown``) and the kept answers of ``is_unknown`` answer what
the longer ways do."""
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


def _cases():
    for seed, players in ((3, 2), (11, 4)):
        setup, generated = generate_game(seed, players=players, max_rounds=6)
        state = LOCKDOWN.initial_state(setup)
        for fact in facts_of(generated):
            yield state, fact
            state, _ = LOCKDOWN.apply(state, fact)


def test_undo_of_and_room_unknown_answer_what_their_long_forms_do():
    from service.rules.kit.replace import copied
    from service.rules.lockdown import turns, unknowns
    from service.rules.lockdown.state import IN_BASE, PLAYER

    undone = unknown_room = 0
    for state, fact in _cases():
        long_undo = None
        if state.clock.phase == PLAYER and turns.is_action(fact):
            long_undo = turns.Undo(Fact(0, fact.type, fact.data, fact.actor),
                                   copied(state, interruptible=None) if state.interruptible is not None else state)
        got = turns.undo_of(state, fact)
        assert got == long_undo and type(got) is type(long_undo), fact
        if got is not None:
            assert vars(got) == vars(long_undo) and vars(got.fact) == vars(long_undo.fact)
            undone += 1
        for moved in (state, _nowhere(state, fact)):
            c = moved.crew.characters.get(fact.actor) if isinstance(fact.actor, int) else None
            long_unknown = (c is not None and c.status == IN_BASE and c.room is None and bool(c.character)
                            and (fact.type in turns.ACTIONS or fact.type in ("ItemDropped",))
                            and fact.type not in ("CharacterMoved", "CharacterMovedCarefully", "Passed"))
            assert unknowns.room_unknown(moved, fact) == long_unknown, fact
            unknown_room += long_unknown
    assert undone > 50 and unknown_room > 20


def _nowhere(state, fact):
    """``state`` with the actor's room recorded as unknown (None), where it has a character."""
    from service.rules.lockdown.state import with_character

    if not isinstance(fact.actor, int) or fact.actor not in state.crew.characters:
        return state
    return with_character(state, fact.actor, room=None)


def test_is_unknown_answers_the_same_when_it_keeps_its_answers():
    from service.rules.lockdown import unknown_values as U

    class Text(str):
        pass

    values = ["unknown", " Unknown ", "UNKNOWN", "unknown!", "slot-01", "", " ", "\u212anown", "x" * 50,
              " unknown" + " " * 40, Text("unknown"), Text("no"), 3, None, ["unknown"], b"unknown"]
    for value in values * 2:  # the second time from what was kept
        assert U.is_unknown(value) == (isinstance(value, str) and value.strip().casefold() == "unknown"), value
