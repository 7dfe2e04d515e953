"""Systems: fire and malfunction markers, doors, power, and the self-destruct countdown, as a table records them
when an effect changes them.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check (None where its shape
and its place in the game are all there is to check) and its effect. The rooms' actions that work these systems
(alarm, pods, Bunker, the power switch) stay with the room actions. Its offers are table effects (markers placed
and removed, doors, power, the self-destruct start) that ``inputs_play.table_effects`` composes with the others
in the order the seeded generator depends on, and the one-tap removals (``effect_groups``). Decision 0029.

    >>> [t.spec.type for t in FACT_TYPES][:2]
    ['FirePlaced', 'FireRemoved']
"""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType

from service.rules.base import Expected, Fact, Group
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.components import ROOMS
from service.rules.lockdown.offers import OUTCOME_NOTE, TABLE_EFFECT, corridor_groups, grouped
from service.rules.lockdown.state import POWER_LOCATIONS, LockdownState, with_room
from service.rules.lockdown.values import resolve_place


# --- checks --------------------------------------------------------------------------------------------------

def check_fire_removed(state, fact):
    place = resolve_place(state, fact.data["room"])
    return [] if state.ship.rooms[place].fire else [V("no-fire", f"{state.room_label(place)} has no fire marker.",
                                                      S.FIRE,
                                                 "room")]


def check_malfunction(state, fact):
    place = resolve_place(state, fact.data["room"])
    r = state.ship.rooms[place]
    if not r.explored:
        return [V("malfunction-unexplored", "A malfunction marker cannot be placed in an unexplored room.",
                  S.MALFUNCTION, "room")]
    if r.tile in ("nest", "contaminated_room"):
        return [V("no-malfunction-here", f"No malfunction marker is ever placed in {ROOMS[r.tile].en}.",
                  S.MALFUNCTION, "room")]
    return []


def check_malfunction_removed(state, fact):
    place = resolve_place(state, fact.data["room"])
    return [] if state.ship.rooms[place].malfunction else [
        V("no-malfunction", f"{state.room_label(place)} has no malfunction marker.", S.MALFUNCTION, "room")]


def check_door(state, fact):
    place = resolve_place(state, fact.data["room"])
    key = state.board.corridor_key(place, fact.data["corridor"])
    if key == TECHNICAL:
        return [V("no-door-in-technical", "Door tokens are never placed in technical corridors.", S.DOORS, "corridor")]
    if key is None:
        return [V("no-such-corridor", f"{state.room_label(place)} has no corridor {fact.data['corridor']}.", S.DOORS,
                  "corridor")]
    if key in state.ship.destroyed_doors and fact.data["state"] != "destroyed":
        return [V("door-destroyed", "A destroyed door can never be closed or opened again.", S.DOORS, "state")]
    return []


def check_self_destruct(state, fact):
    if state.systems.self_destruct is not None:
        return [V("self-destruct-active", "The self-destruct countdown is already running.", S.SELF_DESTRUCT)]
    return []


# --- effects -------------------------------------------------------------------------------------------------

def fire_placed(state, fact, cons):
    return M.place_fire(state, resolve_place(state, fact.data["room"]), cons)


def fire_removed(state, fact, cons):
    place = resolve_place(state, fact.data["room"])
    cons.append(C("fire-removed", f"The fire in {state.room_label(place)} is put out.", room=place))
    return with_room(state, place, fire=False)


def malfunction_placed(state, fact, cons):
    return M.place_malfunction(state, resolve_place(state, fact.data["room"]), cons)


def malfunction_removed(state, fact, cons):
    place = resolve_place(state, fact.data["room"])
    cons.append(C("malfunction-removed", f"The malfunction in {state.room_label(place)} is repaired.", room=place))
    return with_room(state, place, malfunction=False)


def door_changed(state, fact, cons):
    place = resolve_place(state, fact.data["room"])
    key = state.board.corridor_key(place, fact.data["corridor"])
    new = fact.data["state"]
    if key is None or key == TECHNICAL:
        cons.append(C("ignored", "No door can be there."))
        return state
    doors, destroyed = set(state.ship.doors), set(state.ship.destroyed_doors)
    doors.discard(key)
    if new == "closed":
        doors.add(key)
    elif new == "destroyed":
        destroyed.add(key)
    cons.append(C("door", f"The door in corridor {fact.data['corridor']} of {state.room_label(place)} is {new}.",
                  corridor=key, state=new))
    return replace_in(state, "ship", doors=frozenset(doors), destroyed_doors=frozenset(destroyed))


def power_changed(state, fact, cons):
    d = fact.data
    if d.get("emergency") or d.get("location") is None:
        cons.append(C("emergency-power", f"The time token is flipped: emergency power {'active' if d['on'] else 'inactive'}.",
                      on=d["on"]))
        return replace_in(state, "ship", emergency_power=d["on"])
    loc = d["location"]
    n, _ = state.ship.power[loc]
    power = state.ship.power.copy()
    power[loc] = (n, d["on"])
    cons.append(C("power", f"Power token {n} ({loc}) turns {'on' if d['on'] else 'off'}.", location=loc, on=d["on"]))
    return replace_in(state, "ship", power=MappingProxyType(power))


def self_destruct_started(state, fact, cons):
    return M.start_self_destruct(state, cons)


# --- offers (table effects; inputs_play composes them with the others in the seeded generator's order) ---------

DOOR_STATES_OFFERED = ["closed", "open", "destroyed"]
OUTCOME_BUTTONS_UP_TO = 4  # a short choice among this many outcomes gets one button per outcome (more: the offer)


