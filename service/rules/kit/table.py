"""A game as a history of facts, in the manner of python-chess's ``Board``: ``push``, ``pop``, the fact stack.

    >>> from service.rules import get_ruleset
    >>> from service.rules.base import Seat, Setup
    >>> table = Table(get_ruleset("lockdown"), Setup(players=(Seat(1, "Ann"),)))
    >>> table.push("BoardPrepared", board="basic")
    []
    >>> table.position()["step"], len(table.history)
    ('characters', 1)
    >>> table.pop().type, table.position()["step"]
    ('BoardPrepared', 'board')

``push`` checks the fact, applies it (best effort even when it is illegal) and returns its violations;
``consequences`` holds what the last fact derived. Works for every ruleset: it speaks only the interface.
"""
from __future__ import annotations

from typing import Any, Iterable

from service.rules.base import Consequence, Expected, Fact, Result, Ruleset, Setup, Violation


class Table:
    def __init__(self, ruleset: Ruleset, setup: Setup):
        self.ruleset = ruleset
        self.setup = setup
        self.state: Any = ruleset.initial_state(setup)
        self.facts: list[Fact] = []  # the fact stack (python-chess's move_stack)
        self.states: list[Any] = [self.state]
        self.consequences: list[Consequence] = []
        self.violations: list[list[Violation]] = []

    @classmethod
    def of(cls, ruleset: Ruleset, setup: Setup, facts: Iterable[Fact]) -> "Table":
        """The generic fold: a table with ``facts`` pushed in order (violations kept, never raised)."""
        table = cls(ruleset, setup)
        for fact in facts:
            table.push_fact(fact)
        return table

    @property
    def history(self) -> tuple[Fact, ...]:
        return tuple(self.facts)

    def fact(self, type_: str, actor: int | None = None, **data: Any) -> Fact:
        """The Fact that ``push`` would record next (not recorded)."""
        return Fact(seq=len(self.facts) + 1, type=type_, data=data, actor=actor)

    def check(self, type_: str, actor: int | None = None, **data: Any) -> list[Violation]:
        return self.ruleset.check(self.state, self.fact(type_, actor, **data))

    def push(self, type_: str, actor: int | None = None, **data: Any) -> list[Violation]:
        return self.push_fact(self.fact(type_, actor, **data))

    def push_fact(self, fact: Fact) -> list[Violation]:
        violations = self.ruleset.check(self.state, fact)
        self.state, self.consequences = self.ruleset.apply(self.state, fact)
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

    def legal(self) -> list[Expected]:
        """What may be recorded next (python-chess's ``legal_moves``)."""
        return self.ruleset.next_inputs(self.state)

    def position(self) -> dict[str, Any]:
        return self.ruleset.position(self.state)

    def result(self) -> Result | None:
        return self.ruleset.score(self.state)
