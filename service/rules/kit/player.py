"""The random legal player: seeded play that only ever records what ``next_inputs`` offers.

Every fact is one of the offered kinds, each field one of its legal options; a field whose value the
rules leave free (a die, a drawn card) is filled by a ruleset's *filler* for that ``(type, field)``,
with values from ``random.Random``. The same seed always gives the same game.

    >>> from service.rules import get_ruleset
    >>> from service.rules.base import Seat, Setup
    >>> lockdown = get_ruleset("lockdown")
    >>> first = lambda rng, state, offered: offered[0]
    >>> state, facts = play(lockdown, Setup(players=(Seat(1, "Ann"),)), random.Random(1), choose=first, max_facts=2)
    >>> facts
    [('BoardPrepared', None, {'board': 'basic'}), ('CharacterChosen', 1, {'character': 'sentry'})]
"""
from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from service.rules.base import Expected, Fact, Ruleset, Seat, Setup

GeneratedFact = tuple[str, "int | None", dict[str, Any]]  # (type, actor, data)
Filler = Callable[[random.Random, Any, Expected, Any, dict], Any]  # (rng, state, expected, options, data so far)
Chooser = Callable[[random.Random, Any, list[Expected]], Expected]
OMIT = object()  # a filler's answer: leave the field out
MAX_FACTS = 20_000  # a safety net for a game that never ends


def any_option(rng: random.Random, state: Any, e: Expected, options: Any, data: dict) -> Any:
    """The default filler: one of the legal options, or nothing when the value is free."""
    return rng.choice(options) if options else OMIT


def fill(rng: random.Random, state: Any, e: Expected, fillers: Mapping[tuple[str, str], Filler]) -> dict[str, Any]:
    """The data of one offered fact: each field from its filler (default: one of its options), in offered order."""
    data: dict[str, Any] = {}
    for name, options in e.options.items():
        value = fillers.get((e.type, name), any_option)(rng, state, e, options, data)
        if value is not OMIT:
            data[name] = value
    return data


def uniform(rng: random.Random, state: Any, offered: list[Expected]) -> Expected:
    return rng.choice(offered)


def play(ruleset: Ruleset, setup: Setup, rng: random.Random, *, choose: Chooser = uniform,
         fillers: Mapping[tuple[str, str], Filler] = {}, finished: Callable[[Any], bool] | None = None,
         stop: Callable[[Any, int], GeneratedFact | None] | None = None,
         max_facts: int = MAX_FACTS, start: tuple[Any, list[GeneratedFact]] | None = None,
         ) -> tuple[Any, list[GeneratedFact]]:
    """Play from ``setup`` (or on from ``start``: a state and the facts that led to it) until the game is
    ``finished``, nothing is offered, ``stop`` gives a last fact, or ``max_facts`` facts were recorded; the
    final state and the facts as ``(type, actor, data)``."""
    state, facts = (ruleset.initial_state(setup), []) if start is None else (start[0], list(start[1]))
    done = finished or (lambda s: ruleset.position(s)["finished"])

    def push(choice: GeneratedFact) -> None:
        nonlocal state
        state, _ = ruleset.apply(state, Fact(len(facts) + 1, choice[0], choice[2], choice[1]))
        facts.append(choice)

    while not done(state):
        last = stop(state, len(facts)) if stop else None
        if last is not None:
            push(last)
            break
        if len(facts) >= max_facts:
            break
        offered = ruleset.next_inputs(state)
        if not offered:
            break
        e = choose(rng, state, offered)
        push((e.type, e.actor, fill(rng, state, e, fillers)))
    return state, facts


def facts_of(generated: list[GeneratedFact]) -> list[Fact]:
    """The generated tuples as Fact objects with sequence numbers from 1."""
    return [Fact(seq=i, type=t, data=d, actor=a) for i, (t, a, d) in enumerate(generated, start=1)]


def sample_game(ruleset: Ruleset, seed: int, players: int = 2, max_facts: int = 300) -> tuple[Setup, list[Fact]]:
    """A short game of uniform random play on ``players`` seats of the ruleset's first mode (for a ruleset with no
    player of its own; service.rules.registry.sample_game)."""
    setup = Setup(players=tuple(Seat(i, f"Player {i}") for i in range(1, players + 1)), mode=ruleset.modes[0])
    _, generated = play(ruleset, setup, random.Random(seed), max_facts=max_facts)
    return setup, facts_of(generated)