def _markers(state: LockdownState) -> tuple[list[str], list[str], list[str], list[str]]:
    """(rooms a fire may be placed in, … a malfunction may be placed in, rooms on fire, rooms with a malfunction)."""
    fire_free, malf_free, fires, malfs = [], [], [], []
    for p, r in state.ship.rooms.items():
        if r.fire:
            fires.append(p)
        elif r.explored:
            fire_free.append(p)
        if r.malfunction:
            malfs.append(p)
        elif r.explored and r.tile not in ("nest", "contaminated_room"):
            malf_free.append(p)
    return fire_free, malf_free, fires, malfs


def placed_offers(state: LockdownState) -> list[Expected]:
    """Table effects: a fire or a malfunction marker placed in an explored room without one."""
    fire_free, malf_free, _, _ = _markers(state)
    out = []
    if fire_free:
        out.append(Expected("FirePlaced", None, {"room": fire_free}, TABLE_EFFECT))
    if malf_free:
        out.append(Expected("MalfunctionPlaced", None, {"room": malf_free}, TABLE_EFFECT))
    return out


@lru_cache(maxsize=1024)
def _door_offers(board, destroyed: frozenset) -> tuple[Expected, ...]:
    """DoorChanged: every corridor but the technical ones and destroyed doors."""
    return tuple(grouped("DoorChanged", corridor_groups(board, lambda k: k != TECHNICAL and k not in destroyed),
                         {"state": DOOR_STATES_OFFERED}, TABLE_EFFECT))


def door_offers(state: LockdownState) -> tuple[Expected, ...]:
    """Table effect: a door closed, opened or destroyed in any corridor but the technical ones and destroyed doors."""
    return _door_offers(state.board, state.ship.destroyed_doors)


def removed_offers(state: LockdownState) -> list[Expected]:
    """Table effects: a fire or a malfunction marker removed."""
    _, _, fires, malfs = _markers(state)
    out = []
    if fires:
        out.append(Expected("FireRemoved", None, {"room": fires}, TABLE_EFFECT))
    if malfs:
        out.append(Expected("MalfunctionRemoved", None, {"room": malfs}, TABLE_EFFECT))
    return out


def power_offers(state: LockdownState) -> list[Expected]:
    """Table effects: a power location switched, and the emergency power of the time token."""
    out = []
    locations = [loc for loc in POWER_LOCATIONS if loc in state.ship.power]
    if locations:
        out.append(Expected("PowerChanged", None, {"location": locations, "on": [False, True]}, TABLE_EFFECT))
    out.append(Expected("PowerChanged", None, {"on": [True, False], "emergency": [True]},
                        f"{TABLE_EFFECT}: the time token (emergency power)"))
    return out


def self_destruct_offers(state: LockdownState) -> list[Expected]:
    """Table effect, rare: the self-destruct sequence started by an effect (once)."""
    return [Expected("SelfDestructStarted", None, {}, TABLE_EFFECT)] if state.systems.self_destruct is None else []


def effect_groups(state: LockdownState) -> list[Group]:
    """One-tap table effects (``Ruleset.effect_groups``): which of 2–4 fires, then malfunctions, is removed."""
    out: list[Group] = []
    for type_, flag in (("FireRemoved", "fire"), ("MalfunctionRemoved", "malfunction")):
        rooms = [p for p, r in state.ship.rooms.items() if getattr(r, flag)]
        if 2 <= len(rooms) <= OUTCOME_BUTTONS_UP_TO:
            out += [Group((Fact(0, type_, {"room": p}, None),), OUTCOME_NOTE) for p in rooms]
    return out


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("FirePlaced", "table", "A fire marker was placed by an effect. Running out of markers destroys the base.",
             (_f("room", "room", "where"),), {"room": "slot-04"}, S.FIRE),
    FactSpec("FireRemoved", "table", "A fire marker was removed by an effect.",
             (_f("room", "room", "where"),), {"room": "slot-04"}, S.FIRE),
    FactSpec("MalfunctionPlaced", "table",
             "A malfunction marker was placed by an effect. Running out of markers destroys the base.",
             (_f("room", "room", "where"),), {"room": "slot-04"}, S.MALFUNCTION),
    FactSpec("MalfunctionRemoved", "table", "A malfunction marker was removed by an effect.",
             (_f("room", "room", "where"),), {"room": "slot-04"}, S.MALFUNCTION),
    FactSpec("DoorChanged", "table",
             "A door in a corridor was closed, opened or destroyed by an effect (never in technical corridors).",
             (_f("room", "room", "a room the corridor leads to"),
              _f("corridor", "corridor", "the corridor number at that room"),
              _f("state", "door_state", "closed, open or destroyed")),
             {"room": "slot-04", "corridor": 2, "state": "closed"}, S.DOORS),
    FactSpec("PowerChanged", "table",
             "An effect turned the power token of a sector (or the elevator) on or off, or flipped the time token "
             "(emergency power).",
             (_f("location", "location", "S-01, S-02, S-03 or elevator (omit for the time token)", False),
              _f("on", "bool", "powered after the change"),
              _f("emergency", "bool", "true: this is the time token (emergency power) side", False)),
             {"location": "elevator", "on": False}, S.POWER),
    FactSpec("SelfDestructStarted", "table",
             "The self-destruct countdown started by an effect (Coolant Leak with a malfunction in the Cooling "
             "System): yellow token 3 spaces ahead.",
             (), {}, S.SELF_DESTRUCT),
)
_CHECKS = (None, check_fire_removed, check_malfunction, check_malfunction_removed, check_door, None,
           check_self_destruct)  # FirePlaced, PowerChanged: shape only (fact_types.SHAPE_ONLY)
_EFFECTS = (fire_placed, fire_removed, malfunction_placed, malfunction_removed, door_changed, power_changed,
            self_destruct_started)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES if t.check is not None}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
