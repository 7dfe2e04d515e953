"""The fact vocabulary: every fact type a table may record, with its fields.

A fact's *shape* is checked here (known type, required fields present, values of the
right kind, names that exist). Whether it is *legal* in the current state is the business
of ``checks.py``.

    >>> FACTS["CharacterMoved"].actor
    'seat'
"""
from __future__ import annotations

from typing import Any, Mapping

from service.rules.base import Fact, Violation
from service.rules.kit.facts import CAUSE_FIELD, Checker, FactSpec, FieldSpec, field_spec, is_int as _is_int
from service.rules.kit.facts import shape_check as kit_shape_check
from service.rules.lockdown import (
    coarse_record, combat, condition, endgame, event_phase, hidden_information, items, movement, rooms, sections, setup,
    systems, turns, warrants,
)
from service.rules.lockdown.movement import SURCHARGE_DOC  # noqa: F401 (old path: facts.SURCHARGE_DOC)
from service.rules.lockdown.board import CORRIDOR_NUMBERS
from service.rules.lockdown.unknown_values import UNKNOWN_KINDS, is_unknown
from service.rules.lockdown.values import (  # noqa: F401 (old paths: facts.resolve_place …)
    MARS_CARD, noise_result, resolve_card, resolve_place, resolve_token,
)
from service.rules.lockdown.components import (
    ATTACK_CARDS, BOARDS, CHARACTERS, EVENT_CARDS, EXPLORATION_EFFECTS, ROOMS, TOKEN_TYPES,
)

ENDINGS = endgame.ENDINGS  # "incomplete": the record stops before the game's end (docs/decisions/0018)
CSS_TOKENS = event_phase.CSS_TOKENS
# the printed maximum is unknown (gaps_filled.md §16 item 10); generous bound for shape checks
MAX_TOKEN_ITEMS = 9


_f = field_spec  # short, for the long table below
MOVEMENT = {spec.type: spec for spec in movement.SPECS}  # declared with their checks and effects (decision 0029)
SYSTEMS = {spec.type: spec for spec in systems.SPECS}  # the same (decision 0029)
SCORING = {spec.type: spec for spec in endgame.SPECS}  # the same (decision 0029)
ROOMS_ = {spec.type: spec for spec in rooms.SPECS}  # the same (decision 0029)
TURNS = {spec.type: spec for spec in turns.SPECS}  # the same (decision 0029)


FACTS: dict[str, FactSpec] = {spec.type: spec for spec in (
    *setup.SPECS,  # declared with their checks and effects (decision 0029)
    TURNS["FirstPlayerPassed"],  # declared in turns, with Passed and ActionCardPlayed (decision 0029)
    MOVEMENT["CharacterMoved"], MOVEMENT["CharacterMovedByEffect"], MOVEMENT["CharacterMovedCarefully"],
    TURNS["Passed"],
    MOVEMENT["RoomExplored"], MOVEMENT["NoiseRolled"], MOVEMENT["EncounterTokenDrawn"],
    *event_phase.SPECS,  # declared with their checks and effects (decision 0029)
    SCORING["GameEnded"],  # declared in endgame, with FinalScanRecorded (decision 0029)
    *coarse_record.SPECS,  # declared with their checks and effects (decision 0029)
)}


# --- shape validation ------------------------------------------------------------------

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


def _move_corridor(state: Any, v: Any) -> str | None:
    if v == "path":
        return None if state.board.surface else "'path' exists only on a board with crossroads (the mars side)"
    return _corridor(state, v)


def _tile(state: Any, v: Any) -> str | None:
    if v == "crossroad" and state.board.surface:
        return None  # a crossroad has no tile: only its surface exploration token is revealed
    if ROOMS.resolve(v) is None:
        return f"unknown room {v!r}; expected one of: {', '.join(r.en for r in ROOMS if r.kind != 'special')}"
    return None


def _tiles(state: Any, v: Any) -> str | None:
    if not isinstance(v, Mapping):
        return "must be an object mapping a slot to a room tile (or null)"
    for place, tile in v.items():
        if place not in state.board.places or state.board.places[place].kind not in ("I", "II", "any"):
            return f"{place!r} is not a room-tile slot of this board"
        if tile is not None and ROOMS.resolve(tile) is None:
            return f"unknown room tile {tile!r} for {place}"
    return None


def _sectors(state: Any, v: Any) -> str | None:
    if not isinstance(v, Mapping):
        return "must be an object mapping a room space to its sector (S-01, S-02, S-03)"
    for place, sector in v.items():
        if place not in state.board.places or state.board.places[place].kind not in ("I", "II", "any", "special"):
            return f"{place!r} is not a room space of this board"
        if sector not in ("S-01", "S-02", "S-03"):
            return f"unknown sector {sector!r} for {place} (S-01, S-02 or S-03)"
    return None


