"""Who knew what (the perspectives on hidden information): a game seen by everybody at the table (``public``), by one seat (``seat2``), or all-seeing.

A perspective folds the game from the facts *as it saw them*: a secret it had not seen is
``"unknown"`` in the fact (the state already holds "unknown" until a reveal fact arrives), so
its states, consequences, narration and board drawing can never show it early.

What is secret by the rules, whatever the recorded ``visibility`` says (lockdown.md §11):

- room tiles lie face down until explored (``BoardPrepared.tiles``: nobody at the table);
- objective cards: their owner (full co-op plays them open, lockdown.md §12.3);
- contingency tokens: their holder; a peek shows the token to the one who peeks;
- tokens seen by a room or computer action (gather information, schedule CSS, peek): the actor.

The recorded ``visibility`` narrows that further: ``private`` = the actor only, ``hidden`` =
nobody at the table until a reveal fact. Facts about the shared board have no secret part to
hide. At the victory check every living character's kept objective is shown to all (§11.8
step 3): :func:`revealed` hands those reveals to the perspective's fold.

    >>> from service.rules.base import Fact, Seat, Setup
    >>> setup = Setup(players=(Seat(1, "Ada"), Seat(2, "Bo")))
    >>> dealt = Fact(5, "ObjectivesDealt", {"objectives": ["send_signal", "nest_destroyed"]}, actor=1)
    >>> mask(setup, dealt, "public").data["objectives"]
    ['unknown', 'unknown']
    >>> mask(setup, dealt, "seat1").data["objectives"]
    ['send_signal', 'nest_destroyed']
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from service.rules.base import Fact, Setup

ALL, PUBLIC = "all", "public"
EVERYBODY = "everybody"  # audience: the whole table


def seat_of(as_: str) -> int | None:
    """``seat2`` → 2; ``public`` / ``all`` → None."""
    if as_.startswith("seat") and as_[4:].isdigit():
        return int(as_[4:])
    return None


def valid(setup: Setup, as_: str) -> bool:
    return as_ in (ALL, PUBLIC) or seat_of(as_) in {p.seat for p in setup.players}


# --- the secret part of each fact type and who sees it by the rules ------------------------------------------------

def _unknown_list(field: str) -> Callable[[dict], None]:
    def hide(data: dict) -> None:
        data[field] = ["unknown"] * len(data.get(field) or [])
    return hide


def _unknown(field: str) -> Callable[[dict], None]:
    def hide(data: dict) -> None:
        if field in data:
            data[field] = "unknown"
    return hide


def _drop(field: str) -> Callable[[dict], None]:
    def hide(data: dict) -> None:
        data.pop(field, None)
    return hide


def _face_down_tiles(data: dict) -> None:
    if data.get("tiles"):
        data["tiles"] = {slot: None for slot in data["tiles"]}


def _actor(setup: Setup, fact: Fact) -> set[Any]:
    return {fact.actor}


def _owner_objectives(setup: Setup, fact: Fact) -> set[Any]:
    return {EVERYBODY} if setup.mode == "coop" else {fact.actor}


def _peek(setup: Setup, fact: Fact) -> set[Any]:
    return {fact.actor, fact.data.get("owner")}


def _nobody(setup: Setup, fact: Fact) -> set[Any]:
    return set()


def _token_actions(setup: Setup, fact: Fact) -> set[Any]:
    return {fact.actor}


# fact type → (who sees the secret part by the rules, how to hide it)
SECRETS: dict[str, tuple[Callable[[Setup, Fact], set[Any]], Callable[[dict], None]]] = {
    "BoardPrepared": (_nobody, _face_down_tiles),
    "ObjectivesDealt": (_owner_objectives, _unknown_list("objectives")),
    "ObjectiveChosen": (_owner_objectives, _unknown("objective")),
    "ContingencyTokensDealt": (_actor, _unknown_list("tokens")),
    "ContingencyTokenPeeked": (_peek, _drop("token")),
    "ContingencyTokenTaken": (_actor, _drop("token")),
    "RoomActionUsed": (_token_actions, _drop("token")),
    "ComputerActionUsed": (_token_actions, _drop("token")),
}
# facts whose whole point is to show something to everybody (their recorded visibility may still narrow it)
REVEALS: dict[str, Callable[[dict], None]] = {
    "ObjectiveRevealed": _unknown("objective"),
    "ContingencyTokenRevealed": _unknown("token"),
}


def audience(setup: Setup, fact: Fact) -> set[Any]:
    """Who saw the secret part of ``fact``: seats, or ``EVERYBODY``."""
    rule = SECRETS.get(fact.type)
    seen = rule[0](setup, fact) if rule else {EVERYBODY}
    if fact.visibility == "private":
        seen = {fact.actor} if (EVERYBODY in seen or fact.actor in seen) else set()
    elif fact.visibility == "hidden":
        seen = set()
    return seen - {None}


def knows(setup: Setup, fact: Fact, as_: str) -> bool:
    if as_ == ALL:
        return True
    seen = audience(setup, fact)
    return EVERYBODY in seen or (seat_of(as_) is not None and seat_of(as_) in seen)


def mask(setup: Setup, fact: Fact, as_: str) -> Fact:
    """``fact`` as the perspective ``as_`` saw it when it happened."""
    hide = (SECRETS.get(fact.type) or (None, REVEALS.get(fact.type)))[1]
    if hide is None or knows(setup, fact, as_):
        return fact
    data = dict(fact.data)
    hide(data)
    return replace(fact, data=data)


def revealed(all_state: Any, seen_state: Any, as_: str) -> list[Fact]:
    """What the victory check shows the table once the game has ended (lockdown.md §11.8 step 3).

    Every character still alive after the end shows its kept objective; the perspective learns
    those it did not know yet. Returned as ``ObjectiveRevealed`` facts (seq 0: never recorded).
    """
    if as_ == ALL or not all_state.end.ended or all_state.end.ending == "abandoned":
        return []
    from service.rules.lockdown.endgame import scoring_view

    alive = {sv.seat for sv in scoring_view(all_state).seats if sv.alive}
    out = []
    for seat in sorted(alive):
        truth = all_state.crew.characters[seat].objective
        seen = seen_state.crew.characters[seat].objective
        if truth not in (None, "unknown") and seen in (None, "unknown"):
            out.append(Fact(0, "ObjectiveRevealed", {"objective": truth}, actor=seat))
    return out
