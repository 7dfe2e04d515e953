"""Folding the facts of the concepts not yet in a module of their own: action cards, room actions, the
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

from typing import Callable

from service.rules.base import Consequence, Fact
from service.rules.lockdown import (
    combat, condition, endgame, hidden_information, items, mechanics as M, movement, rooms, systems,
)
from service.rules.lockdown.rooms import ROOM_HANDLERS, reveal_weakness  # noqa: F401 (old paths)
from service.rules.lockdown.combat import injuries_for, move_through  # noqa: F401 (old paths)
from service.rules.lockdown.condition import scan  # noqa: F401 (old path: apply_play.scan)
from service.rules.lockdown.checks import who
from service.rules.lockdown.facts import resolve_place
from service.rules.lockdown.mechanics import C
from service.rules.lockdown.state import LockdownState, with_character

Handler = Callable[[LockdownState, Fact, list[Consequence]], LockdownState]


# --- cards and items ---------------------------------------------------------------------------------------

def _card_played(state, fact, cons):
    d = fact.data
    seat = fact.actor
    cost = 1 + (d.get("cost") or 0)
    state = M.pay(state, seat, cost)
    if not d.get("reaction"):
        state = M.count_action(state, seat)
    cons.append(C("card-played", f"{who(state, seat)} plays {d['card']} ({cost} card{'s' if cost != 1 else ''})"
                  + (f": {d['note']}." if d.get("note") else "."), seat=seat, card=d["card"], cost=cost))
    if d.get("to_room") is not None:
        state = _card_move(state, fact, cons)
    return state


def _card_move(state, fact, cons):
    """Ogień osłonowy (faq_lockdown.md 28): 1 Item card discarded, then the player's own character or a consenting
    one from the same room goes to an adjacent room — no escape attack; the room entered is resolved as after a
    move (exploration, noise roll: seed 000 L3045–3050)."""
    d = fact.data
    seat = fact.actor
    if d.get("item"):
        state, _ = _drop_item(state, seat, d["item"])
        cons.append(C("item-discarded", f"{who(state, seat)} discards {d['item']} for {d['card']}.", seat=seat,
                      item=d["item"]))
    moved = d.get("character") or seat
    origin = state.characters[moved].room
    dest = resolve_place(state, d["to_room"])
    key = M.entry_key(state, origin, dest, d["corridor"])
    occupied = M.occupied(state, dest, moved)
    state = with_character(state, moved, room=dest)
    cons.append(C("card-move", f"{d['card']}: {who(state, moved)} goes from {state.room_label(origin)} to "
                  f"{state.room_label(dest)} without a night stalker attack.", seat=moved, from_room=origin,
                  to_room=dest, corridor=key))
    M.combat_notice(state, moved, dest, cons)
    return M.entered(state, moved, dest, key, occupied, cons)


_add_item = M.add_item  # moved to mechanics: items and the rooms that hand out items share it
_drop_item = items.drop_item  # moved to items (decision 0037)
_destroy_eggs = items.destroy_eggs  # the same


# --- objectives, contingency, lab, victory check ------------------------------------------------------------------

HANDLERS: dict[str, Handler] = {
    **condition.EFFECTS,  # wounds, contamination, slime, death (decision 0029)
    "CharacterMovedByEffect": movement.moved_by_effect,
    "IntruderAttacked": combat.attacked, "CharacterShot": combat.shot, "MeleeAttacked": combat.melee,
    "InjuryCheckDrawn": combat.injury_check, "IntruderRetreated": combat.retreated, "IntruderPlaced": combat.placed,
    "IntruderRemoved": combat.removed, "IntruderInjured": combat.injured,
    "ActionCardPlayed": _card_played,
    **items.EFFECTS,  # items and crafting (decision 0037)
    "FirePlaced": systems.fire_placed, "FireRemoved": systems.fire_removed,
    "MalfunctionPlaced": systems.malfunction_placed, "MalfunctionRemoved": systems.malfunction_removed,
    "DoorChanged": systems.door_changed, "NoiseMarkerPlaced": movement.noise_placed,
    "NoiseMarkerRemoved": movement.noise_removed, "PowerChanged": systems.power_changed,
    "SelfDestructStarted": systems.self_destruct_started,
    **hidden_information.EFFECTS,  # objectives and contingency tokens (decision 0029)
    **endgame.EFFECTS,  # the final scan (decision 0029)
    **rooms.EFFECTS,  # room and computer actions, knowledge, weaknesses (decision 0029)
}
