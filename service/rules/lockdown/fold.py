"""A game as a history of facts, in the manner of python-chess's ``Board.push``.

    >>> from service.rules.base import Seat, Setup
    >>> g = Game(Setup(players=(Seat(1, "Ann"),)))
    >>> g.push("BoardPrepared", board="basic")
    []
    >>> g.position()["step"]
    'characters'

``push`` checks the fact, applies it (best effort even when it is illegal) and returns
its violations; ``consequences`` holds what the last fact derived.
"""
from __future__ import annotations

from typing import Any, Iterable

from service.rules.base import Consequence, Fact, Setup, Violation
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.state import LockdownState


class Game:
    def __init__(self, setup: Setup):
        self.setup = setup
        self.state: LockdownState = LOCKDOWN.initial_state(setup)
        self.facts: list[Fact] = []
        self.states: list[LockdownState] = [self.state]
        self.consequences: list[Consequence] = []
        self.violations: list[list[Violation]] = []

    def fact(self, type_: str, actor: int | None = None, **data: Any) -> Fact:
        """The Fact that ``push`` would record next (not recorded)."""
        return Fact(seq=len(self.facts) + 1, type=type_, data=data, actor=actor)

    def check(self, type_: str, actor: int | None = None, **data: Any) -> list[Violation]:
        return LOCKDOWN.check(self.state, self.fact(type_, actor, **data))

    def push(self, type_: str, actor: int | None = None, **data: Any) -> list[Violation]:
        return self.push_fact(self.fact(type_, actor, **data))

    def push_fact(self, fact: Fact) -> list[Violation]:
        violations = LOCKDOWN.check(self.state, fact)
        self.state, self.consequences = LOCKDOWN.apply(self.state, fact)
        self.facts.append(fact)
        self.states.append(self.state)
        self.violations.append(violations)
        return violations

    def pop(self) -> Fact:
        """Undo the last fact."""
        fact = self.facts.pop()
        self.states.pop()
        self.violations.pop()
        self.state = self.states[-1]
        self.consequences = []
        return fact

    def position(self) -> dict[str, Any]:
        return LOCKDOWN.position(self.state)


def new_game(players: int = 2, board: str = "basic", characters: Iterable[str] | None = None,
             mode: str = "standard", tiles: dict[str, Any] | None = None) -> Game:
    """A game through setup: board prepared, characters chosen in seat order, round 1 begun.

    >>> new_game(2).position()["acting"]
    1
    """
    from service.rules.base import Seat

    g = Game(Setup(players=tuple(Seat(i, f"P{i}") for i in range(1, players + 1)), mode=mode,
                   options={"board": board}))
    chosen = list(characters or ("survivor", "hacker", "lab_rat", "sentry", "janitor")[:players])
    for violations in (
        g.push("BoardPrepared", board=board, **({"tiles": tiles} if tiles else {})),
        *(g.push("CharacterChosen", seat, character=c) for seat, c in zip(range(1, players + 1), chosen)),
        g.push("SetupCompleted"),
    ):
        if violations:
            raise ValueError(f"setup failed: {violations}")
    return g
