"""Characters and rooms in ``apply``'s draft (decision 0049): changed in place only while nothing else holds them.

Inside one ``apply`` a character (or room) and the mapping holding it are copied at their first change and changed
in place after it, unless a handler still holds the character or the mapping it read before (then they are copied
again, as before this decision). These tests hold that to what a caller can see: every state a fold made is
unchanged once the fold is over, a character read before a change is the character as it was, and a fold that
never changes anything in place (the limits at zero) makes the same states and consequences."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from service.notation import parse
from service.rules.base import Fact, Seat, Setup
from service.rules.kit import replace as kit_replace
from service.rules.kit.replace import draft, release, replace_entry
from service.rules.kit.snapshot import digest, snapshot
from service.rules.lockdown.generate import facts_of, generate_game
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.state import initial_state, with_character, with_room
from service.rules.replay import fold

ROOT = Path(__file__).resolve().parents[2]


def _games():
    for path in sorted((ROOT / "service" / "demo").glob("*.jsonl")):
        game = parse(path.read_text(encoding="utf-8"), path.name)
        h = game.header
        yield (Setup(players=tuple(Seat(p["seat"], p["name"]) for p in h["players"]), mode=h.get("mode", "standard"),
                     options=dict(h.get("options") or {})),
               [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"), f.get("visibility", "public"))
                for f in game.facts])
    for seed, players, mode in ((3, 2, "standard"), (7, 1, "solo"), (14, 4, "coop"), (20, 5, "standard"),
                                (31, 3, "standard")):
        setup, generated = generate_game(seed, players=players, mode=mode, max_rounds=20,
                                         board="basic" if seed % 2 else "synthetic")
        yield setup, facts_of(generated)


def _everything(state: Any) -> str:
    """The state's snapshot and, apart, its characters and rooms as objects (their ``__dict__``s)."""
    return digest([snapshot(state), [sorted(c.__dict__.items(), key=str) for c in state.crew.characters.values()],
                   [sorted(r.__dict__.items(), key=str) for r in state.ship.rooms.values()]])


def test_the_limits_were_found_so_the_draft_does_change_in_place():
    assert all(n > 0 for n in kit_replace._LIMITS)


def test_every_state_a_fold_made_is_unchanged_when_the_fold_is_over():
    for setup, facts in _games():
        state = LOCKDOWN.initial_state(setup)
        seen = [(state, _everything(state), dict(state.crew.characters), dict(state.ship.rooms))]
        for fact in facts:
            state = LOCKDOWN.checked_apply(state, fact)[1]
            seen.append((state, _everything(state), dict(state.crew.characters), dict(state.ship.rooms)))
        for k, (s, d, chars, rooms) in enumerate(seen):
            assert _everything(s) == d, f"step {k} changed after it was made"
            assert all(s.crew.characters[seat] is c for seat, c in chars.items()), k  # the same objects, too
            assert all(s.ship.rooms[place] is r for place, r in rooms.items()), k
            assert isinstance(s.crew.characters, MappingProxyType) and isinstance(s.ship.rooms, MappingProxyType)


def test_a_fold_that_never_changes_a_character_in_place_makes_the_same_states_and_consequences(monkeypatch):
    def record():
        out = []
        for setup, facts in _games():
            replay = fold(LOCKDOWN, setup, facts)
            out.append([(digest(snapshot(s.state)), [c.as_dict() for c in s.consequences],
                         [v.as_dict() for v in s.violations]) for s in replay.steps])
        return out

    in_place = record()
    monkeypatch.setattr(kit_replace, "_LIMITS", [0, 0, 0])  # every change copies (what a held entry gets)
    assert record() == in_place


def _state():
    return initial_state(Setup(players=(Seat(1, "Ann"), Seat(2, "Bob"))))


def test_a_character_a_handler_holds_is_the_character_as_it_was():
    state, token = draft(_state())
    try:
        state = with_character(state, 1, light=1)  # first change: copied
        c = state.crew.characters[1]  # a handler reads it ...
        state = with_character(state, 1, light=2)  # ... then changes it again
        assert c.light == 1 and state.crew.characters[1].light == 2 and state.crew.characters[1] is not c
        del c
        again = state.crew.characters[1]
        before = id(again)
        del again
        state = with_character(state, 1, light=3)  # held by nobody: the private copy is changed in place
        assert id(state.crew.characters[1]) == before and state.crew.characters[1].light == 3
    finally:
        release(token)


def test_a_mapping_a_handler_holds_or_walks_is_the_mapping_as_it_was():
    state, token = draft(_state())
    try:
        state = with_character(state, 1, knowledge=1)
        chars = state.crew.characters  # held across a change
        state = with_character(state, 2, knowledge=5)
        assert chars[2].knowledge == 0 and state.crew.characters[2].knowledge == 5
        walked = []
        for seat, c in state.crew.characters.items():  # changed while walked: the walk sees the mapping as it was
            state = with_character(state, 3 - seat, knowledge=9)
            walked.append(c.knowledge)
        assert walked == [1, 5] and [c.knowledge for c in state.crew.characters.values()] == [9, 9]
        state = with_room(state, "S-01" if "S-01" in state.ship.rooms else next(iter(state.ship.rooms)), fire=True)
        r = next(r for r in state.ship.rooms.values() if r.fire)
        state = with_room(state, r.place, malfunction=True)
        assert not r.malfunction and state.ship.rooms[r.place].malfunction
    finally:
        release(token)


def test_nothing_that_existed_before_the_draft_is_changed():
    before = _state()
    c = before.crew.characters[1]
    state, token = draft(before)
    try:
        state = with_character(state, 1, hand=4)
        state = with_character(state, 1, hand=5)
    finally:
        release(token)
    assert c.hand == 0 and before.crew.characters[1] is c and state.crew.characters[1].hand == 5
    after = with_character(state, 1, hand=6)  # released: copied like any other
    assert state.crew.characters[1].hand == 5 and after.crew.characters[1].hand == 6


@dataclass(frozen=True)
class _E:
    n: int = 0


@dataclass(frozen=True)
class _Part:
    m: Any


@dataclass(frozen=True)
class _Whole:
    p: _Part


def test_replace_entry_outside_a_draft_copies_and_refuses_unknown_fields():
    w = _Whole(_Part(MappingProxyType({1: _E()})))
    v = replace_entry(w, "p", "m", 1, n=2)
    assert v.p.m[1].n == 2 and w.p.m[1].n == 0 and isinstance(v.p.m, MappingProxyType)
    d, token = draft(w)
    try:
        d = replace_entry(d, "p", "m", 1, n=1)
        with pytest.raises(TypeError, match="no field"):
            replace_entry(d, "p", "m", 1, z=1)
    finally:
        release(token)
    with pytest.raises(TypeError):
        replace_entry(w, "p", "m", 1, z=1)
