"""The fold's shortcuts (decision 0036) change nothing a caller can see: ``checked_apply`` answers what ``check``
then ``apply`` answer, ``apply`` never changes the state it is given (it works on a private draft), and a draft
is changed in place only by its own thread, only until it is released."""
from __future__ import annotations

import threading
from dataclasses import dataclass

import pytest

from service.rules.base import Fact, Ruleset, Seat, Setup
from service.rules.kit.replace import _drafting, copied, draft, release, released, replace, replace_in
from service.rules.kit.snapshot import digest, snapshot
from service.rules.lockdown.generate import facts_of, generate_game
from service.rules.lockdown.ruleset import LOCKDOWN


def _games():
    for seed, players in ((3, 2), (11, 4), (20, 5)):
        yield generate_game(seed, players=players, max_rounds=6)


def _two_calls(state, fact):
    """What a fold did before checked_apply: check, then apply unless a violation is of shape."""
    violations = LOCKDOWN.check(state, fact)
    if any(v.shape for v in violations):
        return violations, state, []
    after, consequences = LOCKDOWN.apply(state, fact)
    return violations, after, consequences


def _odd_facts(state, seq):
    """Facts a lenient game or a replacement can bring: of no known type, with a bad field, out of turn, a value
    recorded as unknown."""
    return [Fact(seq, "NoSuchFact", {}), Fact(seq, "Passed", {"discarded": -1}, 1),
            Fact(seq, "Passed", {"surprise": 1}, 1), Fact(seq, "TimeAdvanced", {}, None),
            Fact(seq, "NoiseRolled", {"result": "unknown"}, state.seats[-1]), Fact(seq, "CharacterMoved", {}, 2)]


def test_checked_apply_answers_what_check_then_apply_answer_and_never_changes_its_input():
    for setup, generated in _games():
        state = LOCKDOWN.initial_state(setup)
        for fact in facts_of(generated):
            trials = [fact] + (_odd_facts(state, fact.seq) if fact.seq % 25 == 0 else [])
            for trial in trials:
                before = digest(snapshot(state))
                v1, s1, c1 = LOCKDOWN.checked_apply(state, trial)
                assert digest(snapshot(state)) == before, f"#{trial.seq} {trial.type} changed the state it was given"
                v2, s2, c2 = _two_calls(state, trial)
                assert [v.as_dict() for v in v1] == [v.as_dict() for v in v2], trial
                assert [c.as_dict() for c in c1] == [c.as_dict() for c in c2], trial
                assert digest(snapshot(s1)) == digest(snapshot(s2)), trial
                assert (s1 is state) == any(v.shape for v in v1)  # not applied exactly when it cannot be
            state = LOCKDOWN.checked_apply(state, fact)[1]


def test_a_state_returned_by_apply_stays_as_it_was_after_later_applies():
    setup, generated = next(_games())
    facts = facts_of(generated)
    state = LOCKDOWN.initial_state(setup)
    kept = []
    for fact in facts:
        state, _ = LOCKDOWN.apply(state, fact)
        kept.append((state, digest(snapshot(state))))
    assert all(digest(snapshot(s)) == d for s, d in kept)
    assert [s.facts for s, _ in kept] == list(range(1, len(facts) + 1))


@dataclass(frozen=True)
class P:
    x: int
    y: int = 0


def test_a_draft_is_changed_in_place_until_released_and_only_on_its_thread():
    original = P(1)
    d, token = draft(original)
    try:
        assert d is not original and d == original
        assert replace(d, x=2) is d and d.x == 2 and original.x == 1  # the draft changes, its source never
        assert copied(d, y=5) is not d and d.y == 0  # copied always copies, a draft too
        assert replace(original, x=3) is not original  # any other object is copied as before
        seen = []
        t = threading.Thread(target=lambda: seen.append(replace(d, y=9)))
        t.start()
        t.join()
        assert seen[0] is not d and d.y == 0  # another thread's replace of the draft copies it
    finally:
        release(token)
    assert replace(d, x=4) is not d and d.x == 2  # released: frozen like any other
    with pytest.raises(TypeError, match="no field"):
        replace(d, z=1)


@dataclass(frozen=True)
class Q:
    p: P
    n: int = 0


def _no_draft_open():
    now = _drafting.now
    return now.draft is None and not now.parts and not now.maps and not now.entries


def test_a_draft_ends_as_it_began_nested_released_with_changes_or_left_by_an_exception():
    """A draft that does not nest uses the thread's own dicts and leaves them empty (decision 0051); a nested one
    puts the outer draft back as it was; ``released`` sets its changes into the draft, or copies another object."""
    outer = Q(P(1))
    d, token = draft(outer)
    assert replace_in(d, "p", x=2) is d and _drafting.now.parts["p"] is d.p
    inner_source = Q(P(7))
    e, inner = draft(inner_source)
    assert _drafting.now.draft is e and not _drafting.now.parts
    assert replace_in(e, "p", x=8) is e
    release(inner)
    assert _drafting.now.draft is d and _drafting.now.parts["p"] is d.p  # the outer draft is this thread's draft again
    assert replace_in(d, "p", y=3) is d and d.p == P(2, 3)
    out = released(token, d, {"n": 5})
    assert out is d and out == Q(P(2, 3), 5) and outer == Q(P(1)) and inner_source == Q(P(7))
    assert _no_draft_open()
    assert replace(out, n=6) is not out and out.n == 5  # released: frozen like any other
    other = Q(P(4))
    d, token = draft(outer)
    kept = released(token, other, {"n": 9})  # a handler returned another state: copied, never changed
    assert kept == Q(P(4), 9) and other == Q(P(4)) and _no_draft_open()
    d, token = draft(outer)
    try:
        replace_in(d, "p", x=5)
        raise RuntimeError
    except RuntimeError:
        release(token)
    assert _no_draft_open() and outer == Q(P(1))


