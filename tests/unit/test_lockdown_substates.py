"""The state in named sub-states (decision 0042): the old flat names still read, build and replace the same values,
and a sub-state changed inside apply's draft never changes a state that left apply."""
from __future__ import annotations

import dataclasses
from dataclasses import fields

import pytest

from service.rules.base import Seat, Setup
from service.rules.kit.replace import copied, draft, release, replace, replace_in
from service.rules.kit.snapshot import digest, plain, snapshot
from service.rules.lockdown.generate import facts_of, generate_game
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.state import FLAT_NAMES, SUB_STATES, LockdownState, initial_state

# the 61 fields of the flat LockdownState before decision 0042, in their old order
OLD_FLAT = (
    "setup board seats rooms characters phase step round first_player turn last_turn time isolation_open noise doors "
    "intruders intruder_serial bag supply eggs first_encounter removed_events pending last_event_card ended ending "
    "ending_note facts destroyed_doors objects power emergency_power self_destruct alarm gate_open gate_reason rover "
    "elevator pods css_known weaknesses weakness_names researched computer_card ventilation active_contingency pool "
    "revealed_pool first_death queen_killed nest_destroyed carcasses last_actor interruptible end_effects launches "
    "free_crafts item_decks css_at unknowns gaps").split()


def _states():
    setup, generated = generate_game(7, players=4, max_rounds=5)
    state = LOCKDOWN.initial_state(setup)
    yield state
    for fact in facts_of(generated):
        state, _ = LOCKDOWN.apply(state, fact)
        yield state


def test_every_old_flat_name_is_kept_once_top_level_or_in_one_sub_state():
    top = [f.name for f in fields(LockdownState) if f.name not in SUB_STATES]
    assert sorted(top + list(FLAT_NAMES)) == sorted(OLD_FLAT)
    assert len(OLD_FLAT) == 61
    assert sorted(snapshot(initial_state(Setup(players=(Seat(1, "A"),))))) == sorted(OLD_FLAT)


def test_the_old_flat_names_read_the_same_values_as_the_sub_states():
    for state in _states():
        for name, sub in FLAT_NAMES.items():
            assert getattr(state, name) is getattr(getattr(state, sub), name), name
        flat = {name: plain(getattr(state, name)) for name in OLD_FLAT}  # what a caller reading flat names sees
        assert flat == snapshot(state)


def test_the_old_flat_names_are_read_only():
    state = initial_state(Setup(players=(Seat(1, "A"),)))
    with pytest.raises(AttributeError):
        state.round = 3  # type: ignore[misc]


def test_replace_and_the_constructor_take_the_old_flat_names():
    state = initial_state(Setup(players=(Seat(1, "A"), Seat(2, "B"))))
    for make in (replace, copied, dataclasses.replace):
        new = make(state, round=3, noise=frozenset({"A-01"}), seats=(1, 2))
        assert (new.clock.round, new.ship.noise, new.round) == (3, frozenset({"A-01"}), 3)
        assert new.ship.rooms is state.ship.rooms and new.crew is state.crew  # untouched sub-states are shared
        assert (state.round, state.noise) == (0, frozenset())  # the original is unchanged
    both = replace(state, clock=replace(state.clock, step="ready"), round=4)  # a sub-state and one of its fields
    assert (both.step, both.round) == ("ready", 4)
    with pytest.raises(TypeError):
        replace(state, no_such_field=1)
    built = LockdownState(setup=state.setup, board=state.board, seats=state.seats, rooms=state.rooms,
                          characters=state.characters, round=2, eggs=5)
    assert (built.ship.rooms, built.crew.characters, built.clock.round, built.colony.eggs) == \
           (state.rooms, state.characters, 2, 5)


def test_a_sub_state_is_copied_once_inside_a_draft_and_frozen_after_it():
    state = initial_state(Setup(players=(Seat(1, "A"),)))
    before = digest(snapshot(state))
    d, token = draft(state)
    try:
        assert replace_in(d, "clock", round=1) is d
        clock = d.clock
        assert clock is not state.clock  # the input's sub-state is copied, never changed
        assert replace_in(d, "clock", round=2) is d and d.clock is clock and d.round == 2  # then changed in place
        other = replace(d.clock, step="ready")  # a plain replace of a sub-state still copies it
        assert other is not clock and clock.step == "board"
    finally:
        release(token)
    assert digest(snapshot(state)) == before
    after = replace_in(d, "clock", round=3)  # released: frozen like any state
    assert after is not d and d.round == 2 and after.round == 3