def _exploration(state: Any, v: Any) -> str | None:
    if not isinstance(v, Mapping):
        return "must be an object {effect, items}"
    effects = _effects(getattr(state.board, "surface_effects", ()))
    if v.get("effect") not in effects:
        return f"token effect must be one of {', '.join(effects)}, got {v.get('effect')!r}"
    items = v.get("items")
    if items is not None and (not _is_int(items) or not 0 <= items <= MAX_TOKEN_ITEMS):
        return f"token items must be a whole number 0–{MAX_TOKEN_ITEMS}, got {items!r}"
    unknown = set(v) - {"effect", "items"}
    if unknown:
        return f"token has unknown keys {sorted(unknown)}; expected only effect and items"
    return None


_EFFECTS: dict[Any, tuple[str, ...]] = {}


def _effects(surface: Any) -> tuple[str, ...]:
    """The exploration tokens' effects on a board with these surface effects (worked out once per board)."""
    effects = _EFFECTS.get(surface) if isinstance(surface, tuple) else None
    if effects is None:
        effects = tuple(dict.fromkeys(EXPLORATION_EFFECTS + tuple(surface)))
        if isinstance(surface, tuple):
            _EFFECTS[surface] = effects
    return effects


def _intruder(state: Any, v: Any) -> str | None:
    for i in state.colony.intruders:  # a loop, not any() over a generator: every attack and melee asks
        if i.id == v:
            return None
    return f"no intruder {v!r} on the board (on the board: {', '.join(i.id for i in state.colony.intruders) or 'none'})"


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
    "move_corridor": _move_corridor,
    "count": lambda s, v: None if _is_int(v) and v >= 0 else f"must be a whole number ≥ 0, got {v!r}",
    "exploration_token": _exploration,
    "noise_result": lambda s, v: None if noise_result(v) is not None else
    f"must be 1, 2, 3, 4, 'danger', 'silence' or (Mars die) 'mars_card', got {v!r}",
    "colony_token": lambda s, v: None if resolve_token(v) else f"must be one of {', '.join(TOKEN_TYPES)}, got {v!r}",
    "css_token": lambda s, v: None if v in CSS_TOKENS else f"must be one of {', '.join(CSS_TOKENS)}, got {v!r}",
    "event_card": lambda s, v: None if EVENT_CARDS.resolve(v) else f"unknown event card {v!r}",
    "intruder": _intruder,
    "markers": _markers,
    "ending": lambda s, v: None if v in ENDINGS else f"must be one of {', '.join(ENDINGS)}, got {v!r}",
    "text": lambda s, v: None if isinstance(v, str) else "must be text",
    # any name: the listed cards are those the sources name, not every card of every deck (data/action_cards.json)
    "action_card": lambda s, v: None if isinstance(v, str) else "must be the card's id or name (text)",
    "round": lambda s, v: None if _is_int(v) and 1 <= v <= 99 else f"must be a round number 1–99, got {v!r}",
    "route": lambda s, v: None if v in ("pod", "bunker", "isolation") else f"must be pod, bunker or isolation, got {v!r}",
    "pod": lambda s, v: None if v in ("A", "B", "C") else f"must be A, B or C (leave it out when not known), got {v!r}",
    "effect": warrants.by_problem,  # ``by`` on every fact type (kit.facts.CAUSE_FIELD; decision 0039)
}


#: the optional fields every fact type accepts besides its own: ``by``, the card or effect that caused it (decision 0039)
COMMON_FIELDS = (CAUSE_FIELD,)


def shape_violations(state: Any, fact: Fact) -> list[Violation]:
    """Why ``fact`` cannot be applied at all (the kit's shape check over ``FACTS`` and ``KINDS``); a value
    recorded as unknown is well shaped (``checks.check`` answers value-unknown, decision 0018)."""
    return SHAPE[fact.type](state, fact, state.seats)[0]


def shape_and_unknowns(state: Any, fact: Fact) -> tuple[list[Violation], list[str]]:
    """``shape_violations`` and, when there are none, ``unknowns.unknown_fields`` in one pass over the fact's data:
    the fields the shape check lets through as recorded unknown are those ``unknown_fields`` names, in the spec's
    order (a common field, ``by``, is of no kind that may be unknown). The fold's ``checked_apply`` asks both."""
    return SHAPE[fact.type](state, fact, state.seats)


def _unknown(spec: FieldSpec, value: Any) -> bool:
    return spec.kind in UNKNOWN_KINDS and is_unknown(value)