def test_apply_leaves_no_draft_open_even_when_a_handler_raises(monkeypatch):
    from service.rules.lockdown import apply as A

    setup, generated = next(_games())
    state = LOCKDOWN.initial_state(setup)
    for fact in facts_of(generated)[:40]:
        state, _ = LOCKDOWN.apply(state, fact)
        assert _no_draft_open()

    def broken(state, fact, cons):
        replace_in(state, "clock", free_crafts=())
        raise ValueError("broken handler")

    monkeypatch.setitem(A.HANDLERS, "Passed", broken)
    with pytest.raises(ValueError, match="broken handler"):
        A.apply_shaped(state, Fact(state.facts + 1, "Passed", {}, state.seats[0]), [])
    assert _no_draft_open()


def test_the_base_class_checked_apply_is_check_then_apply():
    class Counting(Ruleset):
        name, title, modes = "counting", "Counting", ("standard",)

        def initial_state(self, setup):
            return 0

        def next_inputs(self, state):
            return []

        def check(self, state, fact):
            from service.rules.base import Violation
            return [Violation("bad", "no", "", None, True)] if fact.type == "Bad" else []

        def apply(self, state, fact):
            return state + 1, []

        def score(self, state):
            return None

        def describe(self, state):
            return {}

        def position(self, state):
            return {}

    r = Counting()
    assert r.checked_apply(0, Fact(1, "Good")) == ([], 1, [])
    violations, state, consequences = r.checked_apply(0, Fact(1, "Bad"))
    assert state == 0 and consequences == [] and violations[0].shape


def test_a_fold_pauses_the_collector_and_gives_it_back_as_it_found_it(monkeypatch):
    """Decision 0046: the cyclic collector is off while a fold runs, on again after it (after a failing fold too),
    and left off when it was off before; folds on several threads share one pause."""
    import gc

    from service.rules import replay as R

    setup, generated = next(_games())
    facts = facts_of(generated)
    seen = []
    real = R._fold_steps

    def spy(*args):
        seen.append(gc.isenabled())
        return real(*args)

    monkeypatch.setattr(R, "_fold_steps", spy)
    was = gc.isenabled()
    try:
        gc.enable()
        R.fold(LOCKDOWN, setup, facts)
        assert seen == [False] and gc.isenabled()

        def boom(*args):
            raise RuntimeError("boom")

        monkeypatch.setattr(R, "_fold_steps", boom)
        with pytest.raises(RuntimeError):
            R.fold(LOCKDOWN, setup, facts)
        assert gc.isenabled()

        R._pause_gc()  # another thread's fold running: the collector stays off until it ends too
        R._pause_gc()
        R._resume_gc()
        assert not gc.isenabled()
        R._resume_gc()
        assert gc.isenabled()

        gc.disable()  # turned off by someone else: a fold leaves it off
        monkeypatch.setattr(R, "_fold_steps", real)
        R.fold(LOCKDOWN, setup, facts)
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_the_shape_check_names_the_unknown_fields_unknown_fields_names():
    """``checked_apply``'s one pass (``facts.shape_and_unknowns``) answers what the shape check and
    ``unknowns.unknown_fields`` answer apart, on the generated games and on every fact type with its fields that
    may be unknown recorded as unknown (the others from the spec's example)."""
    from service.rules.lockdown import unknowns
    from service.rules.lockdown.facts import FACTS, shape_and_unknowns, shape_violations
    from service.rules.lockdown.unknown_values import UNKNOWN_KINDS

    cases = []
    for setup, generated in _games():
        state = LOCKDOWN.initial_state(setup)
        for fact in facts_of(generated):
            cases.append((state, fact))
            state, _ = LOCKDOWN.apply(state, fact)
    late = cases[-1][0]
    some_unknown = 0
    for name, spec in FACTS.items():
        data = dict(spec.example or {})
        data.update({f.name: " Unknown" for f in spec.fields if f.kind in UNKNOWN_KINDS})
        some_unknown += any(f.kind in UNKNOWN_KINDS for f in spec.fields)
        actor = late.seats[0] if spec.actor == "seat" else None
        cases.append((late, Fact(1, name, data, actor)))
    assert some_unknown > 10
    found = 0
    for state, fact in cases:
        shape, unknown = shape_and_unknowns(state, fact)
        assert shape == shape_violations(state, fact)
        if not shape:
            assert unknown == unknowns.unknown_fields(fact), fact
            found += bool(unknown)
    assert found > 10  # well shaped facts with unknown fields were among them
