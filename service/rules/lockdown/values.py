"""Reading a recorded value as the game's thing: a place, an event card, a colony token, a noise result.

Below ``facts`` (the vocabulary) so that every concept module's checks and effects can resolve what a fact
names without importing the vocabulary (decision 0029). ``facts`` re-exports these names for old callers.

    >>> resolve_token(" Adult ")
    'adult'
    >>> noise_result("3"), noise_result("Mars"), noise_result(True)
    (3, 'mars_card', None)
"""
from __future__ import annotations

from typing import Any

from service.rules.lockdown.components import EVENT_CARDS, NOISE_RESULTS, ROOMS, TOKEN_TYPES


def resolve_place(state: Any, value: Any) -> str | None:
    """A place id for ``value``: a place id, or a room id/name whose position is known."""
    if not isinstance(value, str):
        return None
    if value in state.ship.rooms:
        return value
    for room in ROOMS.matches(value):
        place = state.room_of_tile(room.id)
        if place is not None:
            return place
    lowered = value.strip().casefold()
    for place in state.ship.rooms:
        if place.casefold() == lowered:
            return place
    return None


def resolve_card(value: Any, corridors: Any = None):
    cards = EVENT_CARDS.matches(value)
    if len(cards) > 1 and isinstance(corridors, list):
        exact = [c for c in cards if list(c.corridors) == corridors]
        cards = exact or cards
    return cards[0] if cards else None


def resolve_token(value: Any) -> str | None:
    if isinstance(value, str) and value.strip().casefold() in TOKEN_TYPES:
        return value.strip().casefold()
    return None


MARS_CARD = "mars_card"  # the Mars die's own symbol: draw and resolve 1 Mars surface card (lockdown.md §12.5)


def noise_result(value: Any) -> Any:
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().casefold().replace(" ", "_") in (MARS_CARD, "mars"):
        return MARS_CARD
    if isinstance(value, int) and value in NOISE_RESULTS:
        return value
    if isinstance(value, str):
        v = value.strip().casefold()
        if v.isdigit() and int(v) in NOISE_RESULTS:
            return int(v)
        if v in NOISE_RESULTS:
            return v
    return None


