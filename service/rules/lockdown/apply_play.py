"""Folding the facts of the concepts not yet in a module of their own: items (action cards: ``turns``), room actions, the
computer, the lab and the victory check (decision 0029 lists the concept modules).

The handlers here are registered into ``apply.HANDLERS``, with the concept modules' effects; like every handler they never raise
on a well-shaped fact and return a new state.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> g.push("WoundSuffered", 1, kind="serious", count=3)
    []
    >>> len(g.state.characters[1].serious), g.state.characters[1].status
    (3, 'base')
"""
from __future__ import annotations

from service.rules.kit.replace import replace
from typing import Callable

from service.rules.base import Consequence, Fact
from service.rules.lockdown import (
    combat, condition, endgame, hidden_information, mechanics as M, movement, rooms, systems, turns,
)
from service.rules.lockdown.rooms import ROOM_HANDLERS, reveal_weakness  # noqa: F401 (old paths)
from service.rules.lockdown.combat import injuries_for, move_through  # noqa: F401 (old paths)
from service.rules.lockdown.condition import scan  # noqa: F401 (old path: apply_play.scan)
from service.rules.lockdown.checks import action_cost, who
from service.rules.lockdown.facts import resolve_place
from service.rules.lockdown.mechanics import C, nest_check
from service.rules.lockdown.state import (
    Item, find_object, LockdownState, Pending,
    with_character, with_room,
)

Handler = Callable[[LockdownState, Fact, list[Consequence]], LockdownState]


# --- items ---------------------------------------------------------------------------------------

_add_item = M.add_item  # moved to mechanics: items and the rooms that hand out items share it


def _searched(state, fact, cons):
    d = fact.data
    seat = fact.actor
    place = state.characters[seat].room
    state = M.act(state, fact, 1 + (d.get("cost") or 0))
    r = state.rooms[place]
    if r.items:
        state = with_room(state, place, items=r.items - 1)
        cons.append(C("item-counter", f"Item counter of {state.room_label(place)}: {r.items - 1}.", room=place,
                      items=r.items - 1))
    state = _add_item(state, seat, d["kept"], d["colour"], d.get("where"), d.get("ammo"), cons)
    if r.tile == "contaminated_room":
        state = M.slime(state, seat, cons)
    return state


def _gained(state, fact, cons):
    d = fact.data
    return _add_item(state, fact.actor, d["item"], d.get("colour"), d.get("where"), d.get("ammo"), cons)


_drop_item = M.drop_item  # moved to mechanics: items and the action cards that discard an item share it


def _crafted(state, fact, cons):
    d = fact.data
    seat = fact.actor
    place = state.characters[seat].room
    if d.get("free"):  # the Repository's shared craft (faq_lockdown.md 15): no action, no card
        state = replace(state, free_crafts=tuple(s for s in state.free_crafts if s != seat))
    else:
        state = M.act(state, fact, action_cost(fact))
    for name in d["ingredients"]:
        state, _ = _drop_item(state, seat, name)
    cons.append(C("crafted", f"{who(state, seat)} crafts {d['item']} from {', '.join(d['ingredients'])}"
                  + (" (free: the Repository's shared craft)." if d.get("free") else "."), seat=seat, item=d["item"]))
    state = _add_item(state, seat, d["item"], "blue", d.get("where"), d.get("ammo"), cons)
    if not d.get("free") and place is not None and state.rooms[place].tile == "repository":
        others = tuple(s for s in state.characters_in(place) if s != seat)
        state = replace(state, free_crafts=others)
        if others:
            cons.append(C("repository-craft", "Everyone else in the Repository may now craft once for free, with 1 "
                          "component (record ItemCrafted with free: true) before the next action: "
                          + ", ".join(who(state, s) for s in others) + ".", seats=list(others)))
    return state


def _used(state, fact, cons):
    d = fact.data
    seat = fact.actor
    cost = d.get("cost") or 0
    state = M.pay(state, seat, cost)
    if cost:
        state = M.count_action(state, seat)
    if d.get("ammo"):
        state = combat.spend_ammo(state, seat, d["item"], d["ammo"], cons)
    if d.get("discarded"):
        state, _ = _drop_item(state, seat, d["item"])
    cons.append(C("item-used", f"{who(state, seat)} uses {d['item']}" + (f": {d['note']}." if d.get("note") else ".")
                  + (" It is discarded." if d.get("discarded") else ""), seat=seat, item=d["item"]))
    if d.get("eggs"):  # faq_lockdown.md 10: any injury-dealing item destroys 1 unheld egg per injury
        place = resolve_place(state, d["room"]) if d.get("room") is not None else state.characters[seat].room
        state = _destroy_eggs(state, place, d["eggs"], cons)
    if d.get("eggs") is not None and state.characters[seat].room is not None:
        # "after every single attempt to destroy an egg you must make a noise roll" (seed 000 L472–473), by an
        # item as by a shot or a blow (faq_lockdown.md 10); the roll is the user's, in the room it stands in
        cons.append(C("noise-roll-due", "After every attempt on the eggs: a noise roll.", seat=seat))
        state = replace(state, pending=(Pending("noise", seat, state.characters[seat].room,
                                                reason="egg attack (item)"),) + state.pending)
    if d.get("gained"):  # faq_lockdown.md 18: e.g. the Probe Arm's carcass comes from the supply
        obj = d["gained"]
        state = with_character(state, seat, objects=state.characters[seat].objects + (obj,))
        if obj == "carcass":
            state = replace(state, carcasses=state.carcasses + 1)
        cons.append(C("object-gained", f"{who(state, seat)} takes a {obj} from the supply into a free hand.",
                      seat=seat, object=obj))
    return state


