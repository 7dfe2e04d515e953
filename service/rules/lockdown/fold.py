"""A Lockdown game as a history of facts: the kit's ``Table`` (service/rules/kit/table.py) for Lockdown.

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

from service.rules.base import Setup
from service.rules.kit.table import Table
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.state import LockdownState


class Game(Table):
    """A Lockdown table (the kit's ``Table`` bound to ``LOCKDOWN``)."""

    state: LockdownState

    def __init__(self, setup: Setup):
        super().__init__(LOCKDOWN, setup)


def new_game(players: int = 2, board: str = "basic", characters: Iterable[str] | None = None,
             mode: str = "standard", tiles: dict[str, Any] | None = None, warrants: str = "unchecked") -> Game:
    """A game through setup: board prepared, characters chosen in seat order, round 1 begun.

    A table for trying one mechanic: table effects may be recorded without naming their cause unless
    ``warrants="required"`` (the default of a ``Setup`` given to the ruleset, and of every game the store creates;
    decision 0039).

    >>> new_game(2).position()["acting"]
    1
    """
    from service.rules.base import Seat

    g = Game(Setup(players=tuple(Seat(i, f"P{i}") for i in range(1, players + 1)), mode=mode,
                   options={"board": board, "warrants": warrants}))
    chosen = list(characters or ("survivor", "hacker", "lab_rat", "sentry", "janitor")[:players])
    for violations in (
        g.push("BoardPrepared", board=board, **({"tiles": tiles} if tiles else {})),
        *(g.push("CharacterChosen", seat, character=c) for seat, c in zip(range(1, players + 1), chosen)),
        g.push("SetupCompleted"),
    ):
        if violations:
            raise ValueError(f"setup failed: {violations}")
    return g
