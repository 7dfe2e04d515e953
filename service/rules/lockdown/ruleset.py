"""The Lockdown ruleset: the pure interface of ``service.rules.base.Ruleset``.

    >>> from service.rules.base import Seat, Setup
    >>> state = LOCKDOWN.initial_state(Setup(players=(Seat(1, "Ann"), Seat(2, "Ben"))))
    >>> LOCKDOWN.position(state)["step"]
    'board'
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from service.rules.base import Consequence, Expected, Fact, Result, Ruleset, Setup, Violation
from service.rules.lockdown import apply as _apply, checks, inputs, state as _state, svg, view


class LockdownRuleset(Ruleset):
    name = "lockdown"
    title = "Nemesis: Lockdown"
    modes = _state.MODES
    drawing_styles = (svg.STYLE,)

    def initial_state(self, setup: Setup) -> _state.LockdownState:
        return _state.initial_state(setup)

    def next_inputs(self, state: _state.LockdownState) -> list[Expected]:
        return inputs.next_inputs(state)

    def check(self, state: _state.LockdownState, fact: Fact) -> list[Violation]:
        return checks.check(state, fact)

    def apply(self, state: _state.LockdownState, fact: Fact) -> tuple[_state.LockdownState, list[Consequence]]:
        return _apply.apply(state, fact)

    def score(self, state: _state.LockdownState) -> Result | None:
        return view.score(state)

    def describe(self, state: _state.LockdownState) -> dict[str, Any]:
        return view.describe(state)

    def position(self, state: _state.LockdownState) -> dict[str, Any]:
        return view.position(state)

    def draw(self, state: _state.LockdownState, *, before: _state.LockdownState | None = None,
             learned: Callable[[str], Iterable[Mapping[str, Any]]] | None = None, narrow: bool = False) -> str:
        return svg.board(state, before=before, learned=learned, narrow=narrow)


LOCKDOWN = LockdownRuleset()
