"""Unknown table values and coarse (after-the-fact) records (docs/decisions/0018).

A recorder who did not see a value records ``"unknown"`` instead of inventing one. Such a
fact is well shaped in every game; ``check`` answers a ``value-unknown`` violation naming the
field, so a strict game refuses it and a lenient game stores it flagged. The fold applies
what does not depend on the value (the sub-step is resolved, the action is counted, the
event step advances) and derives nothing from the value itself; ``state.unknowns`` lists
what was not recorded.

A coarse record skips what nobody remembers: ``RecordGap`` ("the rest of round 2 and round 3
were not recorded; round 4 begins, time token at 09"), ``CharacterEscaped`` (an escape known
only by its outcome) and ``GameEnded`` with ``ending: incomplete`` (the record stops before
the game's end; known deaths and escapes stay in the result).

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(2)
    >>> [v.rule + ":" + v.field for v in g.push("CharacterMoved", 1, to_room="slot-04", corridor="unknown")]
    ['value-unknown:corridor']
    >>> g.state.characters[1].room, g.state.unknowns
    ('slot-04', ('round 1: CharacterMoved.corridor (seat 1)',))
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable

from service.rules.base import Consequence, Fact, Violation
from service.rules.lockdown import mechanics as M
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown.facts import FACTS
from service.rules.lockdown.mechanics import C
from service.rules.lockdown.turns import ACTIONS, action_cost
from service.rules.lockdown.state import (
    COLONY_STEP, EVENT, IN_BASE, ROUND_END, TIME, LockdownState, Pending, who, with_character, with_room,
)

from service.rules.lockdown.unknown_values import UNKNOWN, UNKNOWN_KINDS, is_unknown  # noqa: F401 (old paths)
from service.rules.lockdown.coarse_record import (  # noqa: F401 (old paths: unknowns.check_gap …)
    ESCAPE_ROUTES, ESCAPE_RULE, GAP_RULE, INCOMPLETE, POD_LETTERS, apply_escape, apply_gap, check_escape, check_gap,
    after_the_fact, coarse_inputs, uncertain,
)
from service.rules.lockdown import coarse_record

UNKNOWN_RULE = "value-unknown"
def unknown_fields(fact: Fact) -> list[str]:
    """The fields of ``fact`` recorded as ``"unknown"`` where the kind allows it."""

    names = _MAY_BE_UNKNOWN.get(fact.type)
    if names is None:
        spec = FACTS.get(fact.type)
        if spec is None:
            return []
        names = _MAY_BE_UNKNOWN[fact.type] = tuple(f.name for f in spec.fields if f.kind in UNKNOWN_KINDS)
    if not names or not hasattr(fact.data, "get"):
        return []
    return [name for name in names if is_unknown(fact.data.get(name))]


_MAY_BE_UNKNOWN: dict[str, tuple[str, ...]] = {}  # fact type -> its fields whose kind may be "unknown" (worked out once)


# --- checks ------------------------------------------------------------------------------

def violations(state: LockdownState, fact: Fact, fields: list[str]) -> list[Violation]:

    spec = FACTS[fact.type]
    return [Violation(
        rule=UNKNOWN_RULE, field=name, section=spec.section,
        message=f"{fact.type}.{name} is recorded as unknown: a strict game needs every table value (record what "
                f"the table saw, or record the game as lenient, where unknown values are kept and flagged).",
    ) for name in fields]


COARSE_RULES = coarse_record.RULES  # old name (checks registers them from here)


# --- applying ----------------------------------------------------------------------------

Handler = Callable[[LockdownState, Fact, list[Consequence]], LockdownState]


def _note(state: LockdownState, fact: Fact, fields: list[str]) -> LockdownState:
    who_ = f" (seat {fact.actor})" if fact.actor is not None else ""
    entries = tuple(f"round {state.clock.round}: {fact.type}.{name}{who_}" for name in fields)
    return replace_in(state, "record", unknowns=state.record.unknowns + entries)


def _without(fact: Fact, fields: list[str], **extra: Any) -> Fact:
    data = {k: v for k, v in fact.data.items() if k not in fields}
    data.update(extra)
    return Fact(fact.seq, fact.type, data, fact.actor, fact.visibility)


def apply_unknown(state: LockdownState, fact: Fact, fields: list[str], cons: list[Consequence],
                  handlers: dict[str, Handler]) -> LockdownState:
    """Apply a fact with unknown values: what does not depend on them, nothing derived from them."""

    cons.append(C("value-unknown", f"{fact.type}: {', '.join(fields)} not recorded (unknown); what follows from "
                  f"it is not derived.", fields=list(fields)))
    state = _note(state, fact, fields)
    special = SPECIAL.get(fact.type)
    if special is not None:
        return special(state, fact, fields, cons, handlers)
    required = {f.name for f in FACTS[fact.type].fields if f.required}
    if not required & set(fields) and fact.type in handlers:  # only optional details unknown: the rest stands
        return handlers[fact.type](state, _without(fact, fields), cons)
    return state  # the value is the fact: nothing can be derived


def _chosen(state, fact, fields, cons, handlers):
    seat = fact.actor
    cons.append(C("character-placed", f"{who(state, seat)} plays a character not recorded; where it starts is "
                  f"unknown.", seat=seat, room=None))
    state = with_character(state, seat, character=UNKNOWN, room=None)
    if state.clock.phase == "setup" and state.clock.step != "board" and all(c.character for c in state.crew.characters.values()):
        state = replace_in(state, "clock", step="ready")
    return state


def _moved(state, fact, fields, cons, handlers):
    if "to_room" not in fields:  # the room is known, the corridor (or the careful move's noise corridor) is not
        data = {"corridor": None} if "corridor" in fields else {}
        if "noise_corridor" in fields:
            data["noise_corridor"] = None
        return handlers[fact.type](state, _without(fact, fields, **data), cons)
    seat = fact.actor
    c = state.crew.characters[seat]
    cost = (2 if fact.type == "CharacterMovedCarefully" else 1) + (fact.data.get("surcharge") or 0)
    state = M.pay(state, seat, cost)
    state = with_character(state, seat, room=None, moves=c.moves + 1)
    cons.append(C("moved", f"{who(state, seat)} moves to a room not recorded ({cost} card"
                  f"{'s' if cost > 1 else ''}).", seat=seat, from_room=c.room, to_room=None))
    return M.count_action(state, seat)


def _explored(state, fact, fields, cons, handlers):
    seat = fact.actor
    state, p = M.pop_pending(state, "explore", seat)
    place = p.room if p else state.crew.characters[seat].room
    if place is None:
        return state
    token = fact.data.get("token")
    changes: dict[str, Any] = {"explored": True}
    if "token" not in fields:
        changes["token"] = MappingProxyType(dict(token))
    if "room" not in fields:
        from service.rules.lockdown.components import ROOMS
        room = ROOMS.resolve(fact.data["room"])
        if room is not None:
            changes["tile"] = room.id
    state = with_room(state, place, **changes)
    effect = None if "token" in fields else token.get("effect")
    cons.append(C("room-revealed", f"{state.room_label(place)} is explored; "
                  + ("its exploration token is not recorded: its effect is not derived." if effect is None
                     else f"token {effect} (resolve its effect at the table)."), room=place, effect=effect))
    if p is not None and p.empty and not p.careful and effect not in ("silence", "danger"):
        cons.append(C("noise-roll-due", f"{who(state, seat)} entered an empty room: a noise roll is due.", seat=seat))
        noise = Pending("noise", seat, place, reason="entered an empty room")
        state = replace_in(state, "clock", pending=(noise,) + state.clock.pending)
    return state


def _pop(kind: str, by_intruder: bool = False):
    def handler(state, fact, fields, cons, handlers):
        if by_intruder:
            state, _ = M.pop_pending(state, kind, intruder=fact.data.get("intruder"))
        else:
            state, _ = M.pop_pending(state, kind, fact.actor)
        if kind == "retreat" and "to_room" in fact.data and "to_room" not in fields:
            from service.rules.lockdown.facts import resolve_place
            dest = resolve_place(state, fact.data["to_room"])
            state = replace_in(state, "colony",
                               intruders=tuple(replace(i, room=dest) if i.id == fact.data["intruder"] else i
                                                   for i in state.colony.intruders))
        return state
    return handler


def _step(to: str):
    def handler(state, fact, fields, cons, handlers):
        if fact.type == "CssTokenRevealed":
            state = replace_in(state, "systems", launches=state.systems.launches + (UNKNOWN,),
                               css_at=state.systems.css_at - {state.time_space})
            if state.systems.pods:
                cons.append(C("pod-unknown", "Which pods launched is not recorded: the characters in pods stay "
                              "there until a fact says where they went.", seats=sorted(state.systems.pods.values())))
        return replace_in(state, "clock", step=to if state.clock.phase == EVENT else state.clock.step)
    return handler


def _cleared(state, fact, fields, cons, handlers):
    """Which noise markers went is not known: they stay on the board (may be stale); step 7 attacks do not depend
    on them and are due as usual."""
    return handlers[fact.type](state, _without(fact, fields, removed=[]), cons)


def _combat(state, fact, fields, cons, handlers):
    seat = fact.actor
    state = M.pay(state, seat, 1)
    return M.count_action(state, seat)


def _died(state, fact, fields, cons, handlers):
    state = M.die(state, fact.actor, UNKNOWN, cons)
    return with_character(state, fact.actor, cause=None)


def _computer(state, fact, fields, cons, handlers):
    return replace_in(state, "research", computer_card=None)


SPECIAL: dict[str, Callable[..., LockdownState]] = {
    "CharacterChosen": _chosen,
    "CharacterMoved": _moved,
    "CharacterMovedCarefully": _moved,
    "RoomExplored": _explored,
    "NoiseRolled": _pop("noise"),
    "EncounterTokenDrawn": _pop("encounter"),
    "IntruderAttacked": _pop("attack", by_intruder=True),
    "InjuryCheckDrawn": _pop("injury_check", by_intruder=True),
    "IntruderRetreated": _pop("retreat", by_intruder=True),
    "CssTokenRevealed": _step(TIME),
    "EventCardDrawn": _step(COLONY_STEP),
    "ColonyTokenDrawn": _step(ROUND_END),
    "NoiseMarkersCleared": _cleared,
    "CharacterShot": _combat,
    "MeleeAttacked": _combat,
    "CharacterDied": _died,
    "ComputerCardRevealed": _computer,
}


#: the fact types that act in the actor's room (``room_unknown``): the actions but the moves and the pass, and a drop
ACTS_IN_ROOM = (frozenset(ACTIONS) | {"ItemDropped"}) - {"CharacterMoved", "CharacterMovedCarefully", "Passed"}


def room_unknown(state: LockdownState, fact: Fact) -> bool:
    """The acting character is in the base but its room was not recorded, and the fact acts in that room."""

    if fact.type not in ACTS_IN_ROOM:  # most facts: nothing to read in the state
        return False
    c = state.crew.characters.get(fact.actor) if isinstance(fact.actor, int) else None
    return c is not None and c.status == IN_BASE and c.room is None and bool(c.character)


def apply_nowhere(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    """An action of a character whose room is unknown: its cost is paid and it counts; what it does in the room is not
    derived (the room is not known)."""

    seat = fact.actor
    cost = action_cost(fact)
    cons.append(C("room-unknown", f"{who(state, seat)}'s room is not recorded: {fact.type} is counted"
                  + (f" ({cost} card{'s' if cost != 1 else ''})" if cost else "") + "; what it does there is not "
                  "derived.", seat=seat))
    state = M.pay(state, seat, cost)
    return M.count_action(state, seat) if fact.type != "ItemDropped" else state
