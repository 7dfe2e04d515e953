"""Seeded random play on the SYNTHETIC board: legal games for tests, demos and benchmarks.

Every fact is picked among ``next_inputs`` options; free values (dice, tokens, cards)
come from ``random.Random(seed)``. The same seed always gives the same game.

    >>> setup, facts = generate_game(7, players=2, max_rounds=1)
    >>> facts[0][0], facts[-1][0]
    ('BoardPrepared', 'GameEnded')
"""
from __future__ import annotations

import random
from typing import Any

from service.rules.base import Expected, Fact, Seat, Setup
from service.rules.lockdown.components import COLONY, EVENT_CARDS, EXPLORATION, NOISE_DIE, ROOMS
from service.rules.lockdown.ruleset import LOCKDOWN
from service.rules.lockdown.state import FIRST_PLAYER, LockdownState

GeneratedFact = tuple[str, "int | None", dict[str, Any]]
MAX_FACTS = 20_000  # a safety net; real generated games are far shorter


def generate_game(seed: int, players: int = 4, mode: str = "standard",
                  max_rounds: int = 3) -> tuple[Setup, list[GeneratedFact]]:
    """A legal random game of ``players`` seats that ends with GameEnded after ``max_rounds`` rounds.

    If ``max_rounds`` reaches the end of the time track (15 rounds), the game ends by
    itself when time runs out and no GameEnded is added.
    """
    rng = random.Random(seed)
    setup = Setup(players=tuple(Seat(i, f"Player {i}") for i in range(1, players + 1)), mode=mode,
                  options={"board": "synthetic"})
    state = LOCKDOWN.initial_state(setup)
    facts: list[GeneratedFact] = []
    while not state.ended:
        if len(facts) >= MAX_FACTS or (state.round > max_rounds and state.step == FIRST_PLAYER
                                       and not state.pending):
            choice = ("GameEnded", None, {"ending": "abandoned", "note": f"generated game stopped after "
                                          f"{state.round - 1} round(s)"})
        else:
            expected = [e for e in LOCKDOWN.next_inputs(state) if e.type != "GameEnded"]
            choice = _pick(rng, state, expected)
        state, _ = LOCKDOWN.apply(state, Fact(len(facts) + 1, choice[0], choice[2], choice[1]))
        facts.append(choice)
    return setup, facts


def facts_of(generated: list[GeneratedFact]) -> list[Fact]:
    """The generated tuples as Fact objects with sequence numbers from 1."""
    return [Fact(seq=i, type=t, data=d, actor=a) for i, (t, a, d) in enumerate(generated, start=1)]


def _pick(rng: random.Random, state: LockdownState, expected: list[Expected]) -> GeneratedFact:
    moves = [e for e in expected if e.type in ("CharacterMoved", "CharacterMovedCarefully")]
    passes = [e for e in expected if e.type == "Passed"]
    if moves and passes:
        # mostly act, sometimes pass; careful moves are rarer than plain ones
        if rng.random() < 0.25:
            e = passes[0]
        else:
            plain = [m for m in moves if m.type == "CharacterMoved"]
            e = rng.choice(plain if plain and rng.random() < 0.8 else moves)
    else:
        e = rng.choice(expected)
    return e.type, e.actor, _fill(rng, state, e)


def _fill(rng: random.Random, state: LockdownState, e: Expected) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, options in e.options.items():
        value = FILLERS.get((e.type, name), _default)(rng, state, e, options, data)
        if value is not _OMIT:
            data[name] = value
    return data


_OMIT = object()


def _default(rng, state, e, options, data):
    return rng.choice(options) if options else _OMIT


def _tiles(rng, state, e, options, data):
    if rng.random() < 0.5:
        return _OMIT  # tiles face down and unknown: revealed one by one
    tiles: dict[str, Any] = {}
    for kind in ("I", "II"):
        slots = list(state.board.slots[kind])
        rooms = [r.id for r in ROOMS if r.kind == kind]
        rng.shuffle(rooms)
        for slot, room in zip(slots, rooms):
            tiles[slot] = room
    return tiles


def _token(rng, state, e, options, data):
    lo, hi = EXPLORATION["items_range"]
    return {"effect": rng.choice(EXPLORATION["effects"]), "items": rng.randint(max(lo, 1), hi)}


def _noise(rng, state, e, options, data):
    return rng.choice(NOISE_DIE["faces"])


def _bag_draw(rng, state, e, options, data):
    tokens = [t for t in options if state.bag.get(t, 0) > 0]
    return rng.choices(tokens, weights=[state.bag[t] for t in tokens])[0]


def _token_number(rng, state, e, options, data):
    pairs = COLONY["token_numbers_lit_dark"].get(data.get("token"))
    if not pairs or data.get("token") == "blank":
        return _OMIT
    return rng.choice(rng.choice(pairs))


def _discarded(rng, state, e, options, data):
    return 0 if rng.random() < 0.7 else rng.choice(options)


def _removed(rng, state, e, options, data):
    return list(options)  # all sectors powered: every removable marker goes


def _corridors(rng, state, e, options, data):
    return list(EVENT_CARDS[data["card"]].corridors)


def _first_player(rng, state, e, options, data):
    return options[0] if rng.random() < 0.5 else rng.choice(options)


FILLERS = {
    ("BoardPrepared", "tiles"): _tiles,
    ("RoomExplored", "token"): _token,
    ("NoiseRolled", "result"): _noise,
    ("EncounterTokenDrawn", "token"): _bag_draw,
    ("EncounterTokenDrawn", "number"): _token_number,
    ("ColonyTokenDrawn", "token"): _bag_draw,
    ("Passed", "discarded"): _discarded,
    ("NoiseMarkersCleared", "removed"): _removed,
    ("EventCardDrawn", "corridors"): _corridors,
    ("SetupCompleted", "first_player"): _first_player,
}