def _may_be_unknown(spec: FieldSpec) -> bool:
    return spec.kind in UNKNOWN_KINDS


# the kit's shape check compiled per fact type at its first fact (decision 0048): ``SHAPE[fact.type](state, fact,
# seats)``; its ``skip`` is ``_unknown``
SHAPE = kit_shape_check(FACTS, KINDS, common=COMMON_FIELDS, skippable=_may_be_unknown, skip_value=is_unknown)


# =========================================================================================
# The whole game: condition, combat, items, systems, lab and knowledge, hidden information
# =========================================================================================

WOUND_KINDS = ("light", "serious")
SCAN_SCOPES = condition.SCAN_SCOPES
DEATH_CAUSES = condition.DEATH_CAUSES
DIE_FACES = combat.DIE_FACES
OBJECT_KINDS = rooms.OBJECT_KINDS
ITEM_COLOURS = items.ITEM_COLOURS
ITEM_PLACES = ("hand", "backpack")
DOOR_STATES = ("closed", "open", "destroyed")
POWER_LOCATIONS = ("S-01", "S-02", "S-03", "elevator")
from service.rules.lockdown.rooms import (  # noqa: E402,F401 (old paths: facts.ROOM_ACTIONS …)
    COMPUTER_CARDS, COMPUTER_DECK, HEAL_CHOICES, ROOM_ACTIONS,
)
CONTINGENCY_PLANS = hidden_information.CONTINGENCY_PLANS


def _int(lo: int = 0, hi: int | None = None) -> Checker:
    def check(state: Any, v: Any) -> str | None:
        if not _is_int(v) or v < lo or (hi is not None and v > hi):
            return f"must be a whole number {lo}–{hi if hi is not None else '…'}, got {v!r}"
        return None
    return check


def _one_of(values: tuple[str, ...]) -> Checker:
    return lambda s, v: None if v in values else f"must be one of {', '.join(map(str, values))}, got {v!r}"


def _bool(state: Any, v: Any) -> str | None:
    return None if isinstance(v, bool) else f"must be true or false, got {v!r}"


def _text_list(state: Any, v: Any) -> str | None:
    if not isinstance(v, list) or any(not isinstance(x, str) or not x for x in v):
        return f"must be a list of names, got {v!r}"
    return None


def _transfers(state: Any, v: Any) -> str | None:
    if not isinstance(v, list) or not v:
        return f"must be a list of hand-overs {{from, to, item}}, got {v!r}"
    for i, t in enumerate(v, start=1):
        if not isinstance(t, dict) or set(t) != {"from", "to", "item"}:
            return f"hand-over {i} must be an object with from, to and item, got {t!r}"
        if any(not _is_int(t[k]) or t[k] not in state.seats for k in ("from", "to")):
            return f"hand-over {i}: from and to must be seats of this game, got {t!r}"
        if not isinstance(t["item"], str) or not t["item"]:
            return f"hand-over {i}: item must be a name, got {t['item']!r}"
    return None


def _seat_list(state: Any, v: Any) -> str | None:
    if not isinstance(v, list) or any(not _is_int(x) or x not in state.seats for x in v):
        return f"must be a list of seats of this game, got {v!r}"
    return None


def _blood(state: Any, v: Any) -> str | None:
    if not isinstance(v, list) or not 1 <= len(v) <= 2 or any(
            not (v_ == "retreat" or (_is_int(v_) and 0 <= v_ <= 9)) for v_ in v):
        return f"must be a list of 1 or 2 blood values (numbers, or 'retreat'), got {v!r}"
    return None


def _target(state: Any, v: Any) -> str | None:
    if v == "egg":
        return None
    return _intruder(state, v)


def _attack_card(state: Any, v: Any) -> str | None:
    return None if ATTACK_CARDS.resolve(v) else f"unknown attack card {v!r}; expected one of " \
        f"{', '.join(c.en for c in ATTACK_CARDS)}"


def _arrangement(state: Any, v: Any) -> str | None:
    if not isinstance(v, Mapping) or set(v) != set(POWER_LOCATIONS) or \
            sorted(x for x in v.values() if _is_int(x)) != [1, 2, 3, 4]:
        return "must map S-01, S-02, S-03 and elevator to the power tokens 1–4 (each once)"
    return None


def _space(state: Any, v: Any) -> str | None:
    labels = [state.board.time_label(i) for i in range(len(state.board.time_spaces))]
    return None if str(v).zfill(2) in labels or str(v) in labels else f"must be a time-track space ({', '.join(labels)})"