def _destroy_eggs(state: LockdownState, place: str | None, n: int, cons: list[Consequence]) -> LockdownState:
    """Unheld eggs destroyed in ``place``: eggs on the floor first, then the Nest's (lockdown.md §7.12)."""
    if place is None:
        return state
    for _ in range(n):
        if "egg" in state.objects.get(place, ()):
            state = M.take_object(state, place, "egg")
            cons.append(C("egg-destroyed", f"An egg is destroyed in {state.room_label(place)}.", room=place))
        elif state.rooms[place].tile == "nest" and state.rooms[place].explored and state.eggs:
            state = replace(state, eggs=state.eggs - 1)
            cons.append(C("egg-destroyed", f"An egg in the Nest is destroyed ({state.eggs} left).", room=place))
            state = nest_check(state, cons)
    return state


def _traded(state, fact, cons):
    d = fact.data
    seat, other = fact.actor, d.get("with")
    state = M.act(state, fact, action_cost(fact))
    moves = [(seat, other, n) for n in d.get("give") or []] + [(other, seat, n) for n in d.get("take") or []] + \
            [(t["from"], t["to"], t["item"]) for t in d.get("transfers") or []]
    for giver, taker, name in moves:  # a weapon goes with its ammo (seed 000 L1991–1992)
        if giver is None or taker is None:
            continue
        state, thing = _drop_item(state, giver, name)
        if isinstance(thing, Item):
            t = state.characters[taker]
            where = thing.where if thing.where == "backpack" or t.hands_used < 2 else "backpack"
            state = with_character(state, taker, items=t.items + (replace(thing, where=where),))
        elif isinstance(thing, str):
            state = with_character(state, taker, objects=state.characters[taker].objects + (thing,))
    partners = sorted({s for g, t, _ in moves for s in (g, t) if s is not None and s != seat} | (
        {other} if other is not None else set()))
    cons.append(C("traded", f"{who(state, seat)} trades with {', '.join(who(state, s) for s in partners)}.",
                  seat=seat, other=other, seats=partners))
    return state


def _dropped(state, fact, cons):
    seat = fact.actor
    place = state.characters[seat].room
    state, thing = _drop_item(state, seat, fact.data["item"])
    if isinstance(thing, str) and place:
        state = M.add_objects(state, place, (thing,))
        cons.append(C("object-dropped", f"{who(state, seat)} drops the {thing.split(':')[0]} in "
                      f"{state.room_label(place)}.", seat=seat, object=thing))
    elif thing is not None:
        cons.append(C("item-dropped", f"{who(state, seat)} drops {fact.data['item']}: it leaves the game.",
                      seat=seat))
    return state


def _picked(state, fact, cons):
    seat = fact.actor
    place = state.characters[seat].room
    obj = fact.data["object"]
    state = M.act(state, fact, action_cost(fact))
    found = find_object(state.objects.get(place, ()), obj)
    if found is None:
        return state
    state = M.take_object(state, place, found)
    cons.append(C("object-picked", f"{who(state, seat)} picks up the {obj}.", seat=seat, object=found))
    return with_character(state, seat, objects=state.characters[seat].objects + (found,))



# --- objectives, contingency, lab, victory check ------------------------------------------------------------------

HANDLERS: dict[str, Handler] = {
    **condition.EFFECTS,  # wounds, contamination, slime, death (decision 0029)
    "CharacterMovedByEffect": movement.moved_by_effect,
    "IntruderAttacked": combat.attacked, "CharacterShot": combat.shot, "MeleeAttacked": combat.melee,
    "InjuryCheckDrawn": combat.injury_check, "IntruderRetreated": combat.retreated, "IntruderPlaced": combat.placed,
    "IntruderRemoved": combat.removed, "IntruderInjured": combat.injured,
    "ActionCardPlayed": turns.card_played, "RoomSearched": _searched, "ItemGained": _gained, "ItemCrafted": _crafted,
    "ItemUsed": _used, "ItemsTraded": _traded, "ItemDropped": _dropped, "HeavyObjectPickedUp": _picked,
    "FirePlaced": systems.fire_placed, "FireRemoved": systems.fire_removed,
    "MalfunctionPlaced": systems.malfunction_placed, "MalfunctionRemoved": systems.malfunction_removed,
    "DoorChanged": systems.door_changed, "NoiseMarkerPlaced": movement.noise_placed,
    "NoiseMarkerRemoved": movement.noise_removed, "PowerChanged": systems.power_changed,
    "SelfDestructStarted": systems.self_destruct_started,
    **hidden_information.EFFECTS,  # objectives and contingency tokens (decision 0029)
    **endgame.EFFECTS,  # the final scan (decision 0029)
    **rooms.EFFECTS,  # room and computer actions, knowledge, weaknesses (decision 0029)
}
