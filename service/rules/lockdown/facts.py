"""The fact vocabulary: every fact type a table may record, with its fields.

A fact's *shape* is checked here (known type, required fields present, values of the
right kind, names that exist). Whether it is *legal* in the current state is the business
of ``checks.py``.

    >>> FACTS["CharacterMoved"].actor
    'seat'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from service.rules.base import Fact, Violation
from service.rules.lockdown import sections
from service.rules.lockdown.board import CORRIDOR_NUMBERS
from service.rules.lockdown.components import (
    BOARDS, CHARACTERS, EVENT_CARDS, EXPLORATION_EFFECTS, NOISE_RESULTS, ROOMS, TOKEN_TYPES,
)

ENDINGS = ("abandoned", "time_out", "alarm_procedure", "base_destroyed", "no_characters_left")
CSS_TOKENS = ("A", "B", "C", "ALL", "NONE")
# the printed maximum is unknown (gaps_filled.md §16 item 10); generous bound for shape checks
MAX_TOKEN_ITEMS = 9


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: str
    required: bool = True
    doc: str = ""


@dataclass(frozen=True)
class FactSpec:
    type: str
    actor: str  # "seat" (a seat acts) or "table" (actor is None)
    summary: str
    fields: tuple[FieldSpec, ...] = ()
    example: Mapping[str, Any] = field(default_factory=dict)
    section: str = ""


def _f(name: str, kind: str, doc: str, required: bool = True) -> FieldSpec:
    return FieldSpec(name, kind, required, doc)


FACTS: dict[str, FactSpec] = {spec.type: spec for spec in (
    FactSpec("BoardPrepared", "table",
             "The main board is laid out: which board and, if the table knows them, the room tiles in the slots.",
             (_f("board", "board", "board file id: 'basic' (the real board) or 'synthetic' (test board only)"),
              _f("tiles", "tiles", "optional map slot → room tile (id or name) or null when face down and unknown", False)),
             {"board": "basic", "tiles": {"slot-04": "archive", "slot-05": None}}, sections.SETUP_BOARD),
    FactSpec("CharacterChosen", "seat",
             "A player chose their character; the figure goes to its start room.",
             (_f("character", "character", "character id or name"),),
             {"character": "survivor"}, sections.SETUP_CHARACTERS),
    FactSpec("SetupCompleted", "table",
             "Setup is over; round 1 begins and every player draws up to 5 (6 in the Isolation Room).",
             (_f("first_player", "seat", "the seat holding the first player token (player 1); default: lowest seat", False),),
             {}, sections.SETUP_FIRST_PLAYER),
    FactSpec("FirstPlayerPassed", "seat",
             "The first player token moved to the player on the left (every round but the first).",
             (_f("to", "seat", "the seat receiving the token (default: the next seat clockwise)", False),),
             {"to": 2}, sections.FIRST_PLAYER),
    FactSpec("CharacterMoved", "seat",
             "Move action (costs 1 card): the character entered an adjacent room through the numbered corridor.",
             (_f("to_room", "room", "the room entered: slot id (e.g. slot-07) or the room's id/name if known"),
              _f("corridor", "corridor", "the number (1–4) of the corridor used, as printed at the room entered")),
             {"to_room": "slot-07", "corridor": 2}, sections.MOVE),
    FactSpec("CharacterMovedCarefully", "seat",
             "Careful Move action (costs 2 cards, out of combat): as a move, but a noise marker is placed instead of a noise roll.",
             (_f("to_room", "room", "the room entered"),
              _f("corridor", "corridor", "the number of the corridor used"),
              _f("noise_corridor", "corridor", "the number of the corridor (leading to the room entered) that gets the noise marker")),
             {"to_room": "archive", "corridor": 1, "noise_corridor": 3}, sections.CAREFUL),
    FactSpec("Passed", "seat",
             "The player passed (counts as an action); they take no more actions this round.",
             (_f("discarded", "count", "how many cards they discarded from hand when passing (default 0)", False),),
             {"discarded": 1}, sections.PASS),
    FactSpec("RoomExplored", "seat",
             "The room just entered was unexplored: its tile and exploration token were revealed.",
             (_f("room", "tile", "the room tile revealed (id or name)"),
              _f("token", "exploration_token", "the exploration token: {effect, items}")),
             {"room": "archive", "token": {"effect": "fire", "items": 3}}, sections.EXPLORE),
    FactSpec("NoiseRolled", "seat",
             "A noise roll due for this character: 1–4, 'danger' or 'silence'.",
             (_f("result", "noise_result", "1, 2, 3, 4, 'danger' or 'silence'"),),
             {"result": 3}, sections.NOISE),
    FactSpec("EncounterTokenDrawn", "seat",
             "An encounter: a token was drawn from the colony bag for the character's room.",
             (_f("token", "colony_token", "larva, creeper, adult, breeder, queen or blank"),
              _f("number", "count", "the number on the token's back that applied (lit/dark), for the surprise-attack check", False)),
             {"token": "adult", "number": 2}, sections.ENCOUNTER),
    FactSpec("CssTokenRevealed", "table",
             "Event step 4: the CSS token under the time token was flipped.",
             (_f("token", "css_token", "A, B, C, ALL or NONE"),),
             {"token": "NONE"}, sections.CSS),
    FactSpec("TimeAdvanced", "table",
             "Event step 5: the time token moved 1 space right.",
             (), {}, sections.TIME),
    FactSpec("NoiseMarkersCleared", "table",
             "Event step 6: the noise markers the table removed (powered sectors, corridors not leading to a character).",
             (_f("removed", "markers", "list of {room, corridor}; may be empty"),),
             {"removed": [{"room": "archive", "corridor": 2}]}, sections.NOISE_CLEANUP),
    FactSpec("EventCardDrawn", "table",
             "Event step 9: an event card was drawn and resolved.",
             (_f("card", "event_card", "event card id or name"),
              _f("corridors", "corridor_list", "the corridor number(s) printed on the card (checked against the card)", False)),
             {"card": "lurking", "corridors": [2]}, sections.EVENT_CARD),
    FactSpec("IntruderMoved", "table",
             "An intruder moved as the table resolved it (for boards whose corridor graph is unknown).",
             (_f("intruder", "intruder", "the intruder's id (e.g. 'i3')"),
              _f("to_room", "room", "the room it moved to")),
             {"intruder": "i1", "to_room": "slot-03"}, sections.EVENT_CARD),
    FactSpec("ColonyTokenDrawn", "table",
             "Event step 10: a token was drawn from the colony bag (bag development).",
             (_f("token", "colony_token", "larva, creeper, adult, breeder, queen or blank"),),
             {"token": "larva"}, sections.COLONY),
    FactSpec("GameEnded", "table",
             "The table ended the game (e.g. abandoned). The victory check is not modelled yet.",
             (_f("ending", "ending", "abandoned, time_out, alarm_procedure, base_destroyed or no_characters_left"),
              _f("note", "text", "free text", False)),
             {"ending": "abandoned", "note": "ran out of time at the club"}, sections.END),
)}


# --- value resolution (used by checks and apply) ---------------------------------------

def resolve_place(state: Any, value: Any) -> str | None:
    """A place id for ``value``: a place id, or a room id/name whose position is known."""
    if not isinstance(value, str):
        return None
    if value in state.rooms:
        return value
    for room in ROOMS.matches(value):
        place = state.room_of_tile(room.id)
        if place is not None:
            return place
    lowered = value.strip().casefold()
    for place in state.rooms:
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


def noise_result(value: Any) -> Any:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value in NOISE_RESULTS:
        return value
    if isinstance(value, str):
        v = value.strip().casefold()
        if v.isdigit() and int(v) in NOISE_RESULTS:
            return int(v)
        if v in NOISE_RESULTS:
            return v
    return None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# --- shape validation ------------------------------------------------------------------

Checker = Callable[[Any, Any], "str | None"]


def _corridor(state: Any, v: Any) -> str | None:
    if not _is_int(v) or v not in CORRIDOR_NUMBERS:
        return f"must be a corridor number 1–4, got {v!r}"
    return None


def _room(state: Any, v: Any) -> str | None:
    if resolve_place(state, v) is None:
        if ROOMS.matches(v):
            return (f"the room {v!r} is not on the board or its position is not known yet; "
                    f"name its space instead (slot-01 … slot-16)")
        return f"unknown room {v!r}; use a space id (slot-01 … slot-16, isolation_room …) or a room name"
    return None


def _tile(state: Any, v: Any) -> str | None:
    if ROOMS.resolve(v) is None:
        return f"unknown room {v!r}; expected one of: {', '.join(r.en for r in ROOMS if r.kind != 'special')}"
    return None


def _tiles(state: Any, v: Any) -> str | None:
    if not isinstance(v, Mapping):
        return "must be an object mapping a slot to a room tile (or null)"
    for place, tile in v.items():
        if place not in state.board.places or state.board.places[place].kind not in ("I", "II"):
            return f"{place!r} is not a room-tile slot of this board"
        if tile is not None and ROOMS.resolve(tile) is None:
            return f"unknown room tile {tile!r} for {place}"
    return None


def _exploration(state: Any, v: Any) -> str | None:
    if not isinstance(v, Mapping):
        return "must be an object {effect, items}"
    if v.get("effect") not in EXPLORATION_EFFECTS:
        return f"token effect must be one of {', '.join(EXPLORATION_EFFECTS)}, got {v.get('effect')!r}"
    items = v.get("items")
    if items is not None and (not _is_int(items) or not 0 <= items <= MAX_TOKEN_ITEMS):
        return f"token items must be a whole number 0–{MAX_TOKEN_ITEMS}, got {items!r}"
    unknown = set(v) - {"effect", "items"}
    if unknown:
        return f"token has unknown keys {sorted(unknown)}; expected only effect and items"
    return None


def _markers(state: Any, v: Any) -> str | None:
    if not isinstance(v, list):
        return "must be a list of {room, corridor}"
    for m in v:
        if not isinstance(m, Mapping):
            return "each removed marker must be an object {room, corridor}"
        problem = _room(state, m.get("room")) or _corridor(state, m.get("corridor"))
        if problem:
            return problem
    return None


def _corridor_list(state: Any, v: Any) -> str | None:
    if not isinstance(v, list) or not v or any(_corridor(state, n) for n in v):
        return f"must be a list of corridor numbers 1–4, got {v!r}"
    return None


KINDS: dict[str, Checker] = {
    "board": lambda s, v: None if v in BOARDS else f"unknown board {v!r}; expected one of {', '.join(BOARDS)}",
    "tiles": _tiles,
    "character": lambda s, v: None if CHARACTERS.resolve(v) else
    f"unknown character {v!r}; expected one of {', '.join(c.en for c in CHARACTERS)}",
    "seat": lambda s, v: None if _is_int(v) and v in s.seats else f"must be a seat of this game ({', '.join(map(str, s.seats))})",
    "room": _room,
    "tile": _tile,
    "corridor": _corridor,
    "corridor_list": _corridor_list,
    "count": lambda s, v: None if _is_int(v) and v >= 0 else f"must be a whole number ≥ 0, got {v!r}",
    "exploration_token": _exploration,
    "noise_result": lambda s, v: None if noise_result(v) is not None else
    f"must be 1, 2, 3, 4, 'danger' or 'silence', got {v!r}",
    "colony_token": lambda s, v: None if resolve_token(v) else f"must be one of {', '.join(TOKEN_TYPES)}, got {v!r}",
    "css_token": lambda s, v: None if v in CSS_TOKENS else f"must be one of {', '.join(CSS_TOKENS)}, got {v!r}",
    "event_card": lambda s, v: None if EVENT_CARDS.resolve(v) else f"unknown event card {v!r}",
    "intruder": lambda s, v: None if any(i.id == v for i in s.intruders) else
    f"no intruder {v!r} on the board (on the board: {', '.join(i.id for i in s.intruders) or 'none'})",
    "markers": _markers,
    "ending": lambda s, v: None if v in ENDINGS else f"must be one of {', '.join(ENDINGS)}, got {v!r}",
    "text": lambda s, v: None if isinstance(v, str) else "must be text",
}


def shape_violations(state: Any, fact: Fact) -> list[Violation]:
    spec = FACTS.get(fact.type)
    if spec is None:
        return [Violation(
            rule="unknown-fact-type", shape=True, field="type",
            message=f"Unknown fact type {fact.type!r}. Known types: {', '.join(sorted(FACTS))}.",
        )]
    out: list[Violation] = []
    if not isinstance(fact.data, Mapping):
        return [Violation(rule="malformed-data", shape=True, field="data", section=spec.section,
                          message=f"{fact.type}: data must be a JSON object.")]
    if spec.actor == "seat" and not (_is_int(fact.actor) and fact.actor in state.seats):
        out.append(Violation(
            rule="actor-required", shape=True, field="actor", section=spec.section,
            message=f"{fact.type} is done by a player: give the acting seat "
                    f"({', '.join(map(str, state.seats))}), not {fact.actor!r}.",
        ))
    if spec.actor == "table" and fact.actor is not None:
        out.append(Violation(
            rule="actor-not-allowed", shape=True, field="actor", section=spec.section,
            message=f"{fact.type} is recorded for the whole table: leave the actor empty (got seat {fact.actor!r}).",
        ))
    known = {f.name for f in spec.fields}
    for name in fact.data:
        if name not in known:
            out.append(Violation(
                rule="unknown-field", shape=True, field=name, section=spec.section,
                message=f"{fact.type} has no field {name!r}; its fields are: {', '.join(sorted(known)) or 'none'}.",
            ))
    for f in spec.fields:
        if f.name not in fact.data or fact.data[f.name] is None:
            if f.required:
                out.append(Violation(
                    rule="missing-field", shape=True, field=f.name, section=spec.section,
                    message=f"{fact.type} needs {f.name!r}: {f.doc}.",
                ))
            continue
        problem = KINDS[f.kind](state, fact.data[f.name])
        if problem:
            out.append(Violation(rule="invalid-field", shape=True, field=f.name, section=spec.section,
                                 message=f"{fact.type}.{f.name} {problem}."))
    return out