def _objective(state: Any, v: Any) -> str | None:
    """An objective as its type id and printed values (``knowledge_at_least:5``), or ``unknown``."""
    from service.rules.lockdown.catalog import objective_types, parse_objective

    if not isinstance(v, str):
        return "must be an objective (type id with its values, e.g. 'knowledge_at_least:5') or 'unknown'"
    if v == "unknown" or parse_objective(v)[0] in objective_types():
        return None
    return f"unknown objective {v!r}; known types: {', '.join(sorted(objective_types()))} (or 'unknown')"


def _objectives(state: Any, v: Any) -> str | None:
    if not isinstance(v, list) or not v:
        return "must be a list of objectives (or 'unknown' for each card not seen)"
    return next((f"objective {i + 1}: {err}" for i, o in enumerate(v) if (err := _objective(state, o))), None)


KINDS.update({
    "objective": _objective,
    "objectives": _objectives,
    "wound_kind": _one_of(WOUND_KINDS),
    "count1": _int(1, 9),
    "player_number": _int(1, 5),
    "count0": _int(0, 27),
    "amount": _int(-8, 8),
    "scope": _one_of(SCAN_SCOPES),
    "bool": _bool,
    "cause": _one_of(DEATH_CAUSES),
    "attack_card": _attack_card,
    "die_face": _one_of(DIE_FACES),
    "target": _target,
    "blood": _blood,
    "kind": _one_of(tuple(t for t in TOKEN_TYPES if t != "blank")),
    "object": _one_of(OBJECT_KINDS),
    "colour": _one_of(ITEM_COLOURS),
    "item_place": _one_of(ITEM_PLACES),
    "names": _text_list,
    "seats": _seat_list,
    "transfers": _transfers,
    "sectors": _sectors,
    "door_state": _one_of(DOOR_STATES),
    "location": _one_of(POWER_LOCATIONS),
    "room_action": _one_of(tuple(ROOM_ACTIONS)),
    "heal_choice": lambda s, v: None if v in HEAL_CHOICES or v in ("counter", "malfunction", "taser",
                                                                    "enviro_suit", "rover", "suit") else
    f"unknown choice {v!r}",
    "computer_card": _one_of(COMPUTER_DECK),
    "computer_option": _int(1, 3),
    "plan": _one_of(CONTINGENCY_PLANS),
    "owner": lambda s, v: None if v in ("active", "pool") or (_is_int(v) and v in s.seats) else
    f"must be 'active', 'pool' or a seat, got {v!r}",
    "arrangement": _arrangement,
    "space": _space,
    "slot": _int(1, 3),
    "power_pair": lambda s, v: None if isinstance(v, list) and len(v) == 2 and all(x in POWER_LOCATIONS for x in v)
    and v[0] != v[1] else "must be 2 different power locations (S-01, S-02, S-03, elevator)",
    "sector": _one_of(("S-01", "S-02", "S-03")),
    "draw_kinds": lambda s, v: None if isinstance(v, list) and len(v) <= 4 and all(
        x in ("action", "contamination") for x in v) else "must list up to 4 card kinds (action / contamination)",
})

S = sections
MORE = (
    # --- character condition --------------------------------------------------------------
    *condition.SPECS,  # declared with their checks and effects (decision 0029)
    ROOMS_["KnowledgeGained"],
    # --- combat ---------------------------------------------------------------------------
    *combat.SPECS,  # declared with their checks and effects (decision 0029)
    # --- cards and items ------------------------------------------------------------------
    TURNS["ActionCardPlayed"],  # declared in turns (decision 0029)
    TURNS["ActionInterrupted"],  # declared in turns (decision 0038)
    *items.SPECS,  # declared with their checks and effects (decision 0037)
    # --- systems ---------------------------------------------------------------------------
    SYSTEMS["FirePlaced"],
    SYSTEMS["FireRemoved"],
    SYSTEMS["MalfunctionPlaced"],
    SYSTEMS["MalfunctionRemoved"],
    SYSTEMS["DoorChanged"],
    MOVEMENT["NoiseMarkerPlaced"], MOVEMENT["NoiseMarkerRemoved"],  # declared in movement (decision 0029)
    SYSTEMS["PowerChanged"],
    SYSTEMS["SelfDestructStarted"],
    ROOMS_["RoomActionUsed"],
    ROOMS_["ComputerActionUsed"],
    ROOMS_["ComputerCardRevealed"],
    # --- objectives, contingency, lab, victory check --------------------------------------
    *hidden_information.SPECS,  # declared with their checks and effects (decision 0029)
    ROOMS_["WeaknessRevealed"],
    SCORING["FinalScanRecorded"],
)
FACTS.update({spec.type: spec for spec in MORE})
AFTER_END = ("ContingencyTokenRevealed", "FinalScanRecorded", "ObjectiveRevealed")  # hidden information at the end
